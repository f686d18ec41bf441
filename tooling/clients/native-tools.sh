#!/usr/bin/env bash
# Builds the pinned Go and Rust client generators into the cache on first use, as .ci/run does
# for actionlint: oapi-codegen and staticcheck (Go module proxy, `go install`) and
# cargo-progenitor (crates.io, `cargo install --locked`). `native-tools.sh go` makes the Go
# ones (Go >= 1.26 needed), `native-tools.sh rust` the Rust one (cargo needed), with no argument
# both. Prints `name=path` for each tool, and for Rust the Cargo target directory the scenario
# builds in, so that its dependencies are compiled once.
set -euo pipefail
part="${1:-all}"
OAPI_CODEGEN_VERSION=v2.8.2
STATICCHECK_VERSION=v0.8.2
PROGENITOR_VERSION=0.15.1

cache="${XDG_CACHE_HOME:-$HOME/.cache}/animal-store/clients"
if [ "$part" != rust ]; then
  if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
    export PATH="$PATH:/usr/local/go/bin"
  fi
  command -v go >/dev/null 2>&1 || { echo "clients: Go >= 1.26 is needed (oapi-codegen, staticcheck)" >&2; exit 1; }
  go_bin="$cache/go-oapi-codegen-$OAPI_CODEGEN_VERSION-staticcheck-$STATICCHECK_VERSION"
  if [ ! -x "$go_bin/oapi-codegen" ] || [ ! -x "$go_bin/staticcheck" ]; then
    echo "clients: building oapi-codegen $OAPI_CODEGEN_VERSION and staticcheck $STATICCHECK_VERSION" >&2
    GOBIN="$go_bin" go install "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@$OAPI_CODEGEN_VERSION" >&2
    GOBIN="$go_bin" go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION" >&2
  fi
  echo "go=$(command -v go)"
  echo "oapi-codegen=$go_bin/oapi-codegen"
  echo "staticcheck=$go_bin/staticcheck"
fi

if [ "$part" != go ]; then
  if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$PATH:$HOME/.cargo/bin"
  fi
  command -v cargo >/dev/null 2>&1 || { echo "clients: cargo is needed (progenitor)" >&2; exit 1; }
  progenitor_root="$cache/cargo-progenitor-$PROGENITOR_VERSION"
  if [ ! -x "$progenitor_root/bin/cargo-progenitor" ]; then
    echo "clients: building cargo-progenitor $PROGENITOR_VERSION" >&2
    cargo install --quiet --locked --root "$progenitor_root" cargo-progenitor --version "$PROGENITOR_VERSION" >&2
  fi
  echo "cargo=$(command -v cargo)"
  echo "cargo-progenitor=$progenitor_root/bin/cargo-progenitor"
  echo "cargo-target=$cache/rust-target"
fi
