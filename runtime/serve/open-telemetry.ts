import type { Logger } from "../base/logger.js";
import type { Telemetry } from "../telemetry/index.js";
import type { TelemetryEnvironment } from "../telemetry/telemetry-env.js";

/** Telemetry as the environment switches it on, loaded with its packages only then; undefined when it is off. */
export async function openTelemetry(
  settings: TelemetryEnvironment | undefined,
  serverName: string,
  host: string,
  log: Logger,
): Promise<Telemetry | undefined> {
  if (!settings) return undefined;
  const { startTelemetry } = await import("../telemetry/index.js");
  return startTelemetry(settings, serverName, host, log);
}
