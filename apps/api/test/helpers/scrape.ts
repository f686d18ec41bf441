import { expect } from 'vitest';

/** `GET /metrics` of a server, as text; fails on any status but 200. */
export async function scrape(
  origin: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await fetch(`${origin}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return res.text();
}

/** The value of the sample `name{labels}` in a scrape (the first whose labels include `labels`). */
export function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}
