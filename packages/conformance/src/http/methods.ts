/** Methods RFC 9110 (9.2.2) defines as idempotent: safe to send again after a lost connection. */
export const IDEMPOTENT: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'OPTIONS',
  'PUT',
  'DELETE',
  'TRACE',
]);
