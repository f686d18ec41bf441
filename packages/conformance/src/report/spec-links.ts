import { KIT_NAME, KIT_VERSION } from '../version.js';

/** The repository the kit is released from. */
export const REPOSITORY_URL = 'https://github.com/animal-store/animal-store';

/**
 * The service contract the kit checks against, as published at the kit's release tag (the
 * package also ships a copy, `specification.md`, made from `docs/specification.md` at build).
 * Reports link it rather than a local file, so the links work wherever a report is read.
 */
export const SPECIFICATION_URL = `${REPOSITORY_URL}/blob/${KIT_NAME}@${KIT_VERSION}/docs/specification.md`;

/** Each section's heading anchor in `specification.md` (a test checks them against the file). */
export const SECTION_ANCHORS: Readonly<Record<string, string>> = {
  '§1': '1-what-the-service-does',
  '§2': '2-resources',
  '§3': '3-states',
  '§4': '4-operations',
  '§4.1': '41-list-animals-get-pets-listpets',
  '§4.2': '42-add-an-animal-post-pets-createpet',
  '§4.3': '43-get-an-animal-get-petspetid-getpet-deprecated',
  '§5': '5-authentication',
  '§6': '6-events',
  '§7': '7-errors',
  '§8': '8-limits',
  '§9': '9-versioning',
};

/** Links to every contract section a check's `section` names (`§4.2, §7` gives two). */
export function sectionLinks(section: string): string[] {
  return (section.match(/§[0-9.]+/g) ?? [])
    .map((cited) => SECTION_ANCHORS[cited.replace(/\.$/, '')])
    .filter((anchor): anchor is string => anchor !== undefined)
    .map((anchor) => `${SPECIFICATION_URL}#${anchor}`);
}
