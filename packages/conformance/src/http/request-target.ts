// The forms of a request target the kit writes (RFC 9112 §3.2).

/** `url`'s target in origin form, as requests to the server itself go: `/v1/pets?limit=1`. */
export function originTarget(url: URL): string {
  return `${url.pathname}${url.search}`;
}

/** The host to connect to for `url`: its hostname, an IPv6 address without its brackets. */
export function connectHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * `url`'s target in absolute form, as requests to a proxy go, and which a server must accept too
 * (RFC 9112 §3.2.2): `http://host:port/v1/pets?limit=1`, without user info or fragment.
 */
export function absoluteTarget(url: URL): string {
  return `${url.protocol}//${url.host}${originTarget(url)}`;
}
