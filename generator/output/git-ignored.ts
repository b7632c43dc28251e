import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** A generated file that git would leave out of a commit, and the rule that does it (`.gitignore:3:dist/`). */
export interface IgnoredFile {
  path: string;
  rule: string;
}

/** How long git may take to answer, and how much it may say: a check never waits on it. */
const GIT_TIMEOUT_MS = 10_000;
const GIT_MAX_OUTPUT = 4 * 1024 * 1024;

/**
 * The generated files (paths inside `out`) that the ignore rules of the git work tree around `out` leave out of a
 * commit, so that a clean clone would lack them; empty outside a work tree or without git. `out` need not exist yet.
 * @see https://git-scm.com/docs/git-check-ignore
 */
export function ignoredFiles(out: string, paths: readonly string[]): IgnoredFile[] {
  if (paths.length === 0) return [];
  let cwd = resolve(out);
  while (!existsSync(cwd) && dirname(cwd) !== cwd) cwd = dirname(cwd);
  const inside = relative(cwd, resolve(out));
  const answer = spawnSync("git", ["check-ignore", "--verbose", "--non-matching", "--no-index", "-z", "--stdin"], {
    cwd,
    input: paths.map((path) => `${inside === "" ? path : join(inside, path)}\0`).join(""),
    encoding: "utf8",
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: GIT_MAX_OUTPUT,
  });
  // 0: some matched a rule; 1: none did; 128 (not a work tree) or a failure to start: nothing to say.
  if (answer.status !== 0 || typeof answer.stdout !== "string") return [];
  const fields = answer.stdout.split("\0");
  const ignored: IgnoredFile[] = [];
  // -z --verbose: source, line number, pattern and path, each ended by NUL; a non-matching path has empty fields.
  for (let at = 0; at + 3 < fields.length; at += 4) {
    const [source = "", line = "", pattern = "", path = ""] = fields.slice(at, at + 4);
    if (source === "" || pattern.startsWith("!")) continue;
    ignored.push({ path: relative(process.cwd(), join(cwd, path)) || path, rule: `${source}:${line}: ${pattern}` });
  }
  return ignored;
}
