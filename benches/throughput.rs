//! Throughput: nodes per second of each heuristic on a fixed node budget, plus the
//! per-node primitives (candidate count, place/unplace, one selection at ply 1..4).
//! Run with `cargo bench`; criterion reports time per iteration, and the node budget
//! turns that into nodes/s (Throughput::Elements).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::search::select::{Mrv, Ply, Select};
use plytile::search::{solve, Heuristic, Limits, State};
use std::hint::black_box;
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn puzzle(name: &str) -> plytile::puzzle::Puzzle {
    let path = format!("{}/puzzles/{name}", env!("CARGO_MANIFEST_DIR"));
    read_puzzle(Path::new(&path), EdgeOrder::Urdl).unwrap()
}

/// One group: each heuristic on `p` with its own node budget (nodes/s = budget / time).
fn nodes_group(c: &mut Criterion, name: &str, p: &plytile::puzzle::Puzzle, runs: &[(&str, u64)]) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    for &(h, budget) in runs {
        let heuristic: Heuristic = h.parse().unwrap();
        let limits = Limits {
            max_nodes: Some(budget),
            max_solutions: None,
            ..Limits::default()
        };
        g.throughput(Throughput::Elements(budget));
        g.bench_function(h, |b| {
            b.iter(|| black_box(solve(p, heuristic, &limits, &AtomicBool::new(false)).nodes))
        });
    }
    g.finish();
}

fn nodes_per_second(c: &mut Criterion) {
    let p = puzzle("brendan/pieces_07x07.txt");
    let runs = [
        ("scan", 20_000_000),
        ("mrv", 500_000),
        ("ply:2", 50_000),
        ("ply:3", 20_000),
    ];
    nodes_group(c, "nodes_7x7", &p, &runs);
}

/// Eternity II 16x16 with the starter piece: the board the public rowscan solvers
/// quote their placements per second on.
fn nodes_per_second_e2(c: &mut Criterion) {
    let mut p = puzzle("e2/e2pieces.txt");
    let hints = std::fs::read_to_string(format!(
        "{}/puzzles/e2/e2_starter.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    p.hints = plytile::puzzle::formats::parse_e2_hints(&hints, "e2_starter.txt").unwrap();
    let runs = [("scan", 20_000_000), ("mrv", 200_000), ("ply:2", 10_000)];
    nodes_group(c, "nodes_e2_starter", &p, &runs);
}

fn per_node(c: &mut Criterion) {
    let p = puzzle("brendan/pieces_08x08.txt");
    let mut st = State::new(&p);
    let mut g = c.benchmark_group("per_node_8x8");
    g.bench_function("count_all_open_cells", |b| {
        b.iter(|| {
            st.open_cells()
                .iter()
                .map(|&c| st.count(c as usize))
                .sum::<u32>()
        })
    });
    let mut cands = vec![0u64; st.words];
    st.candidates_into(0, &mut cands);
    let o = cands
        .iter()
        .enumerate()
        .find(|(_, w)| **w != 0)
        .map(|(i, w)| i as u32 * 64 + w.trailing_zeros())
        .unwrap();
    g.bench_function("place_unplace", |b| {
        b.iter(|| {
            st.place(0, black_box(o));
            st.unplace(0);
        })
    });
    g.bench_function("select_mrv", |b| b.iter(|| black_box(Mrv.pick(&mut st))));
    for n in 2..=4 {
        let mut sel = Ply::new(&st, n, false);
        g.bench_function(format!("select_ply{n}"), |b| {
            b.iter(|| black_box(sel.pick(&mut st)))
        });
    }
    g.finish();
}

criterion_group!(benches, nodes_per_second, nodes_per_second_e2, per_node);
criterion_main!(benches);
