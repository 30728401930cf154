"""Studies from Python: the same report in this process, in shards, on Ray and from the
`libro evaluate` command."""

import json
import os
import pathlib
import re
import subprocess

import pytest

from libro import lab

STUDY = dict(ruleset="fallas", games=12, seed=7, vary={"bear_off": ["standard", "exact"]})


def test_shards_merge_into_the_whole_study():
    whole = lab.evaluate(**STUDY)
    split = lab.evaluate(**STUDY, shards=3)
    assert split.table == whole.table and split.json == whole.json
    assert len(whole.rows) == 2 * 12
    labels = [r["label"] if "label" in r else r.get("reading") for r in whole.json["readings"]]
    assert len(labels) == 2


def test_bad_study_input_names_it():
    with pytest.raises(ValueError, match="nope"):
        lab.evaluate("nope", games=1)
    with pytest.raises(ValueError, match="bear_of"):
        lab.evaluate("fallas", games=1, vary={"bear_of": ["exact"]})
    with pytest.raises(ValueError, match="executor"):
        lab.evaluate("fallas", games=1, executor="slurm")
    with pytest.raises(ValueError, match="games"):
        lab.evaluate("fallas", games=0)


def _cli() -> pathlib.Path:
    root = pathlib.Path(__file__).resolve().parents[2]
    return pathlib.Path(os.environ.get("LIBRO_BIN", root / "target" / "release" / "libro"))


@pytest.mark.skipif(not _cli().exists(), reason="the libro binary is not built (scripts/test.sh builds it)")
def test_the_report_is_the_one_libro_evaluate_prints(tmp_path):
    out = subprocess.run(
        [str(_cli()), "evaluate", "fallas", "--games", "12", "--seed", "7",
         "--vary", "bear_off=standard,exact", "--results", str(tmp_path / "r.jsonl"),
         "--json", str(tmp_path / "r.json")],
        check=True, capture_output=True, text=True,
    )
    mine = lab.evaluate(**STUDY)
    # Reports are stamped with the commit each was built from: scripts/test.sh builds both
    # from one checkout, a developer may have an older binary.
    stamp = re.compile(r"^libro \S+ \(([0-9a-f]+)\)", re.M)
    theirs, ours = stamp.search(out.stdout), stamp.search(mine.table)
    if theirs and ours and theirs.group(1) != ours.group(1):
        pytest.fail(f"{_cli()} is from commit {theirs.group(1)}, the package from "
                    f"{ours.group(1)}: rebuild them from one checkout")
    assert mine.table == out.stdout
    assert mine.json == json.loads((tmp_path / "r.json").read_text())


def test_ray_gives_the_same_report():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, ignore_reinit_error=True)
    try:
        on_ray = lab.evaluate(**STUDY, executor="ray", shards=3)
    finally:
        ray.shutdown()
    here = lab.evaluate(**STUDY)
    assert on_ray.table == here.table and on_ray.json == here.json
