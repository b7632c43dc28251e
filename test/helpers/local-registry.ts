import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "../../scripts/free-port.js";
import { NODE22, nodeToolFile } from "./node-tools.js";

/** A real package registry (Verdaccio, on Node 22) on loopback, with a user who may publish. */
export interface LocalRegistry {
  url: string;
  /** An npm user config that publishes to this registry as its user (and installs from it). */
  publisherConfig: string;
  /** An npm user config that knows only this registry, as a fresh project's would. */
  userConfig: string;
  close(): Promise<void>;
}

/** The registry npm is configured with here (the real one, or a mirror): Verdaccio's uplink for everything not ours. */
function upstreamRegistry(): string {
  return execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim().replace(/\/*$/, "/");
}

/** Verdaccio's settings: our two packages only from what is published to it, every other name through the uplink. */
function configText(folder: string, listen: string): string {
  const own = { access: "$all", publish: "$authenticated", unpublish: "$authenticated" };
  const proxied = { ...own, proxy: "npmjs" };
  const config = {
    storage: join(folder, "storage"),
    auth: { htpasswd: { file: join(folder, "htpasswd"), max_users: 1 } },
    uplinks: { npmjs: { url: upstreamRegistry(), timeout: "60s", maxage: "30m" } },
    packages: { "oapi-mcp-gen": own, "oapi-mcp-gen-runtime": own, "@*/*": proxied, "**": proxied },
    web: { enable: false },
    middlewares: { audit: { enabled: false } },
    log: { type: "stdout", format: "pretty", level: "warn" },
    listen,
  };
  // YAML is a superset of JSON: Verdaccio reads this as its config.yaml.
  return JSON.stringify(config, null, 2);
}

/**
 * Starts Verdaccio in `folder` (its storage, config and the npm configs it hands out) on a free loopback port, and signs
 * up the one user who publishes.
 */
export async function startLocalRegistry(folder: string): Promise<LocalRegistry> {
  if (!NODE22) throw new Error("Verdaccio needs Node 22 (npm run setup:node22; linux-x64 only)");
  await mkdir(folder, { recursive: true });
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const url = `http://${host}/`;
  await writeFile(join(folder, "config.yaml"), configText(folder, host));
  const child: ChildProcess = spawn(NODE22, [nodeToolFile("verdaccio", "bin/verdaccio"), "--config", join(folder, "config.yaml")], {
    cwd: folder,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk));
  const deadline = Date.now() + 30_000;
  while (!(await fetch(`${url}-/ping`).catch(() => undefined))?.ok) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`Verdaccio did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // npm adduser's own request: the registry answers with the token npm would store.
  const signUp = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "publisher", password: "release-test-password", type: "user", roles: [] }),
  });
  const { token } = (await signUp.json()) as { token?: string };
  if (!signUp.ok || !token) throw new Error(`Verdaccio refused the publisher (${signUp.status}):\n${output}`);
  const userConfig = join(folder, "user.npmrc");
  const publisherConfig = join(folder, "publisher.npmrc");
  await writeFile(userConfig, `registry=${url}\n`);
  await writeFile(publisherConfig, `registry=${url}\n//${host}/:_authToken=${token}\n`);
  return {
    url,
    userConfig,
    publisherConfig,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(join(folder, "storage"), { recursive: true, force: true });
    },
  };
}
