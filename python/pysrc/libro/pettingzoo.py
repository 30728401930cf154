"""libro's rulesets as PettingZoo AEC environments with action masks.

::

    from libro.pettingzoo import env
    e = env("fallas")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        else:
            mask = obs["action_mask"]
            action = e.action_space(agent).sample(mask)
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` in the ruleset's seat order (``env.seat_names``
names them: ``white``, ``black``; four seats in Cuatro Tiempos).
Each observation is a dict: ``observation`` (libro's observation tensor, the same for
every agent: perfect information) and ``action_mask`` (int8, 1 where the action is legal;
all zeros for an agent not to move).

**Actions.** OpenSpiel's action ids are stable per ruleset, but a tables game has
677**3 = 310,288,733 of them (a turn is up to three steps of 677 codes each), too many
for a mask. So the action space is ``Discrete(width)`` in one of two modes:

- ``"id"``: the action is libro's action id; the mask is over every id
  (``width = num_distinct_actions``). The chess rulesets (about 49,000 to 57,000 ids).
- ``"index"``: the action is an index into the agent's legal actions sorted ascending
  (``state.legal_actions()``); the mask has a 1 for each of the first ``len(legal)``
  entries. ``width`` is the most legal moves a position can have: 4,815 for tables (its
  move buffer), 1,024 for chess (no shipped position comes near; more raises an error).

``action_mode="auto"`` (the default) takes ``"index"`` for rulesets with more than 65,536
action ids (tables) and ``"id"`` otherwise. ``info["legal_actions"]`` holds the sorted ids
in both modes, and ``info["legal_moves"]`` the moves in libro's notation.

**Dice** are rolled inside ``step`` (and ``reset``) with the game's own seeded dice, as
PettingZoo's backgammon-like environments do: agents only ever see a seat's turn. ``reset``
skips a game the dice decide before any seat moves (a first Fallas roll that cannot be
played: the next seed is played instead).

**Rewards** come at the end: ``n * score - 1`` per agent (+1/-1/0 with two seats). A game
still running after ``max_game_length()`` plies is truncated with zero rewards.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import libro
from libro._libro import action_space_of


def env(name: str, options: Optional[Mapping[str, Any]] = None, **kwargs) -> "LibroEnv":
    """An AEC environment for ruleset ``name`` (a shipped name or a file path), with rule
    ``options``; keyword arguments go to :class:`LibroEnv` (``render_mode``,
    ``action_mode``)."""
    return LibroEnv(name, options=options, **kwargs)


class LibroEnv(AECEnv):
    """A libro ruleset as a PettingZoo AEC environment (see the module docs)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "libro_v0", "is_parallelizable": False}

    def __init__(
        self,
        name: str,
        options: Optional[Mapping[str, Any]] = None,
        render_mode: Optional[str] = None,
        action_mode: str = "auto",
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: give one of {self.metadata['render_modes']}")
        self.game = libro.load_game(name, options)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"libro_{self.game.name.replace('-', '_')}_v0")
        self.index_mode, self.width = action_space_of(self.game, action_mode)
        self.action_mode = "index" if self.index_mode else "id"
        self.seat_names = self.game.seat_names()
        self.possible_agents = [f"player_{i}" for i in range(len(self.seat_names))]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        shape = tuple(self.game.observation_tensor_shape())
        start = self.game.new_initial_state().observation_tensor()
        # Grid planes hold 0 or 1; a track count is at most every checker on the board.
        high = 1.0 if len(shape) == 3 else float(sum(start))
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=high, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(self.width,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.width) for a in self.possible_agents}
        self._seed = 0
        self.state: Optional[libro.State] = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _roll(self):
        while self.state.is_chance_node():
            self.state.roll()

    def _legal(self) -> list[int]:
        return self.state.legal_actions() if self.state.is_player_node() else []

    def _info(self) -> dict:
        return {"legal_actions": self._legal(), "legal_moves": self.state.legal_moves()}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        if seed is not None:
            self._seed = int(seed)
        else:
            self._seed += 1
        self.state = self.game.new_initial_state(self._seed)
        self._roll()
        # A game the dice decide before any seat moves (a Fallas first roll that cannot be
        # played) has no turn to give an agent: the next seed is played instead.
        while self.state.is_terminal():
            self._seed += 1
            self.state = self.game.new_initial_state(self._seed)
            self._roll()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]
        self.infos[self.agent_selection] = self._info()

    def observe(self, agent):
        i = self.agent_name_mapping[agent]
        obs = self.state.observation_array(i)
        mask = np.zeros(self.width, dtype=np.int8)
        if self.state.current_player() == i:
            legal = self.state.legal_actions()
            if self.index_mode:
                if len(legal) > self.width:
                    raise RuntimeError(
                        f"{len(legal)} legal actions at {self.state}: more than the mask's {self.width}"
                    )
                mask[: len(legal)] = 1
            else:
                mask[legal] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        legal = self.state.legal_actions()
        a = int(action)
        if self.index_mode:
            if not 0 <= a < len(legal):
                raise ValueError(f"action index {a} is out of range: {len(legal)} legal actions")
            a = legal[a]
        self.state.apply_action(a)  # ValueError if illegal
        self._roll()
        self._cumulative_rewards[agent] = 0.0
        self.infos = {x: {} for x in self.agents}
        if self.state.is_terminal():
            returns = self.state.returns()
            cut = self.state.cut_off()
            for x in self.agents:
                self.rewards[x] = float(returns[self.agent_name_mapping[x]])
                if cut:
                    self.truncations[x] = True
                else:
                    self.terminations[x] = True
            i = self.agents.index(agent)
            self.agent_selection = self.agents[(i + 1) % len(self.agents)]
        else:
            for x in self.agents:
                self.rewards[x] = 0.0
            self.agent_selection = self.possible_agents[self.state.current_player()]
            self.infos[self.agent_selection] = self._info()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass
