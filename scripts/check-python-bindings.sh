#!/usr/bin/env bash
# Builds the jsii Python bindings, installs them with their PyPI dependencies into a fresh
# virtualenv and runs every test/bindings/*.py (each prints its own totals and exits non-zero on
# failure). Needs `npx projen compile` first.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
npx jsii-pacmak --targets python -o "$work/dist" > "$work/pacmak.log" 2>&1 || { cat "$work/pacmak.log"; exit 1; }
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$work"/dist/python/*.whl
# The jsii runtime starts the JavaScript kernel with `node`: use the project's Node 24.
for test in test/bindings/*.py; do
  PATH="$PWD/node_modules/.bin:$PATH" "$work/venv/bin/python" "$test"
done
