//! The checks a reviewer makes before citing the lab: games that repeat are counted once,
//! warned about and never compared; deterministic players give distinct games by default;
//! the first move's advantage is stated only where it means something; results carry the
//! libro version and a digest of the rules, and a changed ruleset cannot continue them.

mod common;

use common::{play, study};
use libro_lab::{Report, ResultsFile, RunPlan, Study, DEFAULT_OPENING_MOVES};

fn plan() -> RunPlan {
    RunPlan {
        threads: 2,
        ..RunPlan::default()
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("libro-honesty-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A prepared study of one shipped ruleset (or ruleset file) with one player in every seat.
fn shipped(
    ruleset: &str,
    player: &str,
    games: u32,
    seed: u64,
    max_plies: u32,
    opening_moves: u32,
) -> Study {
    libro_lab::prepare(Study {
        ruleset: ruleset.into(),
        seats: vec![],
        options: vec![],
        vary: vec![],
        players: vec![player.into()],
        games,
        seed,
        max_plies,
        opening_moves,
        stamp: Default::default(),
        board: Default::default(),
    })
    .unwrap()
}

#[test]
fn repeated_games_are_counted_once_warned_about_and_never_compared() {
    // Perfect play (ai:5) from one pile: 5 is a first-seat win (take 1, leave 4), 4 a
    // first-seat loss (every take leaves 1 to 3, which the second seat takes). With no
    // random opening every game of a reading is the same game: twenty copies of one game
    // once made "p < 0.0001" between the piles. One game is no sample.
    let s = Study {
        players: vec!["ai:5".into()],
        opening_moves: 0,
        ..study("5,4", 20, 3)
    };
    let report = Report::new(&s, &play(&s, &plan()));
    for r in &report.readings {
        assert_eq!((r.games, r.distinct), (20, 1), "{}", r.key);
        // One game: the score interval is wide, never the "100% ± 0%" of twenty copies.
        assert!(r.seats[0].score.margin() > 0.4, "{:?}", r.seats[0].score);
    }
    assert_eq!(report.comparisons, 0);
    assert!(report.findings.is_empty());
    let text = report.to_table();
    assert!(text.contains("only 1 of its 20 games differ"), "{text}");
    assert!(text.contains("No comparison between readings"), "{text}");
}

#[test]
fn deterministic_chess_players_give_distinct_games_by_default() {
    let s = shipped("acedrex", "ai:4", 6, 7, 600, DEFAULT_OPENING_MOVES);
    let mut rows = Vec::new();
    libro_lab::run_study(&s, &plan(), &mut |r| rows.push(r.clone())).unwrap();
    let report = Report::new(&s, &rows);
    assert_eq!(report.readings[0].distinct, 6, "{}", report.to_table());
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn first_move_advantage_only_with_one_player_in_both_seats() {
    // Random Nim players from a pile of 2: the first seat wins by taking both (half the
    // time) and loses by taking one, so the first move is worth nothing: 0 by hand.
    let same = study("2", 200, 5);
    let report = Report::new(&same, &play(&same, &plan()));
    let r = &report.readings[0];
    assert_eq!(r.first_mover.as_deref(), Some("first"));
    let fma = r.first_move_advantage.expect("one player in both seats");
    assert!(fma.covers(0.0), "{fma:?}");
    // Different players: the player would be measured, not the move.
    let mixed = Study {
        players: vec!["ai:5".into(), "random".into()],
        ..study("2", 20, 5)
    };
    let report = Report::new(&mixed, &play(&mixed, &plan()));
    assert!(report.readings[0].first_move_advantage.is_none());
    assert!(!report.to_table().contains("first-move advantage"));
}

#[test]
fn in_fallas_the_advantage_is_the_roll_off_winners() {
    let s = shipped("fallas", "random", 40, 1, 10_000, 0);
    let mut rows = Vec::new();
    libro_lab::run_study(&s, &plan(), &mut |r| rows.push(r.clone())).unwrap();
    // The roll-off gives each seat the first move in some of 40 games.
    let firsts: std::collections::HashSet<_> = rows.iter().map(|r| r.first).collect();
    assert_eq!(firsts.len(), 2, "{firsts:?}");
    let report = Report::new(&s, &rows);
    assert_eq!(
        report.readings[0].first_mover.as_deref(),
        Some("the roll-off winner")
    );
}

fn acedrex_study(path: &std::path::Path) -> Study {
    shipped(&path.display().to_string(), "random", 2, 1, 50, 0)
}

#[test]
fn a_changed_ruleset_cannot_continue_or_merge_with_old_results() {
    let dir = temp_dir("stamp");
    let rules = dir.join("acedrex.toml");
    let shipped = include_str!("../../../rulesets/acedrex.toml");
    std::fs::write(&rules, shipped).unwrap();
    let results = dir.join("results.jsonl");
    let first = acedrex_study(&rules);
    assert_eq!(first.stamp.libro, env!("CARGO_PKG_VERSION"));
    assert_eq!(first.stamp.rules.len(), 1);
    {
        let (mut file, _) = ResultsFile::open(&results, &first).unwrap();
        libro_lab::run_study(&first, &plan(), &mut |r| file.append(r).unwrap()).unwrap();
        file.flush().unwrap();
    }
    // The same rules written otherwise (a comment, other spacing, another title): the same
    // digest, and the file continues.
    let rewritten = format!(
        "# the same rules, reformatted\n{}",
        shipped.replace("no_progress_plies   = {", "no_progress_plies = {")
    );
    std::fs::write(&rules, &rewritten).unwrap();
    let same = acedrex_study(&rules);
    assert_eq!(same.stamp, first.stamp);
    let (_, rows) = ResultsFile::open(&results, &same).unwrap();
    assert_eq!(rows.len(), 2);
    // A rule changed: refused, saying what changed and how to start over.
    let changed = shipped.replace("value = 100, from", "value = 80, from");
    assert_ne!(
        changed, shipped,
        "the edit must change the no-progress rule"
    );
    std::fs::write(&rules, &changed).unwrap();
    let other = acedrex_study(&rules);
    let err = ResultsFile::open(&results, &other)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("rules of reading `as set` changed"), "{err}");
    assert!(err.contains("--fresh"), "{err}");
    // Shards under different rules do not merge.
    let shard = dir.join("shard.jsonl");
    {
        let (mut file, _) = ResultsFile::open(&shard, &other).unwrap();
        libro_lab::run_study(&other, &plan(), &mut |r| file.append(r).unwrap()).unwrap();
        file.flush().unwrap();
    }
    let err = libro_lab::merge(&[results, shard]).unwrap_err().to_string();
    assert!(err.contains("changed"), "{err}");
    // Every report carries the stamp: text, JSON, CSV and SVG.
    let (study, rows) = libro_lab::read(&dir.join("shard.jsonl")).unwrap();
    let report = Report::new(&study, &rows);
    let digest = &other.stamp.rules[0].1;
    assert!(report.to_table().contains(digest.as_str()));
    assert!(report.to_json().contains(digest.as_str()));
    assert!(report.to_csv().contains(digest.as_str()));
    for chart in libro_lab::render_charts(&report, &libro_lab::ChartText::default()).unwrap() {
        assert!(chart.svg.contains(digest.as_str()), "{}", chart.name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn piece_usage_names_the_rulesets_pieces_and_counts_every_move() {
    let s = shipped("acedrex", "random", 20, 3, 300, 0);
    assert_eq!(s.board.grid, (8, 8));
    let mut rows = Vec::new();
    libro_lab::run_study(&s, &plan(), &mut |r| rows.push(r.clone())).unwrap();
    for r in &rows {
        // Acedrex has no pass or bet: every decision is one piece landing on one square.
        let moves: u32 = r.piece_moves.iter().sum();
        assert_eq!(moves, r.decisions);
        assert_eq!(r.landings.iter().sum::<u32>(), moves);
        assert!(r
            .piece_captures
            .iter()
            .zip(&r.piece_moves)
            .all(|(c, m)| c <= m));
    }
    let report = Report::new(&s, &rows);
    let names: Vec<&str> = report.readings[0]
        .pieces
        .iter()
        .map(|p| p.piece.as_str())
        .collect();
    for piece in ["king", "fers", "pawn"] {
        assert!(names.contains(&piece), "{names:?}");
    }
    let svg = libro_lab::render_charts(&report, &libro_lab::ChartText::default())
        .unwrap()
        .into_iter()
        .find(|c| c.name == "heatmap")
        .expect("a heatmap");
    assert_eq!(svg.svg.matches("<title>cell ").count(), 64);
}

#[test]
fn readings_are_played_with_one_evaluation_and_the_stamp_says_which() {
    // Shatranj ships a network fitted for its own rules; a drawn stalemate is other rules.
    // A study of both plays both with the hand-written evaluation alone, so that the
    // readings differ by their rules only, and its stamp names no network.
    let one = shipped("shatranj", "ai:1", 2, 1, 60, 2);
    let key = one
        .stamp
        .network
        .clone()
        .expect("shatranj is played with its network");
    assert!(one.stamp.to_string().contains(&format!("network {key}")));
    let both = libro_lab::prepare(Study {
        vary: vec![("stalemate".into(), vec!["win".into(), "draw".into()])],
        ..shipped("shatranj", "ai:1", 2, 1, 60, 2)
    })
    .unwrap();
    assert_eq!(both.stamp.network, None);
    assert!(libro_lab::load_readings(&both)
        .unwrap()
        .iter()
        .all(|r| r.network_key().is_none()));
    // Results written with the network are not continued without it.
    assert!(one
        .stamp
        .changes(&both.stamp)
        .iter()
        .any(|c| c.contains("evaluation network")));
}
