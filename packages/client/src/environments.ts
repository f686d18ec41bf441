/**
 * The spec's environments as base addresses, each ending with `/v1`. The spec names a production
 * and a staging address without their hosts; these are the hosts the OpenAPI document's `servers`
 * default to. `local` is the API as `pnpm start` runs it.
 */
export const ENVIRONMENTS = {
  production: 'https://api.animal-store.example/v1',
  staging: 'https://staging.api.animal-store.example/v1',
  local: 'http://127.0.0.1:3000/v1',
} as const;

/** The name of one of {@link ENVIRONMENTS}. */
export type Environment = keyof typeof ENVIRONMENTS;

/**
 * The base address for an environment's name, or `baseUrl` itself without a trailing slash.
 * Throws a `TypeError` that does not repeat `baseUrl` for an address with user information.
 */
export function resolveBaseUrl(baseUrl: Environment | (string & {})): string {
  const preset = Object.hasOwn(ENVIRONMENTS, baseUrl)
    ? ENVIRONMENTS[baseUrl as Environment]
    : baseUrl;
  let url: URL;
  try {
    url = new URL(preset);
  } catch {
    // Not repeated: an address may hold a password.
    throw new TypeError('baseUrl is not an address, nor an environment name');
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError(
      'baseUrl must not hold user information (user:password@): the API takes its key in apiKey',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(
      `baseUrl must be an http(s) address or one of ${Object.keys(ENVIRONMENTS).join(', ')}`,
    );
  }
  return url.href.replace(/\/+$/, '');
}
