import { randomBytes } from "node:crypto";

/** One part of a `multipart/form-data` body. */
export interface MultipartPart {
  readonly name: string;
  readonly data: string | Uint8Array;
  readonly filename?: string;
  /** The part's media type; none means text/plain (RFC 7578 §4.4). */
  readonly contentType?: string;
  /** Further part headers (the Encoding Object's `headers`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A part header value that would end its line. */
export class PartHeaderError extends Error {
  override name = "PartHeaderError";
}

/**
 * Writes a `multipart/form-data` body (RFC 7578) part by part, so each part carries exactly the headers its Encoding
 * Object names. Names and filenames are escaped as browsers do (`"`, CR and LF percent-encoded).
 * @see https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#multipart-form-data
 */
export function multipartBody(parts: readonly MultipartPart[], boundary = `----oapi-mcp-gen-${randomBytes(12).toString("hex")}`) {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    const lines = [`--${boundary}`];
    const filename = part.filename !== undefined ? `; filename="${escapeQuoted(part.filename)}"` : "";
    lines.push(`Content-Disposition: form-data; name="${escapeQuoted(part.name)}"${filename}`);
    if (part.contentType !== undefined) lines.push(`Content-Type: ${headerValue(part.contentType, "Content-Type")}`);
    for (const [name, value] of Object.entries(part.headers ?? {})) lines.push(`${name}: ${headerValue(value, name)}`);
    chunks.push(Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8"));
    chunks.push(typeof part.data === "string" ? Buffer.from(part.data, "utf8") : part.data);
    chunks.push(Buffer.from("\r\n", "utf8"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, "utf8"));
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(chunks) };
}

function escapeQuoted(text: string): string {
  return text.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function headerValue(value: string, name: string): string {
  if (/[\r\n\0]/.test(value)) throw new PartHeaderError(`the ${name} of a multipart part must not contain line breaks`);
  return value;
}
