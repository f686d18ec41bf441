import { Agent, request as httpRequest } from 'node:http';
import type { BenchRequest } from './scenario.js';

/** A response as it came off the wire: header order and case kept. */
export interface Captured {
  status: number;
  headers: [name: string, value: string][];
  body: Buffer;
}

/** Headers whose values legitimately differ between two responses (not their presence). */
const PER_RESPONSE = new Set(['date', 'x-request-id']);

/** Sends one request on a keep-alive connection, as the driver does, and captures the response. */
export async function capture(origin: string, request: BenchRequest): Promise<Captured> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await new Promise<Captured>((resolve, reject) => {
      const req = httpRequest(
        new URL(request.path, origin),
        { method: request.method, headers: request.headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const headers: [string, string][] = [];
            for (let i = 0; i < res.rawHeaders.length; i += 2) {
              headers.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
            }
            resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
          });
        },
      );
      req.on('error', reject);
      req.end(request.body);
    });
  } finally {
    agent.destroy();
  }
}

/**
 * How closely another server's answers must match the API's: `exact`, the same header names in
 * the same order and case; `unordered`, the same headers in any order and case (another framework
 * writes its own order).
 */
export type Match = 'exact' | 'unordered';

/** A response as compared and shown: status, headers (per-response values masked), body start. */
function comparable({ status, headers, body }: Captured, match: Match): string {
  const lines = headers.map(([name, value]) => {
    const masked = PER_RESPONSE.has(name.toLowerCase()) && value !== '';
    const shown = match === 'exact' ? name : name.toLowerCase();
    return `${shown}: ${masked ? `<${name.toLowerCase()}>` : value}`;
  });
  if (match === 'unordered') lines.sort();
  return [status, ...lines, '', body.toString('utf8', 0, 300)].join('\n');
}

/** The per-response headers (`Date`, `X-Request-Id`) an answer lacks or sends empty. */
function missing({ headers }: Captured): string[] {
  const present = (header: string) =>
    headers.some(([name, value]) => name.toLowerCase() === header && value !== '');
  return [...PER_RESPONSE].filter((header) => !present(header));
}

/**
 * Throws unless the API answered `expectStatus` and `other` answered as the API did: the same
 * status, the same header names in the same order with the same values (`Date` and `X-Request-Id`
 * values aside, but present in both; in any order and case with `unordered`) and the same body
 * bytes.
 */
export function assertSame(
  label: string,
  api: Captured,
  other: { name: string; answer: Captured },
  expectStatus: number,
  match: Match = 'exact',
): void {
  const { name, answer } = other;
  const [a, b] = [comparable(api, match), comparable(answer, match)];
  const lacking = [
    ...missing(api).map((header) => `the API sent no ${header}`),
    ...missing(answer).map((header) => `${name} sent no ${header}`),
  ];
  if (api.status !== expectStatus || a !== b || !api.body.equals(answer.body) || lacking.length) {
    throw new Error(
      `${label}: the API (expected status ${expectStatus}) and ${name} answer differently` +
        `${lacking.map((problem) => `; ${problem}`).join('')}\nAPI:\n${a}\n\n${name}:\n${b}`,
    );
  }
}
