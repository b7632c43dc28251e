import { readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import { isRecord } from "../base/own-property.js";

/** Where `{ "path": … }` file arguments may be read from, and how large any file argument may be. */
export interface UploadPolicy {
  /** Real path of the folder path arguments must lie in (`UPLOAD_DIR`); unset disables them. */
  uploadDir?: string;
  /** `MAX_UPLOAD_BYTES` @default 26214400 */
  maxUploadBytes?: number;
}

/** The bytes of a file argument, with its declared name and type. */
export interface FileContent {
  bytes: Uint8Array;
  filename?: string;
  contentType?: string;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** A file argument the caller must fix; shown as an invalid-arguments result. */
export class FileArgumentError extends Error {
  override name = "FileArgumentError";
}

/** Reads a `{ base64 }` or `{ path }` file argument; paths must resolve inside the upload folder. */
export async function readFileArgument(file: unknown, uploads: UploadPolicy, argument: string): Promise<FileContent> {
  if (!isRecord(file)) throw new FileArgumentError(`${argument}: expected a file object with base64 or path`);
  const limit = uploads.maxUploadBytes ?? 25 * 1024 * 1024;
  const meta = {
    ...(typeof file.filename === "string" ? { filename: file.filename } : {}),
    ...(typeof file.contentType === "string" ? { contentType: file.contentType } : {}),
  };
  if (typeof file.base64 === "string") {
    const text = file.base64.replace(/\s+/g, "");
    if (!BASE64.test(text)) throw new FileArgumentError(`${argument}: base64 is not valid base64`);
    const bytes = Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64");
    if (bytes.length > limit) throw new FileArgumentError(`${argument}: file larger than the ${limit}-byte upload limit`);
    return { bytes, ...meta };
  }
  if (typeof file.path === "string") {
    if (!uploads.uploadDir)
      throw new FileArgumentError(`${argument}: file paths are disabled on this server (it has no UPLOAD_DIR); send base64`);
    const target = await realpath(resolve(uploads.uploadDir, file.path)).catch(() => undefined);
    const rel = target === undefined ? ".." : relative(uploads.uploadDir, target);
    if (target === undefined || rel.startsWith("..") || isAbsolute(rel)) {
      throw new FileArgumentError(`${argument}: no such file under the upload folder: ${file.path}`);
    }
    const info = await stat(target);
    if (!info.isFile()) throw new FileArgumentError(`${argument}: not a file: ${file.path}`);
    if (info.size > limit) throw new FileArgumentError(`${argument}: file larger than the ${limit}-byte upload limit`);
    return {
      bytes: await readFile(target),
      filename: meta.filename ?? file.path.split(/[\\/]/).pop(),
      ...(meta.contentType ? { contentType: meta.contentType } : {}),
    };
  }
  throw new FileArgumentError(`${argument}: expected a file object with base64 or path`);
}
