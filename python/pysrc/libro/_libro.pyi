"""Type stubs of the extension module ``libro._libro`` (PyO3): the reference for the
OpenSpiel-shaped API. Player ids: seats 0..n-1, -1 chance, -4 terminal."""

from typing import Mapping, Optional, Union

import numpy as np
import numpy.typing as npt

DEFAULT_MAX_PLIES: int

def registered_names() -> list[str]: ...
def action_space_of(game: Game, action_mode: str = "auto") -> tuple[bool, int]:
    """(index mode?, mask width) of the PettingZoo/vector action space: see libro.pettingzoo."""

def lab_prepare(
    ruleset: str,
    players: list[str],
    games: int,
    seed: int,
    vary: list[str],
    options: list[str],
    max_plies: int,
    opening_moves: int,
) -> str: ...
def lab_run_shard(study: str, part: int, parts: int, threads: Optional[int] = None) -> list[str]: ...
def lab_report(study: str, rows: list[str]) -> tuple[str, str, str]: ...

class Game:
    """A loaded ruleset (OpenSpiel's ``Game``); make one with ``libro.load_game``.

    Observation tensor layout (``observation_tensor_shape()``):

    - grid boards (chess family): ``[seats * piece_types + seats, ranks, files]``, rank 1
      and file a first. Plane ``seat * piece_types + t`` is 1 where ``seat`` has a piece of
      type ``t`` (``piece_letters()`` order); plane ``seats * piece_types + s`` is all 1 when
      seat ``s`` is to move.
    - track boards (tables family): a vector of ``2 * points + 4 + dice * sides + 2``:
      seat 0's checker count on board points 1..points (seat 0's numbering), the same for
      seat 1, the bar (seat 0, seat 1), borne off (seat 0, seat 1), the dice to play as one
      one-hot block of ``sides`` per die (largest first; zeros when no seat is to move),
      and the seat to move, one-hot. Fallas: 24 + 24 + 2 + 2 + 18 + 2 = 72. In games
      that begin with pairs stacked (Doblet), ``points`` more: 1 on each board point whose
      pair is still stacked (Doblet: 96).

    The tensor is the same for every player (perfect information).
    """

    def __init__(self, name: str, options: Optional[Mapping[str, Union[str, int, bool]]] = None) -> None: ...
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int:
        """Every action id is below this. Chess: 1 + 101 + squares^2 * piece types * 2
        (49,254 on 8x8 with six piece types). Tables: 677**3 = 310,288,733 (a turn is up to
        three steps of 677 codes): a valid OpenSpiel action space, too large for a mask,
        so PettingZoo and VectorGames index into the legal actions for tables."""
    def max_chance_outcomes(self) -> int:
        """The most outcomes a chance event has: Fallas 56 (three dice, unordered); 0 for chess."""
    def max_game_length(self) -> int:
        """The ruleset's own ``max_plies`` if it has one, else DEFAULT_MAX_PLIES (10,000,
        as ``libro evaluate``): after that many plies (moves and chance events) the state is
        terminal with all-zero returns (a move-limit draw; ``State.cut_off()`` is True)."""
    def max_legal_actions(self) -> Optional[int]:
        """The most legal moves a position can have where the family bounds it (tables 4,815)."""
    def observation_tensor_shape(self) -> list[int]: ...
    def observation_tensor_size(self) -> int: ...
    def min_utility(self) -> float: ...
    def max_utility(self) -> float: ...
    def utility_sum(self) -> float: ...
    def has_chance(self) -> bool: ...
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def loaded_as(self) -> str: ...
    def seat_names(self) -> list[str]: ...
    def piece_letters(self) -> list[str]: ...
    def dice(self) -> Optional[tuple[int, int]]:
        """(dice per roll, sides), or None for games without dice."""
    def get_parameters(self) -> list[tuple[str, str]]:
        """The options given at load, as text."""
    def options(self) -> list[tuple[str, str, str, str]]:
        """Every rule option: (name, value in force, allowed values, explanation)."""
    def new_initial_state(self, seed: int = 0) -> State:
        """The start; ``seed`` drives the game's own dice (``State.roll``)."""
    def new_state_from(self, position: str) -> State:
        """A state from a position string as ``str(state)`` writes it (FEN-like for chess,
        a gnubg Position ID with turn and dice for tables). ValueError if unreadable."""

class State:
    """A game in progress (OpenSpiel's ``State``)."""

    def current_player(self) -> int:
        """The seat to move, -1 at a chance node, -4 once over."""
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def is_player_node(self) -> bool: ...
    def is_simultaneous_node(self) -> bool: ...
    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        """Sorted action ids (stable per ruleset); at a chance node the outcome ids."""
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs: each outcome's exact weight / total (three dice:
        1, 3 or 6 out of 216; the roll-off 1/36). Outcome ids are indexes in this list."""
    def apply_action(self, action: int) -> None:
        """Plays a move or a chance outcome; ValueError (state unchanged) if not legal."""
    def roll(self) -> int:
        """Resolves a pending chance event with the game's own seeded dice; its action."""
    def action_to_string(self, player: int, action: int) -> str:
        """A move in libro's notation (``e2e3``, ``24/21 21/15 6/5*``) or an outcome (``6-4-1``)."""
    def string_to_action(self, player: int, text: str) -> int: ...
    def returns(self) -> list[float]:
        """Per seat ``n * score - 1``: +1/-1/0 with two seats, zero-sum; zeros until the end."""
    def rewards(self) -> list[float]:
        """Terminal rewards: the returns at the end, zeros before."""
    def player_return(self, player: int) -> float: ...
    def history(self) -> list[int]:
        """Every action applied (moves and chance outcomes) since the start."""
    def move_number(self) -> int:
        """Plies played: moves and chance events."""
    def num_players(self) -> int: ...
    def clone(self) -> State: ...
    def observation_tensor(self, player: Optional[int] = None) -> list[float]:
        """See ``Game``'s docstring for the layout."""
    def observation_array(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The observation tensor as a numpy array of ``observation_tensor_shape()``."""
    def observation_string(self, player: Optional[int] = None) -> str: ...
    def legal_moves(self) -> list[str]:
        """The legal moves in libro's notation, in ``legal_actions()`` order."""
    def cut_off(self) -> bool:
        """Whether the game was stopped at ``max_game_length()`` before its rules ended it."""
    def end_reason(self) -> Optional[str]:
        """``checkmate``, ``falla``, ``bore-off``, ``repetition``, ``move-limit``, ... or None."""
    def position(self) -> str: ...
    def __str__(self) -> str:
        """The position in libro's notation."""

class Bot:
    """A player (OpenSpiel's ``Bot``): ``random``, ``greedy``, ``ai:1``..``ai:8``, ..."""

    def __init__(self, game: Game, spec: str, seed: int = 0) -> None: ...
    def step(self, state: State) -> int:
        """The action chosen for the seat to move (the search releases the GIL)."""
    def restart(self) -> None: ...
    @property
    def spec(self) -> str: ...

class VectorGames:
    """``num_envs`` games stepped inside Rust. Chance is rolled with each game's seeded dice;
    every row is always at a seat's turn; a finished game is replaced at once (its row's
    reward and done belong to the finished game, its observation to the new one). Games the
    dice decide before any move are skipped. ``action_mode``: ``"id"`` (masks over action
    ids; chess), ``"index"`` (masks over indexes into the sorted legal actions; tables), or
    ``"auto"`` (index when there are more than 65,536 ids)."""

    def __init__(self, game: Game, num_envs: int, seed: int = 0, action_mode: str = "auto") -> None: ...
    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
        """(observations [n, *shape], masks [n, mask_width], current players [n])."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.int64],
    ]:
        """(observations, masks, rewards [n, seats], dones [n], current players). Every
        action is checked before any is played: a ValueError names the game."""
    def random_actions(self) -> npt.NDArray[np.int64]: ...
    def legal_actions(self, i: int) -> list[int]: ...
    def position(self, i: int) -> str: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def action_mode(self) -> str: ...
    @property
    def mask_width(self) -> int: ...
    @property
    def finished(self) -> int: ...
