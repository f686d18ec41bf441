#!/usr/bin/env bash
# Rehearses the release of the image and checks it: the release's own step
# (tooling/release/image/release-image.sh) builds the repository's Dockerfile with Debian's buildah
# (no Docker engine: vfs storage, chroot isolation), adds its SBOM and pushes it to a local registry
# (Debian's docker-registry on 127.0.0.1); the image is pulled back from there, checked (labels,
# SBOM, size at most 250 MB, no package manager), started on 127.0.0.1 and held to the conformance
# kit (--strict). A second release step then finds the version pushed and does nothing.
# No base image can be pulled here, so the base is a stand-in: Debian bookworm from debootstrap
# (cached under ~/.cache/animal-store/image-base) with the `node` first on PATH, which must be the
# Dockerfile's Node major (24; .ci/run puts npm's Node 24 first), this machine's npm and its
# certificate authorities. Fails loudly on the first error. Needs root, buildah, debootstrap, and
# `pnpm build` done (the kit's CLI).
# .ci/run starts it beside the main test command.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
say() { echo "image: $*"; }
fail() { echo "image: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap and buildah's chroot isolation)"
command -v buildah >/dev/null || fail "buildah is not installed (Debian: apt-get install buildah)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (Debian: apt-get install debootstrap)"
command -v docker-registry >/dev/null || fail "docker-registry is not installed (Debian: apt-get install docker-registry)"
# The image's bound, uncompressed (what `buildah images` shows).
MAX_MB=250
kit="$root/packages/conformance/bin/animal-store-conformance.js"
[ -f "$root/packages/conformance/dist/cli.js" ] || fail "the kit is not built: run pnpm build first"

buildah=(buildah --storage-driver vfs)
# For the release step, which runs plain buildah.
export STORAGE_DRIVER=vfs BUILDAH_ISOLATION=chroot
cache="${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/image-base"
node_bin="$(readlink -f "$(command -v node)")"
node_version="$("$node_bin" --version)"
# The Dockerfile's default base carries Node 24: the stand-in carries the same major.
case "$node_version" in
  v24.*) ;;
  *) fail "the stand-in base needs Node 24 first on PATH (found $node_version at $node_bin); .ci/run installs it" ;;
esac
# npm's package folder (npm is a link to its bin/npm-cli.js).
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"
base_tar="$cache/debian-bookworm.tar"
base_ref="localhost/animal-store-base:node-$node_version-slim"
version="$(node -p "require('$root/apps/api/package.json').version")"
revision="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
work="$(mktemp -d)"
containers=()
run_pid=""
registry_pid=""
cleanup() {
  [ -z "$run_pid" ] || kill "$run_pid" 2>/dev/null || true
  [ -z "$registry_pid" ] || kill "$registry_pid" 2>/dev/null || true
  [ -z "${image:-}" ] || "${buildah[@]}" rmi --force "$image" >/dev/null 2>&1 || true
  for c in "${containers[@]}"; do "${buildah[@]}" rm "$c" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# 1. Debian, once: minbase plus what this machine's node links against (libstdc++).
if [ ! -f "$base_tar" ]; then
  say "debootstrap of Debian bookworm into the cache (once)"
  mkdir -p "$cache"
  debootstrap --variant=minbase --include=libstdc++6,ca-certificates bookworm "$work/rootfs" \
    http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; fail "debootstrap failed"; }
  tar -C "$work/rootfs" -cf "$base_tar.tmp" . && mv "$base_tar.tmp" "$base_tar"
  rm -rf "$work/rootfs"
fi

# 2. The stand-in base: that Debian with this machine's Node.js and npm on PATH.
if ! "${buildah[@]}" inspect --type image "$base_ref" >/dev/null 2>&1; then
  say "making $base_ref"
  c="$("${buildah[@]}" from scratch)"; containers+=("$c")
  "${buildah[@]}" add --quiet "$c" "$base_tar" /
  # Slimmed as Debian's -slim images are: no downloaded packages, package lists, docs, manuals or
  # translations.
  "${buildah[@]}" run --isolation chroot "$c" -- sh -c 'rm -rf /var/cache/apt/archives/*.deb \
    /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/* /usr/share/info/* /usr/share/locale/*' 
  "${buildah[@]}" copy --quiet "$c" "$node_bin" /usr/local/bin/node
  "${buildah[@]}" copy --quiet "$c" "$npm_dir" /usr/local/lib/node_modules/npm
  "${buildah[@]}" run --isolation chroot "$c" -- \
    ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm
  "${buildah[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$c"
  # This machine's certificate authorities, as a base image here would have them: the build's
  # npm and pnpm reach the registry through whatever this machine trusts.
  "${buildah[@]}" copy --quiet "$c" /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
  "${buildah[@]}" config --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt "$c"
  "${buildah[@]}" commit --quiet "$c" "$base_ref" >/dev/null
fi

free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# 3. A registry on 127.0.0.1, empty, its storage in the work folder.
registry_port="$(free_port)"
cat >"$work/registry.yml" <<YAML
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: $work/registry
http:
  addr: 127.0.0.1:$registry_port
YAML
docker-registry serve "$work/registry.yml" >"$work/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$registry_port/v2/" >/dev/null && break
  kill -0 "$registry_pid" 2>/dev/null || { cat "$work/registry.log" >&2; fail "docker-registry did not start"; }
  sleep 0.1
done
curl -sf "http://127.0.0.1:$registry_port/v2/" >/dev/null || fail "docker-registry did not answer in 60 s"

# 4. The release's image step, as the release workflow runs it, pushing to that registry.
repository="127.0.0.1:$registry_port/animal-store-api"
image="$repository:$version"
say "release step: building $image from $root/Dockerfile on $base_ref, pushing it"
pushed="$(IMAGE="$repository" BASE_IMAGE="$base_ref" TLS_VERIFY=false OUT_DIR="$work/out" \
  bash "$root/tooling/release/image/release-image.sh" | tail -1)"
case "$pushed" in "$image@sha256:"*) ;; *) fail "the release step printed no pushed digest: $pushed" ;; esac
[ -f "$work/out/animal-store-api-$version.cdx.json" ] || fail "the release step wrote no SBOM file"
# Pulled back from the registry (what a cluster would run), the digest the push reported.
"${buildah[@]}" rmi --force "$image" >/dev/null
"${buildah[@]}" pull --quiet --tls-verify=false "docker://$image" >/dev/null ||
  fail "could not pull $image back"
digest="$("${buildah[@]}" inspect --type image --format '{{.FromImageDigest}}' "$image")"
[ "$image@$digest" = "$pushed" ] || fail "pulled $image@$digest, pushed $pushed"
say "pushed and pulled back: $pushed"

# 5. What the image says about itself.
inspect() { "${buildah[@]}" inspect --type image --format "$1" "$image"; }
[ "$(inspect '{{index .OCIv1.Config.Labels "org.opencontainers.image.version"}}')" = "$version" ] ||
  fail "label org.opencontainers.image.version is not $version"
[ "$(inspect '{{index .OCIv1.Config.Labels "org.opencontainers.image.revision"}}')" = "$revision" ] ||
  fail "label org.opencontainers.image.revision is not $revision"
source="$(inspect '{{index .OCIv1.Config.Labels "org.opencontainers.image.source"}}')"
[[ "$source" == https://* ]] || fail "label org.opencontainers.image.source is not a URL: $source"
# buildah gives the size in decimal units, three digits ("239 MB").
size="$("${buildah[@]}" images --format '{{.Size}}' "$image")"
mb="$(node -e "
const [n, unit] = process.argv[1].split(' ');
const per = { B: 1e-6, kB: 1e-3, MB: 1, GB: 1e3 }[unit];
if (per === undefined || !(Number(n) >= 0)) process.exit(1);
console.log(Math.ceil(Number(n) * per));
" "$size")" || fail "cannot read the image's size: $size"
say "size: $mb MB (uncompressed, as buildah counts it; the bound is $MAX_MB MB)"
[ "$mb" -le "$MAX_MB" ] || fail "the image is $mb MB, over $MAX_MB MB"
user="$(inspect '{{.OCIv1.Config.User}}')"
case "$user" in "" | 0 | 0:* | root | root:*) fail "the image runs as root ($user)" ;; esac
inspect '{{.OCIv1.Config.Env}}' | grep -q 'HOST=0.0.0.0' || fail "HOST=0.0.0.0 is not set"
c="$("${buildah[@]}" from "$image")"; containers+=("$c")
mnt="$("${buildah[@]}" mount "$c")"
[ ! -e "$mnt/app/node_modules/typescript" ] && [ ! -e "$mnt/app/node_modules/vitest" ] ||
  fail "development dependencies are in the image"
[ -f "$mnt/app/dist/main.js" ] || fail "/app/dist/main.js is missing"
# The SBOM names the image's own packages.
sbom="$mnt/usr/share/doc/animal-store-api/sbom.cdx.json"
[ -f "$sbom" ] || fail "the SBOM is not in the image"
node -e "
const bom = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
const names = new Set(bom.components.map((c) => (c.group ? c.group + '/' : '') + c.name));
const missing = ['koa', 'mongodb', 'pino', 'prom-client', '@animal-store/contract'].filter((n) => !names.has(n));
if (bom.bomFormat !== 'CycloneDX' || missing.length > 0) { console.error('missing from the SBOM:', missing); process.exit(1); }
console.log('image: SBOM: CycloneDX ' + bom.specVersion + ', ' + bom.components.length + ' components');
" "$sbom" || fail "the SBOM does not list the image's packages"
# Only what runs: no source map, declaration or TypeScript source, and no package manager.
leftovers="$(find "$mnt/app" -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) | head -5)"
[ -z "$leftovers" ] || fail "source maps or TypeScript files are in the image: ${leftovers//$mnt/}"
for tool in npm npx corepack yarn yarnpkg; do
  found="$(find "$mnt/usr" "$mnt/opt" "$mnt/bin" -name "$tool" 2>/dev/null | head -1)"
  [ -z "$found" ] || fail "$tool is in the image: ${found#"$mnt"}"
done
"${buildah[@]}" umount "$c" >/dev/null
said="$("${buildah[@]}" run --isolation chroot "$c" -- node dist/main.js --version)"
[ "$said" = "animal-store-api $version (revision $revision, Node.js $node_version)" ] ||
  fail "--version said: $said"
say "labels, user $user, --version: $said"

# 6. Started (on 127.0.0.1: buildah's chroot shares this machine's network) and held to the kit.
port="$(free_port)"
key="img_$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
"${buildah[@]}" run --isolation chroot --env HOST=127.0.0.1 --env "PORT=$port" \
  --env "API_KEYS=$key" --env RATE_LIMIT_REQUESTS=0 "$c" -- node dist/main.js >"$work/api.log" 2>&1 &
run_pid=$!
for _ in $(seq 1 1200); do
  grep -q '"msg":"listening"' "$work/api.log" && break
  kill -0 "$run_pid" 2>/dev/null || { cat "$work/api.log" >&2; fail "the image's API did not start"; }
  sleep 0.1
done
grep -q '"msg":"listening"' "$work/api.log" || fail "the image's API printed no listening line in 120 s"
grep -q "\"version\":\"$version\"" "$work/api.log" || fail "the log lines do not carry the version"
say "API up on 127.0.0.1:$port; running the conformance kit"
node "$kit" --base-url "http://127.0.0.1:$port/v1" --api-key "$key" --strict ||
  { tail -20 "$work/api.log" >&2; fail "the conformance kit failed against the image"; }
kill -TERM "$run_pid"
wait "$run_pid" || true
run_pid=""

# 7. The release step again: the version is in the registry, nothing is built or pushed.
again="$(IMAGE="$repository" BASE_IMAGE="$base_ref" TLS_VERIFY=false OUT_DIR="$work/out" \
  bash "$root/tooling/release/image/release-image.sh" 2>"$work/again.log" | tail -1)"
grep -q "in the registry already" "$work/again.log" || { cat "$work/again.log" >&2; fail "the second release step did not find the version pushed"; }
[ "$again" = "$pushed" ] || fail "the second release step names $again, not $pushed"
say "passed"
