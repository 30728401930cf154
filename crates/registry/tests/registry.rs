//! The registry: every shipped file loads into its family, names match file names, and bad
//! names, families and overrides are refused with a reason.

use libro_core::Turn;
use libro_registry::{load, load_text, parse_overrides, shipped, RegistryError, SHIPPED};

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
    assert_eq!(load("acedrex", &[]).unwrap().family(), "chess");
    assert_eq!(load("fallas", &[]).unwrap().family(), "tables");
    let err = load_text(
        "family = \"mancala\"\nname = \"x\"\ntitle = \"X\"\nsource = \"s\"\n",
        "x.toml",
        &[],
    )
    .err()
    .unwrap();
    assert!(matches!(err, RegistryError::UnknownFamily { .. }), "{err}");
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
        Err(libro_registry::PlayError::NotYourTurn { .. })
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

#[test]
fn action_ids_name_the_same_moves_as_text_in_every_shipped_ruleset() {
    // Random play through action ids: at every decision each legal action names a legal
    // move, reading that move back gives the same id, and playing the action plays it.
    use libro_core::Seat;
    for header in shipped() {
        let rules = load(&header.name, &[]).unwrap();
        let limit = rules.num_distinct_actions();
        let mut game = rules.new_game(5);
        let mut decisions = 0;
        for ply in 0..60u64 {
            match game.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    game.roll().unwrap();
                }
                Turn::Seat(Seat(s)) => {
                    let actions = game.legal_actions();
                    assert_eq!(actions.len(), game.legal_moves().len(), "{}", header.name);
                    for &a in &actions {
                        assert!(a < limit, "{}: {a} >= {limit}", header.name);
                        let text = game.action_text(a).unwrap();
                        assert_eq!(game.action_of(&text).unwrap(), a, "{}: {text}", header.name);
                    }
                    let pick = actions[(ply as usize * 7919) % actions.len()];
                    let expected = game.action_text(pick).unwrap();
                    assert_eq!(game.apply_action(Seat(s), pick).unwrap(), expected);
                    decisions += 1;
                }
            }
        }
        assert!(decisions > 0, "{}", header.name);
        // An id that is no legal move is refused and changes nothing.
        let before = game.position();
        if let Turn::Seat(s) = game.turn() {
            assert!(game.apply_action(s, limit).is_err());
            assert_eq!(game.position(), before);
        }
    }
}

#[test]
fn every_shipped_ruleset_describes_itself_for_renderers() {
    for header in shipped() {
        let rules = load(&header.name, &[]).unwrap();
        assert_eq!(rules.title(), header.title);
        assert!(!rules.options().is_empty(), "{}", header.name);
        for o in rules.options() {
            if let Some(values) = o.kind.values() {
                assert!(
                    values.contains(&o.value),
                    "{}: {} = {}",
                    header.name,
                    o.name,
                    o.value
                );
            }
        }
        let game = rules.new_game(1);
        let view = serde_json::to_value(game.view()).unwrap();
        match rules.geometry() {
            libro_registry::Geometry::Grid { files, ranks } => {
                assert_eq!(view["board"], "grid");
                assert_eq!(view["files"], files);
                assert_eq!(view["ranks"], ranks);
                assert!(!rules.pieces().is_empty());
                // Every occupied square is named on this board (`a1` to the last file and
                // rank), once.
                let mut seen = std::collections::HashSet::new();
                for sq in view["squares"].as_array().unwrap() {
                    let name = sq["sq"].as_str().unwrap();
                    let file = name.as_bytes()[0].wrapping_sub(b'a');
                    let rank: u8 = name[1..].parse().unwrap();
                    assert!(
                        file < files && (1..=ranks).contains(&rank),
                        "{}: {name} is off a {files}x{ranks} board",
                        header.name
                    );
                    assert!(
                        seen.insert(name.to_string()),
                        "{}: {name} twice",
                        header.name
                    );
                }
            }
            libro_registry::Geometry::Track { points } => {
                assert_eq!(view["board"], "track");
                assert_eq!(
                    view["points"].as_array().unwrap().len(),
                    usize::from(points)
                );
            }
        }
        assert_eq!(game.view().position(), game.position());
    }
}

#[test]
fn front_ends_name_no_family() {
    // ARCHITECTURE.md: the registry is the only crate that knows the families. The server,
    // the lab, the CLI and the Python package (`python/`, its own workspace) depend on it
    // and on libro-core (and the AI), never on a family.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for front in ["server", "lab", "cli", "../python"] {
        let manifest = std::fs::read_to_string(root.join(front).join("Cargo.toml")).unwrap();
        let deps = manifest.split("[dependencies]").nth(1).unwrap();
        let deps = deps.split("\n[").next().unwrap();
        for family in ["libro-chess", "libro-tables"] {
            assert!(!deps.contains(family), "crates/{front} depends on {family}");
        }
        let mut stack = vec![root.join(front).join("src")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for name in ["libro_chess", "libro_tables", "as_any()"] {
                        assert!(!text.contains(name), "{} uses {name}", path.display());
                    }
                }
            }
        }
    }
}

#[test]
fn a_seat_is_dropped_only_where_the_game_goes_on_without_it_and_checkers_can_always_win() {
    use libro_core::Seat;
    // Two seats: no game goes on without one, and nothing changes.
    for name in ["acedrex", "fallas"] {
        let mut game = load(name, &[]).unwrap().new_game(0);
        let before = game.position();
        assert!(!game.drop_seat(Seat(0)), "{name}");
        assert_eq!(game.position(), before, "{name}");
    }
    // Tables: a side with checkers on the board can always win (the other may falla).
    let fallas = load("fallas", &[]).unwrap().new_game(0);
    assert!(fallas.can_win(Seat(0)) && fallas.can_win(Seat(1)));
    // Four seats: the seat leaves and the others play on.
    let mut cuatro = load("cuatro-tiempos", &[]).unwrap().new_game(0);
    assert!(cuatro.drop_seat(Seat(0)));
    assert_eq!(cuatro.in_play(), vec![false, true, true, true]);
    assert_eq!(cuatro.turn(), Turn::Seat(Seat(1)));
    assert!(!cuatro.can_win(Seat(0)) && cuatro.can_win(Seat(1)));
}

/// The chess rules of a loaded ruleset.
fn chess(rules: &libro_registry::AnyRuleset) -> std::sync::Arc<libro_chess::ChessRules> {
    rules.downcast().expect("a chess ruleset")
}

#[test]
fn every_shipped_network_reads_and_fits_a_shipped_ruleset() {
    assert!(!libro_registry::SHIPPED_NETWORKS.is_empty());
    for (stem, bytes) in libro_registry::SHIPPED_NETWORKS {
        let net = libro_registry::Network::from_bytes(bytes)
            .unwrap_or_else(|e| panic!("rulesets/{stem}.nnue: {e}"));
        // A network is named by the ruleset it was fitted for, and the rule options it was
        // fitted with after `+` (`acedrex+pawn_double_step=first-move`); a change to how the
        // rules are written out (its key) shows here, not as a silent fall back to the
        // hand-written evaluation.
        let mut parts = stem.split('+');
        let name = parts.next().unwrap();
        let options: Vec<String> = parts.map(str::to_string).collect();
        let options = parse_overrides(&options)
            .unwrap_or_else(|e| panic!("{stem}.nnue names bad options: {e}"));
        let rules =
            load(name, &options).unwrap_or_else(|e| panic!("{stem}.nnue has no ruleset: {e}"));
        net.fits(&chess(&rules))
            .unwrap_or_else(|e| panic!("rulesets/{stem}.nnue: {e}"));
    }
}

#[test]
fn rulesets_get_the_shipped_network_by_their_play_not_their_name_or_referees_draws() {
    // The key of the network a ruleset with these options (KEY=VALUE) plays, if any.
    let key = |name: &str, options: &[&str]| {
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        let rules = load(name, &parse_overrides(&options).unwrap()).unwrap();
        Some(chess(&rules).network()?.key())
    };
    // Each gets the one fitted for it, not the other's; short assize ships none.
    assert!(key("shatranj", &[]).is_some());
    assert!(key("acedrex", &[]).is_some());
    assert_ne!(key("shatranj", &[]), key("acedrex", &[]));
    // Acedrex with Fairy-Stockfish's double step (every pawn's first move) gets the one
    // fitted for those rules, not acedrex's own.
    let first_move = key("acedrex", &["pawn_double_step=first-move"]);
    assert!(first_move.is_some());
    assert_ne!(first_move, key("acedrex", &[]));
    assert_eq!(key("short-assize", &[]), None);
    assert!(key("shatranj", &["repetition=0", "max_plies=300"]).is_some());
    assert!(key("shatranj", &["stalemate=draw"]).is_none());
    let text = SHIPPED.iter().find(|(s, _)| *s == "shatranj").unwrap().1;
    let renamed = text.replace("name = \"shatranj\"", "name = \"my-shatranj\"");
    let copy = load_text(&renamed, "my-shatranj.toml", &[]).unwrap();
    assert!(
        chess(&copy).network().is_some(),
        "a renamed copy plays alike"
    );
    // A fers that moves as a wazir makes other rules: the network was not fitted for them.
    let wazir = text.replace("betza = \"F\" }", "betza = \"W\" }");
    assert_ne!(wazir, text);
    let changed = load_text(&wazir, "wazir.toml", &[]).unwrap();
    assert!(chess(&changed).network().is_none());
}

#[test]
fn a_network_file_that_is_not_one_is_refused_naming_the_file_and_the_fault() {
    let dir = std::env::temp_dir().join(format!("libro-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: [(&str, Vec<u8>, &str); 3] = [
        (
            "text.nnue",
            b"family = \"chess\"\n".to_vec(),
            "not a libro network",
        ),
        ("short.nnue", b"LIBRONET\x01\0\0\0".to_vec(), "12 bytes"),
        (
            "long.nnue",
            vec![0; libro_chess::net::NETWORK_BYTES + 10],
            "longer than",
        ),
    ];
    for (name, bytes, says) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let path = path.display().to_string();
        let err = libro_registry::read_network(&path).unwrap_err().to_string();
        assert!(err.contains(&path) && err.contains(says), "{name}: {err}");
    }
    let missing = dir.join("missing.nnue").display().to_string();
    let err = libro_registry::read_network(&missing)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("cannot read network file") && err.contains(&missing),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_studys_readings_are_played_with_one_evaluation() {
    let with = |options: &[&str]| {
        let o: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        load("shatranj", &parse_overrides(&o).unwrap()).unwrap()
    };
    // Both readings have the network: both keep it.
    let same = libro_registry::with_one_evaluation(vec![with(&[]), with(&["max_plies=300"])]);
    assert!(same.iter().all(|r| r.network_key().is_some()));
    // One has it, one does not (a drawn stalemate is another game): neither keeps it, so
    // the study compares the rules, not two evaluations.
    let mixed = libro_registry::with_one_evaluation(vec![with(&[]), with(&["stalemate=draw"])]);
    assert!(mixed.iter().all(|r| r.network_key().is_none()));
    assert_eq!(
        mixed[0].digest(),
        with(&[]).digest(),
        "the rules are unchanged"
    );
    let tables = libro_registry::with_one_evaluation(vec![load("fallas", &[]).unwrap()]);
    assert_eq!(tables[0].name(), "fallas");
}

#[test]
fn the_network_that_plays_is_named_by_its_files_sha256() {
    use sha2::{Digest, Sha256};
    let file_digest = |file: &str| -> String {
        let path = format!("{}/../../rulesets/{file}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).expect("a shipped network file");
        Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let with = |name: &str, options: &[&str]| {
        let o: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        load(name, &parse_overrides(&o).unwrap()).unwrap()
    };
    // Each shipped network plays the rules it was fitted for, whatever its file's name.
    let cases = [
        ("shatranj", &[][..], "shatranj.nnue"),
        ("acedrex", &[][..], "acedrex.nnue"),
        (
            "acedrex",
            &["pawn_double_step=first-move"][..],
            "acedrex+pawn_double_step=first-move.nnue",
        ),
    ];
    for (name, options, file) in cases {
        assert_eq!(
            with(name, options).network_digest(),
            Some(file_digest(file)),
            "{name} {options:?}"
        );
    }
    // No network fits these: the hand-written evaluation plays.
    assert_eq!(with("forcado", &[]).network_digest(), None);
    assert_eq!(with("shatranj", &["stalemate=draw"]).network_digest(), None);
    assert_eq!(with("fallas", &[]).network_digest(), None);
}
