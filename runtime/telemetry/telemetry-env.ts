/** What the environment switches on of telemetry; undefined when neither metrics nor traces are asked for. */
export interface TelemetryEnvironment {
  /** `METRICS_PORT` (a listener of its own, on `METRICS_HOST`, else `HOST`) and/or `METRICS_TOKEN` (/metrics on the main port). */
  metrics?: { port?: number; host?: string; token?: string };
  /** `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`; `OTEL_SERVICE_NAME`. */
  traces?: { url: URL; serviceName?: string };
}

/** Reads `METRICS_*` and the OpenTelemetry exporter's standard variables; problems go to `problems`. */
export function readTelemetryEnvironment(env: NodeJS.ProcessEnv, problems: string[]): TelemetryEnvironment | undefined {
  const text = (name: string) => env[name]?.trim() || undefined;
  const portText = text("METRICS_PORT");
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    problems.push(`METRICS_PORT: "${portText}" must be an integer from 0 to 65535`);
  const token = text("METRICS_TOKEN");
  if (token !== undefined && token.length < 16) problems.push("METRICS_TOKEN: must be at least 16 characters (openssl rand -hex 16)");
  const host = text("METRICS_HOST");
  const tracesText = text("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const baseText = text("OTEL_EXPORTER_OTLP_ENDPOINT");
  const endpoint = tracesText ?? (baseText !== undefined ? `${baseText.replace(/\/+$/, "")}/v1/traces` : undefined);
  let url: URL | undefined;
  if (endpoint !== undefined) {
    if (URL.canParse(endpoint) && /^https?:$/.test(new URL(endpoint).protocol)) url = new URL(endpoint);
    else
      problems.push(
        `${tracesText !== undefined ? "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" : "OTEL_EXPORTER_OTLP_ENDPOINT"}: "${endpoint}" is not an http(s) URL`,
      );
  }
  const metrics =
    port !== undefined || token !== undefined
      ? { ...(port !== undefined ? { port } : {}), ...(host ? { host } : {}), ...(token ? { token } : {}) }
      : undefined;
  const serviceName = text("OTEL_SERVICE_NAME");
  const traces = url ? { url, ...(serviceName ? { serviceName } : {}) } : undefined;
  if (!metrics && !traces) return undefined;
  return { ...(metrics ? { metrics } : {}), ...(traces ? { traces } : {}) };
}
