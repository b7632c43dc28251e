/** A problem the user can fix (config, document, arguments): printed as lines, no stack trace. */
export class UserError extends Error {
  override name = "UserError";
  /** Each problem on its own line. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[] | string) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(list.join("\n"));
    this.problems = list;
  }
}

/** A config's selection that does not fit the document (unknown operationIds, tags or overrides). */
export class SelectionError extends UserError {
  override name = "SelectionError";
}

/** A config that does not fit the config schema; `value` is the config as parsed, for the checks that can still run. */
export class ConfigShapeError extends UserError {
  override name = "ConfigShapeError";
  readonly value: unknown;

  constructor(problems: readonly string[], value: unknown) {
    super(problems);
    this.value = value;
  }
}
