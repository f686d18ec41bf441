// The registry: every section of the spec the kit holds a server to, each a module holding its
// matrix rows and the checks that implement them. The matrix and the run order are derived here.
import { GROUPS } from '../types.js';
import { absoluteFormSection } from './absolute-form.js';
import { authSection } from './auth.js';
import { bodyInPiecesSection } from './body-in-pieces.js';
import { changesWithoutKeySection } from './changes-without-key.js';
import { chunkedFramingSection } from './chunked-framing.js';
import { createPetSection } from './create-pet.js';
import { methodOverrideSection } from './create-pet-method-override.js';
import { unspecifiedBodiesSection } from './create-pet-unspecified-bodies.js';
import { createdPetsSection } from './created-pets.js';
import { everyAnswerSection } from './every-answer.js';
import { getPetSection } from './get-pet.js';
import { headRequestsSection } from './head-requests.js';
import { jsonExtensionsSection } from './json-extensions.js';
import { jsonSpellingsSection } from './json-spellings.js';
import { jsonWhateverAskedSection } from './json-whatever-asked.js';
import { listPetsSection } from './list-pets.js';
import { optionsWithoutKeySection } from './options-without-key.js';
import { petSetSection } from './pet-set.js';
import { pipelinedReadsSection } from './pipelined-reads.js';
import { refusedCreatesSection } from './refused-creates.js';
import { repeatedMembersSection } from './repeated-members.js';
import { sessionCookieSection } from './session-cookie.js';
import type { DeclaredCheck, SpecSection } from './support.js';

/** The sections in the spec's order: the matrix lists their rows so. */
export const SECTIONS: readonly SpecSection[] = [
  everyAnswerSection,
  createdPetsSection,
  listPetsSection,
  createPetSection,
  methodOverrideSection,
  unspecifiedBodiesSection,
  jsonSpellingsSection,
  repeatedMembersSection,
  jsonExtensionsSection,
  bodyInPiecesSection,
  chunkedFramingSection,
  getPetSection,
  headRequestsSection,
  jsonWhateverAskedSection,
  pipelinedReadsSection,
  absoluteFormSection,
  authSection,
  changesWithoutKeySection,
  optionsWithoutKeySection,
  refusedCreatesSection,
  sessionCookieSection,
  petSetSection,
];

/** The stages in run order; undefined is the checks of no stage. */
const STAGES: readonly DeclaredCheck['stage'][] = ['first', undefined, 'late', 'last'];

/**
 * `checks` in the order a run performs and reports them: the `first` stage (authentication, the
 * writes whose failure explains others), the checks of no stage, the `late` stage (what needs
 * every pet the run writes), then the `last` (the probes of every request shape, the oracles over
 * every answer). Within a stage by group, then as their sections declare them.
 */
function inRunOrder(checks: readonly DeclaredCheck[]): DeclaredCheck[] {
  const stage = (c: DeclaredCheck) => STAGES.indexOf(c.stage);
  return checks
    .map((check, declared) => ({ check, declared }))
    .sort(
      (a, b) =>
        stage(a.check) - stage(b.check) ||
        GROUPS.indexOf(a.check.group) - GROUPS.indexOf(b.check.group) ||
        a.declared - b.declared,
    )
    .map(({ check }) => check);
}

/** Every check but the pet set's, in run order. */
export const CHECKS: readonly DeclaredCheck[] = inRunOrder(
  SECTIONS.filter((s) => s !== petSetSection).flatMap((s) => s.checks),
);

/** The checks a run adds with `--fixtures`: they judge the operator's pet set. */
export const FIXTURE_SET_CHECKS: readonly DeclaredCheck[] = petSetSection.checks;

/** Every check's id: words of the kit's own, which redaction leaves whole (`Redactor`). */
export const CHECK_IDS: readonly string[] = [...CHECKS, ...FIXTURE_SET_CHECKS].map((c) => c.id);

/**
 * The checks a run performs, in order: with a pet set, its checks run before the `last` stage,
 * which judges every request shape and every answer of the run.
 */
export function runOrder(withFixtureSet: boolean): readonly DeclaredCheck[] {
  if (!withFixtureSet) return CHECKS;
  const last = CHECKS.filter((c) => c.stage === 'last');
  return [...CHECKS.filter((c) => c.stage !== 'last'), ...FIXTURE_SET_CHECKS, ...last];
}
