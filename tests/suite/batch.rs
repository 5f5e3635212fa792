//! The README's batch-engine recipes run through the real engines: GNU parallel over
//! the local cores (and Slurm, when a cluster answers `sinfo`). Each must give, after
//! `plytile merge`, the counts of one whole run. An engine that is not installed is
//! skipped with a line on stderr, unless `PLYTILE_REQUIRE_BATCH=1` (as `.ci/run` sets
//! it), where a missing engine fails the test.

use crate::common;

use common::{cleanup, code, p, plytile, s, scratch_dir, stderr, stdout};
use std::path::Path;
use std::process::Command;

/// Whether the batch engines are required (`PLYTILE_REQUIRE_BATCH=1`).
fn required() -> bool {
    std::env::var("PLYTILE_REQUIRE_BATCH").is_ok_and(|v| v == "1")
}

/// Whether `program --version` runs; if not, skips (returns false) or, when the
/// engines are required, fails.
fn have(program: &str, what: &str) -> bool {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            !required(),
            "{program} is not installed, and PLYTILE_REQUIRE_BATCH=1 requires it ({what})"
        );
        eprintln!("skipped: {program} is not installed ({what})");
    }
    found
}

/// `sh -c script` in `dir`, with the binary under test first on PATH as `plytile`.
fn sh(dir: &Path, script: &str) -> std::process::Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_plytile")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .args(["-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("RUST_LOG")
        .output()
        .expect("run sh")
}

/// The counts a merge must share with the whole run.
fn counts(json: &str) -> (u64, Vec<u64>, bool) {
    let v: serde_json::Value = serde_json::from_str(json).expect("a JSON result");
    let per_depth = v["nodes_per_depth"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    (
        v["solutions_found"].as_u64().unwrap(),
        per_depth,
        v["exhaustive"].as_bool().unwrap(),
    )
}

/// The whole run the parts must add up to: `solve P --select scan --all`.
fn whole(puzzle: &str) -> (u64, Vec<u64>, bool) {
    let o = plytile(&["solve", puzzle, "--select", "scan", "--all", "--json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    counts(&stdout(&o))
}

/// README, "Many machines": `split` into 16 jobs, `parallel` runs them, `merge`
/// sums them. Every job exits 0, those whose share holds no solution too (they
/// exited 1, which parallel counts as failed: its own exit code was the number of
/// such jobs).
#[test]
fn the_gnu_parallel_recipe_merges_to_the_whole_run() {
    if !have("parallel", "the GNU parallel recipe of the README") {
        return;
    }
    let dir = scratch_dir("batch-parallel");
    let puzzle = p("brendan/pieces_05x05.txt");
    std::fs::copy(&puzzle, dir.join("puzzle.txt")).unwrap();
    // The README's three lines, on a smaller puzzle (its 7x6 takes minutes).
    let o = sh(
        &dir,
        "plytile split puzzle.txt --select scan --jobs 16 --out jobs/",
    );
    assert_eq!(code(&o), 0, "split: {}", stderr(&o));
    let o = sh(
        &dir,
        "parallel --results logs/ 'plytile solve --job {} --all --json --threads 1 > {.}.json' ::: jobs/*.ron",
    );
    assert_eq!(code(&o), 0, "parallel: {}", stderr(&o));
    let o = sh(&dir, "plytile merge jobs/*.json --json");
    assert_eq!(code(&o), 0, "merge: {}", stderr(&o));
    let merged = counts(&stdout(&o));
    let one = whole(&puzzle);
    assert_eq!(merged, one);
    assert_eq!(merged.0, 16);
    assert!(merged.2, "exhaustive");
    // Some jobs held no solution, and still exited 0.
    let empty = (0..16)
        .filter(|k| {
            let text = std::fs::read_to_string(dir.join(format!("jobs/job-{k:04}.json"))).unwrap();
            counts(&text).0 == 0
        })
        .count();
    assert!(empty > 0, "some jobs without solutions");
    cleanup(&dir);
}

/// README, the Slurm job array: 16 shards with `--shard "$SLURM_ARRAY_TASK_ID/16"`
/// and a checkpoint each, submitted with `sbatch --wait`, then `merge`. Runs where a
/// Slurm cluster answers (`sinfo` lists a node that is up); skipped elsewhere, and
/// required under `PLYTILE_REQUIRE_BATCH=1` only when `sbatch` is installed.
#[test]
fn the_slurm_array_recipe_merges_to_the_whole_run() {
    let sinfo = Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let up = sinfo.as_deref().is_some_and(|t| {
        t.lines()
            .any(|l| l.starts_with("idle") || l.starts_with("mix"))
    });
    if !up {
        let installed = Command::new("sbatch").arg("--version").output().is_ok();
        assert!(
            !(required() && installed),
            "sbatch is installed but no Slurm node is up (sinfo: {sinfo:?}), and PLYTILE_REQUIRE_BATCH=1 requires it"
        );
        eprintln!("skipped: no Slurm cluster answers sinfo (the Slurm recipe of the README)");
        return;
    }
    let dir = scratch_dir("batch-slurm");
    let puzzle = p("brendan/pieces_05x05.txt");
    std::fs::copy(&puzzle, dir.join("puzzle.txt")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_plytile"));
    // The README's script, with the puzzle, the time and the cores made small, and the
    // binary under test named in full (the job's PATH is the submitter's).
    let script = format!(
        r#"#!/bin/bash
#SBATCH --array=0-15
#SBATCH --cpus-per-task=1
#SBATCH --time=00:10:00
#SBATCH --output=logs/%a.out
mkdir -p res ck
{bin} solve puzzle.txt --select scan --all --json \
    --shard "$SLURM_ARRAY_TASK_ID/16" --threads "$SLURM_CPUS_PER_TASK" \
    --checkpoint "ck/$SLURM_ARRAY_TASK_ID.ck" > "res/$SLURM_ARRAY_TASK_ID.json"
"#,
        bin = s(bin)
    );
    std::fs::create_dir_all(dir.join("logs")).unwrap();
    std::fs::write(dir.join("solve.sh"), script).unwrap();
    let o = sh(&dir, "sbatch --wait solve.sh");
    // `--wait`: the exit code is the highest of the array's tasks.
    assert_eq!(code(&o), 0, "sbatch: {} {}", stdout(&o), stderr(&o));
    let o = sh(&dir, "plytile merge res/*.json --json");
    assert_eq!(code(&o), 0, "merge: {}", stderr(&o));
    let merged = counts(&stdout(&o));
    assert_eq!(merged, whole(&puzzle));
    assert!(merged.2, "exhaustive");
    // Each shard's checkpoint lock is gone with its run.
    let locks = std::fs::read_dir(dir.join("ck"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".lock"))
        })
        .count();
    assert_eq!(locks, 0, "lock files left");
    cleanup(&dir);
}
