//! Random games per second: `cargo run --release --example random_games -- cuatro-tiempos-ludii 200`.
use libro_chess::{ChessGame, ChessRules, MoveList};
use libro_core::Game;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("cuatro-tiempos-ludii", String::as_str);
    let games: u32 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(200);
    let path = format!("{}/../../rulesets/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("ruleset file");
    let rules = Arc::new(ChessRules::from_toml(&text, &path, &[]).expect("valid ruleset"));
    // A small xorshift generator keeps the measurement about the game, not the randomness.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut moves = MoveList::new();
    let mut plies = 0u64;
    let t = Instant::now();
    for _ in 0..games {
        let mut game = ChessGame::new_unbet(&rules);
        loop {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            game.play(moves[(state % moves.len() as u64) as usize]);
        }
        plies += u64::from(game.ply());
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name}: {games} games, {plies} plies in {s:.3} s = {:.0} games/s, {:.1} M plies/s",
        f64::from(games) / s,
        plies as f64 / s / 1e6
    );
}
