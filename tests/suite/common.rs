//! Helpers shared by the integration tests, above all an independent brute-force
//! counter that shares no code with the solver's `State` or search: it is written
//! straight from the definitions in the README.
//!
//! - Rotation k = k clockwise quarter turns: side s (0 up, 1 right, 2 down, 3 left)
//!   shows the listed edge (s - k) mod 4.
//! - A piece fits a cell iff for every side: the side faces the board edge exactly
//!   when the shown colour is 0, and for every placed neighbour the touching colours
//!   are equal.
//! - Cells are filled row-major from the top-left (column by column from the left,
//!   each top to bottom, when the board is wider than tall); hint cells are
//!   pre-filled and skipped. Every (piece, rotation) is tried, so rotations of symmetric pieces,
//!   identical pieces and board symmetries all count separately.
//! - A node is a consistent partial placement; nodes[d] counts nodes with d pieces
//!   placed beyond the hints (nodes[0] = 1, the root).

#![allow(dead_code)]

use plytile::branching::{branching_factor, Tree};
use plytile::puzzle::{Board, Hint, Puzzle};
use std::path::{Path, PathBuf};

/// Whether the placement bitset `set` holds oriented piece `o` (bit o of word o / 64,
/// the layout of the state's sets).
pub fn holds(set: &[u64], o: usize) -> bool {
    set[o / 64] >> (o % 64) & 1 == 1
}

/// The colour piece `piece` shows on side `side` after `rot` clockwise quarter turns.
pub fn shown(piece: [u8; 4], rot: u8, side: usize) -> u8 {
    piece[(side + 4 - rot as usize % 4) % 4]
}

/// The cell across `side` of (row, col), or None when that side faces the board edge.
fn across(w: usize, h: usize, row: usize, col: usize, side: usize) -> Option<usize> {
    match side {
        0 => (row > 0).then(|| (row - 1) * w + col),
        1 => (col + 1 < w).then(|| row * w + col + 1),
        2 => (row + 1 < h).then(|| (row + 1) * w + col),
        3 => (col > 0).then(|| row * w + col - 1),
        _ => unreachable!(),
    }
}

/// Does `piece` turned `rot` fit `cell` of `board` (the fit rule above)?
pub fn fits(p: &Puzzle, board: &Board, cell: usize, piece: usize, rot: u8) -> bool {
    let (w, h) = (p.width, p.height);
    let (row, col) = (cell / w, cell % w);
    for side in 0..4 {
        let colour = shown(p.pieces[piece], rot, side);
        match across(w, h, row, col, side) {
            None => {
                if colour != 0 {
                    return false;
                }
            }
            Some(nb) => {
                if colour == 0 {
                    return false;
                }
                if let Some((q, r)) = board[nb] {
                    if shown(p.pieces[q], r, (side + 2) % 4) != colour {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// Result of the brute force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brute {
    pub solutions: u64,
    /// Nodes per depth beyond the hints, trailing zero depths trimmed (the root kept).
    pub nodes_per_depth: Vec<u64>,
    /// Every solution, when asked to collect them.
    pub boards: Vec<Board>,
}

struct Run<'a> {
    p: &'a Puzzle,
    order: Vec<usize>,
    board: Board,
    used: Vec<bool>,
    nodes: Vec<u64>,
    solutions: u64,
    collect: bool,
    boards: Vec<Board>,
}

impl Run<'_> {
    fn go(&mut self, depth: usize) {
        self.nodes[depth] += 1;
        if depth == self.order.len() {
            self.solutions += 1;
            if self.collect {
                self.boards.push(self.board.clone());
            }
            return;
        }
        let cell = self.order[depth];
        for piece in 0..self.p.pieces.len() {
            if self.used[piece] {
                continue;
            }
            for rot in 0..4u8 {
                if fits(self.p, &self.board, cell, piece, rot) {
                    self.used[piece] = true;
                    self.board[cell] = Some((piece, rot));
                    self.go(depth + 1);
                    self.board[cell] = None;
                    self.used[piece] = false;
                }
            }
        }
    }
}

/// The board with only the hints placed, and which pieces they use.
fn hinted(p: &Puzzle) -> (Board, Vec<bool>) {
    let mut board: Board = vec![None; p.width * p.height];
    let mut used = vec![false; p.pieces.len()];
    for h in &p.hints {
        board[h.row * p.width + h.col] = Some((h.piece, h.rotation));
        used[h.piece] = true;
    }
    (board, used)
}

/// Nodes per depth with the trailing depths no node reached trimmed (the root kept).
fn trimmed(mut nodes: Vec<u64>) -> Vec<u64> {
    while nodes.len() > 1 && nodes.last() == Some(&0) {
        nodes.pop();
    }
    nodes
}

fn run(p: &Puzzle, collect: bool) -> Brute {
    let n = p.width * p.height;
    let (board, used) = hinted(p);
    // Scan's order: rows from the top, each left to right; on a board wider than tall,
    // columns from the left, each top to bottom.
    let (w, h) = (p.width, p.height);
    let cells: Vec<usize> = if w > h {
        (0..w)
            .flat_map(|col| (0..h).map(move |row| row * w + col))
            .collect()
    } else {
        (0..n).collect()
    };
    let order: Vec<usize> = cells.into_iter().filter(|&c| board[c].is_none()).collect();
    let mut r = Run {
        p,
        nodes: vec![0; order.len() + 1],
        order,
        board,
        used,
        solutions: 0,
        collect,
        boards: Vec::new(),
    };
    r.go(0);
    Brute {
        solutions: r.solutions,
        nodes_per_depth: trimmed(r.nodes),
        boards: r.boards,
    }
}

/// Nodes per depth of the fewest-placements rule, written from its definition: at a
/// node, count every empty cell's legal placements (free piece, rotation) by the fit
/// rule; a cell with none ends the branch; else branch on the cell with the fewest
/// (ties: lowest index), over (piece, rotation) in increasing `4 * piece + rotation`.
pub fn brute_force_mrv(p: &Puzzle) -> Brute {
    brute_force_by(p, &fewest)
}

/// The fewest placements, ties to the lowest index (counts are in cell order).
fn fewest(_: &Puzzle, _: &mut Board, _: &mut [bool], counts: &[(u32, usize)]) -> Option<usize> {
    let best = counts.iter().min_by_key(|&&(n, c)| (n, c));
    best.map(|&(_, c)| c)
}

/// Counts solutions and nodes per depth of `ply:2` (`adj`: `ply:2:adj`), written
/// from the definition in "The N-ply average local branching factor", with
/// [`branching_factor`] on explicit trees: a node with an empty cell without
/// placements is dead; otherwise each empty site's local tree
/// is its placements, each followed by the placements at its fewest-placement empty
/// neighbour after it (`adj`: at all of them, their counts added; none: one line to
/// level 2), and the site with the smallest b (ties to the lowest index) is branched
/// on, unless that b is 0 (dead).
pub fn brute_force_ply2(p: &Puzzle, adj: bool) -> Brute {
    brute_force_by(p, &|p, board, used, counts| {
        let mut best: Option<(f64, usize)> = None;
        for &(_, s) in counts {
            let mut level1 = Vec::new();
            for (piece, rot) in placements(p, board, used, s) {
                board[s] = Some((piece, rot));
                used[piece] = true;
                let after: Vec<u32> = neighbours(p, s)
                    .filter(|&nb| board[nb].is_none())
                    .map(|nb| count(p, board, used, nb))
                    .collect();
                board[s] = None;
                used[piece] = false;
                let leaves = match (after.iter().min(), adj) {
                    (None, _) => 1,
                    (Some(&fewest), false) => fewest,
                    (Some(_), true) => after.iter().sum(),
                };
                level1.push(Tree::node(vec![Tree::leaf(); leaves as usize]));
            }
            let b = branching_factor(&Tree::node(level1), 2);
            // Equal trees give equal floats; different ones differ far above 1e-9.
            if best.is_none_or(|(bb, _)| b < bb - 1e-9) {
                best = Some((b, s));
            }
        }
        best.filter(|&(b, _)| b > 0.0).map(|(_, s)| s)
    })
}

/// The empty cells next to `cell`.
fn neighbours(p: &Puzzle, cell: usize) -> impl Iterator<Item = usize> {
    let (w, h) = (p.width, p.height);
    (0..4).filter_map(move |side| across(w, h, cell / w, cell % w, side))
}

/// The free (piece, rotation)s that fit `cell`, ascending.
fn placements(p: &Puzzle, board: &Board, used: &[bool], cell: usize) -> Vec<(usize, u8)> {
    let free = (0..p.pieces.len()).filter(|&q| !used[q]);
    free.flat_map(|q| (0..4u8).map(move |r| (q, r)))
        .filter(|&(q, r)| fits(p, board, cell, q, r))
        .collect()
}

/// The number of [`placements`] at `cell`.
fn count(p: &Puzzle, board: &Board, used: &[bool], cell: usize) -> u32 {
    let free = (0..p.pieces.len()).filter(|&q| !used[q]);
    let fit = free.flat_map(|q| (0..4u8).map(move |r| (q, r)));
    fit.filter(|&(q, r)| fits(p, board, cell, q, r)).count() as u32
}

/// The site rule of a dynamic heuristic: given the board, the used pieces and
/// (count, cell) for every empty cell (cell order, all counts above 0), the cell to
/// branch on, or None for a dead node. It may change `board`/`used` but must undo that.
type SiteRule<'a> = dyn Fn(&Puzzle, &mut Board, &mut [bool], &[(u32, usize)]) -> Option<usize> + 'a;

/// The depth-first walk of a dynamic heuristic: a node with an empty cell without
/// placements is dead; otherwise `rule` names the site, whose placements are tried
/// in ascending (piece, rotation).
fn brute_force_by(p: &Puzzle, rule: &SiteRule<'_>) -> Brute {
    walk(p, usize::MAX, rule)
}

/// [`brute_force_by`] for the first `dynamic` placements beyond the hints; below
/// them no dead check, and the site is the empty cell with the highest score, 2 per
/// side facing a filled cell and 1 per rim side (ties: lowest index).
fn walk(p: &Puzzle, dynamic: usize, rule: &SiteRule<'_>) -> Brute {
    fn score(p: &Puzzle, board: &Board, cell: usize) -> usize {
        let (w, h) = (p.width, p.height);
        (0..4)
            .map(|side| match across(w, h, cell / w, cell % w, side) {
                None => 1,
                Some(nb) if board[nb].is_some() => 2,
                Some(_) => 0,
            })
            .sum()
    }
    #[allow(clippy::too_many_arguments)]
    fn go(
        p: &Puzzle,
        board: &mut Board,
        used: &mut [bool],
        depth: usize,
        dynamic: usize,
        rule: &SiteRule<'_>,
        b: &mut Brute,
    ) {
        b.nodes_per_depth[depth] += 1;
        let empty: Vec<usize> = (0..board.len()).filter(|&c| board[c].is_none()).collect();
        if empty.is_empty() {
            b.solutions += 1;
            return;
        }
        let cell = if depth < dynamic {
            let counts: Vec<(u32, usize)> = empty
                .iter()
                .map(|&c| (count(p, board, used, c), c))
                .collect();
            if counts.iter().any(|&(n, _)| n == 0) {
                return;
            }
            let Some(cell) = rule(p, board, used, &counts) else {
                return;
            };
            cell
        } else {
            // The highest score; `max_by_key` keeps the last maximum, so go down.
            *empty
                .iter()
                .rev()
                .max_by_key(|&&c| score(p, board, c))
                .unwrap()
        };
        for (piece, rot) in placements(p, board, used, cell) {
            used[piece] = true;
            board[cell] = Some((piece, rot));
            go(p, board, used, depth + 1, dynamic, rule, b);
            board[cell] = None;
            used[piece] = false;
        }
    }
    let (mut board, mut used) = hinted(p);
    let mut b = Brute {
        solutions: 0,
        nodes_per_depth: vec![0; board.len() - p.hints.len() + 1],
        boards: Vec::new(),
    };
    go(p, &mut board, &mut used, 0, dynamic, rule, &mut b);
    b.nodes_per_depth = trimmed(b.nodes_per_depth);
    b
}

/// Nodes per depth of `mrv@D` written from its definition: for the first `at`
/// placements beyond the hints, the fewest-placements rule of [`brute_force_mrv`] (a
/// cell without placements ends the branch); from depth `at` on, no such check: the
/// site is the empty cell with the highest score, 2 per side facing a filled cell
/// and 1 per rim side (ties: lowest index), over (piece, rotation) ascending.
pub fn brute_force_mrv_at(p: &Puzzle, at: usize) -> Brute {
    walk(p, at, &fewest)
}

/// Counts solutions and nodes per depth by plain row-major backtracking.
pub fn brute_force(p: &Puzzle) -> Brute {
    run(p, false)
}

/// Like [`brute_force`], also returning every solution board.
pub fn brute_force_all(p: &Puzzle) -> Brute {
    run(p, true)
}

/// A hint that puts the cell `cell` of `board` in place.
pub fn hint_from(p: &Puzzle, board: &Board, cell: usize) -> Hint {
    Hint::of(board, p.width, cell)
}

/// Reproducible test randomness: the generator's SplitMix64 stream.
#[derive(Clone, Debug)]
pub struct Rng(plytile::puzzle::generate::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(plytile::puzzle::generate::SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// In 0..n (slightly biased; fine for tests).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The crate root (where `puzzles/` lives).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A shipped puzzle file, e.g. `puzzle_path("brendan/pieces_06x06.txt")`.
pub fn puzzle_path(rel: &str) -> PathBuf {
    root().join("puzzles").join(rel)
}

/// Eternity II with the hints of `puzzles/e2/FILE` (`e2_hints.txt`: all five;
/// `e2_starter.txt`: the centre one), checked as a puzzle.
pub fn e2_with(file: &str) -> Puzzle {
    let e2 = plytile::puzzle::formats::read_puzzle(
        &puzzle_path("e2/e2pieces.txt"),
        plytile::puzzle::formats::EdgeOrder::Urdl,
    )
    .unwrap();
    let text = std::fs::read_to_string(puzzle_path(&format!("e2/{file}"))).unwrap();
    let hints = plytile::puzzle::formats::parse_e2_hints(&text, file).unwrap();
    let p = Puzzle { hints, ..e2 };
    p.validate(file).unwrap();
    p
}

/// A fresh, unique scratch directory under the system temp dir.
pub fn scratch_dir(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let k = N.fetch_add(1, Ordering::SeqCst);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let d = std::env::temp_dir().join(format!(
        "plytile-test-{tag}-{}-{k}-{nanos}",
        std::process::id()
    ));
    std::fs::create_dir_all(&d).expect("create scratch dir");
    d
}

/// Removes a scratch directory (best effort).
pub fn cleanup(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

// ---- Running the binary ----------------------------------------------------------

/// Runs `plytile` with `args` from the crate root, without the caller's RUST_LOG.
/// Runs plytile with `args`. A `solve` that names no heuristic (`--select`, or a
/// `--job`, which names its own) gets `--select scan`: these tests were written
/// against scan's trees (node counts, checkpoints, interleaving) when scan was the
/// default; `solve`'s default is now `auto`, whose tests use [`plytile_exact`].
pub fn plytile(args: &[&str]) -> std::process::Output {
    let named = args
        .iter()
        .any(|a| *a == "--select" || a.starts_with("--select=") || *a == "--job");
    if args.first() == Some(&"solve") && !named {
        let pinned: Vec<&str> = args.iter().copied().chain(["--select", "scan"]).collect();
        return plytile_exact(&pinned);
    }
    plytile_exact(args)
}

/// Runs plytile with exactly `args`.
pub fn plytile_exact(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_plytile"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_LOG")
        .output()
        .expect("run plytile")
}

pub fn code(o: &std::process::Output) -> i32 {
    o.status.code().expect("exited, not killed by a signal")
}

pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A shipped puzzle's path as a string argument.
pub fn p(rel: &str) -> String {
    puzzle_path(rel).display().to_string()
}

/// A path as a string argument.
pub fn s(path: &Path) -> String {
    path.display().to_string()
}

/// No panic and no death by a signal.
pub fn no_panic(o: &std::process::Output, what: &str) {
    let e = stderr(o);
    assert!(!e.contains("panicked"), "{what}: panic: {e}");
    assert!(!e.contains("RUST_BACKTRACE"), "{what}: panic: {e}");
    assert!(o.status.code().is_some(), "{what}: killed by a signal");
}

/// Bad input: exit code 2 and one line on stderr naming `file` (and its `line`).
pub fn assert_input_error(o: &std::process::Output, file: &str, line: Option<usize>, what: &str) {
    no_panic(o, what);
    let e = stderr(o);
    assert_eq!(code(o), 2, "{what}: exit code; stderr {e}");
    assert_eq!(e.lines().count(), 1, "{what}: stderr is one line: {e:?}");
    assert!(e.ends_with('\n'));
    assert!(e.contains(file), "{what}: names the file {file}: {e}");
    if let Some(l) = line {
        assert!(
            e.contains(&format!("{file}:{l}:")),
            "{what}: names line {l}: {e}"
        );
    }
}
