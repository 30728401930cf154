//! What `libro uci` reads and writes: the `setoption`, `position` and `go` lines, FENs and
//! moves in the GUI's letters (through the registry's [`UciGame`]). No I/O and no search:
//! the engine loop is in `commands::uci`.

use anyhow::Context;
use libro_ai::{Clock, Limits};
use libro_core::Ruleset;
use libro_registry::UciGame;
use std::sync::Arc;
use std::time::Duration;

/// Reads `setoption`'s words after the command: `name NAME [value VALUE]`, as (name, value).
pub fn option_words(words: &[&str]) -> anyhow::Result<(String, String)> {
    let text = words.join(" ");
    let text = text
        .strip_prefix("name ")
        .context("expected `setoption name NAME [value VALUE]`")?;
    let (name, value) = match text.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (text.trim(), ""),
    };
    Ok((name.to_string(), value.to_string()))
}

/// Reads `position`'s words after the command: `startpos|fen FEN [moves ...]`.
pub fn read_position<G: UciGame>(rules: &Arc<G::Rules>, words: &[&str]) -> anyhow::Result<G> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut game = match setup {
        ["startpos"] => rules.new_game(0),
        ["fen", fen @ ..] if !fen.is_empty() => {
            G::from_fen(rules, &fen.join(" ")).map_err(anyhow::Error::msg)?
        }
        _ => anyhow::bail!("expected `position startpos|fen FEN [moves ...]`"),
    };
    for (i, text) in moves.iter().enumerate() {
        if game.is_refereed_draw() {
            game.play_on();
        }
        let mv = game
            .read_uci_move(text)
            .map_err(anyhow::Error::msg)
            .with_context(|| format!("move {} `{text}`", i + 1))?;
        game.play(mv);
    }
    if game.is_refereed_draw() {
        game.play_on();
    }
    Ok(game)
}

/// What a `go` line asks for.
#[derive(Debug)]
pub struct Go<M> {
    pub limits: Limits,
    /// The clock of the side to move, if `wtime`/`btime` gave one.
    pub clock: Option<Clock>,
    /// `infinite` or `ponder`: `bestmove` waits for `stop`.
    pub infinite: bool,
    /// `searchmoves`: the search chooses only among these (empty: every legal move).
    pub among: Vec<M>,
    /// `perft N`: count the move tree's leaves N plies deep instead of searching.
    pub perft: Option<u32>,
    /// What was skipped and why (unknown words, unplayable `searchmoves`), for `info string`.
    pub skipped: Vec<String>,
}

/// The words that start a `go` parameter.
const GO_WORDS: [&str; 13] = [
    "searchmoves",
    "perft",
    "ponder",
    "infinite",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

/// Reads `go`'s words after the command for `game`. Times may be negative, as GUIs send a
/// clock that has run over a margin they allow: they count as nothing left. Unknown words
/// and `searchmoves` that are not legal moves here are skipped and listed in
/// [`Go::skipped`]; a value that is not a number is an error.
pub fn read_go<G: UciGame>(game: &G, words: &[&str]) -> anyhow::Result<Go<G::Move>> {
    let mut go = Go {
        limits: Limits::default(),
        clock: None,
        infinite: false,
        among: Vec::new(),
        perft: None,
        skipped: Vec::new(),
    };
    let mut among_given = false;
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) =
        (None, None, Duration::ZERO, Duration::ZERO, None);
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        i += 1;
        match key {
            "infinite" | "ponder" => go.infinite = true,
            "searchmoves" => {
                let start = i;
                while let Some(text) = words.get(i).filter(|w| !GO_WORDS.contains(w)) {
                    match game.read_uci_move(text) {
                        Ok(mv) => go.among.push(mv),
                        Err(e) => go.skipped.push(format!("searchmoves `{text}`: {e}")),
                    }
                    i += 1;
                }
                if i == start {
                    // As Stockfish reads it: an empty list restricts nothing.
                    go.skipped.push(
                        "`searchmoves` names no move: every legal move is searched".to_string(),
                    );
                }
                among_given |= i > start;
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                let ms = Duration::from_millis(milliseconds(key, words.get(i))?);
                i += 1;
                match key {
                    "wtime" => wtime = Some(ms),
                    "btime" => btime = Some(ms),
                    "winc" => winc = ms,
                    "binc" => binc = ms,
                    _ => go.limits.movetime = Some(ms),
                }
            }
            "depth" | "nodes" | "movestogo" | "mate" | "perft" => {
                let n = count(key, words.get(i))?;
                i += 1;
                let small = u32::try_from(n).unwrap_or(u32::MAX);
                match key {
                    "depth" => go.limits.depth = Some(small),
                    "nodes" => go.limits.nodes = Some(n),
                    "movestogo" => movestogo = Some(small),
                    "perft" => go.perft = Some(small),
                    _ => go.limits.mate = Some(small),
                }
            }
            other => go
                .skipped
                .push(format!("unknown `go` parameter `{other}` ignored")),
        }
    }
    if among_given && go.among.is_empty() {
        anyhow::bail!("`go searchmoves` names no legal move of this position");
    }
    let white = game.seat_to_move().is_none_or(|s| s.0 == 0);
    let (time, inc) = if white { (wtime, winc) } else { (btime, binc) };
    // A clock given for the other side only leaves the mover none (as Stockfish reads it),
    // rather than a search without end that the GUI would wait on.
    if time.is_none() && (wtime.is_some() || btime.is_some()) {
        let missing = if white { "wtime" } else { "btime" };
        go.skipped
            .push(format!("no `{missing}` for the side to move: no time left"));
    }
    go.clock = (wtime.is_some() || btime.is_some()).then(|| Clock {
        remaining: time.unwrap_or(Duration::ZERO),
        increment: inc,
        moves_to_go: movestogo,
    });
    Ok(go)
}

/// A time in milliseconds: negative is nothing left, past `u64` the most there is.
fn milliseconds(key: &str, value: Option<&&str>) -> anyhow::Result<u64> {
    let value = value.with_context(|| format!("`go {key}` needs a value"))?;
    match value.parse::<i128>() {
        Ok(n) => Ok(n.clamp(0, i128::from(u64::MAX)) as u64),
        Err(_) => anyhow::bail!("`go {key} {value}`: not a whole number of milliseconds"),
    }
}

/// A depth, node or move count: a whole number, at least 0 (past `u64`, the most there is).
fn count(key: &str, value: Option<&&str>) -> anyhow::Result<u64> {
    let value = value.with_context(|| format!("`go {key}` needs a value"))?;
    match value.parse::<i128>() {
        Ok(n) if n >= 0 => Ok(n.min(i128::from(u64::MAX)) as u64),
        Ok(_) => anyhow::bail!("`go {key} {value}`: must not be negative"),
        Err(_) => anyhow::bail!("`go {key} {value}`: not a whole number"),
    }
}
