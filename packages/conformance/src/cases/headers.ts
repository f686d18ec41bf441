// Headers ordinary clients add, which no read or write of the spec may be refused for.

/** A browser's navigation: HTML and XML first, anything (JSON too) after. */
export const BROWSER_NAVIGATION_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * Headers ordinary clients add (browsers, curl, axios, caches), in sets: a server that refuses
 * one of them fails on the set that holds it.
 */
export function ordinaryHeaders(runId: string): Record<string, string>[] {
  return [
    { 'Cache-Control': 'no-cache', Pragma: 'no-cache' },
    { 'If-None-Match': `"conformance-${runId}"`, 'Cache-Control': 'max-age=0' },
    {
      Accept: '*/*',
      'User-Agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    },
    { Accept: 'application/json, text/plain, */*' },
    { Accept: BROWSER_NAVIGATION_ACCEPT },
  ];
}

/** `Name: value, ...`, for messages. */
export function headerNames(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join(', ');
}
