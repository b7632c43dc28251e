import { createRequire } from "node:module";
import type { SourceFileStructure } from "ts-morph";
import { describe, expect, it } from "vitest";
import { printedModule } from "../../../generator/layout/index.js";
import { clientModule } from "../../../templates/client-module.js";
import { codeSlotName, type ModuleSource } from "../../../templates/literal-slots.js";
import type { HttpMethod, ToolView } from "../../../templates/tool-view.js";

const { printStructure }: typeof import("ts-morph") = createRequire(import.meta.url)("ts-morph");

/** A tool as the client template reads it: its name, method, path, operation id and title. */
function tool(name: string, method: HttpMethod, path: string, title: string, operationId?: string): ToolView {
  return {
    name,
    title,
    description: title,
    operationId,
    method,
    path,
    inputSchema: { type: "object" },
    outputSchema: { type: "object" },
    outputValidation: "warn",
    publishOutputSchema: true,
    annotations: { title, readOnlyHint: method === "get", destructiveHint: false, idempotentHint: false, openWorldHint: true },
    parameters: [],
    undeclaredParameters: [],
    response: { kind: "json", wrapped: false },
  };
}

/** The module's structure with each code slot's text written where its placeholder is, as ts-morph would print it. */
function inlined(source: ModuleSource): SourceFileStructure {
  const placeholders = new Map((source.code ?? []).map((text, index) => [`${codeSlotName(index)}\n${codeSlotName(index)}`, text]));
  return JSON.parse(JSON.stringify(source.structure), (_key, value) =>
    typeof value === "string" && placeholders.has(value) ? placeholders.get(value) : value,
  );
}

describe("code slots: long code written in after ts-morph prints a module", () => {
  it("print the client exactly as ts-morph prints its methods, whatever the titles, names and paths hold", () => {
    const tools = [
      tool("memo_list_memos", "get", "/api/v1/memos", "List memos", "MemoService_ListMemos"),
      tool("quotes", "post", "/q/{id}/it's", `He said "hi" and it's 'fine'`),
      tool("backticks", "put", "/b", "a `template $" + "{literal}` in a title", "op`x"),
      tool("comments", "delete", "/c", "ends a comment */ and opens /* another // and a line one"),
      tool("kebab-case-name", "patch", "/k", "a trailing backslash \\"),
      tool("non_ascii", "get", "/n/ünïcödé", "漢字の説明文 👍🏽 e\u0301"),
      tool("regex_like", "get", "/r", "/^a+$/g divides / by / two"),
      tool(`long_${"x".repeat(90)}`, "get", "/long", "a method too long for one line"),
    ];
    const source = clientModule(tools);
    expect(source.code?.length).toBe(2);
    const options = { indentNumberOfSpaces: 2, newLine: "\n" } as const;
    expect(printedModule(source)).toBe(printStructure(inlined(source), options));
    // The placeholders are gone, and the methods are there.
    expect(printedModule(source)).not.toContain("__oapiMcpGenCode");
    expect(printedModule(source)).toContain("memo_list_memos(args: MemoListMemosArgs): Promise<MemoListMemosResult>;");
  });

  it("refuse a module whose placeholder was not printed", () => {
    const source = clientModule([tool("a", "get", "/a", "A")]);
    expect(() => printedModule({ ...source, code: [...(source.code ?? []), "lost"] })).toThrow(
      /1 code slot\(s\) of a module were not printed/,
    );
  });
});
