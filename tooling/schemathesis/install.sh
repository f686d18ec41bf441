#!/usr/bin/env bash
# Installs Schemathesis and everything it imports, pinned in requirements.txt, from PyPI into .venv
# here on first use (again whenever the file changes); prints the path of the schemathesis
# command. Needs python3 with venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
# Tests call this at once (several files, and the other Node majors' run in CI): one installs,
# the others wait for it and use what it made.
exec 9>"$here/.venv.lock"
flock 9
if ! "$venv/bin/schemathesis" --version >/dev/null 2>&1 ||
  ! cmp -s "$here/requirements.txt" "$venv/requirements.txt"; then
  echo "schemathesis: installing the pinned packages into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
  cp "$here/requirements.txt" "$venv/requirements.txt"
fi
echo "$venv/bin/schemathesis"
