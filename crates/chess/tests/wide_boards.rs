//! Boards other than 8x8 (the 256-bit engine): perft of a 10x10 game against
//! Fairy-Stockfish's figures stored in `tests/reference/fsf10/perft.md` (the test never runs
//! Fairy-Stockfish), and positions on 12x12 with Grant Acedrex's pieces whose legal moves
//! are counted by hand from the piece definitions, the count written out with each.

use libro_chess::{perft, ChessGame, ChessRules};
use std::sync::Arc;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference");

fn load(text: &str, origin: &str) -> Arc<ChessRules> {
    Arc::new(ChessRules::from_toml(text, origin, &[]).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn ten_by_ten_perft_matches_fairy_stockfish() {
    let text = std::fs::read_to_string(format!("{REFERENCE}/wide/shatranj10.toml")).unwrap();
    let r = load(&text, "shatranj10.toml");
    assert!(r.is_wide());
    let table = std::fs::read_to_string(format!("{REFERENCE}/fsf10/perft.md")).unwrap();
    let mut rows = 0;
    for line in table.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 6 || !cells[2].starts_with('`') {
            continue;
        }
        let (Ok(depth), Ok(nodes)) = (cells[3].parse::<u32>(), cells[4].parse::<u64>()) else {
            continue;
        };
        let fen = cells[2].trim_matches('`');
        let g = ChessGame::from_position(&r, fen).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(perft(&r, g.position(), depth), nodes, "{fen} depth {depth}");
        rows += 1;
    }
    assert_eq!(rows, 8);
    // The start string is the ruleset's own start.
    let start = ChessGame::new(&r).to_string();
    assert!(table.contains(&format!("`{start}`")), "{start}");
}

/// The same game loaded in 256-bit words on 8x8 gives shatranj's own counts: the wide
/// engine and the 8x8 one agree move for move.
#[test]
fn the_wide_engine_counts_eight_by_eight_as_the_narrow_one() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/acedrex.toml"
    ))
    .unwrap();
    let narrow = load(&text, "acedrex.toml");
    let wide = Arc::new(ChessRules::from_toml_wide(&text, "acedrex.toml", &[]).unwrap());
    assert!(wide.is_wide() && !narrow.is_wide());
    for depth in 1..=4 {
        assert_eq!(
            perft(&wide, &wide.start_position(), depth),
            perft(&narrow, &narrow.start_position(), depth),
            "depth {depth}"
        );
    }
}

/// Grant Acedrex's pieces as Cazaux and Musser read them (Betza as in the ruleset files),
/// on 12x12, with plain kings.
const GRANT_PIECES: &str = r#"family = "chess"
name = "grant-pieces"
title = "Grant Acedrex's pieces on 12x12"
source = "test"
[board]
files = 12
ranks = 12
[[seats]]
name = "white"
forward = "north"
[[seats]]
name = "black"
forward = "south"
[pieces]
king      = { letter = "K", betza = "K", royal = true }
aanca     = { letter = "A", betza = "t[FR]" }
unicorn   = { letter = "U", betza = "t[NB]" }
lion      = { letter = "L", betza = "HC" }
giraffe   = { letter = "G", betza = "Z" }
crocodile = { letter = "C", betza = "B" }
rook      = { letter = "R", betza = "R" }
pawn      = { letter = "P", betza = "fmWfcF", promotes_to = "crocodile" }
[setup]
white = "Ka1"
black = "Kl12"
"#;

fn count(board: &str) -> u64 {
    let r = load(GRANT_PIECES, "grant-pieces");
    let g = ChessGame::from_position(&r, &format!("{board} w - - 0 1"))
        .unwrap_or_else(|e| panic!("{e}"));
    perft(&r, g.position(), 1)
}

/// White king a1, black king l12; one white piece on f6 (file 6, rank 6 of 12).
fn alone(piece: char) -> String {
    format!("11k/12/12/12/12/12/5{piece}6/12/12/12/12/K11")
}

#[test]
fn the_aanca_steps_diagonally_then_may_run_on_orthogonally_outward() {
    // From f6: the four diagonal steps e5 e7 g5 g7 (4). From g7 on east h7..l7 (5) and
    // north g8..g12 (5); from e7 west d7..a7 (4) and north e8..e12 (5); from g5 east
    // h5..l5 (5) and south g4..g1 (4); from e5 west d5..a5 (4) and south e4..e1 (4):
    // 4 + 10 + 9 + 9 + 8 = 40. The king on a1: b1 a2 b2 (3). 43.
    assert_eq!(count(&alone('A')), 43);
}

#[test]
fn the_aanca_is_stopped_by_its_first_square_and_by_a_capture() {
    // As above with a white pawn on g7 and a black rook on e9. Steps: e5 e7 g5 (3; g7 is
    // our own). Nothing through g7. From e7: west d7..a7 (4), north e8 and the capture on
    // e9 (2). From g5: 5 + 4. From e5: 4 + 4. Aanca 3 + 6 + 9 + 8 = 26. The pawn: g8 (1;
    // f8 and h8 are empty, nothing to take). The king: 3. 30.
    assert_eq!(count("11k/12/12/4r7/12/6P5/5A6/12/12/12/12/K11"), 30);
}

#[test]
fn the_unicorn_leaps_as_a_knight_then_may_run_on_diagonally_outward() {
    // From f6 the eight knight leaps g8 e8 h7 d7 h5 d5 g4 e4 (8), each then on along the
    // diagonal leading away: g8-h9..k12 (4), e8-d9..a12 (4), h7-i8..l11 (4), d7-c8..a10
    // (3), h5-i4..l1 (4), d5-c4..a2 (3), g4-h3..j1 (3), e4-d3..b1 (3): 28. 36, and the
    // king's 3: 39.
    assert_eq!(count(&alone('U')), 39);
}

#[test]
fn the_lion_and_the_giraffe_leap() {
    // Lion (3,0) and (3,1) leaps from f6: c6 i6 f9 f3, and i7 i5 c7 c5 g9 e9 g3 e3: 12,
    // plus the king's 3.
    assert_eq!(count(&alone('L')), 15);
    // Giraffe (3,2) leaps from f6: i8 i4 c8 c4 h9 d9 h3 d3: 8, plus 3.
    assert_eq!(count(&alone('G')), 11);
}

#[test]
fn square_names_and_position_strings_reach_rank_twelve() {
    let r = load(GRANT_PIECES, "grant-pieces");
    let g = ChessGame::new(&r);
    assert_eq!(
        g.to_string(),
        "11k/12/12/12/12/12/12/12/12/12/12/K11 w - - 0 1"
    );
    let b = r.board();
    let l12 = b.parse_square("l12").unwrap();
    assert_eq!(b.name(l12).to_string(), "l12");
    assert_eq!(b.parse_square("m1"), None);
    assert_eq!(b.parse_square("a13"), None);
    assert_eq!(b.parse_square("a01"), None);
}

fn grant(overrides: &[(&str, &str)]) -> Arc<ChessRules> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../rulesets/grant-acedrex.toml"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let overrides: Vec<(String, String)> = overrides
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Arc::new(ChessRules::from_toml(&text, "grant-acedrex.toml", &overrides).unwrap())
}

#[test]
fn grant_acedrex_start_moves_counted_by_hand() {
    // White's moves at the start (rank 1 R L U G C A K C G U L R, pawns on rank 4):
    // pawns one step each (12); rooks a2 a3 / l2 l3 (4); lions only e2 / h2 (2: the other
    // leaps land on own pieces or off the board); unicorns from c1 d3 b3 e2 a2 and on from
    // e2 to f3 (5), from j1 k3 i3 l2 h2 and on from h2 to g3 (5); giraffes a3 g3 / f3 l3
    // (4); crocodiles d2 c3 f2 g3 / g2 f3 i2 j3 (8); the aanca e2 g2, on from e2 to d2..a2
    // and e3, from g2 to h2..l2 and g3 (2 + 5 + 6 = 13); the king f2 g2 h2 and its first
    // leaps e3 g3 i3 (6). 12 + 4 + 2 + 10 + 4 + 8 + 13 + 6 = 59.
    let r = grant(&[]);
    assert_eq!(perft(&r, &r.start_position(), 1), 59);
    // Murray's unicorn: a bishop (c1: b2 a3 d2 e3) and a first knight's leap (d3 b3 e2 a2),
    // 8 per unicorn instead of 5; the lion leaping three straight only has nothing (e1
    // holds a crocodile, b4 a pawn) instead of 1: 59 - 10 + 16 - 2 = 63.
    let murray = grant(&[("unicorn", "murray"), ("lion", "three-straight")]);
    assert_eq!(perft(&murray, &murray.start_position(), 1), 63);
    let names: Vec<String> = murray
        .options()
        .iter()
        .map(|o| o.name.to_string())
        .collect();
    assert!(names.contains(&"lion".to_string()) && names.contains(&"king_leap".to_string()));
    let lion = murray
        .options()
        .into_iter()
        .find(|o| o.name == "lion")
        .unwrap();
    assert_eq!(
        (lion.value.as_str(), lion.source.as_str()),
        ("three-straight", "--option")
    );
}

#[test]
fn grant_acedrex_pawns_become_the_piece_of_the_square_they_reach() {
    let r = grant(&[]);
    // White pawns on b11 and g11, the kings on a1 and l10. At the start b12 held a lion and
    // g12 the king: the pawn becomes a lion on b12 and an aanca on g12.
    let fen = "12/1P4P5/11k/12/12/12/12/12/12/12/12/K11 w - - 0 1";
    let mut g = ChessGame::from_position(&r, fen).unwrap();
    let b = r.board();
    let (b11, b12) = (
        b.parse_square("b11").unwrap(),
        b.parse_square("b12").unwrap(),
    );
    let mv = libro_core::Game::parse_move(&g, "b11b12").unwrap();
    assert_eq!((mv.from(), mv.to()), (b11, b12));
    let fx = g.play_move(mv);
    assert_eq!(
        fx.promoted.map(|t| r.pieces()[t as usize].name.as_str()),
        Some("lion")
    );
    let mut g = ChessGame::from_position(&r, fen).unwrap();
    let mv = libro_core::Game::parse_move(&g, "g11g12").unwrap();
    let fx = g.play_move(mv);
    assert_eq!(
        fx.promoted.map(|t| r.pieces()[t as usize].name.as_str()),
        Some("aanca")
    );
}

/// Grant Acedrex's pieces with Murray's giraffe, a (4,1) leaper written by its offsets.
fn murray_pieces() -> Arc<ChessRules> {
    let text = GRANT_PIECES.replace(r#"betza = "Z""#, r#"betza = "(4,1)""#);
    assert_ne!(text, GRANT_PIECES);
    load(&text, "grant-pieces-murray")
}

fn count_with(r: &Arc<ChessRules>, board: &str, depth: u32) -> u64 {
    let g = ChessGame::from_position(r, &format!("{board} w - - 0 1"))
        .unwrap_or_else(|e| panic!("{e}"));
    perft(r, g.position(), depth)
}

#[test]
fn murray_s_giraffe_leaps_four_and_one() {
    let r = murray_pieces();
    // From the corner l1 (file 11, rank 0): only (-1,+4) k5 and (-4,+1) h2; the other six
    // leave the board. 2, and the king's b1 a2 b2: 5.
    assert_eq!(
        count_with(&r, "11k/12/12/12/12/12/12/12/12/12/12/K10G", 1),
        5
    );
    // From f6 (5,5), central: all eight land, g10 e10 g2 e2 j7 j5 b7 b5 (files 1 to 9,
    // ranks 1 to 9): 8, and 3: 11.
    assert_eq!(count_with(&r, &alone('G'), 1), 11);
    // From b2 (1,1): c6 a6 f3 f1 (the other four need a file or rank below 0): 4; the
    // king on a1 has b1 a2 (b2 holds its giraffe): 2. 6.
    assert_eq!(
        count_with(&r, "11k/12/12/12/12/12/12/12/12/12/1G10/K11", 1),
        6
    );
}

#[test]
fn murray_s_giraffe_perft_of_a_small_position() {
    // White: king a1, giraffe f6. Black: king l12, pawn g10 (moving south).
    // Depth 1: the king's b1 a2 b2 (3) and the giraffe's eight leaps, g10 now a capture
    // (8): 11.
    // Depth 2, black's replies: the king's k12 k11 l11 unless the giraffe attacks them, and
    // the pawn's g9 (nothing white stands on f9 or h9 to capture).
    //   after a king move the giraffe on f6 attacks none of them: 3 x (3 + 1) = 12;
    //   Gxg10: the pawn is gone, and from g10 the giraffe attacks k11 (+4,+1): 2;
    //   Gj7: attacks k11 (+1,+4): 2 + 1 = 3;
    //   Ge10, Gg2, Ge2, Gj5, Gb7, Gb5: none of the three: 6 x 4 = 24.
    // 12 + 2 + 3 + 24 = 41.
    let r = murray_pieces();
    let board = "11k/12/6p5/12/12/12/5G6/12/12/12/12/K11";
    assert_eq!(count_with(&r, board, 1), 11);
    assert_eq!(count_with(&r, board, 2), 41);
}

#[test]
fn grant_acedrex_with_murray_s_giraffe_counted_by_hand() {
    // At the start the giraffes on d1 and i1 leap, with (4,1): from d1 (3,0) to c5 e5
    // (over the pawns on rank 4) and h2 (7,1); from i1 (8,0) to h5 j5 and e2 (4,1) (m2 is
    // off the board): 6, where the (3,2) leaps had a3 g3 / f3 l3 (4). 59 - 4 + 6 = 61.
    let r = grant(&[("giraffe", "murray")]);
    assert_eq!(perft(&r, &r.start_position(), 1), 61);
    let giraffe = r
        .options()
        .into_iter()
        .find(|o| o.name == "giraffe")
        .unwrap();
    assert_eq!(giraffe.value, "murray");
    assert!(giraffe.allowed.contains("three-and-two"));
    let default = grant(&[]);
    let option = default
        .options()
        .into_iter()
        .find(|o| o.name == "giraffe")
        .unwrap();
    assert_eq!(option.value, "three-and-two");
    assert!(option.source.contains("Murray"), "{}", option.source);
}
