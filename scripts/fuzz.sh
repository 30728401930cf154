#!/usr/bin/env bash
# Fuzzes every parser: runs each cargo-fuzz target of fuzz/ for SECONDS_PER_TARGET (default
# 60), as many at once as FUZZ_JOBS (default: the number of cores), then prints each
# target's executions and whether it crashed. Exits 1 if any target crashed (the input is
# in fuzz/artifacts/TARGET/), 0 otherwise.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]      (all targets if none is named)
#   FUZZ_MERGE=1 scripts/fuzz.sh 600                      (then add new coverage to fuzz/corpus)
#
# Each target reads the committed corpus fuzz/corpus/TARGET and writes what it finds to
# fuzz/target/corpus/TARGET (not committed); FUZZ_MERGE=1 adds to fuzz/corpus the fewest
# inputs that cover the new edges. Installs cargo-fuzz and the nightly toolchain if missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root/fuzz"

seconds="${1:-60}"
shift || true
case "$seconds" in
  '' | *[!0-9]*) echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number, not \`$seconds\`" >&2; exit 2 ;;
esac
jobs="${FUZZ_JOBS:-$(nproc)}"

if ! rustup toolchain list | grep -q '^nightly'; then
  rustup toolchain install nightly --profile minimal
fi
if ! command -v cargo-fuzz >/dev/null; then
  cargo install cargo-fuzz --locked
fi

mapfile -t all < <(cargo +nightly fuzz list)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

cargo +nightly fuzz build -O
target_dir="${CARGO_TARGET_DIR:-$root/fuzz/target}"
bin_dir="$target_dir/x86_64-unknown-linux-gnu/release"
logs="$root/fuzz/target/logs"
mkdir -p "$logs"

run_one() {
  local t="$1" rc=0
  mkdir -p "$root/fuzz/target/corpus/$t" "$root/fuzz/artifacts/$t"
  "$bin_dir/$t" "$root/fuzz/target/corpus/$t" "$root/fuzz/corpus/$t" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$root/fuzz/artifacts/$t/" >"$logs/$t.log" 2>&1 || rc=$?
  echo "$rc" >"$logs/$t.rc"
}

echo "fuzz.sh: ${#targets[@]} targets, ${seconds}s each, $jobs at once"
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  run_one "$t" &
done
wait

total=0
crashed=0
printf '%-18s %14s %10s  %s\n' target executions exec/s result
for t in "${targets[@]}"; do
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -1)"
  execs="${execs:-0}"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log" | tail -1)"
  total=$((total + execs))
  if [ "$(cat "$logs/$t.rc")" = 0 ]; then
    result=ok
  else
    crashed=$((crashed + 1))
    result="CRASH: $(ls -t "$root/fuzz/artifacts/$t" | head -1) (log: $logs/$t.log)"
  fi
  printf '%-18s %14s %10s  %s\n' "$t" "$execs" "${rate:-?}" "$result"
  if [ "${FUZZ_MERGE:-0}" = 1 ]; then
    "$bin_dir/$t" -set_cover_merge=1 -use_counters=0 "$root/fuzz/corpus/$t" \
      "$root/fuzz/target/corpus/$t" >>"$logs/$t.merge.log" 2>&1
  fi
done
printf '%-18s %14s\n' total "$total"
echo "fuzz.sh: $crashed of ${#targets[@]} targets crashed"
[ "$crashed" -eq 0 ]
