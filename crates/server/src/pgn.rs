//! Game records as text (docs/records.md): PGN for the two-seat chess family, and libro's
//! own text records for the games PGN cannot hold — tables games one line per roll
//! (`12. 6-4-1: 24/18 13/9 6/5`), the four-seat game one line per round
//! (`3. Ne3 | d6 | - | Kf2`). Each starts with PGN-style tags (the seven tag roster, the
//! ruleset, its digest and options). Export writes the events in force; import replays the
//! moves through the rules and names the first bad one by its number and text.

use crate::clock::ClockSpec;
use crate::record::{self, Event, Played, Setup};
use libro_core::{pgn_date, GameResult, Seat, Turn};
use libro_registry::{AnyRuleset, DynGame};
use std::fmt::Write;

/// How a ruleset's games are written as text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// PGN: SAN with move numbers (two-seat chess family).
    Pgn,
    /// One line per round, each seat's move in seat order (the four-seat game).
    Rounds,
    /// One line per roll and the moves played on it (tables games).
    Turns,
}

impl Kind {
    /// The text record a ruleset's games use.
    pub fn of(rules: &AnyRuleset) -> Kind {
        if rules.dice().is_some() {
            Kind::Turns
        } else if rules.seat_names().len() == 2 {
            Kind::Pgn
        } else {
            Kind::Rounds
        }
    }
}

/// The tag a seat's player is written under: PGN's `White`/`Black`, or the seat's name
/// with a capital.
fn seat_tag(name: &str) -> String {
    let mut c = name.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A tag value with `\` and `"` escaped, on one line.
fn quote(v: &str) -> String {
    let one_line: String = v
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    one_line.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A result as PGN's Result tag writes it for two seats, or in words for more.
fn result_text(result: Option<&GameResult>, seats: &[String]) -> String {
    let Some(r) = result else {
        return "*".into();
    };
    match (seats.len(), r.winner()) {
        (2, Some(Seat(0))) => "1-0".into(),
        (2, Some(_)) => "0-1".into(),
        (2, None) => "1/2-1/2".into(),
        (_, Some(w)) => format!("{} wins", seats[w.index()]),
        (_, None) => {
            let shared: Vec<&str> = r
                .seats
                .iter()
                .enumerate()
                .filter(|(_, s)| s.score > 0.0)
                .map(|(i, _)| seats[i].as_str())
                .collect();
            format!("shared by {}", shared.join(", "))
        }
    }
}

/// The game as text: its tags, then its moves in the ruleset's [`Kind`]. `site` is the
/// game's page; `created` its Unix time.
pub fn export(
    setup: &Setup,
    rules: &AnyRuleset,
    played: &Played,
    created: i64,
    site: &str,
) -> String {
    let names = rules.seat_names();
    let kind = Kind::of(rules);
    let result = played.result();
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "libro game".into()),
        ("Site".into(), site.into()),
        ("Date".into(), pgn_date(created)),
        ("Round".into(), "-".into()),
    ];
    for (name, player) in names.iter().zip(&setup.players) {
        tags.push((seat_tag(name), player.clone()));
    }
    tags.push(("Result".into(), result_text(result.as_ref(), &names)));
    tags.push(("Variant".into(), rules.name().to_string()));
    tags.push(("LibroDigest".into(), rules.digest()));
    if !setup.options.is_empty() {
        let opts: Vec<String> = setup
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        tags.push(("LibroOptions".into(), opts.join(" ")));
    }
    if let Some(stakes) = &setup.stakes {
        let s: Vec<String> = stakes.iter().map(u32::to_string).collect();
        tags.push(("LibroStakes".into(), s.join(" ")));
    }
    if let Some(c) = &setup.clock {
        tags.push((
            "TimeControl".into(),
            format!("{}+{}", c.initial_s, c.increment_s),
        ));
    }
    let start = played.start();
    if setup.position.is_some() {
        tags.push(("SetUp".into(), "1".into()));
        tags.push(("FEN".into(), start.position()));
    }
    // A chosen ending; a flag the game went on after is in the movetext.
    let chosen = played.ended.is_some();
    if let Some(ended) = played.effective.last().filter(|_| chosen) {
        if let Some(ended) = ending(ended, &names) {
            tags.push(("LibroEnding".into(), ended));
        }
    }
    if result.is_some() {
        let flagged = chosen && matches!(played.effective.last(), Some(Event::Flag { .. }));
        let t = if flagged { "time forfeit" } else { "normal" };
        tags.push(("Termination".into(), t.into()));
    }
    let mut out = String::new();
    for (k, v) in &tags {
        let _ = writeln!(out, "[{k} \"{}\"]", quote(v));
    }
    out.push('\n');
    let body = match kind {
        Kind::Pgn => pgn_moves(start, &played.effective),
        Kind::Rounds => rounds(start, &played.effective, names.len()),
        Kind::Turns => turns(start, &played.effective),
    };
    out.push_str(&body);
    if kind == Kind::Pgn {
        out.push_str(&result_text(result.as_ref(), &names));
    }
    out.push('\n');
    out
}

/// A chosen ending as the LibroEnding tag writes it (`resign black`, `flag red`,
/// `agreement`).
fn ending(ev: &Event, names: &[String]) -> Option<String> {
    let name = |s: &u8| names.get(usize::from(*s)).cloned().unwrap_or_default();
    match ev {
        Event::Resign { seat } => Some(format!("resign {}", name(seat))),
        Event::Flag { seat } => Some(format!("flag {}", name(seat))),
        Event::Agreement => Some("agreement".into()),
        _ => None,
    }
}

/// Each move event in force with its notation for people, in order.
fn described(start: &dyn DynGame, events: &[Event]) -> Vec<(Event, String)> {
    let mut g = start.clone_box();
    let mut out = Vec::new();
    for ev in events {
        let text = match ev {
            Event::Move { text, .. } => g.describe(text).unwrap_or_else(|_| text.clone()),
            Event::Roll { roll } => roll.clone(),
            // A seat out of time in a game that went on without it.
            Event::Flag { .. } => "time".into(),
            _ => break,
        };
        if record::apply(g.as_mut(), ev).is_err() {
            break;
        }
        out.push((ev.clone(), text));
    }
    out
}

/// PGN movetext: `1. e3 e6 2. Nf3 …`, lines of at most 80 characters.
fn pgn_moves(start: &dyn DynGame, events: &[Event]) -> String {
    let black_first = start.turn() == Turn::Seat(Seat(1));
    let mut words = Vec::new();
    let mut ply = usize::from(black_first);
    for (i, (ev, san)) in described(start, events).into_iter().enumerate() {
        let Event::Move { .. } = ev else { continue };
        let number = ply / 2 + 1;
        if ply % 2 == 0 {
            words.push(format!("{number}. {san}"));
        } else if i == 0 {
            words.push(format!("{number}... {san}"));
        } else {
            words.push(san);
        }
        ply += 1;
    }
    let mut out = String::new();
    let mut line = 0;
    for w in words {
        if line > 0 && line + 1 + w.len() > 80 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        line += w.len();
        out.push_str(&w);
    }
    if !out.is_empty() {
        out.push(' ');
    }
    out
}

/// The four-seat game: one line per round, each seat's move in seat order (`-` for a seat
/// that did not move in it, `time` for one that ran out of time and left).
fn rounds(start: &dyn DynGame, events: &[Event], seats: usize) -> String {
    let mut out = String::new();
    let mut row: Vec<String> = Vec::new();
    let mut number = 0;
    let flush = |row: &mut Vec<String>, out: &mut String, number: &mut usize| {
        if !row.is_empty() {
            *number += 1;
            row.resize(seats, "-".into());
            let _ = writeln!(out, "{number}. {}", row.join(" | "));
            row.clear();
        }
    };
    for (ev, san) in described(start, events) {
        let (Event::Move { seat, .. } | Event::Flag { seat }) = ev else {
            continue;
        };
        let s = usize::from(seat);
        if s < row.len() {
            flush(&mut row, &mut out, &mut number);
        }
        row.resize(s, "-".into());
        row.push(san);
    }
    flush(&mut row, &mut out, &mut number);
    out
}

/// Tables games: one line per roll, with the moves played on it (`12. 6-4-1: 24/18 13/9`).
fn turns(start: &dyn DynGame, events: &[Event]) -> String {
    let mut out = String::new();
    let mut number = 0;
    let mut line = String::new();
    let mut moves: Vec<String> = Vec::new();
    let flush = |line: &mut String, moves: &mut Vec<String>, out: &mut String| {
        if !line.is_empty() || !moves.is_empty() {
            if moves.is_empty() {
                let _ = writeln!(out, "{line}");
            } else {
                let _ = writeln!(out, "{line}: {}", moves.join(" ; "));
            }
            line.clear();
            moves.clear();
        }
    };
    for (ev, text) in described(start, events) {
        match ev {
            Event::Roll { .. } => {
                flush(&mut line, &mut moves, &mut out);
                number += 1;
                line = format!("{number}. {text}");
            }
            _ => {
                if line.is_empty() {
                    number += 1;
                    line = format!("{number}. -");
                }
                moves.push(text);
            }
        }
    }
    flush(&mut line, &mut moves, &mut out);
    out
}

/// Reads the tags (`[Name "value"]`) at the head of a record; returns them and the rest.
fn read_tags(text: &str) -> Result<(Vec<(String, String)>, String), String> {
    let mut tags = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.peek().copied() {
        let t = line.trim();
        if t.is_empty() {
            lines.next();
            continue;
        }
        if !t.starts_with('[') {
            break;
        }
        lines.next();
        let bad = || {
            format!(
                "line {}: `{}` is not a tag `[Name \"value\"]`",
                n + 1,
                clip(t)
            )
        };
        let inner = t
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .ok_or_else(bad)?;
        let (name, value) = inner
            .trim()
            .split_once(char::is_whitespace)
            .ok_or_else(bad)?;
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .ok_or_else(bad)?;
        let mut v = String::new();
        let mut chars = value.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                v.extend(chars.next());
            } else {
                v.push(c);
            }
        }
        tags.push((name.to_string(), v));
    }
    let rest: Vec<&str> = lines.map(|(_, l)| l).collect();
    Ok((tags, rest.join("\n")))
}

/// At most 40 characters of a text, for error messages.
fn clip(t: &str) -> String {
    let c: String = t.chars().take(40).collect();
    if c.len() < t.len() {
        format!("{c}…")
    } else {
        c
    }
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Reads a text record (PGN or libro's own) into the setup and events it describes, each
/// event checked through the rules: an error names the move by its number and text.
pub fn import(text: &str) -> Result<(Setup, Vec<Event>), String> {
    let (tags, body) = read_tags(text)?;
    let ruleset = tag(&tags, "Variant")
        .ok_or("the record names no ruleset: it needs a tag such as [Variant \"acedrex\"]")?
        .trim()
        .to_string();
    let options: Vec<(String, String)> = match tag(&tags, "LibroOptions") {
        Some(o) => o
            .split_whitespace()
            .map(|kv| {
                kv.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .ok_or_else(|| format!("LibroOptions: `{}` is not KEY=VALUE", clip(kv)))
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let rules = libro_registry::load(&ruleset, &options)
        .map_err(|e| format!("Variant `{}`: {e}", clip(&ruleset)))?;
    if let Some(digest) = tag(&tags, "LibroDigest") {
        if digest != rules.digest() {
            return Err(format!(
                "the record was played under other rules (digest {}) than this server's `{ruleset}` with these options (digest {})",
                clip(digest),
                rules.digest()
            ));
        }
    }
    let names = rules.seat_names();
    let players = names
        .iter()
        .map(|n| match tag(&tags, &seat_tag(n)) {
            Some(p) if record::check_player(0, p).is_ok() => p.to_string(),
            _ => "human".to_string(),
        })
        .collect();
    let stakes = match tag(&tags, "LibroStakes") {
        Some(s) => Some(
            s.split_whitespace()
                .map(|v| {
                    v.parse::<u32>()
                        .map_err(|_| format!("LibroStakes: `{}` is not a whole number", clip(v)))
                })
                .collect::<Result<Vec<u32>, String>>()?,
        ),
        None => None,
    };
    let position = match tag(&tags, "FEN") {
        Some(f) if tag(&tags, "SetUp") != Some("0") => Some(f.to_string()),
        _ => None,
    };
    let clock = match tag(&tags, "TimeControl") {
        Some(tc) => time_control(tc)?,
        None => None,
    };
    let setup = Setup {
        ruleset,
        options,
        seed: rand::random(),
        stakes,
        players,
        clock,
        position,
    };
    let (_, game) = record::start(&setup).map_err(|e| e.to_string())?;
    let mut played = Played::new(game);
    match Kind::of(&rules) {
        Kind::Pgn => read_pgn(&body, &mut played, &names)?,
        Kind::Rounds => read_rounds(&body, &mut played, &names)?,
        Kind::Turns => read_turns(&body, &mut played, &names)?,
    }
    finish(&tags, &mut played, &names)?;
    Ok((setup, played.effective))
}

/// Reads a `TimeControl` tag as libro writes it (`SECONDS+INCREMENT`, or `SECONDS`): the
/// game's clock; `-` (none) and `?` (unknown) give none. Other PGN forms (moves per period,
/// sandglass) are refused by name: libro's clocks are one period with an increment.
fn time_control(text: &str) -> Result<Option<ClockSpec>, String> {
    let text = text.trim();
    if text == "-" || text == "?" || text.is_empty() {
        return Ok(None);
    }
    let (initial, increment) = text.split_once('+').unwrap_or((text, "0"));
    let number = |v: &str| v.trim().parse::<u32>().ok();
    let spec = match (number(initial), number(increment)) {
        (Some(initial_s), Some(increment_s)) => ClockSpec {
            initial_s,
            increment_s,
        },
        _ => {
            return Err(format!(
                "TimeControl `{}` is not SECONDS+INCREMENT (libro's clocks are one period with an increment, as it writes them: `300+3`)",
                clip(text)
            ))
        }
    };
    spec.check()
        .map_err(|e| format!("TimeControl `{}`: {e}", clip(text)))?;
    Ok(Some(spec))
}

/// Plays one move for the seat to move; an error names the move.
fn play_move(played: &mut Played, san: &str, what: impl Fn() -> String) -> Result<(), String> {
    let seat = match played.turn() {
        Turn::Seat(s) => s,
        Turn::Over => return Err(format!("{}: the game is already over", what())),
        Turn::Chance => return Err(format!("{}: a roll is due, not a move", what())),
    };
    let ev = Event::Move {
        seat: seat.0,
        text: san.to_string(),
        at: None,
    };
    played
        .apply(&ev)
        .map(|_| ())
        .map_err(|e| format!("{}: {e}", what()))
}

/// PGN movetext: comments, variations, NAGs and move numbers are skipped; each SAN is
/// played for the seat to move.
fn read_pgn(body: &str, played: &mut Played, names: &[String]) -> Result<(), String> {
    let mut clean = String::with_capacity(body.len());
    let (mut brace, mut paren, mut semi) = (false, 0usize, false);
    for c in body.chars() {
        match c {
            '\n' if semi => semi = false,
            _ if semi => {}
            '{' if !brace => brace = true,
            '}' if brace => brace = false,
            _ if brace => {}
            '(' => paren += 1,
            ')' if paren > 0 => paren -= 1,
            _ if paren > 0 => {}
            ';' => semi = true,
            c => clean.push(c),
        }
    }
    let black_first = played.turn() == Turn::Seat(Seat(1));
    let mut ply = usize::from(black_first);
    for word in clean.split_whitespace() {
        if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
            break;
        }
        if word.starts_with('$') {
            continue;
        }
        let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let san = san.trim_end_matches(['+', '#', '!', '?']);
        if san.is_empty() {
            continue;
        }
        let seat = ply % 2;
        let what = || {
            let dots = if seat == 0 { "." } else { "..." };
            format!(
                "move {}{dots} {} ({})",
                ply / 2 + 1,
                clip(word),
                names.get(seat).map_or("", String::as_str)
            )
        };
        play_move(played, san, what)?;
        ply += 1;
    }
    Ok(())
}

/// The numbered lines of a libro text record: (line number in the body, round or turn
/// number, the rest).
fn numbered(body: &str) -> Result<Vec<(usize, String, String)>, String> {
    let mut out = Vec::new();
    for (n, line) in body.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        let Some((number, rest)) = t.split_once(". ") else {
            return Err(format!(
                "line `{}`: expected a number, a full stop and a space (`12. …`)",
                clip(t)
            ));
        };
        if number.parse::<u32>().is_err() {
            return Err(format!(
                "line `{}`: `{}` is not a number",
                clip(t),
                clip(number)
            ));
        }
        out.push((n, number.to_string(), rest.trim().to_string()));
    }
    Ok(out)
}

/// The four-seat game's rounds: each seat's move in seat order, `-` for none.
fn read_rounds(body: &str, played: &mut Played, names: &[String]) -> Result<(), String> {
    for (_, number, rest) in numbered(body)? {
        let cells: Vec<&str> = rest.split('|').map(str::trim).collect();
        if cells.len() > names.len() {
            return Err(format!(
                "round {number}: {} moves for {} seats",
                cells.len(),
                names.len()
            ));
        }
        for (i, cell) in cells.iter().enumerate() {
            if *cell == "-" || cell.is_empty() {
                continue;
            }
            if *cell == "time" {
                let flag = Event::Flag { seat: i as u8 };
                played
                    .apply(&flag)
                    .map_err(|e| format!("round {number}, {} out of time: {e}", names[i]))?;
                continue;
            }
            let what = || format!("round {number}, {} `{}`", names[i], clip(cell));
            if played.turn() != Turn::Seat(Seat(i as u8)) {
                let to_move = match played.turn() {
                    Turn::Seat(s) => format!("{} is to move", names[s.index()]),
                    _ => "no seat is to move".into(),
                };
                return Err(format!("{}: {to_move}", what()));
            }
            play_move(played, cell, what)?;
        }
    }
    Ok(())
}

/// Tables games: each line a roll (or `-`) and the moves played on it, `;` between them.
fn read_turns(body: &str, played: &mut Played, names: &[String]) -> Result<(), String> {
    for (_, number, rest) in numbered(body)? {
        let (roll, moves) = match rest.split_once(": ") {
            Some((r, m)) => (r.trim(), m.trim()),
            None => (rest.trim_end_matches(':').trim(), ""),
        };
        if roll != "-" {
            let ev = Event::Roll {
                roll: roll.to_string(),
            };
            played
                .apply(&ev)
                .map_err(|e| format!("turn {number}: roll `{}`: {e}", clip(roll)))?;
        }
        for mv in moves.split(';').map(str::trim).filter(|m| !m.is_empty()) {
            let who = match played.turn() {
                Turn::Seat(s) => names[s.index()].clone(),
                _ => String::new(),
            };
            play_move(played, mv, || {
                format!("turn {number}: {who} `{}`", clip(mv))
            })?;
        }
    }
    Ok(())
}

/// The record's ending: its LibroEnding tag (a resignation, a flag, an agreement) or, for
/// a PGN of two seats that stops before the rules end the game, its Result and Termination;
/// then a Result that disagrees with the moves is refused.
fn finish(tags: &[(String, String)], played: &mut Played, names: &[String]) -> Result<(), String> {
    let seat_named = |n: &str| {
        names
            .iter()
            .position(|x| x == n)
            .map(|i| i as u8)
            .ok_or_else(|| format!("LibroEnding: `{}` is not a seat", clip(n)))
    };
    let result = tag(tags, "Result").unwrap_or("*").trim();
    let ending = match tag(tags, "LibroEnding").map(str::trim) {
        Some("agreement") => Some(Event::Agreement),
        Some(e) => match e.split_once(' ') {
            Some(("resign", s)) => Some(Event::Resign {
                seat: seat_named(s)?,
            }),
            Some(("flag", s)) => Some(Event::Flag {
                seat: seat_named(s)?,
            }),
            _ => {
                return Err(format!(
                    "LibroEnding: `{}` is not `resign SEAT`, `flag SEAT` or `agreement`",
                    clip(e)
                ))
            }
        },
        None if names.len() == 2 && played.turn() != Turn::Over => {
            let loser = match result {
                "1-0" => Some(1),
                "0-1" => Some(0),
                _ => None,
            };
            let time =
                tag(tags, "Termination").is_some_and(|t| t.eq_ignore_ascii_case("time forfeit"));
            match (result, loser) {
                ("1/2-1/2", _) => Some(Event::Agreement),
                (_, Some(l)) if time && played.turn() == Turn::Seat(Seat(l)) => {
                    Some(Event::Flag { seat: l })
                }
                (_, Some(l)) => Some(Event::Resign { seat: l }),
                _ => None,
            }
        }
        None => None,
    };
    if let Some(ev) = ending {
        played
            .apply(&ev)
            .map_err(|e| format!("the ending ({}): {e}", ending_name(&ev)))?;
    }
    let ours = result_text(played.result().as_ref(), names);
    if result != "*" && result != ours {
        return Err(format!(
            "the record's Result is `{}` but its moves end `{ours}`",
            clip(result)
        ));
    }
    Ok(())
}

fn ending_name(ev: &Event) -> &'static str {
    match ev {
        Event::Resign { .. } => "a resignation",
        Event::Flag { .. } => "a flag",
        _ => "an agreement",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_pgn_does() {
        assert_eq!(pgn_date(0), "1970.01.01");
        // `date -u -d @1795564800 +%Y.%m.%d`
        assert_eq!(pgn_date(1_795_564_800), "2026.11.25");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
    }

    #[test]
    fn time_control_reads_what_export_writes_and_names_other_forms() {
        let spec = |i, n| {
            Some(ClockSpec {
                initial_s: i,
                increment_s: n,
            })
        };
        assert_eq!(time_control("300+3"), Ok(spec(300, 3)));
        assert_eq!(time_control("600"), Ok(spec(600, 0)));
        assert_eq!(time_control("-"), Ok(None));
        assert_eq!(time_control("?"), Ok(None));
        let e = time_control("40/7200:3600").unwrap_err();
        assert!(e.contains("`40/7200:3600` is not SECONDS+INCREMENT"), "{e}");
        let e = time_control("*180").unwrap_err();
        assert!(e.contains("`*180`"), "{e}");
        // The clock's own bounds: 3 hours at most, at least a second.
        let e = time_control("10801+0").unwrap_err();
        assert!(e.contains("initial_s must be from 1 to 10800"), "{e}");
        let e = time_control("0+5").unwrap_err();
        assert!(e.contains("initial_s"), "{e}");
    }

    #[test]
    fn tags_read_back_with_escapes_and_a_bad_tag_is_named() {
        let (tags, rest) =
            read_tags("[White \"a \\\"b\\\" c\"]\n[Variant \"x\"]\n\n1. e3 *").unwrap();
        assert_eq!(tags[0], ("White".to_string(), "a \"b\" c".to_string()));
        assert_eq!(rest.trim(), "1. e3 *");
        let e = read_tags("[White nope]\n").unwrap_err();
        assert!(e.contains("line 1") && e.contains("[White nope]"), "{e}");
    }
}
