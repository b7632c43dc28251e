import { words } from "oapi-mcp-gen-runtime";
import type { OperationModel } from "../../openapi/model/index.js";

/**
 * Probes, readiness, metrics, SDK delivery, test helpers and internal tools: what no first selection takes, in any
 * API (the words of a path segment, a tag or an RPC namespace).
 */
const NEVER = new Set([
  ...["health", "healthz", "healthcheck", "ready", "readyz", "readiness", "live", "livez", "liveness", "ping", "metrics"],
  ...["sdk", "sdks", "internal", "test", "testing", "helpers"],
]);

/**
 * An API's plumbing: how callers reach it and sign in (tokens, keys, sessions, identity providers), how it is wired to
 * other systems (webhooks) and configured (settings, preferences, the instance), what it notifies of. Every API has
 * some; few are about it.
 */
const PLUMBING = new Set([
  ...["auth", "oauth", "oauth2", "authorization", "authorizations", "login", "logout", "signin", "session", "sessions"],
  ...["token", "tokens", "key", "keys"],
  ...["apikey", "apikeys", "secret", "secrets", "credential", "credentials", "password", "passwords", "identity"],
  ...["identities", "sso", "saml", "oidc", "mfa", "webhook", "webhooks", "hook", "hooks", "setting", "settings"],
  ...["config", "configs", "configuration", "configurations", "preference", "preferences", "instance", "notification"],
  ...["notifications"],
]);

/** People: the API's own subject where its other operations name them (Slack's users), its account plumbing where not. */
const PEOPLE = new Set(["user", "users", "account", "accounts", "member", "members", "profile", "profiles"]);

/** Segments that version or root a path (`/api/v1`), never a resource. */
const ROOT = /^v\d+(\.\d+)?$|^api$/i;

/** The words an operation's place is named by: its path's named segments (or an RPC method's namespace) and its tags. */
function placeWords(entry: OperationModel): string[] {
  const segments = entry.path.split("/").filter((segment) => segment !== "" && !segment.startsWith("{") && !ROOT.test(segment));
  // An RPC method (`/admin.users.list`, `/chat.postMessage`) is named by its namespace, not its verb.
  const place = segments.length === 1 && segments[0]?.includes(".") ? segments[0].split(".").slice(0, -1) : segments;
  return [...place, ...entry.tags].flatMap((part) => words(part));
}

/** Whether some operation outside people's own paths names them in an argument (`user`, `user_id`, `members`). */
function peopleNamedElsewhere(
  entries: readonly { entry: OperationModel; arguments?: readonly string[] }[],
  placeOf: (entry: OperationModel) => readonly string[],
): boolean {
  return entries.some(({ entry, arguments: args }) => {
    if (placeOf(entry).some((word) => PEOPLE.has(word))) return false;
    const names = [...entry.parameters.filter((parameter) => parameter.in !== "path").map((parameter) => parameter.name), ...(args ?? [])];
    return names.some((name) => words(name).some((word) => PEOPLE.has(word)));
  });
}

/** A domain's share of an API at least this large makes the rest plumbing; below it, the plumbing is what the API is for. */
const DOMAIN_SHARE = 0.25;

/**
 * Which operations belong to the API's everyday use, from what the API is for: never probes, readiness, metrics, SDK
 * delivery, test helpers or internal tools; an administrators' area (`/admin`) only where it is most of the API (a
 * management API is its `/admin`); and its plumbing (sign-in, tokens, keys, webhooks, settings, accounts no other
 * operation names) only where the rest is too small to be what the API is for (an identity server's admin API).
 */
export function everydayAreas<T extends { entry: OperationModel; arguments?: readonly string[] }>(
  items: readonly T[],
): (item: T) => boolean {
  // Each operation's place words, read once.
  const places = new Map(items.map(({ entry }) => [entry, placeWords(entry)]));
  const placeOf = (entry: OperationModel) => places.get(entry) ?? [];
  const adminShare = items.filter(({ entry }) => placeOf(entry).includes("admin")).length / Math.max(1, items.length);
  // A management API under /admin: its /admin is the API, the word says nothing of who uses it.
  const skip = adminShare >= 0.5 ? "admin" : undefined;
  const plumbing = new Set([...PLUMBING, ...(peopleNamedElsewhere(items, placeOf) ? [] : PEOPLE)]);
  const kept = items.filter(
    ({ entry }) =>
      !placeOf(entry).some(
        (word) => word !== skip && (NEVER.has(word) || word === "admin" || word === "administration" || word === "enterprise"),
      ),
  );
  const domain = kept.filter(({ entry }) => !placeOf(entry).some((word) => word !== skip && plumbing.has(word)));
  const everyday = new Set<T>(domain.length >= kept.length * DOMAIN_SHARE ? domain : kept);
  return (item) => everyday.has(item);
}
