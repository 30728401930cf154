"""libro's rulesets as OpenSpiel games, through pyspiel's Python game API.

``register()`` registers every shipped ruleset as ``libro_<name>`` (dashes as
underscores: ``libro_fallas``, ``libro_cuatro_tiempos``) so that ``pyspiel.load_game`` and
OpenSpiel's algorithms (MCTS, evaluators, random playouts) run on them::

    import libro.openspiel, pyspiel
    libro.openspiel.register()
    game = pyspiel.load_game("libro_fallas")
    game = pyspiel.load_game("libro_forcado", {"stalemate": "win"})   # rule options

Each game's parameters are the ruleset's options, with the shipped values as defaults.
Chess rulesets are deterministic, tables rulesets explicitly stochastic (chance outcomes
are numbered by their index in ``chance_outcomes()``). Rewards come at the end only;
utilities are zero-sum (see :mod:`libro`). Perfect information: the observation is the
same for every player.

Requires the ``open_spiel`` package (``pip install open_spiel``).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

import libro

_REGISTERED: dict[str, str] = {}


def short_name(name: str) -> str:
    """The pyspiel name of a libro ruleset: ``cuatro-tiempos`` -> ``libro_cuatro_tiempos``."""
    return "libro_" + name.replace("-", "_")


def _param_value(kind_words: str, value: str):
    """An option's value typed as pyspiel parameters are: bool, int or str."""
    if kind_words == "true | false":
        return value == "true"
    if kind_words.startswith("a whole number"):
        return int(value)
    return value


def _make(ruleset: str, pyspiel):
    base = libro.load_game(ruleset)
    n = base.num_players()
    chance = base.has_chance()
    defaults = {name: _param_value(kind, value) for name, value, kind, _ in base.options()}
    game_type = pyspiel.GameType(
        short_name=short_name(base.name),
        long_name=f"libro {base.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )

    class LibroSpielGame(pyspiel.Game):
        """A libro ruleset as a pyspiel game; its parameters are the rule options."""

        def __init__(self, params: Optional[dict] = None):
            given = dict(params or {})
            changed = {k: v for k, v in given.items() if defaults.get(k) != v}
            self.libro_game = libro.load_game(ruleset, changed)
            g = self.libro_game
            info = pyspiel.GameInfo(
                num_distinct_actions=g.num_distinct_actions(),
                max_chance_outcomes=g.max_chance_outcomes(),
                num_players=g.num_players(),
                min_utility=g.min_utility(),
                max_utility=g.max_utility(),
                utility_sum=g.utility_sum(),
                max_game_length=g.max_game_length(),
            )
            super().__init__(game_type, info, given)

        def new_initial_state(self, seed: int = 0):
            return LibroSpielState(self, self.libro_game.new_initial_state(seed))

        def make_py_observer(self, iig_obs_type=None, params=None):
            return BoardObserver(self.libro_game, params)

    class LibroSpielState(pyspiel.State):
        """A libro game in progress as a pyspiel state."""

        def __init__(self, game, inner: libro.State):
            super().__init__(game)
            self.inner = inner

        def current_player(self):
            return self.inner.current_player()

        def _legal_actions(self, player):
            return self.inner.legal_actions(player)

        def chance_outcomes(self):
            return self.inner.chance_outcomes()

        def _apply_action(self, action):
            self.inner.apply_action(action)

        def _action_to_string(self, player, action):
            return self.inner.action_to_string(player, action)

        def is_terminal(self):
            return self.inner.is_terminal()

        def returns(self):
            return self.inner.returns()

        def __str__(self):
            return str(self.inner)

    LibroSpielGame.__name__ = LibroSpielGame.__qualname__ = f"Libro_{base.name}"
    return game_type, LibroSpielGame


class BoardObserver:
    """The observer pyspiel asks for: libro's observation tensor and position string."""

    def __init__(self, game: libro.Game, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        shape = tuple(game.observation_tensor_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state, player):
        self.tensor[:] = state.inner.observation_tensor(player)

    def string_from(self, state, player):
        return str(state.inner)


def register(names: Optional[list[str]] = None) -> list[str]:
    """Registers libro's rulesets (every shipped one by default) with pyspiel; returns their
    pyspiel names. Registering twice is harmless."""
    import pyspiel

    out = []
    for name in names or libro.registered_names():
        spiel_name = short_name(name)
        if spiel_name not in _REGISTERED:
            game_type, cls = _make(name, pyspiel)
            pyspiel.register_game(game_type, cls)
            _REGISTERED[spiel_name] = name
        out.append(spiel_name)
    return out
