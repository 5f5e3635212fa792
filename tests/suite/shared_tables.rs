//! A parallel `scan` search (or one of a planned order, `order:*`) builds its tables
//! once for all its subproblems, not once per subproblem. The count is the whole process's, so the test runs in a process of
//! its own: the test binary again, asked for this one test alone.

use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::search::rowscan::tables_built;
use plytile::search::{solve_with, Along, Heuristic, Limits, Spread};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// Set in the child process that runs the test alone.
const ALONE: &str = "PLYTILE_TEST_ALONE";

#[test]
fn a_parallel_scan_builds_its_tables_once_for_all_subproblems() {
    if std::env::var_os(ALONE).is_none() {
        let name = "shared_tables::a_parallel_scan_builds_its_tables_once_for_all_subproblems";
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--test-threads", "1", "--nocapture"])
            .env(ALONE, "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // A filter that matched nothing would pass too: the child must have run it.
        assert!(text.contains("1 passed"), "{text}");
        return;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan/pieces_05x05.txt");
    let p = read_puzzle(&path, EdgeOrder::Urdl).unwrap();
    let limits = Limits::default();
    let planned =
        ["order:spiral", "order:hints", "order:deep"].map(|h| h.parse::<Heuristic>().unwrap());
    let lines = [
        Heuristic::Scan(Along::Shape),
        Heuristic::Scan(Along::Columns),
    ];
    for h in lines.into_iter().chain(planned) {
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
