/**
 * What the log says of a batch of spans the exporter could not send: the error's message and
 * code (an HTTP status, or a socket error's name), at most 300 characters, and nothing else. The
 * collector's answer (`OTLPExporterError.data`) and the request's headers (`OTEL_EXPORTER_OTLP_HEADERS`
 * often carry a collector's token) are never read; the user and password of any URL in the
 * message are cut out.
 */
export function exportFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  const text = code === undefined || code === null ? message : `${message} (${String(code)})`;
  return withoutUserInfo(text).slice(0, MAX_LENGTH);
}

const MAX_LENGTH = 300;

/** `scheme://user:password@host` as `scheme://host`. */
function withoutUserInfo(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1');
}
