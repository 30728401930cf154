//! Small games with known answers, for testing the search through the game interface.
#![allow(dead_code)]

pub mod nim;
pub mod race;
pub mod tictactoe;
pub mod tree;
pub mod tron;

/// What went wrong reading a toy move or position.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ToyError(pub String);

/// SplitMix64's finaliser, for toy hashes.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
