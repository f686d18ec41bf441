// HTTP-date (RFC 9110 §5.6.7), which `Sunset` (RFC 8594) uses, and the RFC 9745 structured date
// of `Deprecation`. A recipient must accept all three HTTP-date forms, so the kit does too.

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
const MONTH = `(${MONTHS.join('|')})`;

const IMF_FIXDATE = new RegExp(`^(${DAYS.join('|')}), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(
  `^(${LONG_DAYS.join('|')}), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`,
);
const ASCTIME_DATE = new RegExp(`^(${DAYS.join('|')}) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * The instant `year-month-day hours:minutes:seconds` UTC (`month` from 0), or undefined when a
 * part is out of range: `Date.UTC` rolls those over (month 13, 31 February, minute 75) and reads
 * years 0-99 as 1900-1999, so what it made must give back each part. A leap second (:60) is a
 * second like the others.
 */
function exactUtc(
  year: number,
  month: number,
  day: number,
  hours: number,
  minutes: number,
  seconds: number,
): Date | undefined {
  const date = new Date(Date.UTC(year, month, day, hours, minutes, seconds));
  const exact =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month &&
    date.getUTCDate() === day &&
    hours < 24 &&
    minutes < 60 &&
    seconds < 61;
  return exact ? date : undefined;
}

/** An HTTP-date's instant, when its parts name one and its weekday is that instant's. */
function build(
  weekday: number,
  day: string,
  month: string,
  year: number,
  time: readonly string[],
): Date | undefined {
  const [hours, minutes, seconds] = time.map(Number) as [number, number, number];
  const date = exactUtc(year, MONTHS.indexOf(month), Number(day), hours, minutes, seconds);
  return date?.getUTCDay() === weekday ? date : undefined;
}

/**
 * Parses an HTTP-date in any of its three forms, as a field's value (the white space around it is
 * no part of it, RFC 9110 §5.5, and undici keeps it at the end); undefined when malformed or
 * self-contradictory.
 */
export function parseHttpDate(field: string): Date | undefined {
  const value = field.replace(/^[ \t]+|[ \t]+$/g, '');
  let m = IMF_FIXDATE.exec(value);
  if (m) {
    const [, day = '', date = '', month = '', year = '', ...time] = m;
    return build(DAYS.indexOf(day), date, month, Number(year), time);
  }
  m = RFC850_DATE.exec(value);
  if (m) {
    const [, day = '', date = '', month = '', yy = '', ...time] = m;
    // RFC 9110: a two-digit year more than 50 years ahead belongs to the past century.
    const thisYear = new Date().getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(yy);
    if (year > thisYear + 50) year -= 100;
    return build(LONG_DAYS.indexOf(day), date, month, year, time);
  }
  m = ASCTIME_DATE.exec(value);
  if (m) {
    const [, day = '', month = '', date = '', hh = '', mm = '', ss = '', year = ''] = m;
    return build(DAYS.indexOf(day), date.trim(), month, Number(year), [hh, mm, ss]);
  }
  return undefined;
}

/**
 * Parses an RFC 9745 `Deprecation` value (`@<seconds>`, parameters allowed), white space around it
 * as around any field's value; undefined if malformed.
 */
export function parseStructuredDate(value: string): Date | undefined {
  const m = /^[ \t]*@(-?\d{1,15})(?:;.*)?[ \t]*$/.exec(value);
  return m ? new Date(Number(m[1]) * 1000) : undefined;
}

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A date read from a header: the earliest and latest instant it can mean, and for a date
 * written without a time (`2030-12-05`) the day it names.
 */
export interface ReadableDate {
  readonly earliest: Date;
  readonly latest: Date;
  /** `YYYY-MM-DD` when the value is a date alone: it names that day, wherever it is read. */
  readonly day?: string;
}

/**
 * RFC 5322's date-time, as libraries write one where an HTTP-date belongs: the day without its
 * leading zero (Java's `RFC_1123_DATE_TIME`), a numeric zone (Python's `formatdate()`), no seconds.
 */
const RFC5322_DATE = new RegExp(
  `^(?:(${DAYS.join('|')}), )?(\\d{1,2}) ${MONTH} (\\d{4}) (\\d{2}):(\\d{2})(?::(\\d{2}))? (GMT|UTC?|Z|[+-]\\d{4})$`,
);
/** JavaScript's `Date#toString()`: `Fri Dec 06 2030 00:00:00 GMT+0000 (Coordinated Universal Time)`. */
const JS_DATE = new RegExp(
  `^(${DAYS.join('|')}) ${MONTH} (\\d{2}) (\\d{4}) ${TIME} GMT([+-]\\d{4})(?: \\(.*\\))?$`,
);

/**
 * The instant of a date and time at `zone` (`GMT`, `UT`, `UTC`, `Z` or `±hhmm`), when its parts
 * name one and `weekday` (-1: none written) is that instant's day of the week where it was written.
 */
function zoned(
  weekday: number,
  parts: readonly [year: string, month: string, day: string, hh: string, mm: string, ss: string],
  zone: string,
): Date | undefined {
  const [year, month, day, hh, mm, ss] = parts;
  const local = exactUtc(Number(year), MONTHS.indexOf(month), Number(day), +hh, +mm, +ss);
  if (local === undefined || (weekday !== -1 && local.getUTCDay() !== weekday)) return undefined;
  const offset = /^[+-]/.test(zone)
    ? (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3)))
    : 0;
  return new Date(local.getTime() - offset * 60_000);
}

/**
 * Reads a date as a person would write one in a header that should hold an HTTP-date: an
 * HTTP-date, RFC 5322's date-time or JavaScript's `Date#toString()`, or ISO 8601 (a date alone,
 * or a date and time with or without a zone). A date and time without a zone may be in any zone.
 */
export function readableDate(value: string): ReadableDate | undefined {
  const http = parseHttpDate(value.trim());
  if (http !== undefined) return { earliest: http, latest: http };
  const written = RFC5322_DATE.exec(value.trim()) ?? undefined;
  const js = written === undefined ? JS_DATE.exec(value.trim()) : null;
  const instant =
    written !== undefined
      ? zoned(
          DAYS.indexOf(written[1] ?? ''),
          [
            written[4] ?? '',
            written[3] ?? '',
            written[2] ?? '',
            written[5] ?? '',
            written[6] ?? '',
            written[7] ?? '00',
          ],
          written[8] ?? '',
        )
      : js !== null
        ? zoned(
            DAYS.indexOf(js[1] ?? ''),
            [js[4] ?? '', js[2] ?? '', js[3] ?? '', js[5] ?? '', js[6] ?? '', js[7] ?? ''],
            js[8] ?? '',
          )
        : undefined;
  if (instant !== undefined) return { earliest: instant, latest: instant };
  const m = ISO_8601.exec(value.trim());
  if (!m) return undefined;
  const [, year, month, day, hh = '00', mm = '00', ss = '00', zone] = m;
  const at = exactUtc(Number(year), Number(month) - 1, Number(day), +hh, +mm, +ss);
  if (at === undefined) return undefined;
  const local = at.getTime();
  if (zone !== undefined) {
    const offset = /^z$/i.test(zone)
      ? 0
      : (zone.startsWith('-') ? -1 : 1) *
        (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) *
        60_000;
    const instant = new Date(local - offset);
    return { earliest: instant, latest: instant };
  }
  // No zone: any of the world's offsets, UTC-12:00 to UTC+14:00.
  const span = m[4] === undefined ? 86_400_000 - 1 : 0;
  return {
    earliest: new Date(local - 14 * 3_600_000),
    latest: new Date(local + span + 12 * 3_600_000),
    ...(m[4] === undefined ? { day: `${year}-${month}-${day}` } : {}),
  };
}

/**
 * True when `date` names `day` (YYYY-MM-DD): a date alone is the day it names; an instant, when
 * it falls on that day in some time zone of the world (UTC-12:00 to UTC+14:00).
 */
export function fallsOnDay(date: ReadableDate, day: string): boolean {
  if (date.day !== undefined) return date.day === day;
  const start = Date.parse(`${day}T00:00:00Z`);
  const from = start - 14 * 3_600_000;
  const to = start + 86_400_000 + 12 * 3_600_000;
  return date.latest.getTime() >= from && date.earliest.getTime() < to;
}
