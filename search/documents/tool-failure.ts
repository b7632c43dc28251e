/** A failure a tool reports to its caller as `{"error": true, "message": …}`. */
export class ToolFailure extends Error {
  override name = "ToolFailure";
}

/**
 * A load of `name` that failed: what went wrong once, without the name its parse error already starts with (the
 * document's own path or URL is not shown: it is the server's), and whether an earlier load of that name stays.
 */
export function loadFailure(name: string, problem: string, kept: boolean): ToolFailure {
  const own = `'${name}': `;
  const reason = problem.startsWith(own) ? problem.slice(own.length) : problem;
  return new ToolFailure(`Failed to load '${name}': ${reason}${kept ? ` The previously loaded '${name}' is kept.` : ""}`);
}
