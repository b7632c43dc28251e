import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import { requestScope, type SignedInCaller } from "../base/request-scope.js";
import type { ToolDefinition } from "../base/tool.js";
import type { AuthDefinition } from "../call/credentials.js";
import type { ToolRuntime } from "./tool-runtime-contract.js";

/**
 * The scopes a tool needs, as alternatives: those its document's security requirements give its `oauth2` and
 * `openIdConnect` schemes (an alternative with neither needs none). Empty: the tool needs no scope.
 */
export function scopeAlternatives(tool: ToolDefinition, auth: AuthDefinition): string[][] {
  const requirements = tool.security ?? [];
  if (requirements.length === 0) return [];
  return requirements.map((alternative) =>
    Object.entries(alternative).flatMap(([scheme, scopes]) => {
      const type = auth.schemes[scheme]?.type;
      return type === "oauth2" || type === "openIdConnect" ? [...scopes] : [];
    }),
  );
}

/**
 * The scopes a signed-in caller still needs for a tool: those the config names for it, and those of the document's
 * alternative it is nearest to; [] when it may call it.
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

/** What a JSON-RPC message calls: the tool, or for `call_operation` the registry operation it names. */
function calledTool(runtime: ToolRuntime, message: unknown): ToolDefinition | undefined {
  if (!isRecord(message) || message.method !== "tools/call" || !isRecord(message.params)) return undefined;
  const { name, arguments: args } = message.params;
  if (typeof name !== "string") return undefined;
  const direct = runtime.tools.get(name);
  if (direct) return direct;
  const operation = isRecord(args) ? args.operation : undefined;
  return typeof operation === "string" ? runtime.tools.get(operation) : undefined;
}

/**
 * The scopes a signed-in caller lacks for the call a message makes, or undefined when it may make it (or no one is
 * signed in): the transport answers 403 `insufficient_scope` before the call runs.
 */
export function refusedScopes(runtime: ToolRuntime, message: unknown): { caller: SignedInCaller; missing: string[] } | undefined {
  const caller = requestScope().signedIn;
  const tool = caller ? calledTool(runtime, message) : undefined;
  if (!caller || !tool) return undefined;
  const missing = missingScopes(tool, runtime.auth, caller.scopes);
  return missing.length > 0 ? { caller, missing } : undefined;
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
