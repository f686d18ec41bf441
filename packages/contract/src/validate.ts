import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { ErrorBody, type ErrorDetail, SpecErrorBody } from './schemas/error.js';
import { ERROR_MESSAGES } from './schemas/messages.js';
import { ListPetsQuery, PetIdParams } from './schemas/params.js';
import { NewPet, Pet, PetList, SpecPet, SpecPetList } from './schemas/pet.js';
import { holdsUnpairedSurrogate } from './unicode.js';

/** Outcome of validating a value: the typed value, or every problem with its path. */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly details: ErrorDetail[] };

/** A compiled validator for one schema. */
export type Validate<T> = (value: unknown) => ValidationResult<T>;

interface RawError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** The schema at `schemaPath` (a JSON pointer into `root`, as TypeBox reports it). */
function schemaAt(root: unknown, schemaPath: string): unknown {
  let node = root;
  for (const segment of schemaPath.replace(/^#\/?/, '').split('/')) {
    if (segment === '') continue;
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  return node;
}

/** The message the failing schema gives for `error.keyword` (`errorMessages`), if any. */
function ownMessage(root: TSchema, error: RawError): string | undefined {
  const schema = schemaAt(root, error.schemaPath) as Record<string, unknown> | undefined;
  const messages = schema?.[ERROR_MESSAGES] as Record<string, string> | undefined;
  return messages?.[error.keyword];
}

function detailsOf(root: TSchema, errors: readonly RawError[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const at = error.instancePath;
    switch (error.keyword) {
      // TypeBox reports each unknown field twice: once as `false` schema, once listed here.
      case 'boolean':
        if (error.schemaPath.endsWith('/additionalProperties')) continue;
        details.push({ path: at, message: 'is not allowed' });
        break;
      case 'additionalProperties':
        for (const name of (error.params.additionalProperties as string[] | undefined) ?? []) {
          details.push({ path: `${at}/${name}`, message: `unknown field "${name}"` });
        }
        break;
      case 'required':
        for (const name of (error.params.requiredProperties as string[] | undefined) ?? []) {
          details.push({ path: `${at}/${name}`, message: 'is required' });
        }
        break;
      default:
        details.push({ path: at, message: ownMessage(root, error) ?? error.message });
    }
  }
  return details;
}

/** Compiles `schema` once and returns a validator reporting every error with its JSON pointer. */
export function compileValidator<T extends TSchema>(schema: T): Validate<Static<T>> {
  const compiled = Compile(schema);
  return (value) => {
    if (compiled.Check(value)) return { ok: true, value: value as Static<T> };
    const details = detailsOf(schema, compiled.Errors(value) as RawError[]);
    // A failed Check always yields errors; keep one so a caller never sees an empty list.
    if (details.length === 0) details.push({ path: '', message: 'is invalid' });
    return { ok: false, details };
  };
}

const checkNewPetSchema = compileValidator(NewPet);
const UNPAIRED = 'must not hold an unpaired surrogate (UTF-8 cannot carry one)';
/** NewPet's string fields: each must be Unicode text. */
const STRING_FIELDS = Object.keys(NewPet.properties).filter(
  (name) => (NewPet.properties[name as keyof NewPet] as { type?: unknown }).type === 'string',
);

/**
 * Validates a `createPet` request body: the NewPet schema, and string fields that are Unicode
 * text. The second check is code because a regex for it would not compile outside JavaScript,
 * and the OpenAPI document's patterns must.
 */
export const validateNewPet: Validate<NewPet> = (value) => {
  const result = checkNewPetSchema(value);
  if (typeof value !== 'object' || value === null) return result;
  const failed = result.ok ? [] : result.details;
  const unpaired: ErrorDetail[] = [];
  for (const field of STRING_FIELDS) {
    const text = (value as Record<string, unknown>)[field];
    const path = `/${field}`;
    if (typeof text !== 'string' || !holdsUnpairedSurrogate(text)) continue;
    if (!failed.some((d) => d.path === path)) unpaired.push({ path, message: UNPAIRED });
  }
  return unpaired.length === 0 ? result : { ok: false, details: [...failed, ...unpaired] };
};
/** Validates one Pet as this service returns it. */
export const validatePet = compileValidator(Pet);
/** Validates a `listPets` response body as this service returns it. */
export const validatePetList = compileValidator(PetList);
/** Validates a Pet from any server: the spec's fields, other fields unconstrained. */
export const validateSpecPet = compileValidator(SpecPet);
/** Validates a `listPets` body from any server: an array of SpecPet. */
export const validateSpecPetList = compileValidator(SpecPetList);
/** Validates an Error response body. */
export const validateErrorBody = compileValidator(ErrorBody);
/** Validates an Error body from any server: the spec's three fields, other fields unconstrained. */
export const validateSpecErrorBody = compileValidator(SpecErrorBody);
/** Validates typed `listPets` query parameters (see `parseListPetsQuery` for raw strings). */
export const validateListPetsQuery = compileValidator(ListPetsQuery);
/** Validates typed `getPet` path parameters (see `parsePetId` for the raw string). */
export const validatePetIdParams = compileValidator(PetIdParams);

/** Renders details as one human-readable sentence, e.g. `name is required; limit must be ...`. */
export function describeDetails(details: readonly ErrorDetail[]): string {
  return details
    .map((d) => {
      const where = d.path.replace(/^\//, '').replaceAll('/', '.');
      return where === '' ? `body ${d.message}` : `${where} ${d.message}`;
    })
    .join('; ');
}
