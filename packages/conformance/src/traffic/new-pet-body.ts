// Why a createPet request the kit did not send carries no NewPet (spec §2, §4.2), named by the
// kit's check that sends such a body. Only what every JSON stack sees: numbers are read as
// doubles, so 1.0 is an integer and 2^63 is int64's largest, and a server that reads numbers so
// is never faulted for taking one.
import { repeatedMemberName } from '@animal-store/contract';
import JSON5 from 'json5';
import {
  type FieldSchema,
  kebab,
  NEW_PET_FIELDS,
  SNAKE_CASED_FIELDS,
  snakeCase,
} from '../cases/new-pet.js';
import { numberText, parseJson } from '../http/json.js';

/** What is wrong with a body, and the kit check that refuses such bodies. */
export interface BodyProblem {
  readonly check: string;
  readonly reason: string;
}

const INT64_LIMIT = 2 ** 63;

/** The check ids a `BodyProblem` may name, each the kit's own. */
export const BODY_PROBLEM_CHECKS: readonly string[] = [
  'createPet.malformed-json',
  'createPet.json-extensions-rejected',
  'createPet.trailing-content',
  'createPet.body-not-object',
  'createPet.empty-body',
  'createPet.blank-body',
  ...NEW_PET_FIELDS.filter((f) => f.required).flatMap((f) => [
    `createPet.missing-${kebab(f.name)}`,
    `createPet.missing-${kebab(f.name)}-other-case`,
    `createPet.missing-${kebab(f.name)}-in-query`,
  ]),
  ...SNAKE_CASED_FIELDS.map((f) => `createPet.missing-${kebab(f.name)}-snake-case`),
  ...NEW_PET_FIELDS.map((f) => `createPet.invalid-${kebab(f.name)}`),
  ...NEW_PET_FIELDS.filter((f) => !f.required).map(
    (f) => `createPet.${kebab(f.name)}-null-rejected`,
  ),
];

/**
 * Why `value` is not of the field's schema, as every JSON stack reads it, or undefined; a number
 * is named by its `literal` in the body when it has one, as sent rather than as a double.
 */
function valueProblem(schema: FieldSchema, value: unknown, literal?: string): string | undefined {
  if (schema.type === 'integer') {
    if (typeof value !== 'number') return `is ${kindOf(value)}, not an integer`;
    if (!Number.isInteger(value)) return `${literal ?? value} is not an integer`;
    if (Math.abs(value) > INT64_LIMIT) return `${literal ?? value} is outside int64`;
    return undefined;
  }
  // A type the spec's NewPet does not use yet is not judged: no false alarm on what it allows.
  if (schema.type !== 'string') return undefined;
  if (typeof value !== 'string') return `is ${kindOf(value)}, not a string`;
  if (schema.enum !== undefined && !schema.enum.includes(value)) {
    return `${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`;
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Where the object or array that `text` opens with ends (past its closing bracket), read as
 * brackets outside strings; undefined when no bracket closes the first one.
 */
function firstValueEnd(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return undefined;
}

/**
 * Why a body that is no JSON text is none: one JSON value followed by more than white space, or
 * JSON it is not at all. A reader that stops after the first value takes the body for that value
 * (RFC 8259 §9 lets it: `createPet.trailing-content` advises), so when that value is no NewPet
 * either, and neither is what follows it where that is one JSON value (a reader may keep the
 * last), what is wrong with the first is the body's problem.
 */
function notJsonProblem(text: string, error: Error, query: URLSearchParams): BodyProblem {
  const end = firstValueEnd(text);
  if (end !== undefined) {
    try {
      JSON.parse(text.slice(0, end));
    } catch {
      // The first value is no JSON either.
      return {
        check: 'createPet.malformed-json',
        reason: `the body is not JSON (${error.message})`,
      };
    }
    // What follows is a NewPet only when it is one JSON value, and one.
    const first = newPetBodyProblem(text.slice(0, end), query);
    const last = newPetBodyProblem(text.slice(end), query);
    if (first !== undefined && last !== undefined) {
      return { ...first, reason: `${first.reason}, in the first of the body's JSON values` };
    }
    const more = JSON.stringify(text.slice(end, end + 20));
    return {
      check: 'createPet.trailing-content',
      reason: `the body holds one JSON value, then ${more}${text.length > end + 20 ? '…' : ''}`,
    };
  }
  return { check: 'createPet.malformed-json', reason: `the body is not JSON (${error.message})` };
}

/** `text` read as JSON5 (the extensions of JSON that lenient parsers take), or undefined. */
function json5Value(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON5.parse(text) };
  } catch {
    return undefined;
  }
}

/** Why the body `text` is no NewPet, or undefined when it is one; `query` is the request's. */
export function newPetBodyProblem(
  text: string,
  query: URLSearchParams = new URLSearchParams(),
): BodyProblem | undefined {
  if (text === '') return { check: 'createPet.empty-body', reason: 'the body is empty' };
  if (/^[ \t\n\r]+$/.test(text)) {
    return { check: 'createPet.blank-body', reason: 'the body is white space alone' };
  }
  let value: unknown;
  let extended = false;
  try {
    value = parseJson(text);
  } catch (error) {
    // RFC 8259 §9 lets a parser take extensions: a body that is JSON5 is read whole by a parser
    // that takes them, and refused by one that does not. What is wrong in what it reads is wrong
    // either way; a body that reads as a NewPet is the kit's advisory on extensions.
    const read = json5Value(text);
    if (read === undefined) return notJsonProblem(text, error as Error, query);
    value = read.value;
    extended = true;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { check: 'createPet.body-not-object', reason: `the body is ${kindOf(value)}` };
  }
  // Receivers differ on which of two members of one name wins, or refuse the body (RFC 8259 §4):
  // one that repeats a member name has no one reading to judge. In JSON5, where names may go
  // unquoted, a field's name written twice anywhere counts as a repeat.
  const repeats = extended
    ? NEW_PET_FIELDS.some((field) => text.split(field.name).length > 2)
    : repeatedMemberName(text, value) !== undefined;
  const advisory = extended ? EXTENDED : undefined;
  if (repeats) return advisory;
  return memberProblem(value as Record<string, unknown>, query) ?? advisory;
}

/** A NewPet written in an extension of JSON: the advisory's problem. */
const EXTENDED: BodyProblem = {
  check: 'createPet.json-extensions-rejected',
  reason: 'the body is no JSON text but JSON5 (comments, trailing commas, single quotes…)',
};

/** What is wrong with the members of a JSON object sent as a NewPet, or undefined. */
function memberProblem(
  body: Record<string, unknown>,
  query: URLSearchParams,
): BodyProblem | undefined {
  for (const field of NEW_PET_FIELDS) {
    const name = kebab(field.name);
    if (!Object.hasOwn(body, field.name)) {
      if (!field.required) continue;
      // Member names are compared code unit by code unit (RFC 8259 §8.3).
      const lower = field.name.toLowerCase();
      const other = Object.keys(body).find((key) => key.toLowerCase() === lower);
      if (other !== undefined) {
        return {
          check: `createPet.missing-${name}-other-case`,
          reason: `the body has ${other} but no ${field.name}`,
        };
      }
      const snake = snakeCase(field.name);
      if (SNAKE_CASED_FIELDS.includes(field) && Object.hasOwn(body, snake)) {
        return {
          check: `createPet.missing-${name}-snake-case`,
          reason: `the body has ${snake} but no ${field.name}`,
        };
      }
      // A binder that merges the query string with the body may find it there.
      return query.has(field.name)
        ? {
            check: `createPet.missing-${name}-in-query`,
            reason: `the body has no ${field.name}, given in the query string instead`,
          }
        : { check: `createPet.missing-${name}`, reason: `the body has no ${field.name}` };
    }
    const member = body[field.name];
    if (member === null && !field.required) {
      return { check: `createPet.${name}-null-rejected`, reason: `${field.name} is null` };
    }
    const problem = valueProblem(field.schema, member, numberText(body, field.name));
    if (problem !== undefined) {
      return { check: `createPet.invalid-${name}`, reason: `${field.name} ${problem}` };
    }
  }
  return undefined;
}
