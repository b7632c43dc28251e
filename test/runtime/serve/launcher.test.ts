import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/free-port.js";
import { ROOT } from "../../helpers/cli.js";

/** Whether a process is still alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a server the way `npx`/`npm start` do (a launcher process with npm's environment, the server its child), then
 * kills the launcher outright, as a SIGTERM to npx can leave it: the server must not stay behind.
 */
async function orphaned(argsFor: (port: number) => string[], env: Record<string, string>): Promise<{ served: boolean; ended: boolean }> {
  const port = await freePort();
  const args = argsFor(port);
  const launcher = spawn(
    process.execPath,
    [
      "-e",
      `const c = require("node:child_process").spawn(process.execPath, ${JSON.stringify(args)}, { stdio: ["ignore", "ignore", "inherit"] }); console.log(c.pid); setInterval(() => {}, 1000);`,
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", npm_command: "exec", PORT: String(port), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let logged = "";
  launcher.stderr?.on("data", (chunk: Buffer) => (logged += chunk));
  const pid = await new Promise<number>((resolve) =>
    launcher.stdout?.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
  );
  let served = false;
  for (let tries = 0; tries < 100 && !served; tries++) {
    served = (await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.ok === true;
    if (!served) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  launcher.kill("SIGKILL");
  let ended = false;
  for (let tries = 0; tries < 150 && !ended; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ended = !alive(pid);
  }
  if (!served || !ended) process.stderr.write(`${args.join(" ")}:\n${logged}\n`);
  if (!ended) process.kill(pid, "SIGKILL");
  return { served, ended };
}

describe("servers end with the npm or npx process that launched them", () => {
  it("the search server", async () => {
    expect(await orphaned((port) => ["dist/generator/cli/cli.js", "search", "--memory", "--no-files", "--port", String(port)], {})).toEqual(
      {
        served: true,
        ended: true,
      },
    );
  }, 30_000);

  it("a generated server", async () => {
    expect(await orphaned(() => ["dist/generated/server.js"], { API_BASE_URL: "http://127.0.0.1:9" })).toEqual({
      served: true,
      ended: true,
    });
  }, 30_000);
});
