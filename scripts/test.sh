#!/usr/bin/env bash
# Every test of libro: the Rust workspace (unit, integration, reference perft and Ludii
# replays, HTTP/WebSocket tests) in release mode, the Python package (built with pip into a
# venv under target/), then the web app in headless Chromium (installing Debian's chromium
# and the pinned playwright-core if they are missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The main job's binary first: `cargo test --workspace` unifies the features of the test-only
# dependencies into the shared crates, so its build is not the one `cargo run --release`
# wants. Building both here means `cargo run --release -- serve` starts at once afterwards.
cargo build --release
cargo test --workspace --release
scripts/python-tests.sh
scripts/browser-tests.sh
