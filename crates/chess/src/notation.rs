//! Notation: the FEN-like position string and coordinate / SAN-like moves.
//!
//! Two seats: `<board> <seat> <unmoved> <capture> <halfmove> <fullmove>`, e.g. Acedrex's
//! start `rnafkanr/pppppppp/8/8/8/8/PPPPPPPP/RNAFKANR w d1d8 - 0 1`: upper case for the first
//! seat, lower case for the second, a shared square in brackets bottom piece first (`(PF)`),
//! `<unmoved>` the squares of pieces that have not moved yet and still have a first-move
//! right (the fers' leap; pawns on their own starting squares are implied), `<capture>` `x`
//! once any capture has been made, else `-`.
//!
//! More seats: every piece is its seat's letter and its own (`gK`, `rP`), the seat field is a
//! seat letter, the last number is the ply, and `key:value` fields follow: `stakes:1/1/1/1`,
//! `paid:..`, `pot:N`, `out:` (seats in the order they left). Any game may add `passes:N`
//! (consecutive passes) and `over:repetition` (a draw no board shows).

use crate::geometry::Square;
use crate::position::{with_pos, Move, Pos, Position};
use crate::rules::PieceKind;
use crate::rules::{ChessRules, Width, MAX_SEATS};
use crate::setup::{Placed, Setup};
use libro_core::Seat;
use std::fmt::{self, Write};

/// What is wrong with a position string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position `{text}`: {what}")]
pub struct PositionError {
    pub text: String,
    pub what: String,
}

/// The game-level parts of a position string: money, elimination order, a recorded end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// Each seat's stake (`None` while its bet is still to come).
    pub stakes: [Option<u32>; MAX_SEATS],
    /// What each seat has paid into the pot.
    pub paid: [u64; MAX_SEATS],
    /// Seats in the order they left the game.
    pub out: Vec<u8>,
    /// A draw the board cannot show (`repetition`).
    pub over: Option<String>,
}

/// Bottom-first order of the two types on a shared square: pawns at the bottom, as set up.
fn stack_types(r: &ChessRules, types: u8) -> Vec<u8> {
    let mut v: Vec<u8> = (0..r.pieces.len() as u8)
        .filter(|t| types >> t & 1 != 0)
        .collect();
    v.sort_by_key(|&t| (!r.pieces[t as usize].is_pawn(), t));
    v
}

fn piece_token(r: &ChessRules, seat: u8, t: u8, out: &mut String) {
    let letter = r.pieces[t as usize].letter;
    if r.num_seats() == 2 {
        out.push(if seat == 0 {
            letter
        } else {
            letter.to_ascii_lowercase()
        });
    } else {
        out.push(r.seats[seat as usize].letter);
        out.push(letter);
    }
}

/// Writes the position string.
pub fn write_position(
    r: &ChessRules,
    pos: &Position,
    extras: &Extras,
    f: &mut dyn Write,
) -> fmt::Result {
    with_pos!(pos, p => write_position_in(r, p, extras, f))
}

/// [`write_position`] in the position's own width.
pub(crate) fn write_position_in<B: Width>(
    r: &ChessRules,
    pos: &Pos<B>,
    extras: &Extras,
    f: &mut dyn Write,
) -> fmt::Result {
    let name = |sq| r.board.name(sq);
    let mut board = String::new();
    for rank in (0..i32::from(r.board.ranks)).rev() {
        let mut empty = 0;
        for file in 0..i32::from(r.board.files) {
            let sq = r.board.square(file, rank).expect("on the board");
            match pos.seat_at(r, sq) {
                None => empty += 1,
                Some(seat) => {
                    if empty > 0 {
                        write!(board, "{empty}")?;
                        empty = 0;
                    }
                    let types = stack_types(r, pos.types_at(r, sq));
                    if types.len() > 1 {
                        board.push('(');
                    }
                    for &t in &types {
                        piece_token(r, seat, t, &mut board);
                    }
                    if types.len() > 1 {
                        board.push(')');
                    }
                }
            }
        }
        if empty > 0 {
            write!(board, "{empty}")?;
        }
        if rank > 0 {
            board.push('/');
        }
    }
    f.write_str(&board)?;
    write!(f, " {}", r.seats[pos.to_move as usize].letter)?;
    // Unmoved pieces whose first-move right is not implied by a pawn's starting square.
    let mut unmoved = String::new();
    for sq in pos.unmoved {
        write!(unmoved, "{}", name(sq))?;
    }
    write!(f, " {}", if unmoved.is_empty() { "-" } else { &unmoved })?;
    write!(f, " {}", if pos.captured { "x" } else { "-" })?;
    write!(f, " {}", pos.halfmove)?;
    if r.num_seats() == 2 {
        write!(f, " {}", pos.ply / 2 + 1)?;
    } else {
        write!(f, " {}", pos.ply)?;
    }
    if pos.passes > 0 {
        write!(f, " passes:{}", pos.passes)?;
    }
    if pos.ghost.any() {
        let g: String = pos.ghost.map(|s| name(s).to_string()).collect();
        write!(f, " ghosts:{g}")?;
    }
    if pos.phantom.iter().any(|p| p.any()) {
        let p: Vec<String> = pos
            .phantom
            .iter()
            .map(|b| {
                if b.is_empty() {
                    "-".to_string()
                } else {
                    b.map(|s| name(s).to_string()).collect()
                }
            })
            .collect();
        write!(f, " phantoms:{}", p.join("/"))?;
    }
    if r.num_seats() > 2 {
        let n = r.num_seats();
        let stakes: Vec<String> = (0..n)
            .map(|s| extras.stakes[s].map_or("-".to_string(), |v| v.to_string()))
            .collect();
        let paid: Vec<String> = (0..n).map(|s| extras.paid[s].to_string()).collect();
        write!(
            f,
            " stakes:{} paid:{} pot:{}",
            stakes.join("/"),
            paid.join("/"),
            extras.paid.iter().sum::<u64>()
        )?;
        if !extras.out.is_empty() {
            let out: String = extras
                .out
                .iter()
                .map(|&s| r.seats[s as usize].letter)
                .collect();
            write!(f, " out:{out}")?;
        }
    }
    if let Some(over) = &extras.over {
        write!(f, " over:{over}")?;
    }
    Ok(())
}

/// Reads a position string written by [`write_position`] and checks it against the rules
/// ([`parse_setup`], then [`Position::from_setup`]).
pub fn parse_position(r: &ChessRules, text: &str) -> Result<(Position, Extras), PositionError> {
    let setup = parse_setup(r, text)?;
    let pos = Position::from_setup(r, &setup).map_err(|e| PositionError {
        text: text.to_string(),
        what: e.to_string(),
    })?;
    Ok((pos, setup.extras()))
}

/// Reads a position string into a [`Setup`], refusing only text that is not well formed
/// (the ruleset gives the board's size, the letters and which fields exist); whether the
/// position can stand is [`Position::from_setup`]'s to say.
pub fn parse_setup(r: &ChessRules, text: &str) -> Result<Setup, PositionError> {
    let (files, nranks) = (r.board.files, r.board.ranks);
    let err = |what: String| PositionError {
        text: text.to_string(),
        what,
    };
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 6 {
        return Err(err(format!("{} fields; expected board, seat to move, unmoved, capture flag, halfmove clock and move number", fields.len())));
    }
    let n = r.num_seats();
    let mut setup = Setup::default();
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != usize::from(nranks) {
        return Err(err(format!(
            "the board has {} ranks, not {nranks}",
            ranks.len()
        )));
    }
    let at = |file: u8, rank: u8| Square(rank * files + file);
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = nranks - 1 - i as u8;
        let mut file = 0u8;
        let chars: Vec<char> = rank_text.chars().collect();
        let mut j = 0;
        let mut stack: Option<Vec<(u8, u8)>> = None;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let mut k = j;
                while k < chars.len() && chars[k].is_ascii_digit() {
                    k += 1;
                }
                let run: u8 = chars[j..k]
                    .iter()
                    .collect::<String>()
                    .parse()
                    .map_err(|_| err(format!("rank {}: bad number", rank + 1)))?;
                if stack.is_some() || run == 0 || run > files - file {
                    return Err(err(format!("rank {}: bad empty-square count", rank + 1)));
                }
                file += run;
                j = k;
                continue;
            }
            if c == '(' {
                if stack.is_some() {
                    return Err(err(format!("rank {}: nested brackets", rank + 1)));
                }
                stack = Some(Vec::new());
                j += 1;
                continue;
            }
            if c == ')' {
                let pieces = stack
                    .take()
                    .ok_or_else(|| err(format!("rank {}: `)` without `(`", rank + 1)))?;
                if pieces.len() != 2 || pieces[0].0 != pieces[1].0 || pieces[0].1 == pieces[1].1 {
                    return Err(err(format!(
                        "rank {}: a shared square holds two different pieces of one seat",
                        rank + 1
                    )));
                }
                if file >= files {
                    return Err(err(format!("rank {}: too many squares", rank + 1)));
                }
                for (seat, piece) in pieces {
                    setup.pieces.push(Placed {
                        seat: Seat(seat),
                        piece: PieceKind(piece),
                        square: at(file, rank),
                    });
                }
                file += 1;
                j += 1;
                continue;
            }
            let (seat, letter, used) = if n == 2 {
                (
                    if c.is_ascii_uppercase() { 0 } else { 1 },
                    c.to_ascii_uppercase(),
                    1,
                )
            } else {
                let seat =
                    r.seats.iter().position(|s| s.letter == c).ok_or_else(|| {
                        err(format!("rank {}: `{c}` is not a seat letter", rank + 1))
                    })?;
                let l = *chars.get(j + 1).ok_or_else(|| {
                    err(format!(
                        "rank {}: seat letter `{c}` without a piece",
                        rank + 1
                    ))
                })?;
                (seat as u8, l, 2)
            };
            let PieceKind(piece) = r.piece_by_letter(letter).ok_or_else(|| {
                err(format!(
                    "rank {}: `{letter}` is not a piece letter",
                    rank + 1
                ))
            })?;
            j += used;
            match stack.as_mut() {
                Some(v) => v.push((seat, piece)),
                None => {
                    if file >= files {
                        return Err(err(format!("rank {}: too many squares", rank + 1)));
                    }
                    setup.pieces.push(Placed {
                        seat: Seat(seat),
                        piece: PieceKind(piece),
                        square: at(file, rank),
                    });
                    file += 1;
                }
            }
        }
        if stack.is_some() {
            return Err(err(format!("rank {}: unclosed `(`", rank + 1)));
        }
        if file != files {
            return Err(err(format!(
                "rank {} has {file} squares, not {files}",
                rank + 1
            )));
        }
    }
    let mover = fields[1];
    let to_move = r
        .seats
        .iter()
        .position(|s| mover.len() == 1 && mover.starts_with(s.letter))
        .ok_or_else(|| err(format!("`{mover}` is not a seat letter")))?;
    setup.to_move = Seat(to_move as u8);
    if fields[2] != "-" {
        setup.unmoved = squares(r, fields[2]).ok_or_else(|| {
            err(format!(
                "unmoved field `{}` is not a list of squares",
                fields[2]
            ))
        })?;
    }
    setup.captured = match fields[3] {
        "x" => true,
        "-" => false,
        other => return Err(err(format!("capture flag `{other}` is not `x` or `-`"))),
    };
    setup.halfmove = fields[4]
        .parse()
        .map_err(|_| err(format!("halfmove clock `{}` is not a number", fields[4])))?;
    let number: u32 = fields[5]
        .parse()
        .map_err(|_| err(format!("move number `{}` is not a number", fields[5])))?;
    setup.ply = if n == 2 {
        if number == 0 {
            return Err(err("the move number starts at 1".into()));
        }
        (number - 1) * 2 + to_move as u32
    } else {
        number
    };
    for field in &fields[6..] {
        let (key, value) = field
            .split_once(':')
            .ok_or_else(|| err(format!("extra field `{field}` is not key:value")))?;
        let numbers = |v: &str| -> Result<Vec<Option<u64>>, PositionError> {
            v.split('/')
                .map(|p| {
                    if p == "-" {
                        Ok(None)
                    } else {
                        p.parse()
                            .map(Some)
                            .map_err(|_| err(format!("`{key}`: `{p}` is not a number")))
                    }
                })
                .collect()
        };
        match key {
            "passes" => {
                setup.passes = value
                    .parse()
                    .map_err(|_| err(format!("passes `{value}` is not a number")))?
            }
            "ghosts" if r.options.stacking == crate::options::Stacking::Ludii => {
                setup.ghosts = squares(r, value)
                    .ok_or_else(|| err(format!("ghosts `{value}` is not a list of squares")))?
            }
            "phantoms" if r.options.stacking == crate::options::Stacking::Ludii => {
                let parts: Vec<&str> = value.split('/').collect();
                if parts.len() != 2 {
                    return Err(err(format!(
                        "phantoms `{value}` needs one list per seat, like `h8/-`"
                    )));
                }
                setup.phantoms = parts
                    .iter()
                    .map(|part| match *part {
                        "-" => Ok(Vec::new()),
                        _ => squares(r, part).ok_or_else(|| {
                            err(format!("phantoms `{part}` is not a list of squares"))
                        }),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "over" if value == "repetition" => setup.over = Some(value.to_string()),
            "stakes" if n > 2 => {
                setup.stakes = numbers(value)?
                    .into_iter()
                    .map(|v| v.map(|v| u32::try_from(v).unwrap_or(u32::MAX)))
                    .collect();
            }
            "paid" if n > 2 => {
                setup.paid = numbers(value)?
                    .into_iter()
                    .map(|v| v.ok_or_else(|| err("`paid` needs a number for every seat".into())))
                    .collect::<Result<_, _>>()?;
            }
            "pot" if n > 2 => {
                let pot: u64 = value
                    .parse()
                    .map_err(|_| err(format!("pot `{value}` is not a number")))?;
                let paid = setup.paid.iter().sum::<u64>();
                if pot != paid {
                    return Err(err(format!(
                        "the pot {pot} is not what the seats paid ({paid})"
                    )));
                }
            }
            "out" if n > 2 => {
                for c in value.chars() {
                    let s = r
                        .seats
                        .iter()
                        .position(|s| s.letter == c)
                        .ok_or_else(|| err(format!("out: `{c}` is not a seat letter")))?;
                    setup.out.push(Seat(s as u8));
                }
            }
            _ => return Err(err(format!("unknown field `{field}`"))),
        }
    }
    Ok(setup)
}

/// Reads a run of square names (`e2f3`), in order.
fn squares(r: &ChessRules, text: &str) -> Option<Vec<Square>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let end = (i + 2..=text.len().min(i + 3))
            .rev()
            .find(|&e| text.is_char_boundary(e) && r.board.parse_square(&text[i..e]).is_some())?;
        out.push(r.board.parse_square(&text[i..end])?);
        i = end;
    }
    Some(out)
}

/// Whether `mv` would promote its piece here, and to what.
pub fn promotion(r: &ChessRules, pos: &Position, mv: Move) -> Option<PieceKind> {
    with_pos!(pos, p => promotion_in(r, p, mv)).map(PieceKind)
}

/// [`promotion`] in the position's own width.
pub(crate) fn promotion_in<B: Width>(r: &ChessRules, pos: &Pos<B>, mv: Move) -> Option<u8> {
    if !mv.is_normal() {
        return None;
    }
    let t = mv.piece().0;
    let p = r.promotion_type(t, mv.to(), r.pieces[t as usize].promotes_to?);
    let seat = pos.to_move;
    if !r.table::<B>(seat, t).promo_zone.contains(mv.to()) {
        return None;
    }
    if pos.occ.contains(mv.to()) && !r.options.promote_on_capture {
        return None;
    }
    if r.options.promotion == crate::options::Promotion::OnlyWithoutFers
        && (pos.type_bb[p as usize] & pos.seat_bb[seat as usize]).any()
    {
        return None;
    }
    Some(p)
}

/// Writes a move in coordinate notation: `e2e4`, with the piece letter first only when the
/// other piece of a shared square could make the same move (`Fe3d4`); `pass`; `bet84`.
pub fn write_coordinate(
    r: &ChessRules,
    _pos: &Position,
    legal: &[Move],
    mv: Move,
    f: &mut dyn Write,
) -> fmt::Result {
    write_coordinate_in(r, legal, mv, f)
}

/// [`write_coordinate`]: it needs the legal moves, not the position.
pub(crate) fn write_coordinate_in(
    r: &ChessRules,
    legal: &[Move],
    mv: Move,
    f: &mut dyn Write,
) -> fmt::Result {
    if mv.is_pass() {
        return f.write_str("pass");
    }
    if let Some(a) = mv.bet_amount() {
        return write!(f, "bet{a}");
    }
    let twin = legal
        .iter()
        .any(|m| m.is_board_move() && m.from() == mv.from() && m.to() == mv.to() && *m != mv);
    if twin {
        f.write_char(r.pieces[mv.piece().index()].letter)?;
    }
    write!(f, "{}{}", r.board.name(mv.from()), r.board.name(mv.to()))
}

/// Writes a move in SAN-like notation for people: `Nf3`, `exd5`, `e8=F`, `Fd3`, with `+` for
/// check and `#` for mate (two seats).
pub fn write_san(r: &ChessRules, pos: &Position, legal: &[Move], mv: Move) -> String {
    with_pos!(pos, p => write_san_in(r, p, legal, mv))
}

/// [`write_san`] in the position's own width.
pub(crate) fn write_san_in<B: Width>(
    r: &ChessRules,
    pos: &Pos<B>,
    legal: &[Move],
    mv: Move,
) -> String {
    let (file, rank) = (|sq| r.board.file(sq), |sq| r.board.rank(sq));
    if mv.is_pass() {
        return "pass".into();
    }
    if let Some(a) = mv.bet_amount() {
        return format!("bet{a}");
    }
    if mv.is_phantom() {
        let mut s = String::new();
        let _ = write_coordinate_in(r, legal, mv, &mut s);
        return s;
    }
    let piece = &r.pieces[mv.piece().index()];
    let capture = pos.occ.contains(mv.to());
    let mut s = String::new();
    if piece.is_pawn() {
        if capture {
            s.push((b'a' + file(mv.from()) as u8) as char);
        }
    } else {
        s.push(piece.letter);
        let others: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                m.is_normal()
                    && m.piece() == mv.piece()
                    && m.to() == mv.to()
                    && m.from() != mv.from()
            })
            .collect();
        if !others.is_empty() {
            if others.iter().all(|m| file(m.from()) != file(mv.from())) {
                s.push((b'a' + file(mv.from()) as u8) as char);
            } else if others.iter().all(|m| rank(m.from()) != rank(mv.from())) {
                s.push_str(&(rank(mv.from()) + 1).to_string());
            } else {
                s.push_str(&r.board.name(mv.from()).to_string());
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&r.board.name(mv.to()).to_string());
    if let Some(p) = promotion_in(r, pos, mv) {
        s.push('=');
        s.push(r.pieces[p as usize].letter);
    }
    let mut after = *pos;
    after.play(r, mv);
    if r.num_seats() == 2 && after.in_check(r, after.to_move) {
        s.push(if after.has_piece_move(r) { '+' } else { '#' });
    }
    s
}

/// What went wrong reading a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{0}` is not a move (write it like e2e4, Nf3, exd5, e8=F, pass)")]
    Syntax(String),
    #[error("`{text}` is not a legal move here{reason}")]
    Illegal { text: String, reason: String },
    #[error("`{text}` is ambiguous: it could be {candidates}")]
    Ambiguous { text: String, candidates: String },
    #[error("`{text}` is not allowed: {explanation}")]
    Forced { text: String, explanation: String },
    #[error("the game is over")]
    GameOver,
}

/// A move as read, before matching it against the legal moves.
#[derive(Debug, Default)]
struct Pattern {
    piece: Option<char>,
    from_file: Option<i32>,
    from_rank: Option<i32>,
    to: Option<Square>,
    capture: bool,
    promotion: Option<char>,
    coordinate: bool,
}

fn parse_pattern(r: &ChessRules, text: &str) -> Option<Pattern> {
    let mut s: &str = text.trim_end_matches(['+', '#', '!', '?']);
    let mut p = Pattern::default();
    // Promotion suffix: `=F` or a trailing piece letter.
    if let Some((head, promo)) = s.rsplit_once('=') {
        let mut cs = promo.chars();
        p.promotion = Some(cs.next()?.to_ascii_uppercase());
        if cs.next().is_some() {
            return None;
        }
        s = head;
    } else if let Some(last) = s.chars().last() {
        if last.is_ascii_alphabetic()
            && s.len() > 2
            && r.piece_by_letter(last.to_ascii_uppercase()).is_some()
        {
            let head = &s[..s.len() - 1];
            if head.chars().last().is_some_and(|c| c.is_ascii_digit()) {
                p.promotion = Some(last.to_ascii_uppercase());
                s = head;
            }
        }
    }
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    if chars.first().is_some_and(|c| c.is_ascii_uppercase()) {
        p.piece = Some(chars[0]);
        i = 1;
    }
    // Squares and markers in the rest.
    let rest: String = chars[i..].iter().collect();
    let squares: Vec<(usize, Square, usize)> = {
        let mut v = Vec::new();
        let b: Vec<char> = rest.chars().collect();
        let mut k = 0;
        while k < b.len() {
            if b[k].is_ascii_lowercase() && k + 1 < b.len() && b[k + 1].is_ascii_digit() {
                let mut e = k + 1;
                while e < b.len() && b[e].is_ascii_digit() {
                    e += 1;
                }
                let name: String = b[k..e].iter().collect();
                v.push((k, r.board.parse_square(&name)?, e));
                k = e;
            } else {
                k += 1;
            }
        }
        v
    };
    let b: Vec<char> = rest.chars().collect();
    match squares.as_slice() {
        [(s0, a, e0), (s1, c, e1)] if *s0 == 0 && *e1 == b.len() => {
            let between: String = b[*e0..*s1].iter().collect();
            if !between.is_empty() && between != "-" && between != "x" {
                return None;
            }
            p.capture = between == "x";
            p.from_file = Some(r.board.file(*a));
            p.from_rank = Some(r.board.rank(*a));
            p.to = Some(*c);
            p.coordinate = true;
        }
        [(s0, c, e0)] if *e0 == b.len() => {
            p.to = Some(*c);
            let head: Vec<char> = b[..*s0].to_vec();
            let mut head = head.as_slice();
            if head.last() == Some(&'x') {
                p.capture = true;
                head = &head[..head.len() - 1];
            }
            match head {
                [] => {}
                [f] if f.is_ascii_lowercase() => p.from_file = Some(i32::from(*f as u8 - b'a')),
                [d] if d.is_ascii_digit() => p.from_rank = Some(i32::from(*d as u8 - b'1')),
                _ => return None,
            }
        }
        _ => return None,
    }
    Some(p)
}

/// Finds the legal move `text` names (coordinate or SAN-like). `legal` are the legal moves,
/// `all` the legal moves before Forçado's filter (to explain a forced capture).
pub(crate) fn match_move<B: Width>(
    r: &ChessRules,
    pos: &Pos<B>,
    legal: &[Move],
    all: &[Move],
    text: &str,
) -> Result<Move, MoveError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return if legal.contains(&Move::PASS) {
            Ok(Move::PASS)
        } else {
            Err(MoveError::Illegal {
                text: t.into(),
                reason: ": passing is allowed only without a legal move".into(),
            })
        };
    }
    if let Some(amount) = t.strip_prefix("bet") {
        let a: u8 = amount
            .trim()
            .parse()
            .map_err(|_| MoveError::Syntax(t.into()))?;
        return if legal.contains(&Move::bet(a)) {
            Ok(Move::bet(a))
        } else {
            Err(MoveError::Illegal {
                text: t.into(),
                reason: ": bets are 0 to 100, in the opening only".into(),
            })
        };
    }
    let p = parse_pattern(r, t).ok_or_else(|| MoveError::Syntax(t.into()))?;
    let matches = |m: &Move| -> bool {
        if !m.is_board_move() || Some(m.to()) != p.to {
            return false;
        }
        if p.from_file.is_some_and(|f| f != r.board.file(m.from()))
            || p.from_rank.is_some_and(|x| x != r.board.rank(m.from()))
        {
            return false;
        }
        let piece = &r.pieces[m.piece().index()];
        match p.piece {
            Some(l) if l != piece.letter => return false,
            None if !p.coordinate && !piece.is_pawn() => return false,
            _ => {}
        }
        if p.capture && !pos.occ.contains(m.to()) {
            return false;
        }
        match (p.promotion, promotion_in(r, pos, *m)) {
            (Some(l), Some(q)) => l == r.pieces[q as usize].letter,
            (Some(_), None) => false,
            _ => true,
        }
    };
    let found: Vec<Move> = legal.iter().copied().filter(matches).collect();
    match found.as_slice() {
        [m] => Ok(*m),
        [] => {
            if let Some(m) = all.iter().copied().find(matches) {
                let _ = m;
                return Err(MoveError::Forced {
                    text: t.into(),
                    explanation: crate::forced::explain(r, pos, legal).unwrap_or_default(),
                });
            }
            let reason = if p
                .to
                .is_some_and(|to| pos.seat_at(r, to) == Some(pos.to_move))
            {
                ": that square holds your own piece".to_string()
            } else {
                String::new()
            };
            Err(MoveError::Illegal {
                text: t.into(),
                reason,
            })
        }
        many => {
            let mut names: Vec<String> = Vec::new();
            for m in many {
                let mut s = String::new();
                s.push(r.pieces[m.piece().index()].letter);
                let _ = write!(s, "{}{}", m.from(), m.to());
                names.push(s);
            }
            Err(MoveError::Ambiguous {
                text: t.into(),
                candidates: names.join(" or "),
            })
        }
    }
}

/// A FEN as Fairy-Stockfish writes it, turned into libro's letters and fields.
pub struct GuiFen {
    /// The FEN in libro's letters and fields.
    pub fen: String,
    /// Whether a piece whose first move GUIs mark stands in its own letter (unmoved): the
    /// one case where libro's own reading of the text differs.
    pub marked: bool,
}

/// `fen` read as Fairy-Stockfish writes it: the GUI's letters (`uci_letter`); a piece whose
/// first move GUIs mark (`uci_marks_first_move`, the acedrex fers) in its own letter while
/// it keeps that move, and after a `+` or in its `uci_letter` once moved; the third field
/// (castling, `-`) then lists the unmoved. `None` if the text is the same in libro's letters
/// and holds no marked piece, or its board is not this one.
pub fn gui_fen(rules: &ChessRules, fen: &str) -> Option<GuiFen> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board = rules.board();
    let pieces = rules.pieces();
    let marks = pieces.iter().any(|p| p.uci_marks_first_move);
    let mut out = String::with_capacity(fen.len());
    let mut unmoved = String::new();
    let (mut rank, mut file) = (i32::from(board.ranks) - 1, 0);
    // After a `+`: the next piece has been promoted (a marked piece: has moved).
    let mut promoted = false;
    let mut in_stack = false;
    let mut chars = fields.first()?.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' => {
                rank -= 1;
                file = 0;
            }
            '+' => {
                promoted = true;
                continue;
            }
            '(' => in_stack = true,
            ')' => {
                in_stack = false;
                file += 1;
            }
            _ if c.is_ascii_digit() => {
                let mut run = c.to_digit(10)?;
                out.push(c);
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    out.push(chars.next()?);
                    run = run * 10 + d;
                }
                file += i32::try_from(run).ok()?;
                continue;
            }
            _ => {
                let upper = c.to_ascii_uppercase();
                let letter = if let Some(p) = pieces.iter().find(|p| p.uci_letter == upper) {
                    p.letter
                } else if let Some(p) = pieces.iter().find(|p| p.letter == upper) {
                    if p.uci_marks_first_move && !promoted {
                        write!(unmoved, "{}", board.name(board.square(file, rank)?)).ok()?;
                    }
                    p.letter
                } else {
                    upper
                };
                out.push(if c.is_ascii_lowercase() {
                    letter.to_ascii_lowercase()
                } else {
                    letter
                });
                promoted = false;
                file += i32::from(!in_stack);
                continue;
            }
        }
        out.push(c);
    }
    let gui_unmoved = marks && fields.get(2) == Some(&"-") && !unmoved.is_empty();
    if !gui_unmoved && out == fields[0] {
        return None;
    }
    let mut text = out;
    for (i, field) in fields.iter().enumerate().skip(1) {
        text.push(' ');
        text.push_str(if i == 2 && gui_unmoved {
            &unmoved
        } else {
            field
        });
    }
    Some(GuiFen {
        fen: text,
        marked: gui_unmoved,
    })
}
