//! `plytile split`: the subproblems of one search as N job files for other machines.

use super::{catch_interrupts, write_output, PuzzleArgs, INTERRUPTED};
use crate::error::{InputError, Result};
use crate::puzzle::Puzzle;
use crate::search::auto::{self, Budget, Costs, Setting};
use crate::search::parallel::{FrontierError, Split, MAX_SPLIT_DEPTH, UNITS_PER_SHARD};
use crate::search::{jobs, Heuristic};
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

#[derive(Args, Debug)]
pub struct SplitArgs {
    #[command(flatten)]
    pub input: PuzzleArgs,
    /// Number of job files; job i gets frontier subproblems i, i+N, i+2N, ...
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub jobs: u64,
    /// Directory for the job files (created if missing): DIR/job-0000.ron, ...
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    #[arg(long, default_value = "auto", help = concat!("Site-selection heuristic: auto (the default: chooses as `solve --all --shard` does, by a fixed cost model, so the same on every machine given --auto-seed; the job files record the choice), or ", heuristics!()))]
    pub select: Setting,
    /// Seed of auto's probes: the choice is the same on every run with the same seed.
    #[arg(long, value_name = "S", default_value = "1")]
    pub auto_seed: u64,
    /// Depth of the frontier (default: the first level with at least 64 subproblems
    /// per job; the same frontier as `solve --shard i/N`).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(0..=MAX_SPLIT_DEPTH))]
    pub split_depth: Option<u64>,
}

pub fn run(a: SplitArgs) -> Result<u8> {
    catch_interrupts();
    let puzzle = a.input.load()?;
    // auto's line is printed with the files' (a refusal stays one line).
    let (select, why) = match a.select {
        Setting::Use(h) => (h, None),
        // Fixed costs, for all solutions: as `solve --all --shard i/N` chooses, so
        // that a split and its shards search the same tree.
        Setting::Auto => {
            let budget = Budget::for_timeout(None);
            let Some(c) = auto::choose(
                &puzzle,
                None,
                budget,
                Costs::Fixed,
                a.auto_seed,
                &INTERRUPTED,
            ) else {
                return Ok(interrupted());
            };
            (c.chosen, Some(c.line()))
        }
    };
    super::check_select([select], &puzzle)?;
    let n = a.jobs as usize;
    let depth = super::split_depth(a.split_depth, &puzzle);
    let split = match depth {
        Some(d) => Split::Depth(d),
        None => Split::AtLeast(UNITS_PER_SHARD * n),
    };
    let width = (n - 1).to_string().len().max(4);
    let name = |k: usize| format!("job-{k:0width$}.ron");
    // Before the frontier, which may take long; the default depth is checked after it.
    let present = present_jobs(&a.out, n, &name)?;
    let this = SplitOf {
        puzzle: &puzzle,
        select,
        jobs: n,
    };
    this.check(&present, depth)?;
    let jobs = match jobs::make_jobs(&puzzle, select, split, n, &INTERRUPTED) {
        Ok(jobs) => jobs,
        Err(FrontierError::Stopped(_)) => return Ok(interrupted()),
        Err(e) => return Err(InputError::new("--split-depth", e.to_string())),
    };
    this.check(&present, Some(jobs[0].split_depth))?;
    // A signal that came after the frontier: still no file written.
    if INTERRUPTED.load(Ordering::SeqCst) {
        return Ok(interrupted());
    }
    let origin = a.out.display().to_string();
    std::fs::create_dir_all(&a.out)
        .map_err(|e| InputError::new(&origin, format!("cannot create --out directory: {e}")))?;
    let mut units = 0;
    // Files of this split that were there before: the same bytes as this run writes.
    let before: std::collections::HashSet<&Path> =
        present.iter().map(|p| p.path.as_path()).collect();
    let mut created = Vec::new();
    // Each file is written through a rename (a second Ctrl-C leaves none half-written),
    // and all are of this split, so running it again completes a stopped write.
    for job in &jobs {
        if INTERRUPTED.load(Ordering::SeqCst) {
            // A set of job files is whole or absent: what this run added goes.
            for path in &created {
                let _ = std::fs::remove_file(path);
            }
            eprintln!(
                "plytile: interrupted while writing the job files; removed the {} this run wrote",
                created.len()
            );
            return Ok(3);
        }
        units += job.prefixes.len();
        let path = a.out.join(name(job.job));
        write_output(&path, &jobs::job_to_ron(job))?;
        if !before.contains(&path.as_path()) {
            created.push(path);
        }
    }
    let depth = jobs[0].split_depth;
    if let Some(why) = why {
        eprintln!("{why}");
    }
    eprintln!("plytile: wrote {n} job files to {origin}: {units} subproblems at depth {depth}");
    if units < n {
        eprintln!(
            "plytile: note: {} of the job files have no subproblem (the tree has {units} at depth {depth}); fewer --jobs would do",
            n - units
        );
    }
    Ok(0)
}

/// Ctrl-C or SIGTERM while the frontier was built: exit code 3, as `solve` stopped.
fn interrupted() -> u8 {
    eprintln!("plytile: interrupted while building the frontier; no job files written");
    3
}

/// A file in `--out` named as a job file, and what it holds if it parses as one.
struct Present {
    path: PathBuf,
    job: std::result::Result<jobs::Job, String>,
}

/// The job files in `dir` (none if it does not exist yet). Names this split does not
/// write would be picked up by `jobs/*.ron` with it: refused here.
fn present_jobs(dir: &Path, n: usize, name: &dyn Fn(usize) -> String) -> Result<Vec<Present>> {
    let origin = dir.display().to_string();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            let m = format!("cannot read --out directory: {e}");
            return Err(InputError::new(&origin, m));
        }
    };
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.starts_with("job-") && f.ends_with(".ron"))
        .collect();
    files.sort();
    let ours: std::collections::HashSet<String> = (0..n).map(name).collect();
    let stale: Vec<&String> = files.iter().filter(|f| !ours.contains(*f)).collect();
    if !stale.is_empty() {
        let shown: Vec<&str> = stale.iter().take(3).map(|s| s.as_str()).collect();
        return Err(InputError::new(
            &origin,
            format!(
                "holds job files of another split ({}{}); remove them or choose another --out",
                shown.join(", "),
                if stale.len() > 3 { ", ..." } else { "" }
            ),
        ));
    }
    Ok(files
        .into_iter()
        .map(|f| {
            let path = dir.join(f);
            // Only the keys that name the split: the prefixes are checked by `solve`.
            // Read as every input is (`read_input`: at most 1 GiB).
            let job = crate::files::read_input(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| String::from_utf8(b).map_err(|e| e.to_string()))
                .and_then(|t| ron::from_str::<jobs::Job>(&t).map_err(|e| e.to_string()));
            Present { path, job }
        })
        .collect())
}

/// The keys that make two splits the same: equal keys write identical job files.
struct SplitOf<'a> {
    puzzle: &'a Puzzle,
    select: Heuristic,
    jobs: usize,
}

impl SplitOf<'_> {
    /// Refuses job files in `--out` of another split: overwriting them would orphan
    /// their results, and `merge` would find their puzzle gone. `depth`: this split's,
    /// once known. The same split again may rewrite its own files.
    fn check(&self, present: &[Present], depth: Option<usize>) -> Result<()> {
        for p in present {
            let origin = p.path.display().to_string();
            let differs = match &p.job {
                Err(e) => {
                    let m = format!("in --out but not a job file plytile can read ({e}); delete it or choose another --out");
                    return Err(InputError::new(origin, m));
                }
                Ok(job) => self.differences(job, depth),
            };
            if !differs.is_empty() {
                return Err(InputError::new(
                    origin,
                    format!(
                        "a job file of another split is in --out ({}); choose another --out, or delete that split's job files first",
                        differs.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn differences(&self, job: &jobs::Job, depth: Option<usize>) -> Vec<String> {
        let mut d = Vec::new();
        // Older files have no fingerprint: that of the puzzle they hold.
        let theirs = job
            .fingerprint
            .unwrap_or_else(|| crate::puzzle::fingerprint(&job.puzzle));
        if theirs != crate::puzzle::fingerprint(self.puzzle) {
            d.push(if job.puzzle.name == self.puzzle.name {
                format!("another puzzle named {}", job.puzzle.name)
            } else {
                format!("puzzle {}, not {}", job.puzzle.name, self.puzzle.name)
            });
        }
        if job.select != self.select {
            d.push(format!("--select {}, not {}", job.select, self.select));
        }
        if job.jobs != self.jobs {
            d.push(format!("{} jobs, not {}", job.jobs, self.jobs));
        }
        if let Some(k) = depth.filter(|&k| k != job.split_depth) {
            d.push(format!("split depth {}, not {k}", job.split_depth));
        }
        if job.format != jobs::TREE_FORMAT {
            d.push(format!("search tree format {}", job.format));
        }
        d
    }
}
