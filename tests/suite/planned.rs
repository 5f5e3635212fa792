//! The planned-order driver ([`RowScan::with_order`]): any static order of the empty
//! cells runs on the row-scan driver and visits exactly the tree of the generic
//! depth-first driver with a selector that picks the order's next cell (same nodes
//! per depth, same solutions in the same order, same cut under limits), in mask mode
//! and list mode; its solution counts are the independent brute force's; given scan's
//! own lines it is scan's tree.

use crate::common;

use common::hint_from;
use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::puzzle::generate::{generate, SplitMix64};
use plytile::puzzle::{scans_columns, Puzzle};
use plytile::search::dfs;
use plytile::search::engine::search;
use plytile::search::plan::{deep, plan, spiral};
use plytile::search::rowscan::RowScan;
use plytile::search::select::{Along, Mrv, Plan, Scan};
use plytile::search::{solve, solve_with, Heuristic, Limits, Pick, Select, Spread, State, Stats};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The generic driver on a fixed order: the cell at depth d is `order[d - base]`.
struct Fixed {
    order: Vec<u32>,
    base: usize,
}

impl Select for Fixed {
    fn pick(&mut self, st: &mut State) -> Pick {
        Pick::Site(self.order[st.depth() - self.base] as usize)
    }
}

fn all() -> Limits {
    Limits {
        keep: usize::MAX,
        ..Limits::default()
    }
}

/// At most `n` nodes: random orders' trees may be huge (a solution count is then
/// checked only when the tree was done within it).
fn upto(n: u64) -> Limits {
    Limits {
        max_nodes: Some(n),
        ..all()
    }
}

/// Runs `order` from `st` on the generic driver and on the planned one, in mask
/// mode (when the puzzle allows it) and list mode, and checks they agree; returns the
/// generic driver's stats.
fn same(p: &Puzzle, st: &State, order: &[u32], limits: &Limits) -> Stats {
    let stop = AtomicBool::new(false);
    let mut s = st.clone();
    let fixed = &mut Fixed {
        order: order.to_vec(),
        base: st.depth(),
    };
    let slow = dfs::search(&mut s, fixed, p, limits, &stop);
    let rs = RowScan::with_order(st, order.to_vec());
    assert!(rs.planned());
    let masked = rs.masked();
    assert_eq!(masked, p.pieces.len() <= 64, "{}", p.name);
    let mut modes = vec![("lists", rs.clone().without_masks())];
    if masked {
        modes.push(("masks", rs));
    }
    for (mode, rs) in modes {
        let mut scan = Scan::on(rs);
        // The planned driver runs (not the generic fallback): it accepts the state.
        assert!(scan.tables().pause(st).is_some(), "{} declined", p.name);
        let fast = search(&mut s, &mut scan, p, limits, &stop);
        let what = format!("{} ({mode}) order {order:?} with {limits:?}", p.name);
        assert_eq!(fast.nodes_per_depth, slow.nodes_per_depth, "{what}");
        assert_eq!(fast.solutions_found, slow.solutions_found, "{what}");
        assert_eq!(fast.solutions, slow.solutions, "{what}");
        assert_eq!(fast.deepest, slow.deepest, "{what}");
        assert_eq!(fast.deepest_board, slow.deepest_board, "{what}");
        assert_eq!(fast.stopped, slow.stopped, "{what}");
        s.check_invariants().unwrap();
    }
    slow
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
    for name in ["04x04", "05x05"] {
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

/// The empty cells of `st` in a random order (seeded): grown from the filled cells
/// and the rim (each next cell a random empty one next to a filled cell or on the
/// rim), so that the tree stays small, with cells of 0 to 4 key sides; or, with
/// `any`, wholly at random (trees explode: small boards only).
fn shuffled(st: &State, seed: u64, any: bool) -> Vec<u32> {
    let mut rng = SplitMix64::new(seed);
    let mut filled: Vec<bool> = (0..st.cells()).map(|c| !st.is_empty(c)).collect();
    let mut order = Vec::new();
    loop {
        let near = |c: usize, filled: &[bool]| {
            st.neighbours(c)
                .iter()
                .any(|&nb| nb == u32::MAX || filled[nb as usize])
        };
        let open: Vec<usize> = (0..st.cells())
            .filter(|&c| !filled[c] && (any || near(c, &filled)))
            .collect();
        if open.is_empty() {
            break;
        }
        let c = open[rng.below(open.len() as u64) as usize];
        filled[c] = true;
        order.push(c as u32);
    }
    order
}

/// Spiral, hints plan and three random orders of `st`'s empty cells (wholly random
/// ones too on boards of at most 16 cells).
fn orders(st: &State) -> Vec<Vec<u32>> {
    let mut v = vec![spiral(st), plan(st)];
    v.extend((1..=3).map(|seed| shuffled(st, seed, false)));
    if st.cells() <= 16 {
        v.extend((4..=5).map(|seed| shuffled(st, seed, true)));
    }
    v
}

/// `order:deep` on Eternity II with its five hints: the rows, then the ten cells with a
/// hint on their right or below, in row order; on a board without hints, scan's lines.
#[test]
fn order_deep_puts_the_cells_walled_in_by_hints_last() {
    let e2 = common::e2_with("e2_hints.txt");
    let root = State::new(&e2);
    let order = deep(&root);
    assert_eq!(order.len(), 251);
    let walled = [
        (1, 2),
        (1, 13),
        (2, 1),
        (2, 12),
        (7, 7),
        (8, 6),
        (12, 2),
        (12, 13),
        (13, 1),
        (13, 12),
    ];
    let tail: Vec<(u32, u32)> = order[241..].iter().map(|&c| (c / 16, c % 16)).collect();
    assert_eq!(tail, walled);
    let rows = Plan::Lines { columns: false }.order(&root);
    let rest: Vec<u32> = rows
        .iter()
        .copied()
        .filter(|c| !order[241..].contains(c))
        .collect();
    assert_eq!(order[..241], rest[..]);
    assert_eq!(Plan::Deep.order(&root), order);
    for p in boards() {
        let bare = State::new(&p);
        let columns = scans_columns(p.width, p.height);
        assert_eq!(
            Plan::Deep.order(&bare),
            Plan::Lines { columns }.order(&bare),
            "{}",
            p.name
        );
    }
}

/// `order:deep` on hinted boards (walled cells in the first rows and in the last) runs
/// the same tree on 1 and 2 threads and at any split depth: its order is made once,
/// from the hints.
#[test]
fn order_deep_counts_do_not_depend_on_threads() {
    let deep: Heuristic = "order:deep".parse().unwrap();
    for p in boards().into_iter().skip(3) {
        let (w, n) = (p.width, p.cells());
        let q = hinted(&p, &[w + 2, n - w - 2]);
        let root = State::new(&q);
        assert_ne!(
            deep.plan(w, p.height).unwrap().order(&root),
            Plan::Lines {
                columns: scans_columns(w, p.height)
            }
            .order(&root),
            "{}",
            q.name
        );
        let one = solve(&q, deep, &all(), &AtomicBool::new(false));
        assert_eq!(
            one.solutions_found,
            common::brute_force(&q).solutions,
            "{}",
            q.name
        );
        for (threads, split_depth) in [(2, None), (2, Some(1)), (2, Some(4))] {
            let spread = Spread {
                threads,
                split_depth,
                ..Spread::default()
            };
            let r = solve_with(&q, deep, &all(), &AtomicBool::new(false), &spread).unwrap();
            assert_eq!(
                r.nodes_per_depth, one.nodes_per_depth,
                "{} {spread:?}",
                q.name
            );
            assert_eq!(r.solutions, one.solutions, "{} {spread:?}", q.name);
        }
    }
}

#[test]
fn given_scan_lines_the_planned_driver_is_scan() {
    let stop = AtomicBool::new(false);
    for p in boards() {
        let root = State::new(&p);
        for columns in [false, true] {
            let lines = Plan::Lines { columns }.order(&root);
            let mut st = root.clone();
            let scan = search(&mut st, &mut Scan::along(&root, columns), &p, &all(), &stop);
            let rs = RowScan::with_order(&root, lines);
            for rs in [rs.clone(), rs.without_masks()] {
                let planned = search(&mut st, &mut Scan::on(rs), &p, &all(), &stop);
                let what = format!("{} columns {columns}", p.name);
                assert_eq!(planned.nodes_per_depth, scan.nodes_per_depth, "{what}");
                assert_eq!(planned.solutions, scan.solutions, "{what}");
            }
        }
    }
}

#[test]
fn planned_orders_visit_the_generic_tree_and_count_every_solution() {
    for p in boards() {
        let n = p.cells();
        let mut puzzles = vec![p.clone()];
        for cells in [vec![0], vec![n / 2 + 1], vec![n - 1, p.width + 1]] {
            puzzles.push(hinted(&p, &cells));
        }
        for q in puzzles {
            let root = State::new(&q);
            let brute = common::brute_force(&q).solutions;
            for (i, order) in orders(&root).into_iter().enumerate() {
                // Spiral and plan whole, the random orders up to a budget.
                let limits = if i < 2 { all() } else { upto(300_000) };
                let s = same(&q, &root, &order, &limits);
                assert!(i >= 2 || s.stopped.is_none());
                if s.stopped.is_none() {
                    assert_eq!(s.solutions_found, brute, "{} order {order:?}", q.name);
                }
            }
        }
    }
}

#[test]
fn the_heuristics_run_their_orders_on_the_planned_driver() {
    let stop = AtomicBool::new(false);
    for p in boards().into_iter().take(5) {
        let q = hinted(&p, &[p.width + 1]);
        for p in [p, q] {
            let root = State::new(&p);
            let brute = common::brute_force(&p).solutions;
            for (name, order) in [
                ("order:spiral", spiral(&root)),
                ("order:hints", plan(&root)),
                ("order:deep", deep(&root)),
            ] {
                let h: Heuristic = name.parse().unwrap();
                assert_eq!(h.to_string(), name);
                let r = solve(&p, h, &all(), &stop);
                assert_eq!(r.solutions_found, brute, "{} {name}", p.name);
                let s = same(&p, &root, &order, &all());
                assert_eq!(r.nodes_per_depth, s.nodes_per_depth, "{} {name}", p.name);
            }
        }
    }
}

#[test]
fn every_limit_cuts_at_the_same_node() {
    for p in boards().into_iter().take(5) {
        let root = State::new(&p);
        for order in orders(&root).into_iter().take(3) {
            let whole = same(&p, &root, &order, &upto(1_000_000)).nodes();
            for m in [1, 2, 3, 17, 4096, 4097, whole - 1, whole, whole + 1] {
                let limits = Limits {
                    max_nodes: Some(m),
                    ..all()
                };
                same(&p, &root, &order, &limits);
            }
            for k in [1, 2, 5] {
                let limits = Limits {
                    max_solutions: Some(k),
                    keep: 3,
                    ..Limits::default()
                };
                same(&p, &root, &order, &limits);
            }
        }
    }
}

/// Tables built on a partial board (its placed cells static, as a hybrid heuristic
/// builds them per subtree) search that subtree as the generic driver does.
#[test]
fn tables_of_a_partial_board_search_its_subtree() {
    let stop = AtomicBool::new(false);
    for p in boards() {
        let root = State::new(&p);
        let r = solve(&p, Heuristic::Scan(Along::Shape), &all(), &stop);
        let board = r.solution_board(0);
        // The first solution's pieces at a spiral's first cells.
        for k in [1, 3, p.width + 2] {
            let mut st = root.clone();
            for &c in &spiral(&root)[..k] {
                let (piece, rot) = board[c as usize].unwrap();
                st.place(c as usize, 4 * piece as u32 + rot as u32);
            }
            for (i, order) in [spiral(&st), plan(&st), shuffled(&st, 7, false)]
                .into_iter()
                .enumerate()
            {
                let limits = if i < 2 { all() } else { upto(300_000) };
                let s = same(&p, &st, &order, &limits);
                assert!(i == 2 || s.solutions_found >= 1, "{}", p.name);
                assert!(s.nodes_per_depth[..k].iter().all(|&n| n == 0));
            }
        }
    }
}

/// More than 64 pieces: the list driver alone. Spiral trees of such boards are
/// huge (the whole rim first): each order runs up to a budget, with hints across
/// the middle row and column to keep the trees small; the solution count is
/// checked where a tree ran to its end (at least one must).
#[test]
fn boards_of_more_than_64_pieces_run_in_list_mode() {
    for (w, h, rim, inner, seed) in [(9, 8, 6, 16, 11), (10, 7, 6, 16, 12)] {
        let p = generate(w, h, rim, inner, seed).unwrap();
        assert!(p.pieces.len() > 64);
        let n = p.cells();
        // A cross of hints: the middle row and column.
        let cross: Vec<usize> = (0..n)
            .filter(|&c| c / w == h / 2 || c % w == w / 2)
            .collect();
        let q = hinted(&p, &cross);
        let brute = common::brute_force(&q).solutions;
        let root = State::new(&q);
        let mut ended = 0;
        for order in [spiral(&root), plan(&root), shuffled(&root, 5, false)] {
            let s = same(&q, &root, &order, &upto(500_000));
            if s.stopped.is_none() {
                ended += 1;
                assert_eq!(s.solutions_found, brute, "{}", q.name);
            }
        }
        assert!(ended >= 1, "{}: no tree ran to its end", q.name);
    }
}

/// Table build times of planned orders (run by hand: `cargo test --profile quick
/// --test suite build_times -- --ignored --nocapture`).
#[test]
#[ignore]
fn build_times() {
    let root = env!("CARGO_MANIFEST_DIR");
    let d = read_puzzle(
        Path::new(&format!("{root}/puzzles/wortmann8x8/puzzleD_8x8_set2.txt")),
        EdgeOrder::Urdl,
    )
    .unwrap();
    let e2 = common::e2_with("e2_starter.txt");
    for p in [d, e2] {
        let st = State::new(&p);
        for (name, order) in [
            ("rows", Plan::Lines { columns: false }.order(&st)),
            ("spiral", spiral(&st)),
            ("hints", plan(&st)),
        ] {
            let runs = 50;
            let t = std::time::Instant::now();
            for _ in 0..runs {
                std::hint::black_box(RowScan::with_order(&st, order.clone()));
            }
            let us = t.elapsed().as_secs_f64() * 1e6 / runs as f64;
            eprintln!("{} {name}: {us:.0} us per build", p.name);
        }
        let t = std::time::Instant::now();
        for _ in 0..50 {
            std::hint::black_box(RowScan::new(&st, false));
        }
        eprintln!(
            "{} scan rows (RowScan::new): {:.0} us per build",
            p.name,
            t.elapsed().as_secs_f64() * 1e6 / 50.0
        );
    }
}

/// `order:FILE`: the file's cells in order, then the ones it leaves out in row order.
/// Listing the rows gives `scan:rows`' tree; listing the centre first gives another
/// tree with the same solutions; a file that names a cell twice, a cell off the board
/// or no cell pair is refused with its file and line, exit 2.
#[test]
fn order_files_run_the_order_they_list() {
    use common::{
        assert_input_error, cleanup, code, plytile_exact as plytile, scratch_dir, stdout,
    };
    let dir = scratch_dir("order-file");
    let f = common::p("brendan/pieces_05x04.txt");
    let run = |select: &str| {
        let o = plytile(&[
            "solve",
            &f,
            "--all",
            "--json",
            "--threads",
            "1",
            "--select",
            select,
        ]);
        assert_eq!(code(&o), 0, "{select}");
        serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap()
    };
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        format!("order:{}", path.display())
    };
    let rows: String = (0..4)
        .flat_map(|r| (0..5).map(move |c| format!("{r} {c}\n")))
        .collect();
    let listed = run(&write("rows.txt", &format!("# the rows\n{rows}")));
    let scan = run("scan:rows");
    assert_eq!(listed["nodes_per_depth"], scan["nodes_per_depth"]);
    assert_eq!(listed["select"].as_str().unwrap(), write("rows.txt", &rows));
    let centre = run(&write(
        "centre.txt",
        "1 2\n2 2  # then the rest, row by row\n",
    ));
    assert_eq!(centre["solutions_found"], scan["solutions_found"]);
    assert_ne!(centre["nodes_per_depth"], scan["nodes_per_depth"]);
    for (name, text, line) in [
        ("twice.txt", "0 0\n1 1\n0 0\n", 3),
        ("off.txt", "0 0\n4 0\n", 2),
        ("word.txt", "0 0\nrow 1\n", 2),
    ] {
        let select = write(name, text);
        let o = plytile(&["solve", &f, "--select", &select]);
        assert_input_error(&o, name, Some(line), name);
    }
    cleanup(&dir);
}
