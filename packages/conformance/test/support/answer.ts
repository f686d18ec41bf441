import { type HttpRequest, type HttpResponse, readBody } from '../../src/http/client.js';

/** What an answer is made of: the request it answers, its status, Content-Type and body text. */
export interface AnswerParts {
  method?: HttpRequest['method'];
  /** Path and query below `http://127.0.0.1:8080/v1`. */
  path: string;
  status: number;
  /** The Content-Type header; `application/json` unless given (`null`: none). */
  type?: string | null;
  text?: string;
  /** Header fields beside Content-Type. */
  headers?: Record<string, string>;
  /** An answer the kit waited out and sent the request again after. */
  retried?: boolean;
  /** What the request sent, as the kit records it. */
  request?: Partial<HttpRequest>;
  sentAt?: number;
  receivedAt?: number;
}

const BASE = 'http://127.0.0.1:8080/v1';

/** An answer as the kit's HTTP client gives it, body parsed as the client parses it. */
export function answer(parts: AnswerParts): HttpResponse {
  const method = parts.method ?? 'GET';
  const text = parts.text ?? '';
  const headers = new Headers(parts.headers);
  const type = parts.type === undefined ? 'application/json' : parts.type;
  if (type !== null) headers.set('content-type', type);
  return {
    request: { method, path: parts.path, ...parts.request },
    method,
    path: parts.path,
    url: `${BASE}${parts.path}`,
    status: parts.status,
    headers,
    ...readBody(headers, text),
    text,
    bytes: new TextEncoder().encode(text),
    ms: 1,
    ...(parts.retried === undefined ? {} : { retried: parts.retried }),
    ...(parts.sentAt === undefined ? {} : { sentAt: parts.sentAt }),
    ...(parts.receivedAt === undefined ? {} : { receivedAt: parts.receivedAt }),
  };
}

/** A Pet's JSON text, with `fields` over a valid one's. */
export function petText(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ id: 1, name: 'Rex', categoryId: 7, status: 'available', ...fields });
}
