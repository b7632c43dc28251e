/** Prints the tools/list a generated server would answer for a document and config, with a byte breakdown per tool. */
import { describeOperation, toolsListOf } from "oapi-mcp-gen-runtime";
import { readConfigFile, resolveConfig } from "../generator/config/index.js";
import { defaultConfigFor } from "../generator/generate.js";
import { buildTools } from "../generator/model/index.js";
import { selectOperations } from "../generator/select/index.js";
import { normalizeDocument, readDocumentFile } from "../openapi/document/index.js";
import { buildApiModel } from "../openapi/model/index.js";
import { toolDefinition } from "../templates/tool-module.js";

const [spec, configPath, out] = process.argv.slice(2);
if (!spec) throw new Error("usage: list-tools <document> [config|-] [out.json]");
const { document: raw } = await readDocumentFile(spec);
const { document } = await normalizeDocument(raw, spec);
const model = buildApiModel(document);
const config = configPath && configPath !== "-" ? await readConfigFile(configPath) : resolveConfig(defaultConfigFor(model));
const tools = buildTools(model, selectOperations(model, config), config);
const listed = toolsListOf(tools.map(toolDefinition));
const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null));
let total = 0;
for (const tool of listed) {
  const all = size(tool);
  total += all;
  console.log(
    `${tool.name.padEnd(48)} all ${String(all).padStart(7)}  desc ${String(size(tool.description)).padStart(6)}  in ${String(size(tool.inputSchema)).padStart(7)}  out ${String(size(tool.outputSchema)).padStart(7)}`,
  );
}
console.log(`total ${total} bytes, about ${Math.ceil(size({ tools: listed }) / 4)} tokens`);
if (out) (await import("node:fs")).writeFileSync(out, JSON.stringify({ tools: listed }, null, 1));
const described = process.argv[5];
if (described) {
  const tool = tools.map(toolDefinition).find((each) => each.name === described);
  if (!tool) throw new Error(`no tool ${described}`);
  const answer = describeOperation(tool, process.argv[6]);
  const text = answer.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  console.log(`describe_operation ${described}: ${Buffer.byteLength(JSON.stringify(answer))} bytes in all`);
  console.log(text.slice(0, Number(process.env.SHOW ?? 0)));
}
