//! The AI seats: a move chosen for the seat to move by the AI crate's players, through the
//! registry's game interface (each family's own game type and heuristic underneath).

use libro_ai::{Control, PlayerSpec};
use libro_registry::DynGame;

/// Chooses a move (in standard notation) for the seat to move with the player `spec`;
/// `stream` varies the player's random choices from move to move. Runs on the blocking pool:
/// a search may take a while; `control` stops it early.
pub fn choose(
    game: &dyn DynGame,
    spec: &str,
    stream: u64,
    control: &Control,
) -> Result<String, String> {
    let spec: PlayerSpec = spec
        .parse()
        .map_err(|e: libro_ai::SpecError| e.to_string())?;
    game.choose(spec, stream, control)
        .map_err(|e| e.to_string())
}
