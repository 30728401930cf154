//! The bitboard width, measured. The same 8x8 rules in `u64` words (magic sliding tables,
//! what 8x8 rulesets use) and in 256-bit words (ray scans, what every other board uses):
//! the fitting width per board against one wide type for all. And the wide engine on the
//! boards it exists for: the 10x10 test game with cannons and Grant Acedrex (12x12).
//!
//! Measured 2026-11-25 on 2 shared cores (`cargo bench -p libro-chess --bench widths`):
//! acedrex perft 5 (13.2 M leaves) 99.5 ms in u64, 348.8 ms in 256-bit words: one wide type
//! for all would make 8x8 3.5 times slower, hence u64 for 8x8 and 256 bits only where
//! needed. shatranj10 perft 4 (184 k) 50.7 ms, grant-acedrex perft 3 (206 k) 56.0 ms: their
//! hoppers and bent moves make every move be tried for legality.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use libro_chess::{perft, ChessRules};

fn text(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect("a file")
}

fn eight_by_eight_in_both_widths(c: &mut Criterion) {
    let acedrex = text("../../rulesets/acedrex.toml");
    let narrow = ChessRules::from_toml(&acedrex, "acedrex.toml", &[]).expect("valid");
    let wide = ChessRules::from_toml_wide(&acedrex, "acedrex.toml", &[]).expect("valid");
    let mut group = c.benchmark_group("width-acedrex");
    group.sample_size(10);
    let depth = 5;
    let nodes = perft(&narrow, &narrow.start_position(), depth);
    group.throughput(Throughput::Elements(nodes));
    for (name, r) in [("u64", &narrow), ("w256", &wide)] {
        let start = r.start_position();
        group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
            b.iter(|| perft(r, &start, d))
        });
    }
    group.finish();
}

fn wide_boards(c: &mut Criterion) {
    let mut group = c.benchmark_group("wide-boards");
    group.sample_size(10);
    for (name, path, depth) in [
        ("shatranj10", "tests/reference/wide/shatranj10.toml", 4),
        ("grant-acedrex", "../../rulesets/grant-acedrex.toml", 3),
    ] {
        let r = ChessRules::from_toml(&text(path), name, &[]).expect("valid");
        let start = r.start_position();
        group.throughput(Throughput::Elements(perft(&r, &start, depth)));
        group.bench_with_input(BenchmarkId::new(name, depth), &depth, |b, &d| {
            b.iter(|| perft(&r, &start, d))
        });
    }
    group.finish();
}

criterion_group!(benches, eight_by_eight_in_both_widths, wide_boards);
criterion_main!(benches);
