import { plural } from '../plural.js';
import type { ConformanceReport } from '../types.js';

/**
 * What every report says of the pets a run created: how many, and the pattern of their names
 * (`rex<n>`) as `code` marks it up in the report's format, since they stay on the server.
 */
export function createdSentence(
  created: ConformanceReport['created'],
  code: (pattern: string) => string,
): string {
  if (created.count === 0) return 'Created no pets.';
  return `Created ${plural(created.count, 'pet')} named ${code(`${created.namePrefix}<n>`)}; they stay on the server (the spec has no delete).`;
}
