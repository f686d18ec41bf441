/** Path prefix every operation lives under; `{base_url}` ends with it (spec §9). */
export const API_PREFIX = '/v1';
/** Version of the interface description (spec §9). */
export const API_VERSION = '1.0.0';
/** The instant `getPet` became deprecated (docs/decisions.md; the spec gives none). */
export const GET_PET_DEPRECATED_AT = new Date('2026-01-01T00:00:00Z');
/** The instant `getPet` is removed (spec §4.3): from then on it answers 410. */
export const GET_PET_SUNSET_AT = new Date('2030-12-05T00:00:00Z');
/** Path of the successor to `getPet`, relative to the server root. */
export const GET_PET_SUCCESSOR_PATH = `${API_PREFIX}/pets`;

/** RFC 9745 structured date value: `@<unix seconds>`. */
export function formatStructuredDate(date: Date): string {
  return `@${Math.floor(date.getTime() / 1000)}`;
}

/** The headers every `getPet` response carries (RFC 9745, RFC 8594, RFC 8288). */
export const GET_PET_DEPRECATION_HEADERS: Readonly<
  Record<'Deprecation' | 'Sunset' | 'Link', string>
> = Object.freeze({
  Deprecation: formatStructuredDate(GET_PET_DEPRECATED_AT),
  Sunset: GET_PET_SUNSET_AT.toUTCString(),
  Link: `<${GET_PET_SUCCESSOR_PATH}>; rel="successor-version"`,
});
