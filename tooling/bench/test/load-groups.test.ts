import { describe, expect, it } from 'vitest';
import { LOAD_GROUPS, loadGroups } from '../src/load-groups.js';
import { FIGURES } from '../src/report.js';
import { lineup } from '../src/servers.js';

describe('load groups', () => {
  it('hold the servers of every figure together, so that each figure is paired in one run', () => {
    const servers = lineup(0.01, 'http://127.0.0.1:4318', {
      undone: '/elsewhere/main.js',
      control: true,
    });
    const groupOf = new Map(servers.map(({ name, group }) => [name, group]));
    for (const figure of FIGURES) {
      const groups = new Set(figure.servers.map((name) => groupOf.get(name)));
      expect([figure.label, [...groups]]).toEqual([figure.label, [expect.any(String)]]);
      expect(LOAD_GROUPS).toContain([...groups][0]);
    }
  });

  it('run in their fixed order, each keeping its servers in order, and skip an empty group', () => {
    const servers = [
      { name: 'traced', group: 'tracing' },
      { name: 'api', group: 'frameworks' },
      { name: 'untraced', group: 'tracing' },
      { name: 'koa', group: 'frameworks' },
    ] as const;
    const names = (groups: { name: string }[][]) => groups.map((g) => g.map(({ name }) => name));
    expect(names(loadGroups(servers, (s) => s.group))).toEqual([
      ['api', 'koa'],
      ['traced', 'untraced'],
    ]);
    const traced = lineup(0.01, 'http://127.0.0.1:4318', { control: true });
    expect(names(loadGroups(traced, (s) => s.group))[1]).toEqual([
      'untraced',
      'traced',
      'unsampled',
      'control',
    ]);
    const untraced = lineup(undefined, 'http://127.0.0.1:4318');
    expect(names(loadGroups(untraced, (s) => s.group))).toEqual([
      ['api', 'koa', 'fastify', 'limit', 'koa-floor', 'fastify-floor'],
    ]);
  });
});
