#!/usr/bin/env bash
# Builds the repository's Dockerfile with Debian's buildah (no Docker engine: vfs storage, chroot
# isolation), starts the image on 127.0.0.1 and runs the conformance kit against it (--strict).
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
kit="$root/packages/conformance/bin/animal-store-conformance.js"
[ -f "$root/packages/conformance/dist/cli.js" ] || fail "the kit is not built: run pnpm build first"

buildah=(buildah --storage-driver vfs)
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
base_ref="localhost/animal-store-base:node-$node_version"
version="$(node -p "require('$root/apps/api/package.json').version")"
revision="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
image="localhost/animal-store-api:test"
work="$(mktemp -d)"
containers=()
run_pid=""
cleanup() {
  [ -z "$run_pid" ] || kill "$run_pid" 2>/dev/null || true
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

# 3. The repository's Dockerfile, as is.
say "building $image from $root/Dockerfile on $base_ref"
"${buildah[@]}" bud --isolation chroot --quiet \
  --build-arg "BASE_IMAGE=$base_ref" --build-arg "VERSION=$version" --build-arg "REVISION=$revision" \
  -t "$image" -f "$root/Dockerfile" "$root" >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log" >&2; fail "the build failed"; }

# 4. What the image says about itself.
inspect() { "${buildah[@]}" inspect --type image --format "$1" "$image"; }
[ "$(inspect '{{index .OCIv1.Config.Labels "org.opencontainers.image.version"}}')" = "$version" ] ||
  fail "label org.opencontainers.image.version is not $version"
[ "$(inspect '{{index .OCIv1.Config.Labels "org.opencontainers.image.revision"}}')" = "$revision" ] ||
  fail "label org.opencontainers.image.revision is not $revision"
user="$(inspect '{{.OCIv1.Config.User}}')"
case "$user" in "" | 0 | 0:* | root | root:*) fail "the image runs as root ($user)" ;; esac
inspect '{{.OCIv1.Config.Env}}' | grep -q 'HOST=0.0.0.0' || fail "HOST=0.0.0.0 is not set"
c="$("${buildah[@]}" from "$image")"; containers+=("$c")
mnt="$("${buildah[@]}" mount "$c")"
[ ! -e "$mnt/app/node_modules/typescript" ] && [ ! -e "$mnt/app/node_modules/vitest" ] ||
  fail "development dependencies are in the image"
[ -f "$mnt/app/dist/main.js" ] || fail "/app/dist/main.js is missing"
# Only what runs: no source map, declaration or TypeScript source, and no package manager.
leftovers="$(find "$mnt/app" -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \) | head -5)"
[ -z "$leftovers" ] || fail "source maps or TypeScript files are in the image: ${leftovers//$mnt/}"
for tool in npm npx corepack yarn; do
  found="$(find "$mnt/usr" "$mnt/opt" "$mnt/bin" -name "$tool" 2>/dev/null | head -1)"
  [ -z "$found" ] || fail "$tool is in the image: ${found#"$mnt"}"
done
"${buildah[@]}" umount "$c" >/dev/null
said="$("${buildah[@]}" run --isolation chroot "$c" -- node dist/main.js --version)"
[ "$said" = "animal-store-api $version (revision $revision, Node.js $node_version)" ] ||
  fail "--version said: $said"
say "labels, user $user, --version: $said"

# 5. Started (on 127.0.0.1: buildah's chroot shares this machine's network) and held to the kit.
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
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
say "passed"
