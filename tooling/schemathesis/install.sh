#!/usr/bin/env bash
# Prints the path of the schemathesis command, with everything it imports pinned in
# requirements.txt and installed into a venv in the cache by the repository's one venv installer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../test-support/python-venv.sh" "$here" schemathesis
