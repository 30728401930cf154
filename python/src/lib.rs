//! The extension module `libro._libro`: libro's games through the registry, shaped like
//! OpenSpiel's game and state API, with the AI, a vectorised stepper returning numpy arrays,
//! and the lab's study shards. The Python package (`pysrc/libro`) wraps it; its docstrings
//! and `.pyi` stubs are the reference.

mod lab;
mod obs;
mod vector;

use libro_ai::{Control, PlayerSpec};
use libro_core::Turn;
use libro_registry::{AnyRuleset, DynGame};
use numpy::{PyArray1, PyArrayMethods};
use obs::Layout;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict};
use std::sync::Arc;

/// OpenSpiel's player id of a chance node.
pub const CHANCE: i64 = -1;
/// OpenSpiel's player id of a terminal state.
pub const TERMINAL: i64 = -4;

/// A ruleset loaded for Python: the registry's ruleset and what the API derives from it once.
pub struct Core {
    pub rules: AnyRuleset,
    /// The name it was loaded by (a shipped name or a file path).
    pub loaded_as: String,
    /// The options given at load, as text.
    pub params: Vec<(String, String)>,
    pub seats: usize,
    pub layout: Layout,
    pub num_actions: u64,
    /// Plies (moves and chance events) after which a game is cut off as a draw.
    pub max_len: u32,
    pub max_chance: usize,
}

/// The most plies a game runs before the package cuts it off as a move-limit draw, when the
/// ruleset has no `max_plies` of its own: the same default as `libro evaluate --max-plies`.
pub const DEFAULT_MAX_PLIES: u32 = 10_000;

impl Core {
    fn load(name: &str, params: Vec<(String, String)>) -> PyResult<Core> {
        let rules = libro_registry::load(name, &params).map_err(value_error)?;
        let seats = rules.seat_names().len();
        let layout = Layout::of(&rules);
        let own_limit = rules
            .options()
            .iter()
            .find(|o| o.name == "max_plies")
            .and_then(|o| o.value.parse::<u32>().ok())
            .filter(|&n| n > 0);
        Ok(Core {
            num_actions: rules.num_distinct_actions(),
            max_chance: rules.max_chance_outcomes(),
            max_len: own_limit.unwrap_or(DEFAULT_MAX_PLIES),
            seats,
            layout,
            rules,
            loaded_as: name.to_string(),
            params,
        })
    }

    /// Whether the package has cut the game off (the ruleset's own end has not come).
    pub fn cut_off(&self, g: &dyn DynGame) -> bool {
        g.ply() >= self.max_len && g.turn() != Turn::Over
    }

    /// OpenSpiel's current player: a seat, -1 for chance, -4 once over (or cut off).
    pub fn current_player(&self, g: &dyn DynGame) -> i64 {
        if self.cut_off(g) {
            return TERMINAL;
        }
        match g.turn() {
            Turn::Seat(s) => i64::from(s.0),
            Turn::Chance => CHANCE,
            Turn::Over => TERMINAL,
        }
    }

    /// Each seat's return: `n * score - 1` (win `n - 1`, loss -1, a two-seat draw 0), so
    /// returns sum to zero; a cut-off game shares the score equally (all zeros). Zeros
    /// before the end.
    pub fn returns(&self, g: &dyn DynGame) -> Vec<f64> {
        let n = self.seats as f64;
        match g.result() {
            Some(r) => r
                .seats
                .iter()
                .map(|s| n * f64::from(s.score) - 1.0)
                .collect(),
            None => vec![0.0; self.seats],
        }
    }

    /// The chance outcome with action id `a` (its index in the outcome list).
    fn chance_text(&self, g: &dyn DynGame, a: i64) -> PyResult<String> {
        let outcomes = g.chance_outcomes();
        usize::try_from(a)
            .ok()
            .and_then(|i| outcomes.get(i))
            .map(|(t, _)| t.clone())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "action {a} is not a chance outcome here (ids 0..{})",
                    outcomes.len()
                ))
            })
    }

    /// Applies action `a` at a seat's or chance's turn; ValueError if it is not legal here.
    pub fn apply(&self, g: &mut dyn DynGame, a: i64) -> PyResult<()> {
        match self.current_player(g) {
            TERMINAL => Err(PyValueError::new_err(format!(
                "action {a}: the game is over"
            ))),
            CHANCE => {
                let text = self.chance_text(g, a)?;
                g.apply_chance(&text).map(|_| ()).map_err(value_error)
            }
            seat => {
                let id = u64::try_from(a).map_err(|_| {
                    PyValueError::new_err(format!("action {a} is not a legal move here"))
                })?;
                g.apply_action(libro_core::Seat(seat as u8), id)
                    .map(|_| ())
                    .map_err(value_error)
            }
        }
    }
}

/// A Python ValueError carrying an error's message.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An option value given from Python as text: booleans as `true`/`false`, numbers as digits.
fn option_text(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        return Ok(if value.extract::<bool>()? {
            "true"
        } else {
            "false"
        }
        .into());
    }
    if let Ok(n) = value.extract::<i64>() {
        return Ok(n.to_string());
    }
    if let Ok(s) = value.extract::<String>() {
        return Ok(s);
    }
    Err(PyValueError::new_err(format!(
        "option `{key}`: give a str, int or bool, not {}",
        value.get_type().name()?
    )))
}

/// A loaded ruleset (OpenSpiel's `Game`).
#[pyclass(module = "libro._libro", name = "Game", frozen)]
pub struct PyGame {
    pub core: Arc<Core>,
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (name, options = None))]
    fn py_new(name: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut params = Vec::new();
        if let Some(d) = options {
            for (k, v) in d.iter() {
                let key: String = k
                    .extract()
                    .map_err(|_| PyValueError::new_err(format!("option names are str, not {k}")))?;
                let text = option_text(&key, &v)?;
                params.push((key, text));
            }
        }
        // The registry names an unknown option or a bad value.
        let core = Core::load(name, params)?;
        Ok(PyGame {
            core: Arc::new(core),
        })
    }

    /// How many seats play.
    fn num_players(&self) -> usize {
        self.core.seats
    }
    /// Every action id is below this (tables: 677**3, too many for a mask).
    fn num_distinct_actions(&self) -> u64 {
        self.core.num_actions
    }
    /// The most outcomes one chance event has (Fallas: 56; chess: 0).
    fn max_chance_outcomes(&self) -> usize {
        self.core.max_chance
    }
    /// Plies after which a game ends: the ruleset's max_plies, else 10,000 (a cut-off draw).
    fn max_game_length(&self) -> u32 {
        self.core.max_len
    }
    /// The most legal moves a position can have, where the family bounds it.
    fn max_legal_actions(&self) -> Option<usize> {
        self.core.rules.max_legal_actions()
    }
    /// Grid: [seats * piece types + seats, ranks, files]; track: [2 * points + 4 + dice * sides + 2], plus `points` where pairs start stacked.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.core.layout.shape()
    }
    /// The product of observation_tensor_shape().
    fn observation_tensor_size(&self) -> usize {
        self.core.layout.size()
    }
    /// A loss: -1.
    fn min_utility(&self) -> f64 {
        -1.0
    }
    /// A win: seats - 1.
    fn max_utility(&self) -> f64 {
        self.core.seats as f64 - 1.0
    }
    /// Returns sum to zero.
    fn utility_sum(&self) -> f64 {
        0.0
    }
    /// Whether games have chance events (dice).
    fn has_chance(&self) -> bool {
        self.core.max_chance > 0
    }
    #[getter]
    fn name(&self) -> String {
        self.core.rules.name().to_string()
    }
    #[getter]
    fn title(&self) -> String {
        self.core.rules.title().to_string()
    }
    #[getter]
    fn source(&self) -> String {
        self.core.rules.source().to_string()
    }
    #[getter]
    fn family(&self) -> &'static str {
        self.core.rules.family()
    }
    #[getter]
    fn loaded_as(&self) -> String {
        self.core.loaded_as.clone()
    }
    /// The seats' names in seat order.
    fn seat_names(&self) -> Vec<String> {
        self.core.rules.seat_names()
    }
    /// The piece types' letters, in the observation planes' order.
    fn piece_letters(&self) -> Vec<String> {
        self.core
            .rules
            .pieces()
            .into_iter()
            .map(|p| p.letter)
            .collect()
    }
    /// (dice per roll, sides), or None.
    fn dice(&self) -> Option<(u8, u8)> {
        self.core.rules.dice()
    }
    /// The options given at load, as text.
    fn get_parameters(&self) -> Vec<(String, String)> {
        self.core.params.clone()
    }
    /// Every option: (name, value in force, allowed values in words, explanation).
    fn options(&self) -> Vec<(String, String, String, String)> {
        self.core
            .rules
            .options()
            .into_iter()
            .map(|o| {
                let allowed = o.kind.allowed();
                (o.name, o.value, allowed, o.explanation)
            })
            .collect()
    }
    /// The start of a game; `seed` drives its own dice (State.roll).
    #[pyo3(signature = (seed = 0))]
    fn new_initial_state(&self, seed: u64) -> PyState {
        PyState {
            core: self.core.clone(),
            game: self.core.rules.new_game(seed),
            history: Vec::new(),
        }
    }
    /// A state from a position string (as `str(state)` writes it); its history is empty.
    fn new_state_from(&self, position: &str) -> PyResult<PyState> {
        let game = self
            .core
            .rules
            .parse_position(position)
            .map_err(value_error)?;
        Ok(PyState {
            core: self.core.clone(),
            game,
            history: Vec::new(),
        })
    }
    fn __repr__(&self) -> String {
        format!("libro.Game({:?})", self.core.loaded_as)
    }
    fn __str__(&self) -> String {
        self.core.rules.name().to_string()
    }
}

/// A game in progress (OpenSpiel's `State`).
#[pyclass(module = "libro._libro", name = "State")]
pub struct PyState {
    pub core: Arc<Core>,
    pub game: Box<dyn DynGame>,
    pub history: Vec<i64>,
}

impl PyState {
    fn check_player(&self, player: Option<i64>) -> PyResult<()> {
        match player {
            Some(p) if p < 0 || p as usize >= self.core.seats => Err(PyValueError::new_err(
                format!("player {p} is not a seat (0..{})", self.core.seats),
            )),
            _ => Ok(()),
        }
    }
}

#[pymethods]
impl PyState {
    /// The seat to move, -1 at a chance node, -4 once over.
    fn current_player(&self) -> i64 {
        self.core.current_player(self.game.as_ref())
    }
    /// Whether chance (the dice) is to act.
    fn is_chance_node(&self) -> bool {
        self.current_player() == CHANCE
    }
    /// Whether the game is over (or cut off at max_game_length).
    fn is_terminal(&self) -> bool {
        self.current_player() == TERMINAL
    }
    fn is_player_node(&self) -> bool {
        self.current_player() >= 0
    }
    fn is_simultaneous_node(&self) -> bool {
        false
    }
    /// Sorted action ids of the seat to move (stable per ruleset); outcome ids at chance.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<i64>> {
        self.check_player(player)?;
        let current = self.current_player();
        Ok(match current {
            TERMINAL => Vec::new(),
            CHANCE if player.is_none() => (0..self.game.chance_outcomes().len() as i64).collect(),
            CHANCE => Vec::new(),
            seat if player.is_none_or(|p| p == seat) => self
                .game
                .legal_actions()
                .into_iter()
                .map(|a| a as i64)
                .collect(),
            _ => Vec::new(),
        })
    }
    /// (action, probability) pairs of the pending chance event: each exactly weight / total.
    fn chance_outcomes(&self) -> Vec<(i64, f64)> {
        if !self.is_chance_node() {
            return Vec::new();
        }
        self.game
            .chance_outcomes()
            .into_iter()
            .enumerate()
            .map(|(i, (_, p))| (i as i64, p))
            .collect()
    }
    /// Plays a move or a chance outcome; ValueError, the state unchanged, if not legal.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        self.core.apply(self.game.as_mut(), action)?;
        self.history.push(action);
        Ok(())
    }
    /// Resolves a pending chance event with the game's own seeded dice; returns the action.
    fn roll(&mut self) -> PyResult<i64> {
        if !self.is_chance_node() {
            return Err(PyValueError::new_err("no chance event is pending"));
        }
        let outcomes = self.game.chance_outcomes();
        let text = self.game.roll().map_err(value_error)?;
        let a = outcomes
            .iter()
            .position(|(t, _)| *t == text)
            .ok_or_else(|| PyRuntimeError::new_err("rolled an outcome not in the list"))?
            as i64;
        self.history.push(a);
        Ok(a)
    }
    /// A move in libro's notation, or a chance outcome (`6-4-1`).
    fn action_to_string(&self, player: i64, action: i64) -> PyResult<String> {
        if player == CHANCE || self.is_chance_node() {
            return self.core.chance_text(self.game.as_ref(), action);
        }
        let id = u64::try_from(action)
            .map_err(|_| PyValueError::new_err(format!("action {action} is not a move")))?;
        self.game.action_text(id).map_err(value_error)
    }
    /// The action of a move in any notation libro reads, or of a chance outcome.
    fn string_to_action(&self, player: i64, text: &str) -> PyResult<i64> {
        if player == CHANCE || self.is_chance_node() {
            // The game reads the outcome in any order of the dice (`1-4-6`) and names it
            // canonically (`6-4-1`), as the outcome list does.
            let canonical = self
                .game
                .clone_box()
                .apply_chance(text.trim())
                .map_err(value_error)?;
            return self
                .game
                .chance_outcomes()
                .iter()
                .position(|(t, _)| *t == canonical)
                .map(|i| i as i64)
                .ok_or_else(|| {
                    PyValueError::new_err(format!("`{text}` is not a chance outcome here"))
                });
        }
        self.game
            .action_of(text)
            .map(|a| a as i64)
            .map_err(value_error)
    }
    /// Per seat n * score - 1 (+1/-1/0 with two seats): zero-sum; zeros until the end.
    fn returns(&self) -> Vec<f64> {
        self.core.returns(self.game.as_ref())
    }
    /// Terminal rewards: the returns at the end, zeros before.
    fn rewards(&self) -> Vec<f64> {
        self.returns()
    }
    fn player_return(&self, player: i64) -> PyResult<f64> {
        self.check_player(Some(player))?;
        Ok(self.returns()[player as usize])
    }
    /// Every action applied since the start, chance outcomes included.
    fn history(&self) -> Vec<i64> {
        self.history.clone()
    }
    /// Plies played: moves and chance events.
    fn move_number(&self) -> u32 {
        self.game.ply()
    }
    fn num_players(&self) -> usize {
        self.core.seats
    }
    /// An independent copy.
    fn clone(&self) -> PyState {
        PyState {
            core: self.core.clone(),
            game: self.game.clone_box(),
            history: self.history.clone(),
        }
    }
    fn __copy__(&self) -> PyState {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }
    /// The observation as a flat list (layout: Game.observation_tensor_shape); the same
    /// for every player (perfect information).
    #[pyo3(signature = (player = None))]
    fn observation_tensor(&self, player: Option<i64>) -> PyResult<Vec<f32>> {
        self.check_player(player)?;
        let mut out = vec![0.0; self.core.layout.size()];
        self.core.layout.write(self.game.as_ref(), &mut out);
        Ok(out)
    }
    /// The observation tensor as a numpy array of `observation_tensor_shape()`.
    #[pyo3(signature = (player = None))]
    fn observation_array<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let flat = self.observation_tensor(player)?;
        let shape = self.core.layout.shape();
        Ok(PyArray1::from_vec(py, flat).reshape(shape)?.into_any())
    }
    /// The position string.
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<i64>) -> PyResult<String> {
        self.check_player(player)?;
        Ok(self.game.position())
    }
    /// The legal moves in libro's notation, in the order of `legal_actions()`.
    fn legal_moves(&self) -> Vec<String> {
        if self.current_player() < 0 {
            return Vec::new();
        }
        self.game
            .legal_actions()
            .into_iter()
            .filter_map(|a| self.game.action_text(a).ok())
            .collect()
    }
    /// Whether the package cut the game off at `max_game_length()` plies (the ruleset's own
    /// end had not come): a truncation rather than an end by the rules.
    fn cut_off(&self) -> bool {
        self.core.cut_off(self.game.as_ref())
    }
    /// Why and how the game ended (`checkmate`, `falla`, `move-limit`, ...), or None.
    fn end_reason(&self) -> Option<String> {
        if let Some(r) = self.game.result() {
            return Some(r.reason.name().to_string());
        }
        self.core
            .cut_off(self.game.as_ref())
            .then(|| "move-limit".to_string())
    }
    /// The position in libro's notation (FEN-like; a gnubg ID with turn and dice).
    fn position(&self) -> String {
        self.game.position()
    }
    fn __str__(&self) -> String {
        self.game.position()
    }
    fn __repr__(&self) -> String {
        format!("libro.State({:?})", self.game.position())
    }
}

/// A player (OpenSpiel's `Bot`): `random`, `greedy`, `ai:1`..`ai:8` and the other specs of
/// `libro play --players`.
#[pyclass(module = "libro._libro", name = "Bot")]
pub struct PyBot {
    core: Arc<Core>,
    spec: PlayerSpec,
    text: String,
    stream: u64,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (game, spec, seed = 0))]
    fn py_new(game: &PyGame, spec: &str, seed: u64) -> PyResult<Self> {
        let parsed: PlayerSpec = spec
            .parse()
            .map_err(|e| PyValueError::new_err(format!("player `{spec}`: {e}")))?;
        Ok(PyBot {
            core: game.core.clone(),
            spec: parsed,
            text: spec.to_string(),
            stream: seed,
        })
    }
    /// The action this player chooses for the seat to move (the search runs without the GIL).
    fn step(&mut self, py: Python<'_>, state: &PyState) -> PyResult<i64> {
        if !Arc::ptr_eq(&self.core, &state.core)
            && self.core.rules.digest() != state.core.rules.digest()
        {
            return Err(PyValueError::new_err(
                "this bot was made for another game's rules",
            ));
        }
        if state.current_player() < 0 {
            return Err(PyValueError::new_err(
                "a bot chooses at a seat's turn, not at chance or after the end",
            ));
        }
        let game = state.game.clone_box();
        let spec = self.spec;
        let stream = self.stream;
        self.stream = self.stream.wrapping_add(1);
        let text = py
            .detach(move || game.choose(spec, stream, &Control::default()))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        state
            .game
            .action_of(&text)
            .map(|a| a as i64)
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }
    fn restart(&mut self) {}
    #[getter]
    fn spec(&self) -> String {
        self.text.clone()
    }
    fn __repr__(&self) -> String {
        format!("libro.Bot({:?})", self.text)
    }
}

/// The shipped rulesets' names.
#[pyfunction]
fn registered_names() -> Vec<String> {
    libro_registry::shipped()
        .into_iter()
        .map(|h| h.name)
        .collect()
}

#[pymodule]
fn _libro(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyBot>()?;
    m.add_class::<vector::VectorGames>()?;
    m.add_function(wrap_pyfunction!(registered_names, m)?)?;
    m.add_function(wrap_pyfunction!(vector::action_space_of, m)?)?;
    lab::register(m)?;
    m.add("DEFAULT_MAX_PLIES", DEFAULT_MAX_PLIES)?;
    Ok(())
}
