"""Observation tensors, against start positions read from the ruleset files."""

import numpy as np

import libro


def test_grid_planes_per_seat_and_piece_then_side_to_move():
    game = libro.load_game("shatranj")  # K F A N R P, two seats
    assert game.observation_tensor_shape() == [2 * 6 + 2, 8, 8]
    state = game.new_initial_state()
    obs = state.observation_array(0)
    assert obs.shape == (14, 8, 8)
    pawn, king = 5, 0
    assert obs[pawn, 1, :].tolist() == [1.0] * 8  # white pawns on rank 2
    assert obs[6 + pawn, 6, :].tolist() == [1.0] * 8  # black pawns on rank 7
    assert obs[king, 0, 3] == 1.0  # white king on d1 (RNAKFANR)
    assert obs[:12].sum() == 32  # every piece once
    assert obs[12].sum() == 64 and obs[13].sum() == 0  # white to move
    assert state.observation_tensor(1) == list(obs.ravel())  # perfect information
    state.apply_action(state.string_to_action(0, "e2e3"))
    obs = state.observation_array(0)
    assert obs[pawn, 1, 4] == 0 and obs[pawn, 2, 4] == 1
    assert obs[12].sum() == 0 and obs[13].sum() == 64


def test_four_seat_grid_has_a_plane_per_seat_and_piece():
    game = libro.load_game("cuatro-tiempos")
    types = len(game.piece_letters())
    assert game.observation_tensor_shape() == [4 * types + 4, 8, 8]


def test_track_counts_per_point_bar_off_dice_and_mover():
    game = libro.load_game("fallas")  # 24 points, 3 dice of 6
    assert game.observation_tensor_shape() == [2 * 24 + 4 + 3 * 6 + 2]
    state = game.new_initial_state()
    state.apply_action(state.string_to_action(-1, "6:1"))
    state.apply_action(state.string_to_action(-1, "6-4-1"))
    obs = np.array(state.observation_tensor(0))
    # fallas.toml: 13 checkers on point 6 and 2 on 24; white runs 24-1 (own points are
    # board points), black 1-24 (own 6 is board 19, own 24 is board 1).
    white, black = obs[:24], obs[24:48]
    assert white[6 - 1] == 13 and white[24 - 1] == 2 and white.sum() == 15
    assert black[19 - 1] == 13 and black[1 - 1] == 2 and black.sum() == 15
    assert obs[48:52].tolist() == [0, 0, 0, 0]  # bar and off
    dice = obs[52:70].reshape(3, 6)
    assert dice.argmax(axis=1).tolist() == [5, 3, 0] and dice.sum() == 3  # 6, 4, 1
    assert obs[70:].tolist() == [1, 0]  # white to move


def test_track_marks_the_stacked_pairs_where_a_game_stacks_them():
    game = libro.load_game("doblet")  # 24 points, 3 dice of 6, pairs stacked on 1-6
    assert game.observation_tensor_shape() == [2 * 24 + 4 + 3 * 6 + 2 + 24]
    state = game.new_initial_state()
    state.apply_action(state.string_to_action(-1, "6:1"))  # white rolls first
    state.apply_action(state.string_to_action(-1, "3-2-1"))
    obs = np.array(state.observation_tensor(0))
    # doblet.toml: two checkers on each own point 1-6; white's are board points 1-6,
    # black's (path 1-24) board points 24-19; every pair stacked.
    stacked = obs[72:]
    assert stacked.nonzero()[0].tolist() == [0, 1, 2, 3, 4, 5, 18, 19, 20, 21, 22, 23]
    state.apply_action(state.string_to_action(0, "3/down 2/down 1/down"))
    stacked = np.array(state.observation_tensor(0))[72:]
    assert stacked.nonzero()[0].tolist() == [3, 4, 5, 18, 19, 20, 21, 22, 23]
