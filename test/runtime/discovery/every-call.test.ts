import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import { everyCallSentence } from "../../../runtime/discovery/discovery-tools.js";

/** A tool whose input requires these arguments. */
function tool(name: string, required: string[]): ToolDefinition {
  const properties = Object.fromEntries(required.map((argument) => [argument, { type: "string" }]));
  return { name, inputSchema: { type: "object", properties, required } } as unknown as ToolDefinition;
}

describe("the search tool says which argument nearly every operation needs", () => {
  it("names an account id most operations require, and where it comes from", () => {
    const tools = ["list_calls", "create_call", "fetch_call", "list_messages", "create_message"].map((name) =>
      tool(name, name.startsWith("fetch") ? ["AccountSid", "Sid"] : ["AccountSid"]),
    );
    const sentence = everyCallSentence(tools);
    expect(sentence).toContain("Nearly every operation needs `AccountSid`");
    expect(sentence).not.toContain("`Sid`");
    expect(sentence).toContain("ask the user");
  });

  it("says nothing when no argument is that common, for a request body, or for a handful of operations", () => {
    expect(everyCallSentence(["a", "b", "c", "d", "e"].map((name, index) => tool(name, index < 3 ? ["owner"] : [])))).toBe("");
    expect(everyCallSentence(["a", "b", "c", "d", "e"].map((name) => tool(name, ["body"])))).toBe("");
    expect(everyCallSentence(["a", "b"].map((name) => tool(name, ["tenant"])))).toBe("");
  });
});
