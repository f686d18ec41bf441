#!/usr/bin/env bash
# The step of the repository's GitHub Action (action.yml): runs the conformance kit with the
# action's inputs, appends its Markdown report to $GITHUB_STEP_SUMMARY, leaves JUnit and HTML
# reports in files, and exits with the kit's own status (0 pass, 1 a check failed, 2 it could
# not run), so the step fails exactly when the kit does.
#
# Inputs, as environment variables (action.yml sets them from its inputs):
#   CONFORMANCE_BASE_URL      the server's base URL, ending in /v1 (required)
#   ANIMAL_STORE_API_KEY      the API key (required; the kit reads it from here, never argv)
#   CONFORMANCE_CATEGORY_IDS  comma-separated categoryIds that exist on the server
#   CONFORMANCE_READ_ONLY     true: create nothing
#   CONFORMANCE_STRICT        true: advisories fail the run
#   CONFORMANCE_SEED          seed of the generated cases
#   CONFORMANCE_ONLY, CONFORMANCE_SKIP   groups or check ids to run, to leave out
#   CONFORMANCE_JUNIT, CONFORMANCE_HTML  where the reports go (default conformance-junit.xml,
#                             conformance.html)
#   CONFORMANCE_COMMAND       the kit's command (default: npx of the published package)
set -uo pipefail

fail() {
  echo "conformance action: $1" >&2
  exit 2
}
[ -n "${CONFORMANCE_BASE_URL:-}" ] || fail "the base-url input is required"
[ -n "${ANIMAL_STORE_API_KEY:-}" ] || fail "the api-key input is required"
export ANIMAL_STORE_API_KEY

junit="${CONFORMANCE_JUNIT:-conformance-junit.xml}"
html="${CONFORMANCE_HTML:-conformance.html}"
markdown="$(mktemp)"
trap 'rm -f "$markdown"' EXIT

read -r -a command <<<"${CONFORMANCE_COMMAND:-npx --yes @animal-store/conformance}"
args=(--base-url "$CONFORMANCE_BASE_URL" --reporter "pretty,junit:$junit,html:$html,markdown:$markdown")
[ -z "${CONFORMANCE_CATEGORY_IDS:-}" ] || args+=(--category-id "$CONFORMANCE_CATEGORY_IDS")
[ "${CONFORMANCE_READ_ONLY:-false}" != "true" ] || args+=(--read-only)
[ "${CONFORMANCE_STRICT:-false}" != "true" ] || args+=(--strict)
[ -z "${CONFORMANCE_SEED:-}" ] || args+=(--seed "$CONFORMANCE_SEED")
[ -z "${CONFORMANCE_ONLY:-}" ] || args+=(--only "$CONFORMANCE_ONLY")
[ -z "${CONFORMANCE_SKIP:-}" ] || args+=(--skip "$CONFORMANCE_SKIP")

"${command[@]}" "${args[@]}"
status=$?

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  if [ -s "$markdown" ]; then
    cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
  else
    printf '## Animal Store conformance: not run\n\nThe kit exited with status %s before it could judge the server; the step log says why.\n' \
      "$status" >>"$GITHUB_STEP_SUMMARY"
  fi
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$status"
    echo "junit=$junit"
    echo "html=$html"
  } >>"$GITHUB_OUTPUT"
fi
exit "$status"
