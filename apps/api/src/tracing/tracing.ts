import type { Logger } from 'pino';
import { ConfigError } from '../config-error.js';
import type { RequestTracing } from './request-tracing.js';

/**
 * Whether the standard OpenTelemetry variables ask for traces: an OTLP endpoint is set, and
 * neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`. Throws `ConfigError` for
 * what the exporter cannot do (a protocol other than `http/json`, an exporter other than `otlp`).
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() || 'otlp';
  if (exporter === 'none') return false;
  if (exporter !== 'otlp') {
    throw new ConfigError(
      `OTEL_TRACES_EXPORTER must be otlp or none (got ${JSON.stringify(exporter)})`,
    );
  }
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const protocol = env[name]?.trim();
    if (protocol && protocol !== 'http/json') {
      throw new ConfigError(
        `${name} must be http/json, the one protocol the API sends (got ${JSON.stringify(protocol)})`,
      );
    }
  }
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/**
 * Starts OpenTelemetry tracing when the environment asks for it (`tracingWanted`), else returns
 * undefined having loaded nothing: the SDK is imported only here, on demand. Call it before the
 * MongoDB driver is loaded, so the driver's instrumentation sees it load. Spans that could not be
 * sent are logged to `logger`.
 */
export async function startTracing(
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<RequestTracing | undefined> {
  if (!tracingWanted(env)) return undefined;
  const { startOpenTelemetry } = await import('./open-telemetry.js');
  return startOpenTelemetry(env, logger);
}
