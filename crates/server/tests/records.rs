//! Text records over HTTP: PGN export with the tag roster, the ruleset's digest and SAN
//! movetext; PGN import replaying SAN through the rules (a bad move named by number and
//! text, a start position from FEN); Fallas' and Cuatro Tiempos' own text records; every
//! kind exported, imported and compared with the game it came from.

mod common;

use common::{get, http, post, start};
use serde_json::{json, Value};
use std::net::SocketAddr;

async fn create(addr: SocketAddr, body: Value) -> (String, Vec<String>) {
    let (status, v) = post(addr, "/api/games", body).await;
    assert_eq!(status, 200, "{v}");
    let tokens = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let link = s["link"].as_str().unwrap_or("");
            link.split("#t=").nth(1).unwrap_or("").to_string()
        })
        .collect();
    (v["id"].as_str().unwrap().to_string(), tokens)
}

async fn state(addr: SocketAddr, id: &str) -> Value {
    let (status, v) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{v}");
    v
}

async fn play(addr: SocketAddr, id: &str, token: &str, mv: &str) {
    let (status, v) = post(
        addr,
        &format!("/api/games/{id}/move"),
        json!({"token": token, "move": mv}),
    )
    .await;
    assert_eq!(status, 200, "{mv}: {v}");
}

/// Plays `n` moves, each the `k`-th legal move (k = 0, 3, 6, …) of the seat to move.
async fn play_some(addr: SocketAddr, id: &str, tokens: &[String], n: usize) {
    for k in 0..n {
        let s = state(addr, id).await;
        if s["now"]["turn"]["kind"] != "seat" {
            break;
        }
        let seat = s["now"]["turn"]["seat"].as_u64().unwrap() as usize;
        let legal = s["now"]["legal"].as_array().unwrap();
        let mv = legal[(3 * k) % legal.len()].as_str().unwrap();
        play(addr, id, &tokens[seat], mv).await;
    }
}

async fn export_text(addr: SocketAddr, id: &str, format: &str) -> String {
    let (status, v) = get(addr, &format!("/api/games/{id}/export?format={format}")).await;
    assert_eq!(status, 200, "{v}");
    v.as_str().expect("a text record").to_string()
}

async fn import_text(addr: SocketAddr, text: &str) -> (u16, Value) {
    post(addr, "/api/import", json!({ "text": text })).await
}

/// What a round trip keeps: every entry of the history (kind, seat, text), the position
/// and the result.
fn game_of(s: &Value) -> Value {
    let history: Vec<Value> = s["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| json!([e["kind"], e["seat"], e["text"]]))
        .collect();
    json!({"history": history, "position": s["now"]["position"], "result": s["now"]["result"]})
}

async fn round_trip(addr: SocketAddr, id: &str, format: &str) -> String {
    let text = export_text(addr, id, format).await;
    let (status, v) = import_text(addr, &text).await;
    assert_eq!(status, 200, "{v}\n{text}");
    let copy = v["id"].as_str().unwrap();
    assert_eq!(
        game_of(&state(addr, copy).await),
        game_of(&state(addr, id).await),
        "{text}"
    );
    text
}

#[tokio::test]
async fn a_pgn_has_the_roster_the_ruleset_and_san_and_imports_back_to_the_same_game() {
    let srv = start().await;
    let (id, tokens) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    for mv in ["e2e4", "d7d5", "e4d5", "e7e6"] {
        let s = state(srv.addr, &id).await;
        let seat = s["now"]["turn"]["seat"].as_u64().unwrap() as usize;
        play(srv.addr, &id, &tokens[seat], mv).await;
    }
    let (status, v) = post(
        srv.addr,
        &format!("/api/games/{id}/resign"),
        json!({"token": tokens[1]}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let pgn = round_trip(srv.addr, &id, "pgn").await;
    let (_, rules) = get(srv.addr, "/api/rulesets/acedrex").await;
    assert!(rules["name"] == "acedrex");
    for tag in [
        "[Event \"libro game\"]",
        &format!("/g/{id}\"]"),
        "[Date \"",
        "[Round \"-\"]",
        "[White \"human\"]",
        "[Black \"human\"]",
        "[Result \"1-0\"]",
        "[Variant \"acedrex\"]",
        "[LibroDigest \"",
        "[LibroEnding \"resign black\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in\n{pgn}");
    }
    assert!(
        !pgn.contains("[FEN"),
        "the start position needs no FEN:\n{pgn}"
    );
    // SAN with move numbers, the capture written as one.
    let moves = pgn.split("\n\n").nth(1).unwrap().trim();
    assert!(moves.starts_with("1. e4 d5 2. exd5 e6 1-0"), "{moves}");
}

#[tokio::test]
async fn a_bad_pgn_move_is_refused_naming_its_number_and_text_and_nothing_is_created() {
    let srv = start().await;
    let pgn = "[Variant \"acedrex\"]\n\n1. e4 d5 2. exd5 Qh9 *\n";
    let (status, v) = import_text(srv.addr, pgn).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.contains("move 2... Qh9") && e.contains("black"), "{e}");
    let (status, v) = import_text(srv.addr, "1. e4 e5\n").await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("Variant"), "{v}");
    let other = "[Variant \"acedrex\"]\n[LibroDigest \"0000000000000000\"]\n\n1. e4 *\n";
    let (status, v) = import_text(srv.addr, other).await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("other rules"), "{v}");
    // A Result the moves do not give is refused.
    let wrong =
        "[Variant \"acedrex\"]\n[Result \"1-0\"]\n[LibroEnding \"resign white\"]\n\n1. e4 1-0\n";
    let (status, v) = import_text(srv.addr, wrong).await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("moves end `0-1`"),
        "{v}"
    );
    let (_, list) = get(srv.addr, "/api/games").await;
    assert_eq!(list.as_array().unwrap().len(), 0, "{list}");
}

#[tokio::test]
async fn a_pgn_from_a_position_starts_there_and_exports_its_fen() {
    let srv = start().await;
    let (id, tokens) = create(
        srv.addr,
        json!({"ruleset": "shatranj", "players": ["human", "human"]}),
    )
    .await;
    play_some(srv.addr, &id, &tokens, 3).await;
    let fen = state(srv.addr, &id).await["now"]["position"]
        .as_str()
        .unwrap()
        .to_string();
    play_some(srv.addr, &id, &tokens, 1).await;
    let s = state(srv.addr, &id).await;
    let san = s["history"][3]["san"].as_str().unwrap().to_string();
    // Black to move in the position: the movetext starts `2...`.
    let pgn = format!(
        "[Variant \"shatranj\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n2... {san} {{a comment}} *\n"
    );
    let (status, v) = import_text(srv.addr, &pgn).await;
    assert_eq!(status, 200, "{v}");
    let copy = v["id"].as_str().unwrap().to_string();
    let c = state(srv.addr, &copy).await;
    assert_eq!(c["now"]["position"], s["now"]["position"]);
    let text = round_trip(srv.addr, &copy, "pgn").await;
    assert!(
        text.contains(&format!("[FEN \"{fen}\"]")) && text.contains("[SetUp \"1\"]"),
        "{text}"
    );
    assert!(text.contains(&format!("1... {san}")), "{text}");
}

#[tokio::test]
async fn fallas_has_a_text_record_of_a_line_per_roll_that_round_trips() {
    let srv = start().await;
    let (id, tokens) = create(
        srv.addr,
        // Seeded dice: with any roll a falla may end the game before its eighth turn.
        json!({"ruleset": "fallas", "players": ["human", "human"], "seed": 7}),
    )
    .await;
    play_some(srv.addr, &id, &tokens, 8).await;
    let (status, v) = get(srv.addr, &format!("/api/games/{id}/export?format=pgn")).await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("format=text"), "{v}");
    let text = round_trip(srv.addr, &id, "text").await;
    assert!(text.contains("[Variant \"fallas\"]"), "{text}");
    let lines: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
    assert!(lines.len() >= 8, "{text}");
    for (i, line) in lines.iter().enumerate() {
        let (number, rest) = line.split_once(". ").unwrap();
        assert_eq!(number, (i + 1).to_string(), "{text}");
        let roll = rest.split(':').next().unwrap();
        assert!(
            roll.chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == ':'),
            "{line}"
        );
    }
    // A move its roll does not allow is named by its turn.
    let mut bad: Vec<String> = text.lines().map(String::from).collect();
    let last = bad.iter().rposition(|l| l.contains(": ")).unwrap();
    let (head, _) = bad[last].split_once(": ").unwrap();
    let turn = head.split_once(". ").unwrap().0.to_string();
    bad[last] = format!("{head}: 24/1");
    let (status, v) = import_text(srv.addr, &bad.join("\n")).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains(&format!("turn {turn}:")) && e.contains("24/1"),
        "{e}"
    );
}

#[tokio::test]
async fn cuatro_tiempos_has_a_text_record_of_rounds_that_round_trips() {
    let srv = start().await;
    let (id, tokens) = create(
        srv.addr,
        json!({"ruleset": "cuatro-tiempos", "players": ["human", "human", "human", "human"],
               "stakes": [1, 2, 3, 4]}),
    )
    .await;
    play_some(srv.addr, &id, &tokens, 10).await;
    let text = round_trip(srv.addr, &id, "text").await;
    assert!(text.contains("[LibroStakes \"1 2 3 4\"]"), "{text}");
    assert!(text.contains("[Green \"human\"]"), "{text}");
    let body = text.split("\n\n").nth(1).unwrap();
    let first = body.lines().next().unwrap();
    assert!(
        first.starts_with("1. ") && first.matches(" | ").count() == 3,
        "{first}"
    );
    // A move out of turn is named by its round and seat.
    let cells: Vec<&str> = first[3..].split(" | ").collect();
    let swapped_line = format!("1. - | {}", cells[1..].join(" | "));
    let swapped = text.replacen(first, &swapped_line, 1);
    let (status, v) = import_text(srv.addr, &swapped).await;
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(
        e.contains("round 1") && e.contains("green is to move"),
        "{e}"
    );
}

#[tokio::test]
async fn an_unknown_export_format_is_named() {
    let srv = start().await;
    let (id, _) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "human"]}),
    )
    .await;
    let (status, v) = http(
        srv.addr,
        "GET",
        &format!("/api/games/{id}/export?format=epd"),
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("`epd`"), "{v}");
}

#[tokio::test]
async fn a_pgn_time_control_comes_back_as_the_games_clock() {
    let srv = start().await;
    let (id, tokens) = create(
        srv.addr,
        json!({"ruleset": "acedrex", "players": ["human", "human"],
               "clock": {"initial_s": 300, "increment_s": 3}}),
    )
    .await;
    play(srv.addr, &id, &tokens[0], "e2e4").await;
    let pgn = export_text(srv.addr, &id, "pgn").await;
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    let (status, v) = import_text(srv.addr, &pgn).await;
    assert_eq!(status, 200, "{v}");
    let new = v["id"].as_str().unwrap();
    let s = state(srv.addr, new).await;
    // Five minutes and three seconds a move, each seat's time whole again (the record's
    // stamps are not imported: the clock starts afresh).
    assert_eq!(s["now"]["clock"]["initial_s"], 300);
    assert_eq!(s["now"]["clock"]["increment_s"], 3);
    assert_eq!(s["now"]["clock"]["left_ms"], json!([300_000, 300_000]));
    let (_, list) = get(srv.addr, "/api/games").await;
    let listed = list
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == new)
        .unwrap()
        .clone();
    assert_eq!(listed["clock"], json!({"initial_s": 300, "increment_s": 3}));

    // A form libro's clocks do not have is refused by name, and nothing is created.
    let other = pgn.replace("[TimeControl \"300+3\"]", "[TimeControl \"40/7200:3600\"]");
    let (status, v) = import_text(srv.addr, &other).await;
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("TimeControl `40/7200:3600`"),
        "{v}"
    );
    // No time control (`-`): no clock.
    let none = pgn.replace("[TimeControl \"300+3\"]", "[TimeControl \"-\"]");
    let (status, v) = import_text(srv.addr, &none).await;
    assert_eq!(status, 200, "{v}");
    let s = state(srv.addr, v["id"].as_str().unwrap()).await;
    assert_eq!(s["now"]["clock"], Value::Null);
}
