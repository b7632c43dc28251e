/** A failure a tool reports to its caller as `{"error": true, "message": …}`. */
export class ToolFailure extends Error {
  override name = "ToolFailure";
}
