"""The vectorised stepper: arrays of the right shapes, masks equal to the legal actions,
rewards at the end, illegal actions refused before any game moves."""

import numpy as np
import pytest

import libro


def test_forcado_masks_are_the_legal_action_ids():
    game = libro.load_game("shatranj")
    v = libro.vector_games(game, 4, seed=1)
    assert v.action_mode == "id" and v.mask_width == game.num_distinct_actions()
    obs, mask, player = v.reset()
    assert obs.shape == (4, 14, 8, 8) and mask.shape == (4, v.mask_width)
    assert player.tolist() == [0, 0, 0, 0]
    start = game.new_initial_state()
    for i in range(4):
        assert np.flatnonzero(mask[i]).tolist() == start.legal_actions() == v.legal_actions(i)


def test_fallas_index_mode_plays_to_the_end_with_zero_sum_rewards():
    v = libro.vector_games("fallas", 8, seed=2)
    assert v.action_mode == "index" and v.mask_width == libro.load_game("fallas").max_legal_actions()
    obs, mask, player = v.reset()
    assert obs.shape == (8, 72)
    assert all(mask[i].sum() == len(v.legal_actions(i)) for i in range(8))
    done_games = 0
    for _ in range(400):
        obs, mask, rewards, dones, player = v.step(v.random_actions())
        assert rewards.shape == (8, 2) and dones.shape == (8,)
        assert np.allclose(rewards.sum(axis=1), 0)
        for i in np.flatnonzero(dones):
            assert sorted(rewards[i].tolist()) == [-1.0, 1.0]  # fallas has no draws
        assert (rewards[~dones] == 0).all()
        done_games += int(dones.sum())
        assert ((player == 0) | (player == 1)).all()  # dice rolled inside: always a seat
    assert done_games > 0 and v.finished == done_games


def test_an_illegal_action_moves_no_game():
    v = libro.vector_games("shatranj", 2)
    before = [v.position(0), v.position(1)]
    good = v.legal_actions(0)[0]
    with pytest.raises(ValueError, match="game 1"):
        v.step(np.array([good, 7], dtype=np.int64))
    assert [v.position(0), v.position(1)] == before
    with pytest.raises(ValueError):
        libro.vector_games("fallas", 2, action_mode="sideways")
    with pytest.raises(ValueError, match="too many"):
        libro.vector_games("fallas", 2, action_mode="id")


def test_every_slot_is_always_at_a_seats_turn():
    # Fallas games can end on the first roll (a falla before any move): such games are
    # skipped, so every row always has a legal action.
    v = libro.vector_games("fallas", 64, seed=1)
    v.reset()
    for _ in range(150):
        _, mask, _, _, player = v.step(v.random_actions())
        assert (mask.sum(axis=1) > 0).all() and (player >= 0).all()
