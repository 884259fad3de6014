#!/usr/bin/env bash
# Every test layer, in order; the first failure stops the run with a non-zero exit.
# Expects scripts/setup.sh --browser to have run (npm test does that first).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
MANIFEST=core-wasm/Cargo.toml

step() { printf '\n\033[1;35m==> %s\033[0m\n' "$*"; }

step "cargo fmt --check"
cargo fmt --manifest-path "$MANIFEST" --all -- --check

step "cargo clippy -D warnings"
cargo clippy --manifest-path "$MANIFEST" --workspace --all-targets -- -D warnings

step "cargo doc -D warnings (the engine's docs hold the recipe for adding a scheme)"
RUSTDOCFLAGS="-D warnings" cargo doc --manifest-path "$MANIFEST" --workspace --no-deps --quiet

step "cargo test (engine, wasm facade, CLI)"
cargo test --manifest-path "$MANIFEST" --workspace

step "wasm build"
bash scripts/build-wasm.sh

step "prettier --check (TypeScript format, .prettierrc.json)"
npm run --silent format:check || {
  echo "The files listed above are not formatted as .prettierrc.json says: npm run format rewrites them." >&2
  exit 1
}

step "web/src folders form floors (no import circle between them)"
node scripts/folder-circles.mjs

step "TypeScript typecheck"
tsc --noEmit -p .

step "Vitest (includes the real wasm build in Node)"
vitest run

step "Playwright e2e (production build in /usr/bin/chromium)"
playwright test

step "all tests passed"
