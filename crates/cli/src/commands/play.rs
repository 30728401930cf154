//! `libro play RULESET`: a whole game in the terminal, against the computer or between
//! people at one keyboard: a board drawn in colour, moves typed in coordinate or SAN
//! notation (tables notation for Fallas), dice, targets and stakes, and the result and why.

use super::RuleOptions;
use anyhow::{bail, Context};
use libro_ai::{Control, Player, PlayerSpec};
use libro_catalog::AnyRuleset;
use libro_chess::ChessGame;
use libro_core::{Game, Heuristic, MoveBuffer, Ruleset, Seat, Turn};
use libro_tables::TablesGame;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// Ruleset name or file.
    ruleset: String,
    /// Who sits where: `--seat white=human --seat black=ai:5` (players: human, random,
    /// greedy, ai:1..ai:8, ai:movetime=MS, ai:nodes=N). Unnamed seats: the first is human,
    /// the others ai:5.
    #[arg(long = "seat", value_name = "SEAT=PLAYER")]
    seats: Vec<String>,
    /// Seeds the game's dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Four-player stakes, one per seat in seat order, e.g. `--stakes 1,2,1,1`.
    #[arg(long, value_delimiter = ',')]
    stakes: Vec<u32>,
    /// Draw without colours (also when NO_COLOR is set).
    #[arg(long)]
    no_color: bool,
    #[command(flatten)]
    rules: RuleOptions,
}

/// Who makes a seat's moves.
enum Sitter<G: Heuristic> {
    Human,
    Computer(Box<Player<G>>),
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let color = !args.no_color && std::env::var_os("NO_COLOR").is_none();
    match args.rules.load(&args.ruleset)? {
        AnyRuleset::Chess(rules) => {
            let game = if args.stakes.is_empty() {
                rules.new_game(args.seed)
            } else {
                if args.stakes.len() != rules.seats().len() || args.stakes.contains(&0) {
                    bail!(
                        "--stakes needs one positive whole number per seat ({} seats)",
                        rules.seats().len()
                    );
                }
                ChessGame::with_stakes(&rules, &args.stakes)
            };
            play(&rules, game, &args.seats, color)
        }
        AnyRuleset::Tables(rules) => {
            if !args.stakes.is_empty() {
                bail!("--stakes is for the four-player chess game");
            }
            let game = rules.new_game(args.seed);
            play(&rules, game, &args.seats, color)
        }
    }
}

/// Draws a game's position for the terminal.
pub trait Draw: Game {
    /// The board and everything a player needs to see before moving.
    fn draw(&self, color: bool) -> String;
    /// A move in the notation people read (SAN for chess).
    fn describe(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }
}

fn play<R: Ruleset>(
    rules: &Arc<R>,
    mut game: R::Game,
    seat_args: &[String],
    color: bool,
) -> anyhow::Result<ExitCode>
where
    R::Game: Heuristic + Draw,
{
    let names = rules.seat_names();
    let mut sitters: Vec<Sitter<R::Game>> = (0..names.len())
        .map(|i| {
            if i == 0 {
                Sitter::Human
            } else {
                Sitter::Computer(Box::new(Player::new("ai:5".parse().expect("a valid spec"))))
            }
        })
        .collect();
    for arg in seat_args {
        let (seat, who) = arg
            .split_once('=')
            .with_context(|| format!("--seat `{arg}` is not SEAT=PLAYER"))?;
        let i = names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(seat))
            .with_context(|| format!("no seat `{seat}`: the seats are {}", names.join(", ")))?;
        sitters[i] = if who == "human" {
            Sitter::Human
        } else {
            let spec: PlayerSpec = who.parse().with_context(|| format!("--seat {arg}"))?;
            Sitter::Computer(Box::new(Player::new(spec)))
        };
    }
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut last: Option<String> = None;
    loop {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                let roll = game.sample_chance();
                game.apply_chance(roll);
                println!(
                    "{} rolled: {roll}",
                    match game.turn() {
                        Turn::Seat(s) => names[s.index()].clone(),
                        _ => "chance".to_string(),
                    }
                );
            }
            Turn::Seat(seat) => {
                println!("\n{}", game.draw(color));
                if let Some(m) = &last {
                    println!("last move: {m}");
                }
                let mv = match &mut sitters[seat.index()] {
                    Sitter::Computer(player) => {
                        let choice = player
                            .choose(&game, &Control::default())
                            .map_err(|e| anyhow::anyhow!("{e}"))?;
                        println!("{} plays {}", names[seat.index()], game.describe(choice.mv));
                        choice.mv
                    }
                    Sitter::Human => match ask(&game, seat, &names, &mut input)? {
                        Some(mv) => mv,
                        None => {
                            println!("{} leaves the game.", names[seat.index()]);
                            return Ok(ExitCode::SUCCESS);
                        }
                    },
                };
                last = Some(format!("{} {}", names[seat.index()], game.describe(mv)));
                game.play(mv);
            }
        }
    }
    println!("\n{}", game.draw(color));
    let result = game
        .result()
        .context("the game is over but has no result")?;
    println!("Game over: {}.", result.reason);
    match result.winner() {
        Some(w) => println!("{} wins.", names[w.index()]),
        None => println!("No single winner."),
    }
    for (i, s) in result.seats.iter().enumerate() {
        println!("  {:8} place {}  score {}", names[i], s.rank, s.score);
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks the human at `seat` for a move until one is legal; `None` if they quit.
fn ask<G: Game>(
    game: &G,
    seat: Seat,
    names: &[String],
    input: &mut impl Iterator<Item = std::io::Result<String>>,
) -> anyhow::Result<Option<G::Move>> {
    loop {
        print!(
            "{} to move (`moves` lists them, `quit` leaves): ",
            names[seat.index()]
        );
        std::io::stdout().flush()?;
        let Some(line) = input.next() else {
            return Ok(None);
        };
        let line = line?;
        let text = line.trim();
        match text {
            "" => continue,
            "quit" | "exit" | "resign" => return Ok(None),
            "moves" | "help" | "?" => {
                let mut moves = G::MoveList::default();
                game.legal_moves(&mut moves);
                let list: Vec<String> = moves
                    .as_slice()
                    .iter()
                    .map(|&m| game.move_text(m))
                    .collect();
                println!("{} legal: {}", list.len(), list.join("  "));
            }
            _ => match game.parse_move(text) {
                Ok(mv) => return Ok(Some(mv)),
                Err(e) => println!("Not a legal move: {e}"),
            },
        }
    }
}

/// ANSI colours: a seat's piece colour and the two square shades.
fn paint(color: bool, code: &str, text: &str) -> String {
    if color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

impl Draw for ChessGame {
    fn draw(&self, color: bool) -> String {
        let rules = self.rules();
        let pos = self.position();
        let board = rules.board();
        let seats = rules.seats();
        // Piece colours per seat: two seats white and black; four seats as the Libro names them.
        let seat_fg = |s: u8| -> &'static str {
            match seats[usize::from(s)].name.as_str() {
                "white" => "1;97",
                "black" => "1;30",
                "green" => "1;32",
                "red" => "1;31",
                _ => "1;34",
            }
        };
        let mut out = String::new();
        for rank in (0..i32::from(board.ranks)).rev() {
            let _ = write!(out, "{:>2} ", rank + 1);
            for file in 0..i32::from(board.files) {
                let sq = board.square(file, rank).expect("on the board");
                let bg = if (file + rank) % 2 == 0 {
                    "48;5;137"
                } else {
                    "48;5;180"
                };
                let cell = match pos.seat_at(rules, sq) {
                    None => "   ".to_string(),
                    Some(s) => {
                        let types = pos.types_at(rules, sq);
                        let mut letters: String = (0..8u8)
                            .filter(|t| types & (1 << t) != 0)
                            .map(|t| rules.pieces()[usize::from(t)].letter)
                            .collect();
                        if seats.len() == 2 && s == 1 {
                            letters = letters.to_lowercase();
                        }
                        let text = format!("{letters:^3}");
                        if color {
                            format!("\x1b[{};{bg}m{text}", seat_fg(s))
                        } else {
                            text
                        }
                    }
                };
                if color && pos.seat_at(rules, sq).is_none() {
                    let _ = write!(out, "\x1b[{bg}m{cell}");
                } else {
                    out.push_str(&cell);
                }
            }
            if color {
                out.push_str("\x1b[0m");
            }
            out.push('\n');
        }
        out.push_str("   ");
        for file in 0..board.files {
            let _ = write!(out, " {} ", char::from(b'a' + file));
        }
        out.push('\n');
        if let Some(Seat(s)) = self.seat_to_move() {
            let name = &seats[usize::from(s)].name;
            let _ = write!(out, "{} to move", paint(color, seat_fg(s), name));
            if pos.in_check(rules, s) {
                out.push_str(" — in check");
            }
            out.push('\n');
        }
        if seats.len() > 2 {
            let stakes = self.stakes();
            let paid = self.paid();
            for (i, seat) in seats.iter().enumerate() {
                let s = i as u8;
                let status = if pos.is_active(s) {
                    let target = &seats[usize::from(pos.next_active(seats.len(), s))].name;
                    format!("captures {target}")
                } else {
                    "out".to_string()
                };
                let stake = stakes[i].map_or("to bet".to_string(), |v| v.to_string());
                let _ = writeln!(
                    out,
                    "  {:6} {status:16} stake {stake:>3}  paid {:>4}",
                    paint(color, seat_fg(s), &seat.name),
                    paid[i]
                );
            }
            let _ = writeln!(out, "  pot {}", self.pot());
        }
        if let Some(why) = self.forced_capture_explanation() {
            let _ = writeln!(out, "{}", paint(color, "33", &why));
        }
        out
    }

    fn describe(&self, mv: Self::Move) -> String {
        format!("{} ({})", self.san(mv), self.move_text(mv))
    }
}

impl Draw for TablesGame {
    fn draw(&self, color: bool) -> String {
        let board = self.board();
        let rules = self.rules();
        // Drawn from the first seat's side: its point p is the other seat's point 25 - p.
        let cell = |p: u8| -> String {
            let mine = board.count(0, p);
            let theirs = board.count(1, 25 - p);
            match (mine, theirs) {
                (0, 0) => paint(color, "2", "  . "),
                (n, 0) => paint(
                    color,
                    "1;97",
                    &format!(
                        "{:>3}{}",
                        n,
                        rules
                            .seat_name(0)
                            .chars()
                            .next()
                            .unwrap_or('W')
                            .to_ascii_uppercase()
                    ),
                ),
                (0, n) => paint(
                    color,
                    "1;31",
                    &format!(
                        "{:>3}{}",
                        n,
                        rules
                            .seat_name(1)
                            .chars()
                            .next()
                            .unwrap_or('B')
                            .to_ascii_uppercase()
                    ),
                ),
                (a, b) => format!("{a}/{b}?"),
            }
        };
        let mut out = String::new();
        let top: Vec<u8> = (13..=24).collect();
        let bottom: Vec<u8> = (1..=12).rev().collect();
        for row in [&top, &bottom] {
            for (i, &p) in row.iter().enumerate() {
                if i == 6 {
                    out.push_str(" |");
                }
                let _ = write!(out, " {p:>3}");
            }
            out.push('\n');
            for (i, &p) in row.iter().enumerate() {
                if i == 6 {
                    out.push_str(" |");
                }
                let _ = write!(out, "{}", cell(p));
            }
            out.push_str("\n\n");
        }
        for s in 0..2 {
            let _ = writeln!(
                out,
                "{}: {} on the bar, {} borne off",
                rules.seat_name(s),
                board.count(s, libro_tables::BAR),
                board.count(s, libro_tables::OFF)
            );
        }
        let _ = writeln!(out, "(points numbered from {}'s side)", rules.seat_name(0));
        if let libro_tables::Phase::Move(s, dice) = self.phase() {
            let _ = writeln!(out, "{} to play {dice}", rules.seat_name(s.index()));
        }
        out
    }
}
