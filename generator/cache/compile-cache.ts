/**
 * V8's compiled code of the generator's largest dependencies (two copies of TypeScript, ts-morph), kept between runs,
 * so a run does not compile 20 MB of JavaScript again: Node's own compile cache where Node has one (22.1+); on Node 20,
 * a hook on CommonJS compilation for those files alone. The cache holds code of installed packages, never anything
 * read from a document; it lives in a folder only this user can write to.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import vm from "node:vm";

/** Files below this size compile quickly enough: Node compiles them itself. */
const LARGE = 512 * 1024;

/** What of Node's CommonJS loader the hook uses. */
interface CommonJsLoader {
  prototype: { _compile(this: LoadedModule, content: string, filename: string, format?: string): unknown };
  wrap(content: string): string;
  _resolveFilename(request: string, parent: LoadedModule, isMain: boolean, options?: unknown): string;
  _resolveLookupPaths(request: string, parent: LoadedModule): string[] | null;
  _extensions: unknown;
  _cache: unknown;
  enableCompileCache?: (dir: string) => unknown;
}

interface LoadedModule {
  exports: unknown;
  require(id: string): unknown;
}

const Module: CommonJsLoader = createRequire(import.meta.url)("node:module");

let enabled = false;

/** The cache's folder: `OAPI_MCP_GEN_COMPILE_CACHE`, else this user's folder in the temporary folder; none when turned off. */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.OAPI_MCP_GEN_COMPILE_CACHE;
  if (configured === "0" || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const user = typeof process.getuid === "function" ? `-${process.getuid()}` : "";
  return configured || join(tmpdir(), `oapi-mcp-gen-compile-cache${user}`);
}

/** Whether a folder may hold code this process runs: a real folder (not a link) of this user's that no one else can write to. */
export function isPrivateFolder(path: string): boolean {
  try {
    const stat = lstatSync(path);
    if (!stat.isDirectory()) return false;
    return typeof process.getuid !== "function" || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
  } catch {
    return false;
  }
}

/** Makes a folder (readable by this user alone) unless it is there, and says whether it is private. */
function madePrivate(path: string): boolean {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch {
    return false;
  }
  return isPrivateFolder(path);
}

/** Turns the cache on for this thread; false when it is off, or its folder cannot be made private. */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): boolean {
  if (enabled) return true;
  const root = compileCacheFolder(env);
  if (!root) return false;
  const folder = join(root, `${process.arch}-v8-${process.versions.v8}`);
  if (!madePrivate(root) || !madePrivate(folder)) return false;
  if (Module.enableCompileCache) Module.enableCompileCache(folder);
  else hookLargeModules(folder);
  enabled = true;
  return true;
}

/** Whether this thread's cache is on: worker threads turn theirs on when the thread that started them has. */
export function compileCacheEnabled(): boolean {
  return enabled;
}

/**
 * Compiles large CommonJS files with V8's cached data from the folder, and at exit saves the code of those that had
 * none: made then, it holds every function the run compiled, not only the top level.
 */
function hookLargeModules(folder: string): void {
  const compile = Module.prototype._compile;
  const fresh: { script: vm.Script; file: string; source: Buffer }[] = [];
  Module.prototype._compile = function (content, filename, format) {
    if ((format !== undefined && format !== "commonjs") || content.length < LARGE || content.startsWith("#!")) {
      return compile.call(this, content, filename, format);
    }
    // One file per module path (a new version of the package replaces it), checked against the source it was made from.
    const file = join(folder, `${digest(filename).toString("hex").slice(0, 40)}.bin`);
    const source = sourceIdentity(filename, content);
    const cachedData = readCached(file, source);
    const script = new vm.Script(Module.wrap(content), {
      filename,
      ...(cachedData ? { cachedData } : {}),
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (cachedData === undefined || script.cachedDataRejected) fresh.push({ script, file, source });
    const wrapper: (...args: unknown[]) => unknown = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
  process.once("exit", () => {
    for (const { script, file, source } of fresh) saveCached(file, source, script.createCachedData());
  });
}

/** The `require` a module's code is given, as Node's loader makes it. */
function requireFor(module: LoadedModule) {
  const require = (id: string) => module.require(id);
  const resolve = (request: string, options?: unknown) => Module._resolveFilename(request, module, false, options);
  resolve.paths = (request: string) => Module._resolveLookupPaths(request, module);
  return Object.assign(require, { resolve, main: process.mainModule, extensions: Module._extensions, cache: Module._cache });
}

/**
 * What a cache file must have been made from: the module's file as it is now (path, length, size, device, inode and
 * times: reinstalling or editing a package changes them). Hashing 13 MB of source text instead took 60 ms a thread.
 */
function sourceIdentity(filename: string, content: string): Buffer {
  const { dev, ino, size, mtimeNs, ctimeNs } = statSync(filename, { bigint: true });
  return digest([filename, content.length, dev, ino, size, mtimeNs, ctimeNs].join("\u0000"));
}

/** SHA-256 of a text or bytes. */
function digest(value: string | Buffer): Buffer {
  return createHash("sha256").update(value).digest();
}

/**
 * A cache file's cached data, when it was made from this source and is whole: V8 11 (Node 20) does not check the data
 * it is given, and a changed byte can crash the process. A file is the source's identity (sourceIdentity), the data's digest, the data.
 */
function readCached(file: string, source: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (bytes.length <= 64 || !bytes.subarray(0, 32).equals(source)) return undefined;
  const data = bytes.subarray(64);
  return bytes.subarray(32, 64).equals(digest(data)) ? data : undefined;
}

/** Writes a cache file whole or not at all (threads and runs may write the same one at once); a failure only loses it. */
function saveCached(file: string, source: Buffer, data: Buffer): void {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    writeFileSync(temporary, Buffer.concat([source, digest(data), data]), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // The next run compiles the file again.
  }
}
