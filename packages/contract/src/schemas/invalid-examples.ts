/**
 * The annotation keyword that lists values a field must refuse, beside the `examples` it must
 * accept: `test/fields.test.ts` holds every field of the contract to both, so a field that loses
 * a check (a format, a bound) fails a test. The OpenAPI document keeps it as a specification
 * extension (`x-`), which tools ignore.
 */
export const INVALID_EXAMPLES = 'x-invalid-examples';

/** Values a field must refuse, as a schema's options: `Type.String({ ...invalidExamples([…]) })`. */
export function invalidExamples(values: readonly unknown[]): {
  readonly [INVALID_EXAMPLES]: readonly unknown[];
} {
  return { [INVALID_EXAMPLES]: values };
}
