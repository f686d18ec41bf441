#!/usr/bin/env bash
# Usage: python-venv.sh DIR [COMMAND]
# Makes DIR/.venv with exactly the packages pinned in DIR/requirements.txt (from PyPI), unless it
# already has them (again whenever the file changes), and prints the venv's path, or the path of
# its COMMAND when one is named. Callers at once (several test files, CI's other Node majors):
# one installs, the others wait for it and use what it made. Needs python3 with venv.
set -euo pipefail
dir="$(cd "$1" && pwd)"
venv="$dir/.venv"
exec 9>"$dir/.venv.lock"
flock 9
if ! "$venv/bin/python" -c '' >/dev/null 2>&1 ||
  ! cmp -s "$dir/requirements.txt" "$venv/requirements.txt"; then
  echo "$(basename "$dir"): installing the pinned packages into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$dir/requirements.txt" >&2
  cp "$dir/requirements.txt" "$venv/requirements.txt"
fi
if [ -n "${2:-}" ]; then echo "$venv/bin/$2"; else echo "$venv"; fi
