import { execFile as execFileCallback } from "node:child_process";
import { cp, mkdir, readdir, readFile, stat } from "node:fs/promises";
import { join, posix } from "node:path";
import { promisify } from "node:util";

const execFile = promisify(execFileCallback);

/** The last stage of a Dockerfile carried out without a Docker engine: where its files are and how it starts. */
export interface BuiltStage {
  /** The stage's filesystem root on this machine (container paths live under it). */
  root: string;
  /** The working directory, as a path on this machine. */
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  cmd: string[];
  healthcheck: string | undefined;
  /** Every instruction that ran, in order (for failure messages). */
  log: string[];
}

interface Stage {
  name: string;
  root: string;
  workdir: string;
  env: Record<string, string>;
  /** Its ARGs' values, which RUN sees. */
  args: Record<string, string>;
  user?: string;
  cmd: string[];
  healthcheck?: string;
}

/** Dockerfile lines with continuations joined and comments dropped. */
function instructions(text: string): string[] {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** Patterns of a .dockerignore (plain names and folder names; enough for what the generator writes). */
async function ignored(context: string): Promise<Set<string>> {
  const text = await readFile(join(context, ".dockerignore"), "utf8").catch(() => "");
  return new Set(
    text
      .split("\n")
      .map((line) => line.trim().replace(/\/$/, ""))
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
}

/**
 * The image's own npm cache, so `npm cache clean` in a RUN clears it and never the user's: a snapshot of the user's
 * (the index copied, the content hard-linked, as cacache never writes a content file in place).
 */
async function imageNpmCache(scratch: string): Promise<string> {
  const own = join(scratch, "npm-cache");
  await mkdir(join(own, "_cacache"), { recursive: true });
  const user = join((await execFile("npm", ["config", "get", "cache"], { encoding: "utf8" })).stdout.trim(), "_cacache");
  if ((await readdir(user).catch(() => [])).length === 0) return own;
  await execFile("cp", ["-r", join(user, "index-v5"), join(own, "_cacache")]).catch(() => undefined);
  await execFile("cp", ["-al", join(user, "content-v2"), join(own, "_cacache")]).catch(() => undefined);
  return own;
}

/**
 * Carries out FROM, ARG (with `buildArgs`, as `--build-arg` gives them), WORKDIR, ENV, COPY (from the context or an earlier stage), RUN, USER, CMD and HEALTHCHECK in
 * scratch folders, one per stage; RUN commands run with `sh -c` in the stage's working directory with `runEnv`
 * added (the base image's Node is this machine's) and an npm cache of the image's own. Throws when a RUN fails, as `docker build` would.
 */
export async function buildDockerfile(
  dockerfile: string,
  context: string,
  scratch: string,
  runEnv: NodeJS.ProcessEnv,
  buildArgs: Readonly<Record<string, string>> = {},
): Promise<BuiltStage> {
  const stages: Stage[] = [];
  const log: string[] = [];
  const npmCache = await imageNpmCache(scratch);
  const skip = await ignored(context);
  const at = (stage: Stage, path: string) => join(stage.root, posix.resolve(stage.workdir, path));
  for (const line of instructions(await readFile(dockerfile, "utf8"))) {
    const [keyword = "", ...rest] = line.split(/\s+/);
    const args = line.slice(keyword.length).trim();
    log.push(line);
    const stage = stages.at(-1);
    if (keyword === "FROM") {
      const root = join(scratch, `stage-${stages.length}`);
      await mkdir(root, { recursive: true });
      stages.push({ name: rest[2] ?? String(stages.length), root, workdir: "/", env: {}, args: {}, cmd: [] });
      continue;
    }
    if (!stage) throw new Error(`${line}: before any FROM`);
    if (keyword === "WORKDIR") {
      stage.workdir = posix.resolve(stage.workdir, args);
      await mkdir(join(stage.root, stage.workdir), { recursive: true });
    } else if (keyword === "ARG") {
      // As docker build does: the build's --build-arg, else the default; seen by RUN, not kept in the image's ENV.
      const [name = "", ...value] = args.split("=");
      const given = buildArgs[name] ?? (value.length > 0 ? value.join("=") : undefined);
      if (given !== undefined) stage.args[name] = given;
    } else if (keyword === "ENV") {
      for (const pair of args.split(/\s+/)) {
        const [name = "", ...value] = pair.split("=");
        stage.env[name] = value.join("=");
      }
    } else if (keyword === "COPY") {
      const from = rest[0]?.startsWith("--from=") ? rest[0].slice("--from=".length) : undefined;
      const paths = from ? rest.slice(1) : rest;
      const destination = at(stage, paths.at(-1) as string);
      const source = from ? stages.find((s) => s.name === from) : undefined;
      if (from && !source) throw new Error(`${line}: no stage named ${from}`);
      for (const path of paths.slice(0, -1)) {
        if (source) {
          await cp(join(source.root, posix.resolve("/", path)), join(destination, paths.length > 2 ? posix.basename(path) : ""), {
            recursive: true,
          });
          continue;
        }
        if (path === ".") {
          await mkdir(destination, { recursive: true });
          for (const entry of await readdir(context)) {
            if (!skip.has(entry)) await cp(join(context, entry), join(destination, entry), { recursive: true });
          }
        } else if (path.includes("*")) {
          // A glob copies what matches, and nothing when nothing does (`package*.json` without a lockfile).
          const pattern = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
          await mkdir(destination, { recursive: true });
          for (const entry of await readdir(context)) if (pattern.test(entry)) await cp(join(context, entry), join(destination, entry));
        } else if ((await stat(join(context, path))).isDirectory()) {
          // As Docker does: a folder's contents go into the destination folder.
          await cp(join(context, path), destination, { recursive: true });
        } else {
          await mkdir(destination, { recursive: true });
          await cp(join(context, path), join(destination, posix.basename(path)), { recursive: true });
        }
      }
    } else if (keyword === "RUN") {
      await execFile("sh", ["-c", args], {
        cwd: join(stage.root, stage.workdir),
        env: { ...runEnv, npm_config_cache: npmCache, ...stage.args, ...stage.env },
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stderr?: string }) => {
        throw new Error(`${line} failed:\n${error.stderr ?? ""}`);
      });
    } else if (keyword === "USER") {
      stage.user = args;
    } else if (keyword === "CMD") {
      stage.cmd = JSON.parse(args) as string[];
    } else if (keyword === "HEALTHCHECK") {
      stage.healthcheck = args.replace(/^CMD\s+/, "");
    } else if (keyword !== "EXPOSE") {
      throw new Error(`${line}: not supported by this Dockerfile runner`);
    }
  }
  const last = stages.at(-1);
  if (!last) throw new Error("no FROM in the Dockerfile");
  return {
    root: last.root,
    workdir: join(last.root, last.workdir),
    env: last.env,
    user: last.user,
    cmd: last.cmd,
    healthcheck: last.healthcheck,
    log,
  };
}
