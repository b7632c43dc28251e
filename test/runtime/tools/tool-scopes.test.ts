import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import type { AuthDefinition } from "../../../runtime/call/credentials.js";
import { missingScopes, scopeAlternatives } from "../../../runtime/tools/tool-scopes.js";

const auth: AuthDefinition = {
  schemes: {
    oauth: { type: "oauth2", env: {} },
    oidc: { type: "openIdConnect", env: {} },
    key: { type: "apiKey", in: "header", name: "X-Key", env: {} },
  },
  passthrough: { authorization: true, headers: [] },
};

/** A tool with these security alternatives and config scopes. */
function tool(security?: ToolDefinition["security"], scopes?: string[]): ToolDefinition {
  return {
    name: "t",
    title: "t",
    description: "t",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    _meta: { method: "GET", path: "/t" },
    http: { method: "GET", path: "/t", parameters: [], response: "json" },
    ...(security ? { security } : {}),
    ...(scopes ? { scopes } : {}),
  };
}

describe("the scopes a tool needs in resource mode", () => {
  it("come from the document's oauth2 and openIdConnect requirements, as alternatives; other schemes need none", () => {
    const both = tool([{ oauth: ["read", "write"] }, { oidc: ["admin"] }, { key: [] }]);
    expect(scopeAlternatives(both, auth)).toEqual([["read", "write"], ["admin"], []]);
    // An alternative without scopes (the API key) lets any signed-in caller through.
    expect(missingScopes(both, auth, new Set())).toEqual([]);
    const oauthOnly = tool([{ oauth: ["read", "write"] }, { oidc: ["admin"] }]);
    expect(missingScopes(oauthOnly, auth, new Set(["read"]))).toEqual(["write"]);
    expect(missingScopes(oauthOnly, auth, new Set(["admin"]))).toEqual([]);
    expect(missingScopes(tool(), auth, new Set())).toEqual([]);
  });

  it("add those the config names (overrides.<id>.scopes), needed whatever the document says", () => {
    expect(missingScopes(tool(undefined, ["notes:read"]), auth, new Set())).toEqual(["notes:read"]);
    expect(missingScopes(tool([{ oauth: ["read"] }], ["notes:read"]), auth, new Set(["read"]))).toEqual(["notes:read"]);
    expect(missingScopes(tool([{ oauth: ["read"] }], ["notes:read"]), auth, new Set())).toEqual(["notes:read", "read"]);
    expect(missingScopes(tool([{ oauth: ["read"] }], ["notes:read"]), auth, new Set(["read", "notes:read"]))).toEqual([]);
  });
});
