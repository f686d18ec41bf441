#!/usr/bin/env bash
# Validates the manifests in this folder offline with kubeconform (-strict: a misspelt field or a
# duplicated key is an error, not a field Kubernetes silently drops), against every Kubernetes
# version they claim to support. Nothing is fetched while validating; the schemas come from:
# - the built-in kinds: kubernetes-validate (PyPI, pinned here), which bundles the API's JSON
#   schemas for each version as `vX.Y.Z-local-strict/<kind>-<group>-<version>.json`. Their
#   `$ref`s point at https://kubernetes.io/api/_definitions.json, so a copy in the cache points
#   them at the `_definitions.json` beside each file instead;
# - ServiceMonitor and PrometheusRule: the openAPIV3Schema of the Prometheus Operator's CRDs,
#   taken from its module on the Go module proxy (pinned here), written out as JSON schemas that
#   refuse fields the CRD does not name (as kubectl's strict field validation does).
# kubeconform is built with Go, kubernetes-validate installed into a venv, both in the cache on
# first use. Fails on any invalid resource or missing schema. Needs python3 with venv, and Go.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
KUBECONFORM=v0.8.0
VERSION=1.37.0
# The oldest Kubernetes the files work on (lifecycle.preStop.sleep is on by default from 1.30)
# and the newest kubernetes-validate has schemas for.
KUBERNETES_VERSIONS=(1.30.0 1.37.0)
PROMETHEUS_OPERATOR=v0.80.1
fail() { echo "validate: FAILED: $*" >&2; exit 1; }
cache="${XDG_CACHE_HOME:-$HOME/.cache}/animal-store"

if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH="$PATH:/usr/local/go/bin"
fi
command -v go >/dev/null 2>&1 || fail "Go is needed to build kubeconform and fetch the Prometheus Operator's CRDs"

kubeconform="$cache/kubeconform-$KUBECONFORM/kubeconform"
if [ ! -x "$kubeconform" ]; then
  echo "kubeconform: building $KUBECONFORM"
  GOBIN="$(dirname "$kubeconform")" go install "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM"
fi

venv="$cache/kubernetes-validate-$VERSION"
if ! "$venv/bin/kubernetes-validate" --version >/dev/null 2>&1; then
  echo "kubernetes-validate: installing $VERSION into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "kubernetes-validate==$VERSION"
fi

module="github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR"
# `go mod download` runs outside any module: in an empty folder of its own, removed on exit.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
crds="$(cd "$scratch" && GOFLAGS=-mod=mod go mod download -json "$module" |
  "$venv/bin/python" -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')/example/prometheus-operator-crd"
[ -d "$crds" ] || fail "no CRDs in $module"

# The schemas as kubeconform reads them, written once per pinned version of their sources.
schemas="$cache/kubeconform-schemas-$VERSION-$PROMETHEUS_OPERATOR"
if [ ! -f "$schemas/.complete" ]; then
  rm -rf "$schemas"
  "$venv/bin/python" - "$schemas" "$crds" "${KUBERNETES_VERSIONS[@]}" <<'PY'
import json, sys, yaml
from pathlib import Path
import kubernetes_validate

out, crds, versions = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
bundled = Path(kubernetes_validate.__file__).parent / "kubernetes-json-schema"

def each_object(schema, change):
    """Calls change on every object in schema, outermost first; returns schema."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            change(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return schema

def local_refs(node):
    """Drops the `$id`s and points `/api/_definitions.json#...` at the file beside."""
    node.pop("$id", None)
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("/api/_definitions.json#"):
        node["$ref"] = ref.removeprefix("/api/")

for version in versions:
    source = bundled / f"v{version}-local-strict"
    if not source.is_dir():
        sys.exit(f"kubernetes-validate has no schemas for Kubernetes {version}")
    target = out / source.name
    target.mkdir(parents=True)
    for path in source.glob("*.json"):
        (target / path.name).write_text(json.dumps(each_object(json.loads(path.read_text()), local_refs)))

def strict(node):
    """No field the CRD does not name, as kubectl's strict field validation refuses them."""
    if "properties" in node and not node.get("x-kubernetes-preserve-unknown-fields"):
        node.setdefault("additionalProperties", False)

# The CRDs hold enum values such as `=`, which YAML 1.1 reads as a tag PyYAML has no reader for.
yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", lambda loader, node: loader.construct_scalar(node))
for path in crds.glob("*.yaml"):
    crd = yaml.safe_load(path.read_text())
    group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"].lower()
    for version in crd["spec"]["versions"]:
        schema = each_object(version["schema"]["openAPIV3Schema"], strict)
        # metadata is the API server's ObjectMeta, not described by the CRD.
        schema["properties"]["metadata"] = {"type": "object"}
        target = out / group / f"{kind}_{version['name']}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(schema))
(out / ".complete").touch()
PY
fi

for version in "${KUBERNETES_VERSIONS[@]}"; do
  echo "kubeconform $KUBECONFORM: Kubernetes $version"
  "$kubeconform" -strict -summary -kubernetes-version "$version" \
    -schema-location "$schemas/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
    -schema-location "$schemas/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json" \
    "$here"/*.yaml || fail "the manifests are not valid for Kubernetes $version"
done
