import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestTrace } from "../base/request-scope.js";

/**
 * What the HTTP layer asks of telemetry (`runtime/telemetry/`, started by serve/ only when switched on): to answer
 * `/metrics` on the main port for a scraper with the token, and to trace an MCP request.
 */
export interface TelemetryPort {
  /** Answers `GET /metrics` carrying the metrics token (true), or leaves the request (false). */
  answersMetrics(req: IncomingMessage, res: ServerResponse): boolean;
  /** The trace of one MCP request, ended when its answer is sent; undefined when traces are off. */
  traceRequest(req: IncomingMessage, res: ServerResponse): RequestTrace | undefined;
}
