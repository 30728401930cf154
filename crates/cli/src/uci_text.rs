//! What `libro uci` reads and writes: the `setoption`, `position` and `go` lines, FENs and
//! moves in the GUI's letters. No I/O and no search: the engine loop is in `commands::uci`.

use anyhow::Context;
use libro_ai::{Clock, Limits};
use libro_chess::{notation, ChessGame, ChessRules, Move};
use libro_core::{Game, Ruleset};
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
pub fn read_position(rules: &Arc<ChessRules>, words: &[&str]) -> anyhow::Result<ChessGame> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let mut game = match setup {
        ["startpos"] => rules.new_game(0),
        ["fen", fen @ ..] if !fen.is_empty() => read_fen(rules, &fen.join(" "))?,
        _ => anyhow::bail!("expected `position startpos|fen FEN [moves ...]`"),
    };
    for (i, text) in moves.iter().enumerate() {
        if game.is_repetition() {
            game.forget_repetitions();
        }
        let mv = read_move(&game, text).with_context(|| format!("move {} `{text}`", i + 1))?;
        game.play(mv);
    }
    if game.is_repetition() {
        game.forget_repetitions();
    }
    Ok(game)
}

/// Reads `go`'s words after the command: the limits, the clock of the side to move in
/// `game`, and whether the search is infinite (then `bestmove` waits for `stop`).
pub fn go_limits(
    game: &ChessGame,
    words: &[&str],
) -> anyhow::Result<(Limits, Option<Clock>, bool)> {
    let mut limits = Limits::default();
    let mut infinite = false;
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, 0, 0, None);
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if matches!(key, "infinite" | "ponder") {
            infinite = true;
            i += 1;
            continue;
        }
        let value = words
            .get(i + 1)
            .with_context(|| format!("`go {key}` needs a value"))?;
        let n: u64 = value
            .parse()
            .with_context(|| format!("`go {key} {value}`: not a whole number"))?;
        match key {
            "depth" => limits.depth = Some(n as u32),
            "nodes" => limits.nodes = Some(n),
            "movetime" => limits.movetime = Some(Duration::from_millis(n)),
            "wtime" => wtime = Some(n),
            "btime" => btime = Some(n),
            "winc" => winc = n,
            "binc" => binc = n,
            "movestogo" => movestogo = Some(n as u32),
            other => anyhow::bail!("unknown `go` parameter `{other}`"),
        }
        i += 2;
    }
    let white = game.seat_to_move().is_none_or(|s| s.0 == 0);
    let (time, inc) = if white { (wtime, winc) } else { (btime, binc) };
    let clock = time.map(|t| Clock {
        remaining: Duration::from_millis(t),
        increment: Duration::from_millis(inc),
        moves_to_go: movestogo,
    });
    Ok((limits, clock, infinite))
}

/// Reads a FEN in libro's piece letters or, failing that, in the GUI's (`uci_letter`).
pub fn read_fen(rules: &Arc<ChessRules>, fen: &str) -> anyhow::Result<ChessGame> {
    let first_try = match rules.parse_position(fen) {
        Ok(game) => return Ok(game),
        Err(e) => e,
    };
    let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let translated: String = board
        .chars()
        .map(|c| {
            let piece = rules
                .pieces()
                .iter()
                .find(|p| p.uci_letter == c.to_ascii_uppercase());
            match piece {
                Some(p) if c.is_ascii_lowercase() => p.letter.to_ascii_lowercase(),
                Some(p) => p.letter,
                None => c,
            }
        })
        .collect();
    if translated == board {
        return Err(first_try.into());
    }
    rules
        .parse_position(&format!("{translated} {rest}"))
        .map_err(|_| first_try.into())
}

/// Reads a move in libro's notation or as GUIs write a promotion (`c7c8q`, the promoted
/// piece's `uci_letter`).
pub fn read_move(game: &ChessGame, text: &str) -> anyhow::Result<Move> {
    let error = match game.parse_move(text) {
        Ok(mv) => return Ok(mv),
        Err(e) => e,
    };
    let suffix = text.chars().last().filter(|c| c.is_ascii_alphabetic());
    let squares = suffix.map(|c| &text[..text.len() - c.len_utf8()]);
    if let (Some(letter), Some(Ok(mv))) = (suffix, squares.map(|t| game.parse_move(t))) {
        let rules = game.rules();
        if let Some(p) = notation::promotion(rules, game.position(), mv) {
            if rules.pieces()[p as usize].uci_letter == letter.to_ascii_uppercase() {
                return Ok(mv);
            }
        }
    }
    Err(error.into())
}

/// Writes a move as GUIs read it: libro's coordinates, with the promoted piece's
/// `uci_letter` in lower case after a promotion (`c7c8q`), and a `+` after the first move of
/// a piece whose ruleset says `uci_marks_first_move` (the acedrex fers: `d1d3+`).
pub fn write_move(game: &ChessGame, mv: Move) -> String {
    let mut text = game.move_text(mv);
    let rules = game.rules();
    if let Some(p) = notation::promotion(rules, game.position(), mv) {
        text.push(rules.pieces()[p as usize].uci_letter.to_ascii_lowercase());
    } else if mv.is_board_move()
        && rules.pieces()[mv.piece() as usize].uci_marks_first_move
        && game.position().is_unmoved(mv.from())
    {
        text.push('+');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(name: &str) -> ChessGame {
        match libro_catalog::load(name, &[]).unwrap() {
            libro_catalog::AnyRuleset::Chess(rules) => rules.new_game(0),
            _ => panic!("{name} is a chess ruleset"),
        }
    }

    #[test]
    fn the_acedrex_fers_first_move_is_written_as_fairy_stockfish_writes_it() {
        // Fairy-Stockfish's acedrex (shared anchors' variants.ini) models the unmoved fers
        // as a piece that promotes when it first moves: `d1d3+` for the leap, `d1e2+` for
        // a step. Other first moves and later fers moves carry no mark.
        let mut game = start("acedrex");
        for (text, written) in [("e2e3", "e2e3"), ("e7e6", "e7e6"), ("d1d3", "d1d3+")] {
            let mv = read_move(&game, text).unwrap();
            assert_eq!(write_move(&game, mv), written);
            game.play(mv);
        }
        let mv = read_move(&game, "d8e7+").unwrap();
        assert_eq!(write_move(&game, mv), "d8e7+");
        game.play(mv);
        let mv = read_move(&game, "d3e4").unwrap();
        assert_eq!(write_move(&game, mv), "d3e4", "the fers has moved");
        // Shatranj's fers has no first-move right and no mark.
        let mut shatranj = start("shatranj");
        for text in ["d2d3", "d7d6", "e1d2"] {
            let mv = read_move(&shatranj, text).unwrap_or_else(|e| panic!("{e:#}"));
            assert_eq!(write_move(&shatranj, mv), text);
            shatranj.play(mv);
        }
    }
}
