//! Brute-force check of the equivalence graphs in `puzzles/spectral/`: a small sliding-tile
//! move generator counts search-tree nodes by depth (tree nodes, not distinct states) and the
//! counts must equal `N(d) = P^d N(0)` from the matrices (Edelkamp, spectral prediction of search tree growth).

use plytile::growth::spectral::exact_counts;
use plytile::growth::{load_graph, spectral_report, EquivalenceGraph};

fn load(name: &str) -> EquivalenceGraph {
    let path = format!("{}/puzzles/spectral/{name}", env!("CARGO_MANIFEST_DIR"));
    load_graph(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// An `n×n` sliding-tile board; tile 0 is the blank.
#[derive(Clone)]
struct Board {
    n: usize,
    tiles: Vec<u8>,
    blank: usize,
}

impl Board {
    /// The goal arrangement with the blank moved to `blank` along the first row/column.
    fn with_blank(n: usize, blank: usize) -> Self {
        let mut tiles: Vec<u8> = (0..(n * n) as u8).collect();
        tiles.swap(0, blank);
        Board { n, tiles, blank }
    }

    /// Positions the blank can move to (the tile there slides into the blank).
    fn moves(&self) -> Vec<usize> {
        neighbours(self.n, self.blank)
    }

    fn slide(&mut self, to: usize) {
        debug_assert!(neighbours(self.n, self.blank).contains(&to));
        self.tiles.swap(self.blank, to);
        self.blank = to;
    }
}

fn neighbours(n: usize, p: usize) -> Vec<usize> {
    let (r, c) = (p / n, p % n);
    let mut out = Vec::with_capacity(4);
    if r > 0 {
        out.push(p - n);
    }
    if r + 1 < n {
        out.push(p + n);
    }
    if c > 0 {
        out.push(p - 1);
    }
    if c + 1 < n {
        out.push(p + 1);
    }
    out
}

/// Depth-first brute force: `per_depth[d][class]` += 1 for every tree node at depth `d`.
/// With `prune`, the blank never moves straight back to `prev` (predecessor elimination).
fn count(
    board: &mut Board,
    prev: Option<usize>,
    depth: usize,
    max_depth: usize,
    prune: bool,
    classify: &dyn Fn(usize, Option<usize>) -> usize,
    per_depth: &mut Vec<Vec<u128>>,
) {
    per_depth[depth][classify(board.blank, prev)] += 1;
    if depth == max_depth {
        return;
    }
    let from = board.blank;
    for to in board.moves() {
        if prune && prev == Some(to) {
            continue;
        }
        let before = board.tiles[to];
        board.slide(to);
        debug_assert_eq!(board.tiles[from], before);
        count(
            board,
            Some(from),
            depth + 1,
            max_depth,
            prune,
            classify,
            per_depth,
        );
        board.slide(from);
    }
}

fn brute_force(
    n: usize,
    blank: usize,
    prev: Option<usize>,
    max_depth: usize,
    prune: bool,
    classes: usize,
    classify: &dyn Fn(usize, Option<usize>) -> usize,
) -> Vec<Vec<u128>> {
    let mut board = Board::with_blank(n, blank);
    let goal = board.tiles.clone();
    let mut per_depth = vec![vec![0u128; classes]; max_depth + 1];
    count(
        &mut board,
        prev,
        0,
        max_depth,
        prune,
        classify,
        &mut per_depth,
    );
    assert_eq!(board.tiles, goal, "the generator must undo its moves");
    per_depth
}

/// corner / side / middle by number of neighbours (3x3 and 4x4 boards).
fn by_degree(n: usize) -> impl Fn(usize, Option<usize>) -> usize {
    move |p, _| neighbours(n, p).len() - 2
}

/// The six 24-puzzle classes of the paper (blank at 1, 2, 3, 7, 8, 13 up to symmetry).
fn five_class(p: usize) -> usize {
    let (r, c) = (p / 5, p % 5);
    let (r, c) = (r.min(4 - r), c.min(4 - c));
    match (r.min(c), r.max(c)) {
        (0, 0) => 0,
        (0, 1) => 1,
        (0, 2) => 2,
        (1, 1) => 3,
        (1, 2) => 4,
        (2, 2) => 5,
        _ => unreachable!(),
    }
}

/// Predecessor-eliminating 8-puzzle classes (where the blank is, where it came from), in the
/// order of `eight_pred.ron`: corner←side, side←corner, side←middle, middle←side.
fn pred_class(p: usize, prev: Option<usize>) -> usize {
    let kind = |q: usize| neighbours(3, q).len(); // 2 corner, 3 side, 4 middle
    match (kind(p), prev.map(kind)) {
        (2, Some(3)) => 0,
        (3, Some(2)) => 1,
        (3, Some(4)) => 2,
        (4, Some(3)) => 3,
        other => panic!("no class for {other:?}"),
    }
}

fn unit(k: usize, i: usize) -> Vec<u64> {
    let mut v = vec![0; k];
    v[i] = 1;
    v
}

#[test]
fn eight_puzzle_blank_in_corner_to_depth_12() {
    let g = load("eight.ron");
    let brute = brute_force(3, 0, None, 12, false, 3, &by_degree(3));
    let r = spectral_report(&g, 12);
    assert_eq!(r.class_counts_per_depth, brute);
    let totals: Vec<u128> = brute.iter().map(|v| v.iter().sum()).collect();
    assert_eq!(r.nodes_per_depth, totals);
    assert_eq!(totals[12], 196_608); // 3/4 · 8^6
}

#[test]
fn eight_puzzle_every_start_class() {
    let g = load("eight.ron");
    for (class, pos) in [(0, 0), (1, 1), (2, 4)] {
        let brute = brute_force(3, pos, None, 12, false, 3, &by_degree(3));
        let counts = exact_counts(g.children(), &unit(3, class), 12);
        assert_eq!(counts.class_counts, brute, "start class {class}");
    }
}

#[test]
fn fifteen_puzzle_every_start_class() {
    let g = load("fifteen.ron");
    for (class, pos) in [(0, 0), (1, 1), (2, 5)] {
        let brute = brute_force(4, pos, None, 10, false, 3, &by_degree(4));
        let counts = exact_counts(g.children(), &unit(3, class), 10);
        assert_eq!(counts.class_counts, brute, "start class {class}");
    }
}

#[test]
fn twenty_four_puzzle_every_start_class() {
    let g = load("twenty_four.ron");
    // Seed positions 1, 2, 3, 7, 8, 13 (1-based) are indices 0, 1, 2, 6, 7, 12.
    for (class, pos) in [(0, 0), (1, 1), (2, 2), (3, 6), (4, 7), (5, 12)] {
        let brute = brute_force(5, pos, None, 9, false, 6, &|p, _| five_class(p));
        let counts = exact_counts(g.children(), &unit(6, class), 9);
        assert_eq!(counts.class_counts, brute, "start class {class}");
    }
    let corner = brute_force(5, 0, None, 6, false, 6, &|p, _| five_class(p));
    let totals: Vec<u128> = corner.iter().map(|v| v.iter().sum()).collect();
    assert_eq!(totals, [1, 2, 6, 18, 60, 198, 684]);
}

#[test]
fn predecessor_eliminating_eight_puzzle() {
    let g = load("eight_pred.ron");
    // File start: blank on a side, having come from a corner.
    let brute = brute_force(3, 1, Some(0), 14, true, 4, &pred_class);
    let r = spectral_report(&g, 14);
    assert_eq!(r.class_counts_per_depth, brute);
    let totals: Vec<u128> = brute.iter().map(|v| v.iter().sum()).collect();
    assert_eq!(totals[..10], [1, 2, 4, 8, 10, 20, 34, 68, 94, 188]);
    // Every class as the start: (blank, came from).
    for (class, pos, prev) in [(0, 0, 1), (1, 1, 0), (2, 1, 4), (3, 4, 1)] {
        let brute = brute_force(3, pos, Some(prev), 14, true, 4, &pred_class);
        let counts = exact_counts(g.children(), &unit(4, class), 14);
        assert_eq!(counts.class_counts, brute, "start class {class}");
    }
    // A real root (corner, no predecessor) has two side←corner children.
    let root = brute_force(3, 0, None, 13, true, 4, &|p, prev| match prev {
        None => 0,
        Some(_) => pred_class(p, prev),
    });
    let root_totals: Vec<u128> = root.iter().map(|v| v.iter().sum()).collect();
    let from_side = exact_counts(g.children(), &unit(4, 1), 12).totals();
    assert_eq!(root_totals[0], 1);
    for d in 1..=13 {
        assert_eq!(root_totals[d], 2 * from_side[d - 1], "d = {d}");
    }
}

/// Derive the equivalence graph from the board itself and compare with the shipped files:
/// every position of a class must have the same children per class.
fn derive(
    n: usize,
    classes: usize,
    states: &[(usize, Option<usize>)],
    prune: bool,
    classify: &dyn Fn(usize, Option<usize>) -> usize,
) -> Vec<Vec<u64>> {
    let mut rows: Vec<Option<Vec<u64>>> = vec![None; classes];
    for &(p, prev) in states {
        let mut row = vec![0u64; classes];
        for q in neighbours(n, p) {
            if prune && prev == Some(q) {
                continue;
            }
            row[classify(q, Some(p))] += 1;
        }
        let class = classify(p, prev);
        match &rows[class] {
            None => rows[class] = Some(row),
            Some(r) => assert_eq!(r, &row, "position {p} disagrees with its class {class}"),
        }
    }
    rows.into_iter()
        .map(|r| r.expect("class without a position"))
        .collect()
}

#[test]
fn matrices_match_the_board_geometry() {
    for (n, file) in [(3, "eight.ron"), (4, "fifteen.ron")] {
        let states: Vec<_> = (0..n * n).map(|p| (p, None)).collect();
        let a = derive(n, 3, &states, false, &by_degree(n));
        assert_eq!(a, load(file).children(), "{file}");
    }
    let states: Vec<_> = (0..25).map(|p| (p, None)).collect();
    let a = derive(5, 6, &states, false, &|p, _| five_class(p));
    assert_eq!(a, load("twenty_four.ron").children());
    let states: Vec<_> = (0..9)
        .flat_map(|p| neighbours(3, p).into_iter().map(move |q| (p, Some(q))))
        .collect();
    let a = derive(3, 4, &states, true, &pred_class);
    assert_eq!(a, load("eight_pred.ron").children());
}
