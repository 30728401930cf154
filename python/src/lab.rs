//! The lab for Python: a study prepared as `libro evaluate` prepares it, its shards played
//! (each a Ray task, or in this process) as JSON rows, and the rows merged into the report
//! `libro evaluate` prints. `libro.lab` (Python) drives these.

use libro_lab::{GameRow, Report, RunPlan, Shard, Study};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn lab_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn study_of(json: &str) -> PyResult<Study> {
    serde_json::from_str(json).map_err(|e| lab_error(format!("not a study: {e}")))
}

/// Prepares a study as `libro evaluate` does (seat names, stamp, board); returns it as JSON.
#[pyfunction]
#[pyo3(signature = (ruleset, players, games, seed, vary, options, max_plies, opening_moves))]
#[allow(clippy::too_many_arguments)]
fn lab_prepare(
    ruleset: String,
    players: Vec<String>,
    games: u32,
    seed: u64,
    vary: Vec<String>,
    options: Vec<String>,
    max_plies: u32,
    opening_moves: u32,
) -> PyResult<String> {
    let options = libro_registry::parse_overrides(&options).map_err(lab_error)?;
    let vary = vary
        .iter()
        .map(|v| libro_lab::parse_vary(v))
        .collect::<Result<Vec<_>, _>>()
        .map_err(lab_error)?;
    let study = libro_lab::prepare(Study {
        ruleset,
        seats: Vec::new(),
        options,
        vary,
        players,
        games,
        seed,
        max_plies,
        opening_moves,
        stamp: Default::default(),
        board: Default::default(),
    })
    .map_err(lab_error)?;
    serde_json::to_string(&study).map_err(lab_error)
}

/// Plays shard `part`/`parts` of a prepared study on `threads` threads (without the GIL);
/// returns its games as JSON rows.
#[pyfunction]
#[pyo3(signature = (study, part, parts, threads = None))]
fn lab_run_shard(
    py: Python<'_>,
    study: &str,
    part: u32,
    parts: u32,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let study = study_of(study)?;
    let shard: Shard = format!("{part}/{parts}").parse().map_err(lab_error)?;
    let plan = RunPlan {
        threads: threads.unwrap_or_else(|| RunPlan::default().threads).max(1),
        shard,
        ..RunPlan::default()
    };
    let rows = py.detach(|| {
        let mut rows = Vec::new();
        libro_lab::run_study(&study, &plan, &mut |row| rows.push(row.clone())).map(|_| rows)
    });
    rows.map_err(lab_error)?
        .iter()
        .map(|r| serde_json::to_string(r).map_err(lab_error))
        .collect()
}

/// The report of a study from its games' JSON rows (any order, any shards): (the table
/// `libro evaluate` prints, the JSON `--json` writes, the CSV `--csv` writes).
#[pyfunction]
fn lab_report(study: &str, rows: Vec<String>) -> PyResult<(String, String, String)> {
    let study = study_of(study)?;
    let rows = rows
        .iter()
        .map(|r| serde_json::from_str::<GameRow>(r))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| lab_error(format!("not a game row: {e}")))?;
    let report = Report::new(&study, &rows);
    Ok((report.to_table(), report.to_json(), report.to_csv()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(lab_prepare, m)?)?;
    m.add_function(wrap_pyfunction!(lab_run_shard, m)?)?;
    m.add_function(wrap_pyfunction!(lab_report, m)?)?;
    Ok(())
}
