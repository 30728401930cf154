//! The evaluation network for two seats on 8x8 (NNUE's shape): each seat's view of the board
//! (its own pieces and the other's, by type and square, ranks turned for the second seat)
//! feeds a hidden layer of [`HIDDEN`] clipped-linear units; the mover's units and the
//! other's feed one output, the value for the mover. Fitted to Fairy-Stockfish's scores of
//! positions from libro's games (`examples/nnue.rs`; `rulesets/README.md` says how).
//!
//! A network is data beside a ruleset, like its file: it names the rules it was fitted for
//! by [`rules_key`] (everything that decides play but the draws by a game's length, which
//! GUIs set), and is used only for rules with that key.

use crate::geometry::{Bitboard, Square};
use crate::position::Pos;
use crate::rules::{ChessRules, Width, MAX_TYPES};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// Units of the hidden layer, per view.
pub const HIDDEN: usize = 64;
/// Inputs per view: own and other's pieces of each type on each of 64 squares.
pub const INPUTS: usize = 2 * MAX_TYPES * 64;
/// The logistic scale of the network's output: an output of 1 is this many of the labels'
/// centipawns (400 centipawns are ten to one).
pub const OUTPUT_CP: f32 = 400.0 / std::f32::consts::LN_10;

/// What a network file starts with.
pub const MAGIC: [u8; 8] = *b"LIBRONET";
/// The file format this build reads and writes.
pub const VERSION: u32 = 1;
/// Magic, version, inputs, hidden units, mode, the rules' key and the centipawn scale.
const HEADER_BYTES: usize = 8 + 4 + 4 + 4 + 4 + 32 + 4;
/// Weights after the header: the first layer by input row, its biases, the output layer's
/// weights (the mover's units first) and its bias, little-endian `f32`.
pub const WEIGHTS: usize = INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1;
/// The length of every network file of this build (the one limit on what is read).
pub const NETWORK_BYTES: usize = HEADER_BYTES + 4 * WEIGHTS;

/// Fixed point of the first layer: a unit's clipped range [0, 1] is [0, `ONE`].
const ONE: i16 = 2048;

/// The most pieces a view reads (two seats on 8x8, two to a square where pieces stack): a
/// network whose first layer could overflow with this many is refused, so that the sums
/// are exact whatever order the pieces are added in ([`Accumulator`]).
pub(crate) const MAX_PIECES: usize = 128;

/// What is wrong with a network file, or why it does not fit a ruleset.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NetworkError {
    #[error("{0} bytes: a network file of this build is {NETWORK_BYTES} bytes")]
    Length(usize),
    #[error("longer than {NETWORK_BYTES} bytes, the length of a network file of this build")]
    TooLong,
    #[error("not a libro network: it does not start with `LIBRONET`")]
    Magic,
    #[error("format version {0}: this build reads version {VERSION}")]
    Version(u32),
    #[error("{inputs} inputs and {hidden} hidden units: this build's networks have {INPUTS} and {HIDDEN}")]
    Shape { inputs: u32, hidden: u32 },
    #[error("mode {0}: not 0 (the whole evaluation), 1 (added to the hand-written one) or 2 (added to the hand-written one with its king danger)")]
    Mode(u32),
    #[error("weight {0} (counting the centipawn scale as weight 0) is not a finite number")]
    NotFinite(usize),
    #[error("hidden unit {0} could leave the first layer's 16-bit range: its bias and its {MAX_PIECES} largest weights of one sign add up past it")]
    Range(usize),
    #[error(
        "the network was fitted for other rules (key {found:016x}); `{ruleset}` has key {expected:016x}"
    )]
    OtherRules {
        ruleset: String,
        found: u64,
        expected: u64,
    },
    #[error("a network evaluates two seats on an 8x8 board; `{0}` is not such a ruleset")]
    Unfit(String),
}

/// How the network's value is used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// It is the whole evaluation.
    Whole,
    /// It is added to the hand-written evaluation (fitted to what that one misses).
    Added,
    /// It is added to the hand-written evaluation with that one's king danger term (the term
    /// counts only under such a network): one fitted on top of the term, or one whose play
    /// with it was measured (shatranj's: docs/strength.md).
    AddedWithKingDanger,
}

impl Mode {
    /// Whether the hand-written evaluation is part of the whole.
    pub fn adds_to_hand(self) -> bool {
        self != Mode::Whole
    }

    /// The number the file writes for it.
    fn code(self) -> u32 {
        match self {
            Mode::Whole => 0,
            Mode::Added => 1,
            Mode::AddedWithKingDanger => 2,
        }
    }
}

/// A network read from its file.
pub struct Network {
    key: [u8; 32],
    /// SHA-256 of the file it was read from.
    digest: [u8; 32],
    mode: Mode,
    /// libro's centipawns per output unit.
    cp: f32,
    w1: Vec<[f32; HIDDEN]>,
    b1: [f32; HIDDEN],
    w2: [f32; 2 * HIDDEN],
    b2: f32,
    /// The first layer in fixed point, as the search evaluates it.
    w1q: Vec<[i16; HIDDEN]>,
    b1q: [i16; HIDDEN],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("key", &format_args!("{:016x}", short(&self.key)))
            .field("mode", &self.mode)
            .finish_non_exhaustive()
    }
}

/// The key of the rules a network is fitted for: SHA-256 of the rules as
/// [`ChessRules::canonical`] writes them, but with the draws by a game's length (repetition,
/// plies without progress, the move limit) left out: a GUI's referee sets those, and they do
/// not change what a position is worth as the other options do.
pub fn rules_key(rules: &ChessRules) -> [u8; 32] {
    let mut options = rules.options.clone();
    options.repetition = 0;
    options.no_progress_plies = 0;
    options.max_plies = 0;
    let text = format!(
        "chess network\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{}",
        rules.board, rules.seats, rules.pieces, options, rules.start, rules.promote_as_start
    );
    Sha256::digest(text.as_bytes()).into()
}

/// A key's first eight bytes, as its errors show it.
fn short(key: &[u8; 32]) -> u64 {
    u64::from_be_bytes(key[..8].try_into().expect("eight bytes"))
}

fn quantize(x: f32) -> i16 {
    (x * f32::from(ONE)).round().clamp(-32767.0, 32767.0) as i16
}

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

impl Network {
    /// Reads a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::Magic);
        }
        if bytes.len() < HEADER_BYTES {
            return Err(NetworkError::Length(bytes.len()));
        }
        let version = word(bytes, 8);
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let (inputs, hidden) = (word(bytes, 12), word(bytes, 16));
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetworkError::Shape { inputs, hidden });
        }
        let mode = match word(bytes, 20) {
            0 => Mode::Whole,
            1 => Mode::Added,
            2 => Mode::AddedWithKingDanger,
            m => return Err(NetworkError::Mode(m)),
        };
        if bytes.len() != NETWORK_BYTES {
            return Err(NetworkError::Length(bytes.len()));
        }
        let key: [u8; 32] = bytes[24..56].try_into().expect("32 bytes");
        let floats: Vec<f32> = bytes[56..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("four bytes")))
            .collect();
        if let Some(i) = floats.iter().position(|x| !x.is_finite()) {
            return Err(NetworkError::NotFinite(i));
        }
        let (cp, weights) = (floats[0], &floats[1..]);
        let (w1, rest) = weights.split_at(INPUTS * HIDDEN);
        let (b1, rest) = rest.split_at(HIDDEN);
        let (w2, b2) = rest.split_at(2 * HIDDEN);
        let row = |r: &[f32]| -> [f32; HIDDEN] { r.try_into().expect("a row") };
        let w1: Vec<[f32; HIDDEN]> = w1.chunks_exact(HIDDEN).map(row).collect();
        let b1 = row(b1);
        let w1q: Vec<[i16; HIDDEN]> = w1.iter().map(|r| r.map(quantize)).collect();
        let b1q = b1.map(quantize);
        for h in 0..HIDDEN {
            let mut column: Vec<i32> = w1q.iter().map(|r| i32::from(r[h])).collect();
            column.sort_unstable();
            let low: i32 = column.iter().take(MAX_PIECES).filter(|&&w| w < 0).sum();
            let high: i32 = column
                .iter()
                .rev()
                .take(MAX_PIECES)
                .filter(|&&w| w > 0)
                .sum();
            let b = i32::from(b1q[h]);
            if b + high > i32::from(i16::MAX) || b + low < i32::from(i16::MIN) {
                return Err(NetworkError::Range(h));
            }
        }
        Ok(Network {
            key,
            digest: Sha256::digest(bytes).into(),
            mode,
            cp,
            w1q,
            b1q,
            w1,
            b1,
            w2: w2.try_into().expect("the output layer"),
            b2: b2[0],
        })
    }

    /// A network file: `weights` ([`WEIGHTS`] of them, in the file's order) fitted for
    /// `rules`, used as `mode` says, `cp` libro's centipawns per output unit.
    pub fn encode(rules: &ChessRules, mode: Mode, cp: f32, weights: &[f32]) -> Vec<u8> {
        assert_eq!(weights.len(), WEIGHTS, "a network has {WEIGHTS} weights");
        let mut out = Vec::with_capacity(NETWORK_BYTES);
        out.extend_from_slice(&MAGIC);
        for w in [VERSION, INPUTS as u32, HIDDEN as u32, mode.code()] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&rules_key(rules));
        for x in std::iter::once(&cp).chain(weights) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// The key of the rules it was fitted for ([`rules_key`]).
    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// SHA-256 of the file it was read from, in hex as `sha256sum` prints it: which network
    /// plays, whatever its file is called or whether it is built into the binary.
    pub fn digest(&self) -> String {
        self.digest.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// How its value is used.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether it may evaluate `rules`: two seats on 8x8, and the key it was fitted for.
    pub fn fits(&self, rules: &ChessRules) -> Result<(), NetworkError> {
        let b = rules.board();
        if b.files != 8 || b.ranks != 8 || rules.num_seats() != 2 {
            return Err(NetworkError::Unfit(rules.name().to_string()));
        }
        let expected = rules_key(rules);
        if self.key != expected {
            return Err(NetworkError::OtherRules {
                ruleset: rules.name().to_string(),
                found: short(&self.key),
                expected: short(&expected),
            });
        }
        Ok(())
    }

    /// The output for the mover of a position whose views' inputs are `views` (the
    /// mover's first), in fixed point as the search evaluates it.
    pub fn forward_fixed(&self, views: [&[u16]; 2]) -> f32 {
        self.output([&self.first_layer(views[0]), &self.first_layer(views[1])])
    }

    /// The first layer's sums of one view's inputs (exact: [`MAX_PIECES`] inputs cannot
    /// overflow them, see [`NetworkError::Range`]).
    fn first_layer(&self, inputs: &[u16]) -> [i16; HIDDEN] {
        let mut acc = self.b1q;
        for &i in inputs {
            add(&mut acc, &self.w1q[usize::from(i)]);
        }
        acc
    }

    /// The output for the mover from the first layer's sums of its view and the other's.
    fn output(&self, sums: [&[i16; HIDDEN]; 2]) -> f32 {
        let mut out = 0f32;
        for (v, acc) in sums.iter().enumerate() {
            // Eight partial sums, so that the dot product runs in vector lanes.
            let mut lanes = [0f32; 8];
            let w2 = &self.w2[v * HIDDEN..(v + 1) * HIDDEN];
            for (a8, w8) in acc.chunks_exact(8).zip(w2.chunks_exact(8)) {
                for k in 0..8 {
                    lanes[k] += f32::from(a8[k].clamp(0, ONE)) * w8[k];
                }
            }
            out += lanes.iter().sum::<f32>();
        }
        self.b2 + out / f32::from(ONE)
    }

    /// As [`Self::forward_fixed`], in floating point (as the network was fitted).
    pub fn forward(&self, views: [&[u16]; 2]) -> f32 {
        let mut out = self.b2;
        for (v, inputs) in views.iter().enumerate() {
            let mut acc = self.b1;
            for &i in inputs.iter() {
                for (a, w) in acc.iter_mut().zip(&self.w1[usize::from(i)]) {
                    *a += w;
                }
            }
            out += acc
                .iter()
                .zip(&self.w2[v * HIDDEN..(v + 1) * HIDDEN])
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        out
    }

    /// An output in libro's centipawns.
    pub fn centipawns(&self, output: f32) -> i32 {
        (output * self.cp).round() as i32
    }

    /// libro's centipawns per output unit, as the file gives them.
    pub fn cp_per_output(&self) -> f32 {
        self.cp
    }

    /// Its [`WEIGHTS`] weights in the file's order, as [`Network::encode`] takes them: what
    /// a new fit may start from.
    pub fn weights(&self) -> Vec<f32> {
        let mut out = Vec::with_capacity(WEIGHTS);
        for row in &self.w1 {
            out.extend_from_slice(row);
        }
        out.extend_from_slice(&self.b1);
        out.extend_from_slice(&self.w2);
        out.push(self.b2);
        out
    }
}

impl ChessRules {
    /// The evaluation network these rules are played with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// These rules evaluated with `net` (`None`: the hand-written evaluation alone); an
    /// error if `net` was fitted for other rules.
    pub fn with_network(mut self, net: Option<Arc<Network>>) -> Result<ChessRules, NetworkError> {
        if let Some(n) = &net {
            n.fits(&self)?;
        }
        self.network = net;
        Ok(self)
    }
}

/// Adds one input's weights to a view's first-layer sums (wrapping: the sums are exact, as
/// [`NetworkError::Range`] guarantees, so the order of additions does not matter).
fn add(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_add(*w);
    }
}

/// Takes one input's weights away again.
fn subtract(acc: &mut [i16; HIDDEN], w: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(w) {
        *a = a.wrapping_sub(*w);
    }
}

/// The input of seat `seat`'s piece of type `ty` on `sq` in seat `view`'s view.
fn input(view: u8, seat: u8, ty: usize, sq: Square) -> usize {
    let rel = if view == 0 { sq.0 } else { sq.0 ^ 56 };
    (usize::from(seat != view) * MAX_TYPES + ty) * 64 + usize::from(rel)
}

/// The inputs of seat `view`'s view of `pos` into `out`, returning how many (one a piece).
pub(crate) fn inputs<B: Width>(
    r: &ChessRules,
    pos: &Pos<B>,
    view: u8,
    out: &mut [u16; MAX_PIECES],
) -> usize {
    let mut n = 0;
    for (ty, &bb) in pos.type_bb.iter().enumerate().take(r.pieces.len()) {
        for s in 0..2u8 {
            for sq in bb & pos.seat_bb[usize::from(s)] {
                if n < out.len() {
                    out[n] = input(view, s, ty, sq) as u16;
                    n += 1;
                }
            }
        }
    }
    n
}

/// The network's value of `pos` for the first seat, in centipawns (rules it [fits]), summed
/// whole.
///
/// [fits]: Network::fits
pub(crate) fn value<B: Width>(net: &Network, r: &ChessRules, pos: &Pos<B>) -> i32 {
    let mut mine = [0u16; MAX_PIECES];
    let mut theirs = [0u16; MAX_PIECES];
    let mover = pos.to_move;
    let n = inputs(r, pos, mover, &mut mine);
    let m = inputs(r, pos, 1 - mover, &mut theirs);
    let v = net.centipawns(net.forward_fixed([&mine[..n], &theirs[..m]]));
    if mover == 0 {
        v
    } else {
        -v
    }
}

/// Where each seat's pieces of each type stand: what the network reads of a position.
pub(crate) type Placement = [[Bitboard<u64>; MAX_TYPES]; 2];

/// The placement of `pos`'s pieces.
pub(crate) fn placement(r: &ChessRules, pos: &Pos<u64>) -> Placement {
    let mut p = [[Bitboard::EMPTY; MAX_TYPES]; 2];
    for (s, seat) in p.iter_mut().enumerate() {
        for (ty, bb) in seat.iter_mut().enumerate().take(r.pieces.len()) {
            *bb = pos.type_bb[ty] & pos.seat_bb[s];
        }
    }
    p
}

/// The first layer's sums of both seats' views of a position (the first seat's view first),
/// kept up to date move by move (NNUE's accumulator), so that an evaluation computes only
/// the output layer. Equal, sum for sum, to summing the position whole.
#[derive(Clone, Copy)]
pub(crate) struct Accumulator([[i16; HIDDEN]; 2]);

impl Accumulator {
    /// The sums of the pieces of `pos`, summed whole.
    pub(crate) fn new(net: &Network, r: &ChessRules, pos: &Pos<u64>) -> Accumulator {
        let mut views = [net.b1q; 2];
        let p = placement(r, pos);
        for (v, acc) in views.iter_mut().enumerate() {
            for (s, seat) in p.iter().enumerate() {
                for (ty, &bb) in seat.iter().enumerate() {
                    for sq in bb {
                        add(acc, &net.w1q[input(v as u8, s as u8, ty, sq)]);
                    }
                }
            }
        }
        Accumulator(views)
    }

    /// Follows the pieces from `before` to `after` (a move's, whatever it took, promoted or
    /// stacked): each piece gone is taken away, each new one added.
    pub(crate) fn update(&mut self, net: &Network, before: &Placement, after: &Placement) {
        for s in 0..2 {
            for ty in 0..MAX_TYPES {
                let (was, is) = (before[s][ty], after[s][ty]);
                if was == is {
                    continue;
                }
                for sq in was & !is {
                    for (v, acc) in self.0.iter_mut().enumerate() {
                        subtract(acc, &net.w1q[input(v as u8, s as u8, ty, sq)]);
                    }
                }
                for sq in is & !was {
                    for (v, acc) in self.0.iter_mut().enumerate() {
                        add(acc, &net.w1q[input(v as u8, s as u8, ty, sq)]);
                    }
                }
            }
        }
    }

    /// The network's value for the first seat, in centipawns, with `mover` to move.
    pub(crate) fn value(&self, net: &Network, mover: u8) -> i32 {
        let (m, o) = (usize::from(mover), usize::from(1 - mover));
        let v = net.centipawns(net.output([&self.0[m], &self.0[o]]));
        if mover == 0 {
            v
        } else {
            -v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Repr;
    use crate::ChessGame;
    use crate::MoveList;
    use libro_core::{Game, Heuristic, Ruleset, Seat};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    fn rules(name: &str, overrides: &[(&str, &str)]) -> ChessRules {
        let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("ruleset file");
        let overrides: Vec<(String, String)> = overrides
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        ChessRules::from_toml(&text, &path, &overrides).expect("ruleset loads")
    }

    /// The network shipped beside shatranj's ruleset.
    fn shipped() -> Arc<Network> {
        Arc::new(Network::from_bytes(&shipped_bytes()).unwrap())
    }

    /// The bytes of that network's file.
    fn shipped_bytes() -> Vec<u8> {
        let path = format!(
            "{}/../../rulesets/shatranj.nnue",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read(path).expect("network file")
    }

    /// A network whose only non-zero weights are `set`: (index among [`WEIGHTS`], value).
    fn sparse(rules: &ChessRules, cp: f32, set: &[(usize, f32)]) -> Vec<u8> {
        let mut w = vec![0f32; WEIGHTS];
        for &(i, x) in set {
            w[i] = x;
        }
        Network::encode(rules, Mode::Added, cp, &w)
    }

    /// The first layer's weight from input `input` to unit `unit`, as an index of the
    /// weights; the output layer's from the mover's unit `unit`.
    fn w1(input: usize, unit: usize) -> usize {
        input * HIDDEN + unit
    }
    fn w2_mover(unit: usize) -> usize {
        INPUTS * HIDDEN + HIDDEN + unit
    }

    /// The board the other seat sees: ranks turned, colours swapped, the other to move.
    fn mirrored(fen: &str) -> String {
        let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
        let swap = |c: char| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        };
        fields[0] = fields[0].split('/').rev().collect::<Vec<_>>().join("/");
        fields[0] = fields[0].chars().map(swap).collect();
        fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_string();
        fields.join(" ")
    }

    /// Positions of a seeded random game of `rules`, each with its FEN.
    fn random_game(rules: &Arc<ChessRules>, seed: u64) -> Vec<(ChessGame, String)> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut game = ChessGame::new(rules);
        let mut out = Vec::new();
        while !game.is_over() && out.len() < 120 {
            out.push((game.clone(), game.to_string()));
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            game.play(*moves.choose(&mut rng).expect("a legal move"));
        }
        out
    }

    #[test]
    fn weights_read_back_as_they_were_written() {
        let r = rules("shatranj", &[]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let w: Vec<f32> = (0..WEIGHTS).map(|_| rng.gen_range(-0.01..0.01)).collect();
        let net = Network::from_bytes(&Network::encode(&r, Mode::Added, 123.5, &w)).unwrap();
        assert_eq!(net.weights(), w);
        assert_eq!(net.cp_per_output(), 123.5);
        // Each mode reads back as itself.
        for mode in [Mode::Whole, Mode::Added, Mode::AddedWithKingDanger] {
            let net = Network::from_bytes(&Network::encode(&r, mode, 123.5, &w)).unwrap();
            assert_eq!(net.mode(), mode);
        }
        // The shipped network's, written again, are its file byte for byte.
        let shipped = shipped();
        let again = Network::encode(
            &r,
            shipped.mode(),
            shipped.cp_per_output(),
            &shipped.weights(),
        );
        assert_eq!(again, shipped_bytes());
    }

    #[test]
    fn one_weight_values_the_movers_king_by_hand_from_either_seat() {
        // One unit, fed by the mover's own king on its d1 (white's d1, black's d8 seen with
        // the ranks turned), at 0.5; the output takes it whole; 100 centipawns an output.
        let r = rules("shatranj", &[]);
        let king = 0; // shatranj's first piece type
        let own_d1 = king * 64 + 3;
        let bytes = sparse(&r, 100.0, &[(w1(own_d1, 0), 0.5), (w2_mover(0), 1.0)]);
        let net = Arc::new(Network::from_bytes(&bytes).unwrap());
        let r = Arc::new(r.with_network(Some(net.clone())).unwrap());
        let start = ChessGame::new(&r);
        let (hand, learnt) = crate::evaluation_parts(&start).unwrap();
        assert_eq!(
            learnt,
            Some(50),
            "white to move, its king on d1: +0.5 output"
        );
        assert_eq!(
            start.evaluate(Seat(0)),
            hand + 50,
            "added to the hand-written"
        );
        let black = r.parse_position(&mirrored(&start.to_string())).unwrap();
        assert_eq!(crate::evaluation_parts(&black).unwrap().1, Some(-50));
        // The king off d1: nothing for the mover.
        let moved = r
            .parse_position("rnakfanr/pppppppp/8/8/8/8/PPPPPPPP/RNA1FKNR w - - 0 1")
            .unwrap();
        assert_eq!(crate::evaluation_parts(&moved).unwrap().1, Some(0));
    }

    #[test]
    fn the_shipped_network_values_mirror_images_alike_and_fixed_point_follows_floats() {
        let net = shipped();
        let r = Arc::new(
            rules("shatranj", &[])
                .with_network(Some(net.clone()))
                .unwrap(),
        );
        let (mut checked, mut worst) = (0, 0f32);
        for seed in 0..4 {
            for (game, fen) in random_game(&r, seed) {
                let mirror = r.parse_position(&mirrored(&fen)).unwrap();
                let (a, b) = (
                    crate::evaluation_parts(&game).unwrap(),
                    crate::evaluation_parts(&mirror).unwrap(),
                );
                assert_eq!(a.1.map(|v| -v), b.1, "{fen}: the network");
                assert_eq!(game.evaluate(Seat(0)), -mirror.evaluate(Seat(0)), "{fen}");
                let views = crate::network_inputs(&game).unwrap();
                let (f, q) = (
                    net.forward([&views[0], &views[1]]),
                    net.forward_fixed([&views[0], &views[1]]),
                );
                // Each first-layer weight is rounded to 1/2048; with up to 32 pieces a view
                // the units move by ~1/100 at most: a few centipawns, whatever the network's
                // scale (centipawns per output unit), so the bound is in centipawns.
                let cp = (f - q).abs() * net.cp_per_output();
                assert!(
                    cp < 8.0,
                    "{fen}: float {f}, fixed point {q}: {cp} centipawns apart"
                );
                worst = worst.max((f - q).abs());
                checked += 1;
            }
        }
        assert!(checked > 100);
        assert!(worst > 0.0, "fixed point is not the float network");
    }

    /// A network of seeded random weights (of about a fitted one's size) fitted for `rules`.
    fn random_network(rules: &ChessRules, seed: u64) -> Arc<Network> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let w: Vec<f32> = (0..WEIGHTS).map(|_| rng.gen_range(-0.08..0.08)).collect();
        let bytes = Network::encode(rules, Mode::Added, 200.0, &w);
        Arc::new(Network::from_bytes(&bytes).unwrap())
    }

    /// The sums a game keeps move by move are those of its position summed whole, in games
    /// with captures, promotions, the acedrex fers' leap and Short Assize's shared squares,
    /// and after a null move; so is the value evaluated from them.
    #[test]
    fn the_accumulator_kept_move_by_move_is_the_position_summed_whole() {
        let mut checked = 0;
        for (name, seeds) in [
            ("shatranj", 0..6),
            ("acedrex", 6..10),
            ("short-assize", 10..14),
        ] {
            let plain = rules(name, &[]);
            let net = random_network(&plain, seeds.start);
            let r = Arc::new(plain.with_network(Some(net.clone())).unwrap());
            for seed in seeds {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut game = ChessGame::new(&r);
                for _ in 0..400 {
                    if game.is_over() {
                        break;
                    }
                    let Repr::Narrow(pos) = &game.position().0 else {
                        panic!("{name} is 8x8");
                    };
                    let whole = Accumulator::new(&net, &r, pos);
                    let kept = game.accumulator().expect("the rules have a network");
                    assert_eq!(kept.0, whole.0, "{name} seed {seed}: {game}");
                    assert_eq!(
                        kept.value(&net, pos.to_move),
                        value(&net, &r, pos),
                        "{game}"
                    );
                    if let Some(passed) = game.null_move() {
                        let Repr::Narrow(p) = &passed.position().0 else {
                            unreachable!()
                        };
                        assert_eq!(
                            passed.accumulator().unwrap().0,
                            Accumulator::new(&net, &r, p).0
                        );
                    }
                    let mut moves = MoveList::new();
                    game.legal_moves(&mut moves);
                    game.play(*moves.choose(&mut rng).expect("a legal move"));
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked} positions");
        // Without a network there is nothing to keep.
        assert!(ChessGame::new(&Arc::new(rules("shatranj", &[])))
            .accumulator()
            .is_none());
    }

    /// A first layer that could overflow its 16-bit sums is refused, naming the unit.
    #[test]
    fn a_first_layer_past_its_range_is_refused() {
        let r = rules("shatranj", &[]);
        // Unit 5: 128 inputs of weight 0.07 (143 in fixed point) add up to 18,304 of a
        // range of 32,767; with a bias of 8 (16,384) they pass it.
        let mut set: Vec<(usize, f32)> = (0..128).map(|i| (w1(i, 5), 0.07)).collect();
        assert!(Network::from_bytes(&sparse(&r, 100.0, &set)).is_ok());
        set.push((INPUTS * HIDDEN + 5, 8.0));
        assert_eq!(
            Network::from_bytes(&sparse(&r, 100.0, &set)).unwrap_err(),
            NetworkError::Range(5)
        );
    }

    #[test]
    fn a_network_fits_its_rules_whatever_the_referees_draws_and_no_others() {
        let net = shipped();
        // Shatranj's network is played with the king danger term (docs/strength.md).
        assert_eq!(net.mode(), Mode::AddedWithKingDanger);
        net.fits(&rules("shatranj", &[])).unwrap();
        // A GUI's referee sets the draws by length (UCI sets these three).
        let referee = [
            ("repetition", "0"),
            ("no_progress_plies", "0"),
            ("max_plies", "0"),
        ];
        net.fits(&rules("shatranj", &referee)).unwrap();
        // A stalemate drawn, or a pawn's double step, are other games to value.
        for option in [("stalemate", "draw"), ("pawn_double_step", "first-move")] {
            assert!(matches!(
                net.fits(&rules("shatranj", &[option])),
                Err(NetworkError::OtherRules { .. })
            ));
        }
        assert!(matches!(
            net.fits(&rules("acedrex", &[])),
            Err(NetworkError::OtherRules { ruleset, .. }) if ruleset == "acedrex"
        ));
        assert!(matches!(
            net.fits(&rules("cuatro-tiempos", &[])),
            Err(NetworkError::Unfit(_))
        ));
        assert!(rules("acedrex", &[]).with_network(Some(net)).is_err());
    }

    #[test]
    fn malformed_files_are_refused_saying_what_is_wrong() {
        let r = rules("shatranj", &[]);
        let good = sparse(&r, 100.0, &[]);
        assert!(Network::from_bytes(&good).is_ok());
        let with = |at: usize, bytes: &[u8]| {
            let mut b = good.clone();
            b[at..at + bytes.len()].copy_from_slice(bytes);
            Network::from_bytes(&b).unwrap_err()
        };
        assert_eq!(with(0, b"NOTANET!"), NetworkError::Magic);
        assert_eq!(with(8, &2u32.to_le_bytes()), NetworkError::Version(2));
        assert_eq!(
            with(12, &768u32.to_le_bytes()),
            NetworkError::Shape {
                inputs: 768,
                hidden: HIDDEN as u32
            }
        );
        assert_eq!(with(20, &3u32.to_le_bytes()), NetworkError::Mode(3));
        assert_eq!(with(20, &7u32.to_le_bytes()), NetworkError::Mode(7));
        // The centipawn scale is weight 0; the first layer's first weight is weight 1.
        assert_eq!(
            with(56, &f32::NAN.to_le_bytes()),
            NetworkError::NotFinite(0)
        );
        assert_eq!(
            with(60, &f32::INFINITY.to_le_bytes()),
            NetworkError::NotFinite(1)
        );
        assert_eq!(
            Network::from_bytes(&good[..good.len() - 4]).unwrap_err(),
            NetworkError::Length(NETWORK_BYTES - 4)
        );
        assert_eq!(
            Network::from_bytes(&good[..20]).unwrap_err(),
            NetworkError::Length(20)
        );
        assert_eq!(
            Network::from_bytes(b"LIB").unwrap_err(),
            NetworkError::Magic
        );
        let msg = NetworkError::Length(20).to_string();
        assert!(msg.contains("20 bytes") && msg.contains(&NETWORK_BYTES.to_string()));
    }
}
