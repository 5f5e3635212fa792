//! Files that lie: results, checkpoints and job files edited by hand or cut from
//! another puzzle. Each is refused with exit code 2 and one line naming the file, never
//! counted, never a panic.

use crate::common;

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

/// A hand edit of a checkpoint that writes its digest anew (`redigest`): what the
/// digest would refuse at once ("edited or damaged"), the checks of the records must
/// refuse on their own. The records' given-away prefixes are written out whole first
/// (`plain_given`), as older files hold them.
fn edit_ck(path: &Path, f: impl FnOnce(&mut Value)) {
    edit_json(path, |v| {
        plain_given(v);
        f(v);
        redigest(v);
    });
}

/// Sets `v`'s digest to that of its content, as plytile would write it; removes it
/// when `v` is no checkpoint (its reading fails before the digest is checked).
fn redigest(v: &mut Value) {
    let o = v.as_object_mut().unwrap();
    o.remove("digest");
    let ck =
        serde_json::from_value::<plytile::search::checkpoint::Checkpoint>(Value::Object(o.clone()));
    if let Ok(ck) = ck {
        o.insert("digest".into(), ck.digest().into());
    }
}

/// `v`, a checkpoint, with every record's `given_coded` decoded into `given`.
fn plain_given(v: &mut Value) {
    for r in v["records"].as_array_mut().unwrap() {
        let Some(coded) = r.as_object_mut().unwrap().remove("given_coded") else {
            continue;
        };
        let prefix: Vec<[usize; 3]> = serde_json::from_value(r["prefix"].clone()).unwrap();
        let coded: Vec<Vec<usize>> = serde_json::from_value(coded).unwrap();
        let given = plytile::search::jobs::front_decode(&prefix, &coded).unwrap();
        let all = r["given"].as_array_mut().unwrap();
        all.extend(given.into_iter().map(|g| serde_json::json!(g)));
    }
}

/// The two shards of the 4x4 (36 solutions) in `dir`, and a path for an edited copy.
fn halves_of_4x4(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let p44 = puzzle("pieces_04x04.txt");
    let (s0, s1, t) = (dir.join("s0.json"), dir.join("s1.json"), dir.join("t.json"));
    shard(&p44, 0, 2, &s0);
    shard(&p44, 1, 2, &s1);
    (s0, s1, t)
}

/// Bad input naming `file` and saying `what`.
fn refused(o: &Output, file: &Path, what: &str) {
    refused_at(o, file, None, what);
}

/// Bad input naming `file`, its `line` when given, and saying `what`.
fn refused_at(o: &Output, file: &Path, line: Option<usize>, what: &str) {
    assert_input_error(o, s(file), line, what);
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

/// Three shards of the 5x5 in a scratch dir `tag`, the middle one copied to `t.json`
/// and edited: merging with the copy is refused, naming it and saying `what`.
/// Returns the dir and the unedited shards.
fn edited_shard_refused(
    tag: &str,
    edit: impl FnOnce(&mut Value),
    what: &str,
) -> (PathBuf, Vec<PathBuf>) {
    let dir = scratch_dir(tag);
    let f = three_shards(&dir);
    let t = dir.join("t.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, edit);
    refused(&merge(&[&f[0], &t, &f[2]]), &t, what);
    (dir, f)
}

#[test]
fn merge_refuses_a_shard_index_out_of_range() {
    let (dir, f) = edited_shard_refused(
        "tampered-range",
        |v| v["shard"] = serde_json::json!([7, 3]),
        "shard 7/3 is out of range",
    );
    let o = merge(&[&f[0], &f[1], &f[2]]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("solutions   16"));
    cleanup(&dir);
}

/// A shard stopped before its frontier was cut searched nothing and has no split
/// depth (`null`): it merges with the shards that ran, and the sum is theirs, not
/// exhaustive.
#[test]
fn a_shard_stopped_before_its_frontier_merges_as_nothing_searched() {
    let dir = scratch_dir("tampered-early");
    let f = three_shards(&dir);
    let p = puzzle("pieces_05x05.txt");
    let args = [
        "solve",
        &p,
        "--threads",
        "1",
        "--all",
        "--json",
        "--shard",
        "1/3",
    ];
    let o = run(&[&args[..], &["--timeout", "0.000001"]].concat());
    assert_eq!(o.status.code(), Some(3));
    std::fs::write(&f[1], &o.stdout).unwrap();
    let read =
        |f: &Path| -> Value { serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap() };
    let early = read(&f[1]);
    assert_eq!(
        (early["nodes"].as_u64(), early["split_depth"].as_u64()),
        (Some(0), None)
    );
    let o = run(&["merge", s(&f[0]), s(&f[1]), s(&f[2]), "--json"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let m: Value = serde_json::from_slice(&o.stdout).unwrap();
    let (a, b) = (read(&f[0]), read(&f[2]));
    let sum = |k: &str| a[k].as_u64().unwrap() + b[k].as_u64().unwrap();
    assert_eq!(m["nodes"].as_u64(), Some(sum("nodes")));
    assert_eq!(m["solutions_found"].as_u64(), Some(sum("solutions_found")));
    assert_eq!(m["exhaustive"], false);
    assert_eq!(m["split_depth"], a["split_depth"]);
    cleanup(&dir);
}

/// Shards that do not belong together: the message names both files, says how they
/// differ and what to merge instead.
#[test]
fn merge_names_both_files_of_shards_that_do_not_belong_together() {
    let dir = scratch_dir("tampered-pair");
    let f = three_shards(&dir);
    let p = puzzle("pieces_05x05.txt");
    // A shard of a split in two: its boards are boards of the three shards too, but
    // the split is what to fix.
    let half = dir.join("half.json");
    shard(&p, 1, 2, &half);
    let what = format!(
        "is shard 1/2, {} shard 0/3: not shards of one split",
        s(&f[0])
    );
    refused(&merge(&[&f[0], &f[1], &half]), &half, &what);
    // A shard given twice, under two names or one.
    let again = dir.join("again.json");
    std::fs::copy(&f[1], &again).unwrap();
    let what = format!(
        "shard 1/3 is also in {}: it would be counted twice",
        s(&f[1])
    );
    refused(&merge(&[&f[0], &f[1], &again]), &again, &what);
    refused(&merge(&[&f[0], &f[0]]), &f[0], "is given twice");
    // Another heuristic's shard (its default split is deeper).
    let mrv = dir.join("mrv.json");
    let o = run(&[
        "solve", &p, "--select", "mrv", "--all", "--json", "--shard", "1/3",
    ]);
    std::fs::write(&mrv, &o.stdout).unwrap();
    let what = format!(
        "is not a part of the same search as {} (--select mrv, not scan; split depth 6, not 4)",
        s(&f[0])
    );
    refused(&merge(&[&f[0], &mrv, &f[2]]), &mrv, &what);
    // A search that is no shard.
    let whole = dir.join("whole.json");
    let o = run(&["solve", &p, "--all", "--json", "--threads", "1"]);
    std::fs::write(&whole, &o.stdout).unwrap();
    refused(
        &merge(&[&whole]),
        &whole,
        "is a whole search (no --shard or --job)",
    );
    // A shard of a --symmetry run.
    let sym = dir.join("sym.json");
    let args = [
        "solve",
        &p,
        "--all",
        "--json",
        "--symmetry",
        "--shard",
        "2/3",
    ];
    std::fs::write(&sym, run(&args).stdout).unwrap();
    let what = format!(
        "was searched with --symmetry (4 turns), {} without --symmetry",
        s(&f[0])
    );
    refused(&merge(&[&f[0], &f[1], &sym]), &sym, &what);
    cleanup(&dir);
}

#[test]
fn merge_takes_a_shard_of_the_same_puzzle_under_another_name() {
    // A cluster may stage the puzzle under another name: the fingerprint decides.
    let dir = scratch_dir("tampered-renamed");
    let f = three_shards(&dir);
    let renamed = dir.join("staged.txt");
    std::fs::copy(puzzle("pieces_05x05.txt"), &renamed).unwrap();
    let r1 = dir.join("r1.json");
    shard(s(&renamed), 1, 3, &r1);
    let o = merge(&[&f[0], &r1, &f[2]]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("solutions   16"));
    let warning = format!(
        "plytile: {}: its puzzle is named staged, that of {} pieces_05x05: the same pieces and hints (their fingerprints agree), merged as pieces_05x05\n",
        s(&r1),
        s(&f[0])
    );
    assert_eq!(e, warning);
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
    // Named after its file, as the shipped 5x5 is: without gen's `# name:` line.
    let text = std::fs::read_to_string(&other).unwrap();
    let unnamed: String = text
        .lines()
        .filter(|l| !l.starts_with("# name: "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&other, unnamed).unwrap();
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
    // A full board that is no solution: the puzzle tells, named in the results (input)
    // or given.
    let t = dir.join("wrong.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| {
        let b = v["solutions"][0].as_array_mut().unwrap();
        b.swap(6, 7);
    });
    let o = merge(&[&f[0], &t, &f[2]]);
    refused(&o, &t, "solution 1 is not a solution");
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
    edit_ck(&ck, |v| {
        let r = &mut v["records"][0];
        r["solutions"] = serde_json::json!([[[0, 0], [0, 0], [0, 0]]]);
        r["solutions_found"] = 1.into();
    });
    refused(&run(&args), &ck, "record 1: ");
    // The solutions of one record claimed by another: counts agree, boards do not.
    std::fs::write(&ck, &good).unwrap();
    edit_ck(&ck, |v| {
        let recs = v["records"].as_array_mut().unwrap();
        let i = (recs.iter())
            .position(|r| r["solutions_found"].as_u64().unwrap() > 0)
            .unwrap();
        let j = (recs.iter())
            .position(|r| r["prefix"] != recs[i]["prefix"])
            .unwrap();
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
    edit_ck(&ck, |v| {
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
    edit_ck(&ck, |v| {
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
        edit_ck(&ck, |v| {
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
    // Prefixes 1 to 3, on lines 14 to 16.
    let first = "        [(0, 0, 3), (1, 4, 0), (2, 12, 0), (3, 5, 0)],\n";
    let second = "        [(0, 0, 3), (1, 4, 0), (2, 12, 0), (3, 11, 0)],\n";
    let third = "        [(0, 0, 3), (1, 4, 0), (2, 13, 0), (3, 10, 0)],\n";
    assert!(good.contains(&format!("    prefixes: [\n{first}{second}{third}")));
    assert_eq!(good.lines().position(|l| l == first.trim_end()), Some(13));
    let solve = || run(&["solve", "--job", s(&job), "--all", "-q", "--threads", "1"]);
    let o = solve();
    assert!(String::from_utf8_lossy(&o.stdout).contains(": 6 solution(s)"));
    let pieces = good.lines().position(|l| l.contains("pieces: [")).unwrap() + 1;
    for (edit, line, what) in [
        (
            good.replace(first, "        [(0, 0, 3)],\n"),
            14,
            "prefix 1 has 1 placements",
        ),
        (
            good.replace(first, "        [],\n"),
            14,
            "prefix 1 has 0 placements",
        ),
        (
            good.replace(third, "        [(0, 0, 3), (1, 4, 0), (2, 13, 0)],\n"),
            16,
            "prefix 3 has 3 placements, not split_depth 4",
        ),
        (
            good.replace(second, first),
            15,
            "prefix 2 repeats prefix 1 (line 14)",
        ),
        (
            good.replace(third, second),
            16,
            "prefix 3 repeats prefix 2 (line 15)",
        ),
        // Another piece in prefix 3.
        (
            good.replace(third, &third.replace("(2, 13, 0)", "(2, 14, 0)")),
            16,
            "prefix 3 is not subproblem 6",
        ),
        (
            good.replace(third, &third.replace("(3, 10, 0)", "(3, 10, 7)")),
            16,
            "prefix 3: bad placement [3, 10, 7]",
        ),
        (good.replace(first, ""), 14, "prefix 1 is not subproblem 0"),
        (
            good.replace("split_depth: 4,", "split_depth: 3,"),
            14,
            "not split_depth 3",
        ),
        (
            good.replace("split_depth: 4,", "split_depth: 40,"),
            6,
            "split_depth 40 is deeper than the board (25)",
        ),
        (
            good.replace("        62,\n", "        61,\n"),
            7,
            "frontier_nodes_per_depth are not the split's",
        ),
        (
            good.replace("    job: 0,", "    job: 3,"),
            3,
            "job 3 of 3 is out of range",
        ),
        (
            good.replace("format: 2,", "format: 9,"),
            2,
            "newer plytile (search tree format 9",
        ),
        (
            good.replace("select: \"scan\"", "select: \"scna\""),
            5,
            "unknown heuristic 'scna'",
        ),
        (
            good.replace(third, "        [(0, 0, 3)]\n"),
            17,
            "Expected comma",
        ),
        (
            good.replace("pieces: [(0, 0, 1, 1)", "pieces: [(0, 0, 0, 0)"),
            pieces,
            "piece 0 (0 0 0 0) has the rim colour 0 on 4 sides",
        ),
        (
            good.replace("pieces: [(0, 0, 1, 1), ", "pieces: ["),
            pieces,
            "24 pieces for a 5x5 board, which needs 25",
        ),
    ] {
        assert_ne!(edit, good, "{what}");
        std::fs::write(&job, edit).unwrap();
        refused_at(&solve(), &job, Some(line), what);
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

/// An edit of a job file's puzzle that its split still passes (a piece far from the
/// prefixes' cells) is caught by the fingerprint `split` writes; a job file of an
/// older plytile, without one, still runs and counts what it did.
#[test]
fn a_job_file_of_an_edited_puzzle_is_refused_and_one_without_a_fingerprint_runs() {
    let dir = scratch_dir("tampered-job-fingerprint");
    let p = puzzle("pieces_05x05.txt");
    let out = dir.join("jobs");
    let o = run(&["split", &p, "--jobs", "3", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(0));
    let job = out.join("job-0000.ron");
    let good = std::fs::read_to_string(&job).unwrap();
    let at = |text: &str, key: &str| text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    let line = at(&good, "    fingerprint: ");
    assert_eq!(line + 1, at(&good, "    puzzle: ("), "{good}");
    let counts = |o: &Output| {
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        (v["solutions_found"].clone(), v["nodes_per_depth"].clone())
    };
    let solve = || {
        run(&[
            "solve",
            "--job",
            s(&job),
            "--all",
            "--json",
            "--threads",
            "1",
        ])
    };
    let want = counts(&solve());
    assert_eq!(want.0, 6);
    // The last piece, an inner one, with another colour.
    let edit = good.replace("(6, 7, 7, 7)]", "(6, 6, 7, 7)]");
    assert_ne!(edit, good);
    std::fs::write(&job, &edit).unwrap();
    let o = solve();
    refused_at(&o, &job, Some(line), "fingerprint");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "plytile: {}:{line}: the puzzle in this job file is not the one it was split from (its fingerprint differs): the file was edited or damaged; run `plytile split` again\n",
            s(&job)
        )
    );
    // Without the fingerprint that edit passes the split's checks (and finds none).
    let old = |text: &str| {
        let kept: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("    fingerprint: "))
            .collect();
        kept.join("\n") + "\n"
    };
    std::fs::write(&job, old(&edit)).unwrap();
    let o = solve();
    assert_eq!(o.status.code(), Some(1), "no solution");
    std::fs::write(&job, old(&good)).unwrap();
    assert_eq!(counts(&solve()), want);
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
    refused(
        &solve(&six, &ck, "pairs"),
        &ck,
        "holds a tree of another --symmetry cut: --symmetry-parts anchor, not pairs as asked",
    );
    // The second and third parts swapped.
    restore();
    std::fs::write(&parts[1], &good[2]).unwrap();
    std::fs::write(&parts[2], &good[1]).unwrap();
    let second = "is of a tree that no cut searches second";
    refused(&solve(&six, &ck, "pairs"), &parts[1], second);
    // A recorded cut whose second tree is laid along rows but keeps its corners.
    restore();
    edit_ck(&ck, |v| {
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
    edit_ck(&parts[1], |v| {
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
        edit_ck(f, |v| {
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

fn read(f: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap()
}

/// A merged text report says `what` (exit 0).
fn merged(o: &Output, what: &str) {
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains(what), "says {what:?}: {out}");
}

/// A result's counts must agree with each other: its full boards are its solutions
/// (times the turns under --symmetry, at most that when --solutions cut the count),
/// its depths end where a node was, the trees of --symmetry are distinct and sum to
/// its nodes, and exhaustive means no stop. Edited, they were summed as exhaustive
/// (1,000,017 solutions of the 4x4's 36).
#[test]
fn merge_refuses_a_result_whose_counts_contradict_each_other() {
    let dir = scratch_dir("tampered-contradict");
    let p44 = puzzle("pieces_04x04.txt");
    let (s0, s1, t) = halves_of_4x4(&dir);
    merged(&merge(&[&s0, &s1]), "solutions   36\nexhaustive  yes\n");
    assert_eq!(u(&read(&s0)["solutions_found"]), 19);
    type Edit = fn(&mut Value);
    let cases: [(Edit, &str, &str); 5] = [
        (
            |v| v["solutions_found"] = 1_000_000.into(),
            "solutions_found is 1000000, but nodes_per_depth counts 19 full boards (depth 16)",
            "solutions_found is 1000000, but nodes_per_depth counts 19 full boards (depth 16)",
        ),
        // The full boards' count zeroed, nodes to match, the 19 boards kept.
        (
            |v| {
                let n = v["nodes_per_depth"].as_array_mut().unwrap();
                let last = u(&n[16]);
                n[16] = 0.into();
                v["nodes"] = (u(&v["nodes"]) - last).into();
            },
            "nodes_per_depth ends in depth 16, which no node reached",
            "nodes_per_depth ends in depth 16, which no node reached",
        ),
        // ... or the depth dropped: without the puzzle depth 15 is then the deepest,
        // whose 24 nodes would be the full boards.
        (
            |v| {
                let n = v["nodes_per_depth"].as_array_mut().unwrap();
                let last = u(&n.pop().unwrap());
                v["nodes"] = (u(&v["nodes"]) - last).into();
            },
            "solutions_found is 19, but nodes_per_depth counts 24 full boards (depth 15)",
            "solutions_found is 19, but nodes_per_depth counts 0 full boards (depth 16)",
        ),
        (
            |v| v["stopped_by"] = "max_nodes".into(),
            "is exhaustive, yet stopped by",
            "is exhaustive, yet stopped by",
        ),
        (
            |v| v["exhaustive"] = false.into(),
            "is not exhaustive, yet names no stop",
            "is not exhaustive, yet names no stop",
        ),
    ];
    for (edit, what, with_puzzle) in cases {
        std::fs::copy(&s0, &t).unwrap();
        edit_json(&t, edit);
        refused(&merge(&[&t, &s1]), &t, what);
        let o = run(&["merge", "--puzzle", &p44, s(&t), s(&s1)]);
        refused(&o, &t, with_puzzle);
    }
    // --solutions cuts the count below the full boards: that is no contradiction.
    let cut = dir.join("cut.json");
    let o = run(&[
        "solve",
        &p44,
        "--threads",
        "1",
        "--solutions",
        "5",
        "--json",
        "--shard",
        "0/2",
    ]);
    std::fs::write(&cut, &o.stdout).unwrap();
    assert_eq!(read(&cut)["stopped_by"], "solutions");
    let o = run(&["merge", "--puzzle", &p44, s(&cut), s(&s1)]);
    merged(&o, "solutions   22\nexhaustive  no (stopped:");
    // --symmetry: 4 turns per full board, three distinct trees whose counts sum.
    let p55 = puzzle("pieces_05x05.txt");
    let sym = |i: usize| {
        let f = dir.join(format!("sym{i}.json"));
        let o = run(&[
            "solve",
            &p55,
            "--threads",
            "1",
            "--all",
            "--json",
            "--symmetry",
            "--symmetry-parts",
            "pairs",
            "--shard",
            &format!("{i}/2"),
        ]);
        assert_eq!(o.status.code(), Some(0));
        std::fs::write(&f, &o.stdout).unwrap();
        f
    };
    let (y0, y1) = (sym(0), sym(1));
    assert_eq!(read(&y0)["symmetry_parts"].as_array().unwrap().len(), 3);
    merged(&merge(&[&y0, &y1]), "solutions   16\nexhaustive  yes\n");
    let o = run(&["merge", "--puzzle", &p55, s(&y0), s(&y1)]);
    merged(&o, "solutions   16\nexhaustive  yes\n");
    let cases: [(Edit, &str); 5] = [
        (
            |v| {
                let t = v["symmetry_parts"][0].clone();
                v["symmetry_parts"].as_array_mut().unwrap().push(t)
            },
            "lists 4 symmetry_parts; --symmetry searches at most 3 trees",
        ),
        (
            |v| {
                let t = v["symmetry_parts"][0].clone();
                v["symmetry_parts"][2] = t;
            },
            "symmetry part 3 repeats part 1",
        ),
        (
            |v| {
                let n = u(&v["symmetry_parts"][0]["nodes"]);
                v["symmetry_parts"][0]["nodes"] = (n + 1).into();
            },
            "symmetry_parts' nodes sum to",
        ),
        (
            |v| v["solutions_found"] = (u(&v["solutions_found"]) + 1).into(),
            "full boards (depth 23), each standing for its 4 turns",
        ),
        (
            |v| {
                let n = u(&v["symmetry_parts"][1]["solutions_found"]);
                v["symmetry_parts"][1]["solutions_found"] = (n + 1).into();
            },
            "symmetry_parts find",
        ),
    ];
    for (edit, what) in cases {
        std::fs::copy(&y0, &t).unwrap();
        edit_json(&t, edit);
        refused(&merge(&[&t, &y1]), &t, what);
    }
    cleanup(&dir);
}

/// Counts past 2^64 wrapped (2^64 - 1 nodes, or 2^63 at two depths that summed to
/// the old total) and a depth past the board was summed: each is refused, and counts
/// that fit alone but not together are refused where they meet.
#[test]
fn merge_refuses_counts_past_64_bits_or_depths_past_the_board() {
    let dir = scratch_dir("tampered-wrap");
    let (s0, s1, t) = halves_of_4x4(&dir);
    type Edit = fn(&mut Value);
    let cases: [(Edit, &str); 3] = [
        (
            |v| {
                v["nodes_per_depth"].as_array_mut().unwrap().push(7.into());
                v["nodes"] = (u(&v["nodes"]) + 7).into();
            },
            "nodes_per_depth has 18 depths, a 4x4 board has 17",
        ),
        (
            |v| {
                let rest = u(&v["nodes"]) - u(&v["nodes_per_depth"][5]);
                v["nodes_per_depth"][5] = (u64::MAX - rest).into();
                v["nodes"] = u64::MAX.into();
            },
            "more than the tree of a 4x4 board has there",
        ),
        (
            |v| {
                for d in [5, 6] {
                    let n = u(&v["nodes_per_depth"][d]);
                    v["nodes_per_depth"][d] = (n + (1 << 63)).into();
                }
            },
            "more than the tree of a 4x4 board has there",
        ),
    ];
    for (edit, what) in cases {
        std::fs::copy(&s0, &t).unwrap();
        edit_json(&t, edit);
        refused(&merge(&[&t, &s1]), &t, what);
    }
    merged(&merge(&[&s0, &s1]), "solutions   36\nexhaustive  yes\n");
    // 2^63 more nodes at depth 12 of the 5x5 (within what its tree could hold there)
    // in each of two shards: each file holds, their sum does not.
    let p55 = puzzle("pieces_05x05.txt");
    let (f0, f1) = (dir.join("f0.json"), dir.join("f1.json"));
    shard(&p55, 0, 2, &f0);
    shard(&p55, 1, 2, &f1);
    merged(&merge(&[&f0, &f1]), "solutions   16\nexhaustive  yes\n");
    for f in [&f0, &f1] {
        edit_json(f, |v| {
            let n = u(&v["nodes_per_depth"][12]);
            v["nodes_per_depth"][12] = (n + (1 << 63)).into();
            v["nodes"] = (u(&v["nodes"]) + (1 << 63)).into();
        });
    }
    let o = merge(&[&f0, &f1]);
    refused(
        &o,
        &f1,
        "cannot be added to the others: nodes_per_depth sum past 2^64",
    );
    cleanup(&dir);
}

/// Kept boards are reported and re-emitted as written: a cell that is no placement
/// on the board is refused with the numbers as given (the rotation was cut to a u8,
/// and reported as rotation 0).
#[test]
fn merge_refuses_a_cell_that_is_no_placement() {
    let dir = scratch_dir("tampered-cell");
    let p44 = puzzle("pieces_04x04.txt");
    let (s0, s1, t) = halves_of_4x4(&dir);
    let what = "solution 1 cell 0 holds [4294967296, 9223372036854775808], which is no placement on a 4x4 board";
    std::fs::copy(&s0, &t).unwrap();
    edit_json(&t, |v| {
        v["solutions"][0][0] = serde_json::json!([4294967296u64, 9223372036854775808u64])
    });
    refused(&merge(&[&t, &s1]), &t, what);
    let o = run(&["merge", "--puzzle", &p44, s(&t), s(&s1)]);
    refused(&o, &t, what);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("no piece 4294967296 rotation 0"));
    std::fs::copy(&s0, &t).unwrap();
    edit_json(&t, |v| {
        v["deepest"]["board"][3] = serde_json::json!([16, 0])
    });
    refused(&merge(&[&t, &s1]), &t, "deepest.board cell 3 holds [16, 0]");
    let o = run(&["merge", "--puzzle", &p44, s(&s0), s(&s1)]);
    merged(&o, "solutions   36\nexhaustive  yes\n");
    cleanup(&dir);
}

/// The 5x5's checkpoint after 20,000 nodes on one thread (records of stopped
/// subproblems give their rest away), its arguments to resume, and its text.
fn stopped_5x5(dir: &Path) -> (Vec<String>, String) {
    let ck = dir.join("ck");
    let args: Vec<String> = [
        "solve",
        &puzzle("pieces_05x05.txt"),
        "-q",
        "--threads",
        "1",
        "--all",
        "--max-nodes",
        "20000",
        "--checkpoint",
        s(&ck),
    ]
    .map(String::from)
    .to_vec();
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    assert_eq!(run(&a).status.code(), Some(0));
    (args, std::fs::read_to_string(&ck).unwrap())
}

/// Resuming `args` to the end (no --max-nodes) gives the 5x5's 16 solutions and
/// 113,212 nodes.
fn resumes_to_16(args: &[String]) {
    let all: Vec<&str> = args
        .iter()
        .map(|x| x.as_str())
        .filter(|&x| x != "--max-nodes" && x != "20000")
        .collect();
    let o = run(&all);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains(": 16 solution(s), exhaustive, 113212 nodes"),
        "{out}"
    );
}

/// A record must name a subproblem of this run's tree and count it as a search does:
/// its prefix and the ones it gave away placed where the heuristic branches (a
/// given-away prefix at another cell lost 2 of the 16 solutions, "exhaustive"), its
/// start node once, no more children per node than pieces left allow (1e18 and
/// 2^64 - 1 nodes were summed), no sum past the limit, and each solution once (one
/// listed twice came out as two solutions). A stale record with an impossible
/// placement was skipped while a rotation of 7 was refused: both are refused.
#[test]
fn checkpoint_records_off_the_tree_or_miscounted_are_refused() {
    let dir = scratch_dir("tampered-records");
    let (args, good) = stopped_5x5(&dir);
    let ck = PathBuf::from(args.last().unwrap());
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    let mut v = read(&ck);
    plain_given(&mut v);
    let recs = v["records"].as_array().unwrap();
    let find = |f: &dyn Fn(&Value) -> bool| recs.iter().position(f).unwrap();
    let two = find(&|r| r["solutions"].as_array().unwrap().len() >= 2);
    let b = serde_json::json!([[0, 0, 3], [1, 13, 0], [2, 11, 0]]);
    let donor = find(&|r| r["given"].as_array().unwrap().contains(&b));
    let case = |edit: &dyn Fn(&mut Value), what: &str| {
        std::fs::write(&ck, &good).unwrap();
        edit_ck(&ck, edit);
        refused(&run(&a), &ck, what);
    };
    case(
        &|v| v["records"][two]["solutions"][1] = v["records"][two]["solutions"][0].clone(),
        &format!("record {}: solution 2 repeats solution 1", two + 1),
    );
    case(
        &|v| {
            let g = v["records"][donor]["given"].as_array_mut().unwrap();
            let i = g.iter().position(|x| *x == b).unwrap();
            g[i][2][0] = 3.into();
        },
        "is off the search's path: the search fills cell 2 at that node",
    );
    case(
        &|v| v["records"][0]["nodes_per_depth"] = serde_json::json!([]),
        "record 1: nodes_per_depth counts 0 nodes at depth 2, where the record's subproblem starts",
    );
    case(
        &|v| v["records"][0]["nodes_per_depth"][0] = 1.into(),
        "record 1: nodes_per_depth counts 1 nodes at depth 0, above the record's subproblem",
    );
    for big in [1_000_000_000_000_000_000, u64::MAX] {
        case(
            &|v| v["records"][0]["nodes_per_depth"][5] = big.into(),
            &format!("record 1: nodes_per_depth counts {big} nodes at depth 5 below 9 at depth 4, which have at most 756 children"),
        );
    }
    // As many nodes as the tree could hold below the record's start, up to `cap` a
    // depth: past 2^64 in one record, or past 2^60 (more than any search) in all.
    for (cap, what) in [
        (1u64 << 62, "record 1: nodes_per_depth sums past 2^64"),
        (
            1u64 << 59,
            "the records count more than 1152921504606846976 nodes",
        ),
    ] {
        case(
            &|v| {
                let r = &mut v["records"][0];
                let d0 = r["prefix"].as_array().unwrap().len();
                let mut n = vec![0u64; 25];
                n[d0] = 1;
                for j in d0 + 1..25 {
                    n[j] = n[j - 1].saturating_mul(4 * (25 - (j - 1)) as u64).min(cap);
                }
                r["nodes_per_depth"] = serde_json::json!(n);
                r["solutions_found"] = 0.into();
                r["solutions"] = serde_json::json!([]);
            },
            what,
        );
    }
    // A stale record (reached from no subproblem of the run) is checked as any other.
    for (prefix, what) in [
        (
            serde_json::json!([[0, 0, 3], [1, 99, 0]]),
            "prefix: placement 2 (cell 1, piece 99, rotation 0) is not legal there",
        ),
        (
            serde_json::json!([[0, 0, 3], [30, 4, 0]]),
            "prefix: placement 2 (cell 30, piece 4, rotation 0) is not legal there",
        ),
        (
            serde_json::json!([[0, 0, 3], [1, 0, 0]]),
            "prefix: placement 2 (cell 1, piece 0, rotation 0) is not legal there",
        ),
        (
            serde_json::json!([[0, 0, 3], [1, 4, 7]]),
            "prefix: bad placement [1, 4, 7]",
        ),
    ] {
        case(
            &|v| {
                let mut r = v["records"][0].clone();
                r["prefix"] = prefix.clone();
                v["records"].as_array_mut().unwrap().push(r);
            },
            what,
        );
    }
    std::fs::write(&ck, &good).unwrap();
    resumes_to_16(&args);
    cleanup(&dir);
}

/// The finished subproblems a checkpoint sums (`finished`: index ranges of the run's
/// subproblems and their counts) and the front-coded prefixes a record gave away
/// (`given_coded`) are checked as records are: an index past the run's subproblems, one
/// that also has a record, a range out of order, counts that do not start once per
/// subproblem or hold a full board, and a code that keeps more than there is.
#[test]
fn checkpoint_finished_counts_and_coded_prefixes_that_do_not_hold_are_refused() {
    let dir = scratch_dir("tampered-finished");
    let (args, good) = stopped_5x5(&dir);
    let ck = PathBuf::from(args.last().unwrap());
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    // Subproblems 0 and 1 finished without a solution (2 start nodes at depth 2);
    // record 1 is subproblem 2, with solutions and its rest given away.
    let v = read(&ck);
    assert_eq!(v["finished"]["units"], serde_json::json!([[0, 2]]));
    assert_eq!(v["finished"]["nodes_per_depth"][2], 2);
    assert_eq!(
        v["records"][0]["prefix"],
        serde_json::json!([[0, 0, 3], [1, 13, 0]])
    );
    let case = |edit: &dyn Fn(&mut Value), what: &str| {
        std::fs::write(&ck, &good).unwrap();
        edit_json(&ck, |v| {
            edit(v);
            redigest(v);
        });
        refused(&run(&a), &ck, what);
    };
    let more = |v: &mut Value, units: Value| {
        v["finished"]["units"] = units;
        v["finished"]["nodes_per_depth"][2] = 3.into();
    };
    case(
        &|v| more(v, serde_json::json!([[0, 2], [99, 100]])),
        "finished subproblem 99 is not one of the run's",
    );
    case(
        &|v| more(v, serde_json::json!([[0, 3]])),
        "two records of subproblem [0:0/3 1:13/0]",
    );
    case(
        &|v| more(v, serde_json::json!([[1, 3], [0, 1]])),
        "finished: units [0, 1] is no range of subproblems after the ones before it",
    );
    case(
        &|v| v["finished"]["units"] = serde_json::json!([[0, 1]]),
        "finished: nodes_per_depth counts 2 nodes at depth 2, where the finished subproblems start: they are 1",
    );
    case(
        &|v| {
            let n = v["finished"]["nodes_per_depth"].as_array_mut().unwrap();
            n.resize(26, 1.into());
        },
        "finished: nodes_per_depth counts 1 full boards at depth 25, but finished subproblems hold no solutions",
    );
    case(
        &|v| v["records"][0]["given_coded"][0][0] = 3.into(),
        "record 1: given_coded 1: keeps 3 placements of 2",
    );
    std::fs::write(&ck, &good).unwrap();
    resumes_to_16(&args);
    cleanup(&dir);
}

/// Deleting what a record gave away (`given_coded`) leaves a file every check of
/// its records passes, and its subtrees were lost ("exhaustive"). The digest that
/// plytile writes refuses any edit, and so does a file without one or with `null`
/// (plytile has always written it); a tool that only reformats the file changes
/// nothing.
#[test]
fn a_checkpoint_edited_behind_its_digest_is_refused() {
    let dir = scratch_dir("tampered-digest");
    let (args, good) = stopped_5x5(&dir);
    let ck = PathBuf::from(args.last().unwrap());
    let a: Vec<&str> = args.iter().map(|x| x.as_str()).collect();
    let v = read(&ck);
    assert!(v["digest"].as_str().unwrap().len() == 16, "{}", v["digest"]);
    let i = v["records"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r.get("given_coded").is_some())
        .expect("a stopped subproblem gave its rest away");
    let what = "was edited or damaged since plytile wrote it (its digest does not match its content); delete it";
    edit_json(&ck, |v| {
        v["records"][i]
            .as_object_mut()
            .unwrap()
            .remove("given_coded");
    });
    refused(&run(&a), &ck, what);
    for edit in [
        |v: &mut Value| v["records"][0]["deepest"] = 3.into(),
        |v: &mut Value| v["digest"] = "0123456789abcdef".into(),
    ] {
        std::fs::write(&ck, &good).unwrap();
        edit_json(&ck, edit);
        refused(&run(&a), &ck, what);
    }
    // Reformatted (keys in another order, spaces): the same values, the same digest.
    let pretty = serde_json::to_string_pretty(&v).unwrap();
    assert_ne!(pretty, good);
    std::fs::write(&ck, pretty).unwrap();
    resumes_to_16(&args);
    std::fs::write(&ck, &good).unwrap();
    edit_ck(&ck, |_| {});
    resumes_to_16(&args);
    // The digest deleted or null, with or without an edit: refused the same way.
    let none = "has no digest, so it was edited or damaged since plytile wrote it; delete it";
    for edit in [
        |v: &mut Value| v["digest"] = Value::Null,
        |v: &mut Value| {
            v.as_object_mut().unwrap().remove("digest");
        },
        |v: &mut Value| {
            v["records"][0]["solutions_found"] = 0.into();
            v["digest"] = Value::Null;
        },
    ] {
        std::fs::write(&ck, &good).unwrap();
        edit_json(&ck, edit);
        refused(&run(&a), &ck, none);
    }
    cleanup(&dir);
}

/// A split into `--out` that holds job files of another split with as many jobs (whose
/// names it would take over) is refused, naming the file and what differs; the same
/// split again rewrites identical files; one of an older plytile, without a
/// fingerprint, is compared by the puzzle it holds.
#[test]
fn a_split_does_not_overwrite_job_files_of_another_split() {
    let dir = scratch_dir("tampered-split-over");
    let out = dir.join("sk");
    let job0 = out.join("job-0000.ron");
    let p5 = puzzle("pieces_05x05.txt");
    let p6 = puzzle("pieces_06x05.txt");
    let split = |p: &str, more: &[&str]| {
        let mut args = vec!["split", p, "--jobs", "6", "--out", s(&out)];
        args.extend(more);
        run(&args)
    };
    let o = split(&p5, &[]);
    assert_eq!(o.status.code(), Some(0));
    let first = std::fs::read_to_string(&job0).unwrap();
    let err = |o: &Output| String::from_utf8_lossy(&o.stderr).into_owned();
    let refused = |o: &Output, what: &str| {
        assert_input_error(o, s(&job0), None, what);
        assert_eq!(
            err(o),
            format!("plytile: {}: a job file of another split is in --out ({what}); choose another --out, or delete that split's job files first\n", s(&job0))
        );
        assert_eq!(std::fs::read_to_string(&job0).unwrap(), first, "untouched");
    };
    refused(&split(&p5, &["--select", "mrv"]), "--select scan, not mrv");
    refused(&split(&p6, &[]), "puzzle pieces_05x05, not pieces_06x05");
    refused(&split(&p5, &["--split-depth", "2"]), "split depth 6, not 2");
    // The same split again: the same files.
    let o = split(&p5, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&job0).unwrap(), first);
    // Without a fingerprint (older files): that of the puzzle in the file.
    let old: String = first
        .lines()
        .filter(|l| !l.contains("fingerprint: "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(old, first);
    std::fs::write(&job0, &old).unwrap();
    let o = split(&p6, &[]);
    assert_input_error(&o, s(&job0), None, "older job file, other puzzle");
    assert!(err(&o).contains("(puzzle pieces_05x05, not pieces_06x05)"));
    let o = split(&p5, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&job0).unwrap(), first);
    // A file that only has a job file's name.
    std::fs::write(&job0, "garbage\n").unwrap();
    let o = split(&p5, &[]);
    assert_input_error(&o, s(&job0), None, "not a job file");
    assert!(err(&o).contains("in --out but not a job file plytile can read ("));
    assert!(err(&o).ends_with("); delete it or choose another --out\n"));
    cleanup(&dir);
}

/// A result whose `fingerprint_hex` is not 16 hex digits is refused, not echoed into
/// the merged result.
#[test]
fn merge_refuses_a_fingerprint_hex_that_is_not_hex() {
    let (dir, _) = edited_shard_refused(
        "tampered-fingerprint-hex",
        |v| v["fingerprint_hex"] = serde_json::json!("zz"),
        "its fingerprint_hex \"zz\" is not 16 hex digits: the file was edited or damaged; run its solve again",
    );
    cleanup(&dir);
}

/// A checkpoint whose split depth passes the board is refused naming the file, not
/// `--split-depth`, which was not given.
#[test]
fn a_checkpoint_split_deeper_than_the_board_is_refused_naming_it() {
    let dir = scratch_dir("tampered-ck-depth");
    let p = puzzle("pieces_05x05.txt");
    let ck = dir.join("ck.json");
    let solve = || {
        let args = [
            "solve",
            &p,
            "--all",
            "--threads",
            "2",
            "--max-nodes",
            "1000",
        ];
        run(&[&args[..], &["-q", "--checkpoint", s(&ck)]].concat())
    };
    assert_eq!(solve().status.code(), Some(3));
    edit_json(&ck, |v| {
        v["split_depth"] = serde_json::json!(300);
        redigest(v);
    });
    refused(&solve(), &ck, "its split_depth 300 is deeper than the board (25 empty cells): the file was edited or damaged; delete it to search from the start");
    cleanup(&dir);
}

/// A bad size line says so, not that a piece line is wrong.
#[test]
fn a_bad_size_line_is_named_as_such() {
    let dir = scratch_dir("tampered-size-line");
    let good = std::fs::read_to_string(puzzle("pieces_05x05.txt")).unwrap();
    let at = good.lines().position(|l| l.trim() == "5 5").unwrap();
    for (size, what) in [
        ("5 5 5", "expected the board size `W H` (or a piece line of 4 colours `up right down left`), found 3 fields"),
        ("5x5", "a board size line is `W H`, found `5x5`; write `5 5`"),
    ] {
        let f = dir.join("p.txt");
        let text: Vec<&str> = good
            .lines()
            .enumerate()
            .map(|(i, l)| if i == at { size } else { l })
            .collect();
        std::fs::write(&f, text.join("\n")).unwrap();
        refused_at(&run(&["solve", s(&f)]), &f, Some(at + 1), what);
    }
    cleanup(&dir);
}

/// `solutions_from` says where each board was found, so that merge lists them in
/// search order: one that does not fit its boards, or names a subproblem that
/// another shard searched, is refused.
#[test]
fn merge_refuses_a_result_whose_solutions_from_does_not_hold() {
    let two = |v: &Value| v["solutions"].as_array().unwrap().len() >= 2;
    let dir = scratch_dir("tampered-from");
    let f = three_shards(&dir);
    let read =
        |f: &Path| -> Value { serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap() };
    assert!(
        two(&read(&f[1])),
        "shard 1/3 of the 5x5 holds two boards or more"
    );
    cleanup(&dir);
    let (dir, _) = edited_shard_refused(
        "tampered-from-len",
        |v| {
            v["solutions_from"].as_array_mut().unwrap().pop();
        },
        "solutions_from has",
    );
    cleanup(&dir);
    let (dir, _) = edited_shard_refused(
        "tampered-from-order",
        |v| v["solutions_from"].as_array_mut().unwrap().reverse(),
        "solutions_from is not in search order",
    );
    cleanup(&dir);
    let (dir, _) = edited_shard_refused(
        "tampered-from-tree",
        |v| v["solutions_from"][0][0] = 1.into(),
        "names tree 1",
    );
    cleanup(&dir);
    // A subproblem of shard 0's boards claimed by shard 1's: in the natural move
    // order, outside shard 1's share (subproblems k with k mod 3 = 1)...
    let dir = scratch_dir("tampered-from-twice");
    let f = three_shards(&dir);
    let first = read(&f[0])["solutions_from"][0].clone();
    let t = dir.join("t.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| {
        for k in v["solutions_from"].as_array_mut().unwrap() {
            *k = first.clone();
        }
    });
    let what = format!(
        "names subproblem {}, which is not in the share of shard 1/3",
        first[1]
    );
    refused(&merge(&[&f[0], &t, &f[2]]), &t, &what);
    // ... and under --move-order penalty (places in that order, any of them a
    // shard's), named by the other shard's board.
    let p = puzzle("pieces_05x05.txt");
    let pen: Vec<PathBuf> = (0..3)
        .map(|i| {
            let f = dir.join(format!("pen{i}.json"));
            let shard = format!("{i}/3");
            let args = ["solve", &p, "--all", "--json", "--move-order", "penalty"];
            let o = run(&[&args[..], &["--threads", "1", "--shard", &shard]].concat());
            std::fs::write(&f, &o.stdout).unwrap();
            f
        })
        .collect();
    let first = read(&pen[0])["solutions_from"][0].clone();
    let t = dir.join("pen-t.json");
    std::fs::copy(&pen[1], &t).unwrap();
    edit_json(&t, |v| {
        for k in v["solutions_from"].as_array_mut().unwrap() {
            *k = first.clone();
        }
    });
    refused(
        &merge(&[&pen[0], &t, &pen[2]]),
        &t,
        "each subproblem is one shard's",
    );
    // The move order orders the boards: shards of another are not of this search.
    let t = dir.join("moves.json");
    std::fs::copy(&f[1], &t).unwrap();
    edit_json(&t, |v| v["move_order"] = "penalty".into());
    refused(
        &merge(&[&f[0], &t, &f[2]]),
        &t,
        "--move-order penalty, not natural",
    );
    cleanup(&dir);
}

/// A merge result merges on as the shards its `merged` names, so an edit of that list
/// would count shards twice or not at all: refused when it contradicts `exhaustive`,
/// repeats a shard, or leaves out a shard its boards (`solutions_from`) were found in;
/// and a `deepest_from` outside a shard's share is refused as `solutions_from` is
/// (QA, session 32: accepted, with wrong totals).
#[test]
fn merge_refuses_an_edited_merge_result() {
    let dir = scratch_dir("tampered-merged");
    let f = three_shards(&dir);
    let part = dir.join("part01.json");
    let o = run(&["merge", s(&f[0]), s(&f[1]), "--json"]);
    assert_eq!(o.status.code(), Some(0));
    std::fs::write(&part, &o.stdout).unwrap();
    let o = merge(&[&part, &f[2]]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stdout).contains("solutions   16"));
    let t = dir.join("t.json");
    let edited = |edit: &dyn Fn(&mut Value)| {
        std::fs::copy(&part, &t).unwrap();
        edit_json(&t, edit);
    };
    edited(&|v| v["merged"]["shards"] = serde_json::json!([0, 1, 2]));
    refused(
        &merge(&[&t]),
        &t,
        "it is not exhaustive, but merged.shards lists 3 of 3 shards",
    );
    edited(&|v| v["merged"]["shards"] = serde_json::json!([0, 0]));
    refused(
        &merge(&[&t, &f[2]]),
        &t,
        "is not a list of shards in ascending order",
    );
    // Shard 1's boards, claimed as shard 0's alone (with shard 1 given too, its
    // boards would be found twice).
    edited(&|v| v["merged"]["shards"] = serde_json::json!([0]));
    refused(
        &merge(&[&t, &f[2]]),
        &t,
        "which is not in the share of a merge of shards 0 of 3",
    );
    // Subproblem 3 is shard 0's (3 mod 3).
    let (dir2, _) = edited_shard_refused(
        "tampered-deepest-from",
        |v| v["deepest_from"] = serde_json::json!([0, 3]),
        "deepest_from names subproblem 3, which is not in the share of shard 1/3",
    );
    cleanup(&dir2);
    cleanup(&dir);
}

/// A shard that kept fewer boards than it found (its `--keep`) may lack boards that
/// come before the others' in search order: merge lists only the boards it is sure
/// of (the whole run's first ones, no list with a hole) and says so.
#[test]
fn merge_warns_when_a_shard_kept_too_few_boards() {
    let dir = scratch_dir("merge-keep");
    let p = puzzle("pieces_05x05.txt");
    let files: Vec<PathBuf> = (0..3)
        .map(|i| {
            let f = dir.join(format!("k{i}.json"));
            let shard = format!("{i}/3");
            let o = run(&[
                "solve", &p, "--all", "--json", "--keep", "2", "--shard", &shard,
            ]);
            std::fs::write(&f, &o.stdout).unwrap();
            f
        })
        .collect();
    let whole = run(&["solve", &p, "--all", "--json", "--keep", "2"]);
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    let o = run(&[
        "merge",
        s(&files[0]),
        s(&files[1]),
        s(&files[2]),
        "--json",
        "--keep",
        "2",
    ]);
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let m: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(m["solutions"], whole["solutions"]);
    let o = run(&[
        "merge",
        s(&files[0]),
        s(&files[1]),
        s(&files[2]),
        "--json",
        "--keep",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("kept 2 of its") && err.contains("--keep 10 or more"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let m: Value = serde_json::from_slice(&o.stdout).unwrap();
    let listed = m["solutions"].as_array().unwrap();
    let whole = run(&["solve", &p, "--all", "--json", "--keep", "10"]);
    let whole: Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert!(listed.len() >= 2 && listed.len() < 10, "{}", listed.len());
    assert!(
        err.contains(&format!(": {} listed;", listed.len())),
        "{err}"
    );
    assert_eq!(
        listed[..],
        whole["solutions"].as_array().unwrap()[..listed.len()]
    );
    cleanup(&dir);
}
