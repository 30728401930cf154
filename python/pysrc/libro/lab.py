"""Self-play studies (``libro evaluate``) from Python, in this process or as Ray tasks.

::

    from libro import lab
    report = lab.evaluate("forcado", players="random", games=200, seed=1,
                          vary={"stalemate": ["win", "draw"]}, executor="ray")
    print(report.table)          # what `libro evaluate` prints
    report.json["readings"]      # what `libro evaluate --json` writes

Every game's seed follows from the study seed, its reading and its index, so a study is
the same however its games are split: ``executor="ray"`` plays the games whose index is
``i`` modulo ``shards`` as Ray task ``i`` (``shards`` defaults to the cluster's CPUs), and
the merged report is exactly the one ``libro evaluate`` gives for the same arguments
(``--shard I/N`` and ``--merge`` do the same split by hand, e.g. as a Slurm array).

On a multi-machine Ray cluster, install this package (the same build) on every node and
call ``ray.init(address="auto")`` (or run the script with ``ray job submit``) before
``evaluate``; each task asks Ray for one CPU and plays its shard on one thread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence, Union

from . import _libro

__all__ = ["StudyReport", "evaluate", "prepare", "play_shard", "report"]

#: ``libro evaluate``'s defaults.
DEFAULT_GAMES = 100
DEFAULT_SEED = 1
DEFAULT_MAX_PLIES = 10_000
DEFAULT_OPENING_MOVES = 4


@dataclass
class StudyReport:
    """A study's report: ``table`` as ``libro evaluate`` prints it, ``json`` as its
    ``--json`` writes it (parsed), ``csv`` as ``--csv`` writes it, the ``study`` (its
    first results line) and the games' ``rows``."""

    table: str
    json: dict
    csv: str
    study: dict
    rows: list = field(repr=False)


def _list(value, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        raise ValueError(f"{what}: give a list, not a dict")
    return [str(v) for v in value]


def _pairs(value: Union[None, Mapping[str, Any], Sequence[str]], what: str, joiner: str) -> list[str]:
    """``{"k": v}`` or ``["k=v"]`` as ``K=V`` strings (``joiner`` joins a list of values)."""
    if value is None:
        return []
    if isinstance(value, Mapping):
        out = []
        for k, v in value.items():
            if isinstance(v, (list, tuple)):
                v = joiner.join(_text(x) for x in v)
            else:
                v = _text(v)
            out.append(f"{k}={v}")
        return out
    return _list(value, what)


def _text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def prepare(
    ruleset: str,
    players: Union[str, Sequence[str]] = "random",
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    vary: Union[None, Mapping[str, Sequence[Any]], Sequence[str]] = None,
    options: Union[None, Mapping[str, Any], Sequence[str]] = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    opening_moves: int = DEFAULT_OPENING_MOVES,
) -> str:
    """The study as ``libro evaluate`` prepares it (checked: the ruleset, every reading and
    the players load), as JSON. Raises ``ValueError`` naming what is wrong."""
    if games < 1:
        raise ValueError("games: a study needs at least one game per reading")
    return _libro.lab_prepare(
        ruleset,
        _list(players, "players") or ["random"],
        int(games),
        int(seed),
        _pairs(vary, "vary", ","),
        _pairs(options, "options", ","),
        int(max_plies),
        int(opening_moves),
    )


def play_shard(study: str, part: int, parts: int, threads: Optional[int] = None) -> list[str]:
    """Plays the games of shard ``part``/``parts`` of a prepared study; JSON rows."""
    return _libro.lab_run_shard(study, part, parts, threads)


def report(study: str, rows: Sequence[str]) -> StudyReport:
    """The report of a study from its games' rows (from any shards, in any order)."""
    table, js, csv = _libro.lab_report(study, list(rows))
    return StudyReport(table, json.loads(js), csv, json.loads(study), [json.loads(r) for r in rows])


def evaluate(
    ruleset: str,
    players: Union[str, Sequence[str]] = "random",
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    vary: Union[None, Mapping[str, Sequence[Any]], Sequence[str]] = None,
    options: Union[None, Mapping[str, Any], Sequence[str]] = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    opening_moves: int = DEFAULT_OPENING_MOVES,
    executor: str = "local",
    shards: Optional[int] = None,
    threads: Optional[int] = None,
) -> StudyReport:
    """Runs a study and reports it as ``libro evaluate`` does.

    ``players``: one spec for every seat or one per seat (``random``, ``greedy``,
    ``ai:1``..``ai:8``, ...). ``vary``: ``{"option": [values]}`` or ``["option=v1,v2"]``;
    every combination is a reading. ``options``: set for every reading.
    ``executor``: ``"local"`` plays in this process on ``threads`` threads (default every
    core); ``"ray"`` plays ``shards`` shards (default: the cluster's CPUs) as Ray tasks of
    one CPU each, on whatever cluster ``ray.init()`` joined (a local one if none).
    """
    study = prepare(ruleset, players, games, seed, vary, options, max_plies, opening_moves)
    if executor == "local":
        parts = shards or 1
        rows = [r for part in range(parts) for r in play_shard(study, part, parts, threads)]
    elif executor == "ray":
        rows = _run_on_ray(study, shards)
    else:
        raise ValueError(f"executor {executor!r}: give 'local' or 'ray'")
    return report(study, rows)


def _run_on_ray(study: str, shards: Optional[int]) -> list[str]:
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("executor='ray' needs Ray: pip install 'ray[default]'") from e
    if not ray.is_initialized():
        ray.init()
    if shards is None:
        shards = max(1, int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(num_cpus=1)(_shard_task)
    futures = [task.remote(study, part, shards) for part in range(shards)]
    return [row for rows in ray.get(futures) for row in rows]


def _shard_task(study: str, part: int, parts: int) -> list[str]:
    """One Ray task: one shard on one thread."""
    from libro import _libro as native

    return native.lab_run_shard(study, part, parts, 1)
