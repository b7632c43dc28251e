import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../runtime/base/logger.js";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import { linearPattern, re2Syntax, unenforcedReason } from "../../../runtime/schema/linear-pattern.js";
import { createToolRuntime } from "../../../runtime/tools/tool-runtime.js";

/** A tool whose one argument must match `pattern`. */
function toolWith(name: string, pattern: string): ToolDefinition {
  return {
    name,
    title: name,
    description: name,
    inputSchema: { type: "object", properties: { id: { type: "string", pattern } }, required: ["id"], additionalProperties: false },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    _meta: { method: "GET", path: "/items/{id}" },
    http: {
      method: "GET",
      path: "/items/{id}",
      parameters: [{ argument: "id", name: "id", in: "path", required: true }],
      response: "json",
    },
  };
}

describe("document patterns on one server", () => {
  it("test each argument with its own pattern, whichever tool compiled first (Linode's labels were tested with another's)", async () => {
    const tools = [toolWith("digits", "^[0-9]+$"), toolWith("letters", "^[a-z]+$"), toolWith("looking", "^a(?!b)[a-z]+$")];
    const runtime = createToolRuntime({
      identity: { name: "patterns", version: "1" },
      tools,
      upstream: { baseUrl: new URL("https://api.example/v1"), timeoutMs: 1_000, maxResponseBytes: 1_000 },
      log: silentLogger,
    });
    const valid = async (name: string, id: string) => (await runtime.validators.forTool(name))?.input({ id });
    expect(await valid("digits", "123")).toBe(true);
    expect(await valid("digits", "abc")).toBe(false);
    expect(await valid("letters", "abc")).toBe(true);
    expect(await valid("letters", "123")).toBe(false);
    // Look-around is beyond the linear-time engine: not enforced, whatever was compiled before it.
    expect(await valid("looking", "123")).toBe(true);
    expect(await valid("digits", "123")).toBe(true);
  });
});

describe("document patterns in RE2's spelling", () => {
  it("enforces \\uXXXX and \\u{…} escapes (surrogate pairs as one code point), keeping an escaped backslash as it is", () => {
    expect(re2Syntax("^[\\u4e00-\\u9fff]+$")).toBe("^[\\x{4e00}-\\x{9fff}]+$");
    expect(re2Syntax("^\\uD83D\\uDE00$")).toBe("^\\x{1f600}$");
    expect(re2Syntax("^\\u{1F600}$")).toBe("^\\x{1f600}$");
    expect(re2Syntax("^\\\\u0041$")).toBe("^\\\\u0041$");
    const han = linearPattern("^[\\u4e00-\\u9fff]+$");
    expect([han.test("中文"), han.test("abc")]).toEqual([true, false]);
    const smile = linearPattern("^\\uD83D\\uDE00$");
    expect([smile.test("😀"), smile.test("x")]).toEqual([true, false]);
  });

  it("says why a pattern is not enforced in RE2's own words, not by guessing at look-around", () => {
    expect(unenforcedReason("^[\\u0041-\\u005A]+$")).toBeUndefined();
    expect(unenforcedReason("^a(?!b)")).toContain("invalid or unsupported Perl syntax");
    expect(unenforcedReason("^(a)\\1$")).toContain("invalid escape sequence");
  });
});
