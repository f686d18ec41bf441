// The scenario with a client made by openapi-typescript (types) and openapi-fetch (calls), as a
// client developer writes it. Type-checked against the types generated from the live document,
// then run; test/openapi-typescript.test.ts does both.
import createClient from 'openapi-fetch';
import type { components, paths } from '../.generated/openapi-typescript/schema.js';

type PetStatus = components['schemas']['PetStatus'];
type ErrorBody = components['schemas']['ErrorBody'];

type ErrorCode = ErrorBody['code'];
/** The generated code is the union of the document's error codes, not `string`. */
export const codes: ErrorCode[] = [
  'not_found',
  // @ts-expect-error: not one of the error codes
  'no_such_code',
];

/** What a client does about an error, by its code: a switch the union type-checks. */
function explain(code: ErrorCode): string {
  switch (code) {
    case 'validation_failed':
    case 'malformed_json':
      return 'fix the request';
    case 'unauthorized':
      return 'check the key';
    case 'not_found':
    case 'gone':
      return 'nothing there';
    case 'rate_limited':
    case 'service_unavailable':
    case 'conflict':
      return 'retry later';
    default:
      return 'report it';
  }
}

/** The error body of a failed call, by its status. */
const failure = (status: number, error: ErrorBody | undefined) => {
  if (error === undefined || explain(error.code) === '')
    throw new Error(`no Error body: ${status}`);
  return {
    status,
    code: error.code,
    fields: [...new Set(error.details?.map((detail) => detail.path))],
  };
};

export async function scenario(baseUrl: string, apiKey: string) {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  const rex = { name: 'Rex', categoryId: 3, status: 'pending' as PetStatus };
  const header = { 'Idempotency-Key': `ts-${crypto.randomUUID()}` };
  const created = await api.POST('/pets', { params: { header }, body: rex });
  const retried = await api.POST('/pets', { params: { header }, body: rex });
  if (!created.data || !retried.data) throw new Error(`create failed: ${created.response.status}`);
  for (const name of ['Max', 'Ida']) {
    await api.POST('/pets', { body: { name, categoryId: 3, status: 'pending' } });
  }

  const pages: string[][] = [];
  // From Rex on: after the id before it, so that only the pets made here show in a store others
  // share too (ids, and so after, start at 1).
  let after = created.data.id > 1 ? created.data.id - 1 : undefined;
  do {
    const query = {
      status: 'pending' as const,
      limit: 2,
      ...(after === undefined ? {} : { after }),
    };
    const page = await api.GET('/pets', { params: { query } });
    if (!page.data) throw new Error(`list failed: ${page.response.status}`);
    // `status` is always there: no undefined to handle.
    const statuses: PetStatus[] = page.data.map((pet) => pet.status);
    if (statuses.some((status) => status !== 'pending')) throw new Error('filter ignored');
    pages.push(page.data.map((pet) => pet.name));
    // The next page: the same query, after the id in the declared Next-After header.
    const next = page.response.headers.get('Next-After');
    after = next === null ? undefined : Number(next);
  } while (after !== undefined);

  const fetched = await api.GET('/pets/{petId}', {
    params: { path: { petId: created.data.id } },
  });
  const invalid = await api.POST('/pets', { body: { name: '', categoryId: 1 } });
  const stranger = createClient<paths>({ baseUrl, headers: { Authorization: 'Bearer wrong' } });
  const unauthorized = await stranger.GET('/pets', { params: { query: {} } });
  const missing = await api.GET('/pets/{petId}', { params: { path: { petId: 2 ** 40 } } });

  return {
    created: { status: created.response.status, pet: created.data },
    retried: {
      sameId: retried.data.id === created.data.id,
      replayed: retried.response.headers.get('Idempotency-Replayed'),
    },
    pages,
    fetched: {
      name: fetched.data?.name,
      deprecation: fetched.response.headers.get('Deprecation'),
      sunset: fetched.response.headers.get('Sunset'),
    },
    invalid: failure(invalid.response.status, invalid.error),
    unauthorized: failure(unauthorized.response.status, unauthorized.error),
    missing: failure(missing.response.status, missing.error),
  };
}
