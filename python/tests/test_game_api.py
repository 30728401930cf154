"""The OpenSpiel-shaped game and state API, checked against the rules read by hand."""

import random
from fractions import Fraction
from pathlib import Path

import pytest

import libro
from conftest import play_random

# The shipped rulesets are the files in the repository's rulesets/ folder.
SHIPPED = {p.stem for p in (Path(__file__).resolve().parents[2] / "rulesets").glob("*.toml")}


def test_registered_names_are_the_shipped_rulesets():
    # The five games of the seed texts, with shatranj and the Ludii profiles, are among them.
    assert {"acedrex", "forcado", "short-assize", "cuatro-tiempos", "fallas", "shatranj"} <= SHIPPED
    assert set(libro.registered_names()) == SHIPPED


def test_bad_name_option_or_value_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="nope"):
        libro.load_game("nope")
    with pytest.raises(ValueError, match="bear_of"):
        libro.load_game("fallas", {"bear_of": "exact"})
    with pytest.raises(ValueError, match="sideways"):
        libro.load_game("fallas", {"bear_off": "sideways"})
    with pytest.raises(ValueError, match="no/such/file.toml"):
        libro.load_game("no/such/file.toml")


def test_a_ruleset_file_path_loads(tmp_path):
    import pathlib
    shipped = pathlib.Path(__file__).resolve().parents[2] / "rulesets" / "shatranj.toml"
    path = tmp_path / "my-shatranj.toml"
    path.write_text(shipped.read_text())
    game = libro.load_game(str(path))
    assert game.name == "shatranj"
    assert len(game.new_initial_state().legal_actions()) == 16


def test_options_change_the_rules():
    exact = libro.load_game("fallas", {"bear_off": "exact"})
    assert ("bear_off", "exact") in [(n, v) for n, v, _, _ in exact.options()]
    assert exact.get_parameters() == [("bear_off", "exact")]


def test_game_figures_follow_the_action_encoding():
    # Chess ids: a pass, 101 bets, then (from, to, piece type, phantom or not) over 64
    # squares and the six shatranj pieces K F A N R P: 1 + 101 + 64*64*6*2.
    shatranj = libro.load_game("shatranj")
    assert shatranj.num_players() == 2
    assert shatranj.num_distinct_actions() == 1 + 101 + 64 * 64 * 6 * 2
    # Tables: up to three steps, each one of 26*26 + 1 codes.
    fallas = libro.load_game("fallas")
    assert fallas.num_distinct_actions() == 677 ** 3
    assert libro.load_game("cuatro-tiempos").num_players() == 4
    # The Ludii readings carry their own turn limit; the others get the package's.
    assert libro.load_game("forcado-ludii").max_game_length() == 2500
    assert libro.load_game("forcado").max_game_length() == libro.DEFAULT_MAX_PLIES
    assert shatranj.min_utility() == -1 and shatranj.max_utility() == 1
    assert libro.load_game("cuatro-tiempos").max_utility() == 3


def test_shatranj_start_has_sixteen_moves():
    # Eight one-step pawn moves, two knights x 2, two alfils x 2 leaps; the rest is blocked.
    game = libro.load_game("shatranj")
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert not state.is_chance_node() and not state.is_terminal()
    actions = state.legal_actions()
    assert len(actions) == 16 and actions == sorted(actions)
    moves = {state.action_to_string(0, a) for a in actions}
    assert {"b1a3", "c1e3", "e2e3"} <= moves
    assert state.string_to_action(0, "e2e3") in actions


def test_illegal_actions_raise_and_leave_the_state_alone():
    state = libro.load_game("shatranj").new_initial_state()
    before = str(state)
    e2e4 = None
    with pytest.raises(ValueError):
        state.string_to_action(0, "e2e4")  # no double step in shatranj
    with pytest.raises(ValueError):
        state.apply_action(12345)
    with pytest.raises(ValueError):
        state.apply_action(-3)
    assert str(state) == before and state.history() == [] and e2e4 is None


def test_history_clone_and_str():
    state = libro.load_game("shatranj").new_initial_state()
    a = state.string_to_action(0, "e2e3")
    state.apply_action(a)
    assert state.current_player() == 1
    copy = state.clone()
    b = copy.string_to_action(1, "e7e6")
    copy.apply_action(b)
    assert state.history() == [a] and copy.history() == [a, b]
    assert str(state) == "rnakfanr/pppppppp/8/8/8/4P3/PPPP1PPP/RNAKFANR b - - 0 1"


def test_a_bot_mates_in_one():
    # Back-rank mate: Ra8 with the black king on g8 behind its own pawns.
    game = libro.load_game("shatranj")
    state = game.new_state_from("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    action = libro.bot(game, "ai:2").step(state)
    assert state.action_to_string(0, action) == "a1a8"
    state.apply_action(action)
    assert state.is_terminal() and state.current_player() == libro.PLAYER_TERMINAL
    assert state.returns() == [1.0, -1.0] and state.rewards() == [1.0, -1.0]
    assert state.end_reason() == "checkmate"


def test_bot_errors():
    game = libro.load_game("fallas")
    with pytest.raises(ValueError, match="ai:99"):
        libro.bot(game, "ai:99")
    with pytest.raises(ValueError, match="chance"):
        libro.bot(game, "random").step(game.new_initial_state())


def test_fallas_chance_outcomes_are_exact():
    game = libro.load_game("fallas")
    state = game.new_initial_state(seed=3)
    # The roll-off: one die each, 36 ordered outcomes of 1/36.
    assert state.current_player() == libro.PLAYER_CHANCE and state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(36)) == state.legal_actions()
    assert all(p == 1 / 36 for _, p in outcomes)
    state.apply_action(state.string_to_action(-1, "6:1"))  # white wins the roll-off
    # Then white rolls three dice: 56 unordered rolls; a triple 1/216, a pair 3/216 and
    # three different faces 6/216.
    assert state.current_player() == libro.PLAYER_CHANCE
    probs = {state.action_to_string(-1, a): p for a, p in state.chance_outcomes()}
    assert len(probs) == 56 == game.max_chance_outcomes()
    assert probs["6-6-6"] == 1 / 216 and probs["6-6-1"] == 3 / 216 and probs["6-4-1"] == 6 / 216
    assert sum(Fraction(p).limit_denominator(216) for p in probs.values()) == 1
    assert state.string_to_action(-1, "1-4-6") == state.string_to_action(-1, "6-4-1")
    with pytest.raises(ValueError, match="7-1-1"):
        state.string_to_action(-1, "7-1-1")
    state.apply_action(state.string_to_action(-1, "6-4-1"))
    assert state.current_player() == 0
    assert len(state.legal_actions()) > 0


def test_random_games_end_with_zero_sum_returns():
    rng = random.Random(5)
    for name, seats in [("fallas", 2), ("forcado", 2), ("cuatro-tiempos", 4)]:
        state = play_random(libro.load_game(name).new_initial_state(seed=1), rng)
        assert state.is_terminal()
        returns = state.returns()
        assert len(returns) == seats and abs(sum(returns)) < 1e-9
        if state.end_reason() in ("checkmate", "falla", "bore-off", "elimination", "bare-king"):
            assert sorted(returns)[-1] == seats - 1
        assert state.legal_actions() == []
