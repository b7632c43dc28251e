/** Corpus worker: checks one document per message and answers with a one-line verdict. */

import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler, createToolRuntime, silentLogger, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { UserError } from "../generator/base/index.js";
import { generateFromFile } from "../generator/generate.js";
import { DocumentParseError } from "../openapi/document/index.js";
import { toolDefinition } from "../templates/tool-module.js";
import { dialectProblems, distinctSchemas } from "../test/helpers/schema-dialects.js";
import { connectClient } from "./mcp-client.js";

/** What happened to one document. */
export interface CorpusVerdict {
  file: string;
  outcome: "ok" | "error" | "crash";
  tools: number;
  message?: string;
  ms: number;
}

/** Where the generated files differ from what prettier alone makes of them: the first file and line, or undefined. */
function layoutDifference(ours: ReadonlyMap<string, string>, prettiers: ReadonlyMap<string, string>): string | undefined {
  for (const [path, text] of prettiers) {
    const mine = ours.get(path) ?? "";
    if (mine === text) continue;
    const a = mine.split("\n");
    const b = text.split("\n");
    const line = a.findIndex((item, index) => item !== b[index]);
    return `layout differs from prettier: ${path}:${line + 1}: ${JSON.stringify(a[line]?.slice(0, 80))} vs ${JSON.stringify(b[line]?.slice(0, 80))}`;
  }
  return ours.size === prettiers.size ? undefined : "layout differs from prettier: other files";
}

/** This checkout's node_modules, which a generated tree under test resolves its imports from. */
const NODE_MODULES = fileURLToPath(new URL("../../node_modules", import.meta.url));

/**
 * Compiles a generated tree as its own `tsconfig.json` says (strict): the first error as `file:line: message`, or
 * undefined when it compiles.
 */
async function typeProblem(files: ReadonlyMap<string, string>): Promise<string | undefined> {
  const ts = (await import("typescript")).default;
  const root = await mkdtemp(join(tmpdir(), "corpus-tree-"));
  try {
    for (const [path, text] of files) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    await symlink(NODE_MODULES, join(root, "node_modules"), "dir");
    const configPath = join(root, "tsconfig.json");
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root);
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
    const first = ts.getPreEmitDiagnostics(program)[0];
    if (!first) return undefined;
    const text = ts.flattenDiagnosticMessageText(first.messageText, " ");
    if (!first.file || first.start === undefined) return `tsc: ${text}`;
    const { line } = first.file.getLineAndCharacterOfPosition(first.start);
    return `tsc: ${first.file.fileName.slice(root.length + 1)}:${line + 1}: TS${first.code} ${text}`;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function check(file: string): Promise<CorpusVerdict> {
  const start = performance.now();
  try {
    const config = { server: { name: "corpus" }, select: { all: true } };
    const result = await generateFromFile(file, config);
    if (process.env.CORPUS_LAYOUTS) {
      const difference = layoutDifference(result.files, (await generateFromFile(file, config, { prettierOnly: true })).files);
      if (difference) return { file, outcome: "crash", tools: result.tools.length, message: difference, ms: performance.now() - start };
    }
    if (process.env.CORPUS_TYPECHECK) {
      const problem = await typeProblem(result.files);
      if (problem) return { file, outcome: "crash", tools: result.tools.length, message: problem, ms: performance.now() - start };
    }
    const tools = result.tools.map((tool) => toolDefinition(tool) as unknown as ToolDefinition);
    // Each distinct schema is compiled once: Microsoft Graph's 11,422 output schemas are 981 distinct ones.
    const problems = distinctSchemas(tools).flatMap(({ label, schema }) => dialectProblems(label, schema));
    if (problems.length > 0)
      return { file, outcome: "crash", tools: tools.length, message: `schema: ${problems[0]}`, ms: performance.now() - start };
    const runtime = createToolRuntime({
      identity: { name: "corpus", version: "1" },
      tools,
      log: silentLogger,
      env: {},
      upstream: { baseUrl: new URL("http://127.0.0.1:9"), timeoutMs: 1000, maxResponseBytes: 1e6 },
    });
    const server = createServer(createRequestHandler(runtime, { allowedOrigins: new Set() }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const client = await connectClient(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`));
      const listed = await client.listTools();
      await client.close();
      // Beside the tools, describe_operation when some tool's listing was cut to fit.
      const own = listed.tools.filter((tool) => !(tool.name === "describe_operation" && runtime.describesTools));
      if (own.length !== tools.length) throw new Error(`tools/list returned ${own.length} of ${tools.length} tools`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
    return { file, outcome: "ok", tools: tools.length, ms: performance.now() - start };
  } catch (error) {
    const ms = performance.now() - start;
    if (error instanceof UserError || error instanceof DocumentParseError) {
      return { file, outcome: "error", tools: 0, message: (error.message.split("\n")[0] ?? "").slice(0, 300), ms };
    }
    return {
      file,
      outcome: "crash",
      tools: 0,
      message: error instanceof Error ? (error.stack ?? error.message).split("\n").slice(0, 4).join(" | ") : String(error),
      ms,
    };
  }
}

process.on("message", (file: string) => {
  void check(file).then((verdict) => process.send?.(verdict));
});
