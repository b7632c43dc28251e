import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type GeneratorConfig, resolveConfig } from "../../../generator/config/index.js";
import { buildTools } from "../../../generator/model/index.js";
import { selectOperations } from "../../../generator/select/index.js";
import { normalizeDocument, parseDocumentText } from "../../../openapi/document/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";
import { ROOT, runCli } from "../../helpers/cli.js";

/** A notes API: reads, writes, a delete, and a billing area by tag and path. */
const DOCUMENT = `
openapi: 3.0.3
info: { title: Notes, version: "1" }
paths:
  /notes:
    get: { operationId: listNotes, responses: { "200": { description: ok } } }
    post: { operationId: createNote, responses: { "201": { description: ok } } }
  /notes/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
    delete: { operationId: deleteNote, responses: { "204": { description: gone } } }
  /billing/charges:
    post: { operationId: createCharge, tags: [Billing], responses: { "201": { description: ok } } }
  /billing/refunds:
    post: { operationId: createRefund, responses: { "201": { description: ok } } }
`;

async function confirmed(confirm: GeneratorConfig["confirm"]) {
  const { document } = await normalizeDocument(parseDocumentText(DOCUMENT, "yaml", "notes.yaml"));
  const model = buildApiModel(document);
  const config = resolveConfig({ server: { name: "notes" }, select: { all: true }, ...(confirm !== undefined ? { confirm } : {}) });
  const tools = buildTools(model, selectOperations(model, config), config);
  return { asks: tools.filter((tool) => tool.confirm).map((tool) => tool.operationId), tools, warnings: tools.flatMap((t) => t.warnings) };
}

describe("confirmation by rule (confirm)", () => {
  it("asks for nothing by default, for the destructive tools with true, and adds by writes, tags, paths and operationIds", async () => {
    expect((await confirmed(undefined)).asks).toEqual([]);
    expect((await confirmed(false)).asks).toEqual([]);
    expect((await confirmed(true)).asks).toEqual(["deleteNote"]);
    expect((await confirmed({ tags: ["Billing"] })).asks).toEqual(["deleteNote", "createCharge"]);
    expect((await confirmed({ destructive: false, paths: ["/billing/**"] })).asks).toEqual(["createCharge", "createRefund"]);
    expect((await confirmed({ destructive: false, operations: ["createNote"] })).asks).toEqual(["createNote"]);
    expect((await confirmed({ writes: true })).asks).toEqual(["createNote", "deleteNote", "createCharge", "createRefund"]);
  });

  it("refuses an operationId not in the document, naming the near one, and warns of a tag or glob that matches nothing", async () => {
    await expect(confirmed({ operations: ["deleteNotes"] })).rejects.toThrow(
      'confirm.operations: "deleteNotes" is not an operationId in the document (did you mean "deleteNote"?)',
    );
    expect((await confirmed({ tags: ["Payroll"], paths: ["/admin/**"] })).warnings).toContain(
      'confirm: tag "Payroll", path "/admin/**" match no selected operation',
    );
  });

  it("a generated server marks the tools, and its README names them, how the user is asked, and MCP_CONFIRM", async () => {
    const folder = await mkdtemp(join(tmpdir(), "oapi-confirm-"));
    try {
      const config = join(folder, "config.yaml");
      await writeFile(config, "server: { name: memos }\noperations: [MemoService_ListMemos, MemoService_DeleteMemo]\nconfirm: true\n");
      const args = [join(ROOT, "examples/memos/openapi.yaml"), "--config", config, "--out", join(folder, "out")];
      expect(runCli(args, folder).status).toBe(0);
      expect(await readFile(join(folder, "out/tools/memo_delete_memo.ts"), "utf8")).toMatch(/\n {2}confirm: true,\n/);
      expect(await readFile(join(folder, "out/tools/memo_list_memos.ts"), "utf8")).not.toContain("confirm:");
      const readme = await readFile(join(folder, "out/README.md"), "utf8");
      expect(readme).toContain("The user confirms every call of `memo_delete_memo` before it is sent");
      expect(readme).toMatch(/\| `memo_delete_memo` \|.*destructive.*the user confirms/);
      expect(readme).toMatch(/\| `MCP_CONFIRM` +\| `required`/);
      expect(runCli([...args, "--check"], folder).status).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
