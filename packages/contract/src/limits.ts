/** Smallest accepted `limit` on `GET /pets` (spec §8). */
export const LIMIT_MIN = 1;
/** Largest accepted `limit` on `GET /pets` (spec §8). */
export const LIMIT_MAX = 100;
/** `limit` used when the client sends none (spec §8). */
export const LIMIT_DEFAULT = 20;
/** Longest accepted pet name, in characters (a gap docs/decisions.md fills). */
export const NAME_MAX_LENGTH = 200;
/**
 * Largest identifier: 2^53-1. JSON numbers beyond it cannot round-trip through
 * JavaScript, so they are refused rather than silently rounded.
 */
export const ID_MAX = Number.MAX_SAFE_INTEGER;
/** Default maximum request body size, in bytes. */
export const BODY_LIMIT_BYTES = 16 * 1024;
/** Longest accepted `Idempotency-Key` on `POST /pets`, in characters (printable ASCII). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long the service remembers an `Idempotency-Key`, in milliseconds (24 hours). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
