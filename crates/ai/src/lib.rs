//! Search for every libro game.
