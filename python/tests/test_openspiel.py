"""The rulesets as pyspiel games: loading, options, and OpenSpiel's MCTS running on them."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

import libro.openspiel  # noqa: E402


def test_every_ruleset_registers():
    names = libro.openspiel.register()
    assert "libro_fallas" in names and "libro_cuatro_tiempos" in names
    registered = set(pyspiel.registered_names())
    assert set(names) <= registered


def test_fallas_through_pyspiel():
    libro.openspiel.register()
    game = pyspiel.load_game("libro_fallas")
    assert game.num_players() == 2 and game.max_chance_outcomes() == 56
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert len(state.chance_outcomes()) == 36
    assert len(state.observation_tensor(0)) == 72
    assert state.observation_string(0) == str(state)
    exact = pyspiel.load_game("libro_fallas(bear_off=exact)")
    assert exact.get_parameters()["bear_off"] == "exact"


@pytest.mark.parametrize("name", ["libro_fallas", "libro_shatranj"])
def test_mcts_plays(name):
    libro.openspiel.register()
    game = pyspiel.load_game(name)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 4:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    assert moves == 4


def test_mcts_finds_mate_in_one():
    libro.openspiel.register()
    game = pyspiel.load_game("libro_shatranj")
    # pyspiel states start at the initial position: the mate-in-one is set up by giving a
    # pyspiel state the libro state it wraps.
    inner = game.libro_game.new_state_from("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 400, mcts.RandomRolloutEvaluator(2, rng), random_state=rng,
                       solve=True)
    wrapped = game.new_initial_state()
    wrapped.inner = inner
    action = bot.step(wrapped)
    assert inner.action_to_string(0, action) == "a1a8"


def test_number_and_choice_options_are_parameters():
    libro.openspiel.register()
    game = pyspiel.load_game("libro_forcado")
    defaults = game.get_parameters()
    assert defaults["no_progress_plies"] == 100 and defaults["repetition"] == 3
    short = pyspiel.load_game("libro_forcado(no_progress_plies=10)")
    assert short.libro_game.get_parameters() == [("no_progress_plies", "10")]
