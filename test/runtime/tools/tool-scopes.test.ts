import { describe, expect, it } from "vitest";
import { inRequestScope, type SignedInCaller } from "../../../runtime/base/request-scope.js";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import type { AuthDefinition } from "../../../runtime/call/credentials.js";
import type { ToolRuntime } from "../../../runtime/tools/tool-runtime-contract.js";
import { missingScopes, refusedScopes, scopeAlternatives } from "../../../runtime/tools/tool-scopes.js";

const auth: AuthDefinition = {
  schemes: {
    oauth: { type: "oauth2", env: {} },
    oidc: { type: "openIdConnect", env: {} },
    key: { type: "apiKey", in: "header", name: "X-Key", env: {} },
  },
  passthrough: { authorization: true, headers: [] },
};

/** A tool with these security alternatives and config scopes. */
function tool(security?: ToolDefinition["security"], scopes?: string[], name = "t", operationId?: string): ToolDefinition {
  return {
    name,
    title: "t",
    description: "t",
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    _meta: { method: "GET", path: "/t", ...(operationId ? { operationId } : {}) },
    http: { method: "GET", path: "/t", parameters: [], response: "json" },
    ...(security ? { security } : {}),
    ...(scopes ? { scopes } : {}),
  };
}

describe("the scopes a tool needs in resource mode", () => {
  it("come from the document's oauth2 and openIdConnect requirements, as alternatives; another credential never stands in", () => {
    const both = tool([{ oauth: ["read", "write"] }, { oidc: ["admin"] }, { key: [] }, {}]);
    expect(scopeAlternatives(both, auth)).toEqual([["read", "write"], ["admin"]]);
    // The API key (or no credential at all) is the server's to present, never the signed-in caller's: it opens nothing.
    expect(missingScopes(both, auth, new Set())).toEqual(["admin"]);
    expect(missingScopes(both, auth, new Set(["admin"]))).toEqual([]);
    // A document that names only other schemes names no scope: the config's scopes (or none) decide.
    expect(scopeAlternatives(tool([{ key: [] }]), auth)).toEqual([]);
    expect(missingScopes(tool([{ key: [] }], ["notes:write"]), auth, new Set())).toEqual(["notes:write"]);
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

describe("the transport's scope check of a POST body", () => {
  const write = tool([{ oauth: ["write"] }], undefined, "create_note", "createNote");
  const read = tool([{ oauth: ["read"] }], undefined, "list_notes", "listNotes");
  const runtime = { tools: new Map([write, read].map((t) => [t.name, t])), auth } as unknown as ToolRuntime;
  const reader: SignedInCaller = {
    subject: "r",
    scopes: new Set(["read"]),
    token: "t",
    expiresAt: Date.now() + 60_000,
    challenge: () => "",
  };
  const asReader = <T>(work: () => T) => inRequestScope({ caller: "user r", gone: new AbortController().signal, signedIn: reader }, work);
  const call = (name: string, args: Record<string, unknown> = {}, id = 1) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  });

  it("checks every message of a batch, not only a single one", () => {
    expect(asReader(() => refusedScopes(runtime, call("list_notes")))).toBeUndefined();
    expect(asReader(() => refusedScopes(runtime, [call("create_note")]))?.missing).toEqual(["write"]);
    expect(asReader(() => refusedScopes(runtime, [call("list_notes", {}, 1), call("create_note", {}, 2)]))?.missing).toEqual(["write"]);
  });

  it("reads call_operation's operation from its name argument, by tool name or operationId", () => {
    expect(asReader(() => refusedScopes(runtime, call("call_operation", { name: "create_note" })))?.missing).toEqual(["write"]);
    expect(asReader(() => refusedScopes(runtime, call("call_operation", { name: "createNote" })))?.missing).toEqual(["write"]);
    expect(asReader(() => refusedScopes(runtime, call("call_operation", { name: "listNotes" })))).toBeUndefined();
  });
});
