import { describe, expect, it } from 'vitest';
import { type CpuProfile, groupOf, groupSelfTime, groupTable } from '../src/profile-groups.js';

const frame = (functionName: string, url = '') => ({ functionName, url });
const pnpm = (pkg: string, file: string) =>
  `file:///repo/node_modules/.pnpm/${pkg}/node_modules/x/${file}`;

describe('profile groups', () => {
  it('puts each part of a request where a reader looks for it', () => {
    expect(groupOf(frame('dispatch', pnpm('koa-compose@4.1.0', 'index.js')))).toBe(
      'framework (Koa, @koa/router / Fastify)',
    );
    expect(groupOf(frame('match', pnpm('@koa+router@15.7.0_koa@3.3.0', 'dist/index.mjs')))).toBe(
      'framework (Koa, @koa/router / Fastify)',
    );
    expect(groupOf(frame('LOG', pnpm('pino@10.4.0', 'lib/tools.js')))).toBe('logging');
    expect(groupOf(frame('write', 'file:///repo/apps/api/dist/log-destination.js'))).toBe(
      'logging',
    );
    expect(groupOf(frame('writeUtf8String'))).toBe('socket writes and reads');
    expect(groupOf(frame('parserOnHeadersComplete', 'node:_http_common'))).toBe(
      "Node's HTTP layer and streams",
    );
    expect(groupOf(frame('listJson', 'file:///repo/apps/api/dist/store/memory-pet-store.js'))).toBe(
      'the store and page texts',
    );
    expect(
      groupOf(frame('validateNewPet', 'file:///repo/packages/contract/dist/validate.js')),
    ).toBe('validation, JSON parsing and serialising');
    expect(groupOf(frame('digestKey', 'file:///repo/apps/api/dist/keys/api-key.js'))).toBe(
      'the key check',
    );
    expect(groupOf(frame('startSpan', pnpm('@opentelemetry+sdk-trace-base@2.0.0', 'x.js')))).toBe(
      'tracing',
    );
    expect(groupOf(frame('(garbage collector)'))).toBe('garbage collection');
    expect(groupOf(frame('somethingElse', 'file:///elsewhere.js'))).toBe('other');
  });

  it("shares the busy time out by group, idle left out, and tables each profile's shares", () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        { id: 2, callFrame: frame('LOG', pnpm('pino@10.4.0', 'lib/tools.js')) },
        { id: 3, callFrame: frame('writeUtf8String') },
      ],
      samples: [1, 2, 3, 3, 1, 3],
      timeDeltas: [500, 10, 10, 10, 500, 10],
    };
    const shares = groupSelfTime(profile);
    expect(shares.get('logging')).toBe(0.25);
    expect(shares.get('socket writes and reads')).toBe(0.75);
    expect(shares.get('other')).toBe(0);
    const table = groupTable([{ name: 'api-list', profile }]).split('\n');
    expect(table[0]).toBe('| self time (share of busy CPU) | api-list |');
    expect(table).toContain('| logging | 25.0% |');
    expect(table).toContain('| socket writes and reads | 75.0% |');
  });
});
