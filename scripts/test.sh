#!/usr/bin/env bash
# Every test of libro: the Rust workspace (unit, integration, reference perft and Ludii
# replays, HTTP/WebSocket tests) in release mode, then the web app in headless Chromium
# (installing Debian's chromium and the pinned playwright-core if they are missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo test --workspace --release
scripts/browser-tests.sh
