//! A parallel `scan` search builds its tables once for all its subproblems, not once
//! per subproblem: on its own in this file, as the count is the whole process's.

use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::search::rowscan::tables_built;
use plytile::search::{solve_with, Heuristic, Limits, Spread};
use std::path::Path;
use std::sync::atomic::AtomicBool;

#[test]
fn a_parallel_scan_builds_its_tables_once_for_all_subproblems() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan/pieces_05x05.txt");
    let p = read_puzzle(&path, EdgeOrder::Urdl).unwrap();
    let limits = Limits::default();
    for h in [Heuristic::Scan, Heuristic::ScanAlong { columns: true }] {
        let spread = Spread {
            threads: 2,
            split_depth: Some(3),
            ..Spread::default()
        };
        let before = tables_built();
        let r = solve_with(&p, h, &limits, &AtomicBool::new(false), &spread).unwrap();
        let built = tables_built() - before;
        assert!(r.exhaustive);
        assert!(r.subproblems > 10, "{h}: {} subproblems", r.subproblems);
        // The frontier's and the run's (every subproblem shares the run's).
        assert_eq!(
            built, 2,
            "{h}: tables built for {} subproblems",
            r.subproblems
        );
    }
}
