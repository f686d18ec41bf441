/** A configuration problem, worded for the person who set the variable; never holds a secret. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
