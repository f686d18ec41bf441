#!/usr/bin/env bash
# Builds the Maven app in frameworks/APP (spring, javalin, vertx, jersey, ktor, helidon, pekko) into
# OUT_DIR/app.jar, and prints the command that runs it (API_KEY=... JAVA -jar OUT_DIR/app.jar),
# with the java of the JDK that built it. Maven's local repository lives under
# ${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/m2, so the first build downloads the app's jars once
# and later builds reuse them. Each jar built is kept there too, named by a hash of what it is built
# from (this script, the app's folder, the JDK's version), as Go's build cache keeps a build: the
# test command and each other Node major's run build an app once between them.
# Usage: maven-app.sh APP OUT_DIR
set -euo pipefail
app=${1:?usage: maven-app.sh APP OUT_DIR}
out=${2:?usage: maven-app.sh APP OUT_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/$app" && pwd)
repo=${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/m2
mkdir -p "$out" "$repo"
out=$(cd "$out" && pwd)
# The app's pom names the Java release it compiles for (17 when it names none). The JDK on PATH
# builds and runs it when it is that new; else the newest JDK under /usr/lib/jvm that is (Helidon 4
# needs 21, and the machines' default JDK is 17; they carry a Temurin JDK beside it).
release=$(sed -n 's:.*<maven.compiler.release>\([0-9]*\)</maven.compiler.release>.*:\1:p' "$here/pom.xml")
release=${release:-17}
# A JDK's major version from its release file, 0 when it has none.
jdk_major() {
  local major
  major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true)
  echo "${major:-0}"
}
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
if [ "$(jdk_major "$jdk")" -lt "$release" ]; then
  jdk=
  newest=0
  for home in /usr/lib/jvm/*/; do
    major=$(jdk_major "$home")
    if [ -x "$home/bin/javac" ] && [ "$major" -ge "$release" ] && [ "$major" -gt "$newest" ]; then
      jdk=${home%/}
      newest=$major
    fi
  done
  if [ -z "$jdk" ]; then
    echo "maven-app.sh: the $app app needs a JDK of Java $release or newer, on PATH or under /usr/lib/jvm" >&2
    exit 1
  fi
fi
export JAVA_HOME=$jdk PATH=$jdk/bin:$PATH
jars=${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/maven-apps
mkdir -p "$jars"
script=$(sha256sum "${BASH_SOURCE[0]}" | cut -d' ' -f1)
hash=$(
  cd "$here"
  {
    echo "$script"
    find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    javac -version 2>&1
  } | sha256sum | cut -c1-16
)
jar="$jars/$app-$hash.jar"
if [ ! -f "$jar" ]; then
  # The build's own output goes to a scratch folder, so the source folder stays clean.
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # Maven's output (errors included) goes to stderr: stdout carries the command line alone.
  mvn -B -q -Dstyle.color=never -f "$here/pom.xml" -Dmaven.repo.local="$repo" -DskipTests \
    "-DbuildDirectory=$work" package >&2
  # Renamed into place whole: a build beside this one reads either no jar or all of it.
  cp "$work/app.jar" "$jar.$$"
  mv -f "$jar.$$" "$jar"
  # The app's jars of earlier sources go: the cache keeps one jar an app.
  find "$jars" -name "$app-*.jar" ! -name "$app-$hash.jar" -delete
fi
cp "$jar" "$out/app.jar"
echo "$jdk/bin/java -jar $out/app.jar"
