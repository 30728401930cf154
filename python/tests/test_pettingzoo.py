"""PettingZoo's own API test on two seats, four seats and dice."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from libro.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize("name", ["forcado", "cuatro-tiempos", "fallas"])
def test_api_test_passes(name):
    api_test(env(name), num_cycles=200, verbose_progress=False)


def test_fallas_plays_out_with_masked_random_actions():
    e = env("fallas")
    e.reset(seed=4)
    assert e.possible_agents == ["player_0", "player_1"] and e.seat_names == ["white", "black"]
    assert e.action_mode == "index"
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, termination, truncation, info = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["legal_actions"]) > 0
        e.step(int(np.random.default_rng(0).choice(legal)))
    assert sorted(total.values()) == [-1.0, 1.0]


def test_an_illegal_action_raises():
    e = env("shatranj")
    e.reset(seed=0)
    with pytest.raises(ValueError):
        e.step(7)


def test_reset_skips_a_game_the_dice_decide_before_any_move():
    import libro

    game = libro.load_game("fallas")
    decided = None
    for seed in range(20_000):
        state = game.new_initial_state(seed)
        while state.is_chance_node():
            state.roll()
        if state.is_terminal():
            decided = seed
            break
    assert decided is not None, "no seed in 20,000 loses on the first roll"
    assert state.end_reason() == "falla"
    e = env("fallas")
    e.reset(seed=decided)
    obs, reward, termination, truncation, info = e.last()
    assert not termination and obs["action_mask"].sum() > 0
