import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./free-port.js";

/** A PostgreSQL server of its own: a temporary data folder, a free port on 127.0.0.1, stopped and removed by `stop`. */
export interface TemporaryPostgres {
  /** The URL of a database on it (`postgres`), as the superuser `postgres` (trust authentication, loopback only). */
  url: string;
  /** The URL of another database on the same server, created empty. */
  createDatabase(name: string): Promise<string>;
  /** Shuts the server down, keeping its data (an outage); `start` brings it back on the same port. */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** Shuts it down and removes its data. */
  stop(): Promise<void>;
}

/**
 * The folder of PostgreSQL's server programs: POSTGRES_BIN, else the newest Debian install (/usr/lib/postgresql/N/bin),
 * else `pg_config --bindir`.
 */
export function postgresBin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.POSTGRES_BIN) return env.POSTGRES_BIN;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((entry) => existsSync(join(debian, entry, "bin", "postgres")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(debian, versions[0], "bin");
  }
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(
      "PostgreSQL's server programs were not found: install them (apt-get install postgresql) or set POSTGRES_BIN to their folder",
    );
  }
}

/** The user the server runs as: PostgreSQL refuses to run as root, so root runs it as `postgres` (or `nobody`). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }));
      const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }));
      return { uid, gid };
    } catch {
      // try the next
    }
  }
  throw new Error("running as root, and there is no postgres or nobody user to run PostgreSQL as");
}

/** Runs one of PostgreSQL's programs to its end, failing with its output. */
function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...(user ?? {}) });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${output.slice(-2000)}`))));
  });
}

/** Waits until the server takes connections, or fails with what it logged. */
async function ready(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited ${child.exitCode}: ${log().slice(-2000)}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`postgres did not start: ${String(error)}\n${log().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts a throwaway PostgreSQL server (tuned for tests: no fsync) and resolves once it takes connections. */
export async function startPostgres(): Promise<TemporaryPostgres> {
  const bin = postgresBin();
  const user = serverUser();
  const folder = await mkdtemp(join(tmpdir(), "oapi-pg-"));
  if (user) await chown(folder, user.uid, user.gid);
  const data = join(folder, "data");
  await run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"], user);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let log = "";
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      join(bin, "postgres"),
      [
        "-D",
        data,
        "-p",
        String(port),
        "-h",
        "127.0.0.1",
        "-k",
        folder,
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
      ],
      { stdio: ["ignore", "pipe", "pipe"], ...(user ?? {}) },
    );
    const keep = (chunk: Buffer) => {
      log = (log + chunk).slice(-20_000);
    };
    started.stdout?.on("data", keep);
    started.stderr?.on("data", keep);
    child = started;
    await ready(url, started, () => log);
  };
  const halt = async () => {
    const running = child;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGINT"); // fast shutdown
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (running.exitCode === null) running.kill("SIGKILL");
  };
  const stop = async () => {
    await halt();
    await rm(folder, { recursive: true, force: true });
  };
  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    async createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    halt,
    start,
    stop,
  };
}
