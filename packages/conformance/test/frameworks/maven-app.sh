#!/usr/bin/env bash
# Builds the Maven app in frameworks/APP (spring, javalin, vertx) into OUT_DIR/app.jar (run it as:
# API_KEY=... java -jar OUT_DIR/app.jar). Maven's local repository lives under
# ${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/m2, so the first build downloads the app's jars
# once and later builds reuse them.
# Usage: maven-app.sh APP OUT_DIR
set -euo pipefail
app=${1:?usage: maven-app.sh APP OUT_DIR}
out=${2:?usage: maven-app.sh APP OUT_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/$app" && pwd)
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
