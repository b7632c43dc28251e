import { beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../generator/base/index.js";
import type { GeneratorConfig, ResolvedConfig } from "../../generator/config/index.js";
import { buildTools, type ToolModel } from "../../generator/model/index.js";
import { selectOperations } from "../../generator/select/index.js";
import type { JsonObject } from "../../openapi/document/index.js";
import { type ApiModel, buildApiModel, buildApiModelInSlices } from "../../openapi/model/index.js";
import { loadMemos } from "../helpers/memos-model.js";

/** Operation categories the Memos server must never expose, by operationId or path. */
const EXCLUDED = [
  /^AuthService_/,
  /^UserService_/,
  /PersonalAccessToken/,
  /^IdentityProviderService_/,
  /Webhook/,
  /^InstanceService_/,
  /Share/,
  /^AIService_/,
  /Transcri/,
  /[Bb]atch/,
];

describe("Memos tool model", () => {
  let model: ApiModel;
  let config: ResolvedConfig;
  let tools: ToolModel[];
  const byName = (name: string) => tools.find((tool) => tool.name === name) as ToolModel;
  const body = (name: string) => (byName(name).inputSchema.properties as JsonObject).body as JsonObject;

  beforeAll(async () => {
    ({ model, config } = await loadMemos());
    tools = buildTools(model, selectOperations(model, config), config);
  });

  it("reads the same model a slice at a time (the search server's way) as at once", async () => {
    const sliced = await buildApiModelInSlices(model.document, 7);
    expect(sliced).toEqual(buildApiModel(model.document));
    expect(sliced.operations.map((operation) => operation.index)).toEqual(model.operations.map((_, index) => index));
  });

  it("finds every curated operationId in the document", () => {
    const ids = new Set(model.operations.map((entry) => entry.operationId));
    expect(config.operations).toHaveLength(17);
    for (const id of config.operations ?? []) expect(ids.has(id), id).toBe(true);
  });

  it("selects none of the excluded categories", () => {
    const excludedInDocument = model.operations.filter((entry) => EXCLUDED.some((re) => re.test(entry.operationId ?? "")));
    expect(excludedInDocument.length).toBeGreaterThan(20);
    for (const tool of tools) {
      for (const pattern of EXCLUDED) expect(`${tool.operationId} ${tool.path}`).not.toMatch(pattern);
    }
  });

  it("gives every tool an object input schema without $schema and an object output schema", () => {
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      expect(tool.outputSchema.type).toBe("object");
    }
  });

  it("derives deterministic, unique, MCP-safe names", () => {
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(17);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_]{1,64}$/);
    expect(byName("memo_list_memos").operationId).toBe("MemoService_ListMemos");
    expect(byName("attachment_get_attachment").operationId).toBe("AttachmentService_GetAttachment");
    const again = buildTools(model, selectOperations(model, config), config);
    expect(again).toEqual(tools);
  });

  it("keeps required path parameters required and query parameters optional", () => {
    const list = byName("memo_list_memo_comments").inputSchema;
    expect(list.required).toEqual(["memo"]);
    expect(Object.keys(list.properties as JsonObject)).toEqual(["memo", "pageSize", "pageToken", "orderBy"]);
    expect((list.properties as JsonObject).pageSize).toMatchObject({
      type: "integer",
      description: expect.stringMatching(/\(format: int32\)$/),
    });
    expect((list.properties as JsonObject).pageSize).not.toHaveProperty("format");
  });

  it("requires only content for create and comment; read-only fields are accepted and never sent", () => {
    for (const name of ["memo_create_memo", "memo_create_memo_comment"]) {
      expect(body(name).required).toEqual(["content"]);
      expect((body(name).properties as JsonObject).creator).toEqual({
        readOnly: true,
        description: "Read-only: accepted and ignored (never sent).",
      });
      expect(byName(name).body?.readOnly).toContain("creator");
      expect(byName(name).inputSchema.required).toContain("body");
    }
  });

  it("makes UpdateMemo a partial update: no required fields, the name accepted and dropped, at least one property, open, destructive", () => {
    const update = body("memo_update_memo");
    expect(update.required).toBeUndefined();
    expect(update.minProperties).toBe(1);
    expect((update.properties as JsonObject).name).toMatchObject({ type: "string" });
    // Memos' document leaves its memo open: unknown fields are forwarded (a likely typo gets a note), not refused.
    expect(update.additionalProperties).toBeUndefined();
    expect(byName("memo_update_memo").body?.readOnly).toContain("name");
    expect((byName("memo_update_memo").inputSchema.properties as JsonObject).updateMask).toBeDefined();
    expect(byName("memo_update_memo").inputSchema.required).toEqual(["memo", "body"]);
    expect(byName("memo_update_memo").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
  });

  it('drops the repeated resource name from body: "*" operations and requires only the payload', () => {
    for (const [name, payload] of [
      ["memo_set_memo_attachments", "attachments"],
      ["memo_set_memo_relations", "relations"],
      ["memo_upsert_memo_reaction", "reaction"],
    ] as const) {
      expect(Object.keys(body(name).properties as JsonObject)).toEqual([payload]);
      expect(body(name).required).toEqual([payload]);
    }
  });

  it("derives annotations from the method, with the config's corrections", () => {
    expect(byName("memo_get_memo").annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName("memo_create_memo").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(byName("memo_delete_memo").annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    for (const name of ["memo_set_memo_attachments", "memo_set_memo_relations"]) {
      expect(byName(name).annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    }
  });

  it("accepts full resource names for ids and says so", () => {
    const memo = byName("memo_get_memo").parameters[0];
    expect(memo).toEqual({ argument: "memo", name: "memo", in: "path", required: true, prefixes: ["memos/"] });
    expect(((byName("memo_get_memo").inputSchema.properties as JsonObject).memo as JsonObject).description).toMatch(/memos\//);
    expect(byName("memo_delete_memo_reaction").parameters.find((p) => p.name === "reaction")?.prefixes).toEqual(["memos/*/reactions/"]);
  });

  it("wraps empty responses as { ok } and keeps object responses as they are", () => {
    expect(byName("memo_delete_memo").outputSchema).toEqual({ type: "object", properties: { ok: { type: "boolean" } } });
    expect(byName("memo_delete_memo").response.kind).toBe("empty");
    expect(byName("memo_list_memos").outputSchema.properties).toHaveProperty("memos");
    expect(byName("memo_list_memos").response).toMatchObject({
      status: "200",
      mediaType: "application/json",
      kind: "json",
      wrapped: false,
    });
  });

  it("refers to nested components through $defs", () => {
    const list = byName("memo_list_memos").outputSchema;
    expect((list.properties as JsonObject).memos).toEqual(expect.objectContaining({ items: { $ref: "#/$defs/Memo" } }));
    expect(list.$defs).toHaveProperty("Memo");
  });

  it("reports every config problem at once, with near-miss suggestions", () => {
    const broken: ResolvedConfig = {
      ...config,
      operations: ["MemoService_ListMemo", ...(config.operations ?? []).filter((id) => id !== "MemoService_ListMemos")],
      overrides: { ...config.overrides, MemoService_GetMemos: { annotations: { readOnlyHint: true } } },
    };
    let caught: unknown;
    try {
      selectOperations(model, broken);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect((caught as UserError).problems).toEqual([
      'operations: "MemoService_ListMemo" is not an operationId in the document (did you mean "MemoService_ListMemos"?)',
      'overrides: "MemoService_GetMemos" is not an operationId in the document (did you mean "MemoService_GetMemo"?)',
    ]);
  });

  it("says why a selection is empty: the filters, or a webhooks-only document", () => {
    const problems = (target: ApiModel, select: GeneratorConfig["select"]) => {
      try {
        selectOperations(target, { server: { name: "x" }, select });
      } catch (error) {
        return (error as UserError).problems;
      }
      return [];
    };
    expect(problems(model, { tags: ["MemoService"], methods: ["trace"] })).toEqual([
      "the selection is empty: no operation of the document was selected",
    ]);
    // A config that selects nothing at all says how to select everything.
    expect(problems(model, undefined)).toEqual([
      "the selection is empty: the config names no `operations` and no `select` rule; `select: { all: true }` selects every operation",
    ]);
    const webhooksOnly = { openapi: "3.1.0", info: { title: "t", version: "1" }, webhooks: { "memo.created": { post: {} } } };
    expect(problems(buildApiModel(webhooksOnly), { all: true })).toEqual([
      'the selection is empty: the document has no operations under "paths", only 1 webhook(s), which are requests the API sends to you and not tools an MCP server can call',
    ]);
  });

  it("rejects overrides naming unknown body properties or path parameters", () => {
    const broken: ResolvedConfig = {
      ...config,
      pathPrefixes: { ...config.pathPrefixes, memmo: "memos/" },
      overrides: { ...config.overrides, MemoService_CreateMemo: { body: { required: ["contnet"] } } },
    };
    expect(() => buildTools(model, selectOperations(model, broken), broken)).toThrow(
      /"contnet" is not a property of the request body \(did you mean "content"\?\)[\s\S]*"memmo" is not a path parameter of any selected operation \(did you mean "memo"\?\)/,
    );
  });

  it("rejects an override name that clashes with another tool", () => {
    const broken: ResolvedConfig = { ...config, overrides: { ...config.overrides, MemoService_GetMemo: { name: "memo_list_memos" } } };
    expect(() => buildTools(model, selectOperations(model, broken), broken)).toThrow(/also the name of MemoService_ListMemos/);
  });
});

describe("schema checks at generation time", () => {
  it("names a tool whose schema does not compile", async () => {
    const { toolSchemaProblems } = await import("../../generator/schema/index.js");
    const { model, config } = await loadMemos();
    const [tool] = buildTools(model, selectOperations(model, { ...config, operations: ["MemoService_GetMemo"], overrides: {} }), {
      ...config,
      operations: ["MemoService_GetMemo"],
      overrides: {},
      pathPrefixes: {},
    });
    expect(toolSchemaProblems(tool as ToolModel)).toEqual([]);
    const broken = { ...(tool as ToolModel), inputSchema: { type: "object", properties: { x: { $ref: "#/$defs/Missing" } } } };
    expect(toolSchemaProblems(broken)).toEqual([
      "MemoService_GetMemo: the input schema refers to #/$defs/Missing, which it does not define",
    ]);
    // Properties named like data keywords hold schemas, and their references count.
    const named = { type: "object", properties: { default: { $ref: "#/$defs/A" }, enum: { items: { $ref: "#/$defs/B" } } } };
    expect(toolSchemaProblems({ ...(tool as ToolModel), inputSchema: named })).toEqual([
      "MemoService_GetMemo: the input schema refers to #/$defs/B, which it does not define",
      "MemoService_GetMemo: the input schema refers to #/$defs/A, which it does not define",
    ]);
    const data = { type: "object", default: { $ref: "#/$defs/A" }, properties: { x: { enum: [{ $ref: "#/$defs/B" }] } } };
    expect(toolSchemaProblems({ ...(tool as ToolModel), inputSchema: data })).toEqual([]);
    const invalid = { ...(tool as ToolModel), outputSchema: { type: "object", properties: { x: { type: "strnig" } } } };
    expect(toolSchemaProblems(invalid)).toEqual([
      expect.stringMatching(
        /^MemoService_GetMemo: the output schema is not valid JSON Schema draft-07: data\/properties\/x\/type must be equal to one of the allowed values/,
      ),
      expect.stringMatching(
        /^MemoService_GetMemo: the output schema is not valid JSON Schema 2020-12: .*type must be equal to one of the allowed values/,
      ),
    ]);
    // A definition tools share (the converter freezes those) is checked once, and named for every tool that holds it.
    const shared = Object.freeze({ type: "strnig" });
    const holding = (name: string) => ({
      ...(tool as ToolModel),
      operationId: name,
      inputSchema: { type: "object", properties: { x: { $ref: "#/$defs/S" } }, $defs: { S: shared } },
    });
    const checked = new Map();
    for (const name of ["first", "second"])
      expect(toolSchemaProblems(holding(name), checked)).toEqual([
        expect.stringMatching(new RegExp(`^${name}: the input schema is not valid JSON Schema 2020-12: data/\\$defs/S/type must be`)),
      ]);
  });
});
