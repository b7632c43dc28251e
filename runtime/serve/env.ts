import { realpathSync, statSync } from "node:fs";
import { EnvironmentError } from "../base/environment-error.js";
import { normalizeOrigin } from "../http/origin.js";
import { readSignInEnvironment, type SignInEnvironment } from "../sign-in/sign-in-env.js";
import { readTelemetryEnvironment, type TelemetryEnvironment } from "../telemetry/telemetry-env.js";

/** Settings of a generated server, read from the environment. */
export interface ServerEnvironment {
  /** `API_BASE_URL`: the upstream REST API (required). */
  apiBaseUrl: URL;
  /** False when the upstream URL came from the document's servers alone (no `API_BASE_URL`, no config `baseUrl`). */
  upstreamConfigured?: boolean;
  /** `HOST` @default "127.0.0.1" */
  host: string;
  /** `PORT` @default 3000 */
  port: number;
  /** `ALLOWED_ORIGINS` (comma-separated) plus the origin of `PUBLIC_URL`. */
  allowedOrigins: Set<string>;
  /** `PUBLIC_URL`: where clients reach this server, if behind a proxy. */
  publicUrl?: URL;
  /** `UPSTREAM_TIMEOUT_MS` @default 30000 */
  timeoutMs: number;
  /** `MAX_RESPONSE_BYTES` @default 10485760 */
  maxResponseBytes: number;
  /** `MAX_REQUEST_BYTES` @default 4194304 */
  maxRequestBytes: number;
  /** `UPLOAD_DIR`: the only folder `{ "path": … }` file arguments may name; unset disables them. */
  uploadDir?: string;
  /** `MAX_UPLOAD_BYTES` @default 26214400 */
  maxUploadBytes: number;
  /** `MCP_SESSIONS=stateful` keeps SDK sessions (`MCP_MAX_SESSIONS`, `MCP_SESSION_IDLE_SECONDS`, `MCP_MAX_SESSIONS_PER_CLIENT`); stateless by default. */
  sessions?: { maxSessions: number; idleMs: number; maxPerClient: number };
  /** `UPSTREAM_AUTHORIZATION`: the Authorization sent upstream when there is no HTTP caller (stdio). */
  upstreamAuthorization?: string;
  /** `MCP_SAMPLING=off`: discovery search never asks the client's model to choose (`on` by default). */
  samplingOff?: boolean;
  /** `MCP_CONFIRM=best-effort`: tools that want confirmation run for clients that cannot be asked (`required` by default). */
  confirmBestEffort?: boolean;
  /** `MCP_STATE_KEY`: the key sealing 2026-07-28 confirmations, the same on every replica (a key of this process when unset). */
  stateKey?: string;
  /** `AUTH_MODE` and what resource mode needs (`AUTH_ISSUER`, …); the config's `auth.mode` applies when unset. */
  signIn?: SignInEnvironment;
  /** Metrics (`METRICS_PORT`, `METRICS_TOKEN`) and traces (`OTEL_EXPORTER_OTLP_*`), when switched on. */
  telemetry?: TelemetryEnvironment;
}

/** What the generated code knows about the upstream, used when the environment says nothing. */
export interface UpstreamDefaults {
  /** The config's `baseUrl`, or else the document's first server (variables filled in), if absolute. */
  defaultBaseUrl?: string;
  /** True when `defaultBaseUrl` is the operator's (the config's `baseUrl`), not the document's. */
  fromConfig?: boolean;
  /** Shown when `API_BASE_URL` is missing and there is no default, e.g. a relative server `/v1`. */
  hint?: string;
}

/** Reads and checks the environment; every problem is reported at once. */
export function readServerEnvironment(env: NodeJS.ProcessEnv = process.env, defaults: UpstreamDefaults = {}): ServerEnvironment {
  const problems: string[] = [];
  const fromEnv = env.API_BASE_URL?.trim() ? env.API_BASE_URL : undefined;
  const apiBaseUrl = httpUrl(fromEnv ?? defaults.defaultBaseUrl, "API_BASE_URL", problems, true, defaults.hint);
  const publicUrl = httpUrl(env.PUBLIC_URL, "PUBLIC_URL", problems, false);
  const allowedOrigins = new Set<string>();
  for (const item of (env.ALLOWED_ORIGINS ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const origin = normalizeOrigin(item);
    if (origin === undefined) problems.push(`ALLOWED_ORIGINS: "${item}" is not an http(s) origin`);
    else allowedOrigins.add(origin);
  }
  if (publicUrl) allowedOrigins.add(publicUrl.origin);
  const settings = {
    host: env.HOST?.trim() || "127.0.0.1",
    port: integer(env.PORT, "PORT", 3000, 0, 65535, problems),
    timeoutMs: integer(env.UPSTREAM_TIMEOUT_MS, "UPSTREAM_TIMEOUT_MS", 30_000, 1, 3_600_000, problems),
    maxResponseBytes: integer(env.MAX_RESPONSE_BYTES, "MAX_RESPONSE_BYTES", 10 * 1024 * 1024, 1, 2 ** 31, problems),
    maxRequestBytes: integer(env.MAX_REQUEST_BYTES, "MAX_REQUEST_BYTES", 4 * 1024 * 1024, 1, 2 ** 31, problems),
    maxUploadBytes: integer(env.MAX_UPLOAD_BYTES, "MAX_UPLOAD_BYTES", 25 * 1024 * 1024, 1, 2 ** 31, problems),
  };
  const uploadDir = env.UPLOAD_DIR?.trim() ? existingFolder(env.UPLOAD_DIR.trim(), problems) : undefined;
  const mode = env.MCP_SESSIONS?.trim() || "stateless";
  if (mode !== "stateless" && mode !== "stateful") problems.push(`MCP_SESSIONS: "${mode}" must be stateless or stateful`);
  const sessions =
    mode === "stateful"
      ? {
          maxSessions: integer(env.MCP_MAX_SESSIONS, "MCP_MAX_SESSIONS", 100, 1, 100_000, problems),
          idleMs: integer(env.MCP_SESSION_IDLE_SECONDS, "MCP_SESSION_IDLE_SECONDS", 1800, 1, 86_400, problems) * 1000,
          maxPerClient: integer(env.MCP_MAX_SESSIONS_PER_CLIENT, "MCP_MAX_SESSIONS_PER_CLIENT", 10, 0, 100_000, problems),
        }
      : undefined;
  const upstreamAuthorization = env.UPSTREAM_AUTHORIZATION?.trim() || undefined;
  const sampling = env.MCP_SAMPLING?.trim() || "on";
  if (sampling !== "on" && sampling !== "off") problems.push(`MCP_SAMPLING: "${sampling}" must be on or off`);
  const confirm = env.MCP_CONFIRM?.trim() || "required";
  if (confirm !== "required" && confirm !== "best-effort") problems.push(`MCP_CONFIRM: "${confirm}" must be required or best-effort`);
  const stateKey = env.MCP_STATE_KEY?.trim() || undefined;
  if (stateKey !== undefined && stateKey.length < 32) problems.push("MCP_STATE_KEY: must be at least 32 characters (a random secret)");
  const signIn = readSignInEnvironment(env, publicUrl, problems);
  const telemetry = readTelemetryEnvironment(env, problems);
  if (problems.length > 0 || !apiBaseUrl) throw new EnvironmentError(problems.join("\n"));
  return {
    apiBaseUrl,
    upstreamConfigured: fromEnv !== undefined || defaults.fromConfig === true,
    allowedOrigins,
    ...(publicUrl ? { publicUrl } : {}),
    ...(uploadDir ? { uploadDir } : {}),
    ...(sessions ? { sessions } : {}),
    ...(upstreamAuthorization ? { upstreamAuthorization } : {}),
    ...(sampling === "off" ? { samplingOff: true } : {}),
    ...(confirm === "best-effort" ? { confirmBestEffort: true } : {}),
    ...(stateKey ? { stateKey } : {}),
    ...(signIn ? { signIn } : {}),
    ...(telemetry ? { telemetry } : {}),
    ...settings,
  };
}

function existingFolder(path: string, problems: string[]): string | undefined {
  try {
    const real = realpathSync(path);
    if (statSync(real).isDirectory()) return real;
  } catch {}
  problems.push(`UPLOAD_DIR: "${path}" is not an existing folder`);
  return undefined;
}

function httpUrl(value: string | undefined, name: string, problems: string[], required: boolean, hint?: string): URL | undefined {
  if (value === undefined || value.trim() === "") {
    if (required)
      problems.push(`${name} is required (the base URL of the upstream API${hint ? `; ${hint}` : ", e.g. https://api.example.com/v1"})`);
    return undefined;
  }
  try {
    const url = new URL(value.trim());
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {}
  problems.push(`${name}: "${value}" is not an http(s) URL`);
  return undefined;
}

function integer(value: string | undefined, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (Number.isInteger(number) && number >= min && number <= max) return number;
  problems.push(`${name}: "${value}" must be an integer from ${min} to ${max}`);
  return fallback;
}
