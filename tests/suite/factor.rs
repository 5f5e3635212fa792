//! `--factor`, `--order` and `--move-order` (issue 7): solution counts and sets are
//! those of the plain search for every heuristic; the orders do not even change the
//! tree (same nodes per depth); factoring restricts the choice to the smallest region
//! and kills a node whose small region cannot be filled.

use crate::common;

use common::{code, hint_from, p, plytile, puzzle_path, stderr, Rng};
use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::puzzle::generate::generate;
use plytile::puzzle::{verify, Puzzle};
use plytile::report::SolveResult;
use plytile::search::select::{Factor, Mrv};
use plytile::search::{
    search, solve, solve_with, Heuristic, Limits, Order, Pick, Select, Spread, State, Strategy,
};
use std::sync::atomic::AtomicBool;

const KEEP: usize = 5_000;

fn brendan(name: &str) -> Puzzle {
    read_puzzle(
        &puzzle_path(&format!("brendan/pieces_{name}.txt")),
        EdgeOrder::Urdl,
    )
    .unwrap()
}

fn limits() -> Limits {
    Limits {
        keep: KEEP,
        ..Limits::default()
    }
}

fn all(p: &Puzzle, s: Strategy) -> SolveResult {
    let r = solve(p, s, &limits(), &AtomicBool::new(false));
    assert!(r.exhaustive);
    for i in 0..r.solutions.len() {
        verify::check(p, &r.solution_board(i), true).unwrap();
    }
    r
}

fn strategy(h: &str, factor: bool, moves: Order) -> Strategy {
    Strategy {
        select: h.parse().unwrap(),
        factor,
        moves,
    }
}

fn sorted(r: &SolveResult) -> Vec<Vec<[usize; 2]>> {
    let mut v = r.solutions.clone();
    v.sort();
    v
}

/// Every combination agrees with the plain run of its heuristic: the same solution
/// count and set; the move order leaves nodes per depth unchanged. Returns the count.
fn check(p: &Puzzle) -> u64 {
    let mut count = None;
    for h in ["scan", "mrv", "ply:2"] {
        let plain = all(p, h.parse::<Heuristic>().unwrap().into());
        assert!(plain.solutions_found <= KEEP as u64);
        assert_eq!(
            *count.get_or_insert(plain.solutions_found),
            plain.solutions_found
        );
        for factor in [false, true] {
            let base = all(p, strategy(h, factor, Order::Natural));
            assert_eq!(base.factor, factor);
            let what = format!("{} {h} factor {factor}", p.name);
            assert_eq!(base.solutions_found, plain.solutions_found, "{what}");
            assert_eq!(sorted(&base), sorted(&plain), "{what}: solution set");
            let ordered = all(p, strategy(h, factor, Order::Penalty));
            assert_eq!(
                ordered.nodes_per_depth, base.nodes_per_depth,
                "{what}: the move order changes the tree"
            );
            assert_eq!(sorted(&ordered), sorted(&base), "{what} move order: set");
        }
    }
    count.unwrap()
}

/// `p` with the hints of a whole column `col` of its first solution: the column
/// cuts the board into a left and a right region.
fn split_by_column(p: &Puzzle, col: usize) -> Puzzle {
    let first = Limits {
        max_solutions: Some(1),
        keep: 1,
        ..Limits::default()
    };
    let sol = solve(p, Heuristic::Mrv(Mrv), &first, &AtomicBool::new(false)).solution_board(0);
    let mut q = p.clone();
    for row in 0..p.height {
        q.hints.push(hint_from(p, &sol, row * p.width + col));
    }
    q.validate("test").unwrap();
    q
}

#[test]
fn counts_unchanged_on_generated_puzzles() {
    for (w, h, rim, inner, seed) in [
        (3, 3, 1, 1, 1),
        (4, 3, 2, 2, 2),
        (4, 4, 2, 3, 4),
        (5, 3, 2, 3, 5),
        (4, 5, 2, 3, 6),
    ] {
        let p = generate(w, h, rim, inner, seed).unwrap();
        assert!(
            check(&p) >= 1,
            "a generated puzzle has its planted solution"
        );
    }
}

#[test]
fn counts_unchanged_on_brendan_puzzles() {
    for (name, count) in [("04x04", 36), ("05x04", 1952), ("05x05", 16)] {
        assert_eq!(check(&brendan(name)), count, "{name}");
    }
}

#[test]
fn counts_unchanged_when_hints_split_the_board() {
    for (name, col) in [("05x04", 2), ("05x05", 2), ("06x05", 3), ("06x05", 1)] {
        let p = split_by_column(&brendan(name), col);
        assert!(check(&p) >= 1, "{name} column {col}");
    }
    let p = split_by_column(&generate(5, 4, 2, 3, 9).unwrap(), 2);
    assert!(check(&p) >= 1);
}

#[test]
fn factoring_searches_fewer_nodes_on_a_split_board() {
    // Exact totals, pinned (docs/factoring.md): Brendan's 7x5 cut by the hinted
    // column 3 into two 3x5 regions. mrv interleaves them and gains from factoring;
    // ply:2 already picks well across regions, and smallest-first costs it nodes.
    let p = split_by_column(&brendan("07x05"), 3);
    let nodes = |h: &str, factor: bool| all(&p, strategy(h, factor, Order::Natural)).nodes;
    assert_eq!(nodes("mrv", false), 13_869);
    assert_eq!(nodes("mrv", true), 3_737);
    assert_eq!(nodes("ply:2", false), 390);
    assert_eq!(nodes("ply:2", true), 1_546);
}

#[test]
fn factor_picks_in_the_smallest_region() {
    // A hinted column cuts Brendan's 7x5 into a left and a right region; the smaller
    // one (ties: the one with the lowest cell, the left) holds the site.
    let b = brendan("07x05");
    let mut differs = false;
    for col in 1..b.width - 1 {
        let p = split_by_column(&b, col);
        let mut st = State::new(&p);
        let mut sel = Factor::new(Mrv, &st);
        let left = col <= b.width - 1 - col;
        let Pick::Site(c) = sel.pick(&mut st) else {
            panic!("the root of a solvable board is not dead");
        };
        assert_eq!(c % p.width < col, left, "column {col}: site {c}");
        differs |= Mrv.pick(&mut st) != Pick::Site(c);
        st.check_invariants().unwrap();
    }
    assert!(
        differs,
        "plain mrv picks elsewhere on some cut (else this shows nothing)"
    );
}

#[test]
fn factor_kills_only_nodes_without_solutions() {
    // Random mrv descents on a board cut in two: wherever Factor says dead and mrv
    // does not, the plain search below finds no solution. Some such node exists.
    let p = read_puzzle(&puzzle_path("hinted/b8x5_col4.txt"), EdgeOrder::Urdl).unwrap();
    let mut st = State::new(&p);
    let mut factor = Factor::new(Mrv, &st);
    let mut rng = Rng::new(7);
    let mut cands = vec![0u64; st.words];
    let mut killed = 0;
    for _ in 0..300 {
        let mut path = Vec::new();
        while let Pick::Site(c) = Mrv.pick(&mut st) {
            if factor.pick(&mut st) == Pick::Dead {
                let below = search(
                    &mut st,
                    &mut Mrv,
                    &p,
                    &Limits::default(),
                    &AtomicBool::new(false),
                );
                assert_eq!(
                    below.solutions_found, 0,
                    "a killed node had a solution below"
                );
                killed += 1;
            }
            st.candidates_into(c, &mut cands);
            let n: u32 = cands.iter().map(|w| w.count_ones()).sum();
            let mut k = rng.below(n as usize);
            let o = (0..64 * st.words as u32)
                .filter(|&o| common::holds(&cands, o as usize))
                .find(|_| {
                    let hit = k == 0;
                    k = k.wrapping_sub(1);
                    hit
                })
                .unwrap();
            st.place(c, o);
            path.push(c);
            if st.open_cells().is_empty() {
                break;
            }
        }
        while let Some(c) = path.pop() {
            st.unplace(c);
        }
    }
    st.check_invariants().unwrap();
    assert!(killed > 0, "the checks never fired");
}

#[test]
fn frontier_order_and_threads_keep_counts() {
    let p = split_by_column(&brendan("06x05"), 3);
    for s in [
        strategy("mrv", true, Order::Natural),
        strategy("ply:2", true, Order::Penalty),
    ] {
        let one = all(&p, s);
        for (threads, order) in [
            (1, Order::Penalty),
            (2, Order::Natural),
            (2, Order::Penalty),
        ] {
            let spread = Spread {
                threads,
                order,
                ..Spread::default()
            };
            let r = solve_with(&p, s, &limits(), &AtomicBool::new(false), &spread).unwrap();
            assert_eq!(r.nodes_per_depth, one.nodes_per_depth, "{threads} {order}");
            assert_eq!(r.solutions_found, one.solutions_found);
            // In that search's order, whichever order the subproblems started in.
            assert_eq!(r.solutions, one.solutions, "{threads} {order}");
            assert_eq!(r.order, order);
        }
    }
}

#[test]
fn bad_values_are_one_line_errors() {
    let puzzle = p("brendan/pieces_04x04.txt");
    for args in [
        vec!["solve", &puzzle, "--factor", "maybe"],
        vec!["solve", &puzzle, "--order", "random"],
        vec!["solve", &puzzle, "--move-order", "x"],
        vec!["compare", &puzzle, "--factor", "yes"],
    ] {
        let o = plytile(&args);
        assert_eq!(code(&o), 2, "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(args[2]), "{err}");
    }
    let o = plytile(&[
        "solve",
        &puzzle,
        "--factor",
        "on",
        "--all",
        "--json",
        "--move-order",
        "penalty",
    ]);
    assert_eq!(code(&o), 0);
    let r: SolveResult = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (r.solutions_found, r.factor, r.move_order),
        (36, true, Order::Penalty)
    );
}
