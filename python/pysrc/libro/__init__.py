"""libro: the games of Alfonso X's *Libro de los Juegos* (1283) for game-AI research.

The API is shaped like OpenSpiel's, so an OpenSpiel user needs no manual::

    import libro
    game = libro.load_game("forcado")          # or a ruleset file path, with options
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(random.choices(actions, probs)[0])
        else:
            state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

Player ids follow OpenSpiel: seats are 0..n-1, ``-1`` is chance and ``-4`` terminal.
Returns are ``n * score - 1`` for libro's game score (1 a win, 0 a loss, shares for a
draw), so they sum to zero: +1/-1/0 with two seats, +3/-1/-1/-1 for a four-seat win.

Modules: :mod:`libro.openspiel` (register every ruleset with pyspiel),
:mod:`libro.pettingzoo` (AEC environments with action masks), :mod:`libro.lab` (self-play
studies, locally or as Ray tasks). :class:`VectorGames` steps many games inside Rust.
"""

from __future__ import annotations

from typing import Mapping, Optional, Union

from ._libro import (
    DEFAULT_MAX_PLIES,
    Bot,
    Game,
    State,
    VectorGames,
)
from ._libro import registered_names as _registered_names

__all__ = [
    "Bot",
    "DEFAULT_MAX_PLIES",
    "Game",
    "PLAYER_CHANCE",
    "PLAYER_TERMINAL",
    "State",
    "VectorGames",
    "bot",
    "load_game",
    "registered_names",
    "vector_games",
]

#: OpenSpiel's player id of a chance node.
PLAYER_CHANCE = -1
#: OpenSpiel's player id of a finished game.
PLAYER_TERMINAL = -4

OptionValue = Union[str, int, bool]


def registered_names() -> list[str]:
    """The names of the rulesets shipped with libro (``acedrex``, ``fallas``, ...)."""
    return _registered_names()


def load_game(name: str, options: Optional[Mapping[str, OptionValue]] = None) -> Game:
    """Loads a ruleset by shipped name, or from a ruleset file (a path containing ``/`` or
    ending in ``.toml``), with rule options set (``{"bear_off": "exact"}``; booleans and
    whole numbers may be given as Python values).

    Raises ``ValueError`` naming the ruleset, option or value that is wrong.
    """
    if options is not None and not isinstance(options, Mapping):
        raise ValueError(f"options must be a dict of option names to values, not {options!r}")
    return Game(name, dict(options or {}))


def bot(game: Game, spec: str = "ai:5", seed: int = 0) -> Bot:
    """A player for ``game``: ``random``, ``greedy``, ``ai:1`` .. ``ai:8`` (search levels),
    ``ai:nodes=N``, ``ai:movetime=MS``, each with ``,seed=S``; ``bot.step(state)`` returns the
    action it plays. Raises ``ValueError`` for a spec libro does not read.
    """
    return Bot(game, spec, seed)


def vector_games(
    game: Union[Game, str],
    num_envs: int,
    seed: int = 0,
    action_mode: str = "auto",
    options: Optional[Mapping[str, OptionValue]] = None,
) -> VectorGames:
    """``num_envs`` games stepped together inside Rust (see :class:`VectorGames`)."""
    if isinstance(game, str):
        game = load_game(game, options)
    return VectorGames(game, num_envs, seed, action_mode)
