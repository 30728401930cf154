//! A game given as an explicit tree, for positions worked out by hand: each node is a
//! seat's choice (with a static value per seat and named moves, some tactical), a chance
//! event (weighted outcomes), or an end.

use super::{mix, ToyError};
use libro_core::{
    Chance, EndReason, Game, GameResult, Heuristic, MoveList, Ruleset, Seat, Turn, MAX_SEATS,
};
use std::fmt;
use std::sync::Arc;

pub enum Node {
    Choice {
        seat: u8,
        eval: [i32; MAX_SEATS],
        moves: Vec<(&'static str, usize, bool)>,
    },
    Chance {
        eval: [i32; MAX_SEATS],
        outcomes: Vec<(u32, usize)>,
    },
    End(GameResult),
}

pub struct TreeRules {
    pub seats: usize,
    pub nodes: Vec<Node>,
    pub root: usize,
}

fn values(eval: &[i32]) -> [i32; MAX_SEATS] {
    let mut v = [0; MAX_SEATS];
    v[..eval.len()].copy_from_slice(eval);
    v
}

impl TreeRules {
    pub fn new(seats: usize) -> Self {
        TreeRules {
            seats,
            nodes: Vec::new(),
            root: 0,
        }
    }
    fn add(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.root = self.nodes.len() - 1;
        self.nodes.len() - 1
    }
    pub fn win(&mut self, seat: u8) -> usize {
        self.add(Node::End(GameResult::win(
            self.seats,
            Seat(seat),
            EndReason::Checkmate,
        )))
    }
    pub fn end(&mut self, result: GameResult) -> usize {
        self.add(Node::End(result))
    }
    pub fn draw(&mut self) -> usize {
        let all: Vec<Seat> = (0..self.seats as u8).map(Seat).collect();
        self.add(Node::End(GameResult::draw(
            self.seats,
            &all,
            EndReason::Repetition,
        )))
    }
    /// A seat's choice; each move is (name, child, tactical).
    pub fn choice(
        &mut self,
        seat: u8,
        eval: &[i32],
        moves: &[(&'static str, usize, bool)],
    ) -> usize {
        self.add(Node::Choice {
            seat,
            eval: values(eval),
            moves: moves.to_vec(),
        })
    }
    /// A choice whose moves all end the game in a draw: a position the search only ever
    /// evaluates (at the horizon) but which still has a legal move.
    pub fn horizon(&mut self, seat: u8, eval: &[i32]) -> usize {
        let d = self.draw();
        self.choice(seat, eval, &[("end", d, false)])
    }
    pub fn chance(&mut self, eval: &[i32], outcomes: &[(u32, usize)]) -> usize {
        self.add(Node::Chance {
            eval: values(eval),
            outcomes: outcomes.to_vec(),
        })
    }
    /// The rules with the last node added as the root.
    pub fn build(self) -> Arc<TreeRules> {
        Arc::new(self)
    }
}

#[derive(Clone)]
pub struct Tree {
    pub rules: Arc<TreeRules>,
    pub node: usize,
    pub ply: u32,
}

impl Tree {
    fn node(&self) -> &Node {
        &self.rules.nodes[self.node]
    }
}

impl Ruleset for TreeRules {
    type Game = Tree;
    type PositionError = ToyError;
    fn name(&self) -> &str {
        "tree"
    }
    fn seat_names(&self) -> Vec<String> {
        (0..self.seats).map(|s| format!("seat{s}")).collect()
    }
    fn new_game(self: &Arc<Self>, _seed: u64) -> Tree {
        Tree {
            rules: self.clone(),
            node: self.root,
            ply: 0,
        }
    }
    fn parse_position(self: &Arc<Self>, text: &str) -> Result<Tree, ToyError> {
        let node: usize = text
            .parse()
            .map_err(|_| ToyError(format!("bad node `{text}`")))?;
        if node >= self.nodes.len() {
            return Err(ToyError(format!("no node {node}")));
        }
        Ok(Tree {
            rules: self.clone(),
            node,
            ply: 0,
        })
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.node)
    }
}

impl Game for Tree {
    type Move = u8;
    type ChanceOutcome = u8;
    type MoveList = MoveList<u8, 8>;
    type MoveError = ToyError;

    fn num_seats(&self) -> usize {
        self.rules.seats
    }
    fn turn(&self) -> Turn {
        match self.node() {
            Node::Choice { seat, .. } => Turn::Seat(Seat(*seat)),
            Node::Chance { .. } => Turn::Chance,
            Node::End(_) => Turn::Over,
        }
    }
    fn legal_moves(&self, out: &mut Self::MoveList) {
        out.clear();
        if let Node::Choice { moves, .. } = self.node() {
            out.extend(0..moves.len() as u8);
        }
    }
    fn play(&mut self, mv: u8) {
        if let Node::Choice { moves, .. } = self.node() {
            self.node = moves[usize::from(mv)].1;
            self.ply += 1;
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<Chance<u8>>) {
        out.clear();
        if let Node::Chance { outcomes, .. } = self.node() {
            let total = outcomes.iter().map(|o| o.0).sum();
            out.extend(outcomes.iter().enumerate().map(|(i, o)| Chance {
                outcome: i as u8,
                weight: o.0,
                total,
            }));
        }
    }
    fn sample_chance(&self) -> u8 {
        0
    }
    fn apply_chance(&mut self, outcome: u8) {
        if let Node::Chance { outcomes, .. } = self.node() {
            self.node = outcomes[usize::from(outcome)].1;
            self.ply += 1;
        }
    }
    fn result(&self) -> Option<GameResult> {
        match self.node() {
            Node::End(r) => Some(r.clone()),
            _ => None,
        }
    }
    fn hash(&self) -> u64 {
        mix(self.node as u64)
    }
    fn recompute_hash(&self) -> u64 {
        self.hash()
    }
    fn ply(&self) -> u32 {
        self.ply
    }
    fn write_move(&self, mv: u8, f: &mut dyn fmt::Write) -> fmt::Result {
        match self.node() {
            Node::Choice { moves, .. } => f.write_str(moves[usize::from(mv)].0),
            _ => Err(fmt::Error),
        }
    }
    fn parse_move(&self, text: &str) -> Result<u8, ToyError> {
        match self.node() {
            Node::Choice { moves, .. } => moves
                .iter()
                .position(|m| m.0 == text)
                .map(|i| i as u8)
                .ok_or_else(|| ToyError(format!("no move `{text}` here"))),
            _ => Err(ToyError("no seat to move".into())),
        }
    }
}

impl Heuristic for Tree {
    fn evaluate(&self, seat: Seat) -> i32 {
        match self.node() {
            Node::Choice { eval, .. } | Node::Chance { eval, .. } => eval[seat.index()],
            Node::End(_) => 0,
        }
    }
    fn is_tactical(&self, mv: u8) -> bool {
        match self.node() {
            Node::Choice { moves, .. } => moves[usize::from(mv)].2,
            _ => false,
        }
    }
}
