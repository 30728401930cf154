//! What `libro uci` reads and writes: the `setoption`, `position` and `go` lines, FENs and
//! moves in the GUI's letters (through the registry's [`UciGame`]). No I/O and no search:
//! the engine loop is in `commands::uci`.

use anyhow::Context;
use libro_ai::{Clock, Limits};
use libro_core::{Game, Ruleset};
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

/// Reads `go`'s words after the command: the limits, the clock of the side to move in
/// `game`, and whether the search is infinite (then `bestmove` waits for `stop`).
pub fn go_limits<G: Game>(
    game: &G,
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
