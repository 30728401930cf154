//! SVG charts of a report, drawn with plotters: outcomes by reading (each seat's wins and
//! the draws), how games end by reading, and the distribution of game lengths.

use crate::report::Report;
use crate::study;
use crate::LabError;
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::error::Error;
use std::path::{Path, PathBuf};

/// The colours of the segments, in order.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0xd9, 0xc8, 0x9e),
    RGBColor(0x4a, 0x3b, 0x2a),
    RGBColor(0x2e, 0x7d, 0x32),
    RGBColor(0xb7, 0x1c, 0x1c),
    RGBColor(0x90, 0x90, 0x90),
    RGBColor(0x15, 0x65, 0xc0),
    RGBColor(0xef, 0x6c, 0x00),
    RGBColor(0x6a, 0x1b, 0x9a),
    RGBColor(0x00, 0x83, 0x8f),
    RGBColor(0x82, 0x77, 0x17),
];

type Drawn = Result<(), Box<dyn Error>>;

/// The words written inside the charts, in one language: English by default (`libro
/// evaluate`'s chart files); the web app builds its other languages from its catalogues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartText {
    /// The titles of the outcomes, end-reasons, durations and heatmap charts.
    pub outcomes: String,
    pub end_reasons: String,
    pub durations: String,
    pub heatmap: String,
    /// A seat's wins in the outcomes legend: `{seat}` is the seat's name.
    pub wins: String,
    /// The outcomes legend's games that no one seat won (draws, shared ranks).
    pub no_single_winner: String,
    /// The axis of shares of games, and the axis of game lengths.
    pub share_axis: String,
    pub plies_axis: String,
    /// A reading's label: `{reading}` is its key (or `as_set`), `{games}` its game count.
    pub reading: String,
    /// The key of the reading that varies nothing.
    pub as_set: String,
    /// The heatmap's darkest shade in its title: `{value}` landings per game.
    pub darkest: String,
    /// A heatmap cell's tooltip: `{cell}` its index, `{value}` its landings per game.
    pub cell: String,
    /// Seat names and end reasons by the rules' own words; a word not here is shown as is.
    pub seats: BTreeMap<String, String>,
    pub reasons: BTreeMap<String, String>,
}

impl Default for ChartText {
    fn default() -> ChartText {
        ChartText {
            outcomes: "Outcomes by reading".into(),
            end_reasons: "How games end, by reading".into(),
            durations: "Game length in plies".into(),
            heatmap: "Where pieces land, per game".into(),
            wins: "{seat} wins".into(),
            no_single_winner: "no single winner".into(),
            share_axis: "% of games".into(),
            plies_axis: "plies".into(),
            reading: "{reading} ({games} games)".into(),
            as_set: study::label("").into(),
            darkest: "darkest {value}".into(),
            cell: "cell {cell}: {value}".into(),
            seats: BTreeMap::new(),
            reasons: BTreeMap::new(),
        }
    }
}

impl ChartText {
    /// A seat's name in the charts' language.
    fn seat<'a>(&'a self, seat: &'a str) -> &'a str {
        self.seats.get(seat).map_or(seat, String::as_str)
    }

    /// An end reason in the charts' language.
    fn reason<'a>(&'a self, reason: &'a str) -> &'a str {
        self.reasons.get(reason).map_or(reason, String::as_str)
    }

    /// A reading's label with its game count.
    fn reading_label(&self, key: &str, games: u32) -> String {
        let reading = if key.is_empty() { &self.as_set } else { key };
        self.reading
            .replace("{reading}", reading)
            .replace("{games}", &games.to_string())
    }
}

/// One chart of a report as SVG text.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Chart {
    /// The file stem it is written under (`outcomes`, `end-reasons`, `durations`).
    pub name: &'static str,
    /// What it shows, in the language of the [`ChartText`] it was drawn with.
    pub title: String,
    /// The SVG document.
    pub svg: String,
}

/// Draws the charts of `report` as SVG text, their words from `text`: outcomes by reading,
/// how games end by reading, and the distribution of game lengths (the one code path behind
/// [`write_charts`] and the web app's Lab page).
pub fn render_charts(report: &Report, text: &ChartText) -> Result<Vec<Chart>, LabError> {
    let fail = |name: &str, e: Box<dyn Error>| LabError::Chart(name.to_string(), e.to_string());
    let mut segments: Vec<(String, Vec<f64>)> = report
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            (
                text.wins.replace("{seat}", text.seat(seat)),
                report
                    .readings
                    .iter()
                    .map(|r| r.seats[i].wins.value)
                    .collect(),
            )
        })
        .collect();
    segments.push((
        text.no_single_winner.clone(),
        report.readings.iter().map(|r| r.draws.value).collect(),
    ));
    let mut outcomes = String::new();
    stacked_bars(report, text, &mut outcomes, &text.outcomes, &segments)
        .map_err(|e| fail("outcomes", e))?;
    let segments: Vec<(String, Vec<f64>)> = report
        .all_reasons()
        .into_iter()
        .map(|reason| {
            let shares = report
                .readings
                .iter()
                .map(|r| {
                    r.end_reasons
                        .iter()
                        .find(|x| x.reason == reason)
                        .map_or(0.0, |x| x.share.value)
                })
                .collect();
            (text.reason(&reason).to_string(), shares)
        })
        .collect();
    let mut reasons = String::new();
    stacked_bars(report, text, &mut reasons, &text.end_reasons, &segments)
        .map_err(|e| fail("end-reasons", e))?;
    let mut durations = String::new();
    histograms(report, text, &mut durations).map_err(|e| fail("durations", e))?;
    let (outcomes, reasons, durations) = (
        stamped(report, outcomes),
        stamped(report, reasons),
        stamped(report, durations),
    );
    let heat = report
        .readings
        .iter()
        .any(|r| !r.heatmap.is_empty())
        .then(|| Chart {
            name: "heatmap",
            title: text.heatmap.clone(),
            svg: stamped(report, heatmap(report, text)),
        });
    Ok([
        Chart {
            name: "outcomes",
            title: text.outcomes.clone(),
            svg: outcomes,
        },
        Chart {
            name: "end-reasons",
            title: text.end_reasons.clone(),
            svg: reasons,
        },
        Chart {
            name: "durations",
            title: text.durations.clone(),
            svg: durations,
        },
    ]
    .into_iter()
    .chain(heat)
    .collect())
}

/// One board per reading, each cell shaded by the landings on it per game (the darkest is the
/// busiest cell of any reading), the first rank at the foot; every cell names its count.
fn heatmap(report: &Report, text: &ChartText) -> String {
    let (columns, rows) = (
        usize::from(report.grid.0.max(1)),
        usize::from(report.grid.1.max(1)),
    );
    let cell = (240 / columns.max(rows)).clamp(8, 30);
    let (board_w, board_h) = (cell * columns, cell * rows);
    let panel_w = board_w.max(160) + 20;
    let per_row = (900 / panel_w).max(1);
    let panels = report.readings.len();
    let lines = panels.div_ceil(per_row);
    let (width, height) = (
        panel_w * per_row.min(panels),
        30 + lines * (board_h + 40) + 14,
    );
    let busiest = report
        .readings
        .iter()
        .flat_map(|r| r.heatmap.iter().copied())
        .fold(0.0f64, f64::max)
        .max(1e-9);
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut out = format!(
        "<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>\n\
         <text x=\"6\" y=\"18\" font-size=\"14\" font-family=\"sans-serif\">{} — {} ({})</text>\n",
        escape(&text.heatmap),
        escape(&report.ruleset),
        escape(&text.darkest.replace("{value}", &format!("{busiest:.2}")))
    );
    for (i, r) in report.readings.iter().enumerate() {
        let (x0, y0) = (
            (i % per_row) * panel_w + 10,
            30 + (i / per_row) * (board_h + 40),
        );
        out.push_str(&format!(
            "<text x=\"{x0}\" y=\"{}\" font-size=\"11\" font-family=\"sans-serif\">{}</text>\n",
            y0 + 12,
            escape(&text.reading_label(&r.key, r.games)),
        ));
        for (c, &v) in r.heatmap.iter().enumerate() {
            let (col, row) = (c % columns, c / columns);
            let x = x0 + col * cell;
            let y = y0 + 18 + (rows - 1 - row.min(rows - 1)) * cell;
            let t = (v / busiest).clamp(0.0, 1.0);
            let shade = |light: f64, dark: f64| (light + (dark - light) * t).round() as u8;
            let tip = text
                .cell
                .replace("{cell}", &c.to_string())
                .replace("{value}", &format!("{v:.2}"));
            out.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{cell}\" height=\"{cell}\" fill=\"#{:02x}{:02x}{:02x}\" stroke=\"#d9c6a0\" stroke-width=\"0.5\"><title>{}</title></rect>\n",
                shade(255.0, 138.0),
                shade(252.0, 50.0),
                shade(245.0, 0.0),
                escape(&tip),
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Writes `outcomes.svg`, `end-reasons.svg` and `durations.svg` into `dir` (created if
/// need be), in English, returning their paths.
pub fn write_charts(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, LabError> {
    std::fs::create_dir_all(dir).map_err(|e| LabError::Io(dir.display().to_string(), e))?;
    render_charts(report, &ChartText::default())?
        .into_iter()
        .map(|chart| {
            let path = dir.join(format!("{}.svg", chart.name));
            std::fs::write(&path, chart.svg)
                .map_err(|e| LabError::Io(path.display().to_string(), e))?;
            Ok(path)
        })
        .collect()
}

/// The chart with the report's stamp and study in its `<desc>` and the stamp in small print
/// along its foot, so that a chart copied out of its report still says what made it.
fn stamped(report: &Report, svg: String) -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let stamp = escape(&report.stamp.to_string());
    let study = escape(&serde_json::to_string(&report.study).unwrap_or_default());
    let Some(open_end) = svg
        .find("<svg")
        .and_then(|i| svg[i..].find('>').map(|j| i + j + 1))
    else {
        return svg;
    };
    let height = svg[..open_end]
        .split("height=\"")
        .nth(1)
        .and_then(|h| h.split('"').next())
        .and_then(|h| h.parse::<u32>().ok())
        .unwrap_or(0);
    let mut out = String::with_capacity(svg.len() + stamp.len() + study.len() + 200);
    out.push_str(&svg[..open_end]);
    out.push_str(&format!("\n<desc>{stamp}; study {study}</desc>"));
    out.push_str(&svg[open_end..]);
    if let Some(close) = out.rfind("</svg>") {
        out.insert_str(
            close,
            &format!(
                "<text x=\"4\" y=\"{}\" font-size=\"9\" font-family=\"sans-serif\" fill=\"#777\">{stamp}</text>\n",
                height.saturating_sub(3)
            ),
        );
    }
    out
}

fn labels(report: &Report, text: &ChartText) -> Vec<String> {
    report
        .readings
        .iter()
        .map(|r| text.reading_label(&r.key, r.games))
        .collect()
}

/// One horizontal bar per reading, split into `segments` (shares summing to at most 1).
fn stacked_bars(
    report: &Report,
    text: &ChartText,
    out: &mut String,
    title: &str,
    segments: &[(String, Vec<f64>)],
) -> Drawn {
    let names = labels(report, text);
    let n = names.len().max(1);
    let label_width = names.iter().map(|l| l.chars().count()).max().unwrap_or(10) as u32 * 7 + 20;
    let root =
        SVGBackend::with_string(out, (label_width + 700, 120 + 40 * n as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "{title} — {}, {}",
                report.ruleset,
                report.players.join(" / ")
            ),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(label_width)
        .build_cartesian_2d(0f64..100f64, 0f64..n as f64)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(text.share_axis.as_str())
        .y_labels(n * 2 + 1)
        .y_label_formatter(&|y| {
            let i = (*y - 0.5).round();
            if (y - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        })
        .draw()?;
    let mut start = vec![0f64; names.len()];
    for (k, (name, shares)) in segments.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let bars: Vec<Rectangle<(f64, f64)>> = shares
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let x0 = start[i];
                start[i] += 100.0 * s;
                Rectangle::new(
                    [(x0, i as f64 + 0.2), (start[i], i as f64 + 0.8)],
                    colour.filled(),
                )
            })
            .collect();
        chart
            .draw_series(bars)?
            .label(name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// One histogram of game lengths per reading, stacked vertically on a common ply axis.
fn histograms(report: &Report, text: &ChartText, out: &mut String) -> Drawn {
    let names = labels(report, text);
    let n = names.len().max(1);
    let root = SVGBackend::with_string(out, (900, 60 + 180 * n as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(
        &format!(
            "{} — {}, {}",
            text.durations,
            report.ruleset,
            report.players.join(" / ")
        ),
        ("sans-serif", 18),
    )?;
    let width = f64::from(report.histogram_width);
    let x_max = width * f64::from(crate::report::HISTOGRAM_BINS);
    for (i, area) in root.split_evenly((n, 1)).iter().enumerate() {
        let Some(r) = report.readings.get(i) else {
            break;
        };
        let games = f64::from(r.games.max(1));
        let top = r
            .plies
            .histogram
            .iter()
            .map(|&c| 100.0 * f64::from(c) / games)
            .fold(1.0, f64::max);
        let mut chart = ChartBuilder::on(area)
            .caption(&names[i], ("sans-serif", 14))
            .margin(8)
            .x_label_area_size(28)
            .y_label_area_size(50)
            .build_cartesian_2d(0f64..x_max, 0f64..top * 1.1)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc(text.share_axis.as_str())
            .x_desc(text.plies_axis.as_str())
            .draw()?;
        let colour = PALETTE[i % PALETTE.len()];
        chart.draw_series(r.plies.histogram.iter().enumerate().map(|(b, &c)| {
            let x0 = b as f64 * width;
            Rectangle::new(
                [(x0, 0.0), (x0 + width, 100.0 * f64::from(c) / games)],
                colour.filled(),
            )
        }))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(r.plies.median, 0.0), (r.plies.median, top * 1.1)],
            BLACK.stroke_width(2),
        )))?;
    }
    root.present()?;
    Ok(())
}
