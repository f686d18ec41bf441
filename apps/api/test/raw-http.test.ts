import { describe, expect, it } from 'vitest';
import { parseResponses } from './helpers/raw-http.js';

describe('parseResponses (the fuzz tests’ raw HTTP reader)', () => {
  it('gives no body to a HEAD answer that follows an interim 100 Continue', () => {
    const wire = Buffer.from(
      'HTTP/1.1 100 Continue\r\n\r\n' +
        'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n' +
        'HTTP/1.1 400 Bad Request\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{ }',
      'latin1',
    );
    expect(parseResponses(wire, { head: true }).map((r) => [r.status, r.body])).toEqual([
      [100, ''],
      [200, ''],
      [400, '{ }'],
    ]);
  });

  it('reads the Content-Length body of a response to a request that is not HEAD', () => {
    const wire = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n[]', 'latin1');
    expect(parseResponses(wire).map((r) => r.body)).toEqual(['[]']);
  });
});
