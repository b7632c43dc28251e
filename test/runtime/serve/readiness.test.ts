import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { silentLogger } from "../../../runtime/base/logger.js";
import { readServerEnvironment } from "../../../runtime/serve/env.js";
import { startServer } from "../../../runtime/serve/serve.js";
import { freePort } from "../../../scripts/free-port.js";
import { startAuthorizationServer } from "../../helpers/authorization-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

/** A port nothing listens on. */
async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

describe("readiness (/ready) beside liveness (/health)", () => {
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer();
    upstream = await startUpstream((_, res) => sendJson(res, 200, {}));
  });
  afterAll(async () => {
    await upstream?.close();
    await authorizationServer?.close();
  });

  /** The committed Memos server in resource mode for `issuer`, over `api`; its /health and /ready answers. */
  async function probe(issuer: string, api: string) {
    const port = await freePort();
    const environment = readServerEnvironment({
      HOST: "127.0.0.1",
      PORT: String(port),
      API_BASE_URL: api,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_MODE: "resource",
      AUTH_ISSUER: issuer,
      UPSTREAM_AUTHORIZATION: "Bearer s",
    });
    const server = await startServer({ identity: serverIdentity, tools, environment, log: silentLogger });
    try {
      const health = await fetch(new URL("/health", server.url));
      const ready = await fetch(new URL("/ready", server.url));
      return {
        health: health.status,
        ready: ready.status,
        body: (await ready.json()) as { status: string; checks: Record<string, string> },
      };
    } finally {
      await server.close();
    }
  }

  it("is ready when the authorization server's keys and the upstream answer", async () => {
    const answer = await probe(authorizationServer.issuer.href, upstream.url.href);
    expect(answer).toEqual({
      health: 200,
      ready: 200,
      body: { status: "ready", checks: { "authorization server": "ok", upstream: "ok" } },
    });
  });

  it("is not ready (503, naming what fails) while the authorization server or the upstream is down; /health stays 200", async () => {
    const noIssuer = await probe(await deadUrl(), upstream.url.href);
    expect(noIssuer.health).toBe(200);
    expect(noIssuer.ready).toBe(503);
    expect(noIssuer.body.checks["authorization server"]).toMatch(/metadata cannot be read/);
    const noUpstream = await probe(authorizationServer.issuer.href, await deadUrl());
    expect(noUpstream.ready).toBe(503);
    expect(noUpstream.body.checks.upstream).toMatch(/^unreachable \(.*ECONNREFUSED.*\); check API_BASE_URL$/);
  });
});
