import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import { requestScope, type SignedInCaller } from "../base/request-scope.js";
import type { ToolDefinition } from "../base/tool.js";
import type { AuthDefinition } from "../call/credentials.js";
import type { ToolRuntime } from "./tool-runtime-contract.js";

/** What the scopes of a tool are read from: its security requirements and the config's scopes, and the schemes' types. */
type ScopedTool = Pick<ToolDefinition, "security" | "scopes">;
type SchemeTypes = { readonly schemes: Readonly<Record<string, { readonly type: string } | undefined>> };

/** Whether a scheme grants OAuth scopes (`oauth2`, `openIdConnect`): the only kind a signed-in caller's token carries. */
function grantsScopes(auth: SchemeTypes, scheme: string): boolean {
  const type = auth.schemes[scheme]?.type;
  return type === "oauth2" || type === "openIdConnect";
}

/**
 * The scopes a tool needs by its document, as alternatives: the scopes of each security requirement that names an
 * `oauth2` or `openIdConnect` scheme. An alternative without one (an API key, HTTP basic, none at all) is left out: a
 * signed-in caller never presents it, the server does, so it cannot stand in for a scope. Empty: the document names
 * no OAuth scheme for the tool.
 */
export function scopeAlternatives(tool: ScopedTool, auth: SchemeTypes): string[][] {
  return (tool.security ?? [])
    .filter((alternative) => Object.keys(alternative).some((scheme) => grantsScopes(auth, scheme)))
    .map((alternative) => Object.entries(alternative).flatMap(([scheme, scopes]) => (grantsScopes(auth, scheme) ? [...scopes] : [])));
}

/**
 * The scopes a signed-in caller still needs for a tool: those the config names for it (an override, or its scope
 * rule), and those of the document's alternative it is nearest to; [] when it may call it.
 */
export function missingScopes(tool: ToolDefinition, auth: AuthDefinition, granted: ReadonlySet<string>): string[] {
  const named = (tool.scopes ?? []).filter((scope) => !granted.has(scope));
  let nearest: string[] = [];
  for (const [at, alternative] of scopeAlternatives(tool, auth).entries()) {
    const missing = alternative.filter((scope) => !granted.has(scope));
    if (missing.length === 0) return named;
    if (at === 0 || missing.length < nearest.length) nearest = missing;
  }
  return [...new Set([...named, ...nearest])];
}

/** Every scope a tool may need, whichever alternative the caller holds. */
export function scopesOf(tool: ScopedTool, auth: SchemeTypes): string[] {
  return [...new Set([...(tool.scopes ?? []), ...scopeAlternatives(tool, auth).flat()])];
}

/** The JSON-RPC messages of a POST body: the message, or each message of a batch (older revisions allowed batches). */
export function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** The name and arguments of a `tools/call` message, or undefined for any other message. */
export function toolCallOf(message: unknown): { name: string; args: unknown } | undefined {
  if (!isRecord(message) || message.method !== "tools/call" || !isRecord(message.params)) return undefined;
  const { name, arguments: args } = message.params;
  return typeof name === "string" ? { name, args } : undefined;
}

/** Registry tools by operationId, per runtime: `call_operation` takes either name. */
const byOperationId = new WeakMap<ToolRuntime, Map<string, ToolDefinition>>();

/** The registry tool an operation name stands for: a tool's name or its operationId. */
function registryTool(runtime: ToolRuntime, name: string): ToolDefinition | undefined {
  const direct = runtime.tools.get(name);
  if (direct) return direct;
  let index = byOperationId.get(runtime);
  if (!index) {
    index = new Map();
    for (const tool of runtime.tools.values()) if (tool._meta.operationId !== undefined) index.set(tool._meta.operationId, tool);
    byOperationId.set(runtime, index);
  }
  return index.get(name);
}

/** What a JSON-RPC message calls: the tool, or for `call_operation` the registry operation its `name` names. */
function calledTool(runtime: ToolRuntime, message: unknown): ToolDefinition | undefined {
  const call = toolCallOf(message);
  if (!call) return undefined;
  const direct = runtime.tools.get(call.name);
  if (direct) return direct;
  const operation = isRecord(call.args) ? call.args.name : undefined;
  return call.name === "call_operation" && typeof operation === "string" ? registryTool(runtime, operation) : undefined;
}

/**
 * The scopes a signed-in caller lacks for the calls a POST body makes (one message, or every message of a batch), or
 * undefined when it may make them all (or no one is signed in): the transport answers 403 `insufficient_scope` before
 * any call runs.
 */
export function refusedScopes(runtime: ToolRuntime, body: unknown): { caller: SignedInCaller; missing: string[] } | undefined {
  const caller = requestScope().signedIn;
  if (!caller) return undefined;
  const missing = new Set<string>();
  for (const message of messagesOf(body)) {
    const tool = calledTool(runtime, message);
    if (tool) for (const scope of missingScopes(tool, runtime.auth, caller.scopes)) missing.add(scope);
  }
  return missing.size > 0 ? { caller, missing: [...missing] } : undefined;
}

/** What `tools/list` shows this request's caller: without sign-in (or with every tool listed) all; else what its token may call. */
export function listedForCaller(runtime: ToolRuntime): ListedTool[] {
  const caller = requestScope().signedIn;
  if (!caller || runtime.listsAllTools) return runtime.listed;
  return runtime.listed.filter((listed) => {
    const tool = runtime.tools.get(listed.name);
    return !tool || missingScopes(tool, runtime.auth, caller.scopes).length === 0;
  });
}
