import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import { codeExample } from "../../../runtime/code/run-code-tool.js";

/** A tool of a method and path, requiring these arguments. */
function tool(name: string, method: "GET" | "POST", path: string, required: string[] = []): ToolDefinition {
  return {
    name,
    title: name,
    description: name,
    inputSchema: { type: "object", properties: Object.fromEntries(required.map((arg) => [arg, { type: "string" }])), required },
    annotations: { readOnlyHint: method === "GET", destructiveHint: false, idempotentHint: true, openWorldHint: false },
    _meta: { method, path },
    http: { method, path, parameters: [], response: "json" },
  };
}

describe("run_code's example program", () => {
  it("lists the API's own things, never a health probe, readiness or version check where there is another read", () => {
    const tools = [
      tool("get_health", "GET", "/api/health"),
      tool("get_ready", "GET", "/ready"),
      tool("get_feature", "GET", "/api/admin/features/{name}", ["name"]),
      tool("create_feature", "POST", "/api/admin/features"),
      tool("list_features", "GET", "/api/admin/features"),
    ];
    expect(codeExample(tools)).toBe("const found = await api.list_features({});\nconsole.log(Object.keys(found));\nreturn found;");
    // Only probes to read: one of them, rather than nothing.
    expect(codeExample(tools.slice(0, 2))).toContain("api.get_health({})");
  });
});
