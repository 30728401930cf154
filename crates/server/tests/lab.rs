//! The Lab over real HTTP: a run plays and its report adds up; a run stopped and continued
//! on a restarted server plays only the games it lacks, the same games the same seed
//! gives; bad requests are refused with a reason.

mod common;

use common::{get, http, http_with, post, start_with, temp_db};
use libro_lab::{GameRow, RunPlan, Study};
use libro_server::{SqliteStore, Store};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Two threads per run whatever the machine: the games come back out of order.
const LAB_THREADS: usize = 2;

/// Polls a run until it is no longer playing; returns its progress.
async fn wait_idle(addr: SocketAddr, id: i64) -> Value {
    for _ in 0..1200 {
        let (status, v) = get(addr, &format!("/api/lab/runs/{id}")).await;
        assert_eq!(status, 200, "{v}");
        if v["status"] != "running" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("run {id} still playing after two minutes");
}

/// The games of a run from its results file (the study line first).
async fn results(addr: SocketAddr, id: i64) -> (Study, Vec<GameRow>) {
    let (status, v) = get(addr, &format!("/api/lab/runs/{id}/results")).await;
    assert_eq!(status, 200, "{v}");
    // JSON lines; a file of the study line alone (no game stored yet) reads as one value.
    let text = match v {
        Value::String(text) => text,
        one_line => one_line.to_string(),
    };
    let mut lines = text.lines();
    let study = match serde_json::from_str(lines.next().unwrap()).unwrap() {
        libro_lab::Line::Study(s) => s,
        other => panic!("first line {other:?}"),
    };
    let rows = lines
        .map(|l| match serde_json::from_str(l).unwrap() {
            libro_lab::Line::Game(g) => g,
            other => panic!("{other:?}"),
        })
        .collect();
    (study, rows)
}

fn ints(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("a count: {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_plays_every_game_and_its_report_adds_up() {
    let srv = start_with(
        Arc::new(SqliteStore::in_memory().unwrap()),
        Some(LAB_THREADS),
    )
    .await;
    let a = srv.addr;
    let (status, created) = post(
        a,
        "/api/lab/runs",
        json!({"ruleset": "fallas", "vary": [{"option": "bear_off", "values": ["standard", "exact"]}],
               "players": ["random"], "games": 10, "seed": 3}),
    )
    .await;
    if status == 400 {
        // The option's values are the registry's: say which it has if these are not.
        let (_, info) = get(a, "/api/rulesets/fallas").await;
        panic!("{created}; fallas options: {}", info["options"]);
    }
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_i64().unwrap();
    assert_eq!(created["games_total"], 20, "two readings of ten games");
    let done = wait_idle(a, id).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["games_done"], 20);
    assert_eq!(done["session"]["played"], 20);

    let (status, rep) = get(a, &format!("/api/lab/runs/{id}/report")).await;
    assert_eq!(status, 200, "{rep}");
    let readings = rep["report"]["readings"].as_array().unwrap();
    assert_eq!(readings.len(), 2);
    for r in readings {
        assert_eq!(r["games"], 10, "{}", r["key"]);
        let reasons = r["end_reasons"].as_array().unwrap();
        let games: u64 = reasons.iter().map(|x| ints(&x["games"])).sum();
        assert_eq!(games, 10, "every game ends one way: {reasons:?}");
        let shares: f64 = reasons
            .iter()
            .map(|x| x["share"]["value"].as_f64().unwrap())
            .sum();
        assert!(
            (shares - 1.0).abs() < 1e-9,
            "end-reason shares sum to {shares}"
        );
        // Two seats: the scores of a game sum to one, so the mean scores do too.
        let scores: f64 = r["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["score"]["value"].as_f64().unwrap())
            .sum();
        assert!((scores - 1.0).abs() < 1e-6, "scores sum to {scores}");
        for s in r["seats"].as_array().unwrap() {
            let e = &s["score"];
            let (lo, v, hi) = (
                e["low"].as_f64().unwrap(),
                e["value"].as_f64().unwrap(),
                e["high"].as_f64().unwrap(),
            );
            assert!(lo <= v && v <= hi, "{e}");
        }
    }
    let table = rep["table"].as_str().unwrap();
    assert!(table.contains("bear_off=exact") && table.contains("bear_off=standard"));
    let charts = rep["charts"].as_array().unwrap();
    let names: Vec<&str> = charts.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["outcomes", "end-reasons", "durations", "heatmap"]);
    for c in charts {
        let svg = c["svg"].as_str().unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("bear_off=exact"));
    }
    assert!(charts[0]["svg"]
        .as_str()
        .unwrap()
        .contains("no single winner"));

    // The charts' words in the language the pages are in: the browser's, or the cookie's.
    let path = format!("/api/lab/runs/{id}/report");
    for headers in [
        "Accept-Language: es-ES,es;q=0.9\r\n",
        "Accept-Language: en\r\nCookie: libro-lang=es\r\n",
    ] {
        let (status, es) = http_with(a, "GET", &path, None, headers).await;
        assert_eq!(status, 200, "{es}");
        let svg = |name: &str| {
            es["charts"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["name"] == name)
                .and_then(|c| c["svg"].as_str())
                .unwrap_or_else(|| panic!("no {name} chart"))
                .to_string()
        };
        let outcomes = svg("outcomes");
        for words in [
            "Resultados por lectura",
            "sin un único ganador",
            "% de las partidas",
            "bear_off=exact (10 partidas)",
        ] {
            assert!(outcomes.contains(words), "{headers}: {words} in {outcomes}");
        }
        assert!(svg("durations").contains("medias jugadas"), "{headers}");
        assert!(
            svg("heatmap").contains("Dónde caen las piezas"),
            "{headers}"
        );
        assert!(!outcomes.contains("games)"), "{headers}: {outcomes}");
        assert_eq!(es["report"], rep["report"], "only the words change");
    }

    // The same games as the lab plays them from the CLI.
    let (study, rows) = results(a, id).await;
    let mut direct = Vec::new();
    libro_lab::run_study(&study, &RunPlan::default(), &mut |r| direct.push(r.clone())).unwrap();
    let key = |r: &GameRow| (r.reading.clone(), r.index);
    direct.sort_by_key(key);
    let mut stored = rows;
    stored.sort_by_key(key);
    assert_eq!(stored, direct);

    let (status, list) = get(a, "/api/lab/runs").await;
    assert_eq!(status, 200);
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["status"], "done");

    let (status, v) = post(a, &format!("/api/lab/runs/{id}/continue"), json!({})).await;
    assert_eq!(status, 400, "nothing left to play: {v}");
    assert!(v["error"].as_str().unwrap().contains("more games"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_run_continues_after_a_restart_without_replaying_stored_games() {
    let db = temp_db("resume");
    // Random Forçado: about a thousand games a second, so three thousand last seconds and
    // the stop arrives long before the end.
    let request = json!({"ruleset": "forcado-ludii", "players": ["random"], "games": 3000,
                         "seed": 11, "max_plies": 2000});
    let (id, before) = {
        let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), Some(LAB_THREADS)).await;
        let (status, created) = post(srv.addr, "/api/lab/runs", request.clone()).await;
        assert_eq!(status, 200, "{created}");
        let id = created["id"].as_i64().unwrap();
        // One study at a time.
        let (status, v) = post(srv.addr, "/api/lab/runs", request.clone()).await;
        assert_eq!(status, 409, "{v}");
        assert!(
            v["error"].as_str().unwrap().contains("one study at a time"),
            "{v}"
        );
        let (status, v) = post(srv.addr, &format!("/api/lab/runs/{id}/stop"), json!({})).await;
        assert_eq!(status, 200, "{v}");
        let stopped = wait_idle(srv.addr, id).await;
        assert_eq!(stopped["status"], "stopped", "{stopped}");
        let done = ints(&stopped["games_done"]);
        assert!(done < 3000, "stopped before the end: {stopped}");
        let (status, v) = post(srv.addr, &format!("/api/lab/runs/{id}/stop"), json!({})).await;
        assert_eq!(status, 409, "not playing any more: {v}");
        let (_, rows) = results(srv.addr, id).await;
        assert_eq!(rows.len() as u64, done);
        (id, rows)
    };

    // A new server on the same database: the run is listed as stopped and continues.
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), Some(LAB_THREADS)).await;
    let a = srv.addr;
    let (_, v) = get(a, &format!("/api/lab/runs/{id}")).await;
    assert_eq!(v["status"], "stopped", "{v}");
    assert_eq!(ints(&v["games_done"]), before.len() as u64);
    let (status, v) = post(a, &format!("/api/lab/runs/{id}/continue"), json!({})).await;
    assert_eq!(status, 200, "{v}");
    let done = wait_idle(a, id).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["games_done"], 3000);
    assert_eq!(
        ints(&done["session"]["played"]),
        3000 - before.len() as u64,
        "only the games not stored were played"
    );
    let (study, after) = results(a, id).await;
    assert_eq!(after.len(), 3000);
    let indices: HashSet<u32> = after.iter().map(|r| r.index).collect();
    assert_eq!(indices.len(), 3000, "each game once");
    // The games stored before the restart are untouched.
    let by_index: HashMap<u32, &GameRow> = after.iter().map(|r| (r.index, r)).collect();
    for r in &before {
        assert_eq!(by_index[&r.index], r);
    }
    // And every game is the one the seed gives: replay a sample of both sessions' games
    // with the lab directly (every other game marked done).
    let sample: HashSet<u32> = before
        .iter()
        .map(|r| r.index)
        .take(5)
        .chain([0, 1, 1500, 2998, 2999])
        .collect();
    let plan = RunPlan {
        done: (0..3000)
            .filter(|i| !sample.contains(i))
            .map(|i| (String::new(), i))
            .collect(),
        ..RunPlan::default()
    };
    let mut replayed = Vec::new();
    libro_lab::run_study(&study, &plan, &mut |r| replayed.push(r.clone())).unwrap();
    assert_eq!(replayed.len(), sample.len());
    for r in &replayed {
        assert_eq!(by_index[&r.index], r, "game {}", r.index);
    }
    // More games per reading: the run grows and plays only the new ones.
    let (status, v) = post(
        a,
        &format!("/api/lab/runs/{id}/continue"),
        json!({"games": 3010}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let grown = wait_idle(a, id).await;
    assert_eq!(grown["games_done"], 3010, "{grown}");
    assert_eq!(grown["session"]["played"], 10);
    let (status, v) = post(
        a,
        &format!("/api/lab/runs/{id}/continue"),
        json!({"games": 5}),
    )
    .await;
    assert_eq!(status, 400, "a run does not shrink: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_lab_requests_are_refused_with_the_reason() {
    let srv = start_with(
        Arc::new(SqliteStore::in_memory().unwrap()),
        Some(LAB_THREADS),
    )
    .await;
    let a = srv.addr;
    let base = json!({"ruleset": "fallas", "players": ["random"], "games": 10});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    for (body, says) in [
        (with("ruleset", json!("nope")), "no shipped ruleset"),
        (
            with("ruleset", json!("../rulesets/fallas.toml")),
            "no shipped ruleset",
        ),
        (with("games", json!(0)), "at least one game"),
        (with("games", json!(100_001)), "100000"),
        (with("games", json!(-3)), "malformed"),
        (with("players", json!(["ai:9"])), "ai:9"),
        (
            with("players", json!(["random", "random", "random"])),
            "3 players",
        ),
        (with("players", json!([])), "no player"),
        (with("max_plies", json!(0)), "max_plies"),
        (with("options", json!({"no_such": "1"})), "no_such"),
        (with("options", json!({"bear_off": "sideways"})), "sideways"),
        (
            with("vary", json!([{"option": "bear_off", "values": []}])),
            "empty",
        ),
        (with("colour", json!("red")), "colour"),
    ] {
        let (status, v) = post(a, "/api/lab/runs", body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains(says), "{body}: `{msg}` should say `{says}`");
    }
    // Many readings of many games: beyond the server's cap on one run.
    let (status, v) = post(
        a,
        "/api/lab/runs",
        json!({"ruleset": "acedrex", "players": ["random"], "games": 70_000,
               "vary": [{"option": "stalemate", "values": ["win", "draw", "pass"]}]}),
    )
    .await;
    assert_eq!(status, 400, "{v}");
    let (status, _) = get(a, "/api/lab/runs/12").await;
    assert_eq!(status, 404);
    let (status, _) = get(a, "/api/lab/runs/x1/report").await;
    assert_eq!(status, 404);
    let (status, v) = http(a, "POST", "/api/lab/runs", Some("{not json")).await;
    assert_eq!(status, 400, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_stored_run_is_an_error_not_a_panic() {
    let db = temp_db("corrupt");
    let store = SqliteStore::open(&db).unwrap();
    let good = store
        .create_run(
            &serde_json::to_string(&libro_lab::prepare(fallas_study()).unwrap()).unwrap(),
            "done",
            1,
        )
        .unwrap();
    let bad_study = store.create_run("{\"ruleset\": 3}", "done", 2).unwrap();
    drop(store);
    {
        // A game row whose JSON is cut short, written behind the server's back.
        let conn = rusqlite_free_write(&db);
        conn(&format!(
            "INSERT INTO lab_games (run, reading, idx, row) VALUES ({good}, '', 0, '{{\"reading\":\"\"')"
        ));
    }
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), Some(LAB_THREADS)).await;
    let a = srv.addr;
    let (status, list) = get(a, "/api/lab/runs").await;
    assert_eq!(status, 200, "{list}");
    let unreadable = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == bad_study)
        .unwrap();
    assert_eq!(unreadable["status"], "unreadable");
    assert!(unreadable["message"].as_str().unwrap().contains("study"));
    let (status, v) = get(a, &format!("/api/lab/runs/{good}/report")).await;
    assert_eq!(status, 500, "{v}");
    let msg = v["error"].as_str().unwrap();
    assert!(
        msg.contains(&format!("lab run {good}")) && msg.contains("game 0"),
        "{msg}"
    );
    let (status, v) = get(a, &format!("/api/lab/runs/{bad_study}")).await;
    assert_eq!(status, 500, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_played_under_another_stamp_does_not_continue() {
    let db = temp_db("stamp");
    let store = SqliteStore::open(&db).unwrap();
    let mut study = libro_lab::prepare(fallas_study()).unwrap();
    study.stamp.libro = "0.0.1".into();
    let id = store
        .create_run(&serde_json::to_string(&study).unwrap(), "stopped", 1)
        .unwrap();
    drop(store);
    let srv = start_with(Arc::new(SqliteStore::open(&db).unwrap()), Some(LAB_THREADS)).await;
    let (status, v) = post(srv.addr, &format!("/api/lab/runs/{id}/continue"), json!({})).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains("another stamp") && e.contains("libro 0.0.1 →"),
        "{e}"
    );
}

fn fallas_study() -> Study {
    Study {
        ruleset: "fallas".into(),
        seats: Vec::new(),
        options: Vec::new(),
        vary: Vec::new(),
        players: vec!["random".into()],
        games: 4,
        seed: 1,
        max_plies: 1000,
        opening_moves: 0,
        stamp: Default::default(),
        board: Default::default(),
    }
}

/// Writes to the database file with SQL of the test's own (through the store's driver).
fn rusqlite_free_write(db: &std::path::Path) -> impl Fn(&str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    move |sql| {
        conn.execute_batch(sql).unwrap();
    }
}
