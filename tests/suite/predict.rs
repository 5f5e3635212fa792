//! `plytile predict`: exact facts about the four models and the CLI contract.

use crate::common;

use common::puzzle_path;
use plytile::growth::models::{analytic, owen, sampled};
use plytile::predict::{self, ModelChoice, Options};
use plytile::puzzle::formats::{parse_text, read_puzzle, EdgeOrder};
use plytile::puzzle::generate::generate;
use plytile::puzzle::Puzzle;
use plytile::search::estimate as probe;
use plytile::search::{self, Along, Heuristic, Limits, Mrv, PlyN};
use std::process::Command;
use std::sync::atomic::AtomicBool;

fn load(rel: &str) -> Puzzle {
    read_puzzle(&puzzle_path(rel), EdgeOrder::Urdl).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn measure(p: &Puzzle, h: Heuristic) -> Vec<u64> {
    let limits = Limits {
        keep: 0,
        ..Limits::default()
    };
    let r = search::solve(p, h, &limits, &AtomicBool::new(false));
    assert!(r.exhaustive);
    let mut m = r.nodes_per_depth;
    m.resize(p.cells() - p.hints.len() + 1, 0);
    m
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

fn assert_per_depth_eq(name: &str, pred: &[f64], meas: &[u64]) {
    assert_eq!(pred.len(), meas.len(), "{name}: depth count");
    for (d, (&p, &m)) in pred.iter().zip(meas).enumerate() {
        assert!(
            close(p, m as f64),
            "{name}: depth {d}: predicted {p}, measured {m}"
        );
    }
}

/// One rim and one inner colour: every piece fits everywhere its kind fits, so every node
/// at a depth has the same branching (pieces of the cell's kind left, times 4 rotations
/// for inner cells). All four models must then be exact, Knuth's with any number of probes.
#[test]
fn every_model_is_exact_when_branching_is_uniform_per_depth() {
    let p = generate(3, 3, 1, 1, 7).unwrap();
    let meas = measure(&p, Heuristic::Scan(Along::Shape));
    // 4 corners, 4 edges, 1 inner: 4·4·3·... by hand: the row-major cells are
    // C E C / E I E / C E C.
    let expect = [1u64, 4, 16, 48, 144, 576, 1152, 2304, 2304, 2304];
    assert_eq!(meas, expect);
    for k in [1usize, 3, 17] {
        let stats = probe::probes(&p, Heuristic::Scan(Along::Shape), k, 42);
        assert_per_depth_eq("knuth", &stats.knuth(), &meas);
        assert_per_depth_eq("sampled", &stats.class_model().0, &meas);
    }
    assert_per_depth_eq("owen", &owen::owen_per_depth(&p), &meas);
    assert_per_depth_eq("analytic", &analytic::analytic(&p, false).per_depth, &meas);
    assert_per_depth_eq(
        "analytic+kappa",
        &analytic::analytic(&p, true).per_depth,
        &meas,
    );
    // With mrv the per-depth branching is uniform too, so the probe models stay exact.
    let meas = measure(&p, Heuristic::Mrv(Mrv));
    let stats = probe::probes(&p, Heuristic::Mrv(Mrv), 5, 1);
    assert_per_depth_eq("knuth mrv", &stats.knuth(), &meas);
}

/// A 2x2 board (four corners) worked by hand. Joins: top and right colour 1, left and
/// bottom colour 2. Corner pieces (URDL): TL [0,1,2,0], TR [0,0,1,1], BR [1,0,0,2],
/// BL [2,2,0,0]. Clockwise-after-rim ("right") frame edges: 1,1,2,2; anticlockwise
/// ("left"): 2,1,1,2; so L = R = {1: 2, 2: 2}, T = 4.
/// pb(1) = Σ L_c R_c / T² = 8/16 = 1/2.
/// pb(2) = V(2,2)/P(4,2)² with V(1,·) = [1, 4, 4], V(2,2) = 4 + 4·4·2 + 4 = 40: 40/144.
/// pb(4) = V(2,4)/P(4,4)² = (V(1,2)·P(2,2)²·C(4,2) = 4·4·6 = 96)/576 = 1/6.
/// Scan fills TL, TR, BL, BR: joins made 0, 1, 2, 4 and P(4,d) = 4, 12, 24, 24, so
/// Owen = 1, 4, 12·1/2, 24·40/144, 24·1/6 = 1, 4, 6, 20/3, 4.
#[test]
fn owen_on_a_hand_computed_2x2() {
    let p = parse_text(
        "2 2\n0 1 2 0\n0 0 1 1\n1 0 0 2\n2 2 0 0\n",
        "t",
        EdgeOrder::Urdl,
    )
    .unwrap();
    let ec = owen::edge_counts(&p);
    assert_eq!(ec.frame_right, vec![0, 2, 2]);
    assert_eq!(ec.frame_left, vec![0, 2, 2]);
    let pb: Vec<f64> = owen::ln_frame_join_probabilities(&ec.frame_left, &ec.frame_right, 4)
        .iter()
        .map(|x| x.exp())
        .collect();
    let want = [1.0, 0.5, 40.0 / 144.0, f64::NAN, 1.0 / 6.0];
    for b in [0, 1, 2, 4] {
        assert!(close(pb[b], want[b]), "pb({b}) = {}", pb[b]);
    }
    let owen = owen::owen_per_depth(&p);
    let want = [1.0, 4.0, 6.0, 20.0 / 3.0, 4.0];
    for (d, (&a, &b)) in owen.iter().zip(&want).enumerate() {
        assert!(close(a, b), "depth {d}: {a} vs {b}");
    }
}

/// The 2x2 of `owen_on_a_hand_computed_2x2` with TL [0,1,2,0] as a hint. The free
/// urns lose its right edge 1 and left edge 2: R = {1: 1, 2: 2}, L = {1: 2, 2: 1}, 3 each.
/// Depth 1, TR: its left edge faces the hint's right colour 1, one draw from L: 2/3;
/// P(3,1) = 3, so 2 (TR and BR are the corners with left edge 1).
/// Depth 2, BL: its right (clockwise) edge faces the hint's down colour 2, one draw from
/// R: 2/3; P(3,2) = 6, so 6 · 4/9 = 8/3.
/// Depth 3, BR: two pair joins from the urns left, L' = R' = {1: 1, 2: 1}:
/// pb(2) = (V = 2 ways: colour 1 on one join, 2 on the other) / P(2,2)² = 1/2, so
/// 6 · 4/9 · 1/2 = 4/3. (Counting the hint joins as pairs, 4 of them needed 4 left
/// edges of 3: 0.)
#[test]
fn owen_with_a_corner_hint_on_a_hand_computed_2x2() {
    let p = parse_text(
        "2 2\n0 1 2 0\n0 0 1 1\n1 0 0 2\n2 2 0 0\nhint 0 0 0 0\n",
        "t",
        EdgeOrder::Urdl,
    )
    .unwrap();
    let owen = owen::owen_per_depth(&p);
    let want = [1.0, 2.0, 8.0 / 3.0, 4.0 / 3.0];
    assert_eq!(owen.len(), want.len());
    for (d, (&a, &b)) in owen.iter().zip(&want).enumerate() {
        assert!(close(a, b), "depth {d}: {a} vs {b}");
    }
}

/// The tester's 3x3 with every cell but the centre hinted. The free inner piece
/// [4,4,3,3] must show the four hint colours, two 4s and two 3s, from its own four
/// half-edges: P(2,2)·P(2,2)/P(4,4) = 4/24, times P(1,1)·4 placements: 2/3 (the urn
/// ignores the cyclic order that lets one rotation fit, so not 1). It was 0: the four
/// hint joins were counted as 4 pairs, 8 half-edges from an urn of 4.
#[test]
fn owen_with_one_free_cell() {
    let p = parse_text(
        "3 3\n0 0 2 2\n4 4 3 3\n2 3 1 0\n0 1 4 2\n2 2 0 0\n0 1 4 2\n0 2 3 2\n\
         0 0 1 1\n0 2 1 0\nhint 0 0 0 3\nhint 0 1 3 0\nhint 0 2 8 1\nhint 1 0 6 3\n\
         hint 1 2 5 1\nhint 2 0 4 0\nhint 2 1 2 3\nhint 2 2 7 1\n",
        "t",
        EdgeOrder::Urdl,
    )
    .unwrap();
    assert_eq!(measure(&p, Heuristic::Scan(Along::Shape)), [1, 1]);
    let owen = owen::owen_per_depth(&p);
    assert!(close(owen[0], 1.0) && close(owen[1], 2.0 / 3.0), "{owen:?}");
    assert_per_depth_eq(
        "analytic",
        &analytic::analytic(&p, false).per_depth,
        &[1, 1],
    );
}

/// One rim and one inner colour, as `every_model_is_exact_when_branching_is_uniform_per_depth`:
/// every join matches, so with any cells hinted (a corner is `--symmetry`'s anchor) owen
/// and analytic stay exact. A fully hinted board has its root and nothing else.
#[test]
fn one_colour_models_stay_exact_with_hints() {
    let p = generate(3, 3, 1, 1, 7).unwrap();
    let board = common::brute_force_all(&p).boards[0].clone();
    let hinted = |cells: &[usize]| {
        let mut q = p.clone();
        q.hints = cells
            .iter()
            .map(|&c| common::hint_from(&p, &board, c))
            .collect();
        q
    };
    for cells in [
        &[0][..],
        &[1],
        &[4],
        &[0, 4],
        &[1, 3, 5, 7],
        &[0, 1, 2, 3, 4, 5, 6, 7, 8],
    ] {
        let q = hinted(cells);
        let meas = measure(&q, Heuristic::Scan(Along::Shape));
        assert!(meas.iter().all(|&n| n > 0), "{cells:?}: {meas:?}");
        assert_per_depth_eq(&format!("owen {cells:?}"), &owen::owen_per_depth(&q), &meas);
        let a = analytic::analytic(&q, false).per_depth;
        assert_per_depth_eq(&format!("analytic {cells:?}"), &a, &meas);
    }
    // The anchored tree of `--symmetry`, through the CLI: exact, and no hints note.
    let dir = common::scratch_dir("predict-one-colour");
    let file = dir.join("d.txt");
    std::fs::write(&file, plytile::puzzle::formats::to_text(&p)).unwrap();
    let out = common::plytile(&[
        "predict",
        &common::s(&file),
        "--symmetry",
        "--measure",
        "--model",
        "analytic",
        "--probes",
        "20",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for m in ["analytic", "owen"] {
        for r in ["ratio_total", "ratio_solutions"] {
            let x = v["summary"][m][r].as_f64().unwrap();
            assert!(close(x, 1.0), "{m} {r}: {x}");
        }
    }
    assert!(!v["notes"].to_string().contains("hint"), "{}", v["notes"]);
    common::cleanup(&dir);
}

/// Eternity II with hints: each hint takes an inner piece out of the pool (a factor
/// 1/(196 · 4) on the unhinted 1.1527e7 solutions) and turns its four pair joins into
/// draws of its own colours: 14,493 with the starter. Wortmann's 14,702 is exactly
/// 1.1527e7 / 784, the starter's joins drawn as pairs from the full urn; the starter's
/// colours are a little rarer than average. With all five hints 4.09e-8 (784^-5 of the
/// unhinted: 3.9e-8). Positive at every depth: it was 0 from the joins with the starter's
/// last neighbours on.
#[test]
fn owen_on_eternity_ii_with_hints() {
    for (file, solutions) in [("e2_starter.txt", 14_493.04), ("e2_hints.txt", 4.0888e-8)] {
        let e2 = crate::common::e2_with(file);
        let owen = owen::owen_per_depth(&e2);
        assert_eq!(owen.len(), 257 - e2.hints.len());
        for (d, &x) in owen.iter().enumerate() {
            assert!(x.is_finite() && x > 0.0, "{file} depth {d}: {x}");
        }
        let last = *owen.last().unwrap();
        assert!((last / solutions - 1.0).abs() < 1e-4, "{file}: {last}");
    }
}

/// On E2 the join probabilities of the deep levels are below the smallest f64: kept in
/// logs, Owen's count stays positive to the full board (it was 0 from depth 162).
#[test]
fn owen_on_eternity_ii_is_positive_at_every_depth() {
    let p = load("e2/e2pieces.txt");
    let owen = owen::owen_per_depth(&p);
    assert_eq!(owen.len(), 257);
    for (d, &x) in owen.iter().enumerate() {
        assert!(x.is_finite() && x > 0.0, "depth {d}: {x}");
    }
    // The peak is mid-board, far above the full boards.
    let top = owen.iter().cloned().fold(0.0, f64::max);
    assert!(top > 1e48 && owen[256] < top, "{top} {}", owen[256]);
}

/// For one join the urn model gives Σ n_c(n_c − 1)/(N(N − 1)) (inner) and Σ L_c R_c /
/// (T_L T_R) (frame); for all joins of a perfect pairing it is Π (n_c − 1)!! / (N − 1)!!.
#[test]
fn owen_join_probabilities_match_closed_forms() {
    let counts = [0u64, 6, 4, 2];
    let n = 12.0;
    let pm: Vec<f64> = owen::ln_inner_join_probabilities(&counts, 6)
        .iter()
        .map(|x| x.exp())
        .collect();
    let one = (6.0 * 5.0 + 4.0 * 3.0 + 2.0 * 1.0) / (n * (n - 1.0));
    assert!(close(pm[1], one));
    assert!(pm[1] < counts.iter().map(|&c| (c as f64 / n).powi(2)).sum::<f64>());
    // All 6 joins: (5·3·1)(3·1)(1) / (11·9·7·5·3·1).
    assert!(close(pm[6], 45.0 / 10395.0), "{}", pm[6]);
    // Two joins, by conditioning on the first pair's colour (6, 4 or 2 edges):
    // (30·26 + 12·34 + 2·42) / (132·90) — not pm(1)².
    assert!(close(pm[2], 1272.0 / 11880.0), "{}", pm[2]);
    assert!(!close(pm[2], pm[1] * pm[1]));
    let pb = owen::ln_frame_join_probabilities(&[0, 3, 1], &[0, 2, 2], 1);
    assert!(close(pb[1].exp(), (3.0 * 2.0 + 1.0 * 2.0) / 16.0));
}

/// The probes' K → ∞ limit (every node, each with its exact reach probability): Knuth's
/// estimate is then the exact count at every depth, and the class model is close.
#[test]
fn all_probes_on_brendan_4x4() {
    let p = load("brendan/pieces_04x04.txt");
    for h in [
        Heuristic::Scan(Along::Shape),
        Heuristic::Ply(PlyN { n: 2, adj: false }),
    ] {
        let meas = measure(&p, h);
        let stats = probe::enumerate(&p, h, 1_000_000).expect("small tree");
        assert_per_depth_eq("knuth (all probes)", &stats.knuth(), &meas);
        // The class model with all probes: within a factor 2 at every depth with nodes,
        // and within 1.3x in total.
        let (pred, _) = stats.class_model();
        for (d, (&p, &m)) in pred.iter().zip(&meas).enumerate() {
            if m > 0 {
                let r = p / m as f64;
                assert!((0.5..=2.0).contains(&r), "{h} depth {d}: {p} vs {m}");
            }
        }
        let r = pred.iter().sum::<f64>() / meas.iter().sum::<u64>() as f64;
        assert!((1.0 / 1.3..=1.3).contains(&r), "{h}: total ratio {r}");
    }
}

/// Finite probes, fixed seed: Knuth and the class model stay near the truth on the 4x4,
/// and every model predicts exactly one root.
#[test]
fn probes_are_deterministic_and_reasonable() {
    let p = load("brendan/pieces_04x04.txt");
    let opts = Options {
        select: Heuristic::Scan(Along::Shape),
        model: ModelChoice::All,
        probes: 2000,
        stratified_probes: 2000,
        seed: 5,
    };
    let meas = measure(&p, Heuristic::Scan(Along::Shape));
    let a = predict::predict(&p, &opts, Some((meas.clone(), None)));
    let b = predict::predict(&p, &opts, Some((meas.clone(), None)));
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    assert_eq!(
        a.models,
        ["analytic", "sampled", "knuth", "stratified", "owen"]
    );
    for (m, v) in &a.predicted_per_depth {
        assert_eq!(v[0], 1.0, "{m} at depth 0");
        assert_eq!(v.len(), meas.len(), "{m}");
    }
    for m in ["sampled", "knuth", "stratified"] {
        let r = a.summary[m].ratio_total.unwrap();
        assert!((0.75..=1.33).contains(&r), "{m}: {r}");
    }
    // Owen's documented record on this board: 0.82x.
    let r = a.summary["owen"].ratio_total.unwrap();
    assert!((0.8..0.85).contains(&r), "owen {r}");
}

/// Classes are a partition: every b ≥ 1 maps to exactly one bucket of its kind.
#[test]
fn class_buckets() {
    assert_eq!(sampled::class_of(2, 0), sampled::DEAD);
    assert_eq!(sampled::class_name(sampled::class_of(2, 1)), "inner:b=1");
    assert_eq!(sampled::class_name(sampled::class_of(1, 5)), "edge:b=5-6");
    assert_eq!(
        sampled::class_name(sampled::class_of(0, 1000)),
        "corner:b>=50"
    );
    let mut seen = std::collections::HashSet::new();
    for kind in 0..3 {
        for b in 1..200 {
            seen.insert(sampled::class_of(kind, b));
        }
    }
    assert_eq!(seen.len(), sampled::CLASSES - 2);
}

#[test]
fn cli_json_keys_and_plot() {
    let dir = common::scratch_dir("predict");
    let svg = dir.join("p.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(["predict"])
        .arg(puzzle_path("brendan/pieces_04x04.txt"))
        .args([
            "--select",
            "ply:2",
            "--probes",
            "300",
            "--seed",
            "9",
            "--measure",
            "--json",
            "--plot",
        ])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let models = ["analytic", "sampled", "knuth", "owen"];
    for m in models {
        let arr = v["predicted_per_depth"][m].as_array().unwrap();
        assert_eq!(arr.len(), 17, "{m}");
        assert_eq!(arr[0].as_f64(), Some(1.0), "{m}");
        assert!(v["spectral_radius"][m].as_f64().unwrap() > 0.0, "{m}");
        let eig = v["eigenvalues"][m].as_array().unwrap();
        assert!(
            !eig.is_empty() && eig.iter().all(|z| z.as_array().unwrap().len() == 2),
            "{m}"
        );
        assert!(v["summary"][m]["ratio_total"].as_f64().is_some(), "{m}");
    }
    let meas = v["measured_per_depth"].as_array().unwrap();
    assert_eq!(meas.iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 2623);
    assert_eq!(v["measured_solutions"].as_u64(), Some(36));
    assert!(v["notes"].to_string().contains("scan"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("measured") && text.contains("owen"));
    // --model analytic keeps the baselines; text output has a table.
    let out = Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(["predict"])
        .arg(puzzle_path("brendan/pieces_04x04.txt"))
        .args(["--model", "analytic", "--probes", "50"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("analytic") && text.contains("knuth") && !text.contains("sampled"));
    common::cleanup(&dir);
}

/// Probes on scan's tables draw as the generic probes do: the same paths from the
/// same seed, so the same Knuth estimate per depth (up to rounding), along rows,
/// columns and with hints.
#[test]
fn probes_on_scan_tables_equal_the_generic_probes() {
    let mut e2 = load("e2/e2pieces.txt");
    let starter = std::fs::read_to_string(puzzle_path("e2/e2_starter.txt")).unwrap();
    e2.hints = plytile::puzzle::formats::parse_e2_hints(&starter, "e2_starter.txt").unwrap();
    let cases = [
        (load("brendan/pieces_06x06.txt"), false, 3000),
        (load("brendan/pieces_06x06.txt"), true, 3000),
        (load("brendan/pieces_08x04.txt"), true, 3000),
        (load("wortmann8x8/brendan8x8_puzzleC_set1.txt"), false, 3000),
        (e2, false, 300),
    ];
    for (p, columns, k) in cases {
        let h = Heuristic::Scan(Along::fixed(columns));
        let st = search::State::new(&p);
        let tables = search::rowscan::RowScan::new(&st, columns);
        let mut prober = tables.prober(&st).unwrap();
        for seed in [1, 7] {
            let generic = probe::probes(&p, h, k, seed).knuth();
            let mut fast = vec![0.0; generic.len()];
            let mut rng = plytile::puzzle::generate::SplitMix64::new(seed);
            for _ in 0..k {
                prober.probe(|b| rng.below(b), |d, w| fast[d] += w / k as f64);
            }
            for (d, (f, g)) in fast.iter().zip(&generic).enumerate() {
                assert!(
                    close(*f, *g),
                    "{} {h} seed {seed} depth {d}: {f} vs {g}",
                    p.name
                );
            }
            assert!(fast.iter().sum::<f64>() > 1.0);
        }
    }
}

/// The stratified estimate counts the top levels exactly: a tree whose every level is
/// within k / 8 nodes is counted whole when the pilot reaches its last level (4x4),
/// and down to the deepest level the pilot reached (5x5: the probes below it are
/// nearly exact); a bigger one lands near its size.
#[test]
fn scan_estimate_is_exact_on_small_trees_and_close_on_bigger_ones() {
    for (name, tolerance) in [("04x04", 0.0), ("05x05", 1e-6)] {
        let p = load(&format!("brendan/pieces_{name}.txt"));
        let total = measure(&p, Heuristic::Scan(Along::Shape))
            .iter()
            .sum::<u64>() as f64;
        for seed in [1, 2] {
            let e = probe::estimate(&p, Heuristic::Scan(Along::Shape), 8_000_000, seed);
            assert!(
                (e - total).abs() <= tolerance * total,
                "{name} seed {seed}: {e} vs {total}"
            );
        }
    }
    let p = load("brendan/pieces_06x06.txt");
    let total: u64 = measure(&p, Heuristic::Scan(Along::Shape)).iter().sum();
    for seed in [1, 2, 3] {
        let r = probe::estimate(&p, Heuristic::Scan(Along::Shape), 100_000, seed) / total as f64;
        assert!((0.85..1.15).contains(&r), "6x6 seed {seed}: {r}");
    }
}

/// With probes enough for the stratified level to reach the bottom, the `stratified`
/// model walks every node: exact at every depth, for `scan` on its tables and for the
/// others on the generic state (a hybrid's tree included).
#[test]
fn stratified_model_is_exact_per_depth_on_a_small_tree() {
    let p = load("brendan/pieces_04x04.txt");
    for h in ["scan", "mrv", "ply:2", "mrv@3"] {
        let h: Heuristic = h.parse().unwrap();
        let opts = Options {
            select: h,
            model: ModelChoice::Analytic,
            probes: 100_000,
            stratified_probes: 100_000,
            seed: 3,
        };
        let meas = measure(&p, h);
        let r = predict::predict(&p, &opts, Some((meas.clone(), None)));
        let s = &r.predicted_per_depth["stratified"];
        assert_eq!(s.len(), meas.len(), "{h}");
        for (d, (x, &m)) in s.iter().zip(&meas).enumerate() {
            assert!((x - m as f64).abs() < 1e-9, "{h} depth {d}: {x} != {m}");
        }
        assert_eq!(r.summary["stratified"].ratio_total, Some(1.0), "{h}");
    }
}

/// A needle-like tree that plain probes under-count (ply:2 on the 8x8 with five E2-like
/// hints, 1,209 nodes: Knuth's 10,000 probes put it near 80) is walked whole by the
/// stratified model when it has at most `--probes` nodes.
#[test]
fn the_stratified_model_walks_a_small_needle_tree_whole() {
    let p = load("hinted/b08x08_e2hints.txt");
    let h: Heuristic = "ply:2".parse().unwrap();
    let meas = measure(&p, h);
    assert_eq!(meas.iter().sum::<u64>(), 1209);
    let opts = Options {
        select: h,
        model: ModelChoice::Analytic,
        probes: 10_000,
        stratified_probes: 10_000,
        seed: 1,
    };
    let r = predict::predict(&p, &opts, Some((meas.clone(), None)));
    let exact: Vec<f64> = meas.iter().map(|&m| m as f64).collect();
    assert_eq!(r.predicted_per_depth["stratified"], exact);
    let note = "stratified: the whole tree walked: exact";
    assert!(r.notes.iter().any(|n| n == note), "{:?}", r.notes);
    assert!(
        r.summary["knuth"].ratio_total.unwrap() < 0.5,
        "{:?}",
        r.summary
    );
}

/// With fewer probes the generic stratified estimate counts the top levels exactly and
/// probes below them: on the 5x5 (mrv, 2,000 probes: k / 8 = 250 nodes a level) the
/// levels above the stratum are exact and the total lands near the tree's.
#[test]
fn generic_stratified_estimate_is_exact_above_its_level() {
    let p = load("brendan/pieces_05x05.txt");
    let h = Heuristic::Mrv(Mrv);
    let meas = measure(&p, h);
    let total = meas.iter().sum::<u64>() as f64;
    for seed in [1, 2] {
        let (s, whole) = probe::stratified_generic(&p, h, 2000, seed, &|| false).unwrap();
        assert!(!whole, "67,468 nodes, over 2,000");
        let exact = s.iter().zip(&meas).take_while(|(x, &m)| **x == m as f64);
        assert!(exact.count() >= 3, "seed {seed}: {s:?} vs {meas:?}");
        let r = s.iter().sum::<f64>() / total;
        assert!((0.7..1.3).contains(&r), "seed {seed}: {r}");
    }
}

/// A needle-like tree: on Puzzle C with five hints, `ply:2@16` has 17,059 nodes with 1
/// or 2 on each of levels 8-10. Plain probes (10,000) die above level 14 and under-count
/// it 100x and more; the levels counted one by one (at most 1,250 nodes a level) stay
/// exact down to level 32 or so, and the estimate lands within 10% of the tree.
#[test]
fn a_needle_tree_is_counted_level_by_level() {
    let p = load("hinted/b08x08_e2hints.txt");
    let h: Heuristic = "ply:2@16".parse().unwrap();
    let meas = measure(&p, h);
    let total = meas.iter().sum::<u64>() as f64;
    assert_eq!(total, 17_059.0);
    let knuth: f64 = probe::probes(&p, h, 10_000, 1).knuth().iter().sum();
    assert!(knuth < total / 100.0, "plain probes: {knuth}");
    for seed in [1, 2] {
        let (s, whole) = probe::stratified_generic(&p, h, 10_000, seed, &|| false).unwrap();
        assert!(!whole, "17,059 nodes, over 10,000");
        let exact = s.iter().zip(&meas).take_while(|(x, &m)| **x == m as f64);
        assert!(exact.count() > 20, "seed {seed}: {s:?} vs {meas:?}");
        let r = s.iter().sum::<f64>() / total;
        assert!((0.9..1.1).contains(&r), "seed {seed}: {r}");
    }
}

/// A measured run that `--max-nodes` cut short is partial, as one a timeout or Ctrl-C
/// cut: exit code 3, and the note and `measured_stopped_by` name the limit.
#[test]
fn a_measured_run_stopped_by_max_nodes_exits_3_and_names_the_limit() {
    let measure = |extra: &[&str]| {
        let p = common::p("brendan/pieces_04x04.txt");
        let mut args = vec!["predict", &p, "--model", "analytic", "--probes", "50"];
        args.extend(["--measure", "--json"]);
        args.extend(extra);
        let o = common::plytile(&args);
        let v: serde_json::Value = serde_json::from_str(&common::stdout(&o)).unwrap();
        (common::code(&o), v, common::stderr(&o))
    };
    let (code, v, err) = measure(&["--max-nodes", "1000"]);
    assert_eq!(code, 3, "{err}");
    assert_eq!(v["measured_exhaustive"], false);
    assert_eq!(v["measured_stopped_by"], "max_nodes");
    let note = "the measured run stopped early (--max-nodes reached): measured counts are partial";
    assert!(
        v["notes"].as_array().unwrap().contains(&note.into()),
        "{}",
        v["notes"]
    );
    // An exhaustive one has no such key.
    let (code, v, err) = measure(&[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["measured_exhaustive"], true);
    assert!(v.get("measured_stopped_by").is_none());
}

/// `--symmetry` on a hinted board predicts the whole tree, and says so as `solve` does.
#[test]
fn symmetry_on_a_hinted_board_predicts_the_whole_tree_with_solves_note() {
    let o = common::plytile(&[
        "predict",
        &common::p("hinted/b7x5_col3.txt"),
        "--model",
        "analytic",
        "--probes",
        "50",
        "--stratified-probes",
        "100",
        "--symmetry",
        "--json",
    ]);
    assert_eq!(common::code(&o), 0, "{}", common::stderr(&o));
    // predict searches nothing without --measure: the note says what it does.
    assert_eq!(
        common::stderr(&o),
        "plytile: note: --symmetry is for boards without hints; predicting the whole tree\n"
    );
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&o)).unwrap();
    assert!(v.get("parts").is_none(), "no trees cut: {}", v["parts"]);
    let o = common::plytile(&[
        "predict",
        &common::p("hinted/b7x5_col3.txt"),
        "--model",
        "analytic",
        "--probes",
        "50",
        "--stratified-probes",
        "100",
        "--symmetry",
        "--measure",
        "--max-nodes",
        "1000",
        "--json",
    ]);
    assert_eq!(common::code(&o), 3, "{}", common::stderr(&o));
    assert_eq!(
        common::stderr(&o),
        "plytile: note: --symmetry is for boards without hints; predicting and measuring the whole tree\n"
    );
}

/// A `--symmetry` prediction stopped while the estimates choose the trees still
/// prints a JSON report under `--json`, with the note saying so (exit 3), as every
/// other stopped predict does.
#[test]
fn symmetry_stopped_while_choosing_the_trees_prints_a_json_report() {
    let o = common::plytile(&[
        "predict",
        &common::p("brendan/pieces_06x06.txt"),
        "--symmetry",
        "--timeout",
        "1e-9",
        "--json",
    ]);
    assert_eq!(common::code(&o), 3, "{}", common::stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&o))
        .unwrap_or_else(|e| panic!("{e}: {:?}", common::stdout(&o)));
    assert_eq!(v["notes"], serde_json::json!([predict::TREES_STOPPED_NOTE]));
    assert_eq!(v["probes_stopped"], true);
    assert_eq!(v["models"], serde_json::json!([]));
    assert_eq!(v["parts"], serde_json::json!([]));
    assert_eq!(v["measured_total"], serde_json::Value::Null);
}

/// `--measure --timeout`: the models run before the measured run, so a run that
/// would use the whole deadline leaves the probe models in the report.
#[test]
fn a_measured_run_stopped_by_its_timeout_leaves_the_probe_models() {
    let o = common::plytile(&[
        "predict",
        &common::p("wortmann8x8/puzzleD_8x8_set2.txt"),
        "--select",
        "ply:2",
        "--measure",
        "--timeout",
        "1",
        "--probes",
        "200",
        "--json",
    ]);
    assert_eq!(common::code(&o), 3, "{}", common::stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&o)).unwrap();
    assert_eq!(
        v["models"],
        serde_json::json!(["analytic", "sampled", "knuth", "stratified", "owen"])
    );
    assert!(v.get("probes_stopped").is_none(), "{v}");
    assert_eq!(v["measured_exhaustive"], false);
    assert_eq!(v["measured_stopped_by"], "timeout");
    assert!(v["summary"]["knuth"]["ratio_total"].as_f64().is_some());
}

/// `--plot -` and `--json` would share stdout: refused with one line, exit 2. Without
/// `--json` the SVG has stdout alone and the text goes to stderr.
#[test]
fn plot_to_stdout_beside_json_is_refused() {
    let p = common::p("brendan/pieces_04x04.txt");
    let o = common::plytile(&["predict", &p, "--probes", "100", "--plot", "-", "--json"]);
    assert_eq!(common::code(&o), 2, "{}", common::stderr(&o));
    assert!(o.stdout.is_empty());
    assert_eq!(
        common::stderr(&o),
        "plytile: --plot - and --json: only one output can go to stdout (-); write the other to a file\n"
    );
    let o = common::plytile(&["predict", &p, "--probes", "100", "--plot", "-"]);
    assert_eq!(common::code(&o), 0, "{}", common::stderr(&o));
    let out = common::stdout(&o);
    assert!(
        out.starts_with("<svg") && out.trim_end().ends_with("</svg>"),
        "{out}"
    );
    assert!(
        common::stderr(&o).contains("knuth"),
        "{}",
        common::stderr(&o)
    );
}

/// `--model`'s help names every baseline that always runs.
#[test]
fn model_help_names_the_baselines_that_always_run() {
    let o = common::plytile(&["predict", "--help"]);
    let help = common::stdout(&o)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains("the knuth, stratified and owen baselines always run"),
        "{help}"
    );
}

/// Issue 43: `predict --measure` shows `solve`'s status line (nodes, rate, the
/// fraction of an estimated tree) on a terminal while the measured run goes, instead
/// of nothing until the end; not when stderr is not a terminal.
#[test]
fn measure_shows_solves_status_line_on_a_terminal() {
    let p = common::p("brendan/pieces_07x05.txt");
    // scan's exhaustive run of the 7x5 takes about 0.2 s.
    let args = [
        "predict",
        &p,
        "--measure",
        "--probes",
        "100",
        "--stratified-probes",
        "1000",
        "--json",
    ];
    let line = std::iter::once(env!("CARGO_BIN_EXE_plytile"))
        .chain(args)
        .collect::<Vec<_>>()
        .join(" ");
    let Ok(o) = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env_remove("RUST_LOG")
        .output()
    else {
        return; // no `script` here
    };
    let drawn = String::from_utf8_lossy(&o.stdout);
    assert!(
        drawn.contains(" nodes/s, deepest ") && drawn.contains("% of an estimated "),
        "{drawn}"
    );
    // Not a terminal: only the JSON.
    let o = common::plytile(&args);
    assert_eq!(common::code(&o), 0, "{}", common::stderr(&o));
    assert_eq!(common::stderr(&o), "");
}
