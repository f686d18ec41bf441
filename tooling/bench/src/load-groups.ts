/**
 * The groups of servers loaded together at saturation, in the order they run: `frameworks`, the
 * API, the peers, the floors and the replay limit; `tracing`, the API's tracing builds with an
 * untraced API of their own. Each figure pairs servers of one group.
 */
export const LOAD_GROUPS = ['frameworks', 'tracing'] as const;
export type LoadGroup = (typeof LOAD_GROUPS)[number];

/** `items` by load group (`groupOf`), the groups that have any, in the order of `LOAD_GROUPS`. */
export function loadGroups<T>(items: readonly T[], groupOf: (item: T) => LoadGroup): T[][] {
  return LOAD_GROUPS.map((group) => items.filter((item) => groupOf(item) === group)).filter(
    (members) => members.length > 0,
  );
}
