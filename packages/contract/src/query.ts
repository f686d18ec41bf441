import { LIMIT_DEFAULT } from './limits.js';
import type { ErrorDetail } from './schemas/error.js';
import { ListPetsQuery } from './schemas/params.js';
import { type ValidationResult, validateListPetsQuery, validatePetIdParams } from './validate.js';

const INTEGER = /^-?[0-9]+$/;

/** The names of `listPets`' query parameters, in the order a formatted query gives them. */
export const LIST_PETS_PARAMS = Object.keys(ListPetsQuery.properties) as (keyof ListPetsQuery)[];
const INTEGER_PARAMS = new Set(
  LIST_PETS_PARAMS.filter(
    (name) => (ListPetsQuery.properties[name] as { type?: unknown }).type === 'integer',
  ),
);

/** `listPets` query with the default limit applied. */
export type ResolvedListPetsQuery = ListPetsQuery & { limit: number };

/** Parses raw `listPets` query strings: integers strictly, each parameter at most once. */
export function parseListPetsQuery(
  params: URLSearchParams,
): ValidationResult<ResolvedListPetsQuery> {
  const details: ErrorDetail[] = [];
  const typed: Record<string, unknown> = {};
  for (const name of LIST_PETS_PARAMS) {
    const values = params.getAll(name);
    if (values.length === 0) continue;
    if (values.length > 1) {
      details.push({ path: name, message: 'must be given at most once' });
      continue;
    }
    const raw = values[0] as string;
    if (INTEGER_PARAMS.has(name)) {
      if (!INTEGER.test(raw)) {
        details.push({ path: name, message: 'must be an integer' });
        continue;
      }
      typed[name] = Number(raw);
    } else {
      typed[name] = raw;
    }
  }
  if (details.length > 0) return { ok: false, details };
  const checked = validateListPetsQuery(typed);
  if (!checked.ok) return { ok: false, details: checked.details.map(asParam) };
  return { ok: true, value: { ...checked.value, limit: checked.value.limit ?? LIMIT_DEFAULT } };
}

/**
 * The query string of a `listPets` request, without the `?`: each parameter that is set, in
 * `LIST_PETS_PARAMS` order; what `parseListPetsQuery` reads back to the same query. Integers may
 * be bigints (int64 ids beyond 2^53 on other servers).
 */
export function formatListPetsQuery(
  query: {
    readonly [name in keyof ListPetsQuery]?: ListPetsQuery[name] | bigint;
  },
): string {
  let text = '';
  for (const name of LIST_PETS_PARAMS) {
    const value = query[name];
    if (value === undefined) continue;
    text += `${text === '' ? '' : '&'}${name}=${encodeURIComponent(String(value))}`;
  }
  return text;
}

/** Parses the raw `petId` path segment: a positive integer no larger than 2^53-1. */
export function parsePetId(raw: string): ValidationResult<number> {
  const typed = INTEGER.test(raw) ? Number(raw) : raw;
  const checked = validatePetIdParams({ petId: typed });
  if (!checked.ok) {
    const message = typeof typed === 'number' ? checked.details[0]?.message : 'must be an integer';
    return { ok: false, details: [{ path: 'petId', message: message ?? 'is invalid' }] };
  }
  return { ok: true, value: checked.value.petId };
}

// Query and path problems are named by parameter, not by JSON pointer.
function asParam(detail: ErrorDetail): ErrorDetail {
  return { ...detail, path: detail.path.replace(/^\//, '') };
}
