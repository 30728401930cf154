//! The report of a study: per reading, balance, draws, decisiveness, how games end, their
//! length and branching factor, stakes where the game has them, each with its 95% interval;
//! and the differences between readings that are significant, in plain words.

use crate::play::GameRow;
use crate::stats::{self, wilson, Estimate};
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
    /// The width, in plies, of each bin of the duration histograms (bin `i` holds games of
    /// `i·width ..= (i+1)·width − 1` plies).
    pub histogram_width: u32,
    pub readings: Vec<ReadingReport>,
    /// How many comparisons between readings were tested.
    pub comparisons: usize,
    /// The significant ones (Holm-corrected, family-wise 5%).
    pub findings: Vec<Finding>,
}

/// The figures of one reading.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReadingReport {
    pub key: String,
    pub varied: Vec<(String, String)>,
    pub games: u32,
    pub seats: Vec<SeatFigures>,
    /// Two seats: the first seat's score less one half.
    pub first_move_advantage: Option<Estimate>,
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
    pub p_value: f64,
    pub text: String,
}

/// The per-game samples of a reading, in index order.
struct Samples<'a> {
    reading: Reading,
    rows: Vec<&'a GameRow>,
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
        let samples: Vec<Samples> = study
            .readings()
            .into_iter()
            .map(|reading| {
                let mut rows = by_key.remove(reading.key.as_str()).unwrap_or_default();
                rows.sort_by_key(|r| r.index);
                rows.dedup_by_key(|r| r.index);
                Samples { reading, rows }
            })
            .collect();
        let longest = samples
            .iter()
            .flat_map(|s| s.rows.iter().map(|r| r.plies))
            .max()
            .unwrap_or(0);
        let width = (longest / HISTOGRAM_BINS + 1).max(1);
        let readings: Vec<ReadingReport> = samples
            .iter()
            .map(|s| reading_report(study, s, width))
            .collect();
        let (comparisons, findings) = compare(study, &samples, &readings);
        Report {
            ruleset: study.ruleset.clone(),
            seats: study.seats.clone(),
            players: study.players.clone(),
            seed: study.seed,
            games_per_reading: study.games,
            histogram_width: width,
            readings,
            comparisons,
            findings,
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
                    .map_or(wilson(0, u64::from(r.games)), |x| x.share);
                est(format!("end_{reason}"), &share);
            }
            est("plies_mean".into(), &r.plies.mean);
            est("branching".into(), &r.branching);
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
        if self.seats.len() == 2 {
            rows.push((
                "first-move advantage".into(),
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
            "{} — {} — {} games per reading, seed {}\n",
            self.ruleset,
            self.players.join(" / "),
            self.games_per_reading,
            self.seed
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
        if self.readings.len() > 1 {
            out.push('\n');
            if self.findings.is_empty() {
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
            score: stats::mean(&s.values(|r| f64::from(r.scores[i]))),
            wins: wilson(s.count(|r| r.winner == Some(i as u8)), n),
        })
        .collect();
    let first_move_advantage = (seats == 2).then(|| {
        let e = seat_figures[0].score;
        Estimate {
            value: e.value - 0.5,
            low: e.low - 0.5,
            high: e.high - 0.5,
        }
    });
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
    ReadingReport {
        key: s.reading.key.clone(),
        varied: s.reading.varied.clone(),
        games: n as u32,
        seats: seat_figures,
        first_move_advantage,
        draws: wilson(s.count(|r| r.winner.is_none()), n),
        decisive: wilson(
            s.count(|r| DECISIVE_REASONS.contains(&r.reason.as_str()) && !r.capped),
            n,
        ),
        end_reasons: reasons
            .into_iter()
            .map(|(reason, k)| ReasonShare {
                reason: reason.to_string(),
                games: k as u32,
                share: wilson(k, n),
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

/// One tested difference, before the correction.
struct Test {
    option: String,
    metric: String,
    a: usize,
    b: usize,
    a_value: Estimate,
    b_value: Estimate,
    p: f64,
    /// `(subject, how a figure is written)`: "White scores", percent.
    subject: String,
    percent: bool,
}

/// Compares every two readings that differ in exactly one varied option, on each seat's
/// score (the first seat only when there are two), draws, each end reason, length,
/// branching and stake balances; keeps the differences significant after Holm's
/// correction over all the tests.
fn compare(study: &Study, samples: &[Samples], reports: &[ReadingReport]) -> (usize, Vec<Finding>) {
    let mut tests: Vec<Test> = Vec::new();
    let seats = study.seats.len();
    for a in 0..samples.len() {
        for b in a + 1..samples.len() {
            let (ra, rb) = (&samples[a].reading, &samples[b].reading);
            let differing: Vec<usize> = (0..ra.varied.len())
                .filter(|&i| ra.varied[i] != rb.varied[i])
                .collect();
            let [option] = differing[..] else { continue };
            let option = ra.varied[option].0.clone();
            let (sa, sb) = (&samples[a], &samples[b]);
            let (pa, pb) = (&reports[a], &reports[b]);
            let mut push = |metric: String, subject: String, percent: bool, ea, eb, p| {
                tests.push(Test {
                    option: option.clone(),
                    metric,
                    a,
                    b,
                    a_value: ea,
                    b_value: eb,
                    p,
                    subject,
                    percent,
                })
            };
            for i in 0..if seats == 2 { 1 } else { seats } {
                let f = |r: &GameRow| f64::from(r.scores[i]);
                push(
                    format!("{} score", study.seats[i]),
                    format!("{} scores", seat_title(&study.seats[i])),
                    true,
                    pa.seats[i].score,
                    pb.seats[i].score,
                    stats::two_means_p(&sa.values(f), &sb.values(f)),
                );
            }
            let draws = |s: &Samples| s.count(|r| r.winner.is_none());
            push(
                "draws".into(),
                "games are drawn".into(),
                true,
                pa.draws,
                pb.draws,
                stats::two_proportions_p(draws(sa), sa.n(), draws(sb), sb.n()),
            );
            let mut reasons: Vec<&str> = pa
                .end_reasons
                .iter()
                .chain(&pb.end_reasons)
                .map(|x| x.reason.as_str())
                .collect();
            reasons.sort();
            reasons.dedup();
            for reason in reasons {
                let k = |s: &Samples| s.count(|r| r.reason == reason);
                push(
                    format!("end: {reason}"),
                    format!("{reason} ends"),
                    true,
                    wilson(k(sa), sa.n()),
                    wilson(k(sb), sb.n()),
                    stats::two_proportions_p(k(sa), sa.n(), k(sb), sb.n()),
                );
            }
            let plies = |r: &GameRow| f64::from(r.plies);
            push(
                "plies".into(),
                "games last".into(),
                false,
                pa.plies.mean,
                pb.plies.mean,
                stats::two_means_p(&sa.values(plies), &sb.values(plies)),
            );
            push(
                "branching".into(),
                "a seat to move has, on average,".into(),
                false,
                pa.branching,
                pb.branching,
                stats::two_means_p(&sa.values(branching_of), &sb.values(branching_of)),
            );
            if let (Some(xa), Some(xb)) = (&pa.stakes, &pb.stakes) {
                for i in 0..seats {
                    let f = |r: &GameRow| r.balances.as_ref().map_or(0.0, |b| b[i]);
                    push(
                        format!("{} balance", study.seats[i]),
                        format!("{}'s balance is", seat_title(&study.seats[i])),
                        false,
                        xa[i].balance,
                        xb[i].balance,
                        stats::two_means_p(&sa.values(f), &sb.values(f)),
                    );
                }
            }
        }
    }
    let significant = stats::holm(&tests.iter().map(|t| t.p).collect::<Vec<_>>(), 0.05);
    let findings = tests
        .iter()
        .zip(significant)
        .filter(|(_, s)| *s)
        .map(|(t, _)| {
            let fig = |e: &Estimate| {
                if t.percent {
                    format!("{:.1}% ± {:.1}", 100.0 * e.value, 100.0 * e.margin())
                } else {
                    format!("{:.1} ± {:.1}", e.value, e.margin())
                }
            };
            let unit = match t.metric.as_str() {
                "plies" => " plies",
                "branching" => " legal moves",
                _ if t.metric.starts_with("end: ") => " of games",
                _ => "",
            };
            let (ra, rb) = (&samples[t.a].reading, &samples[t.b].reading);
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
                a: ra.key.clone(),
                b: rb.key.clone(),
                a_value: t.a_value,
                b_value: t.b_value,
                p_value: t.p,
                text: format!(
                    "with {} {} {}{unit}, against {} with {}{context} ({})",
                    value(ra),
                    t.subject,
                    fig(&t.a_value),
                    fig(&t.b_value),
                    value(rb),
                    if t.p < 1e-4 {
                        "p < 0.0001".to_string()
                    } else {
                        format!("p = {:.4}", t.p)
                    }
                ),
            }
        })
        .collect();
    (tests.len(), findings)
}
