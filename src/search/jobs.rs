//! Files for spreading one search over machines and time: job files (`split`), the
//! merge of results (`merge`), and checkpoints (`--checkpoint`).
//!
//! A prefix is written as `[cell, piece, rotation]` triples from the root. Job files
//! are RON, checkpoints and results JSON. Every file names the puzzle, the heuristic
//! and the split depth, which fix the frontier ([`super::parallel::frontier`]).

use super::compact::Finished;
use super::dfs::{Stats, Stop};
use super::parallel::{check_path, paths_pass, Prefix, Record};
use super::select::{Heuristic, Order, Select, Strategy};
use super::state::State;
use super::symmetry::{of_recorded_cut, part_files, Parts};
use crate::error::{InputError, Result};
use crate::puzzle::formats::{check_ron_puzzle, from_ron, read_text, ron_lines};
use crate::puzzle::{scans_columns, Board, Puzzle, MAX_SIDE};
use crate::report::{Deepest, Merged, SolveResult, SymmetryPart};
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

pub use crate::puzzle::fingerprint;
use crate::puzzle::{fnv1a, FNV_START};

/// Which search trees job prefixes and checkpoint records are cut from. Raise it when
/// a heuristic starts filling cells in another order: a prefix names its cells, so it
/// only means something in the tree it came from.
/// - 1 (files without the field): `scan` filled every board along its rows;
/// - 2: `scan` fills a board wider than tall along its columns.
pub const TREE_FORMAT: u32 = 2;

fn tree_format_1() -> u32 {
    1
}

/// Why a file of tree format `format` does not fit this plytile's search of `puzzle`
/// with `select`, if it does not. Format 1 differs only for scan on wide boards, so
/// older files stay usable everywhere else.
fn stale_tree(format: u32, puzzle: &Puzzle, select: Heuristic) -> Option<String> {
    if format > TREE_FORMAT {
        return Some(format!(
            "it was written by a newer plytile (search tree format {format}; this one knows up to {TREE_FORMAT})"
        ));
    }
    let rows_then =
        format < 2 && select == Heuristic::Scan && scans_columns(puzzle.width, puzzle.height);
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
) -> std::result::Result<Vec<Job>, super::parallel::Cut> {
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

fn trimmed(v: &[u64]) -> Vec<u64> {
    trim(v.to_vec())
}

/// `v` without its trailing zeros.
fn trim(mut v: Vec<u64>) -> Vec<u64> {
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

// ---------------------------------------------------------------- checkpoints

/// A finished subproblem as stored in a checkpoint.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecordFile {
    pub prefix: PrefixFile,
    pub nodes_per_depth: Vec<u64>,
    pub solutions_found: u64,
    pub solutions: Vec<Board>,
    pub deepest: usize,
    /// Empty but in the record whose deepest node is the checkpoint's deepest
    /// ([`super::compact`]).
    pub deepest_board: Board,
    /// Subtrees given to other workers (recorded separately, not counted here), as
    /// older files write them; now always empty, for `given_coded`.
    pub given: Vec<PrefixFile>,
    /// More of them, [`front_code`]d after `prefix` (absent when none, and in older
    /// files). The record gave away `given` and these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub given_coded: FrontCoded,
}

/// [`Finished`] as checkpoints write it: the subproblems as index ranges.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FinishedFile {
    /// `[start, end)` ranges of indices into the run's subproblems, increasing.
    pub units: Vec<[usize; 2]>,
    pub nodes_per_depth: Vec<u64>,
}

impl From<&Finished> for FinishedFile {
    fn from(f: &Finished) -> Self {
        let mut units: Vec<[usize; 2]> = Vec::new();
        for &u in &f.units {
            match units.last_mut() {
                Some(r) if r[1] == u => r[1] = u + 1,
                _ => units.push([u, u + 1]),
            }
        }
        FinishedFile {
            units,
            nodes_per_depth: trimmed(&f.nodes_per_depth),
        }
    }
}

/// The `--checkpoint` file: which run it belongs to and its finished subproblems.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Checkpoint {
    pub version: String,
    /// The [`TREE_FORMAT`] of the records' prefixes.
    #[serde(default = "tree_format_1")]
    pub format: u32,
    pub puzzle: String,
    pub fingerprint: u64,
    pub select: Heuristic,
    /// `--factor on` (absent in older files: off). Changes the tree, so it must match.
    #[serde(default)]
    pub factor: bool,
    /// `--move-order` (absent in older files: not checked). It orders the solutions
    /// and decides the deepest board, so a resumed run must keep it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_order: Option<Order>,
    pub split_depth: usize,
    pub shard: Option<[usize; 2]>,
    /// The trees of the `--symmetry` run this search is a part of, in search order
    /// (absent without `--symmetry` and in older files): a rerun takes its cut from
    /// here instead of estimating it again ([`super::symmetry`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symmetry_parts: Vec<CutTree>,
    /// Frontier subproblems searched to the end without a solution, summed instead of
    /// recorded (absent when none, and in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<FinishedFile>,
    pub records: Vec<RecordFile>,
    /// [`Checkpoint::digest`] of the rest, 16 hex digits, written on every save and
    /// required and checked on load: no check of the records can see a given-away
    /// subtree deleted from one. (An Option only while the rest is digested.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
}

/// One tree of a `--symmetry` cut as checkpoints record it: the corner pieces fixed
/// (`[row, col, piece, rotation]`), the heuristic, and the estimate that chose it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CutTree {
    pub corners: Vec<[usize; 4]>,
    pub select: Heuristic,
    #[serde(default)]
    pub estimated_nodes: Option<f64>,
}

impl Checkpoint {
    pub fn new(
        puzzle: &Puzzle,
        s: Strategy,
        split_depth: usize,
        shard: Option<[usize; 2]>,
        finished: &Finished,
        records: Vec<Record>,
    ) -> Self {
        Checkpoint {
            version: env!("CARGO_PKG_VERSION").to_string(),
            format: TREE_FORMAT,
            puzzle: puzzle.name.clone(),
            fingerprint: fingerprint(puzzle),
            select: s.select,
            factor: s.factor,
            move_order: Some(s.moves),
            split_depth,
            shard,
            symmetry_parts: Vec::new(),
            digest: None,
            finished: (!finished.units.is_empty()).then(|| finished.into()),
            records: records
                .into_iter()
                .map(|r| {
                    let prefix = prefix_to_file(&r.prefix);
                    let given: Vec<PrefixFile> =
                        r.given.iter().map(|p| prefix_to_file(p)).collect();
                    RecordFile {
                        given_coded: front_code(&prefix, &given),
                        given: Vec::new(),
                        prefix,
                        nodes_per_depth: trim(r.stats.nodes_per_depth),
                        solutions_found: r.stats.solutions_found,
                        solutions: r.stats.solutions,
                        deepest: r.stats.deepest,
                        deepest_board: r.stats.deepest_board,
                    }
                })
                .collect(),
        }
    }

    /// Whether this checkpoint is of the tree of `puzzle` (hints included) under `select`.
    pub fn is_for(&self, puzzle: &Puzzle, select: Heuristic) -> bool {
        self.fingerprint == fingerprint(puzzle) && self.select == select
    }

    /// FNV-1a of the checkpoint's JSON without its `digest` field, as 16 hex digits:
    /// the same whatever whitespace or key order a tool wrote, different after any
    /// change of a value. It catches damage and edits, not an adversary.
    pub fn digest(&self) -> String {
        let mut h = Fnv(FNV_START);
        self.write_bare(&mut h).expect("checkpoints serialize");
        h.hex()
    }

    /// Writes the checkpoint's JSON without its `digest` field to `w`.
    fn write_bare(&self, w: impl std::io::Write) -> serde_json::Result<()> {
        match self.digest {
            None => serde_json::to_writer(w, self),
            Some(_) => serde_json::to_writer(
                w,
                &Checkpoint {
                    digest: None,
                    ..self.clone()
                },
            ),
        }
    }

    /// Checks that this checkpoint belongs to the run described, naming what differs.
    /// `path` is the file, `cut` the `--symmetry` trees of the run (none without it).
    pub fn check(
        &self,
        path: &Path,
        puzzle: &Puzzle,
        s: Strategy,
        split_depth: usize,
        shard: Option<[usize; 2]>,
        cut: &[CutTree],
    ) -> Result<()> {
        let origin = path.display().to_string();
        let differ = |what: &str| {
            Err(InputError::new(
                &origin,
                format!("this checkpoint is for a different {what}; use another --checkpoint file or delete it"),
            ))
        };
        if self.fingerprint != fingerprint(puzzle) {
            // A tree of this puzzle's --symmetry run (the other way round, and other
            // cuts, `symmetry::recorded_cut` tells before the parts are searched).
            let held = Parts::of(&self.symmetry_parts);
            if let Some(held) = held.filter(|_| cut.is_empty() && of_recorded_cut(puzzle, self)) {
                return Err(InputError::new(
                    &origin,
                    format!(
                        "this checkpoint is of a tree of a --symmetry run (--symmetry-parts {held}), and this run is without --symmetry; rerun with --symmetry --symmetry-parts {held} to resume it, or delete {} to start again",
                        part_files(path)
                    ),
                ));
            }
            return differ(
                "puzzle or different hints (a --symmetry run fixes its anchor as a hint)",
            );
        }
        if let Some(why) = stale_tree(self.format, puzzle, s.select) {
            return differ(&format!("search tree ({why})"));
        }
        if self.select != s.select {
            return differ(&format!("heuristic (--select {})", self.select));
        }
        if self.factor != s.factor {
            return differ(&format!("factoring (--factor {})", on_off(self.factor)));
        }
        if let Some(moves) = self.move_order.filter(|&m| m != s.moves) {
            return differ(&format!("order of the placements (--move-order {moves})"));
        }
        if self.split_depth != split_depth {
            return differ(&format!("split depth (--split-depth {})", self.split_depth));
        }
        if self.shard != shard {
            return differ("shard or job");
        }
        Ok(())
    }

    /// The finished subproblems: the records, each checked as far as a record can be
    /// without searching it again (`RecordFile::record`), and the ones summed
    /// (`FinishedFile::finished`); their counts together are at most [`MAX_RESUMED`]
    /// nodes, so that what a run adds to them cannot overflow.
    pub fn records(
        self,
        origin: &str,
        puzzle: &Puzzle,
        s: Strategy,
    ) -> Result<(Vec<Record>, Finished)> {
        let too_many = format!(
            "the records count more than {MAX_RESUMED} nodes, more than any search makes (36 years at 10^9 nodes a second)"
        );
        let finished = match self.finished {
            None => Finished::default(),
            Some(f) => {
                let bad = |m: String| InputError::new(origin, format!("finished: {m}"));
                let f = f
                    .finished(puzzle.free_cells(), self.split_depth)
                    .map_err(bad)?;
                if f.stats().nodes() > MAX_RESUMED {
                    return Err(bad(too_many));
                }
                f
            }
        };
        let mut records = self.records;
        for (k, r) in records.iter_mut().enumerate() {
            let coded = std::mem::take(&mut r.given_coded);
            let more = front_decode(&r.prefix, &coded)
                .map_err(|m| InputError::new(origin, format!("record {}: {m}", k + 1)))?;
            r.given.extend(more);
        }
        let mut st = State::new(puzzle);
        let mut total: u64 = finished.stats().nodes();
        let read = |r: &RecordFile| {
            let given = r.given.iter().map(|g| prefix_from_file(g)).collect();
            (prefix_from_file(&r.prefix), given)
        };
        let read: Vec<(_, Vec<_>)> = records.iter().map(read).collect();
        let mut paths: Vec<&[(usize, u32)]> = (read.iter())
            .flat_map(|(p, given)| std::iter::once(p).chain(given))
            .filter_map(|p| p.as_deref().ok())
            .collect();
        crate::with_strategy!(s, &st, |sel| {
            // All paths at once; one by one only to name the first that fails.
            let checked = paths_pass(&mut st, &mut sel, &mut paths);
            (records.into_iter())
                .zip(read)
                .enumerate()
                .map(|(k, (r, (prefix, given)))| {
                    let bad = |m: String| InputError::new(origin, format!("record {}: {m}", k + 1));
                    let paths = Paths {
                        prefix,
                        given,
                        checked,
                    };
                    let rec = r.record(puzzle, &mut st, &mut sel, paths).map_err(bad)?;
                    total = total
                        .checked_add(rec.stats.nodes())
                        .filter(|&t| t <= MAX_RESUMED)
                        .ok_or_else(|| bad(too_many.clone()))?;
                    Ok(rec)
                })
                .collect::<Result<Vec<Record>>>()
        })
        .map(|records| (records, finished))
    }
}

/// The most nodes a checkpoint's records may count in all (2^60): a search that made
/// more would have run 36 years at 10^9 nodes a second. Below it, a run's sums of
/// its records, its new nodes and its `--symmetry` trees (solutions times 4) fit in
/// 64 bits.
pub const MAX_RESUMED: u64 = 1 << 60;

/// A record's prefix and the ones it gave away as read ([`prefix_from_file`]), and
/// whether [`paths_pass`] found all paths of the search (then each needs no
/// [`check_path`] of its own).
struct Paths {
    prefix: std::result::Result<Prefix, String>,
    given: Vec<std::result::Result<Prefix, String>>,
    checked: bool,
}

/// Checks nodes per depth `npd` counted from depth `d0` of a board of `top` free cells
/// as a search counts them: no depth past the board, nothing above `d0`, one start
/// node per subproblem (a record's one, or `summed` finished ones), no more children
/// than a node has (4 rotations of each piece left), and a sum below 2^64.
fn check_counts(
    npd: &[u64],
    top: usize,
    d0: usize,
    summed: Option<u64>,
) -> std::result::Result<(), String> {
    let (whose, starts) = match summed {
        None => ("the record's subproblem", 1),
        Some(n) => ("the finished subproblems", n),
    };
    if npd.len() > top + 1 {
        return Err(format!(
            "nodes_per_depth has {} depths, the board has {}",
            npd.len(),
            top + 1
        ));
    }
    if let Some(j) = (0..d0.min(npd.len())).find(|&j| npd[j] != 0) {
        return Err(format!(
            "nodes_per_depth counts {} nodes at depth {j}, above {whose} (depth {d0})",
            npd[j]
        ));
    }
    let start = npd.get(d0).copied().unwrap_or(0);
    if start != starts {
        let where_ = match summed {
            None => format!("{whose} starts: its start node is 1"),
            Some(n) => format!("{whose} start: they are {n}"),
        };
        return Err(format!(
            "nodes_per_depth counts {start} nodes at depth {d0}, where {where_}"
        ));
    }
    for j in d0..npd.len().saturating_sub(1) {
        let most = npd[j].saturating_mul(4 * (top - j) as u64);
        if npd[j + 1] > most {
            return Err(format!(
                "nodes_per_depth counts {} nodes at depth {} below {} at depth {j}, which have at most {most} children",
                npd[j + 1],
                j + 1,
                npd[j]
            ));
        }
    }
    checked_sum(npd.iter().copied()).ok_or("nodes_per_depth sums past 2^64")?;
    Ok(())
}

impl FinishedFile {
    /// The subproblems and counts as the search uses them, checked as far as they can
    /// be without the run's subproblems ([`super::parallel::resume`] checks the
    /// indices against them): increasing ranges, counted from depth `d0` as a search
    /// counts (one start node each), and no full board (a subproblem with solutions
    /// keeps its record).
    fn finished(self, top: usize, d0: usize) -> std::result::Result<Finished, String> {
        let mut units = Vec::new();
        let mut next = 0;
        for &[a, b] in &self.units {
            if a < next || b <= a || b - a > super::parallel::FRONTIER_MAX - units.len() {
                return Err(format!(
                    "units [{a}, {b}] is no range of subproblems after the ones before it"
                ));
            }
            units.extend(a..b);
            next = b;
        }
        let n = units.len() as u64;
        check_counts(&self.nodes_per_depth, top, d0, Some(n))?;
        if let Some(&full) = self.nodes_per_depth.get(top).filter(|&&f| f > 0) {
            return Err(format!(
                "nodes_per_depth counts {full} full boards at depth {top}, but finished subproblems hold no solutions"
            ));
        }
        Ok(Finished {
            units,
            nodes_per_depth: self.nodes_per_depth,
        })
    }
}

impl RecordFile {
    /// This record as the search uses it, checked as far as a record can be without
    /// searching it again: its prefix and the ones it gave away are paths of the search
    /// tree of `sel` ([`check_path`], unless [`Paths::checked`]), the latter strictly
    /// below the former; it counts its start node once, nothing above it,
    /// no depth past the board and no more children than a node has (4 rotations of
    /// each piece left); its count of full boards is its count of solutions; and every
    /// solution it brings passes the independent checker, lies below its prefix and
    /// outside the subtrees it gave away, and is there once. (That the records fit
    /// together is [`super::parallel::resume`]'s to check; a board in two records is
    /// inside one record's given-away subtree, or the records are of one subproblem.)
    fn record<S: Select>(
        self,
        puzzle: &Puzzle,
        st: &mut State,
        sel: &mut S,
        paths: Paths,
    ) -> std::result::Result<Record, String> {
        let top = puzzle.free_cells();
        let prefix = paths.prefix.map_err(|e| format!("prefix: {e}"))?;
        if !paths.checked {
            check_path(st, sel, &prefix).map_err(|e| format!("prefix: {e}"))?;
        }
        let mut given = Vec::with_capacity(self.given.len());
        for (i, g) in paths.given.into_iter().enumerate() {
            let at = |e: String| format!("given {}: {e}", i + 1);
            let g = g.map_err(at)?;
            if g.len() <= prefix.len() || !g.starts_with(&prefix) {
                return Err(at(format!(
                    "the record gives away {:?}, which is not below it",
                    self.given[i]
                )));
            }
            if !paths.checked {
                check_path(st, sel, &g).map_err(at)?;
            }
            given.push(g);
        }
        check_counts(&self.nodes_per_depth, top, prefix.len(), None)?;
        // A node at the full depth is a full board, which the search counts as a
        // solution.
        let full = self.nodes_per_depth.get(top).copied().unwrap_or(0);
        if self.solutions_found != full || self.solutions.len() as u64 > full {
            return Err(format!(
                "{} solutions found and {} kept, but {full} nodes at the full depth",
                self.solutions_found,
                self.solutions.len()
            ));
        }
        let below = |b: &Board, p: &[(usize, u32)]| {
            p.iter()
                .find(|&&(c, o)| {
                    b.get(c).copied().flatten() != Some((o as usize / 4, (o % 4) as u8))
                })
                .map(|&(c, _)| c)
        };
        for (i, b) in self.solutions.iter().enumerate() {
            if let Err(v) = crate::puzzle::verify::check(puzzle, b, true) {
                return Err(format!("solution {} is not a solution: {v}", i + 1));
            }
            // A record's solutions lie below its own subproblem.
            if let Some(c) = below(b, &prefix) {
                return Err(format!(
                    "solution {} does not hold the record's placement at cell {c}",
                    i + 1
                ));
            }
            if let Some(g) = given.iter().position(|g| below(b, g).is_none()) {
                return Err(format!(
                    "solution {} lies in the subtree the record gave away (given {}): another record counts it",
                    i + 1,
                    g + 1
                ));
            }
        }
        if let Some((a, b)) = crate::puzzle::verify::first_repeat(&self.solutions) {
            return Err(format!("solution {} repeats solution {}", b + 1, a + 1));
        }
        if self.deepest > top {
            return Err(format!(
                "deepest {} is deeper than the board ({top})",
                self.deepest
            ));
        }
        let cells = puzzle.cells();
        let b = &self.deepest_board;
        if !b.is_empty() && b.len() != cells {
            return Err(format!(
                "deepest_board has {} cells, the board has {cells}",
                b.len()
            ));
        }
        if let Some((c, (p, r))) = b
            .iter()
            .enumerate()
            .find_map(|(c, x)| x.filter(|&(p, r)| p >= cells || r > 3).map(|x| (c, x)))
        {
            return Err(format!(
                "deepest_board cell {c} holds piece {p} rotation {r}, which the puzzle does not have"
            ));
        }
        Ok(Record {
            prefix,
            stats: Stats {
                nodes_per_depth: self.nodes_per_depth,
                solutions_found: self.solutions_found,
                solutions: self.solutions,
                deepest: self.deepest,
                deepest_board: self.deepest_board,
                stopped: None,
            },
            given,
        })
    }
}

/// Reads a checkpoint; `None` when the file does not exist yet, or is empty (plytile
/// never writes an empty one: `touch` or `mktemp` made it for the run to fill).
pub fn read_checkpoint(path: &Path) -> Result<Option<Checkpoint>> {
    let origin = path.display().to_string();
    match crate::files::read_input(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(InputError::new(origin, format!("cannot read: {e}"))),
        Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Ok(None),
        Ok(bytes) => {
            let text = String::from_utf8(bytes)
                .map_err(|_| InputError::new(&origin, "not a text file (invalid UTF-8)"))?;
            let mut ck: Checkpoint = serde_json::from_str(&text).map_err(|e| {
                InputError::at(
                    &origin,
                    e.line(),
                    format!("not a plytile checkpoint: {e}; give --checkpoint another path, or delete it to search from the start"),
                )
            })?;
            // Taken out while the rest is digested, so that the rest need not be copied.
            // Every file plytile writes has one (0.1.0's too): a missing or null digest
            // would let edited records through.
            match ck.digest.take() {
                None => Err(InputError::new(
                    origin,
                    "has no digest, so it was edited or damaged since plytile wrote it; delete it to search from the start",
                )),
                Some(d) if d != ck.digest() => Err(InputError::new(
                    origin,
                    "was edited or damaged since plytile wrote it (its digest does not match its content); delete it to search from the start",
                )),
                d => {
                    ck.digest = d;
                    Ok(Some(ck))
                }
            }
        }
    }
}

/// FNV-1a of the bytes written to it, continued from its value: a digest without
/// the text in memory.
struct Fnv(u64);

impl Fnv {
    /// As checkpoints write a digest: 16 hex digits.
    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

impl std::io::Write for Fnv {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 = fnv1a(self.0, bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Writes a checkpoint through a temporary file and a rename ([`crate::files`]).
pub fn write_checkpoint(path: &Path, ck: &Checkpoint) -> Result<()> {
    let origin = path.display().to_string();
    crate::files::write_with(path, |w| write_checkpoint_to(w, ck))
        .map_err(|e| InputError::new(origin, format!("cannot write the checkpoint: {e}")))
}

/// A checkpoint's file: its JSON with the digest of the rest as the last field,
/// written as it is digested.
fn write_checkpoint_to(w: &mut dyn std::io::Write, ck: &Checkpoint) -> std::io::Result<()> {
    use std::io::Write;
    let mut held = HeldBrace {
        w,
        hash: Fnv(FNV_START),
        last: None,
    };
    // In big pieces: serde writes a few bytes at a time.
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, &mut held);
    ck.write_bare(&mut buffered)?;
    buffered.flush()?;
    drop(buffered);
    // The object's last field, where serde writes it (after `records`).
    assert_eq!(held.last, Some(b'}'), "a checkpoint is a JSON object");
    write!(held.w, ",\"digest\":\"{}\"}}", held.hash.hex())
}

/// Passes what is written to it on to `w` but for its last byte, held back (the
/// closing brace of a checkpoint, before which its digest goes), and digests all.
struct HeldBrace<'a> {
    w: &'a mut dyn std::io::Write,
    hash: Fnv,
    last: Option<u8>,
}

impl std::io::Write for HeldBrace<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let Some((&end, rest)) = bytes.split_last() else {
            return Ok(0);
        };
        self.hash.write_all(bytes)?;
        if let Some(b) = self.last {
            self.w.write_all(&[b])?;
        }
        self.w.write_all(rest)?;
        self.last = Some(end);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.w.flush()
    }
}

// ---------------------------------------------------------------- merge

/// Adds the counts of `r`, a disjoint part of the same search, into `m` ([`try_absorb`])
/// where the counts are known to fit: the trees of one `--symmetry` run, whose counts
/// are this run's and its checkpoints' (at most [`MAX_RESUMED`] each).
pub fn absorb(m: &mut SolveResult, r: &SolveResult, keep: usize) {
    if let Err(e) = try_absorb(m, r, keep) {
        panic!("internal error: {e}");
    }
}

/// Adds the counts of `r`, a disjoint part of the same search, into `m`: nodes per
/// depth, nodes and solutions summed (boards kept up to `keep`), threads and
/// subproblems summed, the longest elapsed time, the deeper deepest node, exhaustive
/// only if both are, and a stop by `--solutions` (which cut a count) named before any
/// other. Counts that would pass 2^64 leave `m` as it was and say so.
pub fn try_absorb(
    m: &mut SolveResult,
    r: &SolveResult,
    keep: usize,
) -> std::result::Result<(), String> {
    let over = |what: &str| format!("{what} sum past 2^64");
    let mut npd = m.nodes_per_depth.clone();
    if npd.len() < r.nodes_per_depth.len() {
        npd.resize(r.nodes_per_depth.len(), 0);
    }
    for (a, b) in npd.iter_mut().zip(&r.nodes_per_depth) {
        *a = a.checked_add(*b).ok_or_else(|| over("nodes_per_depth"))?;
    }
    let nodes = m.nodes.checked_add(r.nodes).ok_or_else(|| over("nodes"))?;
    let resumed =
        (m.resumed_nodes.checked_add(r.resumed_nodes)).ok_or_else(|| over("resumed_nodes"))?;
    let found = (m.solutions_found.checked_add(r.solutions_found))
        .ok_or_else(|| over("solutions_found"))?;
    (
        m.nodes_per_depth,
        m.nodes,
        m.resumed_nodes,
        m.solutions_found,
    ) = (npd, nodes, resumed, found);
    let room = keep.saturating_sub(m.solutions.len());
    // Where the boards were found, while both say it for every board.
    let keyed =
        m.solutions_from.len() == m.solutions.len() && r.solutions_from.len() == r.solutions.len();
    m.solutions.extend(r.solutions.iter().take(room).cloned());
    if keyed {
        m.solutions_from
            .extend(r.solutions_from.iter().take(room).copied());
    } else {
        m.solutions_from.clear();
    }
    m.threads = m.threads.saturating_add(r.threads);
    m.subproblems = m.subproblems.saturating_add(r.subproblems);
    m.elapsed_s = m.elapsed_s.max(r.elapsed_s);
    m.exhaustive &= r.searched_out();
    m.stopped_by = match (m.stopped_by, r.stopped_by) {
        (_, Some(Stop::Solutions)) => Some(Stop::Solutions),
        (a, b) => a.or(b),
    };
    if r.deepest.depth > m.deepest.depth || m.deepest.board.is_empty() {
        m.deepest = r.deepest.clone();
        m.deepest_from = r.deepest_from;
    }
    if m.checkpoint_error.is_none() {
        m.checkpoint_error.clone_from(&r.checkpoint_error);
    }
    Ok(())
}

/// Sums results of shards or jobs of one search into one result (`plytile merge`);
/// [`merge_with`] without a puzzle.
pub fn merge(parts: &[(String, SolveResult)], keep: usize) -> Result<(SolveResult, Vec<String>)> {
    merge_with(parts, keep, None)
}

/// Sums results of shards or jobs of one search into one result (`plytile merge`),
/// each first checked by [`check_result`] (against `puzzle` when given).
///
/// Nodes per depth and solution counts are summed (per `--symmetry` tree too),
/// solutions gathered in search order (at most `keep`; in shard order from results
/// of older versions, see `boards_in_search_order`), the deepest node is the first
/// in search order of the deepest, `elapsed_s` is the longest run (the wall time when all ran at
/// once) and `threads` the sum. The result
/// is exhaustive only when every part is and the shards `0/n .. n-1/n` are all there.
/// Returns the result and warnings for stderr.
pub fn merge_with(
    parts: &[(String, SolveResult)],
    keep: usize,
    puzzle: Option<&Puzzle>,
) -> Result<(SolveResult, Vec<String>)> {
    let Some((first_name, first)) = parts.first() else {
        return Err(InputError::new("merge", "no results given"));
    };
    let mut warnings = Vec::new();
    let size = |r: &SolveResult| format!("{} {}x{}", r.puzzle, r.width, r.height);
    // Files from before the fingerprint have none: they merge by name alone.
    let known = parts
        .iter()
        .find_map(|(name, r)| Some((name, r.puzzle_fingerprint()?, r)));
    for (name, r) in parts {
        check_result(name, r, puzzle)?;
        match (known, r.puzzle_fingerprint()) {
            (Some((other, f, o)), Some(g)) if f != g => {
                let why = if o.puzzle != r.puzzle {
                    format!("{}, not {}", size(r), size(o))
                } else {
                    "other pieces or hints under the same name: the fingerprints differ".into()
                };
                return Err(InputError::new(
                    name,
                    format!("is a result of another puzzle than {other} ({why})"),
                ));
            }
            _ => {}
        }
    }
    // Before comparing them: a whole search beside shards differs from them in its
    // split depth too, which would say less.
    if let Some((name, _)) = parts.iter().find(|(_, r)| shards_of(r).is_none()) {
        return Err(InputError::new(
            name,
            "is a whole search (no --shard or --job): merge takes the results of `solve --shard i/n` or `solve --job FILE`, or of merge",
        ));
    }
    for (name, r) in &parts[1..] {
        // Equal fingerprints (checked above) make the same puzzle whatever its name: a
        // cluster may stage the file under another one.
        let same_pieces = r.puzzle_fingerprint().is_some() && first.puzzle_fingerprint().is_some();
        if same_pieces && r.puzzle != first.puzzle {
            warnings.push(format!(
                "{name}: its puzzle is named {}, that of {first_name} {}: the same pieces and hints (their fingerprints agree), merged as {}",
                r.puzzle, first.puzzle, first.puzzle
            ));
        }
        if let Some(why) = other_cut(r, first, first_name) {
            return Err(InputError::new(
                name,
                format!("{why}; merge the shards of one run"),
            ));
        }
        let facts = |r: &SolveResult| {
            // A shard stopped before its frontier was cut searched nothing and has no
            // split depth: it fits any.
            let depth = match r.split_depth {
                None if r.nodes == 0 => None,
                d => Some(d.map_or("none".into(), |d| d.to_string())),
            };
            [
                ("puzzle", (!same_pieces).then(|| size(r))),
                ("--select", Some(r.select.to_string())),
                ("--factor", Some(on_off(r.factor).to_string())),
                // It orders the boards (and which are kept), not the counts.
                ("--move-order", Some(r.move_order.to_string())),
                ("split depth", depth),
            ]
        };
        let differ: Vec<String> = (facts(r).into_iter().zip(facts(first)))
            .filter_map(|((what, a), (_, b))| match (a, b) {
                (Some(a), Some(b)) if a != b => Some(format!("{what} {a}, not {b}")),
                _ => None,
            })
            .collect();
        if !differ.is_empty() {
            return Err(InputError::new(
                name,
                format!(
                    "is not a part of the same search as {first_name} ({}); merge the shards or jobs of one search",
                    differ.join("; ")
                ),
            ));
        }
    }
    // Which shards are there? (Before the boards: a shard given twice, or one of
    // another split, holds boards of the others too.)
    let n = shards_of(first).map(|(_, n)| n);
    let mut seen = vec![None::<&str>; n.unwrap_or(0)];
    for (name, r) in parts {
        match (shards_of(r), n) {
            (Some((have, m)), Some(n)) if m == n => {
                for i in have {
                    if i >= n {
                        return Err(InputError::new(
                            name,
                            format!("shard {i}/{n} is out of range (0 <= i < n)"),
                        ));
                    }
                    match seen[i] {
                        Some(other) if other == name => {
                            return Err(InputError::new(
                                name,
                                "is given twice: it would be counted twice; give each shard once",
                            ))
                        }
                        Some(other) => {
                            return Err(InputError::new(
                                name,
                                format!("shard {i}/{n} is also in {other}: it would be counted twice; give one of them"),
                            ))
                        }
                        None => seen[i] = Some(name),
                    }
                }
            }
            _ => {
                return Err(InputError::new(
                    name,
                    format!(
                        "is {}, {first_name} {}: not shards of one split; merge the results of `solve --shard i/n` with one n, or of `solve --job FILE` with the jobs of one `split`",
                        part_name(r),
                        part_name(first)
                    ),
                ))
            }
        }
    }
    // The shards' trees are disjoint, so a board in two places was put there by hand.
    let (boards, at): (Vec<_>, Vec<_>) = parts
        .iter()
        .flat_map(|(name, r)| {
            r.solutions
                .iter()
                .enumerate()
                .map(move |(i, b)| (b, (name, i)))
        })
        .unzip();
    if let Some((a, b)) = crate::puzzle::verify::first_repeat(&boards) {
        let ((other, j), (name, i)) = (at[a], at[b]);
        return Err(InputError::new(
            name,
            format!("solution {} is the same board as solution {} of {other}: it would be counted twice", i + 1, j + 1),
        ));
    }
    check_found_at(parts)?;
    let missing: Vec<String> = (0..seen.len())
        .filter(|&i| seen[i].is_none())
        .map(|i| i.to_string())
        .collect();
    let complete = missing.is_empty();
    if !complete {
        warnings.push(format!(
            "shards missing: {} of {}; the sum is not the whole search",
            missing.join(", "),
            n.unwrap_or(0)
        ));
    }
    let mut order: Vec<(&str, &SolveResult)> = parts.iter().map(|(n, r)| (n.as_str(), r)).collect();
    order.sort_by_key(|(_, r)| shards_of(r).map(|(have, _)| have.first().copied()));
    let mut m = first.clone();
    m.split_depth = parts.iter().find_map(|(_, r)| r.split_depth);
    m.shard = None;
    m.merged = n.map(|of| Merged {
        shards: (0..of).filter(|&i| seen[i].is_some()).collect(),
        of,
    });
    m.threads = 0;
    m.solutions_found = 0;
    m.nodes = 0;
    m.resumed_nodes = 0;
    m.nodes_per_depth = Vec::new();
    m.solutions = Vec::new();
    m.solutions_from = Vec::new();
    m.deepest_from = None;
    m.elapsed_s = 0.0;
    m.subproblems = 0;
    m.exhaustive = complete;
    m.stopped_by = None;
    m.deepest = Deepest {
        depth: 0,
        board: Vec::new(),
    };
    // The trees of the shard that got furthest (a stopped one lists fewer; theirs
    // agree as far as they go).
    let furthest = parts
        .iter()
        .map(|(_, r)| &r.symmetry_parts)
        .max_by_key(|t| t.len());
    m.symmetry_parts = furthest.cloned().unwrap_or_default();
    for t in &mut m.symmetry_parts {
        (t.nodes, t.solutions_found) = (0, 0);
    }
    for &(name, r) in &order {
        let over = |e: String| InputError::new(name, format!("cannot be added to the others: {e}"));
        try_absorb(&mut m, r, keep).map_err(over)?;
        for (t, u) in m.symmetry_parts.iter_mut().zip(&r.symmetry_parts) {
            t.nodes = t
                .nodes
                .checked_add(u.nodes)
                .ok_or_else(|| over("symmetry_parts nodes sum past 2^64".into()))?;
            t.solutions_found = (t.solutions_found.checked_add(u.solutions_found))
                .ok_or_else(|| over("symmetry_parts solutions_found sum past 2^64".into()))?;
        }
    }
    boards_in_search_order(&mut m, &order, keep, &mut warnings);
    m.set_rate();
    Ok((m, warnings))
}

/// The shards of a split that `r` holds, and into how many the split cut: one for a
/// `--shard` or `--job` result, those it sums for a `merge` result, none for a whole
/// search.
fn shards_of(r: &SolveResult) -> Option<(Vec<usize>, usize)> {
    match (&r.shard, &r.merged) {
        (Some([i, n]), _) => Some((vec![*i], *n)),
        (None, Some(m)) => Some((m.shards.clone(), m.of)),
        (None, None) => None,
    }
}

/// Whether subproblem `from` can be in `r`'s share. In the natural move order a place
/// is the index in the frontier, which the split dealt out by k mod n; under
/// `--move-order penalty` places follow that order, and any may be a shard's.
fn in_share(r: &SolveResult, from: &[usize; 2]) -> bool {
    match shards_of(r) {
        Some((have, n)) if r.move_order == Order::Natural => have.contains(&(from[1] % n)),
        _ => true,
    }
}

/// What `r` is of a split, for messages: "shard 1/3", "a merge of shards 0, 2 of 3".
fn part_name(r: &SolveResult) -> String {
    match (&r.shard, &r.merged) {
        (Some([i, n]), _) => format!("shard {i}/{n}"),
        (None, Some(m)) => {
            let list: Vec<String> = m.shards.iter().map(|i| i.to_string()).collect();
            format!("a merge of shards {} of {}", list.join(", "), m.of)
        }
        (None, None) => "a whole search (no --shard or --job)".to_string(),
    }
}

/// Lists the boards of `parts` (in shard order, summed into `m` by [`try_absorb`]) as
/// the whole search would: the first `keep` solutions in search order, and the first
/// deepest board in search order. A shard's boards are in its own search order, and
/// `solutions_from` and `deepest_from` say where each comes in the whole search's
/// (shard i of n holds the frontier's subproblems i, i + n, ...). Results of older
/// versions do not say: their boards stay in shard order, with a warning.
fn boards_in_search_order(
    m: &mut SolveResult,
    parts: &[(&str, &SolveResult)],
    keep: usize,
    warnings: &mut Vec<String>,
) {
    let keyed = |r: &SolveResult| r.solutions_from.len() == r.solutions.len();
    let with_boards: Vec<_> = parts
        .iter()
        .filter(|(_, r)| !r.solutions.is_empty())
        .collect();
    let old_boards = with_boards.iter().find(|(_, r)| !keyed(r)).map(|p| p.0);
    match old_boards {
        Some(_) => m.solutions_from.clear(),
        None => {
            let mut all: Vec<([usize; 2], &Vec<[usize; 2]>)> = parts
                .iter()
                .flat_map(|(_, r)| r.solutions_from.iter().copied().zip(&r.solutions))
                .collect();
            // Stable: one subproblem's boards are all in one part, in its order.
            all.sort_by_key(|&(from, _)| from);
            all.truncate(keep);
            m.solutions = all.iter().map(|&(_, b)| b.clone()).collect();
            m.solutions_from = all.iter().map(|&(from, _)| from).collect();
            // A part that kept fewer boards than it found (its --keep) may have left
            // out boards that come before later ones of the others.
            let cut = parts
                .iter()
                .filter(|(_, r)| (r.solutions.len() as u64) < r.solutions_found)
                .map(|&(name, r)| (r.solutions_from.last().copied(), name, r))
                .min_by_key(|(last, _, _)| *last);
            if let Some((last, name, r)) = cut {
                let sure = m
                    .solutions_from
                    .iter()
                    .filter(|&&f| Some(f) <= last)
                    .count();
                // Past them, a board it dropped may come first: no list with a hole (and
                // a merge of this result takes the list as sure).
                if sure < m.solutions.len() {
                    m.solutions.truncate(sure);
                    m.solutions_from.truncate(sure);
                    warnings.push(format!(
                        "{name} kept {} of its {} solution boards (its --keep), and a board it dropped may come before the next of the others: {sure} listed; solve the shards with --keep {} or more",
                        r.solutions.len(),
                        r.solutions_found,
                        keep
                    ));
                }
            }
        }
    }
    // The deepest: the first in search order of the parts' deepest boards at the
    // greatest depth (try_absorb took the first in shard order).
    let tied: Vec<_> = parts
        .iter()
        .filter(|(_, r)| r.deepest.depth == m.deepest.depth && !r.deepest.board.is_empty())
        .collect();
    let old_deepest = tied
        .iter()
        .find(|(_, r)| r.deepest_from.is_none())
        .map(|p| p.0);
    match old_deepest {
        Some(_) => m.deepest_from = None,
        None => {
            let first = tied.iter().min_by_key(|(_, r)| r.deepest_from);
            if let Some((_, r)) = first {
                m.deepest.clone_from(&r.deepest);
                m.deepest_from = r.deepest_from;
            }
        }
    }
    let boards = old_boards.filter(|_| with_boards.len() > 1);
    let deepest = old_deepest.filter(|_| tied.len() > 1);
    let what = match (boards, deepest) {
        (Some(_), Some(_)) => "the solution boards are listed shard by shard and the deepest board is the first shard's",
        (Some(_), None) => "the solution boards are listed shard by shard",
        (None, Some(_)) => "the deepest board is the first shard's of that depth",
        (None, None) => return,
    };
    let name = boards.or(deepest).expect("one of them");
    warnings.push(format!(
        "{name} does not say where its boards were found (solutions_from, deepest_from: a result of an older plytile): {what}, not in search order"
    ));
}

/// Checks the `solutions_from` of `parts`, where their boards were found: one entry
/// per board, each of a tree the result searched, in search order within a part, and
/// no subproblem in two parts (each shard has its own).
fn check_found_at(parts: &[(String, SolveResult)]) -> Result<()> {
    let mut all = Vec::new();
    for (name, r) in parts {
        let from = &r.solutions_from;
        let bad = |m: String| {
            Err(InputError::new(
                name,
                format!("{m}: the file was edited or damaged; {}", r.redo()),
            ))
        };
        // [0, 0] also stands for a deepest board above the frontier (no subproblem).
        if let Some(f) = r.deepest_from.filter(|f| *f != [0, 0] && !in_share(r, f)) {
            return bad(format!(
                "deepest_from names subproblem {}, which is not in the share of {}",
                f[1],
                part_name(r)
            ));
        }
        if from.is_empty() {
            continue;
        }
        if from.len() != r.solutions.len() {
            return bad(format!(
                "solutions_from has {} entries for {} solution boards",
                from.len(),
                r.solutions.len()
            ));
        }
        let trees = r.symmetry_parts.len().max(1);
        if let Some(k) = from.iter().position(|f| f[0] >= trees) {
            return bad(format!(
                "solutions_from {} names tree {}, but the result searched {trees}",
                k + 1,
                from[k][0]
            ));
        }
        if let Some(k) = from.iter().position(|f| !in_share(r, f)) {
            return bad(format!(
                "solutions_from {} names subproblem {}, which is not in the share of {}",
                k + 1,
                from[k][1],
                part_name(r)
            ));
        }
        if let Some(k) = from.windows(2).position(|w| w[1] < w[0]) {
            return bad(format!(
                "solutions_from is not in search order ({} is {:?}, {} {:?})",
                k + 1,
                from[k],
                k + 2,
                from[k + 1]
            ));
        }
        all.extend(from.iter().enumerate().map(|(i, f)| (*f, name, i)));
    }
    all.sort();
    if let Some(w) = all
        .windows(2)
        .find(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
    {
        let ((f, other, j), (_, name, i)) = (w[0], w[1]);
        return Err(InputError::new(
            name,
            format!(
                "solution {} was found in subproblem {f:?}, as was solution {} of {other}: each subproblem is one shard's; merge the shards of one run",
                i + 1,
                j + 1
            ),
        ));
    }
    Ok(())
}

/// The checks of [`check_result`] that need no puzzle and come before the depths:
/// the board's size, the kept and deepest boards' cells, the `--symmetry` trees and
/// their sums.
fn check_shape(name: &str, r: &SolveResult) -> Result<()> {
    let bad = |m: String| Err(InputError::new(name, m));
    let (w, h) = (r.width, r.height);
    if !(2..=MAX_SIDE).contains(&w) || !(2..=MAX_SIDE).contains(&h) {
        return bad(format!(
            "is of a {w}x{h} board; each side must be 2..={MAX_SIDE}"
        ));
    }
    let cells = w * h;
    let fits = |&[piece, rot]: &[usize; 2]| piece < cells && rot <= 3;
    let not_placement = |what: String, [piece, rot]: [usize; 2]| {
        bad(format!(
            "{what} holds [{piece}, {rot}], which is no placement on a {w}x{h} board (piece below {cells}, rotation 0 to 3)"
        ))
    };
    for (i, b) in r.solutions.iter().enumerate() {
        if b.len() != cells {
            return bad(format!(
                "solution {} has {} cells, a {w}x{h} board has {cells}",
                i + 1,
                b.len(),
            ));
        }
        if let Some(c) = b.iter().position(|x| !fits(x)) {
            return not_placement(format!("solution {} cell {c}", i + 1), b[c]);
        }
    }
    let deepest = &r.deepest.board;
    if !deepest.is_empty() && deepest.len() != cells {
        return bad(format!(
            "deepest.board has {} cells, a {w}x{h} board has {cells}",
            deepest.len()
        ));
    }
    if let Some((c, x)) =
        (deepest.iter().enumerate()).find_map(|(c, x)| x.filter(|x| !fits(x)).map(|x| (c, x)))
    {
        return not_placement(format!("deepest.board cell {c}"), x);
    }
    // --symmetry's trees.
    let parts = &r.symmetry_parts;
    let turns = if w == h { 4 } else { 2 };
    if r.symmetry != 1 && r.symmetry != turns || r.symmetry == 1 && !parts.is_empty() {
        return bad(format!(
            "symmetry is {} with {} symmetry_parts; a {w}x{h} board has 1 (no parts) or {turns}",
            r.symmetry,
            parts.len()
        ));
    }
    let most_parts = if w == h { 3 } else { 2 };
    if parts.len() > most_parts {
        return bad(format!(
            "lists {} symmetry_parts; --symmetry searches at most {most_parts} trees of a {w}x{h} board",
            parts.len()
        ));
    }
    let fixed = parts.first().map_or(0, |t| t.corners.len());
    for (i, t) in parts.iter().enumerate() {
        if !(1..=2).contains(&t.corners.len()) || t.corners.len() != fixed {
            return bad(format!(
                "symmetry part {} fixes {} corners, part 1 {fixed} (each tree fixes 1 or 2)",
                i + 1,
                t.corners.len()
            ));
        }
        let corner = |&[row, col, piece, rot]: &[usize; 4]| {
            (row == 0 || row == h - 1) && (col == 0 || col == w - 1) && piece < cells && rot <= 3
        };
        if let Some(c) = t.corners.iter().find(|c| !corner(c)) {
            return bad(format!(
                "symmetry part {} fixes {c:?}, which is no [row, col, piece, rotation] of a corner of a {w}x{h} board",
                i + 1
            ));
        }
        if let Some(j) = parts[..i].iter().position(|u| u.corners == t.corners) {
            return bad(format!(
                "symmetry part {} repeats part {}: the same tree would be counted twice",
                i + 1,
                j + 1
            ));
        }
    }
    let part_nodes = checked_sum(parts.iter().map(|t| t.nodes));
    let part_found = checked_sum(parts.iter().map(|t| t.solutions_found));
    let (Some(part_nodes), Some(_)) = (part_nodes, part_found) else {
        return bad("symmetry_parts' counts sum past 2^64".into());
    };
    if !parts.is_empty() && part_nodes != r.nodes {
        return bad(format!(
            "symmetry_parts' nodes sum to {part_nodes}, not nodes {}",
            r.nodes
        ));
    }
    if r.symmetry > 1 && parts.is_empty() && (r.nodes > 0 || r.solutions_found > 0) {
        return bad(format!(
            "counts {} nodes and {} solutions under --symmetry but lists no symmetry_parts (the trees searched)",
            r.nodes, r.solutions_found
        ));
    }
    Ok(())
}

/// Checks a result of `plytile solve --json` against itself, and against `puzzle`
/// when given, before it is summed or reported (`merge`). A hand-edited, damaged or
/// truncated file fails here with what does not hold:
/// - the board is 2..=32 on a side, every kept board has its cells, each a piece of
///   the board's and a rotation 0..=3 (as written: nothing is cut to fit), and so has
///   the deepest board;
/// - `--symmetry`: 4 turns on a square board, 2 on others, 1 without; at most 3 trees
///   (2 when W != H), distinct, each fixing as many corners, whose nodes sum to
///   `nodes` (none when the run stopped before it chose them);
/// - `nodes_per_depth` counts the root, has no depth past the board (less its hints
///   with `puzzle`, less the fixed corners of `--symmetry`'s trees), ends in a depth
///   some node reached, counts no more nodes at a depth than the tree has there (one
///   root per tree, then at most 4 rotations of each piece left per node), and sums
///   to `nodes` without passing 2^64;
/// - a full board is a solution: `solutions_found` is the nodes at the full depth
///   times the turns each stands for, or less when `--solutions` cut it (stopped by
///   `solutions`), and the trees' counts sum to those nodes. The full depth is the
///   board's free cells with `puzzle`; without, the deepest depth when the result
///   claims solutions (a node at it is a full board), or when no depth is left below
///   it (no hints); else it is unknown and no count can contradict it;
/// - at most `solutions_found` boards are kept; exhaustive only without a stop, and a
///   shard's result names its stop when it is not exhaustive;
/// - with `puzzle`: the result is of it, and every kept board passes the independent
///   checker.
pub fn check_result(name: &str, r: &SolveResult, puzzle: Option<&Puzzle>) -> Result<()> {
    check_result_in(name, r, puzzle, true)
}

/// What [`check_result`] says against `p` of a result that passed it without a
/// puzzle, from the checks that depend on the puzzle: `check_shape` is not made
/// again (merge checks the boards against the puzzle the results name so).
pub fn check_result_against(name: &str, r: &SolveResult, p: &Puzzle) -> Result<()> {
    check_result_in(name, r, Some(p), false)
}

/// What a `merge` result's `merged` must be: shards in ascending order, each once and
/// in range, and `exhaustive` exactly when they are all there and none stopped (merge
/// takes the list on trust, so a lie would count shards twice or not at all).
fn check_merged(r: &SolveResult, m: &Merged) -> std::result::Result<(), String> {
    if m.shards.is_empty() || m.shards.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!(
            "merged.shards {:?} is not a list of shards in ascending order, each once",
            m.shards
        ));
    }
    if let Some(i) = m.shards.iter().find(|&&i| i >= m.of) {
        return Err(format!("merged.shards names shard {i} of {}", m.of));
    }
    let whole = m.shards.len() == m.of && r.stopped_by.is_none();
    if r.exhaustive != whole {
        return Err(format!(
            "it is {}exhaustive, but merged.shards lists {} of {} shards{}",
            if r.exhaustive { "" } else { "not " },
            m.shards.len(),
            m.of,
            if r.stopped_by.is_some() {
                " and it names a stop"
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// [`check_result`], its [`check_shape`] only when `shape`.
fn check_result_in(
    name: &str,
    r: &SolveResult,
    puzzle: Option<&Puzzle>,
    shape: bool,
) -> Result<()> {
    let bad = |m: String| Err(InputError::new(name, m));
    // `solve` writes 16 hex digits; anything else would be taken for the number.
    if let Some(h) = r.fingerprint_hex.as_deref() {
        if h.len() != 16 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return bad(format!(
                "its fingerprint_hex {h:?} is not 16 hex digits: the file was edited or damaged; run its solve again"
            ));
        }
    }
    if let Some(p) = puzzle {
        let same = match r.puzzle_fingerprint() {
            Some(f) => f == fingerprint(p),
            None => (&r.puzzle, r.width, r.height) == (&p.name, p.width, p.height),
        };
        if !same {
            return bad(format!(
                "is not a result of the puzzle {} given with --puzzle",
                p.name
            ));
        }
    }
    if shape {
        check_shape(name, r)?;
    }
    if let Some(m) = &r.merged {
        check_merged(r, m)
            .or_else(|e| bad(format!("{e}: the file was edited or damaged; {}", r.redo())))?;
    }
    let (w, h) = (r.width, r.height);
    let cells = w * h;
    let parts = &r.symmetry_parts;
    let fixed = parts.first().map_or(0, |t| t.corners.len());
    let part_found = checked_sum(parts.iter().map(|t| t.solutions_found));
    let part_found = part_found.expect("check_shape refuses trees' sums past 2^64");
    // The depths.
    let free = match puzzle {
        Some(p) => p.free_cells().checked_sub(fixed),
        None => cells.checked_sub(fixed),
    };
    let Some(free) = free else {
        return bad(format!(
            "fixes {fixed} corners on a board with fewer free cells"
        ));
    };
    let board = match (puzzle, fixed) {
        (None, 0) => format!("a {w}x{h} board"),
        (Some(p), 0) => format!("the {w}x{h} puzzle less its {} hints", p.hints.len()),
        (_, _) => format!("a {w}x{h} board less its {fixed} fixed corners"),
    };
    let npd = &r.nodes_per_depth;
    if npd.is_empty() || npd.len() > free + 1 {
        return bad(format!(
            "nodes_per_depth has {} depths, {board} has {}",
            npd.len(),
            free + 1
        ));
    }
    let top = npd.len() - 1;
    if top > 0 && npd[top] == 0 {
        return bad(format!(
            "nodes_per_depth ends in depth {top}, which no node reached"
        ));
    }
    let mut most = parts.len().max(1) as u64;
    for (d, &n) in npd.iter().enumerate() {
        if n > most {
            return bad(format!(
                "nodes_per_depth counts {n} nodes at depth {d}, more than the tree of {board} has there ({most})"
            ));
        }
        most = most.saturating_mul(4 * (free - d) as u64);
    }
    let Some(total) = checked_sum(npd.iter().copied()) else {
        return bad("nodes_per_depth sums past 2^64".into());
    };
    if r.nodes != total {
        return bad(format!(
            "nodes {} is not the sum of nodes_per_depth ({total})",
            r.nodes
        ));
    }
    if r.resumed_nodes > r.nodes {
        return bad(format!(
            "resumed_nodes {} is more than nodes {}",
            r.resumed_nodes, r.nodes
        ));
    }
    if r.deepest.depth > free + fixed {
        return bad(format!(
            "deepest.depth {} is deeper than {board} ({})",
            r.deepest.depth,
            free + fixed
        ));
    }
    // Full boards are solutions.
    let claimed = r.solutions_found > 0 || !r.solutions.is_empty() || part_found > 0;
    let full_depth = match puzzle {
        Some(_) => Some(free),
        None => (claimed || top == free).then_some(top),
    };
    let cut = r.stopped_by == Some(Stop::Solutions);
    if let Some(d) = full_depth {
        let full = npd.get(d).copied().unwrap_or(0);
        let each = match r.symmetry {
            1 => String::new(),
            t => format!(", each standing for its {t} turns"),
        };
        let want = full.checked_mul(r.symmetry);
        if want.is_none_or(|x| r.solutions_found > x || !cut && r.solutions_found != x) {
            let but = if cut { "at most" } else { "but" };
            return bad(format!(
                "solutions_found is {}, {but} nodes_per_depth counts {full} full boards (depth {d}){each}",
                r.solutions_found
            ));
        }
        if !parts.is_empty() && (part_found > full || !cut && part_found != full) {
            return bad(format!(
                "symmetry_parts find {part_found} solutions, but nodes_per_depth counts {full} full boards (depth {d})"
            ));
        }
    }
    if r.solutions.len() as u64 > r.solutions_found {
        return bad(format!(
            "holds {} solution boards but solutions_found is {}",
            r.solutions.len(),
            r.solutions_found
        ));
    }
    if let Some(stop) = r.stopped_by.filter(|_| r.exhaustive) {
        return bad(format!(
            "is exhaustive, yet stopped by {}",
            crate::report::stop_text(stop)
        ));
    }
    if r.shard.is_some() && !r.exhaustive && r.stopped_by.is_none() {
        return bad("is not exhaustive, yet names no stop (stopped_by)".into());
    }
    if let Some(p) = puzzle {
        for i in 0..r.solutions.len() {
            crate::puzzle::verify::check(p, &r.solution_board(i), true).map_err(|v| {
                InputError::new(name, format!("solution {} is not a solution: {v}", i + 1))
            })?;
        }
    }
    Ok(())
}

/// The sum of `xs`, or None past 2^64.
fn checked_sum(xs: impl IntoIterator<Item = u64>) -> Option<u64> {
    xs.into_iter().try_fold(0u64, |a, b| a.checked_add(b))
}

/// How `r` differs from `first` (the file `first_name`) in the trees it searched,
/// if it does: the `--symmetry` turns, or the corners fixed in a tree or its
/// heuristic (as far as both got).
fn other_cut(r: &SolveResult, first: &SolveResult, first_name: &str) -> Option<String> {
    let with = |r: &SolveResult| match r.symmetry {
        1 => "without --symmetry".to_string(),
        t => format!("with --symmetry ({t} turns)"),
    };
    if r.symmetry != first.symmetry {
        return Some(format!(
            "was searched {}, {first_name} {}",
            with(r),
            with(first)
        ));
    }
    let tree = |t: &SymmetryPart| format!("fixes {:?} under --select {}", t.corners, t.select);
    let (k, (t, u)) = (r.symmetry_parts.iter().zip(&first.symmetry_parts))
        .enumerate()
        .find(|(_, (t, u))| t.corners != u.corners || t.select != u.select)?;
    Some(format!(
        "was cut by --symmetry into other trees than {first_name}: its tree {} {}, {first_name}'s {}",
        k + 1,
        tree(t),
        tree(u)
    ))
}

/// `on` / `off`, as `--factor` spells it.
pub fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}
