import { plural } from '../plural.js';
import { HEAD_FIELDS_LIMIT, HEAD_LIMIT } from '../traffic/exchange.js';
import type { TrafficSummary } from '../types.js';

/**
 * What judged traffic held, as lines of plain text (each reporter escapes them its way): the
 * exchanges and what was left alone, then the checks the traffic exercised and those it did not.
 */
export function trafficLines(traffic: TrafficSummary): string[] {
  const left = [
    traffic.otherHosts > 0 ? `${traffic.otherHosts} with other hosts` : '',
    traffic.otherPaths > 0 ? `${traffic.otherPaths} of other paths or methods` : '',
    traffic.notAnswered > 0 ? `${traffic.notAnswered} not answered` : '',
    traffic.rateLimited > 0 ? `${traffic.rateLimited} answered 429` : '',
    traffic.unavailable > 0 ? `${traffic.unavailable} answered 503` : '',
    traffic.headTooLarge > 0
      ? `${traffic.headTooLarge} refused for a head over ${HEAD_LIMIT} bytes or ${HEAD_FIELDS_LIMIT} fields`
      : '',
    traffic.fromCache > 0
      ? `${traffic.fromCache} answered without the server (a cache, a service worker, a mock)`
      : '',
  ].filter((s) => s !== '');
  const n = traffic.exchanges;
  return [
    `traffic of ${traffic.source}: ${plural(n, 'exchange')}, ${traffic.judged} of the spec's operations judged${left.length === 0 ? '' : ` (left alone: ${left.join(', ')})`}${traffic.bodiesNotRecorded > 0 ? `; ${traffic.bodiesNotRecorded} recorded without their answer's body (or with one in a content coding the kit cannot undo)` : ''}`,
    ...(traffic.keysRecorded
      ? []
      : [
          'no request carries Authorization (a sanitized HAR takes it out): requests without a key are not judged',
        ]),
    ...(traffic.petsChangedBy === undefined
      ? []
      : [
          `${traffic.petsChangedBy} may change pets (no operation of the spec): the rules across answers stop there`,
        ]),
    `Exercised (${traffic.exercised.length}): ${traffic.exercised.join(', ')}`,
    `Not exercised (${traffic.notExercised.length}): ${traffic.notExercised.join(', ')}`,
  ];
}
