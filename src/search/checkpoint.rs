//! Checkpoint files (`solve --checkpoint`): the subproblems of one search finished so
//! far, with their counts, so that a rerun resumes where the last one stopped; and the
//! part checkpoints of a `--symmetry` run.

use super::jobs::{
    front_code, front_decode, prefix_from_file, prefix_to_file, stale_tree, tree_format_1, trim,
    trimmed, FrontCoded, PrefixFile, TREE_FORMAT,
};
use super::limits::Stats;
use super::parallel::compact::Finished;
use super::parallel::{check_path, paths_pass, Prefix, Record};
use super::select::{on_off, Heuristic, Order, Select, Strategy};
use super::state::State;
use super::symmetry::Parts;
use crate::error::{InputError, Result};
use crate::puzzle::{fingerprint, fnv1a, Board, Hint, Puzzle, FNV_START};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A finished subproblem as stored in a checkpoint.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecordFile {
    pub prefix: PrefixFile,
    pub nodes_per_depth: Vec<u64>,
    pub solutions_found: u64,
    pub solutions: Vec<Board>,
    pub deepest: usize,
    /// Empty but in the record whose deepest node is the checkpoint's deepest
    /// ([`super::parallel::compact`]).
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
            let held = cut_parts(&self.symmetry_parts);
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

/// Whether `ck` is of a tree of the cut of `p` it records: `p` with the tree's
/// corners fixed, searched with its heuristic.
pub fn of_recorded_cut(p: &Puzzle, ck: &Checkpoint) -> bool {
    ck.symmetry_parts.iter().any(|t| {
        let mut q = p.clone();
        q.hints
            .extend(t.corners.iter().map(|&[row, col, piece, rotation]| Hint {
                row,
                col,
                piece,
                rotation: rotation as u8,
            }));
        ck.is_for(&q, t.select)
    })
}

/// The part checkpoints of a `--symmetry` run with `--checkpoint file` that there
/// are (`part_checkpoint`), `file` always, for a message that says to delete them.
pub fn part_files(file: &Path) -> String {
    let there = (0..3).map(|i| part_checkpoint(file, i));
    let names: Vec<String> = (there.enumerate())
        .filter(|(i, f)| *i == 0 || f.exists())
        .map(|(_, f)| f.display().to_string())
        .collect();
    names.join(", ")
}

/// The checkpoint file of part `i` of a `--symmetry` run: FILE for the first, then
/// FILE.tr (the name from the time the second part was the top-right anchor), FILE.tr3.
pub fn part_checkpoint(file: &std::path::Path, i: usize) -> PathBuf {
    match i {
        0 => file.to_path_buf(),
        1 => PathBuf::from(format!("{}.tr", file.display())),
        _ => PathBuf::from(format!("{}.tr{}", file.display(), i + 1)),
    }
}

/// The parts a recorded cut was made with: a pair of corners fixed in each tree,
/// or the anchor alone; None for no cut (a search without `--symmetry`, or a file
/// from before checkpoints recorded it).
pub fn cut_parts(cut: &[CutTree]) -> Option<Parts> {
    let t = cut.first()?;
    Some(if t.corners.len() == 2 {
        Parts::Pairs
    } else {
        Parts::Anchor
    })
}

/// The sum of `xs`, or None past 2^64.
pub(crate) fn checked_sum(xs: impl IntoIterator<Item = u64>) -> Option<u64> {
    xs.into_iter().try_fold(0u64, |a, b| a.checked_add(b))
}
