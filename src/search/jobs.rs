//! Job files (`plytile split`, `solve --job`): a share of the subproblems of one
//! search, to run on another machine; and the prefixes, as job files and checkpoints
//! ([`super::checkpoint`]) write them.
//!
//! A prefix is written as `[cell, piece, rotation]` triples from the root. Job files
//! are RON, checkpoints and results JSON. Every file names the puzzle, the heuristic
//! and the split depth, which fix the frontier ([`super::parallel::frontier`]).

use super::limits::Stats;
use super::parallel::Prefix;
use super::select::{Along, Heuristic};
use crate::error::{InputError, Result};
use crate::puzzle::formats::{check_ron_puzzle, from_ron, read_text, ron_lines};
use crate::puzzle::{fingerprint, scans_columns, Puzzle};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A prefix as written in files: `[cell, piece, rotation]` per placement.
pub type PrefixFile = Vec<[usize; 3]>;

pub fn prefix_to_file(p: &[(usize, u32)]) -> PrefixFile {
    p.iter()
        .map(|&(c, o)| [c, o as usize / 4, o as usize % 4])
        .collect()
}

pub fn prefix_from_file(p: &[[usize; 3]]) -> std::result::Result<Prefix, String> {
    let mut prefix = Vec::with_capacity(p.len());
    for &[c, piece, r] in p {
        if r > 3 || piece > u32::MAX as usize / 8 {
            return Err(format!("bad placement [{c}, {piece}, {r}]"));
        }
        prefix.push((c, (4 * piece + r) as u32));
    }
    Ok(prefix)
}

/// Prefixes front-coded, as checkpoints write what a record gave away: each entry is
/// `[kept, cell, piece, rotation, ...]`, the first `kept` placements of the prefix
/// before it (of `base` for the first) and then its own. Prefixes in search order
/// share all but their last placements, so an entry is a few numbers, not a path
/// from the root.
pub type FrontCoded = Vec<Vec<usize>>;

pub fn front_code(base: &[[usize; 3]], prefixes: &[PrefixFile]) -> FrontCoded {
    let mut prev = base;
    let mut out = Vec::with_capacity(prefixes.len());
    for p in prefixes {
        let kept = prev.iter().zip(p).take_while(|(a, b)| a == b).count();
        let mut e = Vec::with_capacity(1 + 3 * (p.len() - kept));
        e.push(kept);
        e.extend(p[kept..].iter().flatten());
        out.push(e);
        prev = p;
    }
    out
}

/// The prefixes of [`front_code`] again.
pub fn front_decode(
    base: &[[usize; 3]],
    coded: &[Vec<usize>],
) -> std::result::Result<Vec<PrefixFile>, String> {
    let mut out: Vec<PrefixFile> = Vec::with_capacity(coded.len());
    for (i, e) in coded.iter().enumerate() {
        let prev = out.last().map_or(base, |p| p.as_slice());
        let bad = |m: String| Err(format!("given_coded {}: {m}", i + 1));
        let Some((&kept, rest)) = e.split_first() else {
            return bad("is empty".into());
        };
        if kept > prev.len() || rest.len() % 3 != 0 {
            return bad(format!(
                "keeps {kept} placements of {} and adds {} numbers: not [kept, cell, piece, rotation, ...]",
                prev.len(),
                rest.len()
            ));
        }
        let mut p = prev[..kept].to_vec();
        p.extend(rest.chunks_exact(3).map(|c| [c[0], c[1], c[2]]));
        out.push(p);
    }
    Ok(out)
}

/// Parses `--shard i/n` (0 <= i < n).
pub fn parse_shard(s: &str) -> std::result::Result<(usize, usize), String> {
    let bad = || format!("'{s}' is not a shard i/n with 0 <= i < n (e.g. 0/4)");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Which search trees job prefixes and checkpoint records are cut from. Raise it when
/// a heuristic starts filling cells in another order: a prefix names its cells, so it
/// only means something in the tree it came from.
/// - 1 (files without the field): `scan` filled every board along its rows;
/// - 2: `scan` fills a board wider than tall along its columns.
pub const TREE_FORMAT: u32 = 2;

pub(crate) fn tree_format_1() -> u32 {
    1
}

/// Why a file of tree format `format` does not fit this plytile's search of `puzzle`
/// with `select`, if it does not. Format 1 differs only for scan on wide boards, so
/// older files stay usable everywhere else.
pub(crate) fn stale_tree(format: u32, puzzle: &Puzzle, select: Heuristic) -> Option<String> {
    if format > TREE_FORMAT {
        return Some(format!(
            "it was written by a newer plytile (search tree format {format}; this one knows up to {TREE_FORMAT})"
        ));
    }
    let rows_then = format < 2
        && select == Heuristic::Scan(Along::Shape)
        && scans_columns(puzzle.width, puzzle.height);
    rows_then.then(|| {
        format!(
            "it was written by an older plytile whose scan filled this {}x{} board along rows; scan now fills it along columns",
            puzzle.width, puzzle.height
        )
    })
}

// ---------------------------------------------------------------- job files

/// One job of `plytile split`: solve with `plytile solve --job FILE`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// The [`TREE_FORMAT`] of the prefixes.
    #[serde(default = "tree_format_1")]
    pub format: u32,
    /// This job's index, 0-based, and the number of jobs.
    pub job: usize,
    pub jobs: usize,
    pub select: Heuristic,
    /// Depth of the frontier the prefixes come from.
    pub split_depth: usize,
    /// The frontier's internal nodes per depth: counted by job 0 only, empty otherwise.
    pub frontier_nodes_per_depth: Vec<u64>,
    /// This job's subproblems: frontier units with index = job (mod jobs).
    pub prefixes: Vec<PrefixFile>,
    /// [`fingerprint`] of `puzzle` when split (absent in older files): an edit of the
    /// puzzle that leaves the prefixes its split would otherwise pass.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "bare_u64")]
    pub fingerprint: Option<u64>,
    pub puzzle: Puzzle,
}

/// An `Option<u64>` field written as a bare number (RON would write `Some(..)`); a
/// missing field is None (`#[serde(default)]`, and skipped when None).
mod bare_u64 {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        v.expect("a None field is skipped").serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        u64::deserialize(d).map(Some)
    }
}

/// A place in a job file, for [`Job::check_split`]'s messages: a prefix (0-based) or
/// a field of the top-level struct.
#[derive(Debug, Clone, Copy)]
enum JobAt {
    Prefix(usize),
    Field(&'static str),
}

impl Job {
    /// The prefixes as the search takes them. Those of a job from [`read_job`] are
    /// checked there, with the line of each in its file.
    pub fn units(&self, origin: &str) -> Result<Vec<Prefix>> {
        self.units_located(origin, &|_| None)
    }

    /// [`Job::units`]; `line_of` gives the line of a prefix in the job file.
    fn units_located(
        &self,
        origin: &str,
        line_of: &dyn Fn(JobAt) -> Option<usize>,
    ) -> Result<Vec<Prefix>> {
        self.prefixes
            .iter()
            .enumerate()
            .map(|(i, p)| {
                prefix_from_file(p).map_err(|e| {
                    let m = format!("prefix {}: {e}; run `plytile split` again", i + 1);
                    InputError::located(origin, line_of(JobAt::Prefix(i)), m)
                })
            })
            .collect()
    }

    /// Checks that the prefixes are exactly this job's share of its split (job k of n:
    /// the frontier units k, k + n, ... at `split_depth`, and for job 0 the frontier's
    /// counts), so a file edited by hand cannot drop, repeat or invent subproblems.
    /// `line_of` gives the line in the job file of what a message names.
    fn check_split(&self, origin: &str, line_of: &dyn Fn(JobAt) -> Option<usize>) -> Result<()> {
        let bad = |at: JobAt, m: String| {
            Err(InputError::located(
                origin,
                line_of(at),
                format!("{m}; run `plytile split` again"),
            ))
        };
        let prefix = |i: usize| match line_of(JobAt::Prefix(i)) {
            Some(l) => format!("prefix {} (line {l})", i + 1),
            None => format!("prefix {}", i + 1),
        };
        let d = self.split_depth;
        let top = self.puzzle.free_cells();
        if d > top {
            let m = format!("split_depth {d} is deeper than the board ({top})");
            return bad(JobAt::Field("split_depth"), m);
        }
        self.units_located(origin, line_of)?;
        let mut seen = rustc_hash::FxHashMap::default();
        seen.reserve(self.prefixes.len());
        for (i, p) in self.prefixes.iter().enumerate() {
            if p.len() != d {
                let m = format!(
                    "prefix {} has {} placements, not split_depth {d}",
                    i + 1,
                    p.len()
                );
                return bad(JobAt::Prefix(i), m);
            }
            if let Some(j) = seen.insert(p, i) {
                let m = format!("prefix {} repeats {}", i + 1, prefix(j));
                return bad(JobAt::Prefix(i), m);
            }
        }
        let split = super::parallel::Split::Depth(d);
        let f = super::parallel::full_frontier(&self.puzzle, self.select, split).map_err(|e| {
            InputError::located(origin, line_of(JobAt::Field("split_depth")), e.to_string())
        })?;
        let want: Vec<PrefixFile> = super::parallel::share(&f.units, self.job, self.jobs)
            .map(|p| prefix_to_file(p))
            .collect();
        let n = want.len().max(self.prefixes.len());
        if let Some(i) = (0..n).find(|&i| want.get(i) != self.prefixes.get(i)) {
            // Past the last prefix, the list itself is where one is missing.
            let at = if i < self.prefixes.len() {
                JobAt::Prefix(i)
            } else {
                JobAt::Field("prefixes")
            };
            let m = format!(
                "prefix {} is not subproblem {} of the split at depth {d} (job {} of {} has {})",
                i + 1,
                self.job + i * self.jobs,
                self.job,
                self.jobs,
                want.len()
            );
            return bad(at, m);
        }
        let counts = if self.job == 0 {
            trimmed(&f.internal.nodes_per_depth)
        } else {
            Vec::new()
        };
        if self.frontier_nodes_per_depth != counts {
            let m = "frontier_nodes_per_depth are not the split's".to_string();
            return bad(JobAt::Field("frontier_nodes_per_depth"), m);
        }
        Ok(())
    }

    /// The internal frontier counts this job owns.
    pub fn base(&self) -> Stats {
        Stats {
            nodes_per_depth: self.frontier_nodes_per_depth.clone(),
            ..Stats::default()
        }
    }
}

/// The `n` jobs of a search: frontier unit k goes to job k mod n; job 0 counts the
/// frontier's internal nodes.
/// `stop` (Ctrl-C) ends the frontier's expansion early, with no job.
pub fn make_jobs(
    puzzle: &Puzzle,
    h: Heuristic,
    split: super::parallel::Split,
    n: usize,
    stop: &std::sync::atomic::AtomicBool,
) -> std::result::Result<Vec<Job>, super::parallel::FrontierError> {
    let f = super::parallel::frontier_of(puzzle, h, split, &Default::default(), stop)?;
    Ok((0..n)
        .map(|i| Job {
            format: TREE_FORMAT,
            job: i,
            jobs: n,
            select: h,
            split_depth: f.depth,
            frontier_nodes_per_depth: if i == 0 {
                trimmed(&f.internal.nodes_per_depth)
            } else {
                Vec::new()
            },
            prefixes: super::parallel::share(&f.units, i, n)
                .map(|p| prefix_to_file(p))
                .collect(),
            fingerprint: Some(fingerprint(puzzle)),
            puzzle: puzzle.clone(),
        })
        .collect())
}

pub(crate) fn trimmed(v: &[u64]) -> Vec<u64> {
    trim(v.to_vec())
}

/// `v` without its trailing zeros.
pub(crate) fn trim(mut v: Vec<u64>) -> Vec<u64> {
    while v.last() == Some(&0) {
        v.pop();
    }
    v
}

pub fn job_to_ron(job: &Job) -> String {
    let cfg = ron::ser::PrettyConfig::new()
        .depth_limit(2)
        .struct_names(false);
    let mut s = ron::ser::to_string_pretty(job, cfg).expect("a job always serializes");
    s.push('\n');
    s
}

pub fn read_job(path: &Path) -> Result<Job> {
    let origin = path.display().to_string();
    let text = read_text(path)?;
    let job: Job = from_ron(
        &text,
        &origin,
        "not a valid job file (from `plytile split`)",
    )?;
    check_ron_puzzle(&job.puzzle, &text, &origin, &["puzzle"])?;
    // Found when a message needs them: each look walks the whole file.
    let prefixes = std::cell::OnceCell::new();
    let line_of = |at: JobAt| match at {
        JobAt::Prefix(i) => (prefixes.get_or_init(|| ron_lines(&text, &["prefixes"]).entries))
            .get(i)
            .copied(),
        JobAt::Field(f) => ron_lines(&text, &[f]).key,
    };
    // Before the split is checked: an edited puzzle may well give other prefixes, and
    // this says what is wrong. Files without a fingerprint go on to that check alone.
    if job
        .fingerprint
        .is_some_and(|f| f != fingerprint(&job.puzzle))
    {
        return Err(InputError::located(
            &origin,
            line_of(JobAt::Field("fingerprint")),
            "the puzzle in this job file is not the one it was split from (its fingerprint differs): the file was edited or damaged; run `plytile split` again",
        ));
    }
    if let Some(why) = stale_tree(job.format, &job.puzzle, job.select) {
        // A file without `format` is of format 1: its heuristic makes it stale.
        let line = line_of(JobAt::Field("format")).or(line_of(JobAt::Field("select")));
        return Err(InputError::located(
            &origin,
            line,
            format!(
                "this job file is for a different search tree ({why}); run `plytile split` again"
            ),
        ));
    }
    if job.jobs == 0 || job.job >= job.jobs {
        return Err(InputError::located(
            &origin,
            line_of(JobAt::Field("job")),
            format!("job {} of {} is out of range", job.job, job.jobs),
        ));
    }
    job.check_split(&origin, &line_of)?;
    Ok(job)
}
