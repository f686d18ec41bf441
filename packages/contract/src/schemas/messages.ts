/**
 * The annotation keyword that gives a schema its own validation messages, keyed by the JSON
 * Schema keyword that failed: `{ pattern: 'must not be blank, …' }`. The validator reports a
 * failed keyword with the schema's message, or a generic one when it has none; the OpenAPI
 * document keeps the annotation as a specification extension (`x-`), which tools ignore.
 */
export const ERROR_MESSAGES = 'x-error-messages';

/** Messages by failed keyword, as a schema's options: `Type.String({ ...messages({ … }) })`. */
export function errorMessages(messages: Readonly<Record<string, string>>): {
  readonly [ERROR_MESSAGES]: Readonly<Record<string, string>>;
} {
  return { [ERROR_MESSAGES]: messages };
}
