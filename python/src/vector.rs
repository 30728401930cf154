//! Many games stepped inside Rust in one call, for learning: observations, action masks,
//! rewards and episode ends come back as numpy arrays, chance events are rolled with each
//! game's own seeded dice, and a finished game is replaced by a new one at once.

use crate::{value_error, Core, PyGame, CHANCE, TERMINAL};
use libro_core::Seat;
use libro_registry::DynGame;
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Arc;

/// Rulesets with more action ids than this get masks over the legal actions' indexes
/// (`action_mode="index"`) under `"auto"`; the others over the action ids themselves.
pub const MAX_ID_MASK: u64 = 1 << 16;

/// The mask width in index mode where the family does not bound the legal moves (chess:
/// no shipped position comes near it; a wider position raises an error naming it).
pub const DEFAULT_INDEX_WIDTH: usize = 1024;

/// Whether masks run over action ids or over indexes into the sorted legal actions, and
/// how wide they are.
pub fn action_space(core: &Core, mode: &str) -> PyResult<(bool, usize)> {
    let index = match mode {
        "auto" => core.num_actions > MAX_ID_MASK,
        "index" => true,
        "id" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "action_mode `{other}`: give `auto`, `id` or `index`"
            )))
        }
    };
    if index {
        let width = core
            .rules
            .max_legal_actions()
            .unwrap_or(DEFAULT_INDEX_WIDTH);
        Ok((true, width))
    } else {
        let width = usize::try_from(core.num_actions)
            .ok()
            .filter(|&w| w as u64 <= 1 << 24)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "action_mode `id`: {} action ids are too many for a mask; use `index`",
                    core.num_actions
                ))
            })?;
        Ok((false, width))
    }
}

/// `num_envs` games of one ruleset stepped together (see the module docs).
#[pyclass(module = "libro._libro", name = "VectorGames")]
pub struct VectorGames {
    core: Arc<Core>,
    games: Vec<Box<dyn DynGame>>,
    legal: Vec<Vec<u64>>,
    index_mode: bool,
    width: usize,
    next_seed: u64,
    rng: u64,
    /// Games finished since creation.
    finished: u64,
}

/// Rolls a game's pending chance events until a seat is to move or the game is over.
fn advance(core: &Core, g: &mut dyn DynGame) {
    while core.current_player(g) == CHANCE {
        g.roll().expect("a chance node can roll");
    }
}

/// The legal action ids of a game's seat to move (none at the end).
fn legal_of(core: &Core, g: &dyn DynGame) -> Vec<u64> {
    if core.current_player(g) >= 0 {
        g.legal_actions()
    } else {
        Vec::new()
    }
}

/// splitmix64: the random policy's generator, seeded per vector.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl VectorGames {
    /// Puts a new game in slot `i`. A game the dice decide before any seat moves (Fallas:
    /// a first roll that cannot be played) gives a learner nothing: it is skipped.
    fn fresh(&mut self, i: usize) {
        let mut g = self.core.rules.new_game(self.next_seed);
        self.next_seed += 1;
        advance(&self.core, g.as_mut());
        while self.core.current_player(g.as_ref()) < 0 {
            g = self.core.rules.new_game(self.next_seed);
            self.next_seed += 1;
            advance(&self.core, g.as_mut());
        }
        self.legal[i] = legal_of(&self.core, g.as_ref());
        self.games[i] = g;
    }

    /// Observations, masks and current players of every game, as numpy arrays.
    fn arrays<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let n = self.games.len();
        let size = self.core.layout.size();
        let mut obs = vec![0f32; n * size];
        let mut mask = Array2::<bool>::default((n, self.width));
        let mut player = Array1::<i64>::zeros(n);
        for (i, g) in self.games.iter().enumerate() {
            self.core
                .layout
                .write(g.as_ref(), &mut obs[i * size..(i + 1) * size]);
            player[i] = self.core.current_player(g.as_ref());
            let legal = &self.legal[i];
            if self.index_mode {
                if legal.len() > self.width {
                    return Err(PyValueError::new_err(format!(
                        "{} legal actions at `{}`: more than the mask's {}",
                        legal.len(),
                        g.position(),
                        self.width
                    )));
                }
                for k in 0..legal.len() {
                    mask[[i, k]] = true;
                }
            } else {
                for &a in legal {
                    mask[[i, a as usize]] = true;
                }
            }
        }
        let mut shape = vec![n];
        shape.extend(self.core.layout.shape());
        let obs = PyArray1::from_vec(py, obs).reshape(shape)?.into_any();
        Ok((
            obs,
            mask.into_pyarray(py).into_any(),
            player.into_pyarray(py).into_any(),
        ))
    }
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(signature = (game, num_envs, seed = 0, action_mode = "auto"))]
    fn py_new(game: &PyGame, num_envs: usize, seed: u64, action_mode: &str) -> PyResult<Self> {
        if num_envs == 0 {
            return Err(PyValueError::new_err("num_envs must be at least 1"));
        }
        let core = game.core.clone();
        let (index_mode, width) = action_space(&core, action_mode)?;
        let mut v = VectorGames {
            games: (0..num_envs).map(|_| core.rules.new_game(0)).collect(),
            legal: vec![Vec::new(); num_envs],
            core,
            index_mode,
            width,
            next_seed: seed,
            rng: seed ^ 0x7665_6374,
            finished: 0,
        };
        for i in 0..num_envs {
            v.fresh(i);
        }
        Ok(v)
    }

    /// Starts every game afresh; returns (observations, masks, current players).
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        for i in 0..self.games.len() {
            self.fresh(i);
        }
        let (obs, mask, player) = self.arrays(py)?;
        PyTuple::new(py, [obs, mask, player])
    }

    /// Plays one action in every game (an id, or an index in index mode); returns
    /// (observations, masks, rewards [num_envs, seats], dones, current players). A game
    /// that ends is replaced by a new one: its row's reward and done are the ended game's,
    /// its observation the new game's.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = actions.as_slice()?;
        let n = self.games.len();
        if actions.len() != n {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} games",
                actions.len()
            )));
        }
        // Check every action before playing any, so that an error leaves every game as it was.
        let mut ids = Vec::with_capacity(n);
        for (i, &a) in actions.iter().enumerate() {
            let legal = &self.legal[i];
            let id = if self.index_mode {
                usize::try_from(a).ok().and_then(|k| legal.get(k)).copied()
            } else {
                u64::try_from(a)
                    .ok()
                    .filter(|id| legal.binary_search(id).is_ok())
            };
            ids.push(id.ok_or_else(|| {
                PyValueError::new_err(format!(
                    "game {i}: action {a} is not legal here ({} legal)",
                    legal.len()
                ))
            })?);
        }
        let seats = self.core.seats;
        let mut rewards = Array2::<f32>::zeros((n, seats));
        let mut dones = Array1::<bool>::default(n);
        let core = self.core.clone();
        let games = &mut self.games;
        let ended: Vec<usize> = py.detach(|| {
            let mut ended = Vec::new();
            for (i, (g, id)) in games.iter_mut().zip(ids).enumerate() {
                let seat = core.current_player(g.as_ref());
                if g.apply_action(Seat(seat as u8), id).is_err() {
                    continue;
                }
                advance(&core, g.as_mut());
                if core.current_player(g.as_ref()) == TERMINAL {
                    ended.push(i);
                }
            }
            ended
        });
        for i in 0..n {
            if ended.contains(&i) {
                let r = self.core.returns(self.games[i].as_ref());
                for s in 0..seats {
                    rewards[[i, s]] = r[s] as f32;
                }
                dones[i] = true;
                self.finished += 1;
                self.fresh(i);
            } else {
                self.legal[i] = legal_of(&self.core, self.games[i].as_ref());
            }
        }
        let (obs, mask, player) = self.arrays(py)?;
        PyTuple::new(
            py,
            [
                obs,
                mask,
                rewards.into_pyarray(py).into_any(),
                dones.into_pyarray(py).into_any(),
                player,
            ],
        )
    }

    /// A uniformly random legal action for every game (ids or indexes, as `step` takes).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = Array1::<i64>::zeros(self.games.len());
        for (i, legal) in self.legal.iter().enumerate() {
            if legal.is_empty() {
                continue;
            }
            let k = (splitmix(&mut self.rng) % legal.len() as u64) as usize;
            out[i] = if self.index_mode {
                k as i64
            } else {
                legal[k] as i64
            };
        }
        out.into_pyarray(py)
    }

    /// Game `i`'s legal action ids, sorted (index `k` of a mask row is the `k`th of these).
    fn legal_actions(&self, i: usize) -> PyResult<Vec<i64>> {
        self.legal
            .get(i)
            .map(|l| l.iter().map(|&a| a as i64).collect())
            .ok_or_else(|| value_error(format!("no game {i}")))
    }

    /// Game `i`'s position string.
    fn position(&self, i: usize) -> PyResult<String> {
        self.games
            .get(i)
            .map(|g| g.position())
            .ok_or_else(|| value_error(format!("no game {i}")))
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.games.len()
    }
    #[getter]
    fn action_mode(&self) -> &'static str {
        if self.index_mode {
            "index"
        } else {
            "id"
        }
    }
    #[getter]
    fn mask_width(&self) -> usize {
        self.width
    }
    #[getter]
    fn finished(&self) -> u64 {
        self.finished
    }
}

/// The mask width and mode a PettingZoo environment uses: (index mode?, width).
#[pyfunction]
#[pyo3(signature = (game, action_mode = "auto"))]
pub fn action_space_of(game: &PyGame, action_mode: &str) -> PyResult<(bool, usize)> {
    action_space(&game.core, action_mode)
}
