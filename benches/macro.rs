//! Macro benchmarks: whole all-solutions (exhaustive) searches of small shipped
//! puzzles, one per heuristic. Where `throughput.rs` measures nodes/s on a fixed node
//! budget, these measure what a user waits for: time to enumerate every solution,
//! which trades nodes/s against the number of nodes a heuristic visits.
//! Run with `cargo bench --bench macro` (about two to three minutes in all).

use criterion::{criterion_group, criterion_main, Criterion};
use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::search::{solve, Heuristic, Limits};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Small Brendan boards with their known solution counts (all placements counted).
const PUZZLES: &[(&str, u64)] = &[
    ("brendan/pieces_04x04.txt", 36),
    ("brendan/pieces_05x04.txt", 1952),
    ("brendan/pieces_05x05.txt", 16),
];

const HEURISTICS: &[&str] = &["scan", "mrv", "ply:2", "ply:3"];

fn all_solutions(c: &mut Criterion) {
    for &(name, expected) in PUZZLES {
        let path = format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
        let p = read_puzzle(Path::new(&path), EdgeOrder::Urdl).unwrap();
        let group_name = format!("all_{}x{}", p.width, p.height);
        let mut g = c.benchmark_group(group_name);
        g.sample_size(10);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(3));
        for &h in HEURISTICS {
            let heuristic: Heuristic = h.parse().unwrap();
            let limits = Limits::default(); // exhaustive, keeps no boards
            g.bench_function(h, |b| {
                b.iter(|| {
                    let r = solve(&p, heuristic, &limits, &AtomicBool::new(false));
                    assert_eq!(r.solutions_found, expected, "{name} with {h}");
                    black_box(r.nodes)
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, all_solutions);
criterion_main!(benches);
