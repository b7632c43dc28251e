import type { Logger } from "../base/logger.js";
import { openRequestScope } from "../base/request-scope.js";
import type { RunningServer } from "../http/http-server.js";
import type { TelemetryPort } from "../http/telemetry-port.js";
import { hasMetricsToken, Metrics } from "./metrics.js";
import type { TelemetryEnvironment } from "./telemetry-env.js";
import { Tracing } from "./traces.js";

/** Telemetry switched on: the logger that feeds it, what the HTTP layer asks of it, and how to stop it. */
export interface Telemetry {
  /** The server's logger, its tool-call and audit events also counted (and noted on the request's span). */
  log: Logger;
  port: TelemetryPort;
  close(): Promise<void>;
}

/**
 * Starts what the environment switches on: Prometheus metrics (`/metrics` on a port of their own, or on the main port
 * with a token) and OpenTelemetry traces exported over OTLP. Loaded only then (serve/ imports it dynamically), with
 * its packages, which a deployment adds beside the server.
 */
export async function startTelemetry(settings: TelemetryEnvironment, serverName: string, host: string, log: Logger): Promise<Telemetry> {
  const metrics = settings.metrics ? await Metrics.start() : undefined;
  const tracing = settings.traces ? await Tracing.start(settings.traces, serverName, log) : undefined;
  let listener: RunningServer | undefined;
  if (metrics && settings.metrics?.port !== undefined)
    listener = await metrics.listen(settings.metrics.host ?? host, settings.metrics.port, log);
  const token = settings.metrics?.token;
  if (metrics && token !== undefined) log.info("metrics at /metrics on the main port, for a scraper sending METRICS_TOKEN", {});
  return {
    log: observedLogger(log, metrics, tracing !== undefined),
    port: {
      answersMetrics: (req, res) => {
        if (!metrics || token === undefined || (req.url ?? "/").split("?")[0] !== "/metrics" || req.method !== "GET") return false;
        if (hasMetricsToken(req, token)) void metrics.answer(res);
        else res.writeHead(401, { "www-authenticate": 'Bearer realm="metrics"' }).end();
        return true;
      },
      traceRequest: (req, res) => tracing?.begin(req, res),
    },
    close: async () => {
      await listener?.close();
      await tracing?.close();
    },
  };
}

/** A logger that counts each event it writes, and notes a tool call's outcome on its request's span. */
function observedLogger(log: Logger, metrics: Metrics | undefined, traced: boolean): Logger {
  const at =
    (write: (message: string, fields?: Record<string, unknown>) => void) => (message: string, fields?: Record<string, unknown>) => {
      metrics?.observe(message, fields);
      if (traced && message === "tool call" && fields) openRequestScope()?.trace?.note(fields);
      write(message, fields);
    };
  return {
    ...(log.debug ? { debug: log.debug.bind(log) } : {}),
    info: at(log.info.bind(log)),
    warn: at(log.warn.bind(log)),
    error: at(log.error.bind(log)),
  };
}
