//! The chess family in the registry: its rulesets described, its positions viewed as grids,
//! its moves given action ids, and the UCI notation GUIs use.

use crate::family::{
    FamilyGame, FamilyRules, Geometry, Ledger, OptionInfo, OptionKind, PieceInfo, PlaceError,
    Placement, UciGame,
};
use crate::view::{BoardView, GridView, SquareView, StakesView};
use libro_chess::net::{Mode, Network};
use libro_chess::options as chess_options;
use libro_chess::{notation, ChessGame, ChessRules, Move};
use libro_core::{Game, Ruleset, Seat};
use std::sync::Arc;

impl FamilyRules for ChessRules {
    type Played = ChessGame;
    const FAMILY: &'static str = "chess";

    fn title(&self) -> &str {
        ChessRules::title(self)
    }
    fn source(&self) -> &str {
        ChessRules::source(self)
    }
    fn options(&self) -> Vec<OptionInfo> {
        ChessRules::options(self)
            .into_iter()
            .map(|o| {
                // A family option has its spec; a reading the file declares (Grant
                // Acedrex's `unicorn`, say) is a choice among the values it lists.
                let (kind, multi_seat) = match chess_options::spec(&o.name) {
                    Some(spec) => (OptionKind::from(spec.kind), spec.multi_seat),
                    None => (
                        OptionKind::Choice {
                            values: o.allowed.split(" | ").map(str::to_string).collect(),
                        },
                        false,
                    ),
                };
                OptionInfo {
                    name: o.name.to_string(),
                    value: o.value,
                    kind,
                    explanation: o.explanation.to_string(),
                    source: o.source,
                    multi_seat,
                }
            })
            .collect()
    }
    fn pieces(&self) -> Vec<PieceInfo> {
        ChessRules::pieces(self)
            .iter()
            .map(|p| PieceInfo {
                letter: p.letter.to_string(),
                name: p.name.clone(),
                betza: p.betza.clone(),
            })
            .collect()
    }
    fn geometry(&self) -> Geometry {
        let b = self.board();
        Geometry::Grid {
            files: b.files,
            ranks: b.ranks,
        }
    }
    fn canonical(&self) -> String {
        ChessRules::canonical(self)
    }
    /// A seat plays from the edge its pawns advance away from.
    fn seat_sides(&self) -> Vec<&'static str> {
        self.seats()
            .iter()
            .map(|s| match s.forward {
                (0, -1) => "north",
                (1, 0) => "west",
                (-1, 0) => "east",
                _ => "south",
            })
            .collect()
    }
    fn num_distinct_actions(&self) -> u64 {
        let squares = self.board().squares() as u64;
        let types = self.pieces().len() as u64;
        // A pass, 101 bets, then (from, to, piece, phantom or not).
        1 + BETS + squares * squares * types * 2
    }
    fn has_stakes(&self) -> bool {
        self.seats().len() > 2
    }
    fn with_stakes(self: &Arc<Self>, stakes: &[u32]) -> Option<ChessGame> {
        (self.seats().len() > 2 && stakes.len() == self.seats().len())
            .then(|| ChessGame::with_stakes(self, stakes))
    }
}

/// Bets run from 0 to 100 (the four-player game's opening under Ludii's reading).
const BETS: u64 = 101;

impl FamilyGame for ChessGame {
    fn view(&self) -> BoardView {
        BoardView::Grid(grid_view(self))
    }
    fn describe(&self, mv: Move) -> String {
        self.san(mv)
    }
    fn action(&self, mv: Move) -> u64 {
        if mv.is_pass() {
            return 0;
        }
        if let Some(amount) = mv.bet_amount() {
            return 1 + u64::from(amount);
        }
        let r = self.rules();
        let squares = r.board().squares() as u64;
        let types = r.pieces().len() as u64;
        let board_move = (mv.from().index() as u64 * squares + mv.to().index() as u64) * types
            + u64::from(mv.piece().0);
        1 + BETS + board_move * 2 + u64::from(mv.is_phantom())
    }
    fn forced_note(&self) -> Option<String> {
        self.forced_capture_explanation()
    }
    fn perft(&self, depth: u32, divide: bool) -> Option<(u64, Vec<(String, u64)>)> {
        Some(if divide {
            let lines = libro_chess::perft_divide(self, depth);
            (lines.iter().map(|(_, n)| n).sum(), lines)
        } else {
            (
                libro_chess::perft(self.rules(), self.position(), depth),
                Vec::new(),
            )
        })
    }
    fn in_play(&self) -> Vec<bool> {
        (0..self.num_seats() as u8)
            .map(|s| self.position().is_active(Seat(s)))
            .collect()
    }
    fn drop_seat(&mut self, seat: Seat) -> bool {
        ChessGame::drop_seat(self, seat)
    }
    fn can_win(&self, seat: Seat) -> bool {
        ChessGame::can_win(self, seat)
    }
    fn ledger(&self) -> Option<Ledger> {
        (self.num_seats() > 2).then(|| Ledger {
            paid: self.paid().into_iter().map(|p| p as f64).collect(),
            balances: self.balances(),
        })
    }
}

/// The grid view of a chess position.
fn grid_view(g: &ChessGame) -> GridView {
    let r = g.rules();
    let pos = g.position();
    let board = r.board();
    let mut squares = Vec::new();
    for rank in 0..i32::from(board.ranks) {
        for file in 0..i32::from(board.files) {
            let Some(sq) = board.square(file, rank) else {
                continue;
            };
            let Some(seat) = pos.seat_at(r, sq) else {
                continue;
            };
            squares.push(SquareView {
                sq: square_text(file, rank),
                seat: seat.0,
                pieces: pieces_on(r, pos.types_at(r, sq)),
            });
        }
    }
    let n = r.seats().len();
    let check: Vec<String> = (0..n as u8)
        .map(Seat)
        .filter(|&s| pos.is_active(s) && pos.in_check(r, s))
        .filter_map(|s| pos.king_square(r, s).map(|k| board.name(k).to_string()))
        .collect();
    let active: Vec<bool> = (0..n as u8).map(|s| pos.is_active(Seat(s))).collect();
    let stakes = (n > 2).then(|| StakesView {
        stakes: g.stakes(),
        paid: g.paid(),
        pot: g.pot(),
        balances: g.balances(),
        out: g.eliminated().to_vec(),
        targets: (0..n as u8)
            .map(|s| pos.next_active(n, Seat(s)).0)
            .collect(),
    });
    GridView {
        position: g.to_string(),
        files: board.files,
        ranks: board.ranks,
        squares,
        check,
        active,
        to_move: pos.to_move().0,
        stakes,
    }
}

/// A square's name (`e4`, `l12`) from its file and rank, as [`libro_chess::Board::name`]
/// writes it, without the formatting machinery: a board view names every occupied square.
fn square_text(file: i32, rank: i32) -> String {
    let mut name = String::with_capacity(3);
    name.push(char::from(b'a' + file as u8));
    let number = rank as u32 + 1;
    if number >= 10 {
        name.push(char::from(b'0' + (number / 10) as u8));
    }
    name.push(char::from(b'0' + (number % 10) as u8));
    name
}

/// The letters of the piece types in `types` (a bit set), bottom first: pawns under the
/// piece sharing their square, as set up, then by letter.
fn pieces_on(r: &ChessRules, types: u8) -> Vec<String> {
    let mut letters = [(false, ' '); 8];
    let mut n = 0;
    for (t, piece) in r.pieces().iter().enumerate().take(8) {
        if types >> t & 1 != 0 {
            letters[n] = (!piece.is_pawn(), piece.letter);
            n += 1;
        }
    }
    letters[..n].sort_unstable();
    letters[..n].iter().map(|&(_, l)| l.to_string()).collect()
}

impl UciGame for ChessGame {
    type Rules = ChessRules;

    /// Reads a FEN in libro's piece letters or as Fairy-Stockfish writes it: the GUI's letters
    /// (`uci_letter`) and, for a piece whose first move GUIs mark (`uci_marks_first_move`,
    /// the acedrex fers), its own letter while it keeps that move and `+` before it (or its
    /// `uci_letter`) once moved; such a FEN's third field (castling, `-`) says nothing of
    /// first moves. Where both readings succeed and differ (an unmoved field `-` and a marked
    /// piece in its own letter), the GUI's is taken: over UCI, FENs come from GUIs.
    fn from_fen(rules: &Arc<ChessRules>, fen: &str) -> Result<ChessGame, String> {
        let gui = notation::gui_fen(rules, fen);
        let libros = rules.parse_position(fen).map_err(|e| e.to_string());
        match (libros, gui) {
            (Ok(game), Some(gui)) if gui.marked => {
                Ok(rules.parse_position(&gui.fen).unwrap_or(game))
            }
            (Ok(game), _) => Ok(game),
            (Err(first_try), Some(gui)) => rules.parse_position(&gui.fen).map_err(|_| first_try),
            (Err(first_try), None) => Err(first_try),
        }
    }

    /// Reads a move in libro's notation or as GUIs write a promotion (`c7c8q`, the promoted
    /// piece's `uci_letter`).
    fn read_uci_move(&self, text: &str) -> Result<Move, String> {
        let error = match self.parse_move(text) {
            Ok(mv) => return Ok(mv),
            Err(e) => e.to_string(),
        };
        let suffix = text.chars().last().filter(|c| c.is_ascii_alphabetic());
        let squares = suffix.map(|c| &text[..text.len() - c.len_utf8()]);
        if let (Some(letter), Some(Ok(mv))) = (suffix, squares.map(|t| self.parse_move(t))) {
            let rules = self.rules();
            if let Some(p) = notation::promotion(rules, self.position(), mv) {
                if rules.piece(p).uci_letter == letter.to_ascii_uppercase() {
                    return Ok(mv);
                }
            }
        }
        Err(error)
    }

    /// Writes a move as GUIs read it: libro's coordinates, with the promoted piece's
    /// `uci_letter` in lower case after a promotion (`c7c8q`), and a `+` after the first move
    /// of a piece whose ruleset says `uci_marks_first_move` (the acedrex fers: `d1d3+`).
    fn write_uci_move(&self, mv: Move) -> String {
        let mut text = self.move_text(mv);
        let rules = self.rules();
        if let Some(p) = notation::promotion(rules, self.position(), mv) {
            text.push(rules.piece(p).uci_letter.to_ascii_lowercase());
        } else if mv.is_board_move()
            && rules.pieces()[mv.piece().index()].uci_marks_first_move
            && self.position().is_unmoved(mv.from())
        {
            text.push('+');
        }
        text
    }

    fn is_refereed_draw(&self) -> bool {
        ChessGame::is_refereed_draw(self)
    }

    fn play_on(&mut self) {
        ChessGame::play_on(self)
    }

    fn shipped_network(rules: &ChessRules) -> Option<Arc<Network>> {
        crate::shipped_network(rules)
    }

    fn with_network(
        rules: &ChessRules,
        network: Option<Arc<Network>>,
    ) -> Result<Arc<ChessRules>, String> {
        rules
            .clone()
            .with_network(network)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    }

    /// `static evaluation for FIRST SEAT: V centipawns (hand-written H, network N)`.
    fn describe_evaluation(&self) -> String {
        let rules = self.rules();
        let seat = &rules.seats()[0].name;
        match libro_chess::evaluation_parts(self) {
            None => "no static evaluation for more than two seats".to_string(),
            Some((hand, None)) => format!(
                "static evaluation for {seat}: {hand} centipawns (hand-written; no network)"
            ),
            Some((hand, Some(net))) => {
                let network = rules.network();
                let value = match network.map(|n| n.mode()) {
                    Some(Mode::Whole) => format!(
                        "static evaluation for {seat}: {net} centipawns (network; the hand-written evaluation alone would say {hand})"
                    ),
                    _ => format!(
                        "static evaluation for {seat}: {} centipawns (hand-written {hand}, network {net})",
                        hand + net
                    ),
                };
                match network {
                    Some(n) => format!("{value}; network file SHA-256 {}", n.digest()),
                    None => value,
                }
            }
        }
    }
}

/// The position string of pieces placed on an empty board (a board editor's), checked by
/// the rules' setup layer. First-move rights are kept by pieces standing where they start;
/// with fewer pieces than at the start a capture is taken to have been made; with more than
/// two seats each seat has its default stake paid, and a seat without pieces is out.
pub(crate) fn place(
    r: &Arc<ChessRules>,
    pieces: &[Placement],
    to_move: u8,
) -> Result<String, PlaceError> {
    let n = r.seats().len();
    let board = r.board();
    let mut setup = libro_chess::Setup::default();
    for p in pieces {
        let square = board.parse_square(&p.square).ok_or_else(|| {
            PlaceError::new(
                "square",
                format!("`{}` is not a square of the board", clip(&p.square)),
            )
        })?;
        if usize::from(p.seat) >= n {
            return Err(PlaceError::new(
                "seat",
                format!("there is no seat {}: the game has {n}", p.seat),
            ));
        }
        let kind = r
            .pieces()
            .iter()
            .position(|info| p.piece.eq_ignore_ascii_case(&info.letter.to_string()))
            .ok_or_else(|| {
                PlaceError::new(
                    "piece",
                    format!("`{}` is not a piece of this ruleset", clip(&p.piece)),
                )
            })?;
        setup.pieces.push(libro_chess::Placed {
            seat: Seat(p.seat),
            piece: libro_chess::PieceKind(kind as u8),
            square,
        });
    }
    if usize::from(to_move) >= n {
        return Err(PlaceError::new(
            "seat",
            format!("there is no seat {to_move} to move: the game has {n}"),
        ));
    }
    setup.to_move = Seat(to_move);
    let start = ChessGame::new(r);
    let start_setup = start.position().to_setup(r, &Default::default());
    setup.unmoved = start_setup
        .unmoved
        .iter()
        .copied()
        .filter(|&sq| {
            let at = |s: &libro_chess::Setup| {
                s.pieces
                    .iter()
                    .filter(|p| p.square == sq)
                    .map(|p| (p.seat, p.piece))
                    .collect::<Vec<_>>()
            };
            at(&setup) == at(&start_setup)
        })
        .collect();
    setup.captured = setup.pieces.len() < start_setup.pieces.len();
    if n == 2 {
        // Each side needs its king; a side with no pieces is no side "out".
        if let Some(s) = (0..2).find(|&s| !setup.pieces.iter().any(|p| p.seat.0 == s)) {
            return Err(PlaceError::new(
                "kings",
                format!("seat `{}` has 0 kings", r.seats()[usize::from(s)].name),
            ));
        }
    } else {
        setup.stakes = start.stakes();
        setup.paid = start.paid();
        setup.out = (0..n as u8)
            .filter(|&s| !setup.pieces.iter().any(|p| p.seat.0 == s))
            .map(Seat)
            .collect();
    }
    let pos = libro_chess::Position::from_setup(r, &setup)
        .map_err(|e| PlaceError::new(setup_problem(&e), e.to_string()))?;
    let mut text = String::new();
    notation::write_position(r, &pos, &setup.extras(), &mut text)
        .map_err(|_| PlaceError::new("position", "the position cannot be written".into()))?;
    Ok(text)
}

/// A stable name for what is wrong with a setup.
fn setup_problem(e: &libro_chess::SetupError) -> &'static str {
    use libro_chess::SetupError as E;
    match e {
        E::OffBoard { .. } => "square",
        E::NoSuchSeat { .. } => "seat",
        E::NoSuchPiece { .. } => "piece",
        E::TwoSeatsOnSquare { .. } | E::SamePieceTwice { .. } | E::Crowded { .. } => "square",
        E::Kings { .. } => "kings",
        E::Unpromoted { .. } => "unpromoted",
        E::OpponentInCheck { .. } => "opponent-in-check",
        E::MoverOut | E::NoPieces { .. } | E::OutWithPieces { .. } | E::OutTwice { .. } => {
            "seat-out"
        }
        _ => "position",
    }
}

/// At most 20 characters of a caller's text, for an error.
fn clip(text: &str) -> String {
    text.chars().take(20).collect()
}

/// Whether a chess ruleset can be played over UCI: two seats.
pub(crate) fn speaks_uci(rules: &ChessRules) -> bool {
    rules.seats().len() == 2
}

/// Every option spec of the family, to check [`FamilyRules::options`] covers them.
#[cfg(test)]
pub(crate) fn spec_names() -> Vec<&'static str> {
    chess_options::SPECS.iter().map(|s| s.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(name: &str) -> ChessGame {
        let rules = crate::load(name, &[]).unwrap();
        rules.downcast::<ChessRules>().unwrap().new_game(0)
    }

    #[test]
    fn the_acedrex_fers_first_move_is_written_as_fairy_stockfish_writes_it() {
        // Fairy-Stockfish's acedrex (its variants.ini) models the unmoved fers as a piece
        // that promotes when it first moves: `d1d3+` for the leap, `d1e2+` for a step. Other
        // first moves and later fers moves carry no mark.
        let mut game = start("acedrex");
        for (text, written) in [("e2e3", "e2e3"), ("e7e6", "e7e6"), ("d1d3", "d1d3+")] {
            let mv = game.read_uci_move(text).unwrap();
            assert_eq!(game.write_uci_move(mv), written);
            game.play(mv);
        }
        let mv = game.read_uci_move("d8e7+").unwrap();
        assert_eq!(game.write_uci_move(mv), "d8e7+");
        game.play(mv);
        let mv = game.read_uci_move("d3e4").unwrap();
        assert_eq!(game.write_uci_move(mv), "d3e4", "the fers has moved");
        // Shatranj's fers has no first-move right and no mark.
        let mut shatranj = start("shatranj");
        for text in ["d2d3", "d7d6", "e1d2"] {
            let mv = shatranj.read_uci_move(text).unwrap();
            assert_eq!(shatranj.write_uci_move(mv), text);
            shatranj.play(mv);
        }
    }

    #[test]
    fn action_ids_are_distinct_and_within_the_declared_range() {
        // Twenty plies of the first legal move: at every position the legal moves have
        // distinct ids, all below num_distinct_actions.
        for name in ["acedrex", "cuatro-tiempos", "short-assize-ludii"] {
            let rules = crate::load(name, &[]).unwrap();
            let chess = rules.downcast::<ChessRules>().unwrap();
            let limit = FamilyRules::num_distinct_actions(chess.as_ref());
            let mut game = chess.new_game(0);
            for _ in 0..20 {
                let mut list = libro_chess::MoveList::new();
                game.legal_moves(&mut list);
                let ids: std::collections::HashSet<u64> =
                    list.as_slice().iter().map(|&m| game.action(m)).collect();
                assert_eq!(ids.len(), list.as_slice().len(), "{name}: ids collide");
                assert!(ids.iter().all(|&id| id < limit), "{name}");
                let Some(&mv) = list.as_slice().first() else {
                    break;
                };
                game.play(mv);
            }
        }
    }

    #[test]
    fn board_views_name_squares_and_order_pieces_as_the_board_and_letters_say() {
        // Every shipped grid ruleset, over a few plies: each square as the board names it,
        // its pieces pawns first and then by letter.
        for header in crate::shipped() {
            let name = header.name;
            let rules = crate::load(&name, &[]).unwrap();
            let Some(chess) = rules.downcast::<ChessRules>() else {
                continue;
            };
            let r = chess.as_ref();
            let board = r.board();
            let mut game = chess.new_game(0);
            for _ in 0..6 {
                let view = grid_view(&game);
                let pos = game.position();
                let mut expected = Vec::new();
                for rank in 0..i32::from(board.ranks) {
                    for file in 0..i32::from(board.files) {
                        let Some(sq) = board.square(file, rank) else {
                            continue;
                        };
                        if pos.seat_at(r, sq).is_none() {
                            continue;
                        }
                        let types = pos.types_at(r, sq);
                        let mut letters: Vec<(bool, String)> = (0..r.pieces().len())
                            .filter(|t| types >> t & 1 != 0)
                            .map(|t| (!r.pieces()[t].is_pawn(), r.pieces()[t].letter.to_string()))
                            .collect();
                        letters.sort();
                        let pieces: Vec<String> = letters.into_iter().map(|(_, l)| l).collect();
                        expected.push((board.name(sq).to_string(), pieces));
                    }
                }
                let got: Vec<(String, Vec<String>)> = view
                    .squares
                    .iter()
                    .map(|s| (s.sq.clone(), s.pieces.clone()))
                    .collect();
                assert_eq!(got, expected, "{name}");
                let mut list = libro_chess::MoveList::new();
                game.legal_moves(&mut list);
                let Some(&mv) = list.as_slice().last() else {
                    break;
                };
                game.play(mv);
            }
        }
    }

    fn placed(list: &[(&str, u8, &str)]) -> Vec<Placement> {
        list.iter()
            .map(|&(square, seat, piece)| Placement {
                square: square.into(),
                seat,
                piece: piece.into(),
            })
            .collect()
    }

    #[test]
    fn placed_pieces_make_the_position_string_or_name_what_is_wrong() {
        let rules = crate::load("acedrex", &[]).unwrap();
        // Kings on e1 and e8 and a white rook on a1, Black to move: fewer pieces than at the
        // start, so a capture has been made (`x`); no fers, so no first-move right.
        let kr = [("e1", 0, "K"), ("e8", 1, "K"), ("a1", 0, "R")];
        assert_eq!(
            rules.place(&placed(&kr), 1).unwrap(),
            "4k3/8/8/8/8/8/8/R3K3 b - x 0 1"
        );
        // The fers on its own start square keeps its leap; elsewhere it has none.
        let fers = [("e1", 0, "K"), ("e8", 1, "K"), ("d1", 0, "F")];
        assert_eq!(
            rules.place(&placed(&fers), 0).unwrap(),
            "4k3/8/8/8/8/8/8/3FK3 w d1 x 0 1"
        );
        let moved = [("e1", 0, "K"), ("e8", 1, "K"), ("d2", 0, "F")];
        assert_eq!(
            rules.place(&placed(&moved), 0).unwrap(),
            "4k3/8/8/8/8/8/3F4/4K3 w - x 0 1"
        );
        let problem = |list: &[(&str, u8, &str)], to_move| {
            rules.place(&placed(list), to_move).unwrap_err().problem
        };
        assert_eq!(
            problem(&[("e1", 0, "K"), ("d1", 0, "K"), ("e8", 1, "K")], 0),
            "kings"
        );
        assert_eq!(problem(&[("e1", 0, "K")], 0), "kings", "Black has no king");
        assert_eq!(problem(&[("e1", 0, "K"), ("e7", 1, "P")], 0), "kings");
        assert_eq!(
            problem(&[("e1", 0, "K"), ("e8", 1, "K"), ("a8", 0, "P")], 0),
            "unpromoted"
        );
        // Black in check from the rook with White to move.
        assert_eq!(
            problem(&[("e1", 0, "K"), ("e8", 1, "K"), ("e4", 0, "R")], 0),
            "opponent-in-check"
        );
        assert_eq!(problem(&[("z9", 0, "K")], 0), "square");
        assert_eq!(problem(&[("e1", 0, "Q")], 0), "piece");
        assert_eq!(problem(&[("e1", 2, "K")], 0), "seat");
        assert_eq!(problem(&kr, 2), "seat");
        let fallas = crate::load("fallas", &[]).unwrap();
        assert_eq!(fallas.place(&[], 0).unwrap_err().problem, "unsupported");
    }

    #[test]
    fn every_option_of_the_family_is_described() {
        let rules = crate::load("cuatro-tiempos", &[]).unwrap();
        let described: Vec<String> = rules.options().into_iter().map(|o| o.name).collect();
        for name in spec_names() {
            assert!(
                described.iter().any(|d| d == name),
                "{name} is not described"
            );
        }
    }
}
