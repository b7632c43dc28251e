import { words } from "oapi-mcp-gen-runtime";
import type { OperationModel } from "../../openapi/model/index.js";

/** What an operation's consequences are, by its words and path, beyond the action its first verb names. */
export interface OperationTraits {
  /** It signs in, issues or refreshes tokens, or starts or ends a session: never read-only, whatever its first verb. */
  signsIn: boolean;
  /** It turns something off, archives, suspends or locks it (a flag off in production, a user locked out). */
  switchesOff: boolean;
  /** It changes many things at once (bulk, batch). */
  bulk: boolean;
  /** It flips an instance-wide switch (maintenance mode, the instance's own settings). */
  instanceWide: boolean;
  /** It only orders things (a sort order, a position): it overwrites nothing that cannot be put back. */
  ordersOnly: boolean;
}

/** Words of sign-in: a path segment or a word of the operation's name or summary. */
const SIGN_IN = new Set([
  ...["login", "logon", "logout", "logoff", "signin", "signout", "auth", "oauth", "oauth2", "token", "tokens", "session"],
  ...["sessions", "authenticate", "authentication", "authorize", "otp", "mfa", "2fa", "sso", "saml", "oidc", "password", "passwords"],
]);
/** Pairs written as two words: `sign in`, `log in`. */
const SIGN_IN_PAIRS = /\b(sign|log)[\s_-]?(in|out|on|off)\b/i;
/** Verbs and path ends that turn something off. */
const OFF = new Set([
  ...["disable", "disables", "deactivate", "deactivates", "archive", "archives", "suspend", "suspends", "pause", "pauses"],
  ...["stop", "stops", "kill", "kills", "off", "wipe", "wipes", "reset", "resets", "shutdown"],
]);
const BULK = new Set(["bulk", "batch", "mass"]);
/** Settings of the whole instance: a settings word beside one of these (`instance settings`, `system config`). */
const SETTINGS = new Set(["setting", "settings", "config", "configuration", "configurations"]);
const INSTANCE = new Set(["instance", "system", "global", "server", "site"]);
/** Ordering words (not `order` alone, which is a shop's order). */
const ORDERING = new Set(["sort", "sorting", "ordering", "position", "positions", "rank", "ranking", "reorder", "priority"]);

/** The words of an operation: its summary's, its operationId's and its path's segments (placeholders left out). */
function operationWords(operation: Pick<OperationModel, "summary" | "operationId" | "path">): { said: string[]; path: string[] } {
  const path = operation.path
    .split("/")
    .filter((segment) => segment !== "" && !segment.startsWith("{"))
    .flatMap((segment) => words(segment));
  return { said: [...words(operation.summary ?? ""), ...words(operation.operationId ?? "")], path };
}

/** The traits of an operation by its words and path. */
export function operationTraits(operation: Pick<OperationModel, "summary" | "operationId" | "path">): OperationTraits {
  const { said, path } = operationWords(operation);
  const all = [...said, ...path];
  const has = (set: ReadonlySet<string>, list: readonly string[] = all) => list.some((word) => set.has(word));
  const last = path.at(-1);
  return {
    signsIn: has(SIGN_IN) || SIGN_IN_PAIRS.test(operation.summary ?? "") || /\bsign-?in\b|\blog-?in\b/i.test(operation.path),
    switchesOff: has(OFF, said) || (last !== undefined && OFF.has(last)),
    bulk: has(BULK),
    instanceWide: all.includes("maintenance") || (has(SETTINGS) && has(INSTANCE)),
    ordersOnly: has(ORDERING, said) && !has(OFF, said),
  };
}
