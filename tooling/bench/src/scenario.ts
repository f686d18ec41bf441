/** The key every benchmark server accepts; it never leaves this machine. */
export const BENCH_API_KEY = 'bench-key-0123456789abcdef';

/** One HTTP request as the driver sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** An endpoint under measurement: the requests the driver cycles through and the status it expects. */
export interface Endpoint {
  /** As printed in the report, e.g. `GET /v1/pets?limit=20`. */
  label: string;
  expectStatus: number;
  /** The requests each connection cycles through (several for `get`, spread over the store). */
  requests(pets: number): BenchRequest[];
}

export const ENDPOINT_IDS = ['list', 'sold', 'get', 'create'] as const;
export type EndpointId = (typeof ENDPOINT_IDS)[number];

const auth = { Authorization: `Bearer ${BENCH_API_KEY}` };

const read = (path: string): BenchRequest => ({ method: 'GET', path, headers: auth });

/** 64 ids spread evenly over `1..pets`, so lookups touch the whole store, not one hot entry. */
function spreadIds(pets: number): number[] {
  const n = Math.min(64, pets);
  return Array.from({ length: n }, (_, k) => Math.floor(((k + 0.5) * pets) / n) + 1);
}

export const ENDPOINTS: Readonly<Record<EndpointId, Endpoint>> = {
  list: {
    label: 'GET /v1/pets?limit=20',
    expectStatus: 200,
    requests: () => [read('/v1/pets?limit=20')],
  },
  sold: {
    label: 'GET /v1/pets?status=sold&limit=100',
    expectStatus: 200,
    requests: () => [read('/v1/pets?status=sold&limit=100')],
  },
  get: {
    label: 'GET /v1/pets/{id}',
    expectStatus: 200,
    requests: (pets) => spreadIds(pets).map((id) => read(`/v1/pets/${id}`)),
  },
  create: {
    label: 'POST /v1/pets',
    expectStatus: 201,
    requests: () => [
      {
        method: 'POST',
        path: '/v1/pets',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 7, status: 'pending' }),
      },
    ],
  },
};
