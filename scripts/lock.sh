#!/usr/bin/env bash
# Rewrite requirements/*.txt (exact versions + SHA-256 hashes, every platform) from pyproject.toml.
# Needs uv (`pip install uv`). `make` installs from these files, never from the ranges in pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/../requirements"
lock() {
  local name=$1; shift
  uv pip compile ../pyproject.toml --universal --python-version 3.11 --generate-hashes --no-header \
    -c constraints.in "$@" -o "$name.txt" -q
}
lock site
lock test --extra test --extra serve
lock serve --extra serve
lock bench --extra bench
