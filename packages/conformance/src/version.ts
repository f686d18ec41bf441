import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

/** The kit's package name. */
export const KIT_NAME: string = manifest.name;
/** The kit's version, as published (reports carry it). */
export const KIT_VERSION: string = manifest.version;
