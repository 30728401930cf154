//! `libro play RULESET`: a whole game in the terminal, against the computer or between
//! people at one keyboard: a board drawn in colour, moves typed in coordinate or SAN
//! notation (tables notation for Fallas), dice, targets and stakes, and the result and why.

use super::RuleOptions;
use anyhow::{bail, Context};
use libro_ai::{Control, Player, PlayerSpec};
use libro_core::{Game, Heuristic, MoveBuffer, Seat, Turn};
use libro_registry::{BoardView, FamilyGame, FamilyRules, GridView, TrackView, Visit};
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
    let rules = args.rules.load(&args.ruleset)?;
    if !args.stakes.is_empty() {
        let n = rules.seat_names().len();
        if !rules.has_stakes() {
            bail!("--stakes is for rulesets with stakes (the four-player game)");
        }
        if args.stakes.len() != n || args.stakes.contains(&0) {
            bail!("--stakes needs one positive whole number per seat ({n} seats)");
        }
    }
    rules.visit(Session { args: &args, color })
}

/// A terminal game of a ruleset of any family.
struct Session<'a> {
    args: &'a Args,
    color: bool,
}

impl Visit for Session<'_> {
    type Output = anyhow::Result<ExitCode>;
    fn visit<R: FamilyRules>(self, rules: &[Arc<R>]) -> Self::Output {
        let rules = &rules[0];
        let game = if self.args.stakes.is_empty() {
            rules.new_game(self.args.seed)
        } else {
            R::with_stakes(rules, &self.args.stakes).context("this ruleset has no stakes")?
        };
        play(rules, game, &self.args.seats, self.color)
    }
}

fn play<R: FamilyRules>(
    rules: &Arc<R>,
    mut game: R::Game,
    seat_args: &[String],
    color: bool,
) -> anyhow::Result<ExitCode> {
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
                println!("\n{}", draw(&game, &names, color));
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
    println!("\n{}", draw(&game, &names, color));
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

/// The position and everything a player needs to see before moving, drawn from the
/// registry's board view.
fn draw<G: FamilyGame>(game: &G, seats: &[String], color: bool) -> String {
    let mut out = match game.view() {
        BoardView::Grid(view) => draw_grid(&view, seats, color),
        BoardView::Track(view) => draw_track(&view, seats, color),
    };
    if let Some(why) = game.forced_note() {
        let _ = writeln!(out, "{}", paint(color, "33", &why));
    }
    out
}

/// A seat's piece colour: two seats white and black; four seats as the Libro names them.
fn seat_fg(name: &str) -> &'static str {
    match name {
        "white" => "1;97",
        "black" => "1;30",
        "green" => "1;32",
        "red" => "1;31",
        _ => "1;34",
    }
}

/// A board of squares, the last rank on top.
fn draw_grid(view: &GridView, seats: &[String], color: bool) -> String {
    const FILES: &[u8] = b"abcdefghijklmnop";
    let mut out = String::new();
    for rank in (0..view.ranks).rev() {
        let _ = write!(out, "{:>2} ", rank + 1);
        for file in 0..view.files {
            let name = format!("{}{}", char::from(FILES[usize::from(file)]), rank + 1);
            let bg = if (file + rank) % 2 == 0 {
                "48;5;137"
            } else {
                "48;5;180"
            };
            match view.squares.iter().find(|s| s.sq == name) {
                None if color => {
                    let _ = write!(out, "\x1b[{bg}m   ");
                }
                None => out.push_str("   "),
                Some(occ) => {
                    let mut letters: String = occ.pieces.concat();
                    if seats.len() == 2 && occ.seat == 1 {
                        letters = letters.to_lowercase();
                    }
                    let text = format!("{letters:^3}");
                    if color {
                        let fg = seat_fg(&seats[usize::from(occ.seat)]);
                        let _ = write!(out, "\x1b[{fg};{bg}m{text}");
                    } else {
                        out.push_str(&text);
                    }
                }
            }
        }
        if color {
            out.push_str("\x1b[0m");
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..view.files {
        let _ = write!(out, " {} ", char::from(FILES[usize::from(file)]));
    }
    out.push('\n');
    let mover = usize::from(view.to_move);
    if view.active.get(mover) == Some(&true) {
        let _ = write!(
            out,
            "{} to move",
            paint(color, seat_fg(&seats[mover]), &seats[mover])
        );
        let in_check = view
            .squares
            .iter()
            .any(|s| usize::from(s.seat) == mover && view.check.contains(&s.sq));
        if in_check {
            out.push_str(" — in check");
        }
        out.push('\n');
    }
    if let Some(stakes) = &view.stakes {
        for (i, seat) in seats.iter().enumerate() {
            let status = if view.active[i] {
                format!("captures {}", seats[usize::from(stakes.targets[i])])
            } else {
                "out".to_string()
            };
            let stake = stakes.stakes[i].map_or("to bet".to_string(), |v| v.to_string());
            let _ = writeln!(
                out,
                "  {:6} {status:16} stake {stake:>3}  paid {:>4}",
                paint(color, seat_fg(seat), seat),
                stakes.paid[i]
            );
        }
        let _ = writeln!(out, "  pot {}", stakes.pot);
    }
    out
}

/// A tables board from the first seat's side: points 13 to 24 on top, 12 to 1 below.
fn draw_track(view: &TrackView, seats: &[String], color: bool) -> String {
    let initial = |s: usize| seats[s].chars().next().unwrap_or('?').to_ascii_uppercase();
    let cell = |p: usize| -> String {
        match view.points.get(p - 1).copied().flatten() {
            None => paint(color, "2", "  . "),
            Some([seat, n]) => paint(
                color,
                if seat == 0 { "1;97" } else { "1;31" },
                &if view.stacked.contains(&(p as u8)) {
                    format!("{n:>2}{}^", initial(usize::from(seat)))
                } else {
                    format!("{n:>3}{}", initial(usize::from(seat)))
                },
            ),
        }
    };
    let half = view.points.len() / 2;
    let top: Vec<usize> = (half + 1..=view.points.len()).collect();
    let bottom: Vec<usize> = (1..=half).rev().collect();
    let mut out = String::new();
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
            out.push_str(&cell(p));
        }
        out.push_str("\n\n");
    }
    for (s, name) in seats.iter().enumerate().take(2) {
        let _ = writeln!(
            out,
            "{name}: {} on the bar, {} borne off",
            view.bar[s], view.off[s]
        );
    }
    let _ = writeln!(out, "(points numbered from {}'s side)", seats[0]);
    if !view.stacked.is_empty() {
        let _ = writeln!(
            out,
            "(^: a pair still stacked; a die of its point lays it down, `3/down`)"
        );
    }
    if let (Some(s), "move") = (view.seat, view.phase.as_str()) {
        let dice: Vec<String> = view.dice.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "{} to play {}", seats[usize::from(s)], dice.join("-"));
    }
    out
}
