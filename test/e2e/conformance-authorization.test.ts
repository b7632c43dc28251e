import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/free-port.js";
import { authorize } from "../helpers/authorization-server.js";
import { ROOT } from "../helpers/cli.js";
import { NODE22, nodeToolFile } from "../helpers/node-tools.js";
import { startProxyStack } from "../helpers/proxy-stack.js";

/** The 0.2 alpha of the conformance suite (on Node 22), whose `authorization` command tests an authorization server. */
const SUITE = nodeToolFile("mcp-conformance-2026", "dist/index.js");

type Stack = Awaited<ReturnType<typeof startProxyStack>>;
let stack: Stack;
beforeAll(async () => {
  stack = await startProxyStack();
});
afterAll(async () => {
  await stack?.close();
});

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/**
 * Runs the authorization-server scenarios against the proxy and returns its checks; `onLine` sees what the suite prints
 * (the authorization-code grant prints the URL a person would open in a browser).
 */
function scenario(extra: string[], onLine: (line: string) => void = () => undefined): Promise<Check[]> {
  const out = mkdtempSync(join(tmpdir(), "conformance-authorization-"));
  const args = [SUITE, "authorization", "--url", stack.publicUrl, "-o", out, ...extra];
  return new Promise((resolve, reject) => {
    const child = spawn(NODE22 as string, args, { cwd: join(ROOT, ".tmp") });
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split("\n")) onLine(line.trim());
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("error", reject);
    child.on("close", () => {
      try {
        const found: Check[] = [];
        for (const dir of readdirSync(out)) found.push(...(JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as Check[]));
        resolve(found);
      } catch (error) {
        reject(new Error(`no results: ${output.slice(-1500)} (${error})`));
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });
  });
}

describe("the MCP conformance suite's authorization-server scenarios against proxy mode (Node 22)", () => {
  it("authorization-server-metadata-endpoint and authorization-code-grant (a registered public client, PKCE, resource): every check succeeds", async () => {
    const port = await freePort();
    const redirect = `http://127.0.0.1:${port}/callback`;
    const registered = await fetch(new URL("/register", stack.publicUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "MCP conformance suite", redirect_uris: [redirect] }),
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    let browsed: Promise<void> | undefined;
    // Both scenarios in one run: the grant reads the metadata the first one fetched.
    const checks = await scenario(["--client-id", client_id, "--port", String(port), "--resource", stack.mcp.href], (line) => {
      if (browsed || !line.startsWith(`${stack.publicUrl}/authorize?`)) return;
      // What a person does with the printed URL: open it, allow, sign in; the browser then lands on the suite's callback.
      browsed = authorize(new URL(line), redirect).then(async (back) => {
        await fetch(`${redirect}?${back.toString()}`);
      });
    });
    await browsed;
    expect(checks.map((check) => `${check.id}: ${check.status} ${check.errorMessage ?? ""}`.trim()).sort()).toEqual([
      "authorization-code-grant: SUCCESS",
      "authorization-server-metadata-cimd: SUCCESS",
      "authorization-server-metadata: SUCCESS",
    ]);
  }, 60_000);
});
