import { createHash } from "node:crypto";

/** SHA-256 of a text (as UTF-8) or bytes, in hex: what the run manifest and the render cache record of a file. */
export function sha256Hex(content: string | Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}
