#!/usr/bin/env bash
# Makes .venv here with the pinned packages of requirements.txt (from PyPI), unless it already
# has exactly them. Needs python3 with venv. Prints the venv's path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"
if ! "$venv/bin/openapi-python-client" --version >/dev/null 2>&1 ||
  ! cmp -s "$here/requirements.txt" "$venv/requirements.txt"; then
  echo "clients: installing the pinned packages into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
  cp "$here/requirements.txt" "$venv/requirements.txt"
fi
echo "$venv"
