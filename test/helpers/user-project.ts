import { execFileSync, spawn } from "node:child_process";
import { freePort } from "../../scripts/free-port.js";
import { connectClient } from "../../scripts/mcp-client.js";
import type { buildDockerfile } from "./dockerfile.js";

/**
 * This process's environment for npm commands a user would run: npm's own registry, quiet, no test run's variables;
 * what npm has cached is used without asking the registry again (`prefer-offline`: the same packages, fewer round trips).
 */
export function npmEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_loglevel: "error",
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
  };
  for (const key of Object.keys(env)) if (/^(npm_(package|lifecycle)_|INIT_CWD|VITEST)/.test(key)) delete env[key];
  return env;
}

/** Starts an image's CMD (its stage built without Docker) on a free loopback port and calls memo_list_memos once. */
export async function callImage(image: Awaited<ReturnType<typeof buildDockerfile>>, env: NodeJS.ProcessEnv, upstream: URL) {
  const port = await freePort();
  const child = spawn(process.execPath, image.cmd.slice(1), {
    cwd: image.workdir,
    env: { ...env, ...image.env, HOST: "127.0.0.1", PORT: String(port), API_BASE_URL: upstream.href },
    stdio: "ignore",
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let tries = 0; tries < 100 && !(await fetch(`${base}/health`).catch(() => undefined))?.ok; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const client = await connectClient(new URL(`${base}/mcp`));
    const called = await client.callTool({ name: "memo_list_memos", arguments: {} });
    await client.close();
    return called;
  } finally {
    child.kill("SIGTERM");
  }
}

/** The uid and gid of a local account. */
export function accountIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}
