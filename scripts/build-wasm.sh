#!/usr/bin/env bash
# Builds the wasm facade into web/src/engine/pkg (gitignored). `--mode no-install` stops
# wasm-pack from downloading tools: it uses the wasm-bindgen that scripts/setup.sh built and
# the wasm-opt of the npm package binaryen (on PATH inside npm scripts, added here too).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
profile="${1:---release}"
wasm-pack --log-level error build core-wasm/wasm --target web "$profile" --mode no-install \
  --out-dir ../../web/src/engine/pkg --out-name ftl_wasm
