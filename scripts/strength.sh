#!/usr/bin/env bash
# The strength benchmark (not a test): libro's strongest AI against Fairy-Stockfish, refereed
# by libro (`libro match --b uci:…`), in shatranj and acedrex, at a fixed time per move and at
# a fixed number of nodes per move, against full strength and against its Skill Level steps.
#
# It builds Fairy-Stockfish from ../shared/anchors (a measuring stick beside this checkout;
# nothing of it is committed) into target/fsf, once. Usage:
#
#   scripts/strength.sh [GAMES] [MOVETIME_MS] [NODES]     # defaults: 10 games, 200 ms, 100000
#
# Engines run one game at a time, one thread each; on a loaded machine the fixed-time rows
# move with the load, the fixed-node rows do not. PGNs and the summary go to target/strength/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
games="${1:-10}"
movetime="${2:-200}"
nodes="${3:-100000}"
anchors="${ANCHORS:-$root/../shared/anchors}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
fsf="$target_dir/fsf/fairy-stockfish/src/stockfish"

if [ ! -x "$fsf" ]; then
  [ -f "$anchors/fairy-stockfish-c19b5f6.tar.gz" ] || {
    echo "strength: no Fairy-Stockfish source at $anchors (set ANCHORS=…)" >&2
    exit 2
  }
  mkdir -p "$target_dir/fsf"
  tar xzf "$anchors/fairy-stockfish-c19b5f6.tar.gz" -C "$target_dir/fsf"
  make -C "$target_dir/fsf/fairy-stockfish/src" -j2 build ARCH=x86-64-bmi2 >/dev/null
fi
cargo build --release -p libro
libro="$target_dir/release/libro"
out="$target_dir/strength"
mkdir -p "$out"
summary="$out/summary.md"
{
  echo "# libro ai:8 against Fairy-Stockfish ($(date -u +%F), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
  echo
  echo "| ruleset | pace | opponent | games | W-D-L (libro) | score | Elo |"
  echo "|---|---|---|---|---|---|---|"
} >"$summary"

row() { # ruleset options pace-flag pace-value opponent-label engine-options
  local ruleset="$1" opts="$2" flag="$3" value="$4" label="$5" engine_opts="$6"
  local name="$ruleset-${flag#--}$value-${label// /}"
  # shellcheck disable=SC2086
  "$libro" match "$ruleset" $opts --a ai:8 --b "uci:$fsf,Threads=1,VariantPath=$anchors/variants.ini$engine_opts" \
    "$flag" "$value" --games "$games" --openings 4 --pgn "$out/$name.pgn" --json >"$out/$name.txt"
  local json wdl
  json="$(tail -n 1 "$out/$name.txt")"
  wdl="$(python3 - "$json" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
elo = "unbounded" if r["elo"] is None else f"{r['elo']:+.0f}"
print(f"{r['wins']}-{r['draws']}-{r['losses']}|{100 * r['score']:.0f}%|{elo}")
PY
)"
  IFS='|' read -r w s e <<<"$wdl"
  echo "| $ruleset | $flag $value | $label | $games | $w | $s | $e |" | tee -a "$summary"
}

for ruleset in shatranj acedrex; do
  opts=""
  # variants.ini's acedrex is libro's with the pawn's double step on every first move.
  [ "$ruleset" = acedrex ] && opts="--option pawn_double_step=first-move"
  row "$ruleset" "$opts" --movetime "$movetime" "full strength" ""
  row "$ruleset" "$opts" --nodes "$nodes" "full strength" ""
  for skill in 10 5 3; do
    row "$ruleset" "$opts" --movetime "$movetime" "Skill Level $skill" ",Skill Level=$skill"
  done
done
echo "strength: summary in $summary"
