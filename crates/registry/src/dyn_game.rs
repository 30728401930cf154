//! Games of any ruleset behind one object type, driven by text and by action ids: for front
//! ends (the web server, the terminal game) that hold games of many rulesets at once. Not for
//! hot paths: search and perft use the families' own types through [`crate::Visit`].

use crate::family::{FamilyGame, Ledger, RollPlays};
use crate::view::BoardView;
use libro_ai::{Control, Limits, Player, PlayerSpec, Score, SearchConfig, Searcher};
use libro_core::{Chance, Game, GameResult, Heuristic, MoveBuffer, Seat, Turn};

/// What went wrong playing a move or a chance outcome given as text or as an action id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("it is chance's turn (a roll is pending), not a seat's")]
    ChancePending,
    #[error("it is {to_move}'s turn, not {seat}'s")]
    NotYourTurn { seat: Seat, to_move: Seat },
    #[error("no roll is pending")]
    NoChancePending,
    #[error("{0}")]
    Illegal(String),
    #[error("action {0} is not a legal move here")]
    IllegalAction(u64),
    #[error("`{0}` is not a possible outcome here")]
    BadChance(String),
    #[error("{0}")]
    NoMove(String),
}

/// One report of an engine analysis ([`DynGame::analyse`]): a finished iteration of the
/// search, with the line it expects.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Line {
    /// The iteration's depth in plies of moves (chance events do not count).
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// From the seat to move's side: centi-units (see [`DynGame::win_value`]) or a mate.
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    /// The expected line in standard notation, up to the first chance event.
    pub moves: Vec<String>,
    /// The same line as people read it (SAN for chess).
    pub described: Vec<String>,
}

/// A game of any ruleset.
pub trait DynGame: Send + Sync {
    /// How many seats the game has.
    fn num_seats(&self) -> usize;
    /// Whose turn it is.
    fn turn(&self) -> Turn;
    /// Plies played (moves and chance events).
    fn ply(&self) -> u32;
    /// The position string (FEN-like for chess, a gnubg ID with turn and dice for tables).
    fn position(&self) -> String;
    /// The legal moves of the seat to move, in standard notation.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move for `seat`, which must be the seat to move. Returns the move in standard
    /// notation. On error the game is unchanged.
    fn play(&mut self, seat: Seat, text: &str) -> Result<String, PlayError>;
    /// The legal moves of the seat to move as action ids (stable per ruleset), ascending.
    fn legal_actions(&self) -> Vec<u64>;
    /// The action id of a move given in any notation the family reads.
    fn action_of(&self, text: &str) -> Result<u64, PlayError>;
    /// A legal action's move in standard notation.
    fn action_text(&self, action: u64) -> Result<String, PlayError>;
    /// Plays an action for `seat`, which must be the seat to move; returns the move in
    /// standard notation. On error the game is unchanged.
    fn apply_action(&mut self, seat: Seat, action: u64) -> Result<String, PlayError>;
    /// The pending chance event's outcomes with their probabilities.
    fn chance_outcomes(&self) -> Vec<(String, f64)>;
    /// Resolves the pending chance event with the game's own seeded sample; returns it.
    fn roll(&mut self) -> Result<String, PlayError>;
    /// Resolves the pending chance event with a dictated outcome. On error nothing changes.
    fn apply_chance(&mut self, text: &str) -> Result<String, PlayError>;
    /// How the game ended.
    fn result(&self) -> Option<GameResult>;
    /// What a renderer draws of this position.
    fn view(&self) -> BoardView;
    /// A legal move (standard notation) in the notation people read (SAN for chess).
    fn describe(&self, text: &str) -> Result<String, PlayError>;
    /// Why the seat to move must capture, where a forced-capture rule binds it now.
    fn forced_note(&self) -> Option<String>;
    /// The moves of the seat to move as a tree of part-moves (a tables turn die by die).
    fn part_moves(&self) -> Option<serde_json::Value>;
    /// The stakes of a game that has them.
    fn ledger(&self) -> Option<Ledger>;
    /// Which seats are still playing.
    fn in_play(&self) -> Vec<bool>;
    /// Takes `seat` out of play as the rules eliminate a seat, the others playing on (a
    /// seat out of time with more than two seats); `false`, nothing changed, where the game
    /// cannot go on without it (two seats).
    fn drop_seat(&mut self, seat: Seat) -> bool;
    /// Whether `seat` could still win by some series of legal moves (`true` when unsure).
    fn can_win(&self, seat: Seat) -> bool;
    /// Perft from here: the leaf count `depth` plies on and, with `divide`, each first
    /// move's count; `None` for games the family does not count (games with dice).
    fn perft(&self, depth: u32, divide: bool) -> Option<(u64, Vec<(String, u64)>)>;
    /// For games with dice: the plays of one roll or of every roll.
    fn roll_plays(&self, roll: Option<&str>) -> Result<Vec<RollPlays>, String>;
    /// The move (standard notation) the player `spec` chooses for the seat to move;
    /// `stream` varies its random choices from move to move; `control` stops it early.
    fn choose(&self, spec: PlayerSpec, stream: u64, control: &Control)
        -> Result<String, PlayError>;
    /// Searches the seat to move's position by iterative deepening within `limits` (with a
    /// table of `hash_mb` MB), calling `on_line` after every finished iteration; answers the
    /// last line. `control` stops it early (it then answers its best so far).
    fn analyse(
        &self,
        limits: &Limits,
        hash_mb: usize,
        control: &Control,
        on_line: &mut dyn FnMut(&Line),
    ) -> Result<Line, PlayError>;
    /// The value of a won game on the evaluation's scale, where results are averaged with
    /// evaluations (dice games: a score divided by it is the equity); `None` where results
    /// are mate scores.
    fn win_value(&self) -> Option<i32>;
    /// A copy of the game.
    fn clone_box(&self) -> Box<dyn DynGame>;
}

/// A search's line from `game`: each move in standard notation and as people read it, in
/// its own position, up to the first chance event.
fn line_of<G: FamilyGame>(
    game: &G,
    pv: &[G::Move],
    head: (u32, u32, Score, u64, std::time::Duration),
) -> Line {
    let (depth, seldepth, score, nodes, time) = head;
    let mut g = game.clone();
    let (mut moves, mut described) = (Vec::new(), Vec::new());
    for &mv in pv {
        if g.seat_to_move().is_none() {
            break;
        }
        moves.push(g.move_text(mv));
        described.push(FamilyGame::describe(&g, mv));
        Game::play(&mut g, mv);
    }
    Line {
        depth,
        seldepth,
        score,
        nodes,
        time_ms: time.as_millis() as u64,
        moves,
        described,
    }
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The legal moves of `game`.
fn legal<G: Game>(game: &G) -> Vec<G::Move> {
    let mut moves = G::MoveList::default();
    game.legal_moves(&mut moves);
    moves.as_slice().to_vec()
}

/// Checks that `seat` is to move.
fn check_turn<G: Game>(game: &G, seat: Seat) -> Result<(), PlayError> {
    match game.turn() {
        Turn::Over => Err(PlayError::GameOver),
        Turn::Chance => Err(PlayError::ChancePending),
        Turn::Seat(to_move) if to_move != seat => Err(PlayError::NotYourTurn { seat, to_move }),
        Turn::Seat(_) => Ok(()),
    }
}

impl<G: FamilyGame> DynGame for G {
    fn num_seats(&self) -> usize {
        Game::num_seats(self)
    }
    fn turn(&self) -> Turn {
        Game::turn(self)
    }
    fn ply(&self) -> u32 {
        Game::ply(self)
    }
    fn position(&self) -> String {
        self.to_string()
    }
    fn legal_moves(&self) -> Vec<String> {
        legal(self).into_iter().map(|m| self.move_text(m)).collect()
    }
    fn play(&mut self, seat: Seat, text: &str) -> Result<String, PlayError> {
        check_turn(self, seat)?;
        let mv = self
            .parse_move(text)
            .map_err(|e| PlayError::Illegal(e.to_string()))?;
        let canonical = self.move_text(mv);
        Game::play(self, mv);
        Ok(canonical)
    }
    fn legal_actions(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = legal(self).into_iter().map(|m| self.action(m)).collect();
        ids.sort_unstable();
        ids
    }
    fn action_of(&self, text: &str) -> Result<u64, PlayError> {
        self.parse_move(text)
            .map(|m| self.action(m))
            .map_err(|e| PlayError::Illegal(e.to_string()))
    }
    fn action_text(&self, action: u64) -> Result<String, PlayError> {
        legal(self)
            .into_iter()
            .find(|&m| self.action(m) == action)
            .map(|m| self.move_text(m))
            .ok_or(PlayError::IllegalAction(action))
    }
    fn apply_action(&mut self, seat: Seat, action: u64) -> Result<String, PlayError> {
        check_turn(self, seat)?;
        let mv = legal(self)
            .into_iter()
            .find(|&m| self.action(m) == action)
            .ok_or(PlayError::IllegalAction(action))?;
        let text = self.move_text(mv);
        Game::play(self, mv);
        Ok(text)
    }
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        let mut out: Vec<Chance<G::ChanceOutcome>> = Vec::new();
        Game::chance_outcomes(self, &mut out);
        out.iter()
            .map(|c| (c.outcome.to_string(), c.probability()))
            .collect()
    }
    fn roll(&mut self) -> Result<String, PlayError> {
        if Game::turn(self) != Turn::Chance {
            return Err(PlayError::NoChancePending);
        }
        let outcome = self.sample_chance();
        Game::apply_chance(self, outcome);
        Ok(outcome.to_string())
    }
    fn apply_chance(&mut self, text: &str) -> Result<String, PlayError> {
        if Game::turn(self) != Turn::Chance {
            return Err(PlayError::NoChancePending);
        }
        let mut out: Vec<Chance<G::ChanceOutcome>> = Vec::new();
        Game::chance_outcomes(self, &mut out);
        let outcome = text
            .parse::<G::ChanceOutcome>()
            .ok()
            .filter(|o| out.iter().any(|c| c.outcome == *o))
            .ok_or_else(|| PlayError::BadChance(text.to_string()))?;
        Game::apply_chance(self, outcome);
        Ok(outcome.to_string())
    }
    fn result(&self) -> Option<GameResult> {
        Game::result(self)
    }
    fn view(&self) -> BoardView {
        FamilyGame::view(self)
    }
    fn describe(&self, text: &str) -> Result<String, PlayError> {
        self.parse_move(text)
            .map(|m| FamilyGame::describe(self, m))
            .map_err(|e| PlayError::Illegal(e.to_string()))
    }
    fn forced_note(&self) -> Option<String> {
        FamilyGame::forced_note(self)
    }
    fn part_moves(&self) -> Option<serde_json::Value> {
        FamilyGame::part_moves(self)
    }
    fn ledger(&self) -> Option<Ledger> {
        FamilyGame::ledger(self)
    }
    fn in_play(&self) -> Vec<bool> {
        FamilyGame::in_play(self)
    }
    fn roll_plays(&self, roll: Option<&str>) -> Result<Vec<RollPlays>, String> {
        FamilyGame::roll_plays(self, roll)
    }
    fn drop_seat(&mut self, seat: Seat) -> bool {
        FamilyGame::drop_seat(self, seat)
    }
    fn can_win(&self, seat: Seat) -> bool {
        FamilyGame::can_win(self, seat)
    }
    fn perft(&self, depth: u32, divide: bool) -> Option<(u64, Vec<(String, u64)>)> {
        FamilyGame::perft(self, depth, divide)
    }
    fn choose(
        &self,
        spec: PlayerSpec,
        stream: u64,
        control: &Control,
    ) -> Result<String, PlayError> {
        let choice = Player::with_stream(spec, stream)
            .choose(self, control)
            .map_err(|e| PlayError::NoMove(e.to_string()))?;
        Ok(self.move_text(choice.mv))
    }
    fn analyse(
        &self,
        limits: &Limits,
        hash_mb: usize,
        control: &Control,
        on_line: &mut dyn FnMut(&Line),
    ) -> Result<Line, PlayError> {
        match Game::turn(self) {
            Turn::Over => return Err(PlayError::GameOver),
            Turn::Chance => return Err(PlayError::ChancePending),
            Turn::Seat(_) => {}
        }
        let mut searcher = Searcher::<G>::new(SearchConfig {
            hash_mb: hash_mb.max(1),
            ..SearchConfig::default()
        });
        let r = searcher
            .search_with_info(self, limits, control, &mut |info| {
                on_line(&line_of(
                    self,
                    &info.pv,
                    (info.depth, info.seldepth, info.score, info.nodes, info.time),
                ))
            })
            .ok_or_else(|| PlayError::NoMove("the seat to move has no legal move".into()))?;
        Ok(line_of(
            self,
            &r.pv,
            (r.depth, r.seldepth, r.score, r.nodes, r.time),
        ))
    }
    fn win_value(&self) -> Option<i32> {
        Heuristic::win_value(self)
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
}
