import { describe, expect, it } from 'vitest';
import { rotated, unevenRotation } from '../src/compare.js';

describe('the rotation of the throughput rounds', () => {
  const servers = ['api', 'baseline', 'fastify', 'limit', 'traced'];

  it('starts each round with the next server and keeps their order', () => {
    expect(rotated(0, servers)).toEqual(servers);
    expect(rotated(1, servers)).toEqual(['baseline', 'fastify', 'limit', 'traced', 'api']);
    expect(rotated(5, servers)).toEqual(servers);
  });

  it('puts every server at every place once over as many rounds as servers', () => {
    const places = new Map(servers.map((server) => [server, new Set<number>()]));
    for (let round = 0; round < servers.length; round++) {
      for (const [place, server] of rotated(round, servers).entries()) {
        places.get(server)?.add(place);
      }
    }
    for (const seen of places.values()) expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('says nothing when the rounds are a multiple of the servers', () => {
    expect(unevenRotation(5, 5)).toBeUndefined();
    expect(unevenRotation(18, 9)).toBeUndefined();
    expect(unevenRotation(3, 1)).toBeUndefined();
  });

  it('names the nearest even count of rounds when they are not', () => {
    expect(unevenRotation(7, 9)).toMatch(/7 rounds of 9 servers.*--rounds 9 /);
    expect(unevenRotation(5, 4)).toMatch(/--rounds 4 /);
    expect(unevenRotation(7, 4)).toMatch(/--rounds 8 /);
    expect(unevenRotation(3, 9)).toMatch(/--rounds 9 /);
  });
});
