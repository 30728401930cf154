//! The lab on a toy game whose figures are known by hand (one-pile Nim, see common/mod.rs):
//! the figures, determinism across threads and shards, resuming, the ply cap, stakes.

mod common;

use common::{nim_ledger, play, sorted, study, Nim, NimGame};
use libro_lab::{ChartText, Report, ResultsFile, RunPlan, Shard};
use std::collections::HashSet;
use std::sync::Arc;

fn plan(threads: usize) -> RunPlan {
    RunPlan {
        threads,
        ..RunPlan::default()
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("libro-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn figures_match_the_hand_worked_game() {
    let s = study("1,4,5", 3000, 7);
    let rows = play(&s, &plan(2));
    assert_eq!(rows.len(), 9000);
    let report = Report::new(&s, &rows);
    let [one, four, five] = &report.readings[..] else {
        panic!("three readings")
    };
    // A pile of 1: the first seat takes it. One ply, one legal move, no draw.
    assert_eq!(one.seats[0].score.value, 1.0);
    assert_eq!((one.plies.mean.value, one.plies.median), (1.0, 1.0));
    assert_eq!(one.branching.value, 1.0);
    assert_eq!(one.draws.value, 0.0);
    assert_eq!(one.decisive.value, 1.0);
    assert_eq!(one.end_reasons[0].reason, "bore-off");
    // Piles of 4 and 5: the first seat wins with probability 1/3 and 5/9 (by hand); the
    // 95% intervals hold them.
    for (r, p) in [(four, 1.0 / 3.0), (five, 5.0 / 9.0)] {
        let (score, wins) = (r.seats[0].score, r.seats[0].wins);
        assert!(score.low < p && p < score.high, "{} {score:?}", r.key);
        assert!(wins.low < p && p < wins.high, "{} {wins:?}", r.key);
        let fma = r.first_move_advantage.unwrap();
        assert!((fma.value - (score.value - 0.5)).abs() < 1e-12);
    }
    // A pile of 4 lasts 2 to 4 plies; 5 lasts 2 to 5.
    assert!(four.plies.min >= 2.0 && four.plies.max <= 4.0);
    assert!(five.plies.min >= 2.0 && five.plies.max <= 5.0);
    // Stakes: the balance is +1 for a win and −1 for a loss, so its mean is 2·score − 1.
    let st = five.stakes.as_ref().unwrap();
    assert!((st[0].balance.value - (2.0 * five.seats[0].score.value - 1.0)).abs() < 1e-9);
    assert!((st[0].paid.value - 1.0).abs() < 1e-12);
    assert!((st[0].won.value + st[1].won.value - 2.0).abs() < 1e-9);
    // Nim's games are few: the takes of at most 3 that add up to the pile. A pile of 4 has 7
    // (1+3, 3+1, 2+2, 1+1+2, 1+2+1, 2+1+1, 1+1+1+1), a pile of 5 has 13 (3 of three parts
    // with a 3, 3 with two 2s, 4 of four parts, 2+3 and 3+2, 1 of five parts). The figures
    // count all 3000 games (each a random draw); comparisons see each distinct game once, so
    // 7 against 13 games cannot tell a third from five ninths, and say nothing.
    assert_eq!((one.distinct, four.distinct, five.distinct), (1, 7, 13));
    assert!(!report
        .findings
        .iter()
        .any(|f| f.metric == "first score" && f.a == "pile=4" && f.b == "pile=5"));
    assert!(report
        .warnings
        .iter()
        .any(|w| w.contains("only 7 of its 3000 games differ")));
    let table = report.to_table();
    assert!(
        table.contains("First score") && table.contains("pile=4"),
        "{table}"
    );
    // CSV: a header and one line per reading, the reading's key quoted (it has no comma
    // here, so not quoted), options in their own column.
    let csv = report.to_csv();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(
        lines[0].starts_with("reading,option_pile,games,distinct,first_score,"),
        "{}",
        lines[0]
    );
    assert!(lines[2].starts_with("pile=4,4,3000,7,"), "{}", lines[2]);
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["readings"][2]["games"], 3000);
}

#[test]
fn same_seed_same_games_whatever_the_threads_and_shards() {
    let s = study("3,6", 200, 11);
    let one = sorted(play(&s, &plan(1)));
    let three = sorted(play(&s, &plan(3)));
    assert_eq!(one, three);
    let other_seed = sorted(play(&study("3,6", 200, 12), &plan(1)));
    assert_ne!(one, other_seed);
    // Three shards, each to its own results file, merged: the report of one run.
    let paths: Vec<_> = (0..3)
        .map(|i| {
            let path = temp(&format!("shard{i}.jsonl"));
            let (mut file, done) = ResultsFile::open(&path, &s).unwrap();
            assert!(done.is_empty());
            let p = RunPlan {
                shard: Shard { part: i, parts: 3 },
                ..plan(2)
            };
            for row in play(&s, &p) {
                assert_eq!(row.index % 3, i);
                file.append(&row).unwrap();
            }
            path
        })
        .collect();
    let (merged_study, merged) = libro_lab::merge(&paths).unwrap();
    assert_eq!(merged, one);
    assert_eq!(
        Report::new(&merged_study, &merged).to_json(),
        Report::new(&s, &one).to_json()
    );
    // A file of another study does not merge.
    let stranger = temp("stranger.jsonl");
    ResultsFile::open(&stranger, &study("3,6", 200, 99)).unwrap();
    let err = libro_lab::merge(&[paths[0].clone(), stranger]).unwrap_err();
    assert!(err.to_string().contains("another study"), "{err}");
}

#[test]
fn a_stopped_run_continues_where_it_stopped() {
    let s = study("4,7", 120, 3);
    let whole = sorted(play(&s, &plan(2)));
    let path = temp("resume.jsonl");
    // A first run stopped after 50 games of each reading (as a run with fewer games).
    let first = libro_lab::Study {
        games: 50,
        ..s.clone()
    };
    let (mut file, _) = ResultsFile::open(&path, &first).unwrap();
    for row in play(&first, &plan(2)) {
        file.append(&row).unwrap();
    }
    drop(file);
    // ...cut off in the middle of writing a line.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(r#"{"game":{"reading":"pile=4","ind"#);
    std::fs::write(&path, text).unwrap();
    // Continuing: the 100 finished games are read back and skipped, the rest played.
    let (mut file, done) = ResultsFile::open(&path, &s).unwrap();
    assert_eq!(done.len(), 100);
    let p = RunPlan {
        done: done.iter().map(|r| (r.reading.clone(), r.index)).collect(),
        ..plan(2)
    };
    assert_eq!(libro_lab::pending(&s, &p).len(), 140);
    let new = play(&s, &p);
    assert_eq!(new.len(), 140);
    assert!(new.iter().all(|r| r.index >= 50));
    for row in &new {
        file.append(row).unwrap();
    }
    file.flush().unwrap();
    let (_, all) = libro_lab::read(&path).unwrap();
    assert_eq!(sorted(all), whole);
    // A study with another seed refuses the file.
    assert!(ResultsFile::open(&path, &study("4,7", 120, 4)).is_err());
}

#[test]
fn games_cut_by_the_ply_cap_count_as_move_limit_draws() {
    let s = libro_lab::Study {
        max_plies: 2,
        ..study("8", 100, 5)
    };
    // Eight counters cannot all go in two plies of at most three.
    let rows = play(&s, &plan(1));
    assert!(rows
        .iter()
        .all(|r| r.capped && r.reason == "move-limit" && r.plies == 2));
    let report = Report::new(&s, &rows);
    let r = &report.readings[0];
    assert_eq!((r.capped, r.draws.value, r.decisive.value), (100, 1.0, 0.0));
    assert_eq!(r.seats[0].score.value, 0.5);
    assert_eq!(r.end_reasons[0].reason, "move-limit");
    assert!(r.stakes.is_none(), "no ledger for unfinished games");
}

#[test]
fn charts_are_written() {
    let s = study("4,5", 200, 1);
    let report = Report::new(&s, &play(&s, &plan(2)));
    let dir = temp("charts");
    let files = libro_lab::write_charts(&report, &dir).unwrap();
    assert_eq!(
        files.len(),
        4,
        "outcomes, end reasons, durations and the heatmap"
    );
    for f in files {
        let svg = std::fs::read_to_string(&f).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("<rect"),
            "{}",
            f.display()
        );
        assert!(svg.contains("pile=4"), "{}", f.display());
    }
}

#[test]
fn charts_as_text_are_the_charts_written() {
    let s = study("4,5", 50, 2);
    let report = Report::new(&s, &play(&s, &plan(2)));
    let charts = libro_lab::render_charts(&report, &ChartText::default()).unwrap();
    let names: Vec<&str> = charts.iter().map(|c| c.name).collect();
    assert_eq!(names, ["outcomes", "end-reasons", "durations", "heatmap"]);
    let dir = temp("charts-text");
    let files = libro_lab::write_charts(&report, &dir).unwrap();
    for (chart, file) in charts.iter().zip(&files) {
        assert!(chart.svg.starts_with("<svg") && chart.svg.contains("pile=5"));
        assert_eq!(
            std::fs::read_to_string(file).unwrap(),
            chart.svg,
            "{}",
            file.display()
        );
    }
}

#[test]
fn chart_text_is_the_text_in_the_charts() {
    let s = study("4,5", 50, 2);
    let report = Report::new(&s, &play(&s, &plan(2)));
    let english = libro_lab::render_charts(&report, &ChartText::default()).unwrap();
    assert!(english[0].svg.contains("first wins") && english[0].svg.contains("pile=4 (50 games)"));
    let text = ChartText {
        outcomes: "Resultados".into(),
        end_reasons: "Finales".into(),
        durations: "Duración".into(),
        heatmap: "Dónde caen".into(),
        wins: "ganan {seat}".into(),
        no_single_winner: "sin ganador único".into(),
        share_axis: "% de las partidas".into(),
        plies_axis: "medias jugadas".into(),
        reading: "{reading} ({games} partidas)".into(),
        as_set: "como está".into(),
        darkest: "máximo {value}".into(),
        cell: "casilla {cell}: {value}".into(),
        seats: [("first".to_string(), "primeras".to_string())].into(),
        reasons: [("bore-off".to_string(), "sacó todas".to_string())].into(),
    };
    let charts = libro_lab::render_charts(&report, &text).unwrap();
    let svg = |name: &str| {
        let chart = charts.iter().find(|c| c.name == name).unwrap();
        (chart.title.as_str(), chart.svg.as_str())
    };
    let (title, outcomes) = svg("outcomes");
    assert_eq!(title, "Resultados");
    for words in [
        "Resultados",
        "ganan primeras",
        "ganan second",
        "sin ganador único",
        "% de las partidas",
        "pile=4 (50 partidas)",
    ] {
        assert!(outcomes.contains(words), "{words} in {outcomes}");
    }
    let (_, ends) = svg("end-reasons");
    assert!(
        ends.contains("Finales") && ends.contains("sacó todas"),
        "{ends}"
    );
    let (_, durations) = svg("durations");
    assert!(
        durations.contains("Duración") && durations.contains("medias jugadas"),
        "{durations}"
    );
    let (_, heat) = svg("heatmap");
    assert!(
        heat.contains("Dónde caen")
            && heat.contains("máximo ")
            && heat.contains("<title>casilla 0: "),
        "{heat}"
    );
    for chart in &charts {
        for english in [
            "games)",
            " wins",
            "no single winner",
            "% of games",
            "darkest",
            "<title>cell",
        ] {
            assert!(!chart.svg.contains(english), "{english} in {}", chart.name);
        }
    }
}

#[test]
fn players_that_need_a_heuristic_are_refused_by_random_only_families() {
    let s = libro_lab::Study {
        players: vec!["greedy".into()],
        ..study("4", 10, 1)
    };
    let rules = vec![Nim::from_overrides(&[])];
    let err = libro_lab::run(
        &s,
        &rules,
        &plan(1),
        &libro_lab::random_mover::<NimGame>,
        nim_ledger,
        &mut |_| {},
    )
    .unwrap_err();
    assert!(err.to_string().contains("random"), "{err}");
    // The greedy player plays Nim through libro-ai: it always finishes its games.
    let rows = common::play(&s, &plan(1));
    assert_eq!(rows.len(), 10);
    let _ = Arc::clone(&rules[0]);
    let done: HashSet<_> = rows.iter().map(|r| r.index).collect();
    assert_eq!(done.len(), 10);
}

#[test]
fn random_openings_vary_the_games_of_deterministic_players() {
    // Perfect play from a pile of 5: the first seat takes 1, leaving 4 (a lost pile for the
    // seat to move: every reply leaves 1 to 3 counters, which it takes). So ai:5 wins every
    // game as the first seat, the same game each time.
    let s = libro_lab::Study {
        players: vec!["ai:5".into()],
        ..study("5", 60, 1)
    };
    let rows = play(&s, &plan(2));
    assert!(
        rows.iter().all(|r| r.winner == Some(0) && r.plies == 3),
        "{rows:?}"
    );
    // With the first move random, it takes 1 (then wins) a third of the time; taking 2 or 3
    // leaves 3 or 2, which the second seat takes at once.
    let s = libro_lab::Study {
        opening_moves: 1,
        ..s
    };
    let report = Report::new(&s, &play(&s, &plan(2)));
    let score = report.readings[0].seats[0].score;
    assert!(score.low < 1.0 / 3.0 && 1.0 / 3.0 < score.high, "{score:?}");
}

#[test]
fn census_figures_match_the_hand_worked_game() {
    // Every game ends with the seat to move taking the last counter: one landing on cell 0
    // (an empty pile) and one "capture" per game, whatever the pile. A pile of 1 is one move
    // landing on 0 and nowhere else: 1 cell of the 16.
    let s = study("1,4", 300, 9);
    let report = Report::new(&s, &play(&s, &plan(2)));
    assert_eq!(report.grid, (16, 1));
    for r in &report.readings {
        assert_eq!(r.heatmap[0], 1.0, "{}", r.key);
        let hand = &r.pieces[0];
        assert_eq!(
            hand.piece, "piece 1",
            "unprepared toy studies have no piece names"
        );
        assert_eq!(hand.captures.value, 1.0);
        // Every ply is a take by the hand.
        assert!((hand.moves.value - r.plies.mean.value).abs() < 1e-9);
        assert_eq!(hand.share, 1.0);
        // Nim has no material: no seat ever leads.
        assert_eq!(r.lead_changes.value, 0.0);
    }
    assert_eq!(report.readings[0].coverage.value, 1.0 / 16.0);
    // From 4 a game lands on 0 and on one to three of 1..3: more of the board.
    assert!(report.readings[1].coverage.value > 2.0 / 16.0);
    let text = report.to_table();
    assert!(
        text.contains("board coverage") && text.contains("piece 1: moves / captures"),
        "{text}"
    );
}
