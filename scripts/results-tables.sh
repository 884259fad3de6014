#!/usr/bin/env bash
# Regenerates docs/results/generated/*.md (the paper-beside-ours tables of each paper
# experiment) from the release CLI, so the pages follow the engine after every merge:
#   bash scripts/results-tables.sh            (builds the release CLI if it is missing)
#   FTL=path/to/ftl bash scripts/results-tables.sh
# The hand-written pages (docs/results/<experiment>.md) explain the differences.
set -euo pipefail
cd "$(dirname "$0")/.."
ftl="${FTL:-core-wasm/target/release/ftl}"
if [ ! -x "$ftl" ]; then
  cargo build --release --manifest-path core-wasm/Cargo.toml -p ftl-cli
fi
mkdir -p docs/results/generated
for e in shin-fig-3 shin-prefill-share treeftl-figs-4-5 hcftl-figs-4-5 hcftl-long-run \
  mnftl-figs-3-8-3-10 rftl-tables-4-4-4-6 dac-tables-2-4-2-5 bang-fig-metadata; do
  echo "ftl sweep --experiment $e --markdown" >&2
  "$ftl" sweep --experiment "$e" --markdown > "docs/results/generated/$e.md"
done
