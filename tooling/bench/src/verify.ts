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

export class VerifyError extends Error {
  override name = 'VerifyError';
}

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

/** Header lines with per-response values masked, for comparison and for the error message. */
function comparable(captured: Captured): string[] {
  return captured.headers.map(([name, value]) =>
    PER_RESPONSE.has(name.toLowerCase()) ? `${name}: <${name.toLowerCase()}>` : `${name}: ${value}`,
  );
}

/**
 * Throws unless `other` answered as the API did: the expected status, the same header names in
 * the same order with the same values (`Date` and `X-Request-Id` values aside, but present) and
 * the same body bytes.
 */
export function assertSame(
  label: string,
  api: Captured,
  other: { name: string; answer: Captured },
  expectStatus: number,
): void {
  const { name, answer } = other;
  const problems: string[] = [];
  if (api.status !== expectStatus) problems.push(`API status ${api.status}, not ${expectStatus}`);
  if (api.status !== answer.status)
    problems.push(`status: API ${api.status}, ${name} ${answer.status}`);
  const [a, b] = [comparable(api), comparable(answer)];
  if (a.join('\n') !== b.join('\n')) {
    problems.push(`headers differ:\n  API: ${a.join(' | ')}\n  ${name}: ${b.join(' | ')}`);
  }
  for (const [side, { headers }] of [
    ['API', api],
    [name, answer],
  ] as const) {
    for (const header of PER_RESPONSE) {
      if (!headers.some(([n, v]) => n.toLowerCase() === header && v !== '')) {
        problems.push(`${side} response has no ${header} header`);
      }
    }
  }
  if (!api.body.equals(answer.body)) {
    const show = (body: Buffer) => body.toString('utf8', 0, 300);
    problems.push(`bodies differ:\n  API: ${show(api.body)}\n  ${name}: ${show(answer.body)}`);
  }
  if (problems.length > 0) {
    throw new VerifyError(`${label}: API and ${name} answer differently\n${problems.join('\n')}`);
  }
}
