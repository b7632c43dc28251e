// Code mode that type-checks: a program is checked against the operations' types before it runs; a type error is the
// run's result with its line, and nothing reaches the API.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type RunningServer, silentLogger, startServer } from "oapi-mcp-gen-runtime";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { apiDeclarations } from "../../../runtime/tools/api-signature.js";
import { connectClient, testEnvironment } from "../../helpers/memos-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

/** The text of a tool result. */
const textOf = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? []).map((part) => part.text).join("\n");

describe("run_code with code.typeCheck", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;
  beforeAll(async () => {
    upstream = await startUpstream((_, res) => sendJson(res, 200, { memos: [{ name: "memos/1", content: "hi" }], nextPageToken: "" }));
    server = await startServer({
      identity: serverIdentity,
      tools,
      code: { typeCheck: true, timeoutMs: 5_000 },
      log: silentLogger,
      environment: testEnvironment(upstream.url),
    });
    client = await connectClient(server.url);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await upstream?.close();
  });

  const run = (code: string) => client.callTool({ name: "run_code", arguments: { code } });

  it("a misspelt operation is a type error naming the line and the right name, and nothing is called", async () => {
    const before = upstream.requests.length;
    const result = await run(
      "const page = await api.memo_list_memos({ pageSize: 2 });\nreturn await api.memo_get_memoo({ memo: page.memos[0].name });",
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^run_code: the program was checked against api before it ran, and nothing ran:\nline 2: Property 'memo_get_memoo' does not exist on type .*Did you mean 'memo_get_memo'\?/s,
    );
    expect(upstream.requests.length).toBe(before);
  });

  it("a wrongly typed, unknown or missing argument is a type error; a program that checks runs", async () => {
    const before = upstream.requests.length;
    for (const [code, error] of [
      ['return await api.memo_list_memos({ pageSize: "two" });', "line 1: Type 'string' is not assignable to type 'number'."],
      [
        'return await api.memo_get_memo({ memo: "a", force: true });',
        "line 1: Object literal may only specify known properties, and 'force' does not exist",
      ],
      ["return await api.memo_get_memo();", "line 1: Expected 1 arguments, but got 0."],
    ] as const) {
      const result = await run(code);
      expect(result.isError, code).toBe(true);
      expect(textOf(result)).toContain(error);
    }
    expect(upstream.requests.length).toBe(before);
    const fine = await run(
      "const page = await api.memo_list_memos({ pageSize: 2 });\nconsole.log(page.memos.length);\nreturn page.memos.map((memo) => memo.name);",
    );
    expect(fine.isError, textOf(fine)).toBeFalsy();
    expect(upstream.requests.length).toBe(before + 1);
  });

  it("the declarations compile cleanly for the Memos, kitchen-sink, CMS and Stripe registries; open bodies take other fields", async () => {
    const registries = [
      tools,
      (await import("../../fixtures/kitchen-sink/generated/index.js")).tools,
      (await import("../../fixtures/cms/generated/index.js")).tools,
      (await import("../../fixtures/stripe-overlay/generated/index.js")).tools,
    ];
    for (const registry of registries) {
      const text = apiDeclarations(registry);
      const file = ts.createSourceFile("api.d.ts", text, ts.ScriptTarget.ES2022, true);
      const host = ts.createCompilerHost({ noLib: true, types: [] }, true);
      const read = host.getSourceFile.bind(host);
      host.getSourceFile = (name, version) => (name === "api.d.ts" ? file : read(name, version));
      const program = ts.createProgram({ rootNames: ["api.d.ts"], options: { noLib: true, types: [], noResolve: true }, host });
      // Without the standard library only its global types are missing (Promise, Array…): nothing of the text's own.
      const own = program.getSyntacticDiagnostics(file).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " "));
      expect(own, registry[0]?.name).toEqual([]);
      const unknownNames = program
        .getSemanticDiagnostics(file)
        .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " "))
        .filter((message) => !/^Cannot find global type|^Cannot find name '(Promise|Record|Array)'/.test(message));
      expect(unknownNames, registry[0]?.name).toEqual([]);
    }
    expect(apiDeclarations(tools)).toMatch(/memo_create_memo\(args: \{[^\n]*body: \{[^\n]*\[key: string\]: unknown/);
  });
});
