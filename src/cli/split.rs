//! `plytile split`: the subproblems of one search as N job files for other machines.

use super::{write_output, PuzzleArgs};
use crate::error::{InputError, Result};
use crate::search::parallel::{Split, MAX_SPLIT_DEPTH, UNITS_PER_SHARD};
use crate::search::{jobs, Heuristic};
use clap::Args;
use std::path::PathBuf;

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
    #[arg(long, default_value = "scan", help = concat!("Site-selection heuristic: ", heuristics!()))]
    pub select: Heuristic,
    /// Depth of the frontier (default: the first level with at least 64 subproblems
    /// per job; the same frontier as `solve --shard i/N`).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(0..=MAX_SPLIT_DEPTH))]
    pub split_depth: Option<u64>,
}

pub fn run(a: SplitArgs) -> Result<u8> {
    let puzzle = a.input.load()?;
    let n = a.jobs as usize;
    let split = match super::split_depth(a.split_depth, &puzzle) {
        Some(d) => Split::Depth(d),
        None => Split::AtLeast(UNITS_PER_SHARD * n),
    };
    let jobs = jobs::make_jobs(&puzzle, a.select, split, n)?;
    let origin = a.out.display().to_string();
    std::fs::create_dir_all(&a.out)
        .map_err(|e| InputError::new(&origin, format!("cannot create --out directory: {e}")))?;
    let width = (n - 1).to_string().len().max(4);
    let name = |k: usize| format!("job-{k:0width$}.ron");
    // Job files this split does not write would be picked up by `jobs/*.ron` with it.
    let ours: std::collections::HashSet<String> = (0..n).map(name).collect();
    let mut stale: Vec<String> = std::fs::read_dir(&a.out)
        .map_err(|e| InputError::new(&origin, format!("cannot read --out directory: {e}")))?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.starts_with("job-") && f.ends_with(".ron") && !ours.contains(f))
        .collect();
    if !stale.is_empty() {
        stale.sort();
        return Err(InputError::new(
            &origin,
            format!(
                "holds job files of another split ({}{}); remove them or choose another --out",
                stale[..stale.len().min(3)].join(", "),
                if stale.len() > 3 { ", ..." } else { "" }
            ),
        ));
    }
    let mut units = 0;
    for job in &jobs {
        units += job.prefixes.len();
        write_output(&a.out.join(name(job.job)), &jobs::job_to_ron(job))?;
    }
    eprintln!(
        "plytile: wrote {n} job files to {origin}: {units} subproblems at depth {}",
        jobs[0].split_depth
    );
    Ok(0)
}
