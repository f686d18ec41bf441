#!/usr/bin/env bash
# The step of the repository's GitHub Action (action.yml): runs the conformance kit with the
# action's inputs, appends its Markdown report to $GITHUB_STEP_SUMMARY, leaves JUnit and HTML
# reports in files (creating their folders), and exits with the kit's own status (0 PASS, 1 FAIL,
# 2 could not run, 3 INCOMPLETE), so the step fails exactly when the kit does not pass.
#
# When the kit never judged the server (an empty key, a kit that cannot be installed or started,
# a wrong base URL or key), the summary says "not run" and why, never "failed".
#
# Inputs, as environment variables (action.yml sets them from its inputs):
#   CONFORMANCE_BASE_URL      the server's base URL, ending in /v1 (required)
#   ANIMAL_STORE_API_KEY      the API key (required; the kit reads it from here, never argv)
#   CONFORMANCE_CATEGORY_IDS  comma-separated categoryIds that exist on the server
#   CONFORMANCE_READ_ONLY     true: create nothing
#   CONFORMANCE_STRICT        true: advisories fail the run
#   CONFORMANCE_SEED          seed of the generated cases
#   CONFORMANCE_ONLY, CONFORMANCE_SKIP   groups or check ids to run, to leave out
#   CONFORMANCE_FIXTURES      a pet set loaded into the server (--fixtures FILE)
#   CONFORMANCE_SETTLE_MS     wait after a write before reading (--settle-ms)
#   CONFORMANCE_TIMEOUT_MS    per-request timeout (--timeout-ms)
#   CONFORMANCE_EXPECT_FAIL   checks the server is known to fail, with reasons (--expect-fail FILE)
#   CONFORMANCE_JUNIT, CONFORMANCE_HTML  where the reports go (default conformance-junit.xml,
#                             conformance.html); missing folders are created
#   CONFORMANCE_COMMAND       the kit's command (default: the kit of the action's own version,
#                             npx --yes @animal-store/conformance@<version of this checkout>)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
junit="${CONFORMANCE_JUNIT:-conformance-junit.xml}"
html="${CONFORMANCE_HTML:-conformance.html}"

outputs() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    {
      echo "exit-code=$1"
      echo "junit=$junit"
      echo "html=$html"
    } >>"$GITHUB_OUTPUT"
  fi
}

# Ends the step without a verdict on the server: the summary says what is missing, exit 2.
not_run() {
  echo "conformance action: not run: $1" >&2
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '## Animal Store conformance: not run\n\nThe kit did not judge the server: %s\n' "$1" >>"$GITHUB_STEP_SUMMARY"
  fi
  outputs 2
  exit 2
}

[ -n "${CONFORMANCE_BASE_URL:-}" ] || not_run "the base-url input is empty."
if [ -z "${ANIMAL_STORE_API_KEY:-}" ]; then
  not_run "the api-key input is empty. Pass a key from a secret (api-key: \${{ secrets.YOUR_KEY }}); a workflow run for a pull request from a fork gets no secrets."
fi
export ANIMAL_STORE_API_KEY

if [ -n "${CONFORMANCE_COMMAND:-}" ]; then
  read -r -a command <<<"$CONFORMANCE_COMMAND"
else
  # The kit of this checkout's version: pinning the action pins the kit.
  version="$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$here/../package.json" | head -1)"
  [ -n "$version" ] || not_run "the kit's version cannot be read from $here/../package.json."
  command=(npx --yes "@animal-store/conformance@$version")
fi

# The kit must start before it can judge anything: an install or start failure is not a verdict.
if ! started="$("${command[@]}" --version 2>&1)"; then
  not_run "the kit could not be installed or started (${command[*]} --version): $(printf '%s' "$started" | tail -n 3 | tr '\n' ' ')"
fi

for file in "$junit" "$html"; do
  mkdir -p "$(dirname "$file")" || not_run "cannot create the folder of $file."
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
markdown="$work/summary.md"

args=(--base-url "$CONFORMANCE_BASE_URL" --reporter "pretty,junit:$junit,html:$html,markdown:$markdown")
[ -z "${CONFORMANCE_CATEGORY_IDS:-}" ] || args+=(--category-id "$CONFORMANCE_CATEGORY_IDS")
[ "${CONFORMANCE_READ_ONLY:-false}" != "true" ] || args+=(--read-only)
[ "${CONFORMANCE_STRICT:-false}" != "true" ] || args+=(--strict)
[ -z "${CONFORMANCE_SEED:-}" ] || args+=(--seed "$CONFORMANCE_SEED")
[ -z "${CONFORMANCE_ONLY:-}" ] || args+=(--only "$CONFORMANCE_ONLY")
[ -z "${CONFORMANCE_SKIP:-}" ] || args+=(--skip "$CONFORMANCE_SKIP")
[ -z "${CONFORMANCE_FIXTURES:-}" ] || args+=(--fixtures "$CONFORMANCE_FIXTURES")
[ -z "${CONFORMANCE_SETTLE_MS:-}" ] || args+=(--settle-ms "$CONFORMANCE_SETTLE_MS")
[ -z "${CONFORMANCE_TIMEOUT_MS:-}" ] || args+=(--timeout-ms "$CONFORMANCE_TIMEOUT_MS")
[ -z "${CONFORMANCE_EXPECT_FAIL:-}" ] || args+=(--expect-fail "$CONFORMANCE_EXPECT_FAIL")

# stderr goes to the log as it comes, and to a file for the summary of a run that could not start.
{ "${command[@]}" "${args[@]}" 2>&1 1>&3 3>&- | tee "$work/stderr" >&2; } 3>&1
status=${PIPESTATUS[0]}

if [ -s "$markdown" ]; then
  [ -z "${GITHUB_STEP_SUMMARY:-}" ] || cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
  outputs "$status"
  exit "$status"
fi
# No report: the kit stopped before judging (exit 2: usage, connection or configuration).
reason="$(grep -v '^\s*$' "$work/stderr" | tail -n 1)"
[ "$status" -eq 0 ] || not_run "the kit exited with status $status: ${reason:-see the step log}"
outputs "$status"
exit "$status"
