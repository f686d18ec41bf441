#!/usr/bin/env bash
# Validates the manifests in this folder offline, strictly (a misspelt field is an error, not a
# field Kubernetes silently drops), against every Kubernetes version they claim to support:
# - the built-in kinds with kubernetes-validate (PyPI, pinned here), which bundles the API's
#   JSON schemas for each version, so nothing is fetched while validating (kubeconform, the
#   other choice, downloads them);
# - ServiceMonitor and PrometheusRule against the openAPIV3Schema of the Prometheus Operator's
#   CRDs, taken from its module on the Go module proxy (pinned here), with the jsonschema
#   package kubernetes-validate brings.
# Installed into a venv in the cache on first use. Fails on any error or missing schema. Needs
# python3 with venv, and Go (or the module already in Go's module cache).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
VERSION=1.37.0
# The oldest Kubernetes the files work on (lifecycle.preStop.sleep is on by default from 1.30)
# and the newest kubernetes-validate knows.
KUBERNETES_VERSIONS=(1.30.0 1.37.0)
PROMETHEUS_OPERATOR=v0.80.1
fail() { echo "validate: FAILED: $*" >&2; exit 1; }

venv="${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/kubernetes-validate-$VERSION"
if ! "$venv/bin/kubernetes-validate" --version >/dev/null 2>&1; then
  echo "kubernetes-validate: installing $VERSION into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$VERSION"
fi

builtin=()
custom=()
for file in "$here"/*.yaml; do
  if grep -q '^apiVersion: monitoring.coreos.com/' "$file"; then custom+=("$file"); else builtin+=("$file"); fi
done
for version in "${KUBERNETES_VERSIONS[@]}"; do
  out="$("$venv/bin/kubernetes-validate" --strict -k "$version" "${builtin[@]}" 2>&1)" ||
    { echo "$out" >&2; fail "the manifests are not valid for Kubernetes $version"; }
  echo "$out"
  ! grep -q WARN <<<"$out" || fail "a manifest has no schema for Kubernetes $version"
done

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH="$PATH:/usr/local/go/bin"
fi
command -v go >/dev/null 2>&1 || fail "Go is needed to fetch the Prometheus Operator's CRDs"
module="github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR"
crds="$(cd "$(mktemp -d)" && GOFLAGS=-mod=mod go mod download -json "$module" |
  "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')/example/prometheus-operator-crd"
[ -d "$crds" ] || fail "no CRDs in $module"

"$venv/bin/python" - "$crds" "${custom[@]}" <<'PY'
import sys, yaml, jsonschema
from pathlib import Path

crds, files = Path(sys.argv[1]), sys.argv[2:]
# The CRDs hold enum values such as `=`, which YAML 1.1 reads as a tag PyYAML has no reader for.
yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", lambda loader, node: loader.construct_scalar(node))
schemas = {}
for path in crds.glob("*.yaml"):
    crd = yaml.safe_load(path.read_text())
    for version in crd["spec"]["versions"]:
        key = (f'{crd["spec"]["group"]}/{version["name"]}', crd["spec"]["names"]["kind"])
        schemas[key] = version["schema"]["openAPIV3Schema"]

def strict(schema):
    """No field the CRD does not name, as kubectl's strict field validation refuses them."""
    if isinstance(schema, dict):
        if "properties" in schema and not schema.get("x-kubernetes-preserve-unknown-fields"):
            schema.setdefault("additionalProperties", False)
        for value in schema.values():
            strict(value)
    elif isinstance(schema, list):
        for value in schema:
            strict(value)
    return schema

failed = False
for file in files:
    for doc in yaml.safe_load_all(Path(file).read_text()):
        key = (doc["apiVersion"], doc["kind"])
        if key not in schemas:
            print(f"FAIL {file}: no CRD schema for {key}", file=sys.stderr)
            failed = True
            continue
        schema = strict(schemas[key])
        # metadata is the API server's ObjectMeta, not described by the CRD.
        schema["properties"]["metadata"] = {"type": "object"}
        errors = list(jsonschema.Draft7Validator(schema).iter_errors(doc))
        for error in errors:
            print(f"FAIL {file}: {'/'.join(map(str, error.path))}: {error.message}", file=sys.stderr)
        failed = failed or bool(errors)
        if not errors:
            print(f"INFO {file} passed for {doc['kind']} against the CRD of {sys.argv[1]}")
sys.exit(1 if failed else 0)
PY
