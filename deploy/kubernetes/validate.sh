#!/usr/bin/env bash
# Validates the manifests in this folder against the Kubernetes API schemas, offline:
# kubernetes-validate (PyPI, pinned here) bundles the schemas of every Kubernetes version.
# Installed into a venv in the cache on first use. Fails on any error. Needs python3 with venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
VERSION=1.37.0
venv="${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/kubernetes-validate-$VERSION"
if ! "$venv/bin/kubernetes-validate" --version >/dev/null 2>&1; then
  echo "kubernetes-validate: installing $VERSION into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$VERSION"
fi
# --strict: a misspelt field is an error, not a field Kubernetes silently drops.
"$venv/bin/kubernetes-validate" --strict "$here"/*.yaml
