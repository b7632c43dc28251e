import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TemporaryPostgres } from "../../scripts/postgres-server.js";
import { signedInClient, TestOAuthProvider } from "../helpers/oauth-client.js";
import { proxyFlow } from "../helpers/proxy-flow.js";
import { startProxyStack } from "../helpers/proxy-stack.js";

/**
 * Proxy mode on three replicas behind one PUBLIC_URL, sharing one PostgreSQL (AUTH_STATE_URL): what must hold wherever
 * a request lands does (a refresh token's reuse, a revocation, an operator's offboarding), and across a restart.
 */
describe("proxy mode's sign-in state shared by three replicas on one PostgreSQL", () => {
  let database: TemporaryPostgres;
  let stack: Awaited<ReturnType<typeof startProxyStack>>;
  let replicas: Awaited<ReturnType<typeof stack.replica>>[] = [];
  let stateUrl = "";
  /** What every replica logged: the audit lines among it. */
  const logged: Record<string, unknown>[] = [];
  const record = (message: string, fields: Record<string, unknown> = {}) => void logged.push({ message, ...fields });
  const log = { info: record, warn: record, error: record };
  const audited = (event: string) => logged.filter((line) => line.message === "audit" && line.event === event);

  beforeAll(async () => {
    database = await startPostgres();
    stateUrl = await database.createDatabase("signin_state");
    stack = await startProxyStack({ variables: { AUTH_STATE_URL: stateUrl }, log });
    replicas = [await stack.replica(), await stack.replica()];
  }, 120_000);
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
    await stack?.close();
    await database?.stop();
  });

  /** The three replicas' MCP URLs: the first (the stack's own), then the two beside it. */
  const at = (): [URL, URL, URL] => {
    const [second, third] = replicas;
    if (!second || !third) throw new Error("the replicas have not started");
    return [stack.mcp, second.mcp, third.mcp];
  };
  /** A stateless 2026-07-28 tools/call with a bearer token at one replica: its HTTP status. */
  const call = async (token: string, where: URL) => {
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const response = await fetch(where, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "memo_list_memos",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "memo_list_memos", arguments: {}, _meta: meta },
      }),
    });
    await response.text();
    return response.status;
  };
  /** Polls `check` for up to three seconds (a revocation holds on every replica within two). */
  const within = async (check: () => Promise<boolean>) => {
    const deadline = Date.now() + 3_000;
    while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return check();
  };

  it("refuses a refresh token reused on another replica, and the reuse revokes the sign-in on every replica", async () => {
    const flow = proxyFlow(stack);
    const [first, second, third] = at();
    const { clientId, tokens } = await flow.signIn("hana");
    const rotated = await flow.token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId }, second);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const reused = await flow.token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId }, third);
    expect(reused.body).toMatchObject({ error: "invalid_grant", error_description: "the refresh token has already been used" });
    // Each replica's start-up names the shared store, and none says its state is its own.
    const told = logged.filter((line) => String(line.message).startsWith("MCP callers sign in through this server"));
    expect(told.map((line) => line.state)).toEqual(Array(3).fill(expect.stringMatching(/^postgres(ql)?:\/\/.*signin_state/)));
    expect(logged.filter((line) => String(line.message).includes("is this replica's own"))).toEqual([]);
    // The refusal's audit line says where it came from.
    expect(audited("refused")).toContainEqual(
      expect.objectContaining({ status: 400, reason: "invalid_grant: the refresh token has already been used", from: "127.0.0.1" }),
    );
    // The thief may hold either token: the sign-in is over wherever it is presented.
    const after = await flow.token({ grant_type: "refresh_token", refresh_token: rotated.body.refresh_token, client_id: clientId }, first);
    expect(after.body.error_description).toBe("this sign-in was revoked; sign in again");
    expect(
      await within(async () =>
        (await Promise.all([first, second, third].map((where) => call(rotated.body.access_token, where)))).every(
          (status) => status === 401,
        ),
      ),
    ).toBe(true);
  });

  it("holds a revocation (RFC 7009) made through one replica on all, and across a restart", async () => {
    const flow = proxyFlow(stack);
    const [first, second, third] = at();
    const { clientId, tokens } = await flow.signIn("ines");
    expect(await call(tokens.access_token, third)).toBe(200);
    const revoked = await flow.post(
      "/revoke",
      { token: tokens.refresh_token, token_type_hint: "refresh_token", client_id: clientId },
      second,
    );
    expect(revoked.status).toBe(200);
    expect(
      await within(async () =>
        (await Promise.all([first, second, third].map((where) => call(tokens.access_token, where)))).every((status) => status === 401),
      ),
    ).toBe(true);
    // A replica started afresh reads the same state.
    await replicas[1]?.close();
    const restarted = await stack.replica();
    replicas[1] = restarted;
    expect(await call(tokens.access_token, restarted.mcp)).toBe(401);
    const refreshed = await flow.token(
      { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId },
      restarted.mcp,
    );
    expect(refreshed.body.error).toBe("invalid_grant");
  });

  it("lets the SDK's client log out: it finds the revocation endpoint in the metadata, and its tokens are refused after", async () => {
    stack.signInAs("jonas");
    const provider = new TestOAuthProvider();
    const { client } = await signedInClient(stack.mcp, provider);
    await client.close();
    const { authorizationServerMetadata } = await discoverOAuthServerInfo(stack.mcp);
    const metadata: Record<string, unknown> = { ...authorizationServerMetadata };
    const endpoint = typeof metadata.revocation_endpoint === "string" ? metadata.revocation_endpoint : undefined;
    expect(endpoint).toBe(new URL("/revoke", stack.publicUrl).href);
    const tokens = provider.tokens();
    const logout = await fetch(endpoint ?? "", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens?.refresh_token ?? "", client_id: String(provider.clientInformation()?.client_id) }),
    });
    expect(logout.status).toBe(200);
    expect(await within(async () => (await call(tokens?.access_token ?? "", stack.mcp)) === 401)).toBe(true);
    // The SDK client, its tokens refused, sends its user to sign in again.
    const again = await signedInClient(stack.mcp, provider);
    await again.client.close();
    expect(provider.signIns).toBe(2);
  });

  it("the operator command revokes a signed-in user: their next call on any replica gets 401, and they sign in again", async () => {
    const flow = proxyFlow(stack);
    const { tokens } = await flow.signIn("kofi");
    expect(await call(tokens.access_token, at()[2])).toBe(200);
    const server = new URL("../../dist/generated/server.js", import.meta.url).pathname;
    const run = await promisify(execFile)(process.execPath, [server, "--revoke-user", "kofi"], {
      env: { PATH: process.env.PATH, AUTH_STATE_URL: stateUrl, LOG_LEVEL: "warn" },
    });
    expect(run.stdout).toContain('every sign-in of "kofi" until now is revoked');
    expect(
      await within(async () =>
        (await Promise.all(at().map((where) => call(tokens.access_token, where)))).every((status) => status === 401),
      ),
    ).toBe(true);
    // Who was refused after the offboarding: the audit line names the user and their client.
    expect(audited("refused")).toContainEqual(
      expect.objectContaining({ status: 401, reason: "the sign-in was revoked", user: "kofi", client: expect.any(String) }),
    );
    const fresh = await flow.signIn("kofi");
    expect(await call(fresh.tokens.access_token, at()[1])).toBe(200);
  });
});
