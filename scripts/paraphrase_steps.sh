#!/usr/bin/env bash
# Issue 31, round twenty-eight (h/recall25): which step after the candidates moves plain e5's
# rank-1 answer down on the memory authors' paraphrase questions. Each set once, Wave's own
# search beside each step switched off over the same records (--also-config), details kept:
#   OUT=/tmp/r25 NEO4J_URI=bolt://127.0.0.1:17627 scripts/paraphrase_steps.sh memory-ru-27 ...
# then: python scripts/paraphrase_steps.py $OUT
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${OUT:-/tmp/r25}"
mkdir -p "$OUT"
for set in "$@"; do
  DATA_DIR="$(mktemp -d /tmp/r25-"$set"-XXXX)" PYTHONPATH="$ROOT" HF_HUB_OFFLINE=1 \
    nice -n 10 /work/main/.venv/bin/wave bench memory --data "$ROOT/bench/data/$set" --json \
    --details "$OUT/$set.details.json" \
    --also-config nonewer:newer_first=none \
    --also-config fusion:ranker=fusion \
    --also-config noabout:entity_first=false \
    --also-config noattr:attribute_first=false \
    --also-config noreplaced:replaced_first=false \
    --also-config nomap:query_adapter=off \
    --also-config e5order:e5_order=on \
    --also-config nodecay:decay_strength=0 \
    > "$OUT/$set.json" 2> "$OUT/$set.err"
done
