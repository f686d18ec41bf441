import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AnimalStoreClient } from '../src/index.js';
import { answer, errorJson, scriptedServer } from './support/scripted-server.js';

/** Everything a caller might print of a thrown value or of the client. */
function printed(value: unknown): string {
  const error = value as Error;
  return [
    String(value),
    error?.message,
    error?.stack,
    inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  ].join('\n');
}

const thrown = (make: () => unknown) => {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
};

describe('the API key and URL credentials stay out of every error and printout', () => {
  it.each([
    ['a line break', 'sk_live_3f9a\ns3cr3t-part'],
    ['a non-ASCII letter', 'sk_live_3f9aés3cr3t-part'],
    ['a space', 'sk_live_3f9a s3cr3t-part'],
  ])('refuses a key holding %s without repeating it', (_, apiKey) => {
    const error = thrown(() => new AnimalStoreClient({ baseUrl: 'local', apiKey }));
    expect(error).toBeInstanceOf(TypeError);
    expect(printed(error)).toMatch(/apiKey holds a character an HTTP header cannot carry/);
    expect(printed(error)).not.toContain('s3cr3t');
    expect(printed(error)).not.toContain('3f9a');
  });

  it('refuses a baseUrl with user:password@ without repeating it', () => {
    for (const baseUrl of [
      'http://admin:pa55w0rd@127.0.0.1:1/v1',
      'http://admin:pa55 w0rd@x y/v1',
    ]) {
      const error = thrown(() => new AnimalStoreClient({ baseUrl, apiKey: 'k' }));
      expect(error).toBeInstanceOf(TypeError);
      expect(printed(error)).not.toContain('pa55');
      expect(printed(error)).not.toContain('admin');
    }
  });

  it('keeps a sendable key out of the client, its network errors and its API errors', async () => {
    const apiKey = '  sk_live_0123456789-s3cr3t\n';
    const server = await scriptedServer((_n, _req, res) =>
      answer(res, 401, errorJson(401, 'unauthorized')),
    );
    const client = new AnimalStoreClient({ baseUrl: `${server.origin}/v1`, apiKey });
    expect(printed(client)).not.toContain('s3cr3t');
    const unauthorized = await client.pets.listPage().catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ code: 'unauthorized' });
    // The key went out, trimmed as fetch trims a header value, and nowhere else.
    expect(server.received[0]?.headers.authorization).toBe('Bearer sk_live_0123456789-s3cr3t');
    expect(printed(unauthorized)).not.toContain('s3cr3t');
    const refused = new AnimalStoreClient({
      baseUrl: 'http://127.0.0.1:1/v1',
      apiKey,
      retry: false,
    });
    const network = await refused.pets.listPage().catch((e: unknown) => e);
    expect(network).toMatchObject({ code: 'network_error' });
    expect(printed(network)).not.toContain('s3cr3t');
  });
});
