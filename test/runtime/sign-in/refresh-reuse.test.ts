import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../../runtime/base/logger.js";
import { proxyPlace } from "../../../runtime/sign-in/proxy/proxy-place.js";
import { SealingKeys } from "../../../runtime/sign-in/proxy/sealed.js";
import { TokenEndpoint } from "../../../runtime/sign-in/proxy/token-endpoint.js";
import { UpstreamProvider } from "../../../runtime/sign-in/proxy/upstream-provider.js";
import { MemorySignInState } from "../../../runtime/sign-in/state/sign-in-state.js";

const resource = new URL("http://127.0.0.1:1/mcp");
const keys = new SealingKeys(resource, Uint8Array.from(randomBytes(32)));
const provider = new UpstreamProvider({
  authorizationUrl: new URL("http://127.0.0.1:2/auth"),
  tokenUrl: new URL("http://127.0.0.1:2/token"),
  client: { id: "app", secret: "s" },
  scopes: [],
  clientAuth: "basic",
});

describe("refresh-token reuse on a replica that remembers few sign-ins", () => {
  // A replica remembering four sign-ins: refreshes, however many, must not push out what it knows of one.
  const endpoint = new TokenEndpoint(proxyPlace(resource, "notes"), keys, provider, silentLogger, new MemorySignInState(4));
  const server = createServer((req, res) => void endpoint.handle(req, res));
  let url = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** A sign-in's first refresh token, for a registered client (as /token issues them after a code). */
  async function signIn(sub: string) {
    const clientId = await keys.seal("client", { redirect_uris: ["http://127.0.0.1:9/cb"] }, 3600);
    const family = randomBytes(12).toString("base64url");
    const upstream = { access: `provider-token-of-${sub}` };
    const token = await keys.seal("refresh", { sub, client_id: clientId, scope: [], family, generation: 0, jti: sub, upstream }, 3600);
    return { clientId, token };
  }
  const refresh = async (token: string, clientId: string) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: clientId }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };

  it("still catches a victim's used refresh token after an attacker's hundred refreshes of their own, and revokes the sign-in", async () => {
    const victim = await signIn("victim");
    const rotated = await refresh(victim.token, victim.clientId);
    expect(rotated.status).toBe(200);
    const mallory = await signIn("mallory");
    let current = mallory.token;
    for (let n = 0; n < 100; n++) {
      const next = await refresh(current, mallory.clientId);
      expect(next.status).toBe(200);
      current = next.body.refresh_token ?? "";
    }
    const replay = await refresh(victim.token, victim.clientId);
    expect(replay).toMatchObject({
      status: 400,
      body: { error: "invalid_grant", error_description: "the refresh token has already been used" },
    });
    // The reuse revoked the sign-in: the victim's own current token is refused too (the thief may hold either).
    const after = await refresh(rotated.body.refresh_token ?? "", victim.clientId);
    expect(after.body.error_description).toBe("this sign-in was revoked; sign in again");
  });

  it("answers invalid_client, not invalid_grant, for a client id sealed with a key it no longer holds (so clients register again)", async () => {
    const retired = new SealingKeys(resource, Uint8Array.from(randomBytes(32)));
    const oldClient = await retired.seal("client", { redirect_uris: ["http://127.0.0.1:9/cb"] }, 3600);
    const answer = await refresh("anything", oldClient);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("invalid_client");
  });
});
