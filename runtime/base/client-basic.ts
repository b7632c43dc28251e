/** An OAuth client's HTTP Basic credentials (RFC 6749 §2.3.1: id and secret form-encoded first). */
export function clientBasic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}
