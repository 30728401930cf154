#!/usr/bin/env bash
# How many random opening moves make self-play games of a deterministic player distinct:
# for each ruleset and number of opening moves, plays GAMES games of ai:4 against itself and
# prints the distinct games and the main figures (to see that more openings do not move
# them). The lab's default (DEFAULT_OPENING_MOVES) was chosen from this table.
# Usage: scripts/opening-moves.sh [GAMES] [RULESETS...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
games="${1:-20}"
shift || true
rulesets=("${@:-acedrex shatranj cuatro-tiempos}")
cargo build --release -q -p libro
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for rs in ${rulesets[@]}; do
  for k in 1 2 4 8; do
    target/release/libro evaluate "$rs" --players ai:4 --games "$games" --seed 11 \
      --opening-moves "$k" --max-plies 2000 --results "$work/$rs-$k.jsonl" --fresh \
      --json "$work/$rs-$k.json" >/dev/null
    python3 - "$work/$rs-$k.json" "$rs" "$k" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["readings"][0]
print(f"{sys.argv[2]:15} openings {sys.argv[3]}: distinct {r['distinct']}/{r['games']}, "
      f"draws {100*r['draws']['value']:.0f}%, first seat {100*r['seats'][0]['score']['value']:.0f}%, "
      f"plies {r['plies']['mean']['value']:.0f}")
PY
  done
done
