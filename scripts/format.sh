#!/usr/bin/env bash
# The toolchain's `swift format` over every Swift file of the repository, with the settings in
# .swift-format (4 spaces, 120 columns; layout only, no lint rules).
#
#   scripts/format.sh          formats the files in place
#   scripts/format.sh --check  changes nothing; exits non-zero and names each file and line that
#                              is not formatted (scripts/test.sh runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Plugins Sources Tests bench/Package.swift bench/Sources bench/Benchmarks fuzz/strata-fuzz)
case "${1:-}" in
  --check) exec swift format lint --strict --parallel --recursive "${paths[@]}" ;;
  "") exec swift format format --in-place --parallel --recursive "${paths[@]}" ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac
