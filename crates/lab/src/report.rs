//! The report of a study: per reading, balance, draws, decisiveness, how games end, their
//! length and branching factor, stakes where the game has them, each with its 95% interval;
//! and the differences between readings that are significant, in plain words.

use crate::play::GameRow;
use crate::stamp::Stamp;
use crate::stats::{self, clopper_pearson as share, clopper_pearson_points, Estimate};
use crate::study::{self, Reading, Study};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// End reasons by which the game's own rules decide a game (as against the draw rules
/// libro adds: repetition, no progress, move limit, all passed).
pub const DECISIVE_REASONS: [&str; 6] = [
    "checkmate",
    "stalemate",
    "bare-king",
    "falla",
    "bore-off",
    "elimination",
];

/// Bins of the duration histograms.
pub const HISTOGRAM_BINS: u32 = 20;

/// The report of a whole study.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Report {
    pub ruleset: String,
    pub seats: Vec<String>,
    pub players: Vec<String>,
    pub seed: u64,
    /// Games asked per reading (a reading may have fewer while a run is incomplete).
    pub games_per_reading: u32,
    /// The board's cells as `(columns, rows)`, for [`ReadingReport::heatmap`].
    pub grid: (u16, u16),
    /// The width, in plies, of each bin of the duration histograms (bin `i` holds games of
    /// `i·width ..= (i+1)·width − 1` plies).
    pub histogram_width: u32,
    pub readings: Vec<ReadingReport>,
    /// How many comparisons between readings were tested.
    pub comparisons: usize,
    /// The significant ones (Holm-corrected, family-wise 5%).
    pub findings: Vec<Finding>,
    /// Every comparison tested, significant or not, with what it could have detected.
    pub tests: Vec<Comparison>,
    /// What the reader must know before trusting a figure (repeated games, too few games).
    pub warnings: Vec<String>,
    /// How the figures are estimated and compared ([`stats::METHODS`]).
    pub methods: &'static str,
    /// Which libro played the games, and the digest of each reading's rules.
    pub stamp: Stamp,
    /// The full study specification.
    pub study: Study,
}

/// The figures of one reading.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReadingReport {
    pub key: String,
    pub varied: Vec<(String, String)>,
    /// Games played.
    pub games: u32,
    /// Games that differ from every other game of the reading. The tests compare these
    /// alone; the figures count every game, unless all are one game (then that one).
    pub distinct: u32,
    pub seats: Vec<SeatFigures>,
    /// Two seats held by the same player: the score of the seat that moved first, less one
    /// half. Left out when the seats hold different players (the player, not the first move,
    /// would be measured).
    pub first_move_advantage: Option<Estimate>,
    /// Who moved first: the first seat's name, or `the roll-off winner` when it varies.
    pub first_mover: Option<String>,
    /// Games with no single winner.
    pub draws: Estimate,
    /// Games ended by one of the game's own decisive rules ([`DECISIVE_REASONS`]).
    pub decisive: Estimate,
    pub end_reasons: Vec<ReasonShare>,
    /// Games stopped at the study's ply cap (counted as `move-limit`).
    pub capped: u32,
    pub plies: Duration,
    /// Legal moves per decision, averaged per game, then over the games.
    pub branching: Estimate,
    /// Games with stakes (Cuatro Tiempos): each seat's payments, winnings and balance.
    pub stakes: Option<Vec<SeatStakes>>,
    /// Share of the board's cells a game lands a piece on at least once (Ludii's board
    /// coverage), averaged over the games.
    pub coverage: Estimate,
    /// Times per game the seat ahead on material changes (Ludii's lead change).
    pub lead_changes: Estimate,
    /// Each piece type's moves and captures per game: does a rule's piece matter?
    pub pieces: Vec<PieceUsage>,
    /// Landings per game on each cell, row by row of [`Report::grid`].
    pub heatmap: Vec<f64>,
}

/// How much one piece type is used.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PieceUsage {
    pub piece: String,
    /// Moves per game.
    pub moves: Estimate,
    /// Captures (hits) per game.
    pub captures: Estimate,
    /// Its share of all moves made.
    pub share: f64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SeatFigures {
    pub seat: String,
    /// Mean game score (win 1, draw a share, loss 0).
    pub score: Estimate,
    /// Share of games won outright.
    pub wins: Estimate,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReasonShare {
    pub reason: String,
    pub games: u32,
    pub share: Estimate,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Duration {
    pub mean: Estimate,
    pub median: f64,
    pub q1: f64,
    pub q3: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
    /// Games per bin of [`Report::histogram_width`] plies.
    pub histogram: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SeatStakes {
    pub seat: String,
    /// Mean paid into the pot per game (stakes lost).
    pub paid: Estimate,
    /// Mean taken from the pot per game (stakes won).
    pub won: Estimate,
    /// Mean of won − paid.
    pub balance: Estimate,
}

/// One comparison of two readings that differ in one option, significant or not.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Comparison {
    pub option: String,
    pub metric: String,
    pub a: String,
    pub b: String,
    /// The difference a − b with its 95% interval (in shares for percentages).
    pub effect: Estimate,
    pub p_value: f64,
    /// Significant after Holm's correction over all comparisons.
    pub significant: bool,
    /// The test: `Fisher exact`, `Mann–Whitney U` or `Welch t`.
    pub method: &'static str,
    /// The smallest difference these samples find 80% of the time at 5% (before Holm).
    pub detectable: f64,
}

/// A significant difference between two readings that differ in one option.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Finding {
    /// The option that differs.
    pub option: String,
    /// What differs (`white score`, `draws`, `end: checkmate`, `plies`, `branching`, ...).
    pub metric: String,
    pub a: String,
    pub b: String,
    pub a_value: Estimate,
    pub b_value: Estimate,
    /// The difference a − b with its 95% interval.
    pub effect: Estimate,
    pub p_value: f64,
    pub method: &'static str,
    pub text: String,
}

/// The per-game samples of a reading, in index order.
struct Samples<'a> {
    reading: Reading,
    rows: Vec<&'a GameRow>,
    /// Games played, repeats included.
    played: u32,
    /// Games that differ from every earlier game of the reading.
    distinct: u32,
}

impl Samples<'_> {
    fn n(&self) -> u64 {
        self.rows.len() as u64
    }
    fn count(&self, f: impl Fn(&GameRow) -> bool) -> u64 {
        self.rows.iter().filter(|r| f(r)).count() as u64
    }
    fn values(&self, f: impl Fn(&GameRow) -> f64) -> Vec<f64> {
        self.rows.iter().map(|r| f(r)).collect()
    }
}

fn branching_of(r: &GameRow) -> f64 {
    if r.decisions == 0 {
        0.0
    } else {
        r.legal as f64 / f64::from(r.decisions)
    }
}

/// The share of the board's cells a game landed a piece on (0 for a game without landings).
fn coverage_of(r: &GameRow) -> f64 {
    if r.landings.is_empty() {
        0.0
    } else {
        r.landings.iter().filter(|&&l| l > 0).count() as f64 / r.landings.len() as f64
    }
}

fn won_of(r: &GameRow, s: usize) -> f64 {
    match (&r.paid, &r.balances) {
        (Some(p), Some(b)) => b[s] + p[s],
        _ => 0.0,
    }
}

/// How a seat's name is printed in sentences: `white` → `White`.
fn seat_title(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

impl Report {
    /// The report of `study` from its games (any order; games past `study.games` and of
    /// readings not in the study are left out, so a report is the same however the games
    /// were split between runs and shards).
    pub fn new(study: &Study, rows: &[GameRow]) -> Report {
        let mut by_key: BTreeMap<&str, Vec<&GameRow>> = BTreeMap::new();
        for r in rows.iter().filter(|r| r.index < study.games) {
            by_key.entry(r.reading.as_str()).or_default().push(r);
        }
        // Figures count every game: each is an independent draw of the study's random
        // openings, dice and players, so a game that comes twice by chance counts twice. A
        // reading whose games are all one game (deterministic play) counts as that one game.
        // Tests compare distinct games only: a repeat is never new evidence of a difference.
        let (samples, distinct_samples): (Vec<Samples>, Vec<Samples>) = study
            .readings()
            .into_iter()
            .map(|reading| {
                let mut rows = by_key.remove(reading.key.as_str()).unwrap_or_default();
                rows.sort_by_key(|r| r.index);
                rows.dedup_by_key(|r| r.index);
                let played = rows.len() as u32;
                // Rows from before fingerprints (0) count as distinct.
                let mut seen = std::collections::HashSet::new();
                let distinct: Vec<&GameRow> = rows
                    .iter()
                    .copied()
                    .filter(|r| r.fingerprint == 0 || seen.insert((r.fingerprint, r.plies)))
                    .collect();
                let count = distinct.len() as u32;
                let figures = if count == 1 { distinct.clone() } else { rows };
                (
                    Samples {
                        reading: reading.clone(),
                        rows: figures,
                        played,
                        distinct: count,
                    },
                    Samples {
                        reading,
                        rows: distinct,
                        played,
                        distinct: count,
                    },
                )
            })
            .unzip();
        let longest = samples
            .iter()
            .flat_map(|s| s.rows.iter().map(|r| r.plies))
            .max()
            .unwrap_or(0);
        let width = (longest / HISTOGRAM_BINS + 1).max(1);
        let cells = samples
            .iter()
            .flat_map(|s| s.rows.iter().map(|r| r.landings.len()))
            .max()
            .unwrap_or(0);
        let grid = if usize::from(study.board.grid.0) * usize::from(study.board.grid.1) == cells {
            study.board.grid
        } else {
            (u16::try_from(cells).unwrap_or(u16::MAX), 1)
        };
        let readings: Vec<ReadingReport> = samples
            .iter()
            .map(|s| reading_report(study, s, width))
            .collect();
        let tests = compare(study, &distinct_samples, &readings);
        let findings = findings(&samples, &readings, &tests);
        let mut warnings = Vec::new();
        for r in &readings {
            if r.distinct < r.games {
                warnings.push(format!(
                    "reading `{}`: only {} of its {} games differ; the rest repeat them, so its comparisons use the {} distinct games{} (deterministic players need random opening moves: --opening-moves)",
                    study::label(&r.key),
                    r.distinct,
                    r.games,
                    r.distinct,
                    if r.distinct == 1 { " and its figures that one game" } else { "" }
                ));
            }
            if r.distinct < 2 && readings.len() > 1 {
                warnings.push(format!(
                    "reading `{}` has {} distinct game{}: it is compared with nothing",
                    study::label(&r.key),
                    r.distinct,
                    if r.distinct == 1 { "" } else { "s" }
                ));
            }
        }
        Report {
            ruleset: study.ruleset.clone(),
            seats: study.seats.clone(),
            players: study.players.clone(),
            seed: study.seed,
            games_per_reading: study.games,
            grid,
            histogram_width: width,
            readings,
            comparisons: tests.len(),
            findings,
            tests,
            warnings,
            methods: stats::METHODS,
            stamp: study.stamp.clone(),
            study: study.clone(),
        }
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("reports serialise")
    }

    /// One CSV line per reading, a column per figure (with `_low` and `_high` columns for
    /// its interval).
    pub fn to_csv(&self) -> String {
        let reasons = self.all_reasons();
        let mut columns: Vec<String> = Vec::new();
        let mut lines: Vec<Vec<String>> = Vec::new();
        for r in &self.readings {
            let mut cells: Vec<(String, String)> = vec![
                ("reading".into(), r.key.clone()),
                ("games".into(), r.games.to_string()),
                ("distinct".into(), r.distinct.to_string()),
            ];
            let mut est = |name: String, e: &Estimate| {
                cells.push((name.clone(), e.value.to_string()));
                cells.push((format!("{name}_low"), e.low.to_string()));
                cells.push((format!("{name}_high"), e.high.to_string()));
            };
            for s in &r.seats {
                est(format!("{}_score", s.seat), &s.score);
                est(format!("{}_wins", s.seat), &s.wins);
            }
            if let Some(f) = &r.first_move_advantage {
                est("first_move_advantage".into(), f);
            }
            est("draws".into(), &r.draws);
            est("decisive".into(), &r.decisive);
            for reason in &reasons {
                let share = r
                    .end_reasons
                    .iter()
                    .find(|x| &x.reason == reason)
                    .map_or(share(0, u64::from(r.distinct)), |x| x.share);
                est(format!("end_{reason}"), &share);
            }
            est("plies_mean".into(), &r.plies.mean);
            est("branching".into(), &r.branching);
            if !r.heatmap.is_empty() {
                est("coverage".into(), &r.coverage);
                est("lead_changes".into(), &r.lead_changes);
                for p in &r.pieces {
                    est(format!("{}_moves", p.piece), &p.moves);
                    est(format!("{}_captures", p.piece), &p.captures);
                }
            }
            for st in r.stakes.iter().flatten() {
                est(format!("{}_paid", st.seat), &st.paid);
                est(format!("{}_won", st.seat), &st.won);
                est(format!("{}_balance", st.seat), &st.balance);
            }
            for (name, v) in [
                ("plies_median", r.plies.median),
                ("plies_q1", r.plies.q1),
                ("plies_q3", r.plies.q3),
                ("plies_sd", r.plies.sd),
                ("plies_min", r.plies.min),
                ("plies_max", r.plies.max),
            ] {
                cells.push((name.into(), v.to_string()));
            }
            cells.push(("capped".into(), r.capped.to_string()));
            cells.push(("libro".into(), self.stamp.libro.clone()));
            cells.push((
                "commit".into(),
                self.stamp.commit.clone().unwrap_or_default(),
            ));
            cells.push((
                "rules_digest".into(),
                self.stamp
                    .rules
                    .iter()
                    .find(|(k, _)| *k == r.key)
                    .map_or(String::new(), |(_, d)| d.clone()),
            ));
            for (k, v) in &r.varied {
                cells.insert(1, (format!("option_{k}"), v.clone()));
            }
            for (name, _) in &cells {
                if !columns.contains(name) {
                    columns.push(name.clone());
                }
            }
            lines.push(
                columns
                    .iter()
                    .map(|c| {
                        cells
                            .iter()
                            .find(|(n, _)| n == c)
                            .map_or(String::new(), |(_, v)| v.clone())
                    })
                    .collect(),
            );
        }
        let mut out = String::new();
        let quote = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let _ = writeln!(
            out,
            "{}",
            columns
                .iter()
                .map(|c| quote(c))
                .collect::<Vec<_>>()
                .join(",")
        );
        for mut line in lines {
            line.resize(columns.len(), String::new());
            let _ = writeln!(
                out,
                "{}",
                line.iter().map(|c| quote(c)).collect::<Vec<_>>().join(",")
            );
        }
        out
    }

    /// Every end reason seen in any reading, in a fixed order.
    pub fn all_reasons(&self) -> Vec<String> {
        let mut reasons: Vec<String> = self
            .readings
            .iter()
            .flat_map(|r| r.end_reasons.iter().map(|x| x.reason.clone()))
            .collect();
        reasons.sort();
        reasons.dedup();
        reasons
    }

    /// The readings side by side, as a terminal table (in blocks of a few readings when
    /// there are many), then the findings.
    pub fn to_table(&self) -> String {
        let reasons = self.all_reasons();
        let pct = |e: &Estimate| format!("{:.1}% ± {:.1}", 100.0 * e.value, 100.0 * e.margin());
        let mut rows: Vec<(String, Vec<String>)> = Vec::new();
        let col = |f: &dyn Fn(&ReadingReport) -> String| -> Vec<String> {
            self.readings.iter().map(f).collect()
        };
        rows.push(("games".into(), col(&|r| r.games.to_string())));
        rows.push(("distinct games".into(), col(&|r| r.distinct.to_string())));
        for (i, seat) in self.seats.iter().enumerate() {
            rows.push((
                format!("{} score", seat_title(seat)),
                col(&|r| pct(&r.seats[i].score)),
            ));
        }
        for (i, seat) in self.seats.iter().enumerate() {
            rows.push((
                format!("{} wins", seat_title(seat)),
                col(&|r| pct(&r.seats[i].wins)),
            ));
        }
        if self
            .readings
            .iter()
            .any(|r| r.first_move_advantage.is_some())
        {
            let who = self
                .readings
                .iter()
                .find_map(|r| r.first_mover.clone())
                .unwrap_or_default();
            rows.push((
                format!("first-move advantage ({who})"),
                col(&|r| {
                    r.first_move_advantage.map_or(String::new(), |e| {
                        format!("{:+.1} pts ± {:.1}", 100.0 * e.value, 100.0 * e.margin())
                    })
                }),
            ));
        }
        rows.push(("draws".into(), col(&|r| pct(&r.draws))));
        rows.push(("decisive".into(), col(&|r| pct(&r.decisive))));
        for reason in &reasons {
            rows.push((
                format!("ends: {reason}"),
                col(&|r| {
                    r.end_reasons
                        .iter()
                        .find(|x| &x.reason == reason)
                        .map_or("0.0%".into(), |x| pct(&x.share))
                }),
            ));
        }
        rows.push((
            "plies: mean".into(),
            col(&|r| format!("{:.1} ± {:.1}", r.plies.mean.value, r.plies.mean.margin())),
        ));
        rows.push((
            "plies: median [IQR]".into(),
            col(&|r| {
                format!(
                    "{:.0} [{:.0}–{:.0}]",
                    r.plies.median, r.plies.q1, r.plies.q3
                )
            }),
        ));
        rows.push((
            "plies: sd, min–max".into(),
            col(&|r| format!("{:.0}, {:.0}–{:.0}", r.plies.sd, r.plies.min, r.plies.max)),
        ));
        rows.push((
            "branching".into(),
            col(&|r| format!("{:.2} ± {:.2}", r.branching.value, r.branching.margin())),
        ));
        if self.readings.iter().any(|r| !r.heatmap.is_empty()) {
            rows.push(("board coverage".into(), col(&|r| pct(&r.coverage))));
            rows.push((
                "lead changes".into(),
                col(&|r| {
                    format!(
                        "{:.1} ± {:.1}",
                        r.lead_changes.value,
                        r.lead_changes.margin()
                    )
                }),
            ));
            let names: Vec<String> = self
                .readings
                .iter()
                .flat_map(|r| r.pieces.iter().map(|p| p.piece.clone()))
                .fold(Vec::new(), |mut v, p| {
                    if !v.contains(&p) {
                        v.push(p);
                    }
                    v
                });
            for name in names {
                rows.push((
                    format!("{name}: moves / captures"),
                    col(&|r| {
                        r.pieces
                            .iter()
                            .find(|p| p.piece == name)
                            .map_or(String::new(), |p| {
                                format!(
                                    "{:.1} / {:.2} ({:.0}%)",
                                    p.moves.value,
                                    p.captures.value,
                                    100.0 * p.share
                                )
                            })
                    }),
                ));
            }
        }
        if self.readings.iter().any(|r| r.stakes.is_some()) {
            for (i, seat) in self.seats.iter().enumerate() {
                rows.push((
                    format!("{} paid / won", seat_title(seat)),
                    col(&|r| {
                        r.stakes.as_ref().map_or(String::new(), |s| {
                            format!("{:.1} / {:.1}", s[i].paid.value, s[i].won.value)
                        })
                    }),
                ));
                rows.push((
                    format!("{} balance", seat_title(seat)),
                    col(&|r| {
                        r.stakes.as_ref().map_or(String::new(), |s| {
                            format!("{:+.2} ± {:.2}", s[i].balance.value, s[i].balance.margin())
                        })
                    }),
                ));
            }
        }
        let label_width = rows
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = format!(
            "{} — {} — {} games per reading, seed {}, {} random opening moves, cap {} plies\n{}\n",
            self.ruleset,
            self.players.join(" / "),
            self.games_per_reading,
            self.seed,
            self.study.opening_moves,
            self.study.max_plies,
            self.stamp
        );
        let per_block = 4;
        let indices: Vec<usize> = (0..self.readings.len()).collect();
        for block in indices.chunks(per_block) {
            let widths: Vec<usize> = block
                .iter()
                .map(|&i| {
                    rows.iter()
                        .map(|(_, c)| c[i].chars().count())
                        .chain([study::label(&self.readings[i].key).chars().count()])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            out.push('\n');
            let mut line = format!("{:label_width$}", "");
            for (&i, w) in block.iter().zip(&widths) {
                let _ = write!(line, " │ {:>w$}", study::label(&self.readings[i].key));
            }
            out.push_str(line.trim_end());
            out.push('\n');
            let mut rule = "─".repeat(label_width);
            for w in &widths {
                rule.push_str(&format!("─┼─{}", "─".repeat(*w)));
            }
            out.push_str(&rule);
            out.push('\n');
            for (label, cells) in &rows {
                let mut line = format!("{label:label_width$}");
                for (&i, w) in block.iter().zip(&widths) {
                    let _ = write!(line, " │ {:>w$}", cells[i]);
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        if !self.warnings.is_empty() {
            out.push('\n');
            for w in &self.warnings {
                let _ = writeln!(out, "Warning: {w}.");
            }
        }
        if self.readings.len() > 1 {
            out.push('\n');
            if self.comparisons == 0 {
                let _ = writeln!(
                    out,
                    "No comparison between readings: none has two distinct games to compare."
                );
            } else if self.findings.is_empty() {
                let _ = writeln!(
                    out,
                    "No significant difference between readings ({} comparisons, Holm-corrected 5%).",
                    self.comparisons
                );
            } else {
                let _ = writeln!(
                    out,
                    "Significant differences ({} of {} comparisons, Holm-corrected 5%):",
                    self.findings.len(),
                    self.comparisons
                );
                for f in &self.findings {
                    let _ = writeln!(out, "- {}", f.text);
                }
            }
            let detectable = self.detectable();
            if !detectable.is_empty() {
                let _ = writeln!(
                    out,
                    "Smallest differences these games could detect (80% of the time at 5%): {}.",
                    detectable.join("; ")
                );
            }
        }
        let _ = writeln!(out, "\nMethods: {}", self.methods);
        out
    }

    /// For each option and main metric (the first seat's score, draws, length), the
    /// largest of its comparisons' detectable differences, in words.
    pub fn detectable(&self) -> Vec<String> {
        let mut out = Vec::new();
        let first_score = self.seats.first().map(|s| format!("{s} score"));
        let mut options: Vec<&str> = self.tests.iter().map(|t| t.option.as_str()).collect();
        options.dedup();
        for option in options {
            let mut parts = Vec::new();
            for metric in [first_score.as_deref().unwrap_or(""), "draws", "plies"] {
                let worst = self
                    .tests
                    .iter()
                    .filter(|t| t.option == option && t.metric == metric)
                    .map(|t| t.detectable)
                    .fold(f64::NAN, f64::max);
                if worst.is_nan() {
                    continue;
                }
                parts.push(if metric == "plies" {
                    format!("length ±{worst:.0} plies")
                } else {
                    format!("{metric} ±{:.0} points", 100.0 * worst)
                });
            }
            if !parts.is_empty() {
                out.push(format!("{option}: {}", parts.join(", ")));
            }
        }
        out
    }
}

fn reading_report(study: &Study, s: &Samples, width: u32) -> ReadingReport {
    let n = s.n();
    let seats = study.seats.len();
    let seat_figures: Vec<SeatFigures> = (0..seats)
        .map(|i| SeatFigures {
            seat: study.seats[i].clone(),
            score: clopper_pearson_points(s.values(|r| f64::from(r.scores[i])).iter().sum(), n),
            wins: share(s.count(|r| r.winner == Some(i as u8)), n),
        })
        .collect();
    // The first move's advantage means something only when the same player holds both
    // seats; in a game whose first seat is decided by a roll-off, it is the winner's.
    let same_players = study.players.windows(2).all(|w| w[0] == w[1]);
    let movers: Vec<u8> = s.rows.iter().filter_map(|r| r.first).collect();
    let (first_move_advantage, first_mover) = if seats == 2 && same_players && n > 0 {
        let points: f64 = s
            .rows
            .iter()
            .map(|r| f64::from(r.scores[usize::from(r.first.unwrap_or(0))]))
            .sum();
        let fixed = movers.windows(2).all(|w| w[0] == w[1]);
        let who = if fixed {
            study.seats[usize::from(movers.first().copied().unwrap_or(0))].clone()
        } else {
            "the roll-off winner".to_string()
        };
        (
            Some(clopper_pearson_points(points, n).shifted(-0.5)),
            Some(who),
        )
    } else {
        (None, None)
    };
    let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
    for r in &s.rows {
        *reasons.entry(r.reason.as_str()).or_default() += 1;
    }
    let mut plies = s.values(|r| f64::from(r.plies));
    plies.sort_by(f64::total_cmp);
    let mut histogram = vec![0u32; HISTOGRAM_BINS as usize];
    for r in &s.rows {
        let bin = ((r.plies / width) as usize).min(histogram.len() - 1);
        histogram[bin] += 1;
    }
    let mean_plies = stats::mean(&plies);
    let stakes = s
        .rows
        .first()
        .is_some_and(|r| r.balances.is_some())
        .then(|| {
            (0..seats)
                .map(|i| SeatStakes {
                    seat: study.seats[i].clone(),
                    paid: stats::mean(&s.values(|r| r.paid.as_ref().map_or(0.0, |p| p[i]))),
                    won: stats::mean(&s.values(|r| won_of(r, i))),
                    balance: stats::mean(&s.values(|r| r.balances.as_ref().map_or(0.0, |b| b[i]))),
                })
                .collect()
        });
    let types = s
        .rows
        .iter()
        .map(|r| r.piece_moves.len())
        .max()
        .unwrap_or(0);
    let all_moves: f64 = s
        .rows
        .iter()
        .flat_map(|r| r.piece_moves.iter())
        .map(|&m| f64::from(m))
        .sum();
    let pieces = (0..types)
        .map(|t| {
            let moves = s.values(|r| f64::from(r.piece_moves.get(t).copied().unwrap_or(0)));
            PieceUsage {
                piece: study
                    .board
                    .pieces
                    .get(t)
                    .cloned()
                    .unwrap_or_else(|| format!("piece {}", t + 1)),
                share: if all_moves > 0.0 {
                    moves.iter().sum::<f64>() / all_moves
                } else {
                    0.0
                },
                moves: stats::mean(&moves),
                captures: stats::mean(
                    &s.values(|r| f64::from(r.piece_captures.get(t).copied().unwrap_or(0))),
                ),
            }
        })
        .collect();
    let cells = s.rows.iter().map(|r| r.landings.len()).max().unwrap_or(0);
    let mut heatmap = vec![0.0; cells];
    for r in &s.rows {
        for (h, &l) in heatmap.iter_mut().zip(&r.landings) {
            *h += f64::from(l);
        }
    }
    for h in &mut heatmap {
        *h /= n.max(1) as f64;
    }
    ReadingReport {
        coverage: stats::mean(&s.values(coverage_of)),
        lead_changes: stats::mean(&s.values(|r| f64::from(r.lead_changes))),
        pieces,
        heatmap,
        key: s.reading.key.clone(),
        varied: s.reading.varied.clone(),
        games: s.played,
        distinct: s.distinct,
        seats: seat_figures,
        first_move_advantage,
        first_mover,
        draws: share(s.count(|r| r.winner.is_none()), n),
        decisive: share(
            s.count(|r| DECISIVE_REASONS.contains(&r.reason.as_str()) && !r.capped),
            n,
        ),
        end_reasons: reasons
            .into_iter()
            .map(|(reason, k)| ReasonShare {
                reason: reason.to_string(),
                games: k as u32,
                share: share(k, n),
            })
            .collect(),
        capped: s.count(|r| r.capped) as u32,
        plies: Duration {
            mean: mean_plies,
            median: stats::quantile(&plies, 0.5).unwrap_or(0.0),
            q1: stats::quantile(&plies, 0.25).unwrap_or(0.0),
            q3: stats::quantile(&plies, 0.75).unwrap_or(0.0),
            sd: stats::sample_sd(&plies, mean_plies.value),
            min: plies.first().copied().unwrap_or(0.0),
            max: plies.last().copied().unwrap_or(0.0),
            histogram,
        },
        branching: stats::mean(&s.values(branching_of)),
        stakes,
    }
}

/// The three tests a comparison may use, as named in the report.
const FISHER: &str = "Fisher exact";
const MANN_WHITNEY: &str = "Mann–Whitney U";
const WELCH: &str = "Welch t";

/// Compares every two readings that differ in exactly one varied option, each with at least
/// two distinct games: each seat's score (the first seat only when there are two), draws,
/// each end reason, length, branching and stake balances, each by the test that fits it;
/// marks the differences significant after Holm's correction over all the tests.
fn compare(study: &Study, samples: &[Samples], reports: &[ReadingReport]) -> Vec<Comparison> {
    let mut tests: Vec<Comparison> = Vec::new();
    let seats = study.seats.len();
    for a in 0..samples.len() {
        for b in a + 1..samples.len() {
            let (ra, rb) = (&samples[a].reading, &samples[b].reading);
            let differing: Vec<usize> = (0..ra.varied.len())
                .filter(|&i| ra.varied[i] != rb.varied[i])
                .collect();
            let [option] = differing[..] else { continue };
            let (sa, sb) = (&samples[a], &samples[b]);
            // One game (or one game played over and over) is no sample.
            if sa.n() < 2 || sb.n() < 2 {
                continue;
            }
            let option = ra.varied[option].0.clone();
            let (pa, pb) = (&reports[a], &reports[b]);
            let mut push = |metric: String, effect, p, method, detectable| {
                tests.push(Comparison {
                    option: option.clone(),
                    metric,
                    a: ra.key.clone(),
                    b: rb.key.clone(),
                    effect,
                    p_value: p,
                    significant: false,
                    method,
                    detectable,
                })
            };
            let (na, nb) = (sa.n(), sb.n());
            let pooled = |ka: f64, kb: f64| (ka + kb) / (na + nb) as f64;
            for i in 0..if seats == 2 { 1 } else { seats } {
                let f = |r: &GameRow| f64::from(r.scores[i]);
                let (xa, xb) = (sa.values(f), sb.values(f));
                let (ka, kb) = (xa.iter().sum::<f64>(), xb.iter().sum::<f64>());
                push(
                    format!("{} score", study.seats[i]),
                    stats::newcombe(ka, na, kb, nb),
                    stats::mann_whitney_p(&xa, &xb),
                    MANN_WHITNEY,
                    stats::detectable_share_difference(pooled(ka, kb), na, nb),
                );
            }
            let mut shares = vec![(
                "draws".to_string(),
                Box::new(|r: &GameRow| r.winner.is_none()) as Box<dyn Fn(&GameRow) -> bool>,
            )];
            let mut reasons: Vec<&str> = pa
                .end_reasons
                .iter()
                .chain(&pb.end_reasons)
                .map(|x| x.reason.as_str())
                .collect();
            reasons.sort();
            reasons.dedup();
            for reason in reasons {
                let reason = reason.to_string();
                shares.push((
                    format!("end: {reason}"),
                    Box::new(move |r: &GameRow| r.reason == reason),
                ));
            }
            for (metric, f) in shares {
                let (ka, kb) = (sa.count(&f), sb.count(&f));
                push(
                    metric,
                    stats::newcombe(ka as f64, na, kb as f64, nb),
                    stats::fisher_exact_p(ka, na, kb, nb),
                    FISHER,
                    stats::detectable_share_difference(pooled(ka as f64, kb as f64), na, nb),
                );
            }
            let plies = |r: &GameRow| f64::from(r.plies);
            let (xa, xb) = (sa.values(plies), sb.values(plies));
            push(
                "plies".into(),
                stats::welch(&xa, &xb).0,
                stats::mann_whitney_p(&xa, &xb),
                MANN_WHITNEY,
                stats::detectable_mean_difference(&xa, &xb),
            );
            let (xa, xb) = (sa.values(branching_of), sb.values(branching_of));
            let (effect, p) = stats::welch(&xa, &xb);
            push(
                "branching".into(),
                effect,
                p,
                WELCH,
                stats::detectable_mean_difference(&xa, &xb),
            );
            if sa
                .rows
                .iter()
                .chain(&sb.rows)
                .any(|r| !r.landings.is_empty())
            {
                let (xa, xb) = (sa.values(coverage_of), sb.values(coverage_of));
                let (effect, p) = stats::welch(&xa, &xb);
                push(
                    "coverage".into(),
                    effect,
                    p,
                    WELCH,
                    stats::detectable_mean_difference(&xa, &xb),
                );
                let lead = |r: &GameRow| f64::from(r.lead_changes);
                let (xa, xb) = (sa.values(lead), sb.values(lead));
                push(
                    "lead changes".into(),
                    stats::welch(&xa, &xb).0,
                    stats::mann_whitney_p(&xa, &xb),
                    MANN_WHITNEY,
                    stats::detectable_mean_difference(&xa, &xb),
                );
            }
            if pa.stakes.is_some() && pb.stakes.is_some() {
                for i in 0..seats {
                    let f = |r: &GameRow| r.balances.as_ref().map_or(0.0, |b| b[i]);
                    let (xa, xb) = (sa.values(f), sb.values(f));
                    let (effect, p) = stats::welch(&xa, &xb);
                    push(
                        format!("{} balance", study.seats[i]),
                        effect,
                        p,
                        WELCH,
                        stats::detectable_mean_difference(&xa, &xb),
                    );
                }
            }
        }
    }
    let significant = stats::holm(&tests.iter().map(|t| t.p_value).collect::<Vec<_>>(), 0.05);
    for (t, s) in tests.iter_mut().zip(significant) {
        t.significant = s;
    }
    tests
}

/// How a metric reads in a sentence, and whether its figures are percentages.
fn wording(metric: &str) -> (String, bool, &'static str) {
    if let Some(seat) = metric.strip_suffix(" score") {
        return (format!("{} scores", seat_title(seat)), true, "");
    }
    if let Some(seat) = metric.strip_suffix(" balance") {
        return (format!("{}'s balance is", seat_title(seat)), false, "");
    }
    if let Some(reason) = metric.strip_prefix("end: ") {
        return (format!("{reason} ends"), true, " of games");
    }
    match metric {
        "draws" => ("games are drawn".into(), true, ""),
        "coverage" => ("a game lands on".into(), true, " of the board"),
        "lead changes" => ("the lead changes".into(), false, " times a game"),
        "plies" => ("games last".into(), false, " plies"),
        "branching" => (
            "a seat to move has, on average,".into(),
            false,
            " legal moves",
        ),
        other => (other.to_string(), false, ""),
    }
}

/// The significant comparisons, in plain words.
fn findings(samples: &[Samples], reports: &[ReadingReport], tests: &[Comparison]) -> Vec<Finding> {
    let reading = |key: &str| {
        samples
            .iter()
            .zip(reports)
            .find(|(s, _)| s.reading.key == key)
            .expect("compared readings are in the study")
    };
    tests
        .iter()
        .filter(|t| t.significant)
        .map(|t| {
            let ((sa, pa), (sb, pb)) = (reading(&t.a), reading(&t.b));
            let (subject, percent, unit) = wording(&t.metric);
            let (a_value, b_value) = (metric_estimate(pa, &t.metric), metric_estimate(pb, &t.metric));
            let fig = |e: &Estimate| {
                if percent {
                    format!("{:.1}% ± {:.1}", 100.0 * e.value, 100.0 * e.margin())
                } else {
                    format!("{:.1} ± {:.1}", e.value, e.margin())
                }
            };
            let effect = if percent {
                format!(
                    "{:+.1} points [{:+.1}, {:+.1}]",
                    100.0 * t.effect.value,
                    100.0 * t.effect.low,
                    100.0 * t.effect.high
                )
            } else {
                format!(
                    "{:+.1} [{:+.1}, {:+.1}]",
                    t.effect.value, t.effect.low, t.effect.high
                )
            };
            let (ra, rb) = (&sa.reading, &sb.reading);
            let value = |r: &Reading| {
                r.varied
                    .iter()
                    .find(|(k, _)| *k == t.option)
                    .map_or(String::new(), |(k, v)| format!("{k}={v}"))
            };
            let others: Vec<String> = ra
                .varied
                .iter()
                .filter(|(k, _)| *k != t.option)
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let context = if others.is_empty() {
                String::new()
            } else {
                format!(" (with {})", others.join(", "))
            };
            Finding {
                option: t.option.clone(),
                metric: t.metric.clone(),
                a: t.a.clone(),
                b: t.b.clone(),
                a_value,
                b_value,
                effect: t.effect,
                p_value: t.p_value,
                method: t.method,
                text: format!(
                    "with {} {subject} {}{unit}, against {} with {}{context}: a difference of {effect} ({}, {})",
                    value(ra),
                    fig(&a_value),
                    fig(&b_value),
                    value(rb),
                    t.method,
                    if t.p_value < 1e-4 {
                        "p < 0.0001".to_string()
                    } else {
                        format!("p = {:.4}", t.p_value)
                    }
                ),
            }
        })
        .collect()
}

/// A reading's figure of `metric`, with its interval, as its report states it.
fn metric_estimate(r: &ReadingReport, metric: &str) -> Estimate {
    let none = share(0, u64::from(r.distinct));
    if let Some(seat) = metric.strip_suffix(" score") {
        return r
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or(none, |s| s.score);
    }
    if let Some(seat) = metric.strip_suffix(" balance") {
        return r
            .stakes
            .iter()
            .flatten()
            .find(|s| s.seat == seat)
            .map_or(none, |s| s.balance);
    }
    if let Some(reason) = metric.strip_prefix("end: ") {
        return r
            .end_reasons
            .iter()
            .find(|x| x.reason == reason)
            .map_or(none, |x| x.share);
    }
    match metric {
        "draws" => r.draws,
        "coverage" => r.coverage,
        "lead changes" => r.lead_changes,
        "plies" => r.plies.mean,
        "branching" => r.branching,
        _ => none,
    }
}
