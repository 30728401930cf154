//! HTTP request bodies and WebSocket messages, read as the server's handlers read them:
//! a new game (checked as the hub checks it), a move, a Lab run, a socket message (whose
//! move is played on a fresh chess and Fallas game).
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_core::Turn;
use libro_registry::DynGame;
use libro_server::{lab::RunRequest, record, ClientMessage, CreateRequest, Limits, MoveRequest};
use std::sync::OnceLock;

fuzz_target!(|data: &[u8]| {
    if let Ok(req) = serde_json::from_slice::<CreateRequest>(data) {
        if let Ok(setup) = req.setup() {
            if Limits::default().check_players(&setup.players).is_ok() {
                let _ = record::start(&setup);
            }
        }
    }
    if let Ok(req) = serde_json::from_slice::<MoveRequest>(data) {
        play_everywhere(&req.mv);
    }
    if let Ok(req) = serde_json::from_slice::<RunRequest>(data) {
        let _ = req.study();
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(ClientMessage::Move { mv, .. }) = serde_json::from_str::<ClientMessage>(text) {
            play_everywhere(&mv);
        }
    }
});

/// Plays a move at the start of acedrex and of Fallas after its first rolls, as the hub
/// plays a seat's move.
fn play_everywhere(mv: &str) {
    static GAMES: OnceLock<Vec<Box<dyn DynGame>>> = OnceLock::new();
    let games = GAMES.get_or_init(|| {
        ["acedrex", "fallas"]
            .iter()
            .map(|name| {
                let rules = libro_registry::load(name, &[]).expect("a shipped ruleset loads");
                let mut game = rules.new_game(0);
                while game.turn() == Turn::Chance {
                    game.roll().expect("chance is to play");
                }
                game
            })
            .collect()
    });
    for game in games {
        if let Turn::Seat(seat) = game.turn() {
            let _ = game.clone_box().play(seat, mv);
        }
    }
}
