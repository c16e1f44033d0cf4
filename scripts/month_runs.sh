#!/bin/bash
# Replay months through `wave bench month` one after another (one queue; run two queues at most
# on the shared machine), each with a fresh DATA_DIR, under nice, writing OUT/TAG-<month>.json
# with every miss (scripts/truths_causes.py reads them). Round twenty-seven (h/truths26):
#   OUT=/tmp/truths26 TAG=base NEO4J_URI=bolt://127.0.0.1:17622 scripts/month_runs.sh A tuning_26 tuning_24 ...
# ALSO="--also-config name:field=value" asks every question again with those recall settings
# over the same records (round thirty, h/now30).
set -u
cd "$(dirname "$0")/.."
q=$1; shift
OUT=${OUT:-/tmp/truths26}; TAG=${TAG:-base}
mkdir -p "$OUT"
for m in "$@"; do
  d=$OUT/data-$TAG-$m-$$; rm -rf "$d"
  PYTHONPATH=$PWD HF_HUB_OFFLINE=1 DATA_DIR=$d NEO4J_URI=${NEO4J_URI:-bolt://127.0.0.1:17622} \
    nice -n 10 /work/main/.venv/bin/wave bench month --data "bench/data/month/$m.json" --misses ${ALSO:-} \
    --json --out "$OUT/$TAG-$m.json" > "$OUT/$TAG-$m.log" 2>&1
  echo "$m done $(date -u +%T) rc=$?" >> "$OUT/queue-$TAG-$q.log"
  rm -rf "$d"
done
