"""Steps per second through per-call Python against the vectorised path (not a test).

A step is one seat's move with a uniformly random legal action, any dice rolled after it,
and the observation and legal actions the learner needs next:

- ``per-call``: ``state.legal_actions()``, ``random.choice``, ``state.apply_action``,
  ``state.roll()`` for the dice, ``state.observation_tensor()``, one game at a time;
- ``vector``: ``VectorGames.step(random_actions())`` on ``--envs`` games at once, which
  returns observations, masks, rewards and dones as numpy arrays (for chess also with
  index masks, ``action_mode="index"``, which are narrower than the 49,254 action ids).

Run: ``python python/benchmarks/bench_vector.py [--seconds 5] [--envs 64]``.
"""

from __future__ import annotations

import argparse
import random
import time

import libro


def per_call(name: str, seconds: float, observe: bool) -> float:
    game = libro.load_game(name)
    rng = random.Random(1)
    seed = 0
    state = game.new_initial_state(seed)
    steps = 0
    start = time.perf_counter()
    while True:
        while state.is_chance_node():
            state.roll()
        if state.is_terminal():
            seed += 1
            state = game.new_initial_state(seed)
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        if observe:
            state.observation_tensor()
        steps += 1
        if steps % 256 == 0 and time.perf_counter() - start > seconds:
            break
    return steps / (time.perf_counter() - start)


def vector(name: str, seconds: float, envs: int, mode: str = "auto") -> float:
    v = libro.vector_games(name, envs, seed=1, action_mode=mode)
    v.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        v.step(v.random_actions())
        steps += envs
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--rulesets", nargs="+", default=["forcado", "fallas"])
    args = parser.parse_args()
    print(f"{'ruleset':<10} {'path':<32} {'steps/s':>12}")
    for name in args.rulesets:
        rows = [
            ("per-call, no observation", per_call(name, args.seconds, False)),
            ("per-call, with observation", per_call(name, args.seconds, True)),
            (f"vector, {args.envs} games (obs+masks)", vector(name, args.seconds, args.envs)),
        ]
        if libro.load_game(name).num_distinct_actions() <= 1 << 16:
            rows.append(
                (f"vector, {args.envs} games, index masks", vector(name, args.seconds, args.envs, "index"))
            )
        for label, rate in rows:
            print(f"{name:<10} {label:<32} {rate:>12,.0f}")


if __name__ == "__main__":
    main()
