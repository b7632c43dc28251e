import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { EnvironmentError } from "../base/environment-error.js";
import type { Logger } from "../base/logger.js";
import { listen, type RunningServer } from "../http/http-server.js";

type PromClient = typeof import("prom-client");

/** prom-client, which a deployment adds beside the server to switch metrics on (`npm install prom-client`). */
async function loadPromClient(): Promise<PromClient> {
  try {
    return await import("prom-client");
  } catch {
    throw new EnvironmentError(
      "METRICS_PORT or METRICS_TOKEN is set, but prom-client is not installed: add metrics to server.include in the generator's config and generate again (or npm install prom-client@15 beside the server)",
    );
  }
}

/** The OAuth error codes a token endpoint's refusal is counted by (RFC 6749 §5.2); another counts as `token_request`. */
const OAUTH_ERRORS = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "server_error",
  "temporarily_unavailable",
]);

/** Why a request was refused, as a bounded label: the token endpoint's OAuth error, else what its status says. */
function refusalReason(status: number, reason: string): string {
  const code = /^([a-z_]+): /.exec(reason)?.[1];
  if (code !== undefined) return OAUTH_ERRORS.has(code) ? code : "token_request";
  if (status === 401) return "invalid_token";
  if (status === 403) return "insufficient_scope";
  if (status === 429) return "rate_limited";
  if (status === 302) return "consent_denied";
  if (status >= 500) return "unavailable";
  return "bad_request";
}

/**
 * Prometheus metrics (prom-client): tool calls by outcome, their latency, upstream statuses per tool, sign-ins,
 * refusals by reason, revocations and catalogue changes, and the process's own; read off the server's log events (a
 * tool call, an audit line), so the metrics and the log never disagree.
 */
export class Metrics {
  private readonly registry: InstanceType<PromClient["Registry"]>;
  private readonly calls;
  private readonly durations;
  private readonly upstream;
  private readonly signIns;
  private readonly refusals;
  private readonly revocations;
  private readonly catalogue;
  /** Each metric's series by label values, kept once made: a call then skips hashing its labels (tools are few). */
  private readonly callSeries = new Map<string, { inc(): void }>();
  private readonly durationSeries = new Map<string, { observe(seconds: number): void }>();
  private readonly upstreamSeries = new Map<string, { inc(): void }>();

  private constructor(client: PromClient) {
    const registry = new client.Registry();
    this.registry = registry;
    client.collectDefaultMetrics({ register: registry });
    const counter = (name: string, help: string, labelNames: string[]) =>
      new client.Counter({ name, help, labelNames, registers: [registry] });
    this.calls = counter("mcp_tool_calls_total", "Tool calls, by tool and outcome (ok, upstream-error, invalid-arguments, …).", [
      "tool",
      "outcome",
    ]);
    this.durations = new client.Histogram({
      name: "mcp_tool_call_duration_seconds",
      help: "How long tool calls took, by tool.",
      labelNames: ["tool"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
    this.upstream = counter("mcp_upstream_responses_total", "Upstream answers, by tool and HTTP status.", ["tool", "status"]);
    this.signIns = counter("mcp_sign_ins_total", "Sign-ins (a token seen for the first time, or a sign-in through the proxy).", ["mode"]);
    this.refusals = counter("mcp_sign_in_refusals_total", "Requests refused by sign-in, by reason.", ["reason"]);
    this.revocations = counter("mcp_revocations_total", "Revocations, of one sign-in or of a user's, by who made them.", ["what", "by"]);
    this.catalogue = counter("mcp_catalogue_changes_total", "Changes to the search server's catalogue, by action.", ["action"]);
  }

  static async start(): Promise<Metrics> {
    return new Metrics(await loadPromClient());
  }

  /** Counts what one log event says: a tool call, an audit line. */
  observe(message: string, fields: Record<string, unknown> | undefined): void {
    if (fields === undefined) return;
    if (message === "tool call") {
      const tool = String(fields.tool);
      const outcome = String(fields.outcome);
      seriesOf(this.callSeries, `${tool}\u0000${outcome}`, () => this.calls.labels(tool, outcome)).inc();
      if (typeof fields.durationMs === "number")
        seriesOf(this.durationSeries, tool, () => this.durations.labels(tool)).observe(fields.durationMs / 1000);
      if (typeof fields.status === "number") {
        const status = String(fields.status);
        seriesOf(this.upstreamSeries, `${tool}\u0000${status}`, () => this.upstream.labels(tool, status)).inc();
      }
      return;
    }
    if (message !== "audit") return;
    if (fields.event === "sign-in") this.signIns.inc({ mode: String(fields.mode) });
    else if (fields.event === "refused") this.refusals.inc({ reason: refusalReason(Number(fields.status), String(fields.reason)) });
    else if (fields.event === "revoked") this.revocations.inc({ what: String(fields.what), by: String(fields.by) });
    else if (fields.event === "catalogue") this.catalogue.inc({ action: String(fields.action) });
  }

  /** Answers `GET /metrics` in Prometheus's text format. */
  async answer(res: ServerResponse): Promise<void> {
    const text = await this.registry.metrics();
    res.writeHead(200, { "content-type": this.registry.contentType, "cache-control": "no-store" }).end(text);
  }

  /** `/metrics` on a listener of its own (`METRICS_PORT`), for a platform's scraper on the private network. */
  async listen(host: string, port: number, log: Logger): Promise<RunningServer> {
    const running = await listen(
      async (req, res) => {
        if ((req.url ?? "/").split("?")[0] === "/metrics" && req.method === "GET") await this.answer(res);
        else res.writeHead(404).end();
      },
      host,
      port,
      (error) => log.error("metrics: answering a scrape failed", { error: String(error) }),
      { port: "METRICS_PORT", host: "METRICS_HOST" },
    );
    log.info("metrics at /metrics", { url: new URL("/metrics", running.url).href });
    return running;
  }
}

/** The series kept under `key`, made by `make` the first time. */
function seriesOf<Series>(known: Map<string, Series>, key: string, make: () => Series): Series {
  let series = known.get(key);
  if (series === undefined) {
    series = make();
    known.set(key, series);
  }
  return series;
}

/** Whether a request to the main port carries the metrics token (`Authorization: Bearer <METRICS_TOKEN>`). */
export function hasMetricsToken(req: IncomingMessage, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
