import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { authorize } from "./authorization-server.js";
import type { startProxyStack } from "./proxy-stack.js";

type Stack = Awaited<ReturnType<typeof startProxyStack>>;

/** Where a test client's browser is sent back to: a loopback address nothing listens on (the flow stops at the redirect). */
export const REDIRECT = "http://127.0.0.1:9/callback";

/** What the token endpoint answers: tokens, or an error. */
export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  scope: string;
  expires_in: number;
  error?: string;
  error_description?: string;
}

/** PKCE: a verifier and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The proxy's sign-in flow, by hand, against a stack (at `at`, one of its replicas, where given). */
export function proxyFlow(stack: Stack) {
  /** A client registered at the proxy (RFC 7591) for these redirect URIs. */
  const register = async (redirectUris: string[] = [REDIRECT]): Promise<string> => {
    const response = await fetch(new URL("/register", stack.publicUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "raw test client", redirect_uris: redirectUris, token_endpoint_auth_method: "none" }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { client_id: string }).client_id;
  };
  /** The proxy's authorization URL for a client, with these parameters over sensible defaults. */
  const authorizationUrl = (clientId: string, params: Record<string, string | undefined> = {}, at: URL = stack.mcp): URL => {
    const url = new URL("/authorize", at);
    const all: Record<string, string | undefined> = {
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: "the-clients-state",
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      scope: "memos:read memos:write",
      resource: stack.mcp.href,
      ...params,
    };
    for (const [key, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(key, value);
    return url;
  };
  /** A form POST to one of the proxy's endpoints (`/token`, `/revoke`). */
  const post = async (path: string, fields: Record<string, string>, at: URL = stack.mcp) => {
    const response = await fetch(new URL(path, at), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
    return { status: response.status, body: (await response.json()) as TokenAnswer };
  };
  /** POST /token with a form. */
  const token = (fields: Record<string, string>, at: URL = stack.mcp) => post("/token", fields, at);
  /** A full sign-in by hand (register, authorize, consent, provider, code, token) as `user`. */
  const signIn = async (user: string, scope = "memos:read memos:write") => {
    stack.signInAs(user);
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const back = await authorize(authorizationUrl(clientId, { code_challenge: challenge, scope }), REDIRECT);
    const code = back.get("code") ?? "";
    const answer = await token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { clientId, code, verifier, tokens: answer.body };
  };
  return { register, authorizationUrl, post, token, signIn };
}
