/** A document that cannot be read or parsed, with a one-line, user-facing message. */
export class DocumentParseError extends Error {
  override name = "DocumentParseError";
}
