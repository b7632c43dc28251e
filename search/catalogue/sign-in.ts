import type { ServerResponse } from "node:http";
import { isSecureUrl, type Logger, messagesOf, readSignInEnvironment, requestScope, SignInGuard, toolCallOf } from "oapi-mcp-gen-runtime";
import { ToolFailure } from "../documents/index.js";
import type { Loader } from "./catalogue.js";

/** The catalogue's scopes: to read it, to load and unload documents, and to replace or remove other users' documents. */
export interface CatalogueScopes {
  read: string;
  load: string;
  admin: string;
}

/** The search server as a resource server: its guard and its scopes. */
export interface SearchSignIn {
  guard: SignInGuard;
  scopes: CatalogueScopes;
}

/** What the command line and environment say of sign-in. */
export interface SignInOptions {
  authMode?: string;
  authIssuer?: string;
  publicUrl?: string;
  authReadScope: string;
  authLoadScope: string;
  authAdminScope: string;
}

/** The tools that change the catalogue: the load scope, and for another user's document the administrative one. */
export const CHANGING_TOOLS: ReadonlySet<string> = new Set(["load_openapi", "unload_api"]);

/** Whether this request's caller may change the catalogue (always, without sign-in). */
export function mayLoad(signIn: SearchSignIn | undefined): boolean {
  const caller = requestScope().signedIn;
  return !signIn || !caller || caller.scopes.has(signIn.scopes.load);
}

/**
 * Resource mode for the search server (`--auth-mode resource`, else `AUTH_MODE`): callers sign in with the issuer
 * (`--auth-issuer`, else `AUTH_ISSUER`) for this server's canonical URI (`--public-url`/`PUBLIC_URL` + `mcp`, or
 * `AUTH_RESOURCE`); undefined without it, when every caller is trusted alike.
 */
export function searchSignIn(options: SignInOptions, env: NodeJS.ProcessEnv = process.env, log?: Logger): SearchSignIn | undefined {
  // The command line's settings are read as the generated server reads its environment, the same checks applied.
  const given = {
    ...env,
    ...(options.authMode ? { AUTH_MODE: options.authMode } : {}),
    ...(options.authIssuer ? { AUTH_ISSUER: options.authIssuer } : {}),
  };
  const publicUrl = options.publicUrl ?? env.PUBLIC_URL?.trim();
  const problems: string[] = [];
  const signIn = readSignInEnvironment(given, publicUrl ? new URL(publicUrl) : undefined, problems);
  if (problems.length > 0) throw new Error(problems.join("; "));
  if (signIn?.mode !== "resource") return undefined;
  const { issuer, resource, client, introspectionCacheMs, requireAtJwt } = signIn;
  if (!issuer || !resource) throw new Error("resource mode needs --auth-issuer (or AUTH_ISSUER) and --public-url (or PUBLIC_URL)");
  if (!isSecureUrl(resource))
    throw new Error("--public-url must be https in resource mode (http only on loopback): every request's bearer token crosses it");
  const scopes = { read: options.authReadScope, load: options.authLoadScope, admin: options.authAdminScope };
  const settings = { issuer, resource, requiredScopes: [scopes.read], listAllTools: true, introspectionCacheMs, requireAtJwt };
  const guard = new SignInGuard({ ...settings, ...(client ? { client } : {}) }, undefined, log);
  guard.publishScopes([scopes.load, scopes.admin]);
  return { guard, scopes };
}

/** Who is loading or removing a document, when callers sign in (with whether they hold the administrative scope). */
export function loaderOf(signIn: SearchSignIn | undefined): Loader | undefined {
  const caller = requestScope().signedIn;
  if (!signIn || !caller) return undefined;
  return { subject: caller.subject, admin: caller.scopes.has(signIn.scopes.admin), adminScope: signIn.scopes.admin };
}

/**
 * Answers 403 `insufficient_scope` for a POST body that loads or unloads (one message, or any message of a batch) from a
 * caller without the load scope; true when it did.
 */
export function refusedForCatalogue(signIn: SearchSignIn): (body: unknown, res: ServerResponse) => boolean {
  return (body, res) => {
    const caller = requestScope().signedIn;
    if (!caller || caller.scopes.has(signIn.scopes.load)) return false;
    const changing = messagesOf(body).some((message) => CHANGING_TOOLS.has(toolCallOf(message)?.name ?? ""));
    if (!changing) return false;
    signIn.guard.refuseScope(res, caller, [signIn.scopes.load]);
    return true;
  };
}

/** Fails a load or unload whose caller lacks the load scope, however the call arrived (the tools check it themselves). */
export function checkMayLoad(signIn: SearchSignIn | undefined): void {
  if (!mayLoad(signIn))
    throw new ToolFailure(`this call needs the scope ${signIn?.scopes.load}, which your sign-in did not grant; sign in again with it`);
}
