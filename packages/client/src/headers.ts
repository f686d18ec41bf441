/** One `Link` header entry (RFC 8288): its target and its `rel` values. */
interface LinkEntry {
  target: string;
  rels: string[];
}

/** The entries of a `Link` header value. Targets may not contain `>`, as RFC 3986 requires. */
export function parseLinks(value: string | null): LinkEntry[] {
  if (!value) return [];
  const entries: LinkEntry[] = [];
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    entries.push({ target: match[1] ?? '', rels });
  }
  return entries;
}

/** The target of the first `Link` entry with relation `rel`. */
export function linkTarget(value: string | null, rel: string): string | undefined {
  return parseLinks(value).find((entry) => entry.rels.includes(rel))?.target;
}

/** An RFC 9651 date (`@<unix seconds>`, as RFC 9745's `Deprecation` carries it). */
export function parseStructuredDate(value: string | null): Date | undefined {
  const match = value ? /^\s*@(-?\d{1,15})\s*$/.exec(value) : null;
  return match ? new Date(Number(match[1]) * 1000) : undefined;
}

/** An HTTP date (RFC 9110, as RFC 8594's `Sunset` carries it); each of its forms starts with the day's name. */
export function parseHttpDate(value: string | null): Date | undefined {
  if (!value || !/^\s*[A-Za-z]{3}/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time);
}

/** `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110). */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const date = parseHttpDate(value);
  return date ? Math.max(0, date.getTime() - now) : undefined;
}
