//! Game records on import: any bytes read as a record and replayed as the server imports
//! one; a record that replays is exported as the server exports it, and that export reads
//! back and replays to the same game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use libro_server::record::{self, Event, Record, FORMAT};

fuzz_target!(|data: &[u8]| {
    let Ok(rec) = serde_json::from_slice::<Record>(data) else {
        return;
    };
    let Ok((_, game)) = record::replay(&rec) else {
        return;
    };
    let (_, start) = record::start(&rec.setup).expect("a record that replays starts");
    let mut live = record::Played::new(start);
    let events: Vec<Event> = rec
        .events
        .iter()
        .map(|ev| live.apply(ev).expect("an event that replayed applies"))
        .collect();
    assert_eq!(live.game.position(), game.game.position());
    let exported = Record {
        format: FORMAT.to_string(),
        setup: rec.setup.clone(),
        events,
        position: Some(live.game.position()),
        result: live
            .result()
            .map(|r| serde_json::to_value(r).expect("a result is JSON")),
    };
    let text = serde_json::to_string_pretty(&exported).expect("a record is JSON");
    let imported: Record = serde_json::from_str(&text).expect("an exported record reads back");
    assert_eq!(imported.setup, exported.setup);
    assert_eq!(imported.events, exported.events);
    let (_, again) = record::replay(&imported).expect("an exported record replays");
    assert_eq!(again.game.position(), game.game.position());
    assert_eq!(again.turn(), game.turn());
    assert_eq!(again.result(), game.result());
    assert_eq!(again.game.legal_moves(), game.game.legal_moves());
});
