#!/usr/bin/env bash
# Installs whatever `npm start` / `npm test` need and is missing. Idempotent: when all is in
# place it only checks versions (about a second). Nothing here downloads a binary from
# outside the package registries: wasm-bindgen and wasm-pack are built by cargo, wasm-opt
# comes from the npm package `binaryen`, Chromium from Debian.
#
#   scripts/setup.sh            npm dependencies, wasm32 target, wasm-bindgen-cli, wasm-pack
#   scripts/setup.sh --browser  the same, plus Debian's chromium for Playwright
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# The CLI must equal the wasm-bindgen crate version pinned in core-wasm/wasm/Cargo.toml.
WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' core-wasm/wasm/Cargo.toml)
WASM_PACK_VERSION=0.15.1

say() { printf '\033[1;36m[setup]\033[0m %s\n' "$*"; }
need() { command -v "$1" >/dev/null 2>&1 || { echo "[setup] '$1' is required but not installed: $2" >&2; exit 1; }; }

need node "install Node.js 20 or newer"
need npm "install npm"
need cargo "install Rust with rustup (https://rustup.rs)"
need rustup "install Rust with rustup (https://rustup.rs)"

# npm dependencies: reinstall only when package-lock.json changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding Rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

installed_version() { "$1" --version 2>/dev/null | awk '{print $2}'; }

if [ "$(installed_version wasm-bindgen)" != "$WASM_BINDGEN_VERSION" ]; then
  say "building wasm-bindgen-cli $WASM_BINDGEN_VERSION with cargo (first run only, a few minutes)"
  cargo install --locked --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

if [ "$(installed_version wasm-pack)" != "$WASM_PACK_VERSION" ]; then
  say "building wasm-pack $WASM_PACK_VERSION with cargo (first run only, a few minutes)"
  cargo install --locked --force wasm-pack --version "$WASM_PACK_VERSION"
fi

if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
  say "installing Debian's chromium for the browser tests"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium
fi
say "toolchain ready"
