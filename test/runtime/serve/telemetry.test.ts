import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { silentLogger } from "../../../runtime/base/logger.js";
import type { RunningServer } from "../../../runtime/http/http-server.js";
import { readServerEnvironment } from "../../../runtime/serve/env.js";
import { startServer } from "../../../runtime/serve/serve.js";
import { freePort } from "../../../scripts/free-port.js";
import { parseSearchArguments, startSearchServer } from "../../../search/command.js";
import { startAuthorizationServer } from "../../helpers/authorization-server.js";
import { connectClient } from "../../helpers/memos-server.js";
import { fileRoots, MEMOS } from "../../helpers/search-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

/** One span as an OTLP/HTTP JSON export carries it. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

const SERVER = 2;
const CLIENT = 3;

/** An OTLP/HTTP receiver on loopback: every span exported to `/v1/traces`, with the resource's service name. */
async function startOtlpReceiver() {
  const spans: (ExportedSpan & { service: string })[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url !== "/v1/traces" || req.headers["content-type"] !== "application/json") return void res.writeHead(415).end();
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        resourceSpans: { resource: { attributes: ExportedSpan["attributes"] }; scopeSpans: { spans: ExportedSpan[] }[] }[];
      };
      for (const { resource, scopeSpans } of body.resourceSpans) {
        const service = String(resource.attributes.find((a) => a.key === "service.name")?.value.stringValue);
        for (const scope of scopeSpans) for (const span of scope.spans) spans.push({ ...span, service });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    /** The spans of one trace, once a server span named `name` and a client span have arrived. */
    async trace(traceId: string, name: string): Promise<ExportedSpan[]> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = spans.filter((span) => span.traceId === traceId);
        const arrived = found.some((span) => span.name === name) && found.some((span) => span.kind === CLIENT);
        if (arrived || Date.now() > deadline) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A span attribute's value, whatever its OTLP type. */
function attribute(span: ExportedSpan, key: string): unknown {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value && (value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : value.boolValue));
}

/** Prometheus's text format, parsed: each sample's name, labels and value. */
function parseMetrics(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const samples = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample named so with these labels (0 when absent). */
function sample(samples: ReturnType<typeof parseMetrics>, name: string, labels: Record<string, string>): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  return found?.value ?? 0;
}

const TOKEN = "metrics-token-0123456789abcdef";
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("telemetry: OpenTelemetry traces over OTLP and Prometheus metrics, switched on by the environment", () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let metricsPort: number;
  const scheduleDelay = process.env.OTEL_BSP_SCHEDULE_DELAY;

  beforeAll(async () => {
    // Spans leave in batches; a short delay keeps the test quick (the SDK reads its own variable).
    process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
    receiver = await startOtlpReceiver();
    upstream = await startUpstream((recorded, res) =>
      recorded.path.endsWith("/missing") ? sendJson(res, 404, { code: 5, message: "not found" }) : sendJson(res, 200, { memos: [] }),
    );
    metricsPort = await freePort();
    const environment = readServerEnvironment({
      HOST: "127.0.0.1",
      PORT: "0",
      API_BASE_URL: upstream.url.href,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "memos-mcp",
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: TOKEN,
    });
    server = await startServer({ identity: serverIdentity, tools, environment, log: { info() {}, warn() {}, error() {} } });
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await receiver?.close();
    if (scheduleDelay === undefined) delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    else process.env.OTEL_BSP_SCHEDULE_DELAY = scheduleDelay;
  });

  it("a tools/call through the SDK client is a server span, the upstream call its child, and the upstream sees its traceparent", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const client = await connectClient(new URL("/mcp", server.url), { traceparent: `00-${traceId}-${callerSpan}-01` });
    const sent = upstream.requests.length;
    try {
      const result = await client.callTool({ name: "memo_list_memos", arguments: { pageSize: 2 } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const spans = await receiver.trace(traceId, "tools/call memo_list_memos");
    const call = spans.find((span) => span.name === "tools/call memo_list_memos");
    expect(call).toMatchObject({ kind: SERVER, parentSpanId: callerSpan });
    expect(attribute(call as ExportedSpan, "gen_ai.tool.name")).toBe("memo_list_memos");
    expect(attribute(call as ExportedSpan, "mcp.tool.outcome")).toBe("ok");
    expect(attribute(call as ExportedSpan, "http.response.status_code")).toBe(200);
    const upstreamSpan = spans.find((span) => span.kind === CLIENT);
    expect(upstreamSpan).toMatchObject({ name: "GET", parentSpanId: call?.spanId });
    expect(attribute(upstreamSpan as ExportedSpan, "url.full")).toBe(`${upstream.url.origin}/api/v1/memos`);
    expect(attribute(upstreamSpan as ExportedSpan, "http.response.status_code")).toBe(200);
    expect(upstream.requests.slice(sent).map((request) => request.headers.traceparent)).toEqual([
      `00-${traceId}-${upstreamSpan?.spanId}-01`,
    ]);
    // The SDK's initialize, its notification and its GET for a stream are spans of the same trace.
    expect(spans.map((span) => span.name)).toEqual(expect.arrayContaining(["initialize", "notifications/initialized", "GET /mcp"]));
    expect(receiver.spans.find((span) => span.traceId === traceId)?.service).toBe("memos-mcp");
  });

  it("a 2026-07-28 request's trace context in _meta wins over the HTTP header; a tool error marks its span", async () => {
    const metaTrace = "0af7651916cd43dd8448eb211c80319c";
    const headerTrace = "11111111111111111111111111111111";
    const response = await fetch(new URL("/mcp", server.url), {
      method: "POST",
      headers: {
        ...MCP_HEADERS,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "memo_get_memo",
        traceparent: `00-${headerTrace}-b7ad6b7169203331-01`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: "memo_get_memo",
          arguments: { memo: "missing" },
          _meta: {
            traceparent: `00-${metaTrace}-b9c7c989f97918e1-01`,
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
          },
        },
      }),
    });
    const answer = (await response.json()) as { result?: { isError?: boolean } };
    expect(answer.result?.isError).toBe(true);
    const [call, child] = await receiver
      .trace(metaTrace, "tools/call memo_get_memo")
      .then((spans) => [spans.find((span) => span.kind === SERVER), spans.find((span) => span.kind === CLIENT)]);
    expect(call).toMatchObject({ name: "tools/call memo_get_memo", parentSpanId: "b9c7c989f97918e1", status: { code: 2 } });
    expect(attribute(call as ExportedSpan, "error.type")).toBe("tool_error");
    expect(attribute(call as ExportedSpan, "jsonrpc.request.id")).toBe(7);
    expect(attribute(call as ExportedSpan, "mcp.protocol.version")).toBe("2026-07-28");
    expect(child).toMatchObject({ parentSpanId: call?.spanId, status: { code: 2 } });
    expect(attribute(child as ExportedSpan, "http.response.status_code")).toBe(404);
    expect(receiver.spans.filter((span) => span.traceId === headerTrace)).toEqual([]);
  });

  it("/metrics is scraped on its own port, and on the main port only with the token; the counts follow the calls", async () => {
    const scrape = async () => {
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return parseMetrics(await response.text());
    };
    const before = await scrape();
    const client = await connectClient(new URL("/mcp", server.url));
    try {
      for (let i = 0; i < 3; i++) await client.callTool({ name: "memo_list_memos", arguments: { pageSize: 1 } });
      await client.callTool({ name: "memo_get_memo", arguments: { memo: "missing" } });
    } finally {
      await client.close();
    }
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("mcp_tool_calls_total", { tool: "memo_list_memos", outcome: "ok" })).toBe(3);
    expect(delta("mcp_tool_calls_total", { tool: "memo_get_memo", outcome: "upstream-error" })).toBe(1);
    expect(delta("mcp_tool_call_duration_seconds_count", { tool: "memo_list_memos" })).toBe(3);
    expect(delta("mcp_tool_call_duration_seconds_bucket", { tool: "memo_list_memos", le: "+Inf" })).toBe(3);
    expect(delta("mcp_upstream_responses_total", { tool: "memo_list_memos", status: "200" })).toBe(3);
    expect(delta("mcp_upstream_responses_total", { tool: "memo_get_memo", status: "404" })).toBe(1);
    // The process's own, from the client library's defaults.
    expect(after.some((s) => s.name === "process_resident_memory_bytes" && s.value > 0)).toBe(true);

    const main = new URL("/metrics", server.url);
    expect((await fetch(main)).status).toBe(401);
    expect((await fetch(main, { headers: { authorization: "Bearer wrong-token-0123456789abcdef" } })).status).toBe(401);
    const withToken = await fetch(main, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    expect(
      sample(parseMetrics(await withToken.text()), "mcp_tool_calls_total", { tool: "memo_list_memos", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(3);
  });
});

describe("metrics of sign-in: refusals by reason", () => {
  it("counts a request without a valid token as refused (invalid_token), and /metrics is not there with telemetry off", async () => {
    const authorizationServer = await startAuthorizationServer();
    const upstream = await startUpstream();
    const port = await freePort();
    const variables = {
      HOST: "127.0.0.1",
      PORT: String(port),
      API_BASE_URL: upstream.url.href,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_MODE: "resource",
      AUTH_ISSUER: authorizationServer.issuer.href,
      UPSTREAM_AUTHORIZATION: "Bearer s",
    };
    const quiet = { info() {}, warn() {}, error() {} };
    const server = await startServer({
      identity: serverIdentity,
      tools,
      environment: readServerEnvironment({ ...variables, METRICS_TOKEN: TOKEN }),
      log: quiet,
    });
    try {
      const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
      for (const authorization of ["Bearer not-a-token", undefined])
        expect(
          (
            await fetch(new URL("/mcp", server.url), {
              method: "POST",
              headers: { ...MCP_HEADERS, ...(authorization ? { authorization } : {}) },
              body: call,
            })
          ).status,
        ).toBe(401);
      // The metrics token is not a sign-in: /metrics answers it before the guard, and the guard never sees it.
      const scraped = await fetch(new URL("/metrics", server.url), { headers: { authorization: `Bearer ${TOKEN}` } });
      const samples = parseMetrics(await scraped.text());
      // A request without a token is how every client starts signing in: challenged, not counted as refused.
      expect(sample(samples, "mcp_sign_in_refusals_total", { reason: "invalid_token" })).toBe(1);
    } finally {
      await server.close();
    }
    const offPort = await freePort();
    const offVariables = { ...variables, PORT: String(offPort), PUBLIC_URL: `http://127.0.0.1:${offPort}` };
    const off = await startServer({ identity: serverIdentity, tools, environment: readServerEnvironment(offVariables), log: quiet });
    try {
      const scraped = await fetch(new URL("/metrics", off.url), { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).not.toBe(200);
    } finally {
      await off.close();
      await upstream.close();
      await authorizationServer.close();
    }
  });
});

describe("metrics read off the audit trail", () => {
  it("counts sign-ins, refusals by a bounded reason, revocations and catalogue changes", async () => {
    const { Metrics } = await import("../../../runtime/telemetry/metrics.js");
    const metrics = await Metrics.start();
    const events: Record<string, unknown>[] = [
      { event: "sign-in", mode: "proxy", user: "u" },
      { event: "refused", status: 401, reason: "the token is not valid" },
      { event: "refused", status: 403, reason: "needs memos:write" },
      { event: "refused", status: 400, reason: "invalid_grant: this sign-in was revoked; sign in again" },
      { event: "refused", status: 400, reason: "made_up_by_a_provider: anything at all" },
      { event: "refused", status: 302, reason: "the user did not allow the client (consent page)" },
      { event: "revoked", what: "user", by: "operator", user: "u" },
      { event: "catalogue", action: "load", api: "memos" },
    ];
    for (const fields of events) metrics.observe("audit", fields);
    const written: string[] = [];
    await metrics.answer({ writeHead: () => ({ end: (body: string) => written.push(body) }) } as never);
    const samples = parseMetrics(written.join(""));
    expect(sample(samples, "mcp_sign_ins_total", { mode: "proxy" })).toBe(1);
    for (const reason of ["invalid_token", "insufficient_scope", "invalid_grant", "token_request", "consent_denied"])
      expect(sample(samples, "mcp_sign_in_refusals_total", { reason }), reason).toBe(1);
    expect(samples.filter((s) => s.name === "mcp_sign_in_refusals_total").map((s) => s.labels.reason)).not.toContain(
      "made_up_by_a_provider",
    );
    expect(sample(samples, "mcp_revocations_total", { what: "user", by: "operator" })).toBe(1);
    expect(sample(samples, "mcp_catalogue_changes_total", { action: "load" })).toBe(1);
  });
});

describe("the search server's telemetry", () => {
  it("counts catalogue changes on /metrics, and traces its requests", async () => {
    const receiver = await startOtlpReceiver();
    const scheduleDelay = process.env.OTEL_BSP_SCHEDULE_DELAY;
    process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
    const env = { METRICS_TOKEN: TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
    const search = await startSearchServer(parseSearchArguments(["--port", "0", "--memory", ...fileRoots()]), silentLogger, env);
    const traceId = "5bf92f3577b34da6a3ce929d0e0e4737";
    const client = await connectClient(search.url, { traceparent: `00-${traceId}-00f067aa0ba902b8-01` });
    try {
      expect((await client.callTool({ name: "load_openapi", arguments: { name: "memos", url: MEMOS } })).isError).toBeFalsy();
      const scraped = await fetch(new URL("/metrics", search.url), { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(sample(parseMetrics(await scraped.text()), "mcp_catalogue_changes_total", { action: "load" })).toBe(1);
      const deadline = Date.now() + 10_000;
      while (!receiver.spans.some((span) => span.traceId === traceId && span.name === "tools/call load_openapi") && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const call = receiver.spans.find((span) => span.traceId === traceId && span.name === "tools/call load_openapi");
      expect(call).toMatchObject({ kind: SERVER, parentSpanId: "00f067aa0ba902b8", service: "oapi-mcp-gen-search" });
    } finally {
      await client.close();
      await search.close();
      await receiver.close();
      if (scheduleDelay === undefined) delete process.env.OTEL_BSP_SCHEDULE_DELAY;
      else process.env.OTEL_BSP_SCHEDULE_DELAY = scheduleDelay;
    }
  });
});
