/** A configuration problem, reported as one line at start-up. */
export class EnvironmentError extends Error {
  override name = "EnvironmentError";
}
