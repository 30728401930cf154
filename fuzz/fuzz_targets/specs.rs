//! The short specs read from command lines, records and requests: players (`ai:3,hash=64`),
//! multi-player search, SPRT bounds, Lab shards and variations, rule overrides, dice, Betza
//! piece moves. A spec that reads writes back to text that reads to the same spec.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_ai::{MultiSearch, PlayerSpec, Sprt};
use libro_lab::Shard;
use libro_tables::{Dice, Play, TablesChance};
use std::fmt::Display;
use std::str::FromStr;

/// Reads `text` as a `T`; if it is one, checks that it writes back to itself.
fn round_trip<T>(text: &str)
where
    T: FromStr + Display + PartialEq + std::fmt::Debug,
{
    if let Ok(value) = text.parse::<T>() {
        let written = value.to_string();
        assert_eq!(
            written.parse::<T>().ok(),
            Some(value),
            "`{text}` → `{written}`"
        );
    }
}

fuzz_target!(|text: &str| {
    round_trip::<PlayerSpec>(text);
    round_trip::<MultiSearch>(text);
    round_trip::<Sprt>(text);
    round_trip::<Shard>(text);
    round_trip::<Dice>(text);
    round_trip::<TablesChance>(text);
    round_trip::<Play>(text);
    let _ = libro_lab::parse_vary(text);
    let _ = libro_registry::parse_overrides(&[text.to_string()]);
    let _ = libro_chess::betza::parse(text);
    let _ = libro_server::record::check_player(0, text);
    let _ = libro_server::lab::Lab::parse_id(text);
});
