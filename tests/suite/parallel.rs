//! The parallel search counts exactly what the single-thread search counts: across
//! thread counts, split depths, shards, job files, and a run killed by a signal and
//! resumed from its checkpoint.

use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::puzzle::Puzzle;
use plytile::report::SolveResult;
use plytile::search::select::{syntaxes, Along, Mrv, Plan};
use plytile::search::{
    jobs, parallel, solve_with, Heuristic, Limits, Order, Spread, Stop, Strategy,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The path of Brendan's puzzle file `name` (in `puzzles/brendan`).
fn brendan_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles/brendan")
        .join(name)
}

/// A fresh, empty scratch directory for one test of this process.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plytile-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn brendan(name: &str) -> Puzzle {
    read_puzzle(&brendan_file(name), EdgeOrder::Urdl).unwrap()
}

fn all() -> Limits {
    Limits {
        keep: 1000,
        ..Limits::default()
    }
}

fn run(p: &Puzzle, h: Heuristic, limits: &Limits, spread: Spread) -> SolveResult {
    solve_with(p, h, limits, &AtomicBool::new(false), &spread).unwrap()
}

fn threads(t: usize) -> Spread {
    Spread {
        threads: t,
        ..Spread::default()
    }
}

/// Every registered heuristic that parses from its bare name, plus `ply:2` if known;
/// not `order:deep`, which on these boards without hints is `order:hints`'s tree on the
/// same driver (its own tests are in `planned.rs`).
fn heuristics() -> Vec<Heuristic> {
    let deep = Heuristic::Order(Plan::Deep);
    let mut hs: Vec<Heuristic> = syntaxes()
        .filter_map(|(name, _)| name.parse().ok())
        .filter(|&h| h != deep)
        .collect();
    if let Ok(h) = "ply:2".parse() {
        if !hs.contains(&h) {
            hs.push(h);
        }
    }
    assert!(hs.len() >= 2);
    hs
}

fn same_counts(a: &SolveResult, b: &SolveResult, what: &str) {
    assert_eq!(
        a.nodes_per_depth, b.nodes_per_depth,
        "{what}: nodes per depth"
    );
    assert_eq!(a.nodes, b.nodes, "{what}: nodes");
    assert_eq!(a.solutions_found, b.solutions_found, "{what}: solutions");
    assert_eq!(a.exhaustive, b.exhaustive, "{what}: exhaustive");
}

#[test]
fn counts_do_not_depend_on_threads_or_split_depth() {
    for name in ["pieces_05x05.txt", "pieces_06x05.txt", "pieces_04x04.txt"] {
        let p = brendan(name);
        for h in heuristics() {
            let one = run(&p, h, &all(), threads(1));
            assert!(one.exhaustive);
            for t in [2, 4] {
                let r = run(&p, h, &all(), threads(t));
                same_counts(&one, &r, &format!("{name} {h} --threads {t}"));
                // With --all the kept solutions are the single-thread ones, in order.
                assert_eq!(
                    one.solutions, r.solutions,
                    "{name} {h} --threads {t}: solutions"
                );
            }
            // Split depth 0: one subproblem, all parallelism from work sharing; and
            // split depths up to past the full board.
            for d in [0, 1, 3, 7, 100] {
                let r = run(
                    &p,
                    h,
                    &all(),
                    Spread {
                        threads: 2,
                        split_depth: Some(d),
                        ..Spread::default()
                    },
                );
                same_counts(&one, &r, &format!("{name} {h} --split-depth {d}"));
                assert_eq!(one.solutions, r.solutions);
            }
        }
    }
}

/// `p` with every colour c but the rim's renumbered to c + `by` (at most 255).
fn renumbered(p: &Puzzle, by: u8) -> Puzzle {
    let mut q = p.clone();
    for c in q.pieces.iter_mut().flatten().filter(|c| **c != 0) {
        *c += by;
    }
    q
}

/// scan keys its tables by dense colours, and a parallel search shares one set of
/// them: colours 201-208 give Brendan's 6x6 the tree of colours 1-8, on 2 threads,
/// with --symmetry, interleaved, along columns; so does colour 255 on a 3x3.
#[test]
fn renumbered_colours_search_the_same_tree() {
    use plytile::search::symmetric::solve_symmetric;
    let stop = AtomicBool::new(false);
    for (name, by) in [("pieces_06x06.txt", 200), ("pieces_03x03.txt", 251)] {
        let p = brendan(name);
        let q = renumbered(&p, by);
        assert_eq!(q.colour_count(), p.colour_count() + by as usize);
        // Along columns the key's parts swap roles: on the small board (1.7 s each
        // for the 6x6's whole tree).
        let columns = [Heuristic::Scan(Along::Columns)];
        let hs = [
            &[Heuristic::Scan(Along::Shape)][..],
            if by == 200 { &[] } else { &columns },
        ]
        .concat();
        for h in hs {
            let two = run(&p, h, &all(), threads(2));
            assert!(two.exhaustive && two.solutions_found > 0);
            let what = |how: &str| format!("{name} +{by} {h} {how}");
            let r = run(&q, h, &all(), threads(2));
            same_counts(&two, &r, &what("--threads 2"));
            assert_eq!(two.solutions, r.solutions, "{}", what("solutions"));
            let interleaved = Spread {
                interleave: Some(plytile::search::parallel::interleave::Interleave {
                    window: 64,
                    slice: 2048,
                }),
                ..threads(2)
            };
            let r = run(&q, h, &all(), interleaved);
            same_counts(&two, &r, &what("--interleave on"));
            let [a, b] =
                [&p, &q].map(|x| solve_symmetric(x, h, &all(), &stop, &threads(2)).unwrap());
            same_counts(&a, &b, &what("--symmetry"));
            assert_eq!(a.solutions, b.solutions, "{}", what("--symmetry solutions"));
            assert_eq!(
                b.solutions_found,
                two.solutions_found,
                "{}",
                what("--symmetry")
            );
        }
    }
}

#[test]
fn a_fully_hinted_or_tiny_puzzle_works() {
    let p = brendan("pieces_03x03.txt");
    let one = run(&p, Heuristic::Scan(Along::Shape), &all(), threads(1));
    for d in [0, 2, 9, 10] {
        let r = run(
            &p,
            Heuristic::Scan(Along::Shape),
            &all(),
            Spread {
                threads: 3,
                split_depth: Some(d),
                ..Spread::default()
            },
        );
        same_counts(&one, &r, &format!("3x3 --split-depth {d}"));
    }
}

#[test]
fn shards_and_jobs_merge_to_the_whole() {
    let p = brendan("pieces_06x05.txt");
    for h in heuristics() {
        let whole = run(&p, h, &all(), threads(1));
        for n in [1, 3, 5] {
            let parts: Vec<(String, SolveResult)> = (0..n)
                .map(|i| {
                    (
                        format!("shard {i}"),
                        run(
                            &p,
                            h,
                            &all(),
                            Spread {
                                threads: 2,
                                shard: Some((i, n)),
                                ..Spread::default()
                            },
                        ),
                    )
                })
                .collect();
            let (m, warnings) = plytile::merge::merge(&parts, 1000).unwrap();
            assert!(warnings.is_empty());
            same_counts(&whole, &m, &format!("{h} {n} shards"));
            // Job files hold the same subproblems as the shards.
            let js = jobs::make_jobs(
                &p,
                h,
                parallel::Split::AtLeast(parallel::UNITS_PER_SHARD * n),
                n,
                &AtomicBool::new(false),
            )
            .unwrap();
            let parts: Vec<(String, SolveResult)> = js
                .into_iter()
                .map(|j| {
                    let text = jobs::job_to_ron(&j);
                    let back: jobs::Job = ron::from_str(&text).unwrap();
                    assert_eq!(back, j);
                    (
                        format!("job {}", j.job),
                        run(
                            &p,
                            h,
                            &all(),
                            Spread {
                                threads: 2,
                                job: Some(("job".into(), j)),
                                ..Spread::default()
                            },
                        ),
                    )
                })
                .collect();
            let (m, _) = plytile::merge::merge(&parts, 1000).unwrap();
            same_counts(&whole, &m, &format!("{h} {n} jobs"));
        }
        // A missing shard is reported and the sum is not exhaustive; a duplicate is refused.
        let s0 = run(
            &p,
            h,
            &all(),
            Spread {
                threads: 1,
                shard: Some((0, 2)),
                ..Spread::default()
            },
        );
        let (m, w) = plytile::merge::merge(&[("a".into(), s0.clone())], 10).unwrap();
        assert!(!m.exhaustive && !w.is_empty());
        assert!(plytile::merge::merge(&[("a".into(), s0.clone()), ("b".into(), s0)], 10).is_err());
    }
}

/// What `merge` reports must be what the whole run reports: the same counts, the
/// same kept boards in the same order, the same deepest board.
fn same_as_whole(whole: &SolveResult, m: &SolveResult, what: &str) {
    same_counts(whole, m, what);
    assert_eq!(
        whole.solutions, m.solutions,
        "{what}: solutions and their order"
    );
    assert_eq!(whole.deepest, m.deepest, "{what}: deepest board");
}

/// The results of `n` shards of `p` under `s`, each keeping `keep` boards.
fn shards_of(p: &Puzzle, s: Strategy, keep: usize, n: usize) -> Vec<(String, SolveResult)> {
    let limits = Limits { keep, ..all() };
    (0..n)
        .map(|i| {
            let spread = Spread {
                threads: 2,
                shard: Some((i, n)),
                ..Spread::default()
            };
            let r = solve_with(p, s, &limits, &AtomicBool::new(false), &spread).unwrap();
            (format!("shard {i}/{n}"), r)
        })
        .collect()
}

/// The results of the `n` job files of `p` under `s` (as `split` writes them), each
/// keeping `keep` boards.
fn jobs_of(p: &Puzzle, s: Strategy, keep: usize, n: usize) -> Vec<(String, SolveResult)> {
    let split = parallel::Split::AtLeast(parallel::UNITS_PER_SHARD * n);
    let js = jobs::make_jobs(p, s.select, split, n, &AtomicBool::new(false)).unwrap();
    let limits = Limits { keep, ..all() };
    js.into_iter()
        .map(|j| {
            let name = format!("job {} of {n}", j.job);
            let spread = Spread {
                threads: 2,
                job: Some((name.clone(), j)),
                ..Spread::default()
            };
            let r = solve_with(p, s, &limits, &AtomicBool::new(false), &spread).unwrap();
            (name, r)
        })
        .collect()
}

/// Shards and jobs are cut round-robin from the frontier (subproblem k to part
/// k mod n), so each part's boards are scattered over the search order; merged, they
/// come in the order of the whole run, and `--keep K` keeps its first K.
#[test]
fn merged_parts_list_the_boards_of_the_whole_run_in_its_order() {
    let natural = |h: Heuristic| Strategy::from(h);
    let penalty = |h: Heuristic| Strategy {
        moves: Order::Penalty,
        ..Strategy::from(h)
    };
    let mut cases = vec![("pieces_06x06.txt", natural(Heuristic::Scan(Along::Shape)))];
    for h in heuristics() {
        cases.push(("pieces_05x05.txt", natural(h)));
        cases.push(("pieces_05x05.txt", penalty(h)));
    }
    for (name, s) in cases {
        let p = brendan(name);
        for keep in [1000, 5] {
            let limits = Limits { keep, ..all() };
            let whole = solve_with(&p, s, &limits, &AtomicBool::new(false), &threads(2)).unwrap();
            // The plain one-thread search lists the same boards.
            let one = solve_with(&p, s, &limits, &AtomicBool::new(false), &threads(1)).unwrap();
            assert_eq!(one.solutions, whole.solutions);
            assert_eq!(
                whole.solutions.len() as u64,
                whole.solutions_found.min(keep as u64)
            );
            for n in [2, 3, 5] {
                let what = format!("{name} {} {} --keep {keep}, {n}", s.select, s.moves);
                let (m, warnings) =
                    plytile::merge::merge(&shards_of(&p, s, keep, n), keep).unwrap();
                assert!(warnings.is_empty(), "{what} shards: {warnings:?}");
                same_as_whole(&whole, &m, &format!("{what} shards"));
                let (m, warnings) = plytile::merge::merge(&jobs_of(&p, s, keep, n), keep).unwrap();
                assert!(warnings.is_empty(), "{what} jobs: {warnings:?}");
                same_as_whole(&whole, &m, &format!("{what} jobs"));
            }
        }
    }
}

/// The 6x6's 260 solutions are spread over the shards: merged without the order the
/// results record (as files of older versions are), the boards come shard by shard,
/// which is not the whole run's order, and merge says so.
#[test]
fn merged_parts_of_older_versions_keep_shard_order_and_say_so() {
    let p = brendan("pieces_06x06.txt");
    let s = Strategy::from(Heuristic::Scan(Along::Shape));
    let whole = run(&p, Heuristic::Scan(Along::Shape), &all(), threads(2));
    assert_eq!(whole.solutions_found, 260);
    let mut parts = shards_of(&p, s, 1000, 3);
    for (_, r) in &mut parts {
        assert_eq!(r.solutions_from.len(), r.solutions.len());
        (r.solutions_from, r.deepest_from) = (Vec::new(), None);
    }
    let (m, warnings) = plytile::merge::merge(&parts, 1000).unwrap();
    same_counts(&whole, &m, "older shards");
    let shard_order: Vec<_> = parts
        .iter()
        .flat_map(|(_, r)| r.solutions.clone())
        .collect();
    assert_eq!(m.solutions, shard_order);
    assert_ne!(m.solutions, whole.solutions);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("not in search order"), "{warnings:?}");
    assert!(m.solutions_from.is_empty());
}

/// A puzzle without solutions (the 5x5 with one piece's colour changed): every shard
/// has its deepest board, several of the same depth; merge reports the whole run's,
/// the first of that depth in search order.
#[test]
fn merged_parts_report_the_deepest_board_of_the_whole_run() {
    let mut p = brendan("pieces_05x05.txt");
    let last = p.pieces.len() - 1;
    p.pieces[last][0] = p.pieces[last][0] % 6 + 1;
    for h in heuristics() {
        for s in [
            Strategy::from(h),
            Strategy {
                moves: Order::Penalty,
                ..Strategy::from(h)
            },
        ] {
            let whole = solve_with(&p, s, &all(), &AtomicBool::new(false), &threads(2)).unwrap();
            assert_eq!((whole.solutions_found, whole.exhaustive), (0, true));
            for n in [2, 3, 5] {
                let what = format!("{h} {} {n}", s.moves);
                let parts = shards_of(&p, s, 1000, n);
                let (m, _) = plytile::merge::merge(&parts, 1000).unwrap();
                same_as_whole(&whole, &m, &format!("{what} shards"));
                let (m, _) = plytile::merge::merge(&jobs_of(&p, s, 1000, n), 1000).unwrap();
                same_as_whole(&whole, &m, &format!("{what} jobs"));
            }
        }
    }
    // Some split ties the greatest depth between shards whose boards differ, and its
    // merge does not take the first shard's.
    let s = Strategy::from("mrv".parse::<Heuristic>().unwrap());
    let parts = shards_of(&p, s, 1000, 3);
    let whole = solve_with(&p, s, &all(), &AtomicBool::new(false), &threads(1)).unwrap();
    let depth = whole.deepest.depth;
    let tied: Vec<_> = parts
        .iter()
        .filter(|(_, r)| r.deepest.depth == depth)
        .collect();
    assert!(tied.len() >= 2 && tied[0].1.deepest != whole.deepest);
}

#[test]
fn solution_limits_are_exact_and_stop_early() {
    let p = brendan("pieces_07x04.txt");
    for h in heuristics() {
        // The lookahead heuristics are slow per node: fewer cases for them.
        let cheap = matches!(h, Heuristic::Scan(Along::Shape) | Heuristic::Mrv(Mrv));
        let (ts, ks): (&[usize], &[u64]) = if cheap {
            (&[1, 2, 4], &[1, 3, 17])
        } else {
            (&[2], &[3])
        };
        for &t in ts {
            for &k in ks {
                let limits = Limits {
                    max_solutions: Some(k),
                    keep: 1000,
                    ..Limits::default()
                };
                let r = run(&p, h, &limits, threads(t));
                assert_eq!(r.solutions_found, k, "{h} --threads {t} --solutions {k}");
                assert_eq!(r.solutions.len() as u64, k);
                assert_eq!(r.stopped_by, Some(Stop::Solutions));
                assert!(!r.exhaustive);
                assert_eq!(r.exit_code(), 0);
            }
        }
    }
}

#[test]
fn remaining_work_skips_finished_and_stale_records() {
    use parallel::{resume, Record, Split};
    use plytile::search::parallel::compact::Finished;
    let p = brendan("pieces_05x05.txt");
    let level = |d| {
        let f = parallel::full_frontier(&p, Heuristic::Scan(Along::Shape), Split::Depth(d));
        f.unwrap().units
    };
    let (ones, twos, threes) = (level(1), level(2), level(3));
    let below = |p: &[(usize, u32)], level: &[Vec<(usize, u32)>]| -> Vec<Vec<(usize, u32)>> {
        level.iter().filter(|q| q.starts_with(p)).cloned().collect()
    };
    let u = &ones[..3];
    let (a, b) = {
        let kids = below(&u[0], &twos);
        assert!(
            kids.len() >= 2,
            "the test needs two children of the first unit"
        );
        (kids[0].clone(), kids[1].clone())
    };
    let (c, d) = (below(&a, &threes)[0].clone(), below(&b, &threes)[0].clone());
    let rec = |p: &Vec<(usize, u32)>, given: Vec<Vec<(usize, u32)>>| Record {
        prefix: p.clone(),
        stats: Default::default(),
        given,
    };
    // Unit 0 finished after giving away a and b; a finished after giving c, which did
    // not finish; b did not finish, so the record of its own donation d is stale.
    let done = vec![
        rec(&u[0], vec![a.clone(), b.clone()]),
        rec(&a, vec![c.clone()]),
        rec(&d, vec![]),
        rec(&u[2], vec![]),
    ];
    let none = Finished::default();
    let (valid, todo) = resume(&p, u, done.clone(), &none).unwrap();
    let kept: Vec<_> = valid.iter().map(|r| r.prefix.clone()).collect();
    assert_eq!(kept, vec![u[0].clone(), a.clone(), u[2].clone()]);
    let mut want = vec![c.clone(), b.clone(), u[1].clone()];
    want.sort();
    assert_eq!(todo, want);
    // Without records every unit is left, sorted; a record given twice is refused.
    let (valid, todo) = resume(&p, u, Vec::new(), &none).unwrap();
    assert!(valid.is_empty());
    assert_eq!(todo, u.to_vec());
    let twice = vec![done[0].clone(), done[0].clone()];
    let e = resume(&p, u, twice, &none).unwrap_err();
    assert!(e.starts_with("two records of subproblem"), "{e}");
    // Unit 1 finished and summed: nothing left of it, and no record may name it too.
    let summed = |units: Vec<usize>| Finished {
        units,
        nodes_per_depth: Vec::new(),
    };
    let (valid, todo) = resume(&p, u, done.clone(), &summed(vec![1])).unwrap();
    assert_eq!(valid.len(), 3);
    let mut want = vec![b.clone(), c.clone()];
    want.sort();
    assert_eq!(todo, want);
    let e = resume(&p, u, done.clone(), &summed(vec![2])).unwrap_err();
    assert!(e.starts_with("two records of subproblem"), "{e}");
    let e = resume(&p, u, done, &summed(vec![3])).unwrap_err();
    assert_eq!(e, "finished subproblem 3 is not one of the run's 3");
}

#[test]
fn shard_flag_parses() {
    assert_eq!(jobs::parse_shard("2/5"), Ok((2, 5)));
    assert!(jobs::parse_shard("5/5").is_err());
    assert!(jobs::parse_shard("0/0").is_err());
    assert!(jobs::parse_shard("1").is_err());
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_plytile"))
}

fn json(out: &std::process::Output) -> SolveResult {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// The whole tree of Brendan's set-2 11x4 under scan (753,987,093 nodes), searched
/// once on two threads: the reference of both kill-and-resume tests.
fn whole_11x04() -> &'static SolveResult {
    static WHOLE: std::sync::OnceLock<SolveResult> = std::sync::OnceLock::new();
    WHOLE.get_or_init(|| {
        let puzzle =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan-set2/pieces_11x04.txt");
        let args = ["--select", "scan", "--all", "--json", "--threads", "2"];
        let whole = json(&bin().arg("solve").arg(&puzzle).args(args).output().unwrap());
        assert!(whole.exhaustive);
        whole
    })
}

/// Starts `args`, sends `signal` with the `kill` command after `after`, and returns
/// the child's output. The child must still be running when the signal goes out.
fn interrupted(args: &[&str], signal: &str, after: Duration) -> std::process::Output {
    let child = bin()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    std::thread::sleep(after);
    send(&child, signal);
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(30));
    out
}

#[test]
fn a_run_killed_mid_way_resumes_to_the_same_totals() {
    // Big enough (753,987,093 nodes) that two short runs cannot finish it.
    let puzzle =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan-set2/pieces_11x04.txt");
    let puzzle = puzzle.to_str().unwrap();
    let dir = scratch("ck");
    let ck: PathBuf = dir.join("run.ck");
    let ck = ck.to_str().unwrap();
    let base = [
        "solve",
        puzzle,
        "--select",
        "scan",
        "--all",
        "--json",
        "--threads",
        "2",
    ];

    let whole = whole_11x04();

    // First run: SIGINT after a moment. It stops cleanly, saying so, and saves.
    let mut args = base.to_vec();
    args.extend(["--checkpoint", ck]);
    let out = interrupted(&args, "-INT", Duration::from_millis(700));
    let first = json(&out);
    assert_eq!(
        first.stopped_by,
        Some(Stop::Interrupted),
        "the run ended before the signal"
    );
    assert!(Path::new(ck).exists());
    // Second run: resumes, then SIGTERM.
    let out = interrupted(&args, "-TERM", Duration::from_millis(500));
    let second = json(&out);
    assert!(!second.exhaustive);
    // Third run: resumes to the end.
    let out = bin().args(&args).output().unwrap();
    let last = json(&out);
    same_counts(whole, &last, "resumed");
    assert_eq!(whole.solutions, last.solutions);
    assert_eq!(out.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run killed (SIGKILL: no last save) after a periodic save resumes from what that
/// save wrote: the frontier subproblems it had summed (by index) and the first deepest
/// record, which the run keeps in memory that way instead of a record per subproblem.
#[test]
fn a_run_killed_after_a_periodic_save_resumes_to_the_same_totals() {
    // 753,987,093 nodes: over 4 s on one thread here, so the kill comes mid-way.
    let puzzle =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan-set2/pieces_11x04.txt");
    let puzzle = puzzle.to_str().unwrap();
    let dir = scratch("periodic");
    let ck = dir.join("run.ck");
    let ck = ck.to_str().unwrap();
    let base = [
        "solve",
        "--select",
        "scan",
        puzzle,
        "--all",
        "--json",
        "--split-depth",
        "8",
    ];
    let whole = whole_11x04();

    let mut args = base.to_vec();
    args.extend(["--threads", "1", "--checkpoint", ck]);
    // One save comes every 3 s; the kill follows the first that lists summed units
    // (watched for, not timed: a loaded machine starts late). Saves are renamed into
    // place, so a read sees a whole file.
    let mut child = bin()
        .args(&args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !std::fs::read_to_string(ck).is_ok_and(|t| t.contains(r#""finished":{"units":[["#)) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before a save"
        );
        assert!(start.elapsed() < Duration::from_secs(60), "no save in 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    send(&child, "-KILL");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), None, "the run ended before the kill");
    let out = bin().args(&args).output().unwrap();
    let last = json(&out);
    assert!(last.resumed_nodes > 0);
    same_counts(whole, &last, "resumed after a kill");
    assert_eq!(whole.solutions, last.solutions);
    assert_eq!(whole.deepest, last.deepest);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn predict_reports_a_measured_run_cut_by_ctrl_c_and_exits_3() {
    let puzzle = brendan_file("pieces_08x08.txt");
    let args = [
        "predict",
        puzzle.to_str().unwrap(),
        "--measure",
        "--model",
        "sampled",
        "--probes",
        "100",
        "--json",
    ];
    let out = interrupted(&args, "-INT", Duration::from_millis(700));
    assert_eq!(out.status.code(), Some(3), "as solve and compare");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["measured_exhaustive"], false);
    assert_eq!(v["measured_stopped_by"], "interrupted");
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("stopped early (interrupted): measured counts are partial"),
        "{notes}"
    );
}

/// `--move-order` orders the solutions and decides the deepest board: a checkpoint
/// made under one is refused by a rerun under the other (before, the rerun mixed the
/// two orders), and resumed under its own.
#[test]
fn a_checkpoint_is_resumed_only_under_its_move_order() {
    let puzzle = brendan_file("pieces_05x05.txt");
    let dir = scratch("moveorder");
    let ck = dir.join("run.ck");
    let base = [
        "solve",
        puzzle.to_str().unwrap(),
        "--select",
        "mrv",
        "--all",
        "--json",
        "--threads",
        "1",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    let penalty = ["--move-order", "penalty"];
    let first = bin()
        .args(base)
        .args(penalty)
        .args(["--max-nodes", "2000"])
        .output()
        .unwrap();
    assert_eq!(first.status.code(), Some(3));
    let mixed = bin().args(base).output().unwrap();
    assert_eq!(mixed.status.code(), Some(2));
    let e = String::from_utf8_lossy(&mixed.stderr);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("run.ck: this checkpoint is for a different order of the placements (--move-order penalty)"),
        "{e}"
    );
    let resumed = json(&bin().args(base).args(penalty).output().unwrap());
    let whole = json(&bin().args(&base[..8]).args(penalty).output().unwrap());
    same_counts(&whole, &resumed, "resumed under penalty");
    assert_eq!(whole.solutions, resumed.solutions);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two runs on one checkpoint (two shards of a Slurm array given the same file, say)
/// would save over each other's records: the second is refused while the first runs,
/// and may go on once it has ended.
#[test]
fn a_checkpoint_in_use_by_another_run_is_refused() {
    let puzzle = brendan_file("pieces_07x06.txt");
    let dir = scratch("cklock");
    let ck = dir.join("run.ck");
    let args = |shard: &'static str| {
        let mut c = bin();
        c.args([
            "solve",
            puzzle.to_str().unwrap(),
            "--select",
            "mrv",
            "--all",
            "--json",
        ])
        .args([
            "--threads",
            "1",
            "--shard",
            shard,
            "--checkpoint",
            ck.to_str().unwrap(),
        ]);
        c
    };
    let first = args("0/2")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = dir.join("run.ck.lock");
    let start = Instant::now();
    while !lock.exists() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(10));
    }
    // The file comes a moment before its lock.
    std::thread::sleep(Duration::from_millis(300));
    // Bounded, in case it is not refused.
    let second = args("1/2")
        .args(["--max-nodes", "100000"])
        .output()
        .unwrap();
    // The refused run leaves the live run's lock alone.
    assert!(lock.exists(), "the first run's lock is still there");
    send(&first, "-INT");
    let first = first.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(3));
    assert!(
        !lock.exists(),
        "the first run removed its lock when it ended"
    );
    assert_eq!(second.status.code(), Some(2));
    let e = String::from_utf8_lossy(&second.stderr);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(
        e.contains("run.ck: another plytile run is using this checkpoint"),
        "{e}"
    );
    // Free again: the first run's checkpoint resumes.
    let again = args("0/2").args(["--max-nodes", "1000"]).output().unwrap();
    assert_eq!(
        again.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint path that `touch` or `mktemp` made (an empty file: plytile never
/// writes one) starts a new run instead of being refused as broken (QA, session 32);
/// and `--solutions` takes a count written as `--max-nodes` takes one (`1e1`).
#[test]
fn an_empty_checkpoint_file_starts_a_new_run() {
    let puzzle = brendan_file("pieces_05x05.txt");
    let dir = scratch("empty-ck");
    let ck = dir.join("run.ck");
    std::fs::write(&ck, "").unwrap();
    let base = [
        "solve",
        "--select",
        "scan",
        puzzle.to_str().unwrap(),
        "--json",
        "--threads",
        "1",
    ];
    let ck_args = ["--checkpoint", ck.to_str().unwrap()];
    let whole = json(&bin().args(base).arg("--all").output().unwrap());
    let out = bin()
        .args(base)
        .args(ck_args)
        .args(["--solutions", "1e1"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = json(&out);
    assert_eq!((first.solutions_found, first.resumed_nodes), (10, 0));
    let last = json(
        &bin()
            .args(base)
            .args(ck_args)
            .arg("--all")
            .output()
            .unwrap(),
    );
    assert!(last.resumed_nodes > 0);
    same_counts(&whole, &last, "resumed from the once empty file");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_rerun_with_a_larger_keep_says_the_checkpoint_kept_fewer_boards() {
    let puzzle = brendan_file("pieces_05x05.txt");
    let dir = scratch("keep");
    let ck = dir.join("run.ck");
    let base = [
        "solve",
        "--select",
        "scan",
        puzzle.to_str().unwrap(),
        "--all",
        "--json",
        "--threads",
        "1",
    ];
    let ck_args = ["--checkpoint", ck.to_str().unwrap()];
    let first = bin()
        .args(base)
        .args(ck_args)
        .args(["--keep", "0"])
        .output()
        .unwrap();
    assert_eq!(json(&first).solutions_found, 16);
    let again = bin().args(base).args(ck_args).output().unwrap();
    let r = json(&again);
    assert_eq!((r.solutions_found, r.solutions.len()), (16, 0));
    let e = String::from_utf8_lossy(&again.stderr);
    assert!(
        e.contains("0 of 16 solution boards listed (--keep 1000 allows 16)"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpoint's boards stay the first ones of the whole run whatever `--keep` its
/// reruns give. Written with `--keep 2` and stopped, its records found more boards
/// than they hold: a rerun with `--keep 10` lists the 2 (it cannot know the ones
/// dropped, so none after them either: no list with a hole) and says so. A rerun with
/// a smaller `--keep` lists fewer, but the checkpoint keeps its boards for the next.
#[test]
fn checkpoint_boards_stay_the_whole_runs_first_across_keeps() {
    let puzzle = brendan_file("pieces_06x06.txt");
    let dir = scratch("keep-gap");
    let base = [
        "solve",
        "--select",
        "scan",
        puzzle.to_str().unwrap(),
        "--all",
        "--json",
    ];
    let run = |ck: &str, extra: &[&str]| {
        let out = bin()
            .args(base)
            .args(["--threads", "1", "--checkpoint", ck])
            .args(extra)
            .output()
            .unwrap();
        (
            json(&out),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let whole = json(&bin().args(base).output().unwrap());
    assert_eq!(whole.solutions.len(), 260);
    let ck = dir.join("two.ck");
    let ck = ck.to_str().unwrap();
    let (first, _) = run(ck, &["--keep", "2", "--max-nodes", "20000000"]);
    assert!(first.solutions_found > 2, "{}", first.solutions_found);
    assert_eq!(first.solutions[..], whole.solutions[..2]);
    let (wider, e) = run(ck, &["--keep", "10"]);
    same_counts(&whole, &wider, "rerun with --keep 10");
    assert_eq!(wider.solutions[..], whole.solutions[..2]);
    assert!(
        e.contains("2 of 260 solution boards listed (--keep 10 allows 10)"),
        "{e}"
    );

    let ck = dir.join("all.ck");
    let ck = ck.to_str().unwrap();
    let (first, _) = run(ck, &["--max-nodes", "20000000"]);
    let held = first.solutions.len();
    assert!(held > 1 && held as u64 == first.solutions_found, "{held}");
    let (narrow, _) = run(ck, &["--keep", "1", "--max-nodes", "1"]);
    assert_eq!(narrow.solutions[..], whole.solutions[..1]);
    let (last, e) = run(ck, &[]);
    same_counts(&whole, &last, "rerun after --keep 1");
    assert_eq!(last.solutions, whole.solutions, "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failed_last_checkpoint_save_keeps_the_result() {
    // The CLI checks the path before the run; a disk that fills up (here: a directory
    // that is not there) fails only the last save, and the run still reports.
    let dir = std::env::temp_dir().join(format!("plytile-unsaved-{}", std::process::id()));
    let spread = Spread {
        threads: 2,
        checkpoint: Some(dir.join("gone").join("run.ck")),
        ..Spread::default()
    };
    let r = run(
        &brendan("pieces_05x05.txt"),
        Heuristic::Mrv(Mrv),
        &all(),
        spread,
    );
    assert_eq!((r.solutions_found, r.exhaustive), (16, true));
    assert_eq!(
        r.nodes,
        run(
            &brendan("pieces_05x05.txt"),
            Heuristic::Mrv(Mrv),
            &all(),
            threads(1)
        )
        .nodes
    );
    let e = r.checkpoint_error.clone().expect("the save failed");
    assert!(e.contains("run.ck: cannot write the checkpoint: "), "{e}");
    assert_eq!(
        serde_json::to_value(&r).unwrap()["checkpoint_error"],
        e.as_str()
    );
}

#[test]
fn max_nodes_limits_each_resumed_run_so_reruns_finish() {
    // `--max-nodes` is each run's budget for new work: a checkpoint's finished
    // subproblems do not use it up, so the same command run again makes progress and
    // ends with the totals of an uninterrupted run (7x5: 7,849,260 nodes).
    let puzzle = brendan_file("pieces_07x05.txt");
    let puzzle = puzzle.to_str().unwrap();
    let base = ["solve", "--select", "scan", puzzle, "--all", "--json", "-q"];
    let whole = json(&bin().args(base).args(["--threads", "1"]).output().unwrap());
    assert!(whole.exhaustive);
    for threads in ["1", "2"] {
        let dir =
            std::env::temp_dir().join(format!("plytile-budget-{}-{threads}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ck = dir.join("run.ck");
        let mut args = base.to_vec();
        args.extend(["--threads", threads, "--max-nodes", "2000000"]);
        args.extend(["--checkpoint", ck.to_str().unwrap()]);
        let mut runs: Vec<SolveResult> = Vec::new();
        loop {
            assert!(runs.len() < 10, "{threads} threads: no end in 10 runs");
            runs.push(json(&bin().args(&args).output().unwrap()));
            if runs.last().unwrap().exhaustive {
                break;
            }
        }
        assert!(
            runs.len() >= 4,
            "{threads} threads: a budget of 2e6 nodes ended early"
        );
        for w in runs.windows(2) {
            assert!(
                w[1].nodes > w[0].nodes,
                "{threads} threads: a rerun made no progress"
            );
        }
        same_counts(&whole, runs.last().unwrap(), "resumed under --max-nodes");
        assert_eq!(
            whole.deepest,
            runs.last().unwrap().deepest,
            "{threads} threads"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_budget_smaller_than_a_subproblem_still_makes_progress() {
    // With --split-depth 1 the 7x5's subproblems hold about 2e6 (scan) and 5e6 (mrv)
    // nodes. A stopped one is recorded with what it counted and hands its untried
    // placements on as subproblems, so reruns under a smaller budget get to the end
    // (before, each rerun searched the same first subproblem again).
    let puzzle = brendan_file("pieces_07x05.txt");
    let puzzle = puzzle.to_str().unwrap();
    // One whole run per tree, the reference of its resumed runs on any threads.
    let mut wholes = std::collections::HashMap::new();
    // Under --move-order penalty the records fold in that search's order.
    for (select, moves, budget, threads) in [
        ("scan", "natural", "400000", "1"),
        ("mrv", "natural", "1500000", "1"),
        ("mrv", "natural", "1500000", "2"),
        ("mrv", "penalty", "1500000", "2"),
    ] {
        let base = [
            "solve",
            puzzle,
            "--all",
            "--json",
            "-q",
            "--select",
            select,
            "--move-order",
            moves,
            "--keep",
            "100",
        ];
        let whole = wholes.entry((select, moves)).or_insert_with(|| {
            let whole = json(&bin().args(base).args(["--threads", "1"]).output().unwrap());
            assert!(whole.exhaustive);
            whole
        });
        let dir = std::env::temp_dir().join(format!(
            "plytile-rest-{}-{select}-{moves}-{threads}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let ck = dir.join("run.ck");
        let mut args = base.to_vec();
        args.extend([
            "--threads",
            threads,
            "--split-depth",
            "1",
            "--max-nodes",
            budget,
        ]);
        args.extend(["--checkpoint", ck.to_str().unwrap()]);
        let mut runs = 0;
        let last = loop {
            runs += 1;
            assert!(
                runs <= 40,
                "{select} on {threads} threads: no end in 40 runs"
            );
            let r = json(&bin().args(&args).output().unwrap());
            if r.exhaustive {
                break r;
            }
            assert_eq!(r.stopped_by, Some(Stop::MaxNodes));
        };
        let what = format!("{select} {moves} on {threads} threads, resumed {runs} times");
        assert!(
            runs >= 5,
            "{what}: the budget was not smaller than the tree"
        );
        same_counts(whole, &last, &what);
        assert_eq!(whole.deepest, last.deepest, "{what}: the same deepest node");
        assert_eq!(
            whole.solutions, last.solutions,
            "{what}: the same solutions in the same order"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A checkpoint of plytile 0.1.0, from before checkpoints were compacted
/// (`tests/data/checkpoint-0.1.0-5x5.json`: the 5x5 after 20,000 nodes on one thread,
/// three records, one giving its rest away as whole prefixes in `given`), is read
/// with its digest and resumed, to the end at once or in steps that rewrite it
/// compacted; either way to the totals, solutions and deepest node of one run.
#[test]
fn a_checkpoint_of_the_format_before_compaction_resumes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let puzzle = root.join("puzzles/brendan/pieces_05x05.txt");
    let base = [
        "solve",
        "--select",
        "scan",
        puzzle.to_str().unwrap(),
        "--all",
        "--json",
        "-q",
    ];
    let base = [&base[..], &["--threads", "1"]].concat();
    let whole = json(&bin().args(&base).output().unwrap());
    let dir = scratch("old-ck");
    let ck = dir.join("run.ck");
    for budget in [None, Some("20000")] {
        std::fs::copy(root.join("tests/data/checkpoint-0.1.0-5x5.json"), &ck).unwrap();
        let mut args = base.clone();
        args.extend(["--checkpoint", ck.to_str().unwrap()]);
        if let Some(b) = budget {
            args.extend(["--max-nodes", b]);
        }
        let mut runs = 0;
        let last = loop {
            runs += 1;
            assert!(runs <= 20, "{budget:?}: no end in 20 runs");
            let out = bin().args(&args).output().unwrap();
            assert!(
                out.status.code() != Some(2),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let r = json(&out);
            if runs == 1 {
                assert_eq!(r.resumed_nodes, 20_000, "{budget:?}: the old records");
            }
            if r.exhaustive {
                break r;
            }
        };
        let what = format!("resumed from the old format, {budget:?}, {runs} runs");
        same_counts(&whole, &last, &what);
        assert_eq!(whole.solutions, last.solutions, "{what}");
        assert_eq!(whole.deepest, last.deepest, "{what}");
        assert!(budget.is_none() || runs > 2, "{what}");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ck).unwrap()).unwrap();
        assert!(v["finished"]["units"].as_array().is_some(), "{what}: {v}");
        for r in v["records"].as_array().unwrap() {
            assert!(r["given"].as_array().unwrap().is_empty(), "{what}: {r}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_budget_smaller_than_the_frontier_still_makes_progress() {
    // Shard 0 of this hinted board counts the frontier's 153 internal nodes. Counted
    // against --max-nodes 100 on every rerun, they left each run where the last one
    // stopped; with a checkpoint they are not new work.
    let puzzle = Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/hinted/b7x6_col3.txt");
    let base = [
        "solve",
        puzzle.to_str().unwrap(),
        "--all",
        "--json",
        "-q",
        "--select",
        "mrv",
        "--factor",
        "on",
        "--shard",
        "0/2",
        "--threads",
        "1",
    ];
    let whole = json(&bin().args(base).output().unwrap());
    assert_eq!((whole.nodes, whole.solutions_found), (4411, 1));
    let dir = scratch("frontier");
    let ck = dir.join("run.ck");
    let args = ["--max-nodes", "100", "--checkpoint", ck.to_str().unwrap()];
    let mut runs = 0;
    let last = loop {
        runs += 1;
        assert!(runs <= 100, "no end in 100 runs");
        let r = json(&bin().args(base).args(args).output().unwrap());
        if r.exhaustive {
            break r;
        }
    };
    same_counts(&whole, &last, "resumed under a budget below the frontier");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A rerun stopped before its search starts (here its deadline has passed while the
/// frontier is expanded) still reports what its checkpoint holds, checked as always
/// and read as resumed nodes, instead of an empty result: the file is the run's result
/// so far. (It then runs until its workers first look at the clock.)
#[test]
fn a_rerun_stopped_before_searching_reports_its_checkpoint() {
    let puzzle = brendan_file("pieces_07x05.txt");
    let dir = scratch("early");
    let ck = dir.join("run.ck");
    let base = [
        "solve",
        "--select",
        "scan",
        puzzle.to_str().unwrap(),
        "--all",
        "--json",
        "-q",
    ];
    let ck_args = ["--threads", "1", "--checkpoint", ck.to_str().unwrap()];
    let first = bin()
        .args(base)
        .args(ck_args)
        .args(["--max-nodes", "2000000"])
        .output()
        .unwrap();
    let first = json(&first);
    assert_eq!((first.solutions_found, first.nodes), (8, 2_000_005));
    assert_eq!(first.resumed_nodes, 0);
    // Checked as on any run: a record given twice is refused, not counted twice.
    let text = std::fs::read_to_string(&ck).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let again = v["records"][0].clone();
    v["records"].as_array_mut().unwrap().push(again);
    // With its digest written anew: else the edit is refused before any record is read.
    let o = v.as_object_mut().unwrap();
    o.remove("digest").unwrap();
    let c: plytile::search::checkpoint::Checkpoint =
        serde_json::from_value(serde_json::Value::Object(o.clone())).unwrap();
    o.insert("digest".into(), c.digest().into());
    let bad = dir.join("bad.ck");
    std::fs::write(&bad, v.to_string()).unwrap();
    let out = bin()
        .args(base)
        .args(["--threads", "1", "--checkpoint", bad.to_str().unwrap()])
        .args(["--timeout", "0.000001"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two records of subproblem"));
    let out = bin()
        .args(base)
        .args(ck_args)
        .args(["--timeout", "0.000001"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "solutions were found");
    let early = json(&out);
    assert_eq!(early.stopped_by, Some(Stop::Timeout));
    // The checkpoint's records (the first run less the frontier's 5 nodes) and the
    // frontier: a run already past its deadline starts no subproblem.
    assert_eq!(early.resumed_nodes, 2_000_000);
    assert_eq!(early.nodes, 2_000_005);
    assert_eq!(early.solutions[..8], first.solutions[..]);
    let last = json(&bin().args(base).args(ck_args).output().unwrap());
    assert_eq!((last.solutions_found, last.nodes), (32, 7_849_260));
    assert_eq!(last.resumed_nodes, early.nodes - 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_sigterm_delivered_twice_is_one_interrupt() {
    // GNU `timeout` signals the process and its group: two SIGTERMs microseconds apart
    // are one stop, with its report and last save, not "interrupted twice".
    let puzzle = brendan_file("pieces_08x08.txt");
    let child = bin()
        .args([
            "solve",
            "--select",
            "scan",
            puzzle.to_str().unwrap(),
            "--all",
            "--json",
            "--threads",
            "1",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let pid = child.id();
    let burst = format!("kill -TERM {pid}; kill -TERM {pid}");
    assert!(Command::new("sh")
        .args(["-c", &burst])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json(&out).stopped_by, Some(Stop::Interrupted));
}

/// Sends `signal` (`-INT`, `-TERM`) to `child` with the `kill` command.
fn send(child: &std::process::Child, signal: &str) {
    let pid = child.id().to_string();
    let sent = Command::new("kill").args([signal, &pid]).status().unwrap();
    assert!(sent.success());
}

/// `split` stopped by Ctrl-C, while it builds the frontier or writes the files (100,000
/// job files take seconds): exit code 3 and no job file, nor a temporary one; and a
/// split whose jobs outnumber the subproblems says how many files are empty.
#[test]
fn an_interrupted_split_leaves_no_job_file() {
    let puzzle = brendan_file("pieces_06x05.txt");
    let dir = scratch("split-int");
    let args = [
        "split",
        puzzle.to_str().unwrap(),
        "--jobs",
        "100000",
        "--split-depth",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ];
    let out = interrupted(&args, "-INT", Duration::from_millis(500));
    assert_eq!(out.status.code(), Some(3));
    let left = std::fs::read_dir(&dir).map_or(0, |d| d.count());
    assert_eq!(left, 0, "files left in --out");
    let few = bin()
        .args([
            "split",
            puzzle.to_str().unwrap(),
            "--jobs",
            "20",
            "--split-depth",
            "1",
        ])
        .args(["--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(few.status.success());
    let e = String::from_utf8_lossy(&few.stderr);
    assert!(
        e.contains("note: 16 of the job files have no subproblem (the tree has 4 at depth 1)"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_second_ctrl_c_quits_at_once() {
    // The 10x3's 74,104 solutions make a 15 MB report; with nobody reading stdout its
    // write blocks on the full pipe. A first SIGINT does not end that wait (the search
    // is over, the report is owed); the second quits with 130 and says so.
    let puzzle = brendan_file("pieces_10x03.txt");
    let mut child = bin()
        .args([
            "solve",
            "--select",
            "scan",
            puzzle.to_str().unwrap(),
            "--all",
            "--json",
        ])
        .args(["--keep", "100000", "--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    std::thread::sleep(Duration::from_millis(1500));
    send(&child, "-INT");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the first SIGINT ended the run"
    );
    send(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(130));
    assert!(
        serde_json::from_slice::<serde_json::Value>(&out.stdout).is_err(),
        "no whole report after a second Ctrl-C"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "plytile: interrupted twice: quitting without a report"
    );
}

/// `predict`'s probes stop at Ctrl-C (ply:4 on Puzzle D takes about 30 s for its
/// 10,000) or at `--timeout`: the report keeps the models that need no probes.
#[test]
fn predict_probes_stop_at_ctrl_c_or_timeout() {
    let puzzle =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/wortmann8x8/puzzleD_8x8_set2.txt");
    let args = [
        "predict",
        puzzle.to_str().unwrap(),
        "--select",
        "ply:4",
        "--json",
    ];
    let check = |out: std::process::Output, why: &str| {
        assert_eq!(out.status.code(), Some(3), "{why}");
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["probes_stopped"], true, "{why}");
        assert_eq!(
            r["models"],
            serde_json::json!(["analytic", "owen"]),
            "{why}"
        );
    };
    let start = Instant::now();
    check(
        bin().args(args).args(["--timeout", "1"]).output().unwrap(),
        "--timeout",
    );
    assert!(start.elapsed() < Duration::from_secs(10));
    let out = interrupted(&args, "-INT", Duration::from_millis(1000));
    check(out, "Ctrl-C");
}

#[test]
fn cli_split_jobs_and_merge_equal_the_whole() {
    let puzzle = brendan_file("pieces_06x05.txt");
    let puzzle = puzzle.to_str().unwrap();
    let dir = scratch("jobs");
    let whole = json(
        &bin()
            .args([
                "solve",
                puzzle,
                "--select",
                "mrv",
                "--all",
                "--json",
                "--threads",
                "1",
            ])
            .output()
            .unwrap(),
    );
    let st = bin()
        .args([
            "split",
            puzzle,
            "--jobs",
            "3",
            "--out",
            dir.to_str().unwrap(),
            "--select",
            "mrv",
        ])
        .status()
        .unwrap();
    assert!(st.success());
    let mut results = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3);
    for (i, f) in files.iter().enumerate() {
        let out = bin()
            .args(["solve", "--job", f.to_str().unwrap(), "--all", "--json"])
            .output()
            .unwrap();
        let res = dir.join(format!("result-{i}.json"));
        std::fs::write(&res, &out.stdout).unwrap();
        results.push(res);
    }
    // And the same through --shard i/n without files.
    for (i, res) in results.iter().enumerate() {
        let out = bin()
            .args([
                "solve",
                puzzle,
                "--select",
                "mrv",
                "--all",
                "--json",
                "--shard",
                &format!("{i}/3"),
            ])
            .output()
            .unwrap();
        let job: SolveResult =
            serde_json::from_str(&std::fs::read_to_string(res).unwrap()).unwrap();
        same_counts(&job, &json(&out), "shard = job");
    }
    let out = bin()
        .arg("merge")
        .args(&results)
        .arg("--json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    same_counts(&whole, &json(&out), "merged jobs");
    // A batch engine gathers the results into one stream: on standard input (`-`), or
    // one file, with several results one after another; `-q` prints solve's line.
    let mut all = Vec::new();
    for r in &results {
        all.extend(std::fs::read(r).unwrap());
    }
    let gathered = dir.join("all.json");
    std::fs::write(&gathered, &all).unwrap();
    let mut child = bin()
        .args(["merge", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &all).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    same_counts(&whole, &json(&out), "merged from stdin");
    let out = bin().args(["merge", "-q"]).arg(&gathered).output().unwrap();
    let line = String::from_utf8(out.stdout).unwrap();
    let want = format!(
        "{}: {} solution(s), exhaustive, {} nodes, ",
        whole.puzzle, whole.solutions_found, whole.nodes
    );
    assert!(
        line.starts_with(&want) && line.lines().count() == 1,
        "{line}"
    );
    // Merges merge on: jobs 0 and 2, then job 1 (a batch engine's partial gathers).
    let part = dir.join("part02.json");
    let out = bin()
        .args(["merge", "--json"])
        .args([&results[0], &results[2]])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    std::fs::write(&part, &out.stdout).unwrap();
    let half = json(&out);
    assert!(!half.exhaustive);
    for pair in [[&part, &results[1]], [&results[1], &part]] {
        let out = bin().args(["merge", "--json"]).args(pair).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{pair:?}");
        let m = json(&out);
        same_counts(&whole, &m, "merged merge");
        assert_eq!(
            (&m.solutions, &m.deepest),
            (&whole.solutions, &whole.deepest)
        );
    }
    let out = bin()
        .arg("merge")
        .args([&part, &results[0]])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("shard 0/3 is also in"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // With --json too, the JSON wins, as in solve (it was refused).
    let out = bin()
        .args(["merge", "-q", "--json"])
        .arg(&gathered)
        .output()
        .unwrap();
    same_counts(&whole, &json(&out), "merge -q --json");
    // A job is split without --symmetry, so --symmetry-parts is refused (it was
    // accepted and ignored).
    let out = bin()
        .args(["solve", "--job", files[0].to_str().unwrap()])
        .args(["--symmetry-parts", "pairs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "plytile: --symmetry-parts: not with --job (job files are split without --symmetry)\n"
    );
    // The second result cut short: its line, counted in the whole file.
    let cut = String::from_utf8(all).unwrap();
    let second = cut.find('\n').unwrap() + 40;
    std::fs::write(&gathered, &cut[..second]).unwrap();
    let out = bin().args(["merge", "-q"]).arg(&gathered).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8(out.stderr).unwrap();
    assert!(
        e.contains("all.json:2: not a JSON result of `plytile solve --json` (after 1 good ones)"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Brendan's 6x6 (260 solutions) through the command line: `solve --all --json`,
/// `split` + `solve --job` + `merge`, and `solve --shard` + `merge` report the same
/// boards in the same order, with and without a `--keep` below the count.
#[test]
fn cli_merged_parts_list_the_boards_of_the_whole_run() {
    let puzzle = brendan_file("pieces_06x06.txt");
    let puzzle = puzzle.to_str().unwrap();
    let dir = scratch("order");
    let ok = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let jobs = dir.join("jobs");
    ok(&[
        "split",
        puzzle,
        "--jobs",
        "4",
        "--out",
        jobs.to_str().unwrap(),
    ]);
    for keep in ["1000", "5"] {
        let whole = json(&ok(&[
            "solve", "--select", "scan", puzzle, "--all", "--json", "--keep", keep,
        ]));
        assert_eq!(whole.solutions_found, 260);
        assert_eq!(
            whole.solutions.len(),
            keep.parse::<usize>().unwrap().min(260)
        );
        let mut jobs_out = Vec::new();
        for k in 0..4 {
            let job = jobs.join(format!("job-{k:04}.ron"));
            let job = job.to_str().unwrap();
            let out = ok(&["solve", "--job", job, "--all", "--json", "--keep", keep]);
            let res = dir.join(format!("job-{k}-{keep}.json"));
            std::fs::write(&res, &out.stdout).unwrap();
            jobs_out.push(res);
        }
        let mut shards_out = Vec::new();
        for i in 0..3 {
            let shard = format!("{i}/3");
            let args = [
                "solve", "--select", "scan", puzzle, "--all", "--json", "--keep", keep, "--shard",
                &shard,
            ];
            let res = dir.join(format!("shard-{i}-{keep}.json"));
            std::fs::write(&res, ok(&args).stdout).unwrap();
            shards_out.push(res);
        }
        for (what, files) in [("jobs", &jobs_out), ("shards", &shards_out)] {
            let out = bin()
                .arg("merge")
                .args(files.iter().rev())
                .args(["--json", "--keep", keep])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0));
            assert!(
                out.stderr.is_empty(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let m = json(&out);
            let what = format!("merged {what}, --keep {keep}");
            same_counts(&whole, &m, &what);
            assert_eq!(m.solutions, whole.solutions, "{what}: solutions");
            assert_eq!(m.deepest, whole.deepest, "{what}: deepest");
            assert_eq!(m.solutions_from.len(), m.solutions.len());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Files from before scan filled wide boards along columns (no `format` field) hold
/// prefixes of the row-order tree: refused for scan on a wide board, with a line that
/// says what to do; still taken where the tree did not change (mrv, a square board).
#[test]
fn files_cut_from_an_older_tree_are_refused() {
    let dir = scratch("format");
    let old = |text: String| -> String {
        let t = text
            .replace("    format: 2,\n", "")
            .replace("\"format\":2,", "");
        assert_ne!(t, text, "the file has its format field");
        // Nor did it write a checkpoint's digest (`,"digest":"` and 16 hex digits).
        match t.find(",\"digest\":\"") {
            Some(i) => format!("{}{}", &t[..i], &t[i + 28..]),
            None => t,
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (board, select, refused) in [
        ("brendan/pieces_06x05.txt", "scan", true),
        ("brendan/pieces_06x05.txt", "mrv", false),
        ("brendan/pieces_05x05.txt", "scan", false),
    ] {
        let puzzle = root.join("puzzles").join(board);
        let puzzle = puzzle.to_str().unwrap();
        let what = format!("{board} {select}");
        // A job file.
        let out = dir.join(format!("jobs-{select}-{}", refused as u8));
        let st = bin()
            .args(["split", puzzle, "--jobs", "1", "--select", select, "--out"])
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success());
        let job = std::fs::read_dir(&out)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        std::fs::write(&job, old(std::fs::read_to_string(&job).unwrap())).unwrap();
        let run = bin()
            .args(["solve", "--all", "-q", "--job"])
            .arg(&job)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        if refused {
            assert_eq!(run.status.code(), Some(2), "{what}: {err}");
            assert_eq!(err.lines().count(), 1, "{what}: {err}");
            assert!(
                err.contains(job.to_str().unwrap()) && err.contains("run `plytile split` again"),
                "{err}"
            );
        } else {
            assert_eq!(run.status.code(), Some(0), "{what}: {err}");
        }
        // A checkpoint.
        let ck = dir.join(format!("ck-{select}-{}.json", refused as u8));
        let args = [
            "solve",
            puzzle,
            "--all",
            "-q",
            "--select",
            select,
            "--checkpoint",
        ];
        assert!(bin().args(args).arg(&ck).status().unwrap().success());
        std::fs::write(&ck, old(std::fs::read_to_string(&ck).unwrap())).unwrap();
        // Checkpoints of tree format 1 had no digest, which is required now (else
        // deleting it would let edits through): refused whatever their tree.
        let run = bin().args(args).arg(&ck).output().unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{what}: {err}");
        assert!(
            err.contains("has no digest") && err.contains("delete it"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A parallel run stopped right after its frontier reports the frontier's deepest node
/// with that node's board (it had the depth with the root's board).
#[test]
fn the_deepest_board_has_as_many_pieces_as_its_depth() {
    let puzzle =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/brendan-set2/pieces_09x04.txt");
    for extra in [&[][..], &["--symmetry"][..]] {
        let out = bin()
            .args([
                "solve",
                "--select",
                "scan",
                puzzle.to_str().unwrap(),
                "--all",
                "--json",
            ])
            .args(["--max-nodes", "1", "--threads", "2"])
            .args(extra)
            .output()
            .unwrap();
        let r = json(&out);
        let placed = r.deepest.board.iter().filter(|c| c.is_some()).count();
        assert!(r.deepest.depth > 0, "{extra:?}");
        assert_eq!(r.deepest.depth, placed, "{extra:?}");
    }
}

/// A tree that ends inside the frontier (no subproblem left to search) reports the
/// deepest node the depth-first search reports, board included, not the root.
#[test]
fn a_tree_ending_inside_the_frontier_reports_its_deepest_node() {
    let dir = scratch("deepest");
    let path = dir.join("nosol.txt");
    // 2x2, four corners that cannot close: scan meets 1, 4, 9, 12 nodes at depths 0-3.
    std::fs::write(&path, "2 2\n0 0 1 2\n0 0 1 1\n0 0 1 1\n0 0 1 1\n").unwrap();
    let p = read_puzzle(&path, EdgeOrder::Urdl).unwrap();
    for h in ["scan", "mrv", "ply:2"] {
        let h: Heuristic = h.parse().unwrap();
        let one = run(&p, h, &all(), threads(1));
        let two = run(&p, h, &all(), threads(2));
        if h == Heuristic::Scan(Along::Shape) {
            assert_eq!(one.nodes_per_depth, [1, 4, 9, 12]);
        }
        assert_eq!((one.solutions_found, two.solutions_found), (0, 0), "{h}");
        assert_eq!(two.nodes_per_depth, one.nodes_per_depth, "{h}");
        let last = one.nodes_per_depth.len() - 1;
        assert_eq!((one.deepest.depth, two.deepest.depth), (last, last), "{h}");
        assert_eq!(two.deepest.board, one.deepest.board, "{h}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tree without a solution ends in many nodes of the greatest depth. However many
/// subproblems the split makes (each summed as it finishes, not kept; with a
/// checkpoint, kept without the boards of the shallower ones), the deepest board is
/// the one the depth-first search meets first, in either move order.
#[test]
fn the_deepest_board_of_a_deep_split_is_the_depth_first_one() {
    let dir = scratch("folded");
    let path = dir.join("nosol.txt");
    // Brendan's 6x5 with the last piece's colour 6 made a 7: colour 6 is then on an
    // odd number of sides, so no board closes.
    let text = std::fs::read_to_string(brendan_file("pieces_06x05.txt")).unwrap();
    let last = text.trim_end().rfind('\n').unwrap() + 1;
    assert_eq!(&text[last..].trim_end(), &"6 7 7 7");
    std::fs::write(&path, format!("{}7 7 7 7\n", &text[..last])).unwrap();
    let p = read_puzzle(&path, EdgeOrder::Urdl).unwrap();
    for h in ["scan", "mrv"] {
        for moves in [Order::Natural, Order::Penalty] {
            let s = Strategy {
                select: h.parse().unwrap(),
                factor: false,
                moves,
            };
            let one = solve_with(&p, s, &all(), &AtomicBool::new(false), &threads(1)).unwrap();
            assert_eq!(one.solutions_found, 0);
            let what = format!("{h} {moves:?}");
            for (d, ck) in [3, 6, 9].into_iter().flat_map(|d| [(d, false), (d, true)]) {
                let what = format!("{what} --split-depth {d}, checkpoint {ck}");
                let checkpoint = ck.then(|| dir.join(format!("{h}-{moves:?}-{d}.ck")));
                let spread = Spread {
                    threads: 2,
                    split_depth: Some(d),
                    checkpoint,
                    ..Spread::default()
                };
                let r = solve_with(&p, s, &all(), &AtomicBool::new(false), &spread).unwrap();
                assert!(r.subproblems > 100 || d == 3, "{what}");
                same_counts(&one, &r, &what);
                assert_eq!(r.deepest, one.deepest, "{what}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `split`'s Ctrl-C: a set stop flag ends the frontier with no job (the CLI then
/// writes no file and exits 3).
#[test]
fn make_jobs_stops_on_the_flag() {
    let p = brendan("pieces_07x05.txt");
    let stopped = jobs::make_jobs(
        &p,
        Heuristic::Scan(Along::Shape),
        parallel::Split::Depth(18),
        8,
        &AtomicBool::new(true),
    );
    assert_eq!(
        stopped.unwrap_err(),
        parallel::FrontierError::Stopped(Stop::Interrupted)
    );
}

/// A parallel run stopped while its frontier is built counts the root, as every run
/// does (`nodes_per_depth[0] = 1`); a shard other than 0 does not own it.
#[test]
fn a_run_stopped_in_its_frontier_counts_the_root() {
    let p = brendan("pieces_05x05.txt");
    for (shard, root) in [(None, 1), (Some((0, 2)), 1), (Some((1, 2)), 0)] {
        let spread = Spread {
            threads: 2,
            shard,
            ..Spread::default()
        };
        let r = solve_with(
            &p,
            Heuristic::Scan(Along::Shape),
            &all(),
            &AtomicBool::new(true),
            &spread,
        )
        .unwrap();
        assert_eq!(r.stopped_by, Some(Stop::Interrupted), "{shard:?}");
        assert_eq!(
            (r.nodes_per_depth, r.nodes),
            (vec![root], root),
            "{shard:?}"
        );
    }
}

/// `--solutions K` with a checkpoint: the stop at the K-th solution is recorded like
/// any other stop (counts, and the untried rest handed over), so rerunning resumes.
#[test]
fn a_solution_limit_is_recorded_in_the_checkpoint() {
    let puzzle = brendan_file("pieces_06x06.txt");
    let dir = scratch("sols");
    let solve = |ck: &Path, k: &str, extra: &[&str]| {
        let out = bin()
            .args([
                "solve",
                "--select",
                "scan",
                puzzle.to_str().unwrap(),
                "--json",
                "--solutions",
                k,
            ])
            .args(["--checkpoint", ck.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        json(&out)
    };
    // One thread: deterministic. The 10 of `--solutions 10` in two runs are those of
    // one run, in its order.
    let plain = bin()
        .args([
            "solve",
            "--select",
            "scan",
            puzzle.to_str().unwrap(),
            "--json",
            "--solutions",
            "10",
        ])
        .args(["--threads", "1"])
        .output()
        .unwrap();
    let plain = json(&plain);
    let ck = dir.join("one.ck");
    let one = ["--threads", "1"];
    let first = solve(&ck, "5", &one);
    assert_eq!((first.nodes, first.solutions_found), (1_266_666, 5));
    assert_eq!(first.solutions, plain.solutions[..5]);
    let again = solve(&ck, "5", &one);
    assert_eq!((again.nodes, again.resumed_nodes), (1_266_666, 1_266_661));
    assert_eq!(again.solutions, first.solutions);
    let more = solve(&ck, "10", &one);
    assert_eq!((more.nodes, more.solutions_found), (2_233_923, 10));
    assert_eq!(more.solutions, plain.solutions);
    let fewer = solve(&ck, "3", &one);
    assert_eq!((fewer.nodes, fewer.solutions_found), (2_233_923, 3));
    assert_eq!(fewer.solutions, plain.solutions[..3]);
    // Two threads, depth-first and interleaved: which solutions come first may differ
    // from one thread, but a rerun agrees with the checkpoint and totals only grow.
    for (name, extra) in [
        ("two.ck", &["--threads", "2"][..]),
        ("woven.ck", &["--threads", "2", "--interleave", "on"]),
    ] {
        let ck = dir.join(name);
        let first = solve(&ck, "5", extra);
        assert_eq!(first.solutions_found, 5, "{name}");
        let again = solve(&ck, "5", extra);
        assert_eq!(
            (again.nodes, &again.nodes_per_depth, &again.solutions),
            (first.nodes, &first.nodes_per_depth, &first.solutions),
            "{name}"
        );
        let more = solve(&ck, "10", extra);
        assert_eq!(more.solutions_found, 10, "{name}");
        assert!(more.nodes > first.nodes, "{name}");
        assert_eq!(more.resumed_nodes, again.resumed_nodes, "{name}");
        let again = solve(&ck, "10", extra);
        assert_eq!(
            (again.nodes, &again.solutions),
            (more.nodes, &more.solutions),
            "{name}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The frontier at every depth holds exactly the tree's nodes at that depth, on the
/// search's paths, in search order, and counts the nodes above it as the depth-first
/// search does: expanding a level walks from one node to the next without placing
/// each prefix from the root again.
#[test]
fn the_frontier_at_each_depth_is_that_level_of_the_tree() {
    for name in ["pieces_05x05.txt", "pieces_06x04.txt"] {
        let p = brendan(name);
        for h in heuristics() {
            let one = run(&p, h, &all(), threads(1));
            let top = one.nodes_per_depth.len() - 1;
            for d in 0..=top.min(9) {
                let what = format!("{name} {h} depth {d}");
                let f = parallel::full_frontier(&p, h, parallel::Split::Depth(d)).unwrap();
                assert_eq!(f.depth, d, "{what}");
                assert_eq!(f.units.len() as u64, one.nodes_per_depth[d], "{what}");
                assert!(f.units.iter().all(|u| u.len() == d), "{what}");
                assert!(f.units.windows(2).all(|w| w[0] < w[1]), "{what}: order");
                assert_eq!(
                    f.internal.nodes_per_depth[..d],
                    one.nodes_per_depth[..d],
                    "{what}: internal nodes"
                );
                assert!(f.internal.nodes_per_depth[d..].iter().all(|&n| n == 0));
                let mut st = plytile::search::State::new(&p);
                let mut paths: Vec<&[(usize, u32)]> = f.units.iter().map(|u| &u[..]).collect();
                let on_path = plytile::with_strategy!(h.into(), &st, |sel| {
                    parallel::paths_pass(&mut st, &mut sel, &mut paths)
                });
                assert!(on_path, "{what}: units off the search's paths");
                assert_eq!(st.depth(), 0, "{what}: the state is back at the root");
            }
        }
    }
}

/// More threads than cores run one per core: same frontier, same counts, same
/// solutions in the same order as one thread and as the cores' count (Brendan's 5x5:
/// 113,212 nodes, 16 solutions).
#[test]
fn threads_past_the_cores_run_one_per_core_with_the_same_counts() {
    let p = brendan("pieces_05x05.txt");
    let cores = plytile::search::cores();
    assert_eq!(plytile::search::workers(0), cores);
    assert_eq!(plytile::search::workers(1), 1);
    assert_eq!(plytile::search::workers(1000), cores.min(1000));
    let one = run(&p, Heuristic::Scan(Along::Shape), &all(), threads(1));
    assert_eq!((one.nodes, one.solutions_found), (113_212, 16));
    let at_cores = run(&p, Heuristic::Scan(Along::Shape), &all(), threads(cores));
    for t in [64, 1000] {
        let r = run(&p, Heuristic::Scan(Along::Shape), &all(), threads(t));
        same_counts(&one, &r, &format!("--threads {t}"));
        assert_eq!(r.solutions, one.solutions, "--threads {t}");
        assert_eq!(r.threads, cores.min(t), "--threads {t}");
        assert_eq!(r.split_depth, at_cores.split_depth, "--threads {t}");
    }
}

/// `solve --threads 1000` says it runs one thread per core and counts what one thread
/// counts.
#[test]
fn cli_threads_past_the_cores_are_noted_and_count_the_same() {
    let puzzle = brendan_file("pieces_05x05.txt");
    let puzzle = puzzle.to_str().unwrap();
    let solve = |t: &str| {
        let out = bin()
            .args([
                "solve",
                "--select",
                "scan",
                puzzle,
                "--all",
                "--json",
                "--threads",
                t,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "--threads {t}");
        (json(&out), String::from_utf8(out.stderr).unwrap())
    };
    let (one, quiet) = solve("1");
    assert_eq!(quiet, "");
    let (many, note) = solve("1000");
    let cores = plytile::search::cores();
    assert_eq!((many.nodes, many.solutions_found), (113_212, 16));
    same_counts(&one, &many, "--threads 1000");
    assert_eq!(many.solutions, one.solutions);
    assert_eq!(many.threads, cores);
    if cores < 1000 {
        assert_eq!(
            note,
            format!("plytile: note: --threads 1000 is more than the {cores} cores this process may use; running {cores} worker threads (more would only take turns on the same cores; counts are the same)\n")
        );
    }
}

/// A `--split-depth` whose frontier passes 2^24 nodes is refused, by `solve` and by
/// `split`, with one line and exit code 2, and `split` writes nothing.
#[test]
fn a_frontier_past_the_cap_is_refused() {
    let dir = std::env::temp_dir().join(format!("plytile-cap-{}", std::process::id()));
    let out_dir = dir.join("jobs");
    let puzzle = |name: &str| {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles/brendan")
            .join(name);
        p.to_str().unwrap().to_string()
    };
    let refusal = |depth: usize| {
        format!("plytile: --split-depth: the frontier of subproblems would hold more than 16777216 nodes at depth {depth}; choose a smaller --split-depth (or fewer shards or jobs)\n")
    };
    let (p66, p77) = (puzzle("pieces_06x06.txt"), puzzle("pieces_07x07.txt"));
    let o = out_dir.to_str().unwrap();
    for (args, depth) in [
        (
            vec![
                "solve",
                "--select",
                "scan",
                &p66,
                "--split-depth",
                "30",
                "--threads",
                "2",
            ],
            19,
        ),
        (
            vec![
                "solve",
                "--select",
                "scan",
                &p66,
                "--split-depth",
                "30",
                "--shard",
                "1/4",
            ],
            19,
        ),
        (
            vec![
                "split",
                &p66,
                "--jobs",
                "4",
                "--out",
                o,
                "--split-depth",
                "30",
            ],
            19,
        ),
        (
            vec![
                "split",
                &p77,
                "--jobs",
                "4",
                "--out",
                o,
                "--split-depth",
                "30",
            ],
            13,
        ),
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            refusal(depth),
            "{args:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out_dir.exists(), "{args:?}: split wrote its --out");
    }
    // The library refuses the same way.
    assert_eq!(
        parallel::full_frontier(
            &brendan("pieces_06x06.txt"),
            Heuristic::Scan(Along::Shape),
            parallel::Split::Depth(19)
        )
        .unwrap_err(),
        parallel::FrontierError::TooBig { depth: 19 }
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A checkpointed run removes its `FILE.lock` when it ends: searched to the end,
/// stopped by a limit, or by SIGTERM or Ctrl-C; and a lock file that a killed run
/// left (held by no one) is taken over, then removed in turn.
#[test]
fn a_checkpointed_run_removes_its_lock_when_it_ends() {
    let dir = scratch("cklock-gone");
    let ck = dir.join("run.ck");
    let lock = dir.join("run.ck.lock");
    let solve = |puzzle: &str, extra: &[&str]| {
        let mut c = bin();
        c.args([
            "solve",
            "--select",
            "scan",
            puzzle,
            "--all",
            "-q",
            "--threads",
            "1",
        ])
        .args(["--checkpoint", ck.to_str().unwrap()])
        .args(extra);
        c
    };
    let small = brendan_file("pieces_04x04.txt");
    let small = small.to_str().unwrap();
    // To the end: exit 0, and the result as without a checkpoint.
    let o = solve(small, &[]).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("36 solution(s), exhaustive, 4471 nodes"));
    assert!(
        ck.exists() && !lock.exists(),
        "the checkpoint stays, the lock goes"
    );
    std::fs::remove_file(&ck).unwrap();
    // Stopped by --max-nodes: exit 3.
    let big = brendan_file("pieces_10x10.txt");
    let big = big.to_str().unwrap();
    let o = solve(big, &["--max-nodes", "1000"]).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!lock.exists(), "after a limit");
    std::fs::remove_file(&ck).unwrap();
    // Stopped by a signal, once its lock is there: exit 3.
    for signal in ["-TERM", "-INT"] {
        let child = solve(big, &[])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = Instant::now();
        while !lock.exists() && start.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(lock.exists(), "{signal}: the lock is there while it runs");
        std::thread::sleep(Duration::from_millis(300));
        send(&child, signal);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{signal}");
        assert!(!lock.exists(), "{signal}: the lock is gone");
        let _ = std::fs::remove_file(&ck);
    }
    // A lock file left behind by a killed run (SIGKILL: no cleanup) is no one's.
    std::fs::write(&lock, "").unwrap();
    let o = solve(small, &[]).output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!lock.exists(), "a stale lock is taken over and removed");
    std::fs::remove_dir_all(&dir).unwrap();
}
