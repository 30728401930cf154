#!/usr/bin/env bash
# Fits an evaluation network for a two-seat 8x8 ruleset by rounds, as rulesets/shatranj.nnue
# was made (rulesets/README.md). A benchmark tool, not a test: the positions are labelled by
# the Fairy-Stockfish that scripts/strength.sh builds from ../shared/anchors.
#
#   scripts/train-network.sh RULESET [ROUNDS]     # default 3 rounds after round 0
#
# Round 0: SELF_GAMES games of libro's hand-written evaluation against itself at SELF_NODES
#   nodes a move (the engine is deterministic, so the two games of an opening pair repeat:
#   one of each is labelled, every ply).
# Round K: ROUND_GAMES games of round K-1's network against the hand-written evaluation and
#   as many against itself, at ROUND_NODES nodes a move, `--openings 8`, every other ply
#   labelled. Each round's network is fitted on every label so far.
# FSF_GAMES=N: each round also plays N games of round K-1's network against Fairy-Stockfish
#   itself at ROUND_NODES nodes a move each, every other ply labelled: the positions games
#   against it reach, which libro's own games do not (default 0).
# Labels: Fairy-Stockfish at LABEL_NODES nodes a position, JOBS processes.
# LAMBDA: the share of Fairy-Stockfish's value in each target, the rest the game's result
#   (the trainer's `--lambda`; default 0.75; shatranj's eleventh network was fitted at 0.5).
# KING_DANGER=1: fit on top of the hand-written evaluation with its king danger term (the
#   trainer's `--king-danger`; the network is then written as mode 2, and the term counts where
#   it plays). Shatranj's candidate I (2026-12-06, docs/strength.md) was fitted so, at LAMBDA=0.5; not shipped.
# FROM=FILE: that network stands as round 0's (copied to round-0.nnue; no hand-written
#   self-play): round 1's games are FILE's, and every network is fitted on the rounds' labels alone. A new round on
#   top of a shipped network whose labels are gone: FROM=rulesets/RULESET.nnue ... RULESET 1.
# OPTIONS="KEY=VALUE …": rule options the network is fitted for (its key is that of the rules
#   with them), set for the referee (`libro match --option`), the engines (UCI options) and
#   the fit. Fairy-Stockfish labels under its own variant of the name, so these should make
#   libro's rules its: acedrex as variants.ini has it is OPTIONS="pawn_double_step=first-move".
#
# Work goes to target/network/RULESET/ (RULESET+KEY=VALUE… with OPTIONS; or WORK); a step whose output is there is skipped, so a stopped
# run goes on where it stopped. The networks are round-K.nnue there: measure one (self-play
# SPRT against the engine without it, then scripts/strength.sh) before it goes to rulesets/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
ruleset="${1:?usage: scripts/train-network.sh RULESET [ROUNDS]}"
rounds="${2:-3}"
self_games="${SELF_GAMES:-1500}"
self_nodes="${SELF_NODES:-10000}"
round_games="${ROUND_GAMES:-400}"
round_nodes="${ROUND_NODES:-1000}"
label_nodes="${LABEL_NODES:-4000}"
lambda="${LAMBDA:-0.75}"
fsf_games="${FSF_GAMES:-0}"
king_danger=()
[ "${KING_DANGER:-0}" = 1 ] && king_danger=(--king-danger)
jobs="${JOBS:-$(nproc)}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
# Fairy-Stockfish's variants.ini: ../shared/anchors beside this checkout, or ANCHORS=DIR (as
# scripts/strength.sh takes it); label-positions.py reads the same variable.
export ANCHORS="${ANCHORS:-$root/../shared/anchors}"
fsf="$target_dir/fsf/fairy-stockfish/src/stockfish"
[ -x "$fsf" ] || {
  echo "train-network: no Fairy-Stockfish at $fsf (scripts/strength.sh builds it)" >&2
  exit 2
}
[ -f "rulesets/$ruleset.toml" ] || {
  echo "train-network: no ruleset rulesets/$ruleset.toml" >&2
  exit 2
}
# Fairy-Stockfish's name for the variant, as `libro match` gives it (no hyphens).
variant="${ruleset//-/}"
read -r -a options <<<"${OPTIONS:-}"
option_flags=()
engine_options=""
for kv in "${options[@]}"; do
  [[ "$kv" == *=* ]] || {
    echo "train-network: OPTIONS holds \`$kv\`, not KEY=VALUE" >&2
    exit 2
  }
  option_flags+=(--option "$kv")
  engine_options+=",$kv"
done

cargo build --release -p libro
cargo build --release -p libro-chess --example nnue
libro="$target_dir/release/libro"
trainer="$target_dir/release/examples/nnue"
suffix=""
for kv in "${options[@]}"; do suffix+="+$kv"; done
work="${WORK:-$target_dir/network/$ruleset$suffix}"
mkdir -p "$work"
engine="$work/engine.sh"
printf '#!/bin/sh\nexec %s uci\n' "$libro" >"$engine"
chmod +x "$engine"
# The variant first, so the rule options that follow are its.
engine_spec="uci:$engine,UCI_Variant=$ruleset$engine_options"
hand="$engine_spec,Use NNUE=false"

# label RECORDS OUT SHARE STEP: JOBS labelling processes, their parts joined into OUT.
label() {
  local records="$1" out="$2" share="$3" step="$4"
  [ -s "$out" ] && return
  local k="${share%/*}" n="${share#*/}" pids=()
  for ((j = 0; j < jobs; j++)); do
    # Game g is labelled by process j when g % (n * jobs) == k + n * j.
    python3 scripts/label-positions.py "$label_nodes" "$((k + n * j))/$((n * jobs))" \
      "$out.part$j" "$records" --step "$step" --variant "$variant" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
  cat "$out".part* >"$out.tmp" && rm "$out".part* && mv "$out.tmp" "$out"
}

# fit K: round K's network from every label so far.
fit() {
  local out="$work/round-$1.nnue"
  [ -s "$out" ] && return
  # In round order (labels-10 after labels-9), so that a new round's labels come last and the
  # held-out split of the earlier rounds (by line number) stays as it was.
  local labels
  mapfile -t labels < <(printf '%s\n' "$work"/labels-*.jsonl | sort -V)
  # Fairy-Stockfish's centipawn against libro's: the least-squares slope the trainer prints.
  local slope
  slope="$("$trainer" "$ruleset" "${labels[@]}" "${option_flags[@]}" "${king_danger[@]}" --residual --out "$work/slope.nnue" --epochs 0 2>&1 |
    sed -n 's/.*slope \([0-9.-]*\),.*/\1/p')"
  rm -f "$work/slope.nnue"
  local scale
  scale="$(python3 -c "print(f'{1 / float(\"$slope\"):.3f}')")"
  echo "round $1: labels' slope $slope, --scale $scale"
  "$trainer" "$ruleset" "${labels[@]}" "${option_flags[@]}" "${king_danger[@]}" --out "$out.tmp" --scale "$scale" --residual \
    --decay 3 --epochs 15 --lambda "$lambda" 2>&1 | tee "$work/fit-$1.log"
  mv "$out.tmp" "$out"
}

match() { # A B GAMES NODES SEED OUT OPENINGS
  [ -s "$6" ] && return
  "$libro" match "$ruleset" "${option_flags[@]}" --a "$1" --b "$2" --games "$3" --nodes "$4" --seed "$5" \
    --openings "$7" --threads "$jobs" --record "$6.tmp" >"$6.log"
  mv "$6.tmp" "$6"
}

if [ -n "${FROM:-}" ]; then
  # FROM's network stands as round 0's: the rounds below play it first.
  [ -s "$work/round-0.nnue" ] || cp "$FROM" "$work/round-0.nnue"
else
  match "$hand" "$hand" "$self_games" "$self_nodes" 9000 "$work/games-0.jsonl" 4
  label "$work/games-0.jsonl" "$work/labels-0.jsonl" 0/2 1
  fit 0
fi
for ((r = 1; r <= rounds; r++)); do
  net="$engine_spec,EvalFile=$work/round-$((r - 1)).nnue"
  match "$net" "$hand" "$round_games" "$round_nodes" "$((9000 + 2 * r))" "$work/games-$r-hand.jsonl" 8
  match "$net" "$net" "$round_games" "$round_nodes" "$((9001 + 2 * r))" "$work/games-$r-self.jsonl" 8
  label "$work/games-$r-hand.jsonl" "$work/labels-$r-hand.jsonl" 0/1 2
  label "$work/games-$r-self.jsonl" "$work/labels-$r-self.jsonl" 0/2 2
  if ((fsf_games > 0)); then
    match "$net" "uci:$fsf,Threads=1,VariantPath=$ANCHORS/variants.ini" "$fsf_games" "$round_nodes" "$((9500 + r))" "$work/games-$r-fsf.jsonl" 8
    label "$work/games-$r-fsf.jsonl" "$work/labels-$r-fsf.jsonl" 0/1 2
  fi
  fit "$r"
done
echo "networks: $work/round-*.nnue (the last: round-$rounds.nnue)"
