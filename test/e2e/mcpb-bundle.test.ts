// The MCP Bundle as a user builds it and a desktop host runs it: generated with --mcpb, installed, `npm run bundle`,
// validated and unpacked with the format's own tool, started exactly as its manifest says, listed over stdio.
import { execFile as execFileCallback } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { quietClient } from "../../scripts/mcp-client.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";
import { npmEnvironment } from "../helpers/user-project.js";

const execFile = promisify(execFileCallback);

/** A manifest's `${…}` placeholders filled in as a host does: the bundle's folder and the user's settings. */
function substitute(text: string, folder: string, settings: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{(__dirname|user_config\.([a-z0-9_]+))\}/g, (_, _name: string, key?: string) =>
    key === undefined ? folder : (settings[key] ?? ""),
  );
}

describe("an MCP Bundle of a generated server", () => {
  it("--mcpb: npm run bundle packs a .mcpb that mcpb validates, and the server in it, started as its manifest says, lists its tools over stdio", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "oapi-mcpb-"));
    await chmod(scratch, 0o755);
    const env = npmEnvironment();
    const upstream = await startUpstream((request, res) =>
      sendJson(res, 200, request.path.startsWith("/items/") ? { data: [{ id: 1, title: "hello" }] } : {}),
    );
    try {
      const project = join(scratch, "project");
      await mkdir(project);
      await writeFile(join(project, "oapi-mcp.config.yaml"), "server:\n  name: tiny-cms\n  version: 1.0.0\nselect:\n  all: true\n");
      // The runtime from a copy in the folder: it is on no registry here. The flag, not the config, asks for the bundle.
      const args = [join(ROOT, "test/fixtures/cms/openapi.yaml"), "--out", "generated", "--runtime", "vendor"];
      const generated = runCli([...args, "--mcpb"], project);
      expect(generated.status, generated.stderr).toBe(0);
      // The folder keeps its bundle without the flag: --check passes as it was generated, --no-mcpb would drop it.
      expect(runCli([...args, "--check"], project).status).toBe(0);
      expect(runCli([...args, "--no-mcpb", "--check"], project).status).toBe(1);
      const folder = join(project, "generated");
      const manifest = JSON.parse(await readFile(join(folder, "manifest.json"), "utf8"));
      const npm = (argv: string[]) => execFile("npm", argv, { cwd: folder, env, maxBuffer: 16 * 1024 * 1024 });
      await npm(["install"]);
      await npm(["run", "bundle"]);
      const bundle = join(folder, "tiny-cms-mcp-server.mcpb");
      const mcpb = (argv: string[]) => execFile(join(folder, "node_modules/.bin/mcpb"), argv, { cwd: folder, env });
      expect((await mcpb(["validate", "manifest.json"])).stdout).toContain("Manifest schema validation passes");
      // Unpacked into a fresh folder, far from the generated one and its node_modules: the bundle carries what it needs.
      const unpacked = join(scratch, "installed");
      await mcpb(["unpack", bundle, unpacked]);
      const contents = await readdir(unpacked);
      expect(contents).toEqual(expect.arrayContaining(["dist", "manifest.json", "node_modules", "package.json"]));
      // The install's settings (here the vendored runtime's .npmrc; elsewhere perhaps a registry token) stay out.
      expect(await readdir(folder)).toContain(".npmrc");
      expect(contents).not.toContain(".npmrc");
      const modules = await readdir(join(unpacked, "node_modules"));
      expect(modules).toContain("oapi-mcp-gen-runtime");
      expect(modules).not.toContain("typescript");
      expect(modules).not.toContain("@anthropic-ai");
      // What a host runs: mcp_config with ${__dirname} and the user's settings filled in (the optional ones left empty).
      const given = manifest.server.mcp_config as { command: string; args: string[]; env: Record<string, string> };
      const fill = (text: string) => substitute(text, unpacked, { api_base_url: upstream.url.href.replace(/\/$/, "") });
      const config = {
        command: given.command,
        args: given.args.map(fill),
        env: Object.fromEntries(Object.entries(given.env).map(([name, value]) => [name, fill(value)])),
      };
      expect(config.command).toBe("node");
      expect(config.args).toEqual([join(unpacked, "dist/server.js"), "--stdio"]);
      const client = quietClient("mcpb-host");
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: config.args,
          env: { PATH: process.env.PATH ?? "", ...config.env },
          cwd: scratch,
          stderr: "ignore",
        }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(manifest.tools.map((tool: { name: string }) => tool.name));
        expect(tools.map((tool) => tool.name)).toContain("read_items");
        const result = await client.callTool({ name: "read_items", arguments: { collection: "articles" } });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect(upstream.requests.at(-1)?.path).toBe("/items/articles");
      } finally {
        await client.close();
      }
    } finally {
      await upstream.close();
      await rm(scratch, { recursive: true, force: true });
    }
  }, 300_000);
});
