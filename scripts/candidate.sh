#!/usr/bin/env bash
# Measures a change to the engine against Fairy-Stockfish, paired game by game with the engine
# before it (a benchmark, not a test). Both libro binaries play the same fixed set of shatranj
# games against full-strength Fairy-Stockfish at a fixed number of nodes a move: the same seeds,
# so the same openings and colours, game for game. Fixed-node games are deterministic, so the
# base binary's games are played once and kept, and two matches run at once without changing
# a single move.
#
#   scripts/candidate.sh BASE_BIN CAND_BIN [NODES]        # NODES defaults to 40000
#
# Games: seeds 2001-2006 with 20, 20, 89, 89, 46 and 46 games (310), `--openings 4`. Records
# and PGNs go to target/candidate/<nodes>-<binary's sha256, 12 digits>-<seed>.{jsonl,pgn};
# the base binary's are reused when present. The answer is each binary's score and the mean
# paired difference (candidate less base, per game) with its 95% interval from the paired
# differences' standard deviation (normal approximation): at 310 games it is about ±5 points,
# so only changes worth about 30 Elo or more show.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${1:?usage: scripts/candidate.sh BASE_BIN CAND_BIN [NODES]}"
cand="${2:?usage: scripts/candidate.sh BASE_BIN CAND_BIN [NODES]}"
nodes="${3:-40000}"
anchors="${ANCHORS:-$root/../shared/anchors}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
fsf="$target_dir/fsf/fairy-stockfish/src/stockfish"
out="$target_dir/candidate"
# SEEDS="S:N …" replaces the set (more games for a finer difference, or fewer to try it out).
read -r -a seeds <<<"${SEEDS:-2001:20 2002:20 2003:89 2004:89 2005:46 2006:46}"

[ -x "$fsf" ] || {
  echo "candidate: build Fairy-Stockfish first (scripts/strength.sh does, into $fsf)" >&2
  exit 2
}
[ -f "$anchors/variants.ini" ] || {
  echo "candidate: no $anchors/variants.ini (../shared/anchors beside this checkout, or ANCHORS=DIR)" >&2
  exit 2
}
mkdir -p "$out"
tag() { echo "$nodes-$(sha256sum "$1" | cut -c1-12)"; }
base_tag="$(tag "$base")"
cand_tag="$(tag "$cand")"

[ "$base_tag" != "$cand_tag" ] || {
  echo "candidate: the two binaries are the same file contents" >&2
  exit 2
}

# One match: a binary's games of one seed, unless already recorded in full.
# The binary goes by its role (base or cand), so a path with spaces passes through xargs.
match() { # role tag seed games
  local bin t="$2" s="$3" n="$4"
  if [ "$1" = base ]; then bin="$base"; else bin="$cand"; fi
  if [ -s "$out/$t-$s.jsonl" ] && [ "$(wc -l <"$out/$t-$s.jsonl")" -eq "$n" ]; then
    return
  fi
  "$bin" match shatranj --a ai:8 \
    --b "uci:$fsf,Threads=1,VariantPath=$anchors/variants.ini" \
    --nodes "$nodes" --games "$n" --openings 4 --threads 1 --seed "$s" \
    --record "$out/$t-$s.jsonl" --pgn "$out/$t-$s.pgn" >/dev/null
}
export -f match
export out nodes fsf anchors base cand
# Two matches at a time (one core each): the largest first.
for sg in "${seeds[@]}"; do
  echo base "$base_tag" "${sg%%:*}" "${sg##*:}"
  echo cand "$cand_tag" "${sg%%:*}" "${sg##*:}"
done | sort -k4,4nr | xargs -P 2 -L 1 bash -c 'match "$@"' match

python3 - "$out" "$base_tag" "$cand_tag" "${seeds[@]}" <<'EOF'
import json, math, sys
out, base, cand, seeds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def scores(tag, seed):
    with open(f"{out}/{tag}-{seed}.jsonl") as f:
        return [json.loads(line)["a_score"] for line in f]
pairs = []
for sg in seeds:
    seed = sg.split(":")[0]
    pairs += list(zip(scores(base, seed), scores(cand, seed)))
n = len(pairs)
if n < 2:
    sys.exit(f"candidate: {n} paired game(s); an interval needs two or more")
d = [c - b for b, c in pairs]
mean = sum(d) / n
sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
print(f"{n} paired games at the same openings and colours")
print(f"base      {base}: {100 * sum(b for b, _ in pairs) / n:.1f}%")
print(f"candidate {cand}: {100 * sum(c for _, c in pairs) / n:.1f}%")
print(f"difference {100 * mean:+.1f} ± {100 * 1.96 * sd / math.sqrt(n):.1f} points (95%)")
EOF
