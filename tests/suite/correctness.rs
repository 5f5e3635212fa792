//! Core correctness tests: the solver against an independent brute force, the shipped
//! Brendan Owen benchmark counts, metamorphic relations, the generator, the formats,
//! and the search state's invariants. Every count asserted here is exact.

use crate::common;

use common::{brute_force, brute_force_all, hint_from, puzzle_path, shown, Rng};
use plytile::puzzle::formats::{
    parse_board, parse_e2_hints, parse_ron, parse_text, read_puzzle, to_ron, to_text, EdgeOrder,
};
use plytile::puzzle::generate::{default_colours, generate};
use plytile::puzzle::{verify, Board, Hint, Kind, Puzzle};
use plytile::report::SolveResult;
use plytile::search::{solve, Along, Heuristic, Limits, Mrv, PlyN, State};
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;

// ---------------------------------------------------------------------------------
// helpers

/// Runs the solver to exhaustion, keeping up to `keep` solution boards.
fn run(p: &Puzzle, h: Heuristic, keep: usize) -> SolveResult {
    let r = solve(
        p,
        h,
        &Limits {
            max_solutions: None,
            keep,
            ..Default::default()
        },
        &AtomicBool::new(false),
    );
    assert!(r.exhaustive, "{h} on {} did not run to exhaustion", p.name);
    assert_eq!(r.stopped_by, None);
    assert_eq!(
        r.nodes,
        r.nodes_per_depth.iter().sum::<u64>(),
        "nodes = sum per depth"
    );
    assert_eq!(r.nodes_per_depth[0], 1, "the root is one node");
    for i in 0..r.solutions.len() {
        let b = r.solution_board(i);
        verify::check(p, &b, true)
            .unwrap_or_else(|v| panic!("{h} solution {i} of {} fails the checker: {v}", p.name));
    }
    assert_eq!(r.solutions.len() as u64, r.solutions_found.min(keep as u64));
    r
}

fn count(p: &Puzzle, h: Heuristic) -> u64 {
    run(p, h, 0).solutions_found
}

fn load(rel: &str) -> Puzzle {
    read_puzzle(&puzzle_path(rel), EdgeOrder::Urdl).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn brendan(w: usize, h: usize) -> Puzzle {
    load(&format!("brendan/pieces_{w:02}x{h:02}.txt"))
}

/// `--max-nodes n` counts at most n nodes and sees each through. A budget of the whole
/// tree ends exhaustive, a budget of 1 counts the root alone, and a solution that is
/// the n-th node is reported under a budget of n. The same for the row-scan driver
/// (scan) and the generic one (mrv, ply:2).
#[test]
fn a_node_budget_counts_and_sees_through_exactly_its_nodes() {
    use plytile::search::Stop;
    let p = brendan(5, 5);
    for h in [
        Heuristic::Scan(Along::Shape),
        Heuristic::Mrv(Mrv),
        Heuristic::Ply(PlyN { n: 2, adj: false }),
    ] {
        let limited = |max_nodes, max_solutions| {
            let l = Limits {
                max_nodes: Some(max_nodes),
                max_solutions,
                ..Default::default()
            };
            solve(&p, h, &l, &AtomicBool::new(false))
        };
        let whole = run(&p, h, 0);
        let r = limited(whole.nodes, None);
        assert_eq!(
            (r.nodes, r.exhaustive, r.stopped_by),
            (whole.nodes, true, None)
        );
        assert_eq!(r.nodes_per_depth, whole.nodes_per_depth, "{h}");
        assert_eq!(r.solutions_found, whole.solutions_found, "{h}");
        let r = limited(whole.nodes - 1, None);
        let stopped = (false, Some(Stop::MaxNodes));
        assert_eq!(
            (r.nodes, (r.exhaustive, r.stopped_by)),
            (whole.nodes - 1, stopped)
        );
        let r = limited(1, None);
        assert_eq!((r.nodes, (r.exhaustive, r.stopped_by)), (1, stopped), "{h}");
        // The first solution is the last node of the search that stops at it.
        let n = limited(u64::MAX, Some(1)).nodes;
        assert_eq!(limited(n, None).solutions_found, 1, "{h}: budget {n}");
        assert_eq!(
            limited(n - 1, None).solutions_found,
            0,
            "{h}: budget {n} - 1"
        );
    }
}

/// Solver (scan and mrv) against the brute force on one puzzle: scan nodes per depth
/// and both solution counts exactly; for small solution sets, the very same boards.
fn check_against_brute(p: &Puzzle, what: &str) -> u64 {
    const SMALL: u64 = 3000;
    let scan = run(p, Heuristic::Scan(Along::Shape), SMALL as usize);
    let bf = if scan.solutions_found <= SMALL {
        brute_force_all(p)
    } else {
        brute_force(p)
    };
    assert_eq!(
        scan.nodes_per_depth, bf.nodes_per_depth,
        "{what}: scan nodes per depth"
    );
    assert_eq!(scan.solutions_found, bf.solutions, "{what}: scan solutions");
    let mrv = run(p, Heuristic::Mrv(Mrv), SMALL as usize);
    assert_eq!(mrv.solutions_found, bf.solutions, "{what}: mrv solutions");
    assert_eq!(mrv.nodes_per_depth[0], 1);
    if bf.solutions <= SMALL {
        let want: BTreeSet<Board> = bf.boards.iter().cloned().collect();
        assert_eq!(
            want.len() as u64,
            bf.solutions,
            "{what}: brute-force boards distinct"
        );
        for (name, r) in [("scan", &scan), ("mrv", &mrv)] {
            let got: BTreeSet<Board> = (0..r.solutions.len())
                .map(|i| r.solution_board(i))
                .collect();
            assert_eq!(
                got.len(),
                r.solutions.len(),
                "{what}: {name} reports a board twice"
            );
            assert_eq!(got, want, "{what}: {name} solution boards");
        }
    }
    bf.solutions
}

/// (w, h, rim, inner, seeds) -> checks every generated puzzle against the brute force.
fn generated_vs_brute(cases: &[(usize, usize, usize, usize, &[u64])]) -> Vec<u64> {
    let mut counts = Vec::new();
    for &(w, h, rim, inner, seeds) in cases {
        for &seed in seeds {
            let p = generate(w, h, rim, inner, seed).unwrap();
            let n = check_against_brute(&p, &format!("gen {w}x{h} {rim}+{inner} seed {seed}"));
            assert!(
                n >= 1,
                "gen {w}x{h} {rim}+{inner} seed {seed}: the planted solution is missing"
            );
            counts.push(n);
        }
    }
    counts
}

/// The same piece turned by k clockwise quarter turns, written out as a new listing.
fn turn(piece: [u8; 4], k: u8) -> [u8; 4] {
    [
        shown(piece, k, 0),
        shown(piece, k, 1),
        shown(piece, k, 2),
        shown(piece, k, 3),
    ]
}

/// A known solution board of `p` (the first the solver finds).
fn some_solution(p: &Puzzle) -> Board {
    let r = solve(
        p,
        Heuristic::Mrv(Mrv),
        &Limits {
            max_solutions: Some(1),
            keep: 1,
            ..Default::default()
        },
        &AtomicBool::new(false),
    );
    assert_eq!(r.solutions_found, 1, "{} has a solution", p.name);
    r.solution_board(0)
}

fn with_hints(p: &Puzzle, hints: Vec<Hint>) -> Puzzle {
    let q = Puzzle { hints, ..p.clone() };
    q.validate("test").unwrap();
    q
}

// ---------------------------------------------------------------------------------
// 1. solver == brute force on generated puzzles

#[test]
fn brute_force_sanity_by_hand() {
    // 2x2 board of four identical corner pieces `0 0 1 1` (up right down left):
    // each cell takes each piece in exactly one rotation: 4! = 24 solutions.
    let p = parse_text(
        "2 2\n0 0 1 1\n0 0 1 1\n0 0 1 1\n0 0 1 1\n",
        "t",
        EdgeOrder::Urdl,
    )
    .unwrap();
    let bf = brute_force(&p);
    assert_eq!(bf.solutions, 24);
    assert_eq!(bf.nodes_per_depth, vec![1, 4, 12, 24, 24]);
    // A generated 2x2 (every join is a rim join) against the brute force.
    let q = generate(2, 2, 2, 1, 3).unwrap();
    let r = run(&q, Heuristic::Scan(Along::Shape), 100);
    let bq = brute_force_all(&q);
    assert_eq!(r.solutions_found, bq.solutions);
    assert_eq!(r.nodes_per_depth, bq.nodes_per_depth);
    assert!(bq.solutions >= 1);
}

#[test]
fn generated_3x3_and_4x3_match_brute_force() {
    let s5: &[u64] = &[0, 1, 2, 3, 4];
    let s3: &[u64] = &[0, 1, 2];
    let counts = generated_vs_brute(&[
        (3, 3, 1, 1, s5),
        (3, 3, 1, 2, s5),
        (3, 3, 2, 1, s5),
        (3, 3, 2, 2, s5),
        (3, 3, 2, 3, s5),
        (3, 3, 3, 4, s5),
        (4, 3, 1, 1, &[0]),
        (4, 3, 1, 2, s3),
        (4, 3, 2, 1, s3),
        (4, 3, 2, 2, s3),
        (4, 3, 2, 3, s3),
        (4, 3, 3, 4, s3),
        (3, 4, 2, 2, s3),
    ]);
    // With one colour everywhere every placement of the right kind fits:
    // 3x3: 4 corners x 4 borders x 1 inner in every arrangement, each inner piece in
    // all 4 rotations: 4! * 4! * 1 * 4 = 2304.
    assert_eq!(counts[0], 2304);
    // 4x3: 4! corners * 6! borders * 2! inner * 4^2 rotations = 552960.
    assert_eq!(counts[30], 552_960);
}

#[test]
fn generated_4x4_matches_brute_force() {
    let s4: &[u64] = &[0, 1, 2, 3];
    generated_vs_brute(&[
        (4, 4, 2, 2, s4),
        (4, 4, 1, 3, &[0, 1]),
        (4, 4, 1, 4, s4),
        (4, 4, 2, 3, s4),
        (4, 4, 3, 4, s4),
        (4, 4, 3, 5, s4),
    ]);
}

#[test]
fn generated_5x4_matches_brute_force() {
    let s3: &[u64] = &[0, 1, 2];
    generated_vs_brute(&[
        (5, 4, 2, 3, &[0]),
        (5, 4, 1, 4, &[0]),
        (5, 4, 2, 4, s3),
        (5, 4, 2, 5, s3),
        (5, 4, 3, 4, s3),
        (5, 4, 3, 5, s3),
        (4, 5, 3, 4, s3),
    ]);
}

#[test]
fn generated_5x5_matches_brute_force() {
    let s3: &[u64] = &[0, 1, 2];
    generated_vs_brute(&[(5, 5, 2, 5, s3), (5, 5, 3, 4, s3), (5, 5, 3, 5, s3)]);
}

#[test]
fn shipped_brendan_small_scan_nodes_match_brute_force() {
    for (w, h, n) in [
        (3, 3, 16),
        (4, 3, 32),
        (5, 3, 78),
        (4, 4, 36),
        (6, 3, 1380),
        (5, 4, 1952),
        (6, 4, 8),
    ] {
        assert_eq!(
            check_against_brute(&brendan(w, h), &format!("brendan {w}x{h}")),
            n
        );
    }
}

// ---------------------------------------------------------------------------------
// 2. Brendan Owen's benchmark counts (all placements counted)

#[test]
fn brendan_set1_small_counts() {
    let known: &[(usize, usize, u64)] = &[
        (3, 3, 16),
        (4, 3, 32),
        (5, 3, 78),
        (4, 4, 36),
        (6, 3, 1380),
        (5, 4, 1952),
        (7, 3, 18),
        (6, 4, 8),
        (8, 3, 890),
        (5, 5, 16),
        (9, 3, 588),
        (7, 4, 76),
        (6, 5, 4),
    ];
    for &(w, h, n) in known {
        let p = brendan(w, h);
        assert_eq!(count(&p, Heuristic::Mrv(Mrv)), n, "brendan {w}x{h} mrv");
        if w * h <= 24 || (w, h) == (6, 5) {
            assert_eq!(
                count(&p, Heuristic::Scan(Along::Shape)),
                n,
                "brendan {w}x{h} scan"
            );
        }
    }
}

#[test]
fn brendan_set1_7x5_scan() {
    // Wider than tall, so scan fills columns: 7,849,260 nodes, the brute force's
    // column-major tree (35,583,266 along rows).
    let p = brendan(7, 5);
    let r = run(&p, Heuristic::Scan(Along::Shape), 100);
    assert_eq!(r.solutions_found, 32);
    assert_eq!(r.nodes, 7_849_260);
    assert_eq!(check_against_brute(&p, "brendan 7x5"), 32);
}

#[test]
fn brendan_set1_10x3_8x4_11x3_mrv() {
    assert_eq!(count(&brendan(10, 3), Heuristic::Mrv(Mrv)), 74_104);
    assert_eq!(count(&brendan(8, 4), Heuristic::Mrv(Mrv)), 18);
    assert_eq!(count(&brendan(11, 3), Heuristic::Mrv(Mrv)), 432);
}

#[test]
fn brendan_set1_6x6_scan() {
    let r = run(&brendan(6, 6), Heuristic::Scan(Along::Shape), 300);
    assert_eq!(r.solutions_found, 260);
    // 260 = 4 board rotations x 65: every solution's quarter turn is also found.
    let boards: BTreeSet<Board> = (0..r.solutions.len())
        .map(|i| r.solution_board(i))
        .collect();
    assert_eq!(boards.len(), 260);
    for b in &boards {
        assert!(
            boards.contains(&rotate_board_cw(b, 6)),
            "quarter turn of a solution is a solution"
        );
    }
}

#[test]
fn brendan_set2_6x6_scan() {
    let p = load("brendan-set2/pieces_06x06.txt");
    assert_eq!(count(&p, Heuristic::Scan(Along::Shape)), 160);
}

/// A square board turned a quarter clockwise: cell (r, c) moves to (c, n-1-r) and
/// every piece turns once more.
fn rotate_board_cw(b: &Board, n: usize) -> Board {
    let mut out: Board = vec![None; n * n];
    for r in 0..n {
        for c in 0..n {
            out[c * n + (n - 1 - r)] = b[r * n + c].map(|(p, k)| (p, (k + 1) % 4));
        }
    }
    out
}

#[test]
fn brendan_solution_files_verify() {
    let dir = puzzle_path("brendan");
    let mut n = 0;
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with("solutions_"))
        .collect();
    names.sort();
    for f in &names {
        let size = f.trim_start_matches("solutions_").trim_end_matches(".txt");
        let p = load(&format!("brendan/pieces_{size}.txt"));
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        let b = parse_board(&text, f, &p).unwrap_or_else(|e| panic!("{e}"));
        verify::check(&p, &b, true).unwrap_or_else(|v| panic!("{f}: {v}"));
        assert_eq!(verify::score(&p, &b), p.inner_joins(), "{f}: full score");
        n += 1;
    }
    assert_eq!(n, 171);
}

#[test]
fn wortmann_8x8_sets_are_brendans_up_to_order_and_rotation() {
    fn canon(p: &Puzzle) -> Vec<[u8; 4]> {
        let mut v: Vec<[u8; 4]> = p
            .pieces
            .iter()
            .map(|&x| (0..4).map(|k| turn(x, k)).min().unwrap())
            .collect();
        v.sort();
        v
    }
    let c = load("wortmann8x8/brendan8x8_puzzleC_set1.txt");
    let d = load("wortmann8x8/puzzleD_8x8_set2.txt");
    assert_eq!(canon(&c), canon(&brendan(8, 8)));
    assert_eq!(canon(&d), canon(&load("brendan-set2/pieces_08x08.txt")));
}

#[test]
fn e2_hints_file_matches_its_resulting_edges() {
    let p = load("e2/e2pieces.txt");
    assert_eq!((p.width, p.height, p.pieces.len()), (16, 16, 256));
    let path = puzzle_path("e2/e2_hints.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let hints = parse_e2_hints(&text, "e2_hints").unwrap();
    assert_eq!(hints.len(), 5);
    assert_eq!(
        hints[0],
        Hint {
            row: 8,
            col: 7,
            piece: 138,
            rotation: 2
        }
    );
    let data: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    for (h, t) in hints.iter().zip(&data) {
        let want: Vec<u8> = t[5..9].iter().map(|s| s.parse().unwrap()).collect();
        assert_eq!(
            turn(p.pieces[h.piece], h.rotation).to_vec(),
            want,
            "hint {t:?}"
        );
    }
    let q = with_hints(&p, hints);
    // State builds with the hints placed and its invariants hold.
    let st = State::new(&q);
    st.check_invariants().unwrap();
    assert_eq!(st.max_depth(), 251);
    assert_eq!(st.depth(), 0);
}

// ---------------------------------------------------------------------------------
// 3. metamorphic relations

fn shuffled(p: &Puzzle, rng: &mut Rng) -> Puzzle {
    let mut q = p.clone();
    rng.shuffle(&mut q.pieces);
    q
}

fn turned(p: &Puzzle, rng: &mut Rng) -> Puzzle {
    let mut q = p.clone();
    for x in &mut q.pieces {
        *x = turn(*x, rng.below(4) as u8);
    }
    q
}

fn metamorphic_on(p: &Puzzle, n: u64, seed: u64, rounds: usize) {
    let mut rng = Rng::new(seed);
    assert_eq!(count(p, Heuristic::Scan(Along::Shape)), n);
    assert_eq!(count(p, Heuristic::Mrv(Mrv)), n);
    for _ in 0..rounds {
        let s = shuffled(p, &mut rng);
        assert_eq!(count(&s, Heuristic::Scan(Along::Shape)), n, "shuffled");
        assert_eq!(count(&s, Heuristic::Mrv(Mrv)), n, "shuffled");
        let t = turned(p, &mut rng);
        assert_eq!(count(&t, Heuristic::Scan(Along::Shape)), n, "turned");
        assert_eq!(count(&t, Heuristic::Mrv(Mrv)), n, "turned");
        let st = turned(&shuffled(p, &mut rng), &mut rng);
        assert_eq!(count(&st, Heuristic::Mrv(Mrv)), n, "shuffled and turned");
    }
    let m = p.mirrored();
    assert_eq!(m.mirrored(), *p, "mirroring twice is the identity");
    assert_eq!(count(&m, Heuristic::Scan(Along::Shape)), n, "mirrored");
    assert_eq!(count(&m, Heuristic::Mrv(Mrv)), n, "mirrored");
}

#[test]
fn metamorphic_brendan() {
    for (w, h, n, seed) in [
        (4, 4, 36, 1),
        (5, 4, 1952, 2),
        (6, 4, 8, 3),
        (5, 5, 16, 4),
        (7, 3, 18, 5),
    ] {
        metamorphic_on(&brendan(w, h), n, seed, 2);
    }
}

#[test]
fn metamorphic_generated() {
    for (w, h, rim, inner, seed) in [
        (4, 4, 2, 3, 7u64),
        (5, 4, 2, 4, 8),
        (5, 5, 3, 4, 9),
        (4, 3, 1, 2, 10),
    ] {
        let p = generate(w, h, rim, inner, seed).unwrap();
        let n = brute_force(&p).solutions;
        assert!(n >= 1);
        metamorphic_on(&p, n, seed, 1);
    }
}

/// Solutions of a puzzle, mirrored cell by cell, are exactly the mirrored puzzle's.
#[test]
fn mirrored_solutions_correspond() {
    for p in [
        brendan(5, 4),
        brendan(4, 4),
        generate(5, 4, 2, 4, 1).unwrap(),
    ] {
        let (w, h) = (p.width, p.height);
        let a = brute_force_all(&p);
        let m = p.mirrored();
        let b = brute_force_all(&m);
        assert_eq!(a.solutions, b.solutions);
        let mirrored: BTreeSet<Board> = a
            .boards
            .iter()
            .map(|bd| {
                let mut out: Board = vec![None; w * h];
                for r in 0..h {
                    for c in 0..w {
                        out[r * w + (w - 1 - c)] = bd[r * w + c].map(|(q, k)| (q, (4 - k) % 4));
                    }
                }
                out
            })
            .collect();
        for bd in &mirrored {
            verify::check(&m, bd, true).unwrap();
        }
        let direct: BTreeSet<Board> = b.boards.into_iter().collect();
        assert_eq!(mirrored, direct);
    }
}

fn hinted_agree(p: &Puzzle, what: &str) -> u64 {
    let scan = run(p, Heuristic::Scan(Along::Shape), 1000);
    let mrv = run(p, Heuristic::Mrv(Mrv), 1000);
    let bf = brute_force(p);
    assert_eq!(
        scan.nodes_per_depth, bf.nodes_per_depth,
        "{what}: scan nodes per depth with hints"
    );
    assert_eq!(scan.solutions_found, bf.solutions, "{what}: scan");
    assert_eq!(mrv.solutions_found, bf.solutions, "{what}: mrv");
    assert!(scan.nodes_per_depth.len() - 1 <= p.cells() - p.hints.len());
    bf.solutions
}

#[test]
fn hints_scan_mrv_brute_force_agree() {
    let cases = [
        brendan(4, 4),
        brendan(5, 4),
        brendan(6, 4),
        brendan(5, 5),
        generate(5, 4, 2, 4, 3).unwrap(),
        generate(4, 4, 2, 2, 5).unwrap(),
    ];
    for p in &cases {
        let (w, h) = (p.width, p.height);
        let sol = some_solution(p);
        let total = count(p, Heuristic::Mrv(Mrv));
        // a corner, a border cell, an inner cell, the last cell, and pairs of them
        let picks: Vec<Vec<usize>> = vec![
            vec![0],
            vec![1],
            vec![w + 1],
            vec![w * h - 1],
            vec![w * (h / 2) + w / 2],
            vec![w + 1, w * h - 2],
            vec![0, w * h - 1, w + 2],
        ];
        for cells in picks {
            let hints: Vec<Hint> = cells.iter().map(|&c| hint_from(p, &sol, c)).collect();
            let q = with_hints(p, hints.clone());
            let what = format!("{} hints at {cells:?}", p.name);
            let n = hinted_agree(&q, &what);
            assert!(n >= 1 && n <= total, "{what}: {n} of {total}");
            // the known solution is among them
            let r = run(&q, Heuristic::Scan(Along::Shape), 100_000);
            assert!(
                (0..r.solutions.len()).any(|i| r.solution_board(i) == sol),
                "{what}: the solution the hints came from is found"
            );
            // the mirrored puzzle with mirrored hints has as many
            assert_eq!(
                count(&q.mirrored(), Heuristic::Mrv(Mrv)),
                n,
                "{what}: mirrored"
            );
        }
        // hints fixing a full solution but one cell: exactly one completion per
        // placement that fits the last cell
        let all_but_one: Vec<Hint> = (1..w * h).map(|c| hint_from(p, &sol, c)).collect();
        let q = with_hints(p, all_but_one);
        let r = run(&q, Heuristic::Scan(Along::Shape), 10);
        assert!(r.solutions_found >= 1);
        assert_eq!(r.nodes_per_depth.len(), 2);
        assert_eq!(r.nodes_per_depth[1], r.solutions_found);
        assert_eq!(hinted_agree(&q, "all but one"), r.solutions_found);
        // a complete board as hints: the root is the one solution
        let full: Vec<Hint> = (0..w * h).map(|c| hint_from(p, &sol, c)).collect();
        let q = with_hints(p, full);
        let r = run(&q, Heuristic::Mrv(Mrv), 10);
        assert_eq!(r.solutions_found, 1);
        assert_eq!(r.nodes_per_depth, vec![1]);
        assert_eq!(
            run(&q, Heuristic::Scan(Along::Shape), 10).solutions_found,
            1
        );
    }
}

#[test]
fn hints_that_do_not_fit_together_are_refused() {
    // Two hints that pass one by one (rim sides right) but do not match each other: no
    // board has both, and a search that trusts hints would report one the checker
    // rejects (b7x5_col3 with one hint turned did, and hung on two threads).
    let p = brendan(4, 4);
    let sol = some_solution(&p);
    let h0 = hint_from(&p, &sol, 0);
    let mut refused = 0;
    for piece in (0..p.pieces.len()).filter(|&q| q != h0.piece) {
        for rot in 0..4u8 {
            let h1 = Hint {
                row: 0,
                col: 1,
                piece,
                rotation: rot,
            };
            let alone = Puzzle {
                hints: vec![h1],
                ..p.clone()
            };
            if alone.validate("t").is_err() {
                continue;
            }
            let mut b: Board = vec![None; 16];
            b[0] = Some((h0.piece, h0.rotation));
            let fits = common::fits(&p, &b, 1, piece, rot);
            let both = Puzzle {
                hints: vec![h0, h1],
                ..p.clone()
            };
            match both.validate("t") {
                Ok(()) => assert!(fits, "piece {piece} turned {rot} passed beside hint 0"),
                Err(e) => {
                    assert!(!fits, "piece {piece} turned {rot} fits, but: {e}");
                    assert!(e.to_string().contains("do not fit together"), "{e}");
                    refused += 1;
                }
            }
        }
    }
    assert!(refused > 0);
}

// ---------------------------------------------------------------------------------
// 4. the generator

#[test]
fn generator_is_deterministic() {
    for (w, h, rim, inner, seed) in [
        (6, 6, 3, 5, 1u64),
        (16, 16, 5, 17, 2),
        (7, 3, 2, 2, 0),
        (2, 2, 1, 1, 9),
    ] {
        let a = to_text(&generate(w, h, rim, inner, seed).unwrap());
        let b = to_text(&generate(w, h, rim, inner, seed).unwrap());
        assert_eq!(a, b);
        let c = to_text(&generate(w, h, rim, inner, seed + 1).unwrap());
        if w * h > 4 {
            assert_ne!(a, c, "another seed gives another puzzle");
        }
        // the text reads back as the same puzzle
        let q = parse_text(&a, "gen", EdgeOrder::Urdl).unwrap();
        assert_eq!(q.pieces, generate(w, h, rim, inner, seed).unwrap().pieces);
    }
}

/// SplitMix64 with seed 0 (Steele, Lea, Flood; the reference stream): the generator's
/// stream must never change, or the same seed stops giving the same file.
#[test]
fn splitmix_reference_stream() {
    let mut r = plytile::puzzle::generate::SplitMix64::new(0);
    assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
}

#[test]
fn generated_puzzles_are_solvable() {
    for (w, h) in [
        (2, 2),
        (2, 5),
        (4, 2),
        (3, 3),
        (4, 4),
        (5, 3),
        (5, 5),
        (6, 4),
        (6, 6),
    ] {
        let (rim, inner) = default_colours(w, h);
        for seed in [0u64, 1, 2] {
            let p = generate(w, h, rim, inner, seed).unwrap();
            p.validate("gen").unwrap();
            assert_eq!(p.pieces.len(), w * h);
            let r = solve(
                &p,
                Heuristic::Mrv(Mrv),
                &Limits {
                    max_solutions: Some(1),
                    keep: 1,
                    ..Default::default()
                },
                &AtomicBool::new(false),
            );
            assert_eq!(r.solutions_found, 1, "gen {w}x{h} seed {seed}");
            verify::check(&p, &r.solution_board(0), true).unwrap();
        }
    }
}

/// (rim-join colours, inner colours) used by a puzzle's pieces: a rim join is an edge
/// next to a grey edge of a border or corner piece; everything else is inner.
fn colour_classes(p: &Puzzle) -> (BTreeSet<u8>, BTreeSet<u8>) {
    let (mut rim, mut inner) = (BTreeSet::new(), BTreeSet::new());
    for x in &p.pieces {
        for s in 0..4 {
            if x[s] == 0 {
                continue;
            }
            if x[(s + 1) % 4] == 0 || x[(s + 3) % 4] == 0 {
                rim.insert(x[s]);
            } else {
                inner.insert(x[s]);
            }
        }
    }
    (rim, inner)
}

#[test]
fn generator_default_colours_are_brendans() {
    assert_eq!(default_colours(6, 6), (3, 5));
    assert_eq!(default_colours(8, 8), (3, 8));
    assert_eq!(default_colours(16, 16), (5, 17));
    assert_eq!(default_colours(3, 6), default_colours(6, 3));
    // generated 6x6: rim joins use 1..=3, inner joins 4..=8, each one
    let (r, i) = default_colours(6, 6);
    let p = generate(6, 6, r, i, 42).unwrap();
    let (rim, inner) = colour_classes(&p);
    assert_eq!(rim, (1..=3).collect());
    assert_eq!(inner, (4..=8).collect());
    assert_eq!(p.colour_count(), 9);
    // ... the same numbers as in Brendan's own 6x6
    let (brim, binner) = colour_classes(&brendan(6, 6));
    assert_eq!((brim.len(), binner.len()), (3, 5));
    assert!(brim.is_disjoint(&binner));
    // and for every Brendan size the default colours are the file's
    let mut checked = 0;
    for w in 3..=20 {
        for h in 3..=w {
            let path = puzzle_path(&format!("brendan/pieces_{w:02}x{h:02}.txt"));
            if !path.exists() {
                continue;
            }
            let p = read_puzzle(&path, EdgeOrder::Urdl).unwrap();
            let (rim, inner) = colour_classes(&p);
            assert_eq!(
                default_colours(w, h),
                (rim.len(), inner.len()),
                "brendan {w}x{h}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 171);
}

#[test]
fn generator_rejects_bad_arguments() {
    assert!(generate(1, 5, 2, 2, 0).is_err());
    assert!(generate(33, 5, 2, 2, 0).is_err());
    assert!(generate(5, 5, 0, 2, 0).is_err());
    assert!(generate(5, 5, 2, 0, 0).is_err());
    assert!(generate(5, 5, 200, 56, 0).is_err());
    assert!(generate(5, 5, 200, 55, 0).is_ok());
}

// ---------------------------------------------------------------------------------
// 5. formats

const WITH_HINTS: &str = "\
# a test puzzle
4 4
0 0 1 1
0 0 1 2
0 0 2 1
0 0 2 2
0 1 3 1
0 1 3 2
0 2 3 1
0 2 4 2
0 1 4 1
0 2 4 1
0 1 3 2  # a comment
0 2 3 2
3 3 4 4
3 4 4 3

4 3 3 4
4 4 3 3
hint 0 0 0 3
hint 1 1 12 0
";

#[test]
fn text_ron_text_round_trip_with_hints() {
    let p = parse_text(WITH_HINTS, "t.txt", EdgeOrder::Urdl).unwrap();
    assert_eq!((p.width, p.height, p.pieces.len()), (4, 4, 16));
    assert_eq!(p.pieces[10], [0, 1, 3, 2]);
    assert_eq!(
        p.hints,
        vec![
            Hint {
                row: 0,
                col: 0,
                piece: 0,
                rotation: 3
            },
            Hint {
                row: 1,
                col: 1,
                piece: 12,
                rotation: 0
            }
        ]
    );
    let ron = to_ron(&p);
    let q = parse_ron(&ron, "t.ron").unwrap();
    assert_eq!(q, p);
    let text = to_text(&q);
    let r = parse_text(&text, "t2.txt", EdgeOrder::Urdl).unwrap();
    assert_eq!(r, p);
    assert_eq!(to_text(&r), text, "text is a fixed point");
    assert_eq!(to_ron(&r), ron, "RON is a fixed point");
    // with a name and source the round trip keeps them in RON
    let mut named = generate(5, 4, 2, 3, 1).unwrap();
    named
        .hints
        .push(hint_from(&named, &some_solution(&named), 7));
    let back = parse_ron(&to_ron(&named), "n.ron").unwrap();
    assert_eq!(back, named);
    let t = parse_text(&to_text(&named), "n.txt", EdgeOrder::Urdl).unwrap();
    assert_eq!(
        (t.pieces.clone(), t.hints.clone()),
        (named.pieces.clone(), named.hints.clone())
    );
}

#[test]
fn read_puzzle_by_extension_and_content() {
    let dir = common::scratch_dir("core-read");
    let p = parse_text(WITH_HINTS, "t", EdgeOrder::Urdl).unwrap();
    let ron_path = dir.join("p.ron");
    std::fs::write(&ron_path, to_ron(&p)).unwrap();
    let a = read_puzzle(&ron_path, EdgeOrder::Urdl).unwrap();
    assert_eq!(
        (a.pieces.clone(), a.hints.clone()),
        (p.pieces.clone(), p.hints.clone())
    );
    // RON content under a .txt name is still recognised
    let odd = dir.join("p_ron.txt");
    std::fs::write(&odd, to_ron(&p)).unwrap();
    let b = read_puzzle(&odd, EdgeOrder::Urdl).unwrap();
    assert_eq!(b.pieces, p.pieces);
    let txt = dir.join("plain.txt");
    std::fs::write(&txt, WITH_HINTS).unwrap();
    let c = read_puzzle(&txt, EdgeOrder::Urdl).unwrap();
    assert_eq!(c.name, "plain", "name defaults to the file stem");
    assert_eq!(c.hints, p.hints);
    common::cleanup(&dir);
}

#[test]
fn blrt_reads_the_same_pieces_as_urdl() {
    for p in [
        brendan(6, 6),
        load("wortmann8x8/brendan8x8_puzzleC_set1.txt"),
        parse_text(WITH_HINTS, "t", EdgeOrder::Urdl).unwrap(),
    ] {
        let mut blrt = format!("{} {}\n", p.width, p.height);
        for x in &p.pieces {
            // up right down left -> bottom left top right
            blrt += &format!("{} {} {} {}\n", x[2], x[3], x[0], x[1]);
        }
        for h in &p.hints {
            blrt += &format!("hint {} {} {} {}\n", h.row, h.col, h.piece, h.rotation);
        }
        let q = parse_text(&blrt, "b.txt", EdgeOrder::Blrt).unwrap();
        assert_eq!(q.pieces, p.pieces);
        assert_eq!(q.hints, p.hints);
        // read as urdl it is every piece turned 180 degrees
        if let Ok(r) = parse_text(&blrt, "b.txt", EdgeOrder::Urdl) {
            let turned: Vec<_> = p.pieces.iter().map(|&x| turn(x, 2)).collect();
            assert_eq!(r.pieces, turned);
        }
    }
    assert_eq!("blrt".parse::<EdgeOrder>().unwrap(), EdgeOrder::Blrt);
    assert_eq!("urdl".parse::<EdgeOrder>().unwrap(), EdgeOrder::Urdl);
    assert!("lrtb".parse::<EdgeOrder>().is_err());
}

#[test]
fn square_board_without_size_line() {
    let body: String = WITH_HINTS
        .lines()
        .filter(|l| *l != "4 4" && !l.starts_with("hint"))
        .map(|l| format!("{l}\n"))
        .collect();
    let p = parse_text(&body, "t", EdgeOrder::Urdl).unwrap();
    assert_eq!((p.width, p.height), (4, 4));
    // 12 pieces without a size line are ambiguous
    let twelve: String = brendan(4, 3)
        .pieces
        .iter()
        .map(|x| format!("{} {} {} {}\n", x[0], x[1], x[2], x[3]))
        .collect();
    assert!(parse_text(&twelve, "t", EdgeOrder::Urdl).is_err());
}

#[test]
fn board_formats_parse_to_the_same_board() {
    let p = brendan(5, 4);
    let text = std::fs::read_to_string(puzzle_path("brendan/solutions_05x04.txt")).unwrap();
    let b = parse_board(&text, "s", &p).unwrap();
    verify::check(&p, &b, true).unwrap();
    // as a `piece rotation` list
    let list = plytile::puzzle::formats::board_to_text(&b);
    assert_eq!(parse_board(&list, "l", &p).unwrap(), b);
    // as JSON (an array, and solve's object)
    let arr: Vec<[usize; 2]> = b
        .iter()
        .map(|c| {
            let (q, r) = c.unwrap();
            [q, r as usize]
        })
        .collect();
    let js = serde_json::to_string(&arr).unwrap();
    assert_eq!(parse_board(&js, "j", &p).unwrap(), b);
    let obj = serde_json::json!({ "solutions": [arr] }).to_string();
    assert_eq!(parse_board(&obj, "j", &p).unwrap(), b);
    // a partial list
    let mut partial = b.clone();
    partial[3] = None;
    let pl = plytile::puzzle::formats::board_to_text(&partial);
    let back = parse_board(&pl, "p", &p).unwrap();
    assert_eq!(back, partial);
    verify::check(&p, &back, false).unwrap();
    assert!(verify::check(&p, &back, true).is_err());
    // a wrong rotation is caught by the checker
    let mut bad = b.clone();
    let (q, r) = bad[7].unwrap();
    bad[7] = Some((q, (r + 1) % 4));
    assert!(verify::check(&p, &bad, true).is_err());
    // a swapped pair of different pieces is caught
    let mut sw = b.clone();
    sw.swap(6, 12);
    if p.pieces[sw[6].unwrap().0] != p.pieces[sw[12].unwrap().0] {
        assert!(verify::check(&p, &sw, true).is_err());
    }
}

// ---------------------------------------------------------------------------------
// 6. state invariants

/// Everything an unplace must restore: the board, and each open cell with its
/// candidate bitset and count; the depth.
type Snapshot = (Board, Vec<(u32, Vec<u64>, u32)>, usize);

fn snapshot(st: &State) -> Snapshot {
    let mut open: Vec<u32> = st.open_cells().to_vec();
    open.sort();
    let cells = open
        .into_iter()
        .map(|c| {
            let mut v = vec![0u64; st.words];
            st.candidates_into(c as usize, &mut v);
            (c, v, st.count(c as usize))
        })
        .collect();
    (st.board(), cells, st.depth())
}

/// The state's candidates at every open cell are exactly the placements the
/// independent fit rule allows with the unused pieces.
fn candidates_match_fit_rule(p: &Puzzle, st: &State) {
    let board = st.board();
    let mut used = vec![false; p.pieces.len()];
    for (q, _) in board.iter().flatten() {
        used[*q] = true;
    }
    for &c in st.open_cells() {
        let c = c as usize;
        let mut v = vec![0u64; st.words];
        st.candidates_into(c, &mut v);
        let mut n = 0;
        for (q, &in_use) in used.iter().enumerate() {
            for r in 0..4u8 {
                let o = 4 * q + r as usize;
                let bit = common::holds(&v, o);
                let ok = !in_use && common::fits(p, &board, c, q, r);
                assert_eq!(bit, ok, "cell {c} piece {q} rot {r}");
                n += ok as u32;
            }
        }
        assert_eq!(st.count(c), n);
    }
}

/// `State::untouched_shape`'s promise: two empty cells with the same key have the
/// same legal placements, and so have their empty neighbours, side by side.
fn untouched_shapes_share_placements(st: &State) {
    let placements = |c: usize| {
        let mut v = vec![0u64; st.words];
        st.candidates_into(c, &mut v);
        v
    };
    // Per side: the empty neighbour's placements, None when there is none.
    let around = |c: usize| -> Vec<Option<Vec<u64>>> {
        st.neighbours(c)
            .iter()
            .map(|&nb| {
                (nb != u32::MAX && st.is_empty(nb as usize)).then(|| placements(nb as usize))
            })
            .collect()
    };
    let keyed: Vec<(u64, usize)> = st
        .open_cells()
        .iter()
        .filter_map(|&c| st.untouched_shape(c as usize).map(|k| (k, c as usize)))
        .collect();
    for (i, &(k, a)) in keyed.iter().enumerate() {
        for &(_, b) in keyed[i + 1..].iter().filter(|x| x.0 == k) {
            assert_eq!(
                placements(a),
                placements(b),
                "cells {a} and {b}: shape {k:#x}"
            );
            assert_eq!(
                around(a),
                around(b),
                "neighbours of {a} and {b}: shape {k:#x}"
            );
        }
    }
}

/// `State::keep_matching_w`'s promise: a placement it drops at a cell starves the
/// neighbour on that side (`kills_in_room_w`), so a proof that counts the survivors
/// loses none. Returns how many it dropped.
fn matching_drops_only_starving_placements(st: &State) -> usize {
    let w = st.words;
    let mut dropped = 0;
    for &c in st.open_cells() {
        let mut cands = vec![0u64; w];
        st.candidates_into(c as usize, &mut cands);
        let mut room = vec![0u64; 4 * w];
        let sides = st.neighbour_room_w::<0>(c as usize, &mut room);
        for side in (0..4).filter(|s| sides >> s & 1 == 1) {
            let (mut kept, mut keep) = (cands.clone(), vec![0u64; w]);
            st.keep_matching_w::<0>(side, &room[side * w..][..w], &mut kept, &mut keep);
            for o in 0..64 * w as u32 {
                let (was, is) = (
                    common::holds(&cands, o as usize),
                    common::holds(&kept, o as usize),
                );
                assert!(was || !is, "cell {c} side {side}: {o} added");
                if was && !is {
                    assert!(
                        st.kills_in_room_w::<0>(o, 1 << side, &room),
                        "cell {c} side {side}: {o} dropped but leaves the neighbour a placement"
                    );
                    dropped += 1;
                }
            }
        }
    }
    dropped
}

/// Returns how many placements `keep_matching_w` dropped on the way.
fn random_walk(p: &Puzzle, seed: u64, steps: usize) -> usize {
    let mut rng = Rng::new(seed);
    let mut st = State::new(p);
    st.check_invariants().unwrap();
    assert_eq!(st.depth(), 0);
    assert_eq!(st.max_depth(), p.cells() - p.hints.len());
    candidates_match_fit_rule(p, &st);
    let start = snapshot(&st);
    let mut stack: Vec<(usize, _)> = Vec::new();
    let mut max_depth = 0;
    let mut dropped = 0;
    for step in 0..steps {
        let placeable: Vec<usize> = st
            .open_cells()
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| st.count(c) > 0)
            .collect();
        let back = !stack.is_empty() && (placeable.is_empty() || rng.below(10) < 3);
        if back {
            let (cell, snap) = stack.pop().unwrap();
            st.unplace(cell);
            st.check_invariants()
                .unwrap_or_else(|e| panic!("step {step} unplace: {e}"));
            assert_eq!(snapshot(&st), snap, "step {step}: unplace restores exactly");
        } else if !placeable.is_empty() {
            let cell = placeable[rng.below(placeable.len())];
            let mut v = vec![0u64; st.words];
            st.candidates_into(cell, &mut v);
            let bits: Vec<u32> = (0..64 * st.words as u32)
                .filter(|&o| common::holds(&v, o as usize))
                .collect();
            let o = bits[rng.below(bits.len())];
            let snap = snapshot(&st);
            st.place(cell, o);
            assert_eq!(st.at(cell), o);
            assert!(!st.is_empty(cell));
            st.check_invariants()
                .unwrap_or_else(|e| panic!("step {step} place: {e}"));
            verify::check(p, &st.board(), false).unwrap_or_else(|v| panic!("step {step}: {v}"));
            stack.push((cell, snap));
            max_depth = max_depth.max(st.depth());
        } else {
            break;
        }
        if step % 7 == 0 {
            candidates_match_fit_rule(p, &st);
            untouched_shapes_share_placements(&st);
            dropped += matching_drops_only_starving_placements(&st);
        }
    }
    while let Some((cell, snap)) = stack.pop() {
        st.unplace(cell);
        assert_eq!(snapshot(&st), snap);
    }
    st.check_invariants().unwrap();
    assert_eq!(snapshot(&st), start);
    assert!(max_depth >= 2, "the walk went somewhere");
    dropped
}

#[test]
fn state_random_place_unplace() {
    let mut dropped = 0;
    for seed in 0..6 {
        dropped += random_walk(&generate(5, 5, 1, 2, seed).unwrap(), seed, 400);
        dropped += random_walk(&generate(6, 4, 2, 2, seed).unwrap(), seed + 100, 400);
    }
    dropped += random_walk(&brendan(6, 6), 1, 600);
    dropped += random_walk(&brendan(10, 10), 2, 600);
    // 256 pieces (16 words per bitset) with the five E2 hints
    dropped += random_walk(&crate::common::e2_with("e2_hints.txt"), 3, 300);
    // hints on a generated board
    let p = generate(5, 5, 1, 3, 4).unwrap();
    let sol = some_solution(&p);
    dropped += random_walk(
        &with_hints(&p, vec![hint_from(&p, &sol, 6), hint_from(&p, &sol, 24)]),
        5,
        400,
    );
    assert!(
        dropped > 0,
        "keep_matching_w was tested on a tight neighbour"
    );
}

#[test]
fn kinds_and_neighbours() {
    let p = brendan(5, 4);
    assert_eq!(p.cell_kind(0, 0), Kind::Corner);
    assert_eq!(p.cell_kind(0, 2), Kind::Border);
    assert_eq!(p.cell_kind(1, 1), Kind::Inner);
    assert_eq!(p.cell_kind(3, 4), Kind::Corner);
    assert_eq!(p.inner_joins(), 2 * 20 - 5 - 4);
    assert_eq!(p.neighbour(0, 0), None);
    assert_eq!(p.neighbour(0, 1), Some(1));
    assert_eq!(p.neighbour(0, 2), Some(5));
    assert_eq!(p.neighbour(0, 3), None);
    assert_eq!(p.neighbour(19, 1), None);
    assert_eq!(p.neighbour(19, 2), None);
    // rotation convention: k turns clockwise shows listed edge (s - k) mod 4 on side s
    let x = [1, 2, 3, 4];
    assert_eq!(plytile::puzzle::rotated(x, 0), [1, 2, 3, 4]);
    assert_eq!(plytile::puzzle::rotated(x, 1), [4, 1, 2, 3]);
    assert_eq!(plytile::puzzle::rotated(x, 2), [3, 4, 1, 2]);
    assert_eq!(plytile::puzzle::rotated(x, 3), [2, 3, 4, 1]);
    for k in 0..4 {
        assert_eq!(plytile::puzzle::rotated(x, k), turn(x, k));
    }
}

#[test]
fn limits_stop_the_search() {
    let p = brendan(6, 6);
    let r = solve(
        &p,
        Heuristic::Scan(Along::Shape),
        &Limits {
            max_nodes: Some(1000),
            keep: 0,
            ..Default::default()
        },
        &AtomicBool::new(false),
    );
    assert!(!r.exhaustive);
    assert_eq!(r.nodes, 1000);
    assert_eq!(r.exit_code(), 3);
    let r = solve(
        &p,
        Heuristic::Scan(Along::Shape),
        &Limits {
            max_solutions: Some(5),
            keep: 10,
            ..Default::default()
        },
        &AtomicBool::new(false),
    );
    assert_eq!(r.solutions_found, 5);
    assert_eq!(r.solutions.len(), 5);
    assert_eq!(r.exit_code(), 0);
    // the first five scan finds are the first five of the full (scan-order) enumeration
    let full = brute_force_all(&brendan(4, 4));
    let r = solve(
        &brendan(4, 4),
        Heuristic::Scan(Along::Shape),
        &Limits {
            max_solutions: Some(5),
            keep: 10,
            ..Default::default()
        },
        &AtomicBool::new(false),
    );
    let got: Vec<Board> = (0..5).map(|i| r.solution_board(i)).collect();
    assert_eq!(got, full.boards[..5].to_vec());
    // keep bounds stored boards, not the count
    let r = run(&brendan(4, 4), Heuristic::Mrv(Mrv), 3);
    assert_eq!((r.solutions_found, r.solutions.len()), (36, 3));
    // a stop flag already set stops at the first check
    let stop = AtomicBool::new(true);
    let r = solve(&p, Heuristic::Scan(Along::Shape), &Limits::default(), &stop);
    assert!(!r.exhaustive);
}

/// `Puzzle::transposed` (what the growth models follow when scan fills columns): an
/// involution that keeps the solution count, hints included.
#[test]
fn transposed_puzzle_keeps_its_solutions() {
    for (w, h) in [(5, 4), (6, 5), (4, 4)] {
        let p = brendan(w, h);
        let t = p.transposed();
        assert_eq!((t.width, t.height), (h, w));
        assert_eq!(t.transposed(), p, "{w}x{h}: transposing twice");
        let n = count(&p, Heuristic::Mrv(Mrv));
        assert_eq!(count(&t, Heuristic::Mrv(Mrv)), n, "{w}x{h}");
        // With a hint off one solution (a cell off the diagonal, turned).
        let board = brute_force_all(&p).boards.swap_remove(0);
        let mut q = p.clone();
        q.hints.push(hint_from(&p, &board, w + 2));
        let want = brute_force(&q).solutions;
        assert!(want >= 1);
        assert_eq!(
            count(&q.transposed(), Heuristic::Mrv(Mrv)),
            want,
            "{w}x{h} hinted"
        );
    }
}
