#!/usr/bin/env bash
# Usage: python-venv.sh DIR [COMMAND]
# Makes a venv with exactly the packages pinned in DIR/requirements.txt (from PyPI), in the cache
# (~/.cache/animal-store/venv-NAME-HASH: DIR's name, the file's SHA-256), unless it already has
# them, and prints the venv's path, or the path of its COMMAND when one is named. A fresh clone
# thus reuses what an earlier one installed; a changed file gets a venv of its own. Callers at once
# (several test files, CI's other Node majors): one installs, the others wait for it and use what
# it made. Needs python3 with venv.
set -euo pipefail
dir="$(cd "$1" && pwd)"
hash="$(sha256sum "$dir/requirements.txt" | cut -c1-12)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/animal-store"
venv="$cache/venv-$(basename "$dir")-$hash"
mkdir -p "$cache"
exec 9>"$venv.lock"
flock 9
if ! "$venv/bin/python" -c '' >/dev/null 2>&1 ||
  ! cmp -s "$dir/requirements.txt" "$venv/requirements.txt"; then
  echo "$(basename "$dir"): installing the pinned packages into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$dir/requirements.txt" >&2
  # Written last: a venv whose install stopped half-way is made again.
  cp "$dir/requirements.txt" "$venv/requirements.txt"
fi
if [ -n "${2:-}" ]; then echo "$venv/bin/$2"; else echo "$venv"; fi
