//! With random players on the Ludii profiles, libro's figures agree with Ludii's own random
//! playouts (`tests/reference/ludii/*.jsonl`, read at test time): for every figure
//! compared, libro's 95% interval and Ludii's overlap. Games of Acedrex and Forçado run
//! 2500 plies and Cuatro Tiempos 5000, so those play few games here; larger runs are in
//! the ignored tests at the end and in the lab's report.

use libro_lab::stats::{self, clopper_pearson, Estimate};
use libro_lab::{Report, RunPlan, Study};
use serde_json::Value;

const LUDII: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/reference/ludii/");

/// Ludii's playouts of a game: (end reason in libro's words, winner seat or none, plies).
fn ludii(
    file: &str,
    reason_of: fn(&[u64]) -> &'static str,
) -> Vec<(&'static str, Option<u8>, f64)> {
    let text = std::fs::read_to_string(format!("{LUDII}{file}")).expect("the Ludii playouts");
    text.lines()
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let reason = match v["end_type"].as_str().unwrap() {
                "TurnLimit" => "move-limit",
                _ => {
                    let rules: Vec<u64> = v["end_rules_true"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_u64().unwrap())
                        .collect();
                    reason_of(&rules)
                }
            };
            let winner = match v["winner"].as_u64().unwrap() {
                0 => None,
                w => Some(w as u8 - 1),
            };
            (reason, winner, v["plies"].as_f64().unwrap())
        })
        .collect()
}

fn report(ruleset: &str, games: u32) -> Report {
    let study = libro_lab::prepare(Study {
        ruleset: ruleset.into(),
        seats: vec![],
        options: vec![],
        vary: vec![],
        players: vec!["random".into()],
        games,
        seed: 2026,
        max_plies: 100_000,
        opening_moves: 0,
        stamp: Default::default(),
        board: Default::default(),
    })
    .unwrap();
    let mut rows = Vec::new();
    libro_lab::run_study(&study, &RunPlan::default(), &mut |r| rows.push(r.clone())).unwrap();
    Report::new(&study, &rows)
}

fn overlap(what: &str, ours: Estimate, theirs: Estimate) {
    assert!(
        ours.low <= theirs.high && theirs.low <= ours.high,
        "{what}: libro {:.3} [{:.3}, {:.3}] against Ludii {:.3} [{:.3}, {:.3}]",
        ours.value,
        ours.low,
        ours.high,
        theirs.value,
        theirs.low,
        theirs.high
    );
}

fn share(report: &Report, reason: &str) -> Estimate {
    let r = &report.readings[0];
    r.end_reasons
        .iter()
        .find(|x| x.reason == reason)
        .map_or(clopper_pearson(0, u64::from(r.games)), |x| x.share)
}

fn ludii_share(games: &[(&str, Option<u8>, f64)], reason: &str) -> Estimate {
    clopper_pearson(
        games.iter().filter(|g| g.0 == reason).count() as u64,
        games.len() as u64,
    )
}

/// Compares the end reasons, the first seat's wins and the mean length.
fn agree(report: &Report, games: &[(&str, Option<u8>, f64)], reasons: &[&str]) {
    for reason in reasons {
        overlap(reason, share(report, reason), ludii_share(games, reason));
    }
    let r = &report.readings[0];
    let n = games.len() as u64;
    overlap(
        "first seat wins",
        r.seats[0].wins,
        clopper_pearson(games.iter().filter(|g| g.1 == Some(0)).count() as u64, n),
    );
    let plies: Vec<f64> = games.iter().map(|g| g.2).collect();
    overlap("plies", r.plies.mean, stats::mean(&plies));
}

fn short_assize_reason(rules: &[u64]) -> &'static str {
    // 0 checkmate, 1 no legal move (stalemate), 2 bare king; checkmate first when several.
    match rules.first() {
        Some(0) => "checkmate",
        Some(1) => "stalemate",
        Some(2) => "bare-king",
        _ => panic!("unknown Short Assize end {rules:?}"),
    }
}

#[test]
fn short_assize_is_decided_by_bare_king_in_almost_every_game() {
    let ludii = ludii("short-assize.jsonl", short_assize_reason);
    let report = report("short-assize-ludii", 200);
    assert!(share(&report, "bare-king").value > 0.85);
    agree(
        &report,
        &ludii,
        &["bare-king", "checkmate", "stalemate", "move-limit"],
    );
}

#[test]
fn acedrex_almost_always_reaches_the_move_limit() {
    let ludii = ludii("acedrex-alfonso.jsonl", |_| "checkmate");
    let report = report("acedrex-ludii", 24);
    assert!(share(&report, "move-limit").value > 0.8);
    agree(&report, &ludii, &["move-limit", "checkmate"]);
}

#[test]
fn forcado_reaches_the_move_limit() {
    // Ludii's end rule 0 is checkmate or stalemate (both wins): "decisive" here.
    let ludii = ludii("forcado.jsonl", |_| "checkmate");
    let report = report("forcado-ludii", 12);
    agree(&report, &ludii, &["move-limit"]);
}

#[test]
fn cuatro_tiempos_reaches_the_move_limit() {
    let ludii = ludii("acedrex-cuatro-tiempos.jsonl", |_| "elimination");
    let report = report("cuatro-tiempos-ludii", 6);
    overlap(
        "move-limit",
        share(&report, "move-limit"),
        ludii_share(&ludii, "move-limit"),
    );
    let plies: Vec<f64> = ludii.iter().map(|g| g.2).collect();
    // Both count the four opening bets as plies.
    overlap("plies", report.readings[0].plies.mean, stats::mean(&plies));
    assert!(
        report.readings[0].stakes.is_some(),
        "Cuatro Tiempos games carry stakes"
    );
}

#[test]
#[ignore = "about a minute: 500 games of each Ludii profile"]
fn ludii_profiles_at_scale() {
    let sa = ludii("short-assize.jsonl", short_assize_reason);
    agree(
        &report("short-assize-ludii", 2000),
        &sa,
        &["bare-king", "checkmate", "stalemate"],
    );
    let ac = ludii("acedrex-alfonso.jsonl", |_| "checkmate");
    agree(
        &report("acedrex-ludii", 500),
        &ac,
        &["move-limit", "checkmate"],
    );
}
