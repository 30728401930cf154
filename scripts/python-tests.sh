#!/usr/bin/env bash
# The Python package as a researcher gets it: `pip install ./python` (with the test extras:
# pytest, PettingZoo, OpenSpiel, Ray) into a fresh venv under target/, then its pytest
# tests. The extension builds into target/python, beside the workspace's own builds.
# The lab's tests compare with target/release/libro when scripts/test.sh has built it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv=target/python-venv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
# A local directory of the same version may count as installed: build it afresh.
"$venv/bin/python" -m pip uninstall --quiet --yes libro >/dev/null 2>&1 || true
CARGO_TARGET_DIR="$PWD/target/python" "$venv/bin/python" -m pip install --quiet "./python[test]"
# From the repository root, where no `libro` directory shadows the installed package.
"$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider
# The extension crate is its own workspace, outside CI's workspace-wide fmt and clippy:
# held to the same standard here, with its Rust unit tests.
(
    cd python
    export CARGO_TARGET_DIR="$PWD/../target/python"
    cargo fmt --check
    cargo clippy --all-targets -- -D warnings
    cargo test
)
