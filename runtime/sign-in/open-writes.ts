import { someOf } from "../base/lists.js";
import type { Logger } from "../base/logger.js";
import type { ToolRuntime } from "../tools/tool-runtime-contract.js";
import { missingScopes } from "../tools/tool-scopes.js";

/**
 * Signed in, one warning when tools that change data need no scope beyond those every call needs (`AUTH_SCOPES`):
 * then any signed-in user may call them, however little the authorization server granted.
 */
export function warnOpenWrites(runtime: ToolRuntime, requiredScopes: readonly string[], log: Logger): void {
  const base = new Set(requiredScopes);
  const open = [...runtime.tools.values()].filter(
    (tool) => tool.annotations.readOnlyHint !== true && missingScopes(tool, runtime.auth, base).length === 0,
  );
  if (open.length === 0) return;
  log.warn(
    `${open.length} tool(s) that change data need no scope beyond AUTH_SCOPES, so every signed-in user may call them (${someOf(
      open.map((tool) => tool.name),
      5,
    )}): give them one with auth.scopes in the config (write: <scope>) or the document's oauth2 scopes, and generate again`,
    { tools: open.length, requiredScopes },
  );
}
