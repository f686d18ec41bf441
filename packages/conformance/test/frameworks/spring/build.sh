#!/usr/bin/env bash
# Builds the Spring app into OUT_DIR/app.jar (run it as: API_KEY=... java -jar OUT_DIR/app.jar).
# Maven's local repository lives under ${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/m2, so the
# first build downloads Spring Boot once and later builds reuse it.
# Usage: build.sh OUT_DIR
set -euo pipefail
out=${1:?usage: build.sh OUT_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/m2
mkdir -p "$out" "$repo"
out=$(cd "$out" && pwd)
# The build's own output goes to a scratch folder, so the source folder stays clean.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Maven's output (errors included) goes to stderr: stdout carries the command line alone.
mvn -B -q -Dstyle.color=never -f "$here/pom.xml" -Dmaven.repo.local="$repo" -DskipTests \
  "-DbuildDirectory=$work" package >&2
cp "$work/app.jar" "$out/app.jar"
echo "java -jar $out/app.jar"
