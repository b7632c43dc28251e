import { setOwn } from "../base/own-property.js";
import type { CallerCredentials } from "./credentials.js";
import { headerRefusal } from "./header-policy.js";

/** The caller's Authorization and the headers the passthrough allow-list names, from one request's headers. */
export function callerFromHeaders(headers: Record<string, string | string[] | undefined>, allowed: readonly string[]): CallerCredentials {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const passed: Record<string, string> = {};
  for (const name of allowed) {
    // Never a header that frames, routes or authenticates the request, whatever a (hand-edited) list says.
    if (headerRefusal(name) !== undefined) continue;
    const value = first(name.toLowerCase());
    if (value !== undefined) setOwn(passed, name.toLowerCase(), value);
  }
  const authorization = first("authorization");
  return { ...(authorization ? { authorization } : {}), ...(Object.keys(passed).length > 0 ? { headers: passed } : {}) };
}
