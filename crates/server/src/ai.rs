//! The AI seats: a move chosen for the seat to move by the AI crate's players, through each
//! family's game type and its [`libro_core::Heuristic`].

use libro_ai::{Control, Player, PlayerSpec};
use libro_catalog::DynGame;
use libro_chess::ChessGame;
use libro_core::Game;
use libro_tables::TablesGame;

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
    if let Some(g) = game.as_any().downcast_ref::<ChessGame>() {
        let choice = Player::with_stream(spec, stream)
            .choose(g, control)
            .map_err(|e| e.to_string())?;
        return Ok(g.move_text(choice.mv));
    }
    if let Some(g) = game.as_any().downcast_ref::<TablesGame>() {
        let choice = Player::with_stream(spec, stream)
            .choose(g, control)
            .map_err(|e| e.to_string())?;
        return Ok(g.move_text(choice.mv));
    }
    Err("this game's family has no AI".into())
}
