//! What a search returns: [`SolveResult`], one serde struct that is the JSON schema of
//! `solve`, `merge` and each entry of `compare` (reports render it; `merge` sums it).

use super::limits::{Stats, Stop};
use super::parallel::interleave::Interleave;
use super::select::{Heuristic, Order, Strategy};
use crate::puzzle::{Board, Puzzle};
use serde::{Deserialize, Serialize};

/// Seconds, as a float.
pub type Second = f64;

/// A cell of a reported board: `[piece, rotation]`, or null when empty.
pub type Cell = Option<[usize; 2]>;

/// The deepest node reached: how many pieces beyond the hints, and that board.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Deepest {
    pub depth: usize,
    pub board: Vec<Cell>,
}

/// The result of `plytile solve` (also of `merge`, and one entry of `compare`).
/// Field names are a contract: scripts read them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SolveResult {
    pub puzzle: String,
    /// [`crate::puzzle::fingerprint`] of the puzzle searched (its hints
    /// included; absent in older files): `merge` refuses parts whose puzzles differ.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "whole_or_none"
    )]
    pub fingerprint: Option<u64>,
    /// `fingerprint` as 16 hex digits: JSON tools that read numbers as doubles (jq
    /// 1.6) round the integer, so `merge` reads this one when it is there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint_hex: Option<String>,
    pub width: usize,
    pub height: usize,
    pub select: Heuristic,
    /// `--factor on`: regions of the empty cells searched one at a time.
    #[serde(default)]
    pub factor: bool,
    /// `--order`: order of the frontier's subproblems.
    #[serde(default)]
    pub order: Order,
    /// `--move-order`: order of the placements at each site.
    #[serde(default)]
    pub move_order: Order,
    pub threads: usize,
    pub solutions_found: u64,
    /// True when the whole tree was searched (no limit stopped it).
    pub exhaustive: bool,
    /// Why the search stopped early, when it did.
    pub stopped_by: Option<Stop>,
    pub nodes: u64,
    /// Index d = nodes with d pieces placed beyond the hints; index 0 is the root.
    pub nodes_per_depth: Vec<u64>,
    pub elapsed_s: Second,
    /// New nodes per second: `nodes` less `resumed_nodes`, over `elapsed_s`.
    pub nodes_per_s: f64,
    /// Nodes of `nodes` that earlier runs counted and this one read from its
    /// `--checkpoint` (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub resumed_nodes: u64,
    /// Nodes of `nodes` this run counted again to rebuild the frontier of its
    /// `--checkpoint`: like the resumed ones, not charged to `--max-nodes` (a run's
    /// own bookkeeping, not written).
    #[serde(skip)]
    pub rebuilt_nodes: u64,
    /// Each solution: `[piece, rotation]` per cell, row-major from the top-left,
    /// hints included. At most `--keep` of them; `solutions_found` counts all.
    pub solutions: Vec<Vec<[usize; 2]>>,
    /// Where each board of `solutions` was found, for `merge` to list the boards of
    /// several parts in search order: `[tree, subproblem]`, the `--symmetry` tree (its
    /// index in `symmetry_parts`, 0 without) and the place in search order of the
    /// frontier subproblem that holds it. Written by shards and jobs (and `merge`);
    /// empty (absent) in whole runs and in files of older versions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub solutions_from: Vec<[usize; 2]>,
    pub deepest: Deepest,
    /// `solutions_from` of the `deepest` board: `merge` takes, among the deepest
    /// boards of its parts, the first in search order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deepest_from: Option<[usize; 2]>,
    pub version: String,
    /// The CPU extensions the binary was compiled for ([`crate::cpu::compiled`]).
    #[serde(default)]
    pub cpu_features: String,
    /// `[i, n]` when this is shard i of n (`--shard`, `--job`); absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<[usize; 2]>,
    /// A `merge` result: the shards of the split it sums (absent for a `solve`
    /// result). `merge` takes it as those shards, so partial merges merge on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<Merged>,
    /// Depth of the frontier of subproblems (absent for a plain single-thread run).
    #[serde(default)]
    pub split_depth: Option<usize>,
    /// `--interleave on`: subproblems walked side by side and nodes per turn; absent
    /// when they were searched one after another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interleave: Option<Interleave>,
    /// Subproblems searched (frontier units and the pieces workers gave away).
    #[serde(default)]
    pub subproblems: usize,
    /// 4 (square) or 2 (W != H) when `--symmetry` searched the anchored quarter or
    /// halves of the tree (the anchor corner counted as a hint in `nodes_per_depth`)
    /// and counted every solution with its turns; 1 for a whole-tree search.
    #[serde(default = "one")]
    pub symmetry: u64,
    /// `--symmetry`: the trees searched, in order (absent for a whole-tree search).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symmetry_parts: Vec<SymmetryPart>,
    /// The files the puzzle was read from, so that `merge` can check the solutions
    /// again without `--puzzle` (absent in older results).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Input>,
    /// Why the checkpoint could not be written when the run ended (absent when it
    /// was): the result is still reported, and a rerun resumes from the last file saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint_error: Option<String>,
    /// `--select auto`: the candidates with their predicted nodes, cost and time, and
    /// the choice (`select` is the heuristic chosen); absent when `--select` named one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto: Option<super::auto::Choice>,
    /// True when `nodes` would differ on a rerun: a run stopped early (first
    /// solution, `--solutions`, `--max-nodes`) on more than one thread, where the
    /// workers' timing decides how far each got, or one stopped by a clock
    /// (`--timeout`, Ctrl-C). `--threads 1` with `--max-nodes` counts the same nodes
    /// every run. ([`SolveResult::mark_timing`].)
    #[serde(default)]
    pub nodes_depend_on_timing: bool,
    /// Why the puzzle has no solution, when that was proven before any search (a
    /// colour on an odd number of piece sides); the search was then skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsolvable: Option<String>,
}

/// The shards a `merge` result sums: `shards` (ascending) of a split into `of`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Merged {
    pub shards: Vec<usize>,
    pub of: usize,
}

/// Where `solve` read its puzzle: absolute paths, as the run saw them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Input {
    /// The puzzle file, or the job file (`--job`, which holds the puzzle).
    pub puzzle_file: Option<String>,
    pub job_file: Option<String>,
    #[serde(default)]
    pub edge_order: crate::puzzle::formats::EdgeOrder,
    pub hints_file: Option<String>,
}

/// One tree a `--symmetry` run searched.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SymmetryPart {
    /// The corner pieces fixed in it: `[row, col, piece, rotation]` each.
    pub corners: Vec<[usize; 4]>,
    /// The heuristic it was searched with (`scan` takes the lines of its pair).
    pub select: Heuristic,
    /// Knuth's estimate of its nodes, when estimates chose it.
    pub estimated_nodes: Option<f64>,
    /// Nodes and solutions of this tree alone (each solution stands for its turns).
    pub nodes: u64,
    pub solutions_found: u64,
}

pub(crate) fn one() -> u64 {
    1
}

/// A u64 as written, or None for a number a tool rewrote as a float (rounded, so of
/// no use: `fingerprint_hex` still holds the fingerprint exactly).
fn whole_or_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = <Option<serde_json::Value> as Deserialize>::deserialize(d)?;
    Ok(v.and_then(|n| n.as_u64()))
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Nodes per second of a run of `nodes` nodes in `elapsed` seconds (0 for no time).
pub fn rate(nodes: u64, elapsed: Second) -> f64 {
    if elapsed > 0.0 {
        nodes as f64 / elapsed
    } else {
        0.0
    }
}

/// A full board as reported: `[piece, rotation]` per cell.
pub fn solution_cells(b: &Board) -> Vec<[usize; 2]> {
    b.iter()
        .map(|c| c.map(|(p, r)| [p, r as usize]).unwrap_or([0, 0]))
        .collect()
}

fn cells(board: &Board) -> Vec<Cell> {
    board
        .iter()
        .map(|c| c.map(|(p, r)| [p, r as usize]))
        .collect()
}

impl SolveResult {
    /// Whether every subproblem this result holds was searched to the end: `exhaustive`
    /// for a `solve` result; for a `merge` result, no stop (a partial merge is not
    /// exhaustive for its missing shards alone, and merges on).
    pub fn searched_out(&self) -> bool {
        match self.merged {
            Some(_) => self.stopped_by.is_none(),
            None => self.exhaustive,
        }
    }

    /// What to do with a file of this result found edited or damaged.
    pub fn redo(&self) -> &'static str {
        match self.merged {
            Some(_) => "merge its parts again",
            None => "run its solve again",
        }
    }

    /// The one line of `solve -q` and `merge -q`.
    pub fn summary_line(&self) -> String {
        format!(
            "{}: {} solution(s), {}exhaustive, {} nodes{}, {:.3} s",
            self.puzzle,
            self.solutions_found,
            if self.exhaustive { "" } else { "not " },
            self.nodes,
            if self.symmetry > 1 {
                format!(" (1/{} of the tree: --symmetry)", self.symmetry)
            } else {
                String::new()
            },
            self.elapsed_s
        )
    }

    pub fn new(
        puzzle: &Puzzle,
        s: impl Into<Strategy>,
        threads: usize,
        stats: Stats,
        elapsed: Second,
    ) -> Self {
        let s: Strategy = s.into();
        let nodes = stats.nodes();
        // Trim trailing depths no node reached, keeping at least the root.
        let mut per_depth = stats.nodes_per_depth;
        while per_depth.len() > 1 && per_depth.last() == Some(&0) {
            per_depth.pop();
        }
        if per_depth.is_empty() {
            // Stopped before the root was counted: still an entry per the contract.
            per_depth.push(0);
        }
        let mut deepest_board = stats.deepest_board;
        if deepest_board.is_empty() {
            // Nothing searched: the deepest board is the hints alone, so that `show`
            // and `explain` read it like any other.
            deepest_board = crate::search::State::new(puzzle).board();
        }
        let mut r = SolveResult {
            puzzle: puzzle.name.clone(),
            fingerprint: None,
            fingerprint_hex: None,
            width: puzzle.width,
            height: puzzle.height,
            select: s.select,
            factor: s.factor,
            order: Order::Natural,
            move_order: s.moves,
            threads,
            solutions_found: stats.solutions_found,
            exhaustive: stats.stopped.is_none(),
            stopped_by: stats.stopped,
            nodes,
            nodes_per_depth: per_depth,
            elapsed_s: elapsed,
            nodes_per_s: rate(nodes, elapsed),
            resumed_nodes: 0,
            rebuilt_nodes: 0,
            solutions: stats.solutions.iter().map(solution_cells).collect(),
            solutions_from: Vec::new(),
            deepest: Deepest {
                depth: stats.deepest,
                board: cells(&deepest_board),
            },
            deepest_from: None,
            version: env!("CARGO_PKG_VERSION").to_string(),
            cpu_features: crate::cpu::compiled_string(),
            shard: None,
            merged: None,
            split_depth: None,
            interleave: None,
            subproblems: 1,
            symmetry: 1,
            symmetry_parts: Vec::new(),
            input: None,
            checkpoint_error: None,
            auto: None,
            nodes_depend_on_timing: false,
            unsolvable: None,
        };
        r.set_fingerprint(crate::puzzle::fingerprint(puzzle));
        r
    }

    /// The "nodes" line of the text reports (`solve`, `merge`).
    pub fn nodes_line(&self) -> String {
        let resumed = match self.resumed_nodes {
            0 => String::new(),
            n => format!(" ({n} of them from the checkpoint)"),
        };
        format!("nodes       {}{resumed}\n", self.nodes)
    }

    /// Records the [`crate::puzzle::fingerprint`] of the puzzle searched.
    pub fn set_fingerprint(&mut self, f: u64) {
        self.fingerprint = Some(f);
        self.fingerprint_hex = Some(format!("{f:016x}"));
    }

    /// The fingerprint of the puzzle searched: from `fingerprint_hex` when present
    /// (exact whatever tool rewrote the file), else `fingerprint`.
    pub fn puzzle_fingerprint(&self) -> Option<u64> {
        crate::puzzle::recorded_fingerprint(self.fingerprint_hex.as_deref(), self.fingerprint)
    }

    /// Counts `resumed` of the nodes as read from a checkpoint, and sets the rate to
    /// the new nodes over the elapsed time.
    pub fn set_resumed(&mut self, resumed: u64) {
        self.resumed_nodes = resumed;
        self.set_rate();
    }

    /// `nodes_per_s` from `nodes`, `resumed_nodes` and `elapsed_s`.
    pub fn set_rate(&mut self) {
        self.nodes_per_s = rate(
            self.nodes.saturating_sub(self.resumed_nodes),
            self.elapsed_s,
        );
    }

    /// The process exit code: 0 found, 1 exhausted with none, 3 stopped with none.
    pub fn exit_code(&self) -> u8 {
        if self.solutions_found > 0 {
            0
        } else if self.exhaustive {
            1
        } else {
            3
        }
    }

    /// The exit code of a shard or job (`--shard`, `--job`), one task of a batch
    /// engine: 0 when its share is done, searched to the end or stopped at the
    /// `--solutions K` it asked for, whether or not it held solutions; 3 when a limit
    /// or a signal stopped it first.
    pub fn batch_exit_code(&self) -> u8 {
        match self.stopped_by {
            None | Some(Stop::Solutions) => 0,
            Some(_) => 3,
        }
    }

    /// The `--select` setting that made the run: `auto` when auto chose its
    /// heuristic, else the heuristic (`compare` and `bench` name rows by it).
    pub fn setting(&self) -> super::auto::Setting {
        match self.auto {
            Some(_) => super::auto::Setting::Auto,
            None => super::auto::Setting::Use(self.select),
        }
    }

    /// [`Self::setting`] for people: auto with its choice, `auto (ply:2)`.
    pub fn label(&self) -> String {
        match &self.auto {
            Some(c) => format!("auto ({})", c.chosen),
            None => self.select.to_string(),
        }
    }

    /// The run's time with auto's choosing (`elapsed_s` is the search's alone): what
    /// `compare` and `bench` rank, the time a user of `--select auto` waits.
    pub fn total_s(&self) -> Second {
        self.elapsed_s + self.auto.as_ref().map_or(0.0, |c| c.choosing_s)
    }

    /// Sets [`SolveResult::nodes_depend_on_timing`] from how the run stopped and on
    /// how many threads.
    pub fn mark_timing(&mut self) {
        self.nodes_depend_on_timing = match self.stopped_by {
            None => false,
            Some(Stop::Timeout | Stop::Interrupted) => true,
            Some(Stop::Solutions | Stop::MaxNodes) => self.threads > 1,
        };
    }

    /// Solution `i` as a board.
    pub fn solution_board(&self, i: usize) -> Board {
        self.solutions[i]
            .iter()
            .map(|&[p, r]| Some((p, r as u8)))
            .collect()
    }
}

/// Adds the counts of `r`, a disjoint part of the same search, into `m` ([`try_absorb`])
/// where the counts are known to fit: the trees of one `--symmetry` run, whose counts
/// are this run's and its checkpoints' (at most [`super::checkpoint::MAX_RESUMED`] each).
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
