import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/free-port.js";
import { connectClient } from "../../../scripts/mcp-client.js";
import { ROOT } from "../../helpers/cli.js";
import { startUpstream } from "../../helpers/upstream.js";

/** A module hook that records the URL of every module the process loads, one a line, in the file it is given. */
const RECORDER = `
import { appendFileSync } from "node:fs";
let file;
export function initialize(data) { file = data.file; }
export async function load(url, context, nextLoad) { appendFileSync(file, url + "\\n"); return nextLoad(url, context); }
`;

describe("what a tools-mode server loads", () => {
  let scratch: string;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "oapi-loads-"));
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("serves tools/list and a call without loading the runtime's discovery/ or code/ (nor the JavaScript engine)", async () => {
    const loaded = join(scratch, "loaded.txt");
    await writeFile(loaded, "");
    await writeFile(join(scratch, "recorder.mjs"), RECORDER);
    const register = `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(scratch, "recorder.mjs")).href)}, { data: { file: ${JSON.stringify(loaded)} } });\n`;
    await writeFile(join(scratch, "register.mjs"), register);
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ["--import", pathToFileURL(join(scratch, "register.mjs")).href, join(ROOT, "dist/generated/server.js")],
      {
        env: { PATH: process.env.PATH ?? "", API_BASE_URL: upstream.url.href, PORT: String(port) },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      const url = new URL(`http://127.0.0.1:${port}/mcp`);
      let client: Awaited<ReturnType<typeof connectClient>> | undefined;
      for (let attempt = 0; attempt < 100 && !client; attempt++) {
        client = await connectClient(url).catch(() => undefined);
        if (!client) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (!client) throw new Error("the server did not start");
      const { tools } = await client.listTools();
      expect(tools.length).toBe(17);
      const result = await client.callTool({ name: "attachment_get_attachment", arguments: { attachment: "a1" } });
      expect(result.isError).toBeFalsy();
      await client.close();
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    const urls = (await readFile(loaded, "utf8")).split("\n").filter((line) => line.includes("/runtime/dist/"));
    // The recorder saw the tool runtime and the call path, so its silence about discovery/ means something.
    expect(urls.some((line) => line.endsWith("/runtime/dist/tools/call-tool.js"))).toBe(true);
    expect(urls.some((line) => line.endsWith("/runtime/dist/call/upstream.js"))).toBe(true);
    expect(urls.filter((line) => line.includes("/runtime/dist/discovery/") || line.includes("/runtime/dist/code/"))).toEqual([]);
    expect(urls.filter((line) => /quickjs|sucrase/.test(line))).toEqual([]);
  });
});
