#!/usr/bin/env bash
# The image step of a release (.github/workflows/release.yml; deploy/image/test.sh rehearses it
# against a local registry): builds the repository's Dockerfile with buildah, tagged with the API's
# version (apps/api/package.json) and labelled with it, the commit and the source
# (org.opencontainers.image.version, .revision, .source); adds its SBOM; pushes IMAGE:<version>.
# A version already in the registry is left as it is and nothing is built: a rerun after a failure
# is safe, as `changeset publish` is.
#
# The SBOM is CycloneDX JSON of the Node packages in /app, made by @cyclonedx/cyclonedx-npm (pinned
# in tooling/release/sbom, installed with npm ci into the cache), in the image at
# /usr/share/doc/animal-store-api/sbom.cdx.json (where image scanners such as syft find it) and
# written to OUT_DIR.
#
# Environment:
#   IMAGE       where it goes, no tag: ghcr.io/OWNER/animal-store-api; 127.0.0.1:PORT/animal-store-api
#   REVISION    the commit, org.opencontainers.image.revision (default: git rev-parse HEAD)
#   SOURCE      org.opencontainers.image.source (default: the Dockerfile's)
#   BASE_IMAGE  the Dockerfile's build argument (default: the Dockerfile's)
#   TLS_VERIFY  false for a registry on plain HTTP (the rehearsal's); default true
#   OUT_DIR     where the SBOM file goes (default: the current folder)
#   STORAGE_DRIVER    buildah's storage driver (vfs where overlay cannot run); default buildah's
#   BUILDAH_ISOLATION how buildah runs the build's RUN steps (chroot without user namespaces)
#   and a registry login done beforehand (buildah login).
# Prints the pushed reference, IMAGE:VERSION@sha256:..., as its last line. Needs buildah, node, npm.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
say() { echo "release-image: $*" >&2; }
fail() { echo "release-image: FAILED: $*" >&2; exit 1; }

[ -n "${IMAGE:-}" ] || fail "IMAGE is not set (the repository to push to, without a tag)"
command -v buildah >/dev/null || fail "buildah is not installed (Debian: apt-get install buildah)"
buildah=(buildah ${STORAGE_DRIVER:+--storage-driver "$STORAGE_DRIVER"})
version="$(node -p "require('$root/apps/api/package.json').version")"
revision="${REVISION:-$(git -C "$root" rev-parse HEAD)}"
ref="$IMAGE:$version"
tls="--tls-verify=${TLS_VERIFY:-true}"
out="${OUT_DIR:-$PWD}"
work="$(mktemp -d)"
container=""
cleanup() {
  [ -z "$container" ] || "${buildah[@]}" rm "$container" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

if "${buildah[@]}" pull --quiet "$tls" "docker://$ref" >"$work/pulled" 2>"$work/pull.log"; then
  say "$ref is in the registry already: nothing to do"
  echo "$ref@$("${buildah[@]}" inspect --type image --format '{{.FromImageDigest}}' "$ref")"
  exit 0
fi

args=(--build-arg "VERSION=$version" --build-arg "REVISION=$revision")
[ -z "${SOURCE:-}" ] || args+=(--build-arg "SOURCE=$SOURCE")
[ -z "${BASE_IMAGE:-}" ] || args+=(--build-arg "BASE_IMAGE=$BASE_IMAGE")
say "building $ref (revision $revision)"
"${buildah[@]}" bud --quiet ${BUILDAH_ISOLATION:+--isolation "$BUILDAH_ISOLATION"} "${args[@]}" -t "$ref-build" -f "$root/Dockerfile" "$root" >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log" >&2; fail "the build failed"; }

# The SBOM, from the packages in the built image's /app.
lock="$root/tooling/release/sbom/package-lock.json"
cyclonedx="${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/cyclonedx-npm-$(sha256sum "$lock" | cut -c1-12)"
if [ ! -x "$cyclonedx/node_modules/.bin/cyclonedx-npm" ]; then
  say "installing @cyclonedx/cyclonedx-npm into $cyclonedx"
  rm -rf "$cyclonedx" && mkdir -p "$cyclonedx"
  cp "$root/tooling/release/sbom/package.json" "$lock" "$cyclonedx/"
  # No install scripts: they only compile libxml for XML validation, and the SBOM is JSON.
  npm ci --prefix "$cyclonedx" --ignore-scripts --no-audit --no-fund --loglevel=error >&2
fi
container="$("${buildah[@]}" from --pull-never "$ref-build")"
mnt="$("${buildah[@]}" mount "$container")"
sbom="$out/animal-store-api-$version.cdx.json"
mkdir -p "$out"
# npm ls, which it reads, reports the development dependencies a production install leaves out.
(cd "$mnt/app" && "$cyclonedx/node_modules/.bin/cyclonedx-npm" --omit dev --ignore-npm-errors \
  --mc-type application --output-format JSON --output-file "$sbom") >"$work/sbom.log" 2>&1 ||
  { tail -20 "$work/sbom.log" >&2; fail "the SBOM could not be made"; }
"${buildah[@]}" umount "$container" >/dev/null
"${buildah[@]}" copy --quiet "$container" "$sbom" /usr/share/doc/animal-store-api/sbom.cdx.json
"${buildah[@]}" commit --quiet "$container" "$ref" >/dev/null
"${buildah[@]}" rm "$container" >/dev/null
container=""
"${buildah[@]}" rmi "$ref-build" >/dev/null

say "pushing $ref"
"${buildah[@]}" push --quiet "$tls" --digestfile "$work/digest" "$ref" "docker://$ref" >&2
echo "$ref@$(cat "$work/digest")"
