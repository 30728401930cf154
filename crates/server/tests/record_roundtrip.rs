//! Records read back: a game of any shipped ruleset, played at random (dice included),
//! exported as a record file and imported again replays to the same game.

use libro_core::Turn;
use libro_server::record::{self, Event, Record, Setup, FORMAT};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn an_exported_record_imports_to_the_same_game(
        ruleset in 0usize..64,
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        let headers = libro_registry::shipped();
        let name = headers[ruleset % headers.len()].name.clone();
        let seats = libro_registry::load(&name, &[]).expect("shipped").seat_names().len();
        let setup = Setup {
            ruleset: name,
            options: Vec::new(),
            seed,
            stakes: (seats > 2 && seed % 2 == 1).then(|| (1..=seats as u32).map(|s| 10 * s).collect()),
            players: vec!["human".to_string(); seats],
            clock: None,
            position: None,
        };
        let (_, mut game) = record::start(&setup).expect("a shipped ruleset starts");
        let mut events = Vec::new();
        for choice in choices {
            let choice = usize::from(choice);
            let event = match game.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let outcomes = game.chance_outcomes();
                    Event::Roll { roll: outcomes[choice % outcomes.len()].0.clone() }
                }
                Turn::Seat(seat) => {
                    let moves = game.legal_moves();
                    Event::Move { seat: seat.0, text: moves[choice % moves.len()].clone(), at: None }
                }
            };
            events.push(record::apply(game.as_mut(), &event).expect("a legal event applies"));
        }
        let exported = Record {
            format: FORMAT.to_string(),
            setup,
            events,
            position: Some(game.position()),
            result: game.result().map(|r| serde_json::to_value(r).expect("a result is JSON")),
        };
        let text = serde_json::to_string_pretty(&exported).expect("a record is JSON");
        let imported: Record = serde_json::from_str(&text).expect("an exported record reads");
        prop_assert_eq!(&imported.setup, &exported.setup);
        prop_assert_eq!(&imported.events, &exported.events);
        prop_assert_eq!(&imported.position, &exported.position);
        let (_, again) = record::replay(&imported).expect("an exported record replays");
        prop_assert_eq!(again.game.position(), game.position());
        prop_assert_eq!(again.turn(), game.turn());
        prop_assert_eq!(again.game.legal_moves(), game.legal_moves());
        prop_assert_eq!(again.result(), game.result());
    }
}
