//! The catalog: every shipped file loads into its family, names match file names, and bad
//! names, families and overrides are refused with a reason.

use libro_catalog::{load, load_text, parse_overrides, shipped, AnyRuleset, CatalogError, SHIPPED};
use libro_core::Turn;

#[test]
fn every_shipped_ruleset_loads_under_its_file_name() {
    assert!(
        SHIPPED.len() >= 8,
        "the five games, shatranj and the Ludii profiles are shipped"
    );
    for header in shipped() {
        let rules = load(&header.name, &[]).unwrap_or_else(|e| panic!("{}: {e}", header.name));
        assert_eq!(rules.name(), header.name);
        assert!(
            !header.source.trim().is_empty(),
            "{} names no source",
            header.name
        );
        let game = rules.new_game(1);
        assert_ne!(game.turn(), Turn::Over, "{} starts finished", header.name);
        assert_eq!(game.num_seats(), rules.seat_names().len());
        let again = rules
            .parse_position(&game.position())
            .expect("the start position reads back");
        assert_eq!(again.position(), game.position());
    }
}

#[test]
fn families_are_dispatched_by_the_family_key() {
    assert!(matches!(load("acedrex", &[]), Ok(AnyRuleset::Chess(_))));
    assert!(matches!(load("fallas", &[]), Ok(AnyRuleset::Tables(_))));
    let err = load_text(
        "family = \"mancala\"\nname = \"x\"\ntitle = \"X\"\nsource = \"s\"\n",
        "x.toml",
        &[],
    )
    .err()
    .unwrap();
    assert!(matches!(err, CatalogError::UnknownFamily { .. }), "{err}");
    let err = load_text("name = \"x\"\n", "x.toml", &[]).err().unwrap();
    assert!(
        err.to_string().contains("x.toml") && err.to_string().contains("family"),
        "{err}"
    );
}

#[test]
fn unknown_names_list_the_known_ones() {
    let err = load("chaturanga", &[]).err().unwrap().to_string();
    assert!(
        err.contains("chaturanga") && err.contains("acedrex") && err.contains("fallas"),
        "{err}"
    );
}

#[test]
fn overrides_reach_the_family_and_bad_ones_are_refused() {
    let o = parse_overrides(&["pawn_double_step=first-move".into()]).unwrap();
    assert!(load("acedrex", &o).is_ok());
    let bad = parse_overrides(&["pawn_double_step=sometimes".into()]).unwrap();
    let err = load("acedrex", &bad).err().unwrap().to_string();
    assert!(err.contains("sometimes"), "{err}");
    assert!(parse_overrides(&["no-equals-sign".into()]).is_err());
    assert!(parse_overrides(&["=value".into()]).is_err());
}

#[test]
fn text_games_refuse_other_seats_and_bad_moves_without_changing() {
    let rules = load("acedrex", &[]).unwrap();
    let mut game = rules.new_game(0);
    let before = game.position();
    let black = libro_core::Seat(1);
    let white = libro_core::Seat(0);
    assert!(matches!(
        game.play(black, "e7e6"),
        Err(libro_catalog::PlayError::NotYourTurn { .. })
    ));
    assert!(game.play(white, "e2e5").is_err());
    assert!(game.play(white, "zz").is_err());
    assert_eq!(game.position(), before);
    assert_eq!(game.play(white, "e2e4").unwrap(), "e2e4");
    assert_ne!(game.position(), before);
}

#[test]
fn tables_games_roll_from_their_seed_and_take_dictated_dice() {
    let rules = load("fallas", &[]).unwrap();
    let mut a = rules.new_game(42);
    let mut b = rules.new_game(42);
    while a.turn() == Turn::Chance && a.ply() < 10 {
        assert_eq!(
            a.roll().unwrap(),
            b.roll().unwrap(),
            "the same seed gives the same dice"
        );
    }
    let mut c = rules.new_game(42);
    assert!(c.apply_chance("not dice").is_err());
    let outcomes = c.chance_outcomes();
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    let first = outcomes[0].0.clone();
    assert_eq!(c.apply_chance(&first).unwrap(), first);
}
