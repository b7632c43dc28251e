/**
 * What resource mode costs a tool call: the generated Memos server in passthrough and as a resource server (a JWT
 * checked against its issuer's cached keys on every request), the same calls one after another, in one run.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { sequentialLatency, signed, startProcess } from "./server.js";
import { fmt, table } from "./stats.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const CALLS = 2_000;

export async function benchSignIn(): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "bench", alg: "ES256", use: "sig" };
  const body = JSON.stringify({ memos: [], nextPageToken: "" });
  const upstream = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
  // The authorization server as a resource server meets it: metadata and keys, fetched once and cached.
  const issuer = createServer((req, res) => {
    const origin = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
    const answer = req.url === "/jwks" ? { keys: [jwk] } : { issuer: origin, jwks_uri: `${origin}/jwks` };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  await Promise.all([upstream, issuer].map((server) => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const issuerUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}`;
  const healthy = async (port: number) => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok);
  const script = join(ROOT, "dist/generated/server.js");
  const passthrough = await startProcess(script, { API_BASE_URL: upstreamUrl }, healthy);
  const resource = await startProcess(
    script,
    (port) => ({
      API_BASE_URL: upstreamUrl,
      AUTH_MODE: "resource",
      AUTH_ISSUER: issuerUrl,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      UPSTREAM_AUTHORIZATION: "Bearer upstream",
    }),
    healthy,
  );
  try {
    const token = await new SignJWT({ sub: "bench", scope: "memos:read memos:write" })
      .setProtectedHeader({ alg: "ES256", kid: "bench" })
      .setIssuer(issuerUrl)
      .setAudience(`http://127.0.0.1:${resource.port}/mcp`)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "memo_list_memos", arguments: {} } });
    const send = (port: number) => async () => {
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          authorization: `Bearer ${token}`,
        },
        body: call,
      });
      const text = await response.text();
      if (!response.ok || !text.includes('"structuredContent"')) throw new Error(`tools/call failed: ${response.status} ${text}`);
    };
    // Alternated, twice each, so that the machine's drift falls on both alike; the better median of each counts.
    const rounds = { passthrough: [] as number[], resource: [] as number[] };
    for (let round = 0; round < 2; round++) {
      rounds.passthrough.push((await sequentialLatency(send(passthrough.port), CALLS)).p50);
      rounds.resource.push((await sequentialLatency(send(resource.port), CALLS)).p50);
    }
    const plain = Math.min(...rounds.passthrough);
    const signedIn = Math.min(...rounds.resource);
    return `One connection, ${CALLS.toLocaleString("en")} sequential \`tools/call\`s each, twice, alternating (the better median counts):\n\n${table(
      ["server", "p50 (ms)"],
      [
        ["(p) passthrough: the caller's Authorization forwarded (baseline)", fmt(plain, 3)],
        ["(r) resource mode: a JWT checked against the issuer's cached keys", fmt(signedIn, 3)],
        ["r − p (target ≤ +0.3 ms)", signed(signedIn - plain, 3)],
      ],
    )}`;
  } finally {
    await Promise.all([passthrough.stop(), resource.stop()]);
    upstream.close();
    issuer.close();
  }
}
