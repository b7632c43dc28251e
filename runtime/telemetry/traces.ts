import type { IncomingMessage, ServerResponse } from "node:http";
import { EnvironmentError } from "../base/environment-error.js";
import type { Logger } from "../base/logger.js";
import type { RequestTrace } from "../base/request-scope.js";

type Api = typeof import("@opentelemetry/api");
type Span = import("@opentelemetry/api").Span;
type Context = import("@opentelemetry/api").Context;
type Tracer = import("@opentelemetry/api").Tracer;
type Propagator = import("@opentelemetry/api").TextMapPropagator;
type Provider = import("@opentelemetry/sdk-trace-base").BasicTracerProvider;

/** The OpenTelemetry packages a deployment adds beside the server to switch traces on. */
export const TRACE_PACKAGES =
  "@opentelemetry/api @opentelemetry/core @opentelemetry/resources @opentelemetry/sdk-trace-base @opentelemetry/exporter-trace-otlp-http";

/** Where traces go: an OTLP/HTTP endpoint, and the service's name on them. */
export interface TraceSettings {
  url: URL;
  serviceName?: string;
}

/**
 * Traces by the official OpenTelemetry SDK, exported over OTLP/HTTP: one server span per MCP request, named as the MCP
 * semantic conventions name it (`tools/call memo_list_memos`), a client span per upstream call beneath it, and the W3C
 * `traceparent` sent upstream. A request's parent is the trace context in its `_meta` (SEP-414), else its
 * `traceparent` header. The provider is this server's own: nothing is registered globally.
 */
export class Tracing {
  private constructor(
    private readonly api: Api,
    private readonly provider: Provider,
    private readonly tracer: Tracer,
    private readonly propagator: Propagator,
  ) {}

  static async start(settings: TraceSettings, serverName: string, log: Logger): Promise<Tracing> {
    const [api, core, resources, sdk, exporter] = await Promise.all([
      import("@opentelemetry/api"),
      import("@opentelemetry/core"),
      import("@opentelemetry/resources"),
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/exporter-trace-otlp-http"),
    ]).catch(() => {
      throw new EnvironmentError(
        `OTEL_EXPORTER_OTLP_ENDPOINT is set, but OpenTelemetry's SDK is not installed: add traces to server.include in the generator's config and generate again (or npm install ${TRACE_PACKAGES} beside the server)`,
      );
    });
    const provider = new sdk.BasicTracerProvider({
      resource: resources.resourceFromAttributes({ "service.name": settings.serviceName ?? serverName }),
      spanProcessors: [new sdk.BatchSpanProcessor(new exporter.OTLPTraceExporter({ url: settings.url.href }))],
    });
    log.info("traces go to an OTLP endpoint", { url: `${settings.url.origin}${settings.url.pathname}` });
    return new Tracing(api, provider, provider.getTracer("oapi-mcp-gen-runtime"), new core.W3CTraceContextPropagator());
  }

  /** The trace of one MCP request: its server span starts when the request came, and ends when its answer is sent. */
  begin(req: IncomingMessage, res: ServerResponse): RequestTrace {
    const trace = new McpRequestTrace(this.api, this.tracer, this.propagator, req);
    res.once("close", () => trace.end(res.statusCode));
    return trace;
  }

  /** Sends what is still queued, then stops. */
  async close(): Promise<void> {
    await this.provider.shutdown();
  }
}

/** The longest text a caller's message may put on a span (a tool's name, a request id). */
const ATTRIBUTE_CHARACTERS = 200;

/** One MCP request's spans: the server span (opened once the message says what it asks, or at the end) and its children. */
class McpRequestTrace implements RequestTrace {
  private readonly startTime = Date.now();
  private server: { span: Span; context: Context } | undefined;
  private ended = false;

  constructor(
    private readonly api: Api,
    private readonly tracer: Tracer,
    private readonly propagator: Propagator,
    private readonly req: IncomingMessage,
  ) {}

  describe(message: unknown): void {
    if (this.server || this.ended) return;
    const { method, target, id, meta } = readMessage(message);
    const parent = this.parentFrom(meta && typeof meta.traceparent === "string" ? meta : this.req.headers);
    const version = this.req.headers["mcp-protocol-version"];
    this.open(target ? `${method} ${target}` : method, parent, {
      "mcp.method.name": method,
      ...(target ? { [method === "tools/call" ? "gen_ai.tool.name" : "mcp.target"]: target } : {}),
      ...(id !== undefined ? { "jsonrpc.request.id": id } : {}),
      ...(typeof version === "string" ? { "mcp.protocol.version": version.slice(0, 40) } : {}),
    });
  }

  upstream(method: string, url: URL): { headers: Record<string, string>; end(status?: number, error?: string): void } {
    const parent = this.opened().context;
    const span = this.tracer.startSpan(
      method,
      {
        kind: this.api.SpanKind.CLIENT,
        attributes: {
          "http.request.method": method,
          // The path only: a query may carry a key.
          "url.full": `${url.origin}${url.pathname}`,
          "server.address": url.hostname,
        },
      },
      parent,
    );
    const headers: Record<string, string> = {};
    this.propagator.inject(this.api.trace.setSpan(parent, span), headers, this.api.defaultTextMapSetter);
    return {
      headers,
      end: (status, error) => {
        if (status !== undefined) span.setAttribute("http.response.status_code", status);
        if (error !== undefined || (status !== undefined && status >= 400)) {
          span.setAttribute("error.type", error ?? String(status));
          span.setStatus({ code: this.api.SpanStatusCode.ERROR });
        }
        span.end();
      },
    };
  }

  note(toolCall: Record<string, unknown>): void {
    const span = this.server?.span;
    if (!span || this.ended) return;
    span.setAttribute("mcp.tool.outcome", String(toolCall.outcome));
    if (toolCall.outcome === "ok") return;
    span.setAttribute("error.type", "tool_error");
    span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: String(toolCall.outcome) });
  }

  end(status: number): void {
    if (this.ended) return;
    const { span } = this.opened();
    this.ended = true;
    span.setAttribute("http.response.status_code", status);
    if (status >= 500) {
      span.setAttribute("error.type", String(status));
      span.setStatus({ code: this.api.SpanStatusCode.ERROR });
    }
    span.end();
  }

  /** The server span and its context, opened now (named by the HTTP request) when no message named it. */
  private opened(): { span: Span; context: Context } {
    if (this.server) return this.server;
    const parent = this.parentFrom(this.req.headers);
    return this.open(`${this.req.method ?? "POST"} /mcp`, parent, { "http.request.method": this.req.method ?? "POST" });
  }

  /** The caller's trace context (`traceparent`, `tracestate`), or none: a new trace. */
  private parentFrom(carrier: Record<string, unknown>): Context {
    if (carrier.traceparent === undefined) return this.api.ROOT_CONTEXT;
    return this.propagator.extract(this.api.ROOT_CONTEXT, carrier, this.api.defaultTextMapGetter);
  }

  private open(name: string, parent: Context, attributes: Record<string, string | number>): { span: Span; context: Context } {
    const span = this.tracer.startSpan(name, { kind: this.api.SpanKind.SERVER, startTime: this.startTime, attributes }, parent);
    this.server = { span, context: this.api.trace.setSpan(parent, span) };
    return this.server;
  }
}

/** What a span says of a JSON-RPC message (a batch is one span, `batch`): its method, target, id and `_meta`. */
function readMessage(message: unknown): {
  method: string;
  target?: string;
  id?: string | number;
  meta?: Record<string, unknown>;
} {
  if (Array.isArray(message)) return { method: "batch" };
  if (!isRecord(message)) return { method: "POST /mcp" };
  const { method, id, params } = message;
  const named = typeof method === "string" ? method.slice(0, ATTRIBUTE_CHARACTERS) : "response";
  const fields = isRecord(params) ? params : {};
  const target = typeof fields.name === "string" ? fields.name : typeof fields.uri === "string" ? fields.uri : undefined;
  const meta = isRecord(fields._meta) ? fields._meta : undefined;
  return {
    method: named,
    ...(target !== undefined ? { target: target.slice(0, ATTRIBUTE_CHARACTERS) } : {}),
    ...(typeof id === "number" ? { id } : typeof id === "string" ? { id: id.slice(0, ATTRIBUTE_CHARACTERS) } : {}),
    ...(meta ? { meta } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
