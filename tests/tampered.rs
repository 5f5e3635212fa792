//! Files that lie: results, checkpoints and job files edited by hand or cut from
//! another puzzle. Each is refused with exit code 2 and one line naming the file, never
//! counted, never a panic.

mod common;

use common::{assert_input_error, cleanup, p, plytile, scratch_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn puzzle(name: &str) -> String {
    p(&format!("brendan/{name}"))
}

fn run(args: &[&str]) -> Output {
    plytile(args)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Writes the `--json` result of `solve PUZZLE --all --threads 1 --shard i/n` to `out`.
fn shard(puzzle: &str, i: usize, n: usize, out: &Path) {
    let o = run(&[
        "solve",
        puzzle,
        "--threads",
        "1",
        "--all",
        "--json",
        "--shard",
        &format!("{i}/{n}"),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::write(out, &o.stdout).unwrap();
}

fn edit_json(path: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(path, serde_json::to_string(&v).unwrap()).unwrap();
}

/// Bad input naming `file` and saying `what`.
fn refused(o: &Output, file: &Path, what: &str) {
    assert_input_error(o, s(file), None, what);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(what),
        "says {what:?}"
    );
}

/// Three shards of the 5x5 (16 solutions) in `dir`: s0.json, s1.json, s2.json.
fn three_shards(dir: &Path) -> Vec<PathBuf> {
    let p = puzzle("pieces_05x05.txt");
    (0..3)
        .map(|i| {
            let f = dir.join(format!("s{i}.json"));
            shard(&p, i, 3, &f);
            f
        })
        .collect()
}

fn merge(files: &[&Path]) -> Output {
    let args: Vec<&str> = ["merge"]
        .into_iter()
        .chain(files.iter().map(|f| s(f)))
        .collect();
    run(&args)
}

#[test]
fn merge_refuses_a_shard_index_out_of_range() {
    let dir = scratch_dir("tampered-range");
    let f = three_shards(&dir);
    let t = dir.join("t.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| v["shard"] = serde_json::json!([7, 3]));
    refused(&merge(&[&f[0], &t, &f[2]]), &t, "shard 7/3 is out of range");
    let o = merge(&[&f[0], &f[1], &f[2]]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("solutions   16"));
    cleanup(&dir);
}

#[test]
fn merge_refuses_a_shard_of_another_puzzle_with_the_same_name() {
    let dir = scratch_dir("tampered-other");
    let f = three_shards(&dir);
    std::fs::create_dir_all(dir.join("other")).unwrap();
    let other = dir.join("other/pieces_05x05.txt");
    let o = run(&[
        "gen",
        "--width",
        "5",
        "--height",
        "5",
        "--seed",
        "7",
        "-o",
        s(&other),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o1 = dir.join("o1.json");
    shard(s(&other), 1, 3, &o1);
    refused(
        &merge(&[&f[0], &o1, &f[2]]),
        &o1,
        "same name: the fingerprints differ",
    );
    // Under another name, the message names both puzzles.
    let o1 = dir.join("o1-4x4.json");
    shard(&puzzle("pieces_04x04.txt"), 1, 3, &o1);
    let o = merge(&[&f[0], &o1, &f[2]]);
    refused(&o, &o1, "(pieces_04x04 4x4, not pieces_05x05 5x5)");
    // Results from before the fingerprint still merge by name.
    for g in &f {
        edit_json(g, |v| {
            v.as_object_mut().unwrap().remove("fingerprint").unwrap();
        });
    }
    let o = merge(&[&f[0], &f[1], &f[2]]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("solutions   16"));
    cleanup(&dir);
}

/// jq 1.6 reads numbers as doubles and rounds `fingerprint` (a u64 above 2^53):
/// `merge` takes `fingerprint_hex`, which no JSON tool rounds, when it is there.
#[test]
fn merge_reads_the_fingerprint_a_json_tool_cannot_round() {
    let dir = scratch_dir("tampered-rounded");
    let f = three_shards(&dir);
    let round = |v: &mut serde_json::Value| {
        let exact = v["fingerprint"].as_u64().unwrap();
        assert_eq!(v["fingerprint_hex"], format!("{exact:016x}"));
        let rounded = exact as f64 as u64;
        assert_ne!(
            rounded, exact,
            "the fingerprint must be one a double rounds"
        );
        v["fingerprint"] = rounded.into();
    };
    edit_json(&f[1], round);
    let o = merge(&[&f[0], &f[1], &f[2]]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Written back as a float (Python, pandas), the integer is of no use either.
    edit_json(&f[2], |v| {
        let exact = v["fingerprint"].as_u64().unwrap();
        v["fingerprint"] = (exact as f64).into();
    });
    let o = merge(&[&f[0], &f[1], &f[2]]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // Without the string the rounded integer is another puzzle's.
    edit_json(&f[1], |v| {
        v.as_object_mut()
            .unwrap()
            .remove("fingerprint_hex")
            .unwrap();
    });
    refused(&merge(&[&f[0], &f[1], &f[2]]), &f[1], "another puzzle");
    cleanup(&dir);
}

#[test]
fn merge_refuses_results_whose_counts_or_solutions_do_not_hold() {
    let dir = scratch_dir("tampered-counts");
    let f = three_shards(&dir);
    let p = puzzle("pieces_05x05.txt");
    // nodes is not the sum of nodes_per_depth.
    let t = dir.join("nodes.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| {
        v["nodes"] = (v["nodes"].as_u64().unwrap() + 1).into()
    });
    refused(
        &merge(&[&f[0], &t, &f[2]]),
        &t,
        "not the sum of nodes_per_depth",
    );
    // A solution of three cells.
    let t = dir.join("small.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| {
        v["solutions"][0] = serde_json::json!([[0, 0], [0, 0], [0, 0]])
    });
    refused(&merge(&[&f[0], &t, &f[2]]), &t, "solution 1 has 3 cells");
    // A full board that is no solution: only the puzzle tells.
    let t = dir.join("wrong.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| {
        let b = v["solutions"][0].as_array_mut().unwrap();
        b.swap(6, 7);
    });
    let o = merge(&[&f[0], &t, &f[2]]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["merge", "--puzzle", &p, s(&f[0]), s(&t), s(&f[2])]);
    refused(&o, &t, "solution 1 is not a solution");
    let o = run(&["merge", "--puzzle", &p, s(&f[0]), s(&f[1]), s(&f[2])]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A valid solution twice, with counts to match: once more in its own file, or
    // copied into another shard's.
    let read =
        |f: &Path| -> Value { serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap() };
    let (donor, k) = (0..3)
        .find_map(|k| read(&f[k])["solutions"].get(0).cloned().map(|b| (b, k)))
        .expect("the 5x5's shards hold solutions");
    for (other, what) in [(k, "solution 1 of"), ((k + 1) % 3, "the same board as")] {
        let t = dir.join("twice.json");
        std::fs::copy(&f[other], &t).unwrap();
        edit_json(&t, |v| {
            v["solutions"].as_array_mut().unwrap().push(donor.clone());
            v["solutions_found"] = (v["solutions_found"].as_u64().unwrap() + 1).into();
            let last = v["nodes_per_depth"].as_array().unwrap().len() - 1;
            v["nodes_per_depth"][last] = (v["nodes_per_depth"][last].as_u64().unwrap() + 1).into();
            v["nodes"] = (v["nodes"].as_u64().unwrap() + 1).into();
        });
        let mut files: Vec<&Path> = f.iter().map(|x| x.as_path()).collect();
        files[other] = &t;
        let o = run(&[
            "merge",
            "--puzzle",
            &p,
            s(files[0]),
            s(files[1]),
            s(files[2]),
        ]);
        refused(&o, &t, what);
        assert!(String::from_utf8_lossy(&o.stderr).contains("counted twice"));
    }
    // Shards of searches with and without --factor are not parts of one search.
    let t = dir.join("factor.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| v["factor"] = true.into());
    refused(&merge(&[&f[0], &t, &f[2]]), &t, "--factor");
    cleanup(&dir);
}

#[test]
fn a_checkpoint_record_that_does_not_hold_is_refused() {
    let dir = scratch_dir("tampered-ck");
    let p = puzzle("pieces_05x05.txt");
    let ck = dir.join("ck1");
    let args = [
        "solve",
        &p,
        "-q",
        "--threads",
        "1",
        "--all",
        "--checkpoint",
        s(&ck),
    ];
    assert_eq!(run(&args).status.code(), Some(0));
    let good = std::fs::read_to_string(&ck).unwrap();
    // A resumed run of the untouched file gives the same 16.
    let o = run(&args);
    assert!(String::from_utf8_lossy(&o.stdout).contains(": 16 solution(s), exhaustive"));
    // A 3-cell "solution" brought by a record.
    edit_json(&ck, |v| {
        let r = &mut v["records"][0];
        r["solutions"] = serde_json::json!([[[0, 0], [0, 0], [0, 0]]]);
        r["solutions_found"] = 1.into();
    });
    refused(&run(&args), &ck, "record 1: ");
    // The solutions of one record claimed by another: counts agree, boards do not.
    std::fs::write(&ck, &good).unwrap();
    edit_json(&ck, |v| {
        let recs = v["records"].as_array_mut().unwrap();
        let (i, j) = {
            let with = |want: bool| {
                recs.iter()
                    .position(|r| (r["solutions_found"].as_u64().unwrap() > 0) == want)
                    .unwrap()
            };
            (with(true), with(false))
        };
        let r = recs[i].clone();
        recs[j]["solutions"] = r["solutions"].clone();
        recs[j]["solutions_found"] = r["solutions_found"].clone();
        recs[j]["nodes_per_depth"] = r["nodes_per_depth"].clone();
        let mut b = r["solutions"][0].clone();
        b.as_array_mut().unwrap().swap(6, 7);
        recs[j]["solutions"][0] = b;
    });
    refused(&run(&args), &ck, "is not a solution");
    // ... or copied whole: valid boards, but not below that record's placements.
    std::fs::write(&ck, &good).unwrap();
    edit_json(&ck, |v| {
        let recs = v["records"].as_array_mut().unwrap();
        let i = recs
            .iter()
            .position(|r| r["solutions_found"].as_u64().unwrap() > 0)
            .unwrap();
        let j = recs
            .iter()
            .position(|r| r["prefix"] != recs[i]["prefix"])
            .unwrap();
        let r = recs[i].clone();
        for key in ["solutions", "solutions_found", "nodes_per_depth"] {
            recs[j][key] = r[key].clone();
        }
    });
    refused(&run(&args), &ck, "does not hold the record's placement");
    // More depths than the board has.
    std::fs::write(&ck, &good).unwrap();
    edit_json(&ck, |v| {
        let n = v["records"][0]["nodes_per_depth"].as_array_mut().unwrap();
        n.resize(40, 0.into());
        n[39] = 1.into();
    });
    refused(
        &run(&args),
        &ck,
        "nodes_per_depth has 40 depths, the board has 26",
    );
    cleanup(&dir);
}

#[test]
fn checkpoint_records_that_do_not_fit_together_are_refused() {
    // Records of stopped subproblems give their untried placements away. Edited, they
    // counted subtrees twice (18 or 32 of the 5x5's 16 solutions, "exhaustive") or
    // panicked on an illegal placement.
    let dir = scratch_dir("tampered-given");
    let p = puzzle("pieces_05x05.txt");
    let ck = dir.join("ck");
    let args = [
        "solve",
        &p,
        "-q",
        "--threads",
        "1",
        "--all",
        "--max-nodes",
        "20000",
        "--checkpoint",
        s(&ck),
    ];
    for _ in 0..2 {
        assert_eq!(run(&args).status.code(), Some(0));
    }
    let good = std::fs::read_to_string(&ck).unwrap();
    let with_given = |v: &Value| {
        v["records"]
            .as_array()
            .unwrap()
            .iter()
            .position(|r| r["given"].as_array().unwrap().len() >= 2)
            .expect("a stopped subproblem gave placements away")
    };
    type Edit = fn(&mut Value, usize);
    let cases: [(Edit, &str); 5] = [
        (
            |v, i| {
                let g = v["records"][i]["given"][0].clone();
                v["records"][i]["given"].as_array_mut().unwrap().push(g)
            },
            "is named twice",
        ),
        (
            |v, i| {
                v["records"][i]["given"]
                    .as_array_mut()
                    .unwrap()
                    .push(serde_json::json!([]))
            },
            "which is not below it",
        ),
        (
            |v, i| {
                let r = v["records"][i]["prefix"].clone();
                v["records"][i]["given"].as_array_mut().unwrap().push(r)
            },
            "which is not below it",
        ),
        (
            |v, i| {
                let r = v["records"][i].clone();
                v["records"].as_array_mut().unwrap().push(r)
            },
            "two records of subproblem",
        ),
        (
            |v, i| {
                let mut g = v["records"][i]["given"][0].as_array().unwrap().clone();
                let last = g.last().unwrap().clone();
                g.push(serde_json::json!([last[0].as_u64().unwrap() + 1, 0, 0]));
                v["records"][i]["given"]
                    .as_array_mut()
                    .unwrap()
                    .push(g.into())
            },
            "is not legal there",
        ),
    ];
    for (edit, what) in cases {
        std::fs::write(&ck, &good).unwrap();
        edit_json(&ck, |v| {
            let i = with_given(v);
            edit(v, i)
        });
        refused(&run(&args), &ck, what);
    }
    // The untouched file resumes to the 16.
    std::fs::write(&ck, &good).unwrap();
    let all = [
        "solve",
        &p,
        "-q",
        "--threads",
        "1",
        "--all",
        "--checkpoint",
        s(&ck),
    ];
    let o = run(&all);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(": 16 solution(s), exhaustive, 113212 nodes")
    );
    cleanup(&dir);
}

#[test]
fn a_job_file_that_is_not_its_split_is_refused() {
    let dir = scratch_dir("tampered-job");
    let p = puzzle("pieces_05x05.txt");
    let out = dir.join("jobs");
    let o = run(&["split", &p, "--jobs", "3", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(0));
    let job = out.join("job-0000.ron");
    let good = std::fs::read_to_string(&job).unwrap();
    assert!(good.contains("    split_depth: 4,\n"), "{good}");
    let first = "        [(0, 0, 3), (1, 4, 0), (2, 12, 0), (3, 5, 0)],\n";
    let second = "        [(0, 0, 3), (1, 4, 0), (2, 12, 0), (3, 11, 0)],\n";
    assert!(good.contains(first) && good.contains(second), "{good}");
    let solve = || run(&["solve", "--job", s(&job), "--all", "-q", "--threads", "1"]);
    let o = solve();
    assert!(String::from_utf8_lossy(&o.stdout).contains(": 6 solution(s)"));
    for (edit, what) in [
        (
            good.replace(first, "        [(0, 0, 3)],\n"),
            "prefix 1 has 1 placements",
        ),
        (
            good.replace(first, "        [],\n"),
            "prefix 1 has 0 placements",
        ),
        (good.replace(second, first), "prefix 2 repeats prefix 1"),
        (good.replace(first, ""), "prefix 1 is not subproblem 0"),
        (
            good.replace("split_depth: 4,", "split_depth: 3,"),
            "not split_depth 3",
        ),
        (
            good.replace("        62,\n", "        61,\n"),
            "frontier_nodes_per_depth",
        ),
    ] {
        assert_ne!(edit, good, "{what}");
        std::fs::write(&job, edit).unwrap();
        refused(&solve(), &job, what);
    }
    // A split into a directory that holds another split's job files: `jobs/*.ron`
    // would take both. The same split again only overwrites its own.
    let o = run(&["split", &p, "--jobs", "2", "--out", s(&out)]);
    assert_input_error(&o, s(&out), None, "stale job files");
    assert!(String::from_utf8_lossy(&o.stderr).contains("job-0002.ron"));
    let o = run(&["split", &p, "--jobs", "3", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(0));
    cleanup(&dir);
}

/// A deep split is refused up front by the flag's range; one within it that would
/// enumerate most of the tree breadth-first stops at --timeout.
#[test]
fn a_deep_split_depth_is_refused_or_stops_at_the_timeout() {
    let p = puzzle("pieces_06x06.txt");
    let o = run(&[
        "solve",
        &p,
        "--split-depth",
        "99999",
        "--shard",
        "0/2",
        "-q",
        "--all",
    ]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("--split-depth") && e.contains("99999"), "{e}");
    let start = std::time::Instant::now();
    let o = run(&[
        "solve",
        &p,
        "--threads",
        "1",
        "--split-depth",
        "30",
        "--shard",
        "0/2",
        "-q",
        "--all",
        "--timeout",
        "2",
    ]);
    let took = start.elapsed();
    assert_eq!(
        o.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(took < std::time::Duration::from_secs(10), "{took:?}");
}

/// The part checkpoints of `solve --symmetry` name their trees and record the cut they
/// belong to: a rerun refuses, before any search, a file of no tree of this puzzle's
/// cuts, one at another part's place, and records that make no cut or disagree.
/// Files from before the record still resume, taken apart by their trees.
#[test]
fn symmetry_part_checkpoints_of_another_cut_are_refused() {
    let dir = scratch_dir("tampered-cut");
    let six = puzzle("pieces_06x06.txt");
    let solve = |p: &str, ck: &Path, how: &str| {
        let args = ["solve", p, "-q", "--threads", "1", "--all", "--symmetry"];
        run(&[&args[..], &["--symmetry-parts", how, "--checkpoint", s(ck)]].concat())
    };
    let ck = dir.join("ck");
    let parts = [ck.clone(), dir.join("ck.tr"), dir.join("ck.tr3")];
    let whole = "pieces_06x06: 260 solution(s), exhaustive, 16972376 nodes";
    let o = solve(&six, &ck, "pairs");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with(whole));
    let good: Vec<String> = parts
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let restore = || {
        for (f, text) in parts.iter().zip(&good) {
            std::fs::write(f, text).unwrap();
        }
    };
    // Another puzzle's first part.
    let five = dir.join("five");
    assert_eq!(
        solve(&puzzle("pieces_05x05.txt"), &five, "pairs")
            .status
            .code(),
        Some(0)
    );
    std::fs::copy(&five, &ck).unwrap();
    let none = "is for none of the trees --symmetry-parts pairs cuts this puzzle into";
    refused(&solve(&six, &ck, "pairs"), &ck, none);
    // The anchored tree of `auto` where pairs are asked for.
    let anchored = dir.join("anchored");
    assert_eq!(solve(&six, &anchored, "auto").status.code(), Some(0));
    std::fs::copy(&anchored, &ck).unwrap();
    refused(&solve(&six, &ck, "pairs"), &ck, none);
    // The second and third parts swapped.
    restore();
    std::fs::write(&parts[1], &good[2]).unwrap();
    std::fs::write(&parts[2], &good[1]).unwrap();
    let second = "is of a tree that no cut searches second";
    refused(&solve(&six, &ck, "pairs"), &parts[1], second);
    // A recorded cut whose second tree is laid along rows but keeps its corners.
    restore();
    edit_json(&ck, |v| {
        v["symmetry_parts"][1]["select"] = "scan:rows".into()
    });
    refused(
        &solve(&six, &ck, "auto"),
        &ck,
        "records symmetry_parts that are no cut",
    );
    // The second part records another cut: its third tree laid along rows (piece 2
    // top-left, piece 3 top-right) instead of columns (3 top-left, 2 bottom-left).
    restore();
    edit_json(&parts[1], |v| {
        let third = &mut v["symmetry_parts"][2];
        assert_eq!(
            third["corners"],
            serde_json::json!([[0, 0, 3, 3], [5, 0, 2, 2]])
        );
        third["corners"] = serde_json::json!([[0, 0, 2, 3], [0, 5, 3, 0]]);
        third["select"] = "scan:rows".into();
    });
    refused(
        &solve(&six, &ck, "pairs"),
        &parts[1],
        &format!("is not of the --symmetry cut of {}", s(&ck)),
    );
    // Files without the record (older plytile): all three name the cut, and the
    // rerun, which estimates nothing, records it again.
    restore();
    for f in &parts {
        edit_json(f, |v| {
            v.as_object_mut().unwrap().remove("symmetry_parts").unwrap();
        });
    }
    let at_once = ["--timeout", "0.000001"];
    let args = [
        "solve",
        &six,
        "-q",
        "--all",
        "--symmetry",
        "--checkpoint",
        s(&ck),
    ];
    let o = run(&[&args[..], &at_once].concat());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with(whole));
    for f in &parts {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        assert_eq!(v["symmetry_parts"].as_array().map(Vec::len), Some(3));
    }
    cleanup(&dir);
}

/// Without `--puzzle`, merge checks every board against the puzzle file the results
/// name (`input`): a board edited into a non-solution is refused, and when the file is
/// gone merge says the boards were not checked.
#[test]
fn merge_checks_boards_against_the_puzzle_file_the_results_name() {
    let dir = scratch_dir("tampered-input");
    let copy = dir.join("p44.txt");
    std::fs::copy(puzzle("pieces_04x04.txt"), &copy).unwrap();
    let (a, b) = (dir.join("s0.json"), dir.join("s1.json"));
    shard(s(&copy), 0, 2, &a);
    shard(s(&copy), 1, 2, &b);
    let o = run(&["merge", s(&a), s(&b), "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let merged: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(merged["solutions_found"], 36);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Two cells of the first board swapped: still 16 pieces, no longer a solution.
    let mut r: Value = serde_json::from_str(&std::fs::read_to_string(&a).unwrap()).unwrap();
    r["solutions"][0].as_array_mut().unwrap().swap(0, 1);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r.to_string()).unwrap();
    let o = run(&["merge", s(&bad), s(&b)]);
    assert_input_error(&o, "bad.json", None, "an edited board");
    assert!(String::from_utf8_lossy(&o.stderr).contains("solution 1 is not a solution"));
    std::fs::remove_file(&copy).unwrap();
    let o = run(&["merge", s(&a), s(&b), "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("the 36 solution boards were not checked again") && e.contains("--puzzle"),
        "{e}"
    );
    cleanup(&dir);
}
