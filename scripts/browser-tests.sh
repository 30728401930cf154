#!/usr/bin/env bash
# Browser tests of the web app: installs what is missing on a fresh Debian machine (Debian's
# chromium, the pinned playwright-core from tests/browser/package-lock.json — no browser
# download), builds `libro`, starts `libro serve` on a free port with a fresh database, plays
# a short game of every ruleset through the page, runs a small study on the Lab page, and
# stops the server. BROWSER_TESTS names the test files to run (default: every *.test.mjs).
# Screenshots go to target/screenshots/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [ ! -x /usr/bin/chromium ]; then
  echo "browser-tests: installing Debian's chromium"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update
  $sudo_cmd apt-get install -y chromium
fi
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

cargo build --release -p libro
target_dir="${CARGO_TARGET_DIR:-$root/target}"
libro="$target_dir/release/libro"

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
"$libro" serve --addr 127.0.0.1 --port "$port" --db "$work/libro.db" >"$work/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:$port/api/rulesets" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$work/server.log"; echo "browser-tests: libro serve did not start" >&2; exit 1; fi
  sleep 0.1
done

mkdir -p "$root/target/screenshots"
status=0
(cd tests/browser && LIBRO_URL="http://127.0.0.1:$port" SCREENSHOT_DIR="$root/target/screenshots" node --test ${BROWSER_TESTS:-*.test.mjs}) || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- server log ---"
  cat "$work/server.log"
fi
exit "$status"
