//! The row-scan driver (`scan`'s own loop) against the generic driver running the same
//! heuristic: identical per-depth counts, solutions in the same order, the same deepest
//! board, and the same cut under every limit, from the root and from prefixes.

use crate::common;

use common::hint_from;
use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::puzzle::generate::generate;
use plytile::puzzle::{scans_columns, Puzzle};
use plytile::search::engine::search;
use plytile::search::select::{Along, Mrv, Scan};
use plytile::search::{solve, Heuristic, Limits, Pick, Select, State, Stats};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// `scan` without its own driver: only `pick`, so the generic loop runs.
struct Generic(Scan);

impl Select for Generic {
    fn pick(&mut self, st: &mut State) -> Pick {
        self.0.pick(st)
    }
}

/// Runs both drivers from `st` (hints-only state plus `prefix`) and compares them.
fn same(p: &Puzzle, prefix: &[(usize, u32)], limits: &Limits) -> Stats {
    same_along(p, scans_columns(p.width, p.height), prefix, limits)
}

/// [`same`] for scan along columns (`columns`) or rows.
fn same_along(p: &Puzzle, columns: bool, prefix: &[(usize, u32)], limits: &Limits) -> Stats {
    let stop = AtomicBool::new(false);
    let root = State::new(p);
    let mut st = root.clone();
    for &(c, o) in prefix {
        st.place(c, o);
    }
    let slow = search(
        &mut st,
        &mut Generic(Scan::along(&root, columns)),
        p,
        limits,
        &stop,
    );
    // Mask mode (these boards have at most 64 pieces) and the list driver.
    let modes = [Scan::along(&root, columns), Scan::listed(&root, columns)];
    assert!(modes[0].masked() && !modes[1].masked(), "{}", p.name);
    for (mode, mut scan) in ["masks", "lists"].into_iter().zip(modes) {
        let fast = search(&mut st, &mut scan, p, limits, &stop);
        let what = format!("{} ({mode}) from {prefix:?} with {limits:?}", p.name);
        assert_eq!(fast.nodes_per_depth, slow.nodes_per_depth, "{what}");
        assert_eq!(fast.solutions_found, slow.solutions_found, "{what}");
        assert_eq!(fast.solutions, slow.solutions, "{what}");
        assert_eq!(fast.deepest, slow.deepest, "{what}");
        assert_eq!(fast.deepest_board, slow.deepest_board, "{what}");
        assert_eq!(fast.stopped, slow.stopped, "{what}");
        st.check_invariants().unwrap();
    }
    slow
}

fn all() -> Limits {
    Limits {
        keep: usize::MAX,
        ..Limits::default()
    }
}

fn boards() -> Vec<Puzzle> {
    let mut v: Vec<Puzzle> = [
        (3, 3, 1, 1, 1),
        (4, 4, 2, 2, 3),
        (5, 4, 2, 3, 7),
        (5, 5, 3, 4, 8),
        (6, 4, 3, 5, 9),
    ]
    .iter()
    .map(|&(w, h, rim, inner, seed)| generate(w, h, rim, inner, seed).unwrap())
    .collect();
    for name in ["04x04", "05x05", "06x04"] {
        let path = format!(
            "{}/puzzles/brendan/pieces_{name}.txt",
            env!("CARGO_MANIFEST_DIR")
        );
        v.push(read_puzzle(Path::new(&path), EdgeOrder::Urdl).unwrap());
    }
    v
}

/// The puzzle with hints taken from its first solution at `cells`.
fn hinted(p: &Puzzle, cells: &[usize]) -> Puzzle {
    let limits = Limits {
        max_solutions: Some(1),
        keep: 1,
        ..Limits::default()
    };
    let r = solve(p, Heuristic::Mrv(Mrv), &limits, &AtomicBool::new(false));
    let board = r.solution_board(0);
    let mut q = p.clone();
    q.hints = cells.iter().map(|&c| hint_from(p, &board, c)).collect();
    q.name = format!("{} hinted at {cells:?}", p.name);
    q
}

#[test]
fn whole_trees_are_identical() {
    for p in boards() {
        let s = same(&p, &[], &all());
        assert!(s.stopped.is_none());
        assert!(s.nodes() > 1, "{}", p.name);
    }
}

#[test]
fn hinted_boards_are_identical() {
    for p in boards() {
        let n = p.cells();
        // A corner, the cell right of the first, a middle cell and the last cell: hints
        // before, beside and after the scan's cells, on the rim and inside.
        for cells in [vec![0], vec![1], vec![n / 2 + 1], vec![n - 1, p.width + 1]] {
            let q = hinted(&p, &cells);
            let s = same(&q, &[], &all());
            assert!(s.solutions_found >= 1, "{}", q.name);
        }
    }
}

#[test]
fn every_limit_cuts_at_the_same_node() {
    for p in boards() {
        let whole = same(&p, &[], &all()).nodes();
        for m in [1, 2, 3, 17, 4096, 4097, 10_000, whole - 1, whole, whole + 1] {
            let limits = Limits {
                max_nodes: Some(m),
                ..all()
            };
            same(&p, &[], &limits);
        }
        for k in [1, 2, 5] {
            let limits = Limits {
                max_solutions: Some(k),
                keep: 3,
                ..Limits::default()
            };
            same(&p, &[], &limits);
        }
    }
}

#[test]
fn prefixes_in_scan_order_and_out_of_it_are_identical() {
    for p in boards() {
        let root = State::new(&p);
        // The first solution's placements, in row-major order.
        let r = solve(
            &p,
            Heuristic::Scan(Along::Shape),
            &all(),
            &AtomicBool::new(false),
        );
        let board = r.solution_board(0);
        let o = |c: usize| {
            let (piece, rot) = board[c].unwrap();
            (c, 4 * piece as u32 + rot as u32)
        };
        for k in [1, 2, p.width + 1] {
            let prefix: Vec<_> = (0..k).map(o).collect();
            same(&p, &prefix, &all());
        }
        // Not row-major (the last cell first): the driver must step aside.
        let odd = [o(p.cells() - 1)];
        same(&p, &odd, &all());
        assert!(root.depth() == 0);
    }
}

/// `scan:rows` and `scan:columns` fix the lines whatever the board's shape. Along rows
/// a wide board gives the tree of the last build that filled rows everywhere (c99d49d:
/// Brendan 8x4, 8,434,581 nodes); along columns a board gives the row tree of its
/// transpose (mirrored pieces), depth by depth; both drivers agree with the generic one.
#[test]
fn scan_along_rows_or_columns_whatever_the_shape() {
    let stop = AtomicBool::new(false);
    let path = format!(
        "{}/puzzles/brendan/pieces_08x04.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let wide = read_puzzle(Path::new(&path), EdgeOrder::Urdl).unwrap();
    let rows: Heuristic = "scan:rows".parse().unwrap();
    let columns: Heuristic = "scan:columns".parse().unwrap();
    assert_eq!(
        (rows.to_string(), columns.to_string()),
        ("scan:rows".into(), "scan:columns".into())
    );
    let r = solve(&wide, rows, &all(), &stop);
    assert_eq!((r.nodes, r.solutions_found), (8_434_581, 18));
    let c = solve(&wide, columns, &all(), &stop);
    let default = solve(&wide, Heuristic::Scan(Along::Shape), &all(), &stop);
    assert_eq!(c.nodes_per_depth, default.nodes_per_depth);
    assert_eq!(default.nodes, 353_372);
    for p in boards() {
        for along in [false, true] {
            let s = same_along(&p, along, &[], &all());
            let t = p.along(along);
            let mut st = State::new(&t);
            let mut scan = Scan::along(&State::new(&t), false);
            let other = search(&mut st, &mut scan, &t, &all(), &stop);
            assert_eq!(
                s.nodes_per_depth, other.nodes_per_depth,
                "{} columns {along}",
                p.name
            );
            assert_eq!(s.solutions_found, other.solutions_found, "{}", p.name);
        }
    }
}
