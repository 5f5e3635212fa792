//! `--select auto`: before the search, predict each candidate heuristic's time on
//! this puzzle and run the cheapest.
//!
//! A candidate's time is its predicted nodes x its cost per node. Each gets an equal
//! slice of a small budget ([`Budget`]): 40% for a short run of the real search on
//! one thread (its rate is the cost per node; a run that reaches the goal within it
//! is timed, not predicted), 60% for the probes of Knuth's estimate of its tree
//! ([`super::estimate`]; stratified for `scan`), from which the nodes to the goal
//! follow: the whole tree for `--all`, else the tree over (expected solutions + 1)
//! per solution asked, the share a depth-first search walks before the K-th of
//! solutions spread evenly through its tree. When the short run already found
//! [`MET`] solutions of the K asked, its nodes per solution times K are the
//! prediction instead, and no probes are drawn. When short runs met solutions but
//! none reached the K, the probes' share measures every candidate's nodes per
//! solution in a [`Hole`] of one of them instead. The hybrids ([`HYBRIDS`]) get a
//! slice each on top of the budget, and when neither a short run nor a hole settles
//! one, it is weighed by its tree counted level by level ([`levels_within`]) only if
//! the count reached its switch depth.
//!
//! The probes are seeded, so the predicted nodes are the same on every run; the
//! rates are measured, so a near tie can go either way between runs. Where the
//! choice must be the same on every run and machine (a shard, a job, a checkpoint),
//! [`Costs::Fixed`] replaces the rates by instructions per node measured once with
//! callgrind and takes a fixed number of probes (80 per candidate, not a time's
//! worth), and the choice depends on the seed alone.

use super::estimate::{levels_within, per_depth_within, Spread};
use super::limits::{Limits, Stats};
use super::select::{Along, Heuristic, Mrv, Plan, PlyN, Switch};
use super::state::State;
use crate::puzzle::{Board, Hint, Puzzle};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A `--select` value of `solve`, `compare` and `bench`: `auto` (choose per
/// puzzle, [`choose`]) or one heuristic of the table. Prints and parses as the
/// heuristic does, `auto` as itself, so JSON keys that held a heuristic hold a
/// setting unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    Auto,
    Use(Heuristic),
}

impl Setting {
    /// The heuristic named, None for `auto`.
    pub fn fixed(self) -> Option<Heuristic> {
        match self {
            Setting::Auto => None,
            Setting::Use(h) => Some(h),
        }
    }
}

impl From<Heuristic> for Setting {
    fn from(h: Heuristic) -> Setting {
        Setting::Use(h)
    }
}

impl std::str::FromStr for Setting {
    type Err = String;
    fn from_str(s: &str) -> Result<Setting, String> {
        if s == "auto" {
            return Ok(Setting::Auto);
        }
        s.parse()
            .map(Setting::Use)
            .map_err(|e: String| e.replace("expected one of: ", "expected auto or one of: "))
    }
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Setting::Auto => f.write_str("auto"),
            Setting::Use(h) => h.fmt(f),
        }
    }
}

crate::serde_as_select_text!(Setting);

/// How the cost per node is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Costs {
    /// Timed on a short run of the real search (the "measured in-process").
    Measured,
    /// [`fixed_cost`]: instructions per node measured once, so that the choice
    /// depends on the seed only.
    Fixed,
}

/// The time auto may spend choosing, and the time the search may take.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub seconds: f64,
    /// `--timeout`: a goal no candidate is predicted to reach within [`UNREACHABLE`]
    /// times this is not chased; the deepest board is ([`Goal::Deepest`]). None: a
    /// day, as a run no one waits out.
    pub timeout_s: Option<f64>,
}

impl Budget {
    /// About 1% of `--timeout` when given (at least 0.05 s), else 0.3 s.
    pub fn for_timeout(timeout_s: Option<f64>) -> Budget {
        Budget {
            seconds: timeout_s.map_or(0.3, |t| (t * 0.01).clamp(0.05, 30.0)),
            timeout_s,
        }
    }

    /// `seconds` to choose, for a search with no timeout.
    pub fn seconds(seconds: f64) -> Budget {
        Budget {
            seconds,
            timeout_s: None,
        }
    }

    /// The time beyond which a predicted goal counts as out of reach.
    fn horizon_s(&self) -> f64 {
        UNREACHABLE * self.timeout_s.unwrap_or(86_400.0)
    }
}

/// How many times the time given a goal must be predicted to be out of reach for
/// auto to give it up for the deepest board: predictions of trees this large are
/// off by 10x and more, so only a goal far beyond the time counts.
const UNREACHABLE: f64 = 100.0;

/// How many levels deeper than scan's short run another candidate's must get for
/// auto to leave scan when it chooses by depth: depths of short runs are noisy (on
/// Eternity II with its five hints the fast drivers end 1e9 nodes within 3 levels of
/// each other: 198-201), and a goal predicted out of reach may not be: predictions
/// of the first solution are high by up to 1e6x on Brendan's boards (with `--timeout
/// 10`, 19 of his 96 boards of at most 64 cells were predicted out of reach, and a
/// candidate 1-2 levels deeper than scan would have left it on 5 of them, scan:rows
/// on his 10x6, 30+ s against scan's 0.85 s).
const DEPTH_MARGIN: usize = 3;

/// What auto chose for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Goal {
    /// The least predicted time to the solutions asked (or the whole tree).
    #[default]
    Time,
    /// No candidate is predicted to reach the goal within [`UNREACHABLE`] times the
    /// time given: the deepest board its short run reached, all runs being equally
    /// long, scan unless another is [`DEPTH_MARGIN`] levels deeper (Eternity II with
    /// its five hints, 10 minutes: ply:2, chosen for the smaller tree, got through
    /// 5.5e8 nodes to depth 184, scan through 7.3e10 to depth 202, `order:deep`,
    /// chosen for depth, through 6.7e10 to depth 214).
    Deepest,
}

/// One candidate's prediction.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Candidate {
    pub select: Heuristic,
    /// Predicted nodes to the goal (the measured run's, when it reached the goal).
    pub nodes: f64,
    /// Seconds per node on one thread.
    pub cost_s: f64,
    /// `nodes x cost_s`.
    pub time_s: f64,
    /// True when the short run reached the goal: `time_s` is measured.
    pub measured: bool,
    /// What the prediction rests on ([`Basis`]).
    pub basis: Basis,
    /// The deepest board of its short run (none with fixed costs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<usize>,
}

/// What a candidate's prediction rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// Its short run reached the goal: timed.
    Measured,
    /// Its short run met [`MET`] of the solutions asked: their rate, times K.
    Rate,
    /// Knuth's probes of its tree (stratified for scan), at the short run's rate (or
    /// the fixed cost per node).
    Probes,
    /// Its nodes per solution in a hole of a solution ([`Hole`]), times the solutions
    /// still to find, after its short run's nodes.
    Hole,
}

/// What auto chose, and why: the JSON `auto` object.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Choice {
    pub chosen: Heuristic,
    /// What it was chosen for ([`Goal`]).
    #[serde(default)]
    pub goal: Goal,
    /// Every candidate weighed, in the order tried.
    pub candidates: Vec<Candidate>,
    /// The candidates not weighed: because one already reached the goal, measured, in
    /// less time than weighing another would take, or hybrids whose trees could not be
    /// counted down to their switch depths in the time (their probes would die above).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Heuristic>,
    /// The cells of the hole whose nodes per solution the predictions rest on
    /// ([`Basis::Hole`]), absent when they rest on none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hole_cells: Option<usize>,
    /// The time the choice took, reported apart from the search's.
    pub choosing_s: f64,
    /// The probes' seed.
    pub seed: u64,
    /// `measured` or `fixed` ([`Costs`]).
    pub costs: String,
}

impl Choice {
    /// The one line that says what was chosen and why.
    pub fn line(&self) -> String {
        let deepest = self.goal == Goal::Deepest;
        let describe = |c: &Candidate| match (deepest, c.measured) {
            (true, _) => format!("{} (depth {})", c.select, c.depth.unwrap_or(0)),
            (false, true) => format!("{} ({} measured)", c.select, secs(c.time_s)),
            (false, false) => format!(
                "{} ({:.1e} nodes x {})",
                c.select,
                c.nodes,
                per_node(c.cost_s)
            ),
        };
        let chosen = self.candidates.iter().find(|c| c.select == self.chosen);
        let mut others: Vec<&Candidate> = self
            .candidates
            .iter()
            .filter(|c| c.select != self.chosen)
            .collect();
        match deepest {
            true => others.sort_by_key(|c| std::cmp::Reverse(c.depth)),
            false => others.sort_by(|a, b| a.time_s.total_cmp(&b.time_s)),
        }
        let over: Vec<String> = others.iter().map(|c| describe(c)).collect();
        let skipped: Vec<String> = self.skipped.iter().map(|h| h.to_string()).collect();
        let least = self
            .candidates
            .iter()
            .min_by(|a, b| a.time_s.total_cmp(&b.time_s));
        let why = match (deepest, chosen, least) {
            (true, _, Some(l)) => format!(
                "; no candidate is predicted to reach the goal within {UNREACHABLE}x the time \
                 given (the fastest: {}, {}), so the deepest board of equal short runs decides \
                 (scan unless another is {DEPTH_MARGIN} levels deeper)",
                l.select,
                secs(l.time_s)
            ),
            (false, Some(c), Some(l)) if c.time_s > l.time_s => {
                format!("; scan kept: a probed prediction must be {SWITCH}x faster to leave it")
            }
            _ => String::new(),
        };
        let why = match self.hole_cells {
            Some(h) => format!("{why}; nodes per solution from a {h}-cell hole of a solution"),
            None => why,
        };
        format!(
            "auto: chose {}{}{}{why} (choosing took {})",
            chosen.map_or(self.chosen.to_string(), describe),
            match over.is_empty() {
                true => String::new(),
                false => format!(" over {}", over.join(", ")),
            },
            match skipped.is_empty() {
                true => String::new(),
                false => format!("; not weighed: {}", skipped.join(", ")),
            },
            secs(self.choosing_s)
        )
    }
}

fn secs(s: f64) -> String {
    if s < 1.0 {
        format!("{:.0} ms", s * 1e3)
    } else if s >= 1e5 {
        format!("{s:.1e} s")
    } else {
        format!("{s:.1} s")
    }
}

fn per_node(s: f64) -> String {
    if s < 1e-6 {
        format!("{:.0} ns", s * 1e9)
    } else {
        format!("{:.1} us", s * 1e6)
    }
}

/// The heuristics auto weighs on `puzzle`: scan along both lines (one on a square
/// board), mrv, ply:2, the hybrids of [`HYBRIDS`], and the planned orders grown from the
/// hints (`order:hints`) and with the cells walled in by hints last (`order:deep`), each
/// when it is not an earlier candidate's order (on a board without hints both are scan's
/// lines: the same tree, at a higher cost per node). `order:deep` is there for the
/// deepest board ([`Goal::Deepest`]); for time its tree is rarely the smaller.
pub fn candidates(puzzle: &Puzzle) -> Vec<Heuristic> {
    let mut c = vec![Heuristic::Scan(Along::Shape)];
    if puzzle.width != puzzle.height {
        let default = crate::puzzle::scans_columns(puzzle.width, puzzle.height);
        c.push(Heuristic::Scan(Along::fixed(!default)));
    }
    c.extend([
        Heuristic::Mrv(Mrv),
        Heuristic::Ply(PlyN { n: 2, adj: false }),
    ]);
    let open = puzzle.free_cells();
    for (n, part) in HYBRIDS {
        let at = (open / part) as u16;
        if at > 0 {
            c.push(Heuristic::Hybrid(Switch { n, at }));
        }
    }
    let st = State::new(puzzle);
    let order = |h: Heuristic| h.plan(puzzle.width, puzzle.height).map(|p| p.order(&st));
    for planned in [Plan::Hints, Plan::Deep].map(Heuristic::Order) {
        let own = order(planned);
        if !c.iter().any(|&s| order(s) == own) {
            c.push(planned);
        }
    }
    c
}

/// The hybrids auto weighs: (N, part) is `ply:N@D` (`mrv@D` for N = 0) with D the
/// open cells / part, when that is at least 1. Their trees are counted level by level
/// ([`levels_within`]): plain probes die out above D (on Brendan's 9x9 with five hints,
/// `ply:2@19` was predicted at 2.4e6 nodes to the first solution and searched 5.4e8;
/// on Puzzle C with five hints they put `ply:2@16`'s 17,059 nodes at 81). The parts are
/// those session 39 timed on the mixed set (`benches/mixed_set.py --extra`): on Brendan's
/// 16x4 `mrv@16` finds the first solution in 3 ms, scan in 4.4 s.
const HYBRIDS: [(u8, usize); 3] = [(2, 8), (2, 4), (0, 4)];

/// A hybrid's slice of the budget, in the other candidates' slices: the hybrids come on
/// top of the budget, which stays the others' (with fewer probes each, scan's near
/// ties with ply:2 on Brendan's 16x3 and 12x5 went to ply:2, 37x and 8x scan's time).
/// A whole slice, not half: with half, the hybrids' short runs (15 ms by default) ended
/// just short of first solutions at 16-36 ms on Brendan's set-2 7x6 and 15x3, and scan
/// (76-109 ms) was kept.
const HYBRID_SLICE: f64 = 1.0;

/// [`Heuristic::instructions_per_node`] as seconds at one instruction per nanosecond:
/// the cost model of [`Costs::Fixed`].
pub fn fixed_cost(h: Heuristic) -> f64 {
    h.instructions_per_node() * 1e-9
}

/// Chooses among [`candidates`] for a search that stops at `solutions` (None: all),
/// within `budget`; None when `stop` was set meanwhile (Ctrl-C).
///
/// With measured costs, every candidate's short run comes first (40% of its slice),
/// then the probes of those it did not settle (60%): a search timed to its goal in
/// less than a slice cannot be beaten by more than a slice, so once one is, the
/// probes are not drawn (Puzzle C with five hints: ply:2's whole tree takes 1.3 ms,
/// scan's 0.24 s). When short runs met solutions but none reached the K asked, the
/// 60% go to [`Hole`]s instead, and every candidate is weighed by its nodes per
/// solution there.
pub fn choose(
    puzzle: &Puzzle,
    solutions: Option<u64>,
    budget: Budget,
    costs: Costs,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Choice> {
    let started = Instant::now();
    let hs = candidates(puzzle);
    let hybrid = |h: &Heuristic| matches!(h, Heuristic::Hybrid(_));
    let slice = budget.seconds / hs.iter().filter(|h| !hybrid(h)).count() as f64;
    let share = |h: &Heuristic| slice * if hybrid(h) { HYBRID_SLICE } else { 1.0 };
    let mut runs = Vec::with_capacity(hs.len());
    for &h in &hs {
        runs.push(match costs {
            Costs::Measured => Some(short_run(puzzle, h, solutions, 0.4 * share(&h), stop)?),
            Costs::Fixed => None,
        });
    }
    let settled = |r: &Option<Short>| r.as_ref().and_then(|r| r.settled(solutions));
    let finished = runs
        .iter()
        .filter_map(settled)
        .any(|c| c.measured && c.time_s < slice);
    let first = runs.iter().flatten().find_map(|r| r.first.as_ref());
    let hole = match (solutions, first) {
        (Some(k), Some(board)) if !finished && long(&runs, k, 0.4 * slice) => {
            let hole = Hole::measure(puzzle, &hs, board, 0.6 * budget.seconds, stop);
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            hole
        }
        _ => None,
    };
    let (mut out, mut skipped) = (Vec::with_capacity(hs.len()), Vec::new());
    for (i, (h, run)) in hs.into_iter().zip(&runs).enumerate() {
        if let (Some(hole), Some(run), Some(k)) = (&hole, run, solutions) {
            out.push(hole.predict(i, run, k));
            continue;
        }
        match (settled(run), finished) {
            (Some(c), _) => out.push(c),
            (None, true) => skipped.push(h),
            (None, false) => {
                let time = 0.6 * share(&h);
                match predict(puzzle, h, solutions, run.as_ref(), time, costs, seed, stop)? {
                    Some(c) => out.push(c),
                    None => skipped.push(h),
                }
            }
        }
    }
    // The fastest, a probed prediction away from scan counted at SWITCH times its
    // time; ties go to the earlier candidate (scan first).
    let weighed = |c: &Candidate| match (c.basis, c.select.is_scan()) {
        (Basis::Probes, false) => c.time_s * SWITCH,
        _ => c.time_s,
    };
    // Out of reach when no candidate's own prediction is within the horizon (unweighted:
    // the line names that fastest as the reason).
    let fastest = out.iter().map(|c| c.time_s).fold(f64::INFINITY, f64::min);
    let goal = match costs {
        Costs::Measured if fastest > budget.horizon_s() => Goal::Deepest,
        _ => Goal::Time,
    };
    // For depth, the first candidate (scan) counts DEPTH_MARGIN - 1 levels deeper, so
    // that another leaves it only when DEPTH_MARGIN or more levels deeper. Ties go to
    // the earlier candidate.
    let deep = |c: &Candidate| {
        let head = if c.select == out[0].select {
            DEPTH_MARGIN - 1
        } else {
            0
        };
        c.depth.unwrap_or(0) + head
    };
    let better = |b: &Candidate, c: &Candidate| match goal {
        Goal::Time => weighed(c) < weighed(b),
        Goal::Deepest => deep(c) > deep(b),
    };
    let best = out
        .iter()
        .fold(None::<&Candidate>, |b, c| match b {
            Some(b) if !better(b, c) => Some(b),
            _ => Some(c),
        })
        .expect("at least one candidate");
    Some(Choice {
        chosen: best.select,
        goal,
        candidates: out.clone(),
        skipped,
        hole_cells: hole.map(|h| h.cells),
        choosing_s: started.elapsed().as_secs_f64(),
        seed,
        costs: match costs {
            Costs::Measured => "measured",
            Costs::Fixed => "fixed",
        }
        .into(),
    })
}

/// Whether the run to the K-th solution is predicted, at the best rate of solutions a
/// short run (`short_s` long) met, to take at least [`HOLE_AFTER`] short runs.
fn long(runs: &[Option<Short>], k: u64, short_s: f64) -> bool {
    let best = runs
        .iter()
        .flatten()
        .filter(|r| r.solutions > 0)
        .map(|r| r.nodes_at_rate(k) * r.cost_s())
        .fold(f64::INFINITY, f64::min);
    best >= HOLE_AFTER * short_s
}

/// How many short runs long the run to the K-th solution must be for a [`Hole`] to
/// decide: a candidate that met no solution in its short run may take many times as
/// long for its first (mrv on clue 2: 0.87 s, 29 short runs of the default budget),
/// which only a long run pays off. On clue 2 scan:rows' own rate says 0.5 s for
/// 10,000 solutions, about where mrv overtakes it, and 50 s for 1,000,000.
const HOLE_AFTER: f64 = 100.0;

/// How much Knuth's probes under-count `h`'s tree: 10 for ply:N, whose trees are
/// needle-like (issue 42 measured 1.1-10x), else 1. Without it auto chose ply:2 on
/// 9 of Brendan's 96 boards of at most 64 cells, at 5-56x scan's time to the first
/// solution (the long thin ones: 11x5, 16x3, 15x4, 10x6). Not for the hybrids, whose
/// trees are counted level by level; nor are ply:2's, because counted so they moved
/// its near ties with scan (Brendan's set-2 12x5 went to ply:2, 85 s against 10 s).
fn undercount(h: Heuristic) -> f64 {
    match h {
        Heuristic::Ply(_) | Heuristic::PMean(_) => 10.0,
        _ => 1.0,
    }
}

/// How much faster than scan's a candidate's probed prediction must be for auto to
/// leave scan (the cheapest node, and the most accurate estimate: stratified): Knuth's
/// estimates of the other trees are heavy-tailed, and the short runs' rates vary by
/// 1.5x on a busy machine (ply:2's from 0.66 to 1.3 us per node on Brendan's 16x3).
/// Without it, on Brendan's 10x6 (first solution) ply:2 at 9.1e11 nodes x 1.1 us came
/// out 1.5x ahead of scan's 4.7e13 x 33 ns on one run and behind on another, and ply:2
/// takes many times scan's time there; at 2x, it still left scan on the 16x3 (ply:2
/// 1.6 s, scan 0.045 s), where the first solution comes 200x sooner than scan's
/// predicted tree over its solutions says. The wins stand at 3x: on Brendan's 9x9
/// with five hints order:hints is predicted 4.5x faster than scan, on his 10x10
/// ply:2 20x. Measured and
/// rate-settled predictions (a short run reached the goal, or met [`MET`]
/// solutions) are taken as they are.
const SWITCH: f64 = 3.0;

/// Solutions a short run must find for its rate of them to predict the K-th.
const MET: u64 = 20;

/// A short run of a candidate's real search on one thread: its rate is the cost per
/// node, and a run that reached the goal is timed, not predicted.
struct Short {
    h: Heuristic,
    nodes: u64,
    solutions: u64,
    elapsed_s: f64,
    reached: bool,
    deepest: usize,
    /// Its first solution, the board a [`Hole`] is cut from.
    first: Option<Board>,
}

impl Short {
    fn cost_s(&self) -> f64 {
        self.elapsed_s / self.nodes.max(1) as f64
    }

    /// The nodes to the K-th solution at this run's rate of them (it met some).
    fn nodes_at_rate(&self, k: u64) -> f64 {
        self.nodes as f64 / self.solutions as f64 * k as f64
    }

    /// The candidate this run alone settles: timed when it reached the goal; when
    /// it met [`MET`] of the `solutions` asked, its own rate of them says when the
    /// K-th comes, better than a tree estimate divided by a solution estimate (on the
    /// E2 clue puzzles, ~1e11 solutions each, Knuth's estimate of ply:2's tree is low
    /// by more than its solution count is, and it chose ply:2 at 3.8x mrv's time to
    /// the millionth solution on clue 1).
    fn settled(&self, solutions: Option<u64>) -> Option<Candidate> {
        let (nodes, basis) = if self.reached {
            (self.nodes as f64, Basis::Measured)
        } else {
            let k = solutions.filter(|_| self.solutions >= MET)?;
            (self.nodes_at_rate(k), Basis::Rate)
        };
        let measured = basis == Basis::Measured;
        Some(Candidate {
            select: self.h,
            nodes,
            cost_s: self.cost_s(),
            time_s: if measured {
                self.elapsed_s
            } else {
                nodes * self.cost_s()
            },
            measured,
            basis,
            depth: Some(self.deepest),
        })
    }
}

/// [`Short`] for `seconds`; None on Ctrl-C.
fn short_run(
    puzzle: &Puzzle,
    h: Heuristic,
    solutions: Option<u64>,
    seconds: f64,
    stop: &AtomicBool,
) -> Option<Short> {
    let limits = Limits {
        deadline: Some(Instant::now() + Duration::from_secs_f64(seconds)),
        max_solutions: solutions,
        keep: 1,
        ..Limits::default()
    };
    let started = Instant::now();
    let r = run(puzzle, h, &limits, stop)?;
    let elapsed_s = started.elapsed().as_secs_f64().max(1e-9);
    Some(Short {
        h,
        nodes: r.nodes(),
        solutions: r.solutions_found,
        elapsed_s,
        reached: r.stopped.is_none() || r.stopped == Some(super::Stop::Solutions),
        deepest: r.deepest,
        first: r.solutions.into_iter().next(),
    })
}

/// `h`'s search of `puzzle` within `limits`: the engine itself, not `solve` (one
/// thread, and no result to assemble). None on Ctrl-C.
fn run(puzzle: &Puzzle, h: Heuristic, limits: &Limits, stop: &AtomicBool) -> Option<Stats> {
    let mut st = State::new(puzzle);
    let r = crate::with_selector!(h, &st, |sel| super::engine::search(
        &mut st, &mut sel, puzzle, limits, stop
    ));
    (!stop.load(Ordering::Relaxed)).then_some(r)
}

/// Where solutions are many (the E2 clue puzzles hold ~1e11 each), a depth-first
/// search to the K-th spends its nodes completing boards: it stays below one node
/// near the bottom of the tree (mrv's millionth solution of clue 2 comes 52 levels
/// below a root it never left, 20 levels from the bottom). How many nodes a heuristic
/// spends per solution there is measured on a *hole*: a solution with its last
/// `cells` cells in scan's order emptied, searched to exhaustion by every candidate.
/// A short run's own rate is the luck of its first subtree (on clue 2 scan:rows meets
/// 20 solutions in 1 ms and mrv none in 0.8 s, yet mrv reaches the millionth in half
/// scan:rows' time): every candidate in one hole is a like-for-like comparison.
///
/// Nodes per solution in holes of 24 and 30 cells of clue 2 (a scan:rows solution, the
/// last cells along rows or along columns): mrv 4-75, ply:2 3-32, scan 500-72,000,
/// scan:rows 2,800-26,000; to the millionth, mrv took 508 nodes per solution and scan
/// 2,134, so a hole flatters the completing heuristics, but it orders them as the runs do.
pub struct Hole {
    /// The cells emptied.
    pub cells: usize,
    /// Each candidate's nodes per solution in the hole, in the candidates' order.
    pub rates: Vec<f64>,
}

/// The first hole's cells and the step by which holes grow while they fit.
const HOLE_CELLS: (usize, usize) = (8, 4);

impl Hole {
    /// The largest hole of `board` (a solution) that every one of `hs` searched to its
    /// end within `seconds`, growing by [`HOLE_CELLS`]; None when not even the first
    /// was (or on Ctrl-C).
    fn measure(
        puzzle: &Puzzle,
        hs: &[Heuristic],
        board: &Board,
        seconds: f64,
        stop: &AtomicBool,
    ) -> Option<Hole> {
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_secs_f64(seconds)),
            ..Limits::default()
        };
        let open = puzzle.free_cells();
        let (first, step) = HOLE_CELLS;
        let mut best = None;
        let mut cells = first.min(open);
        loop {
            let hole = Hole::cut(puzzle, board, cells);
            let mut rates = Vec::with_capacity(hs.len());
            for &h in hs {
                let r = run(&hole, Hole::within(h, open - cells), &limits, stop)?;
                if r.stopped.is_some() {
                    return best;
                }
                rates.push(r.nodes() as f64 / r.solutions_found.max(1) as f64);
            }
            best = Some(Hole { cells, rates });
            if cells == open {
                return best;
            }
            cells = (cells + step).min(open);
        }
    }

    /// `h` as it searches a hole whose cells come after `placed` placements: a hybrid
    /// that switched to its planned order above it searches the hole in that order
    /// (its switch depth counts from the hints, and a hole's are all but its cells).
    fn within(h: Heuristic, placed: usize) -> Heuristic {
        match h {
            Heuristic::Hybrid(Switch { n, at }) => Heuristic::Hybrid(Switch {
                n,
                at: at.saturating_sub(placed.try_into().unwrap_or(u16::MAX)),
            }),
            _ => h,
        }
    }

    /// `puzzle` with the cells of `board` (a solution) as hints but for the last
    /// `cells` of scan's order.
    pub fn cut(puzzle: &Puzzle, board: &Board, cells: usize) -> Puzzle {
        let st = State::new(puzzle);
        let columns = crate::puzzle::scans_columns(puzzle.width, puzzle.height);
        let order = Plan::Lines { columns }.order(&st);
        let kept = &order[..order.len().saturating_sub(cells)];
        let mut hole = puzzle.clone();
        let hint = |&c: &u32| Hint::of(board, puzzle.width, c as usize);
        hole.hints.extend(kept.iter().map(hint));
        hole
    }

    /// Candidate `i` to the K-th solution, after its short run `run`: the run's
    /// nodes, then its nodes per solution in the hole for each solution still to find.
    fn predict(&self, i: usize, run: &Short, k: u64) -> Candidate {
        let nodes = run.nodes as f64 + k.saturating_sub(run.solutions) as f64 * self.rates[i];
        Candidate {
            select: run.h,
            nodes,
            cost_s: run.cost_s(),
            time_s: nodes * run.cost_s(),
            measured: false,
            basis: Basis::Hole,
            depth: Some(run.deepest),
        }
    }
}

/// How far auto counts a tree other than scan's level by level ([`levels_within`]):
/// levels of up to 1,024 nodes, for as long as its time allows.
const LEVELS: Spread = Spread {
    level_max: 1024,
    walk_max: u64::MAX,
    probes: usize::MAX,
};

/// [`LEVELS`] with fixed costs: bounded by counts, not by the clock, so that the choice
/// depends on the seed alone.
const LEVELS_FIXED: Spread = Spread {
    level_max: 64,
    walk_max: 4096,
    probes: 80,
};

/// A hybrid's cost per node with fixed costs, on its tree `per_depth`: the nodes above
/// D at its dynamic heuristic's instructions, the others at its planned part's, and
/// every subtree at D its plan and tables ([`Switch::instructions_per_subtree`]), which
/// a short run's rate has in it. Priced at its planned part's alone, `--shard` on
/// Puzzle C with five hints chose ply:2@7 (24 subtrees of 2,500 nodes, 5.7 ms) over
/// order:hints (1.1 ms).
fn hybrid_fixed_cost(sw: Switch, per_depth: &[f64], puzzle: &Puzzle) -> f64 {
    let at = sw.at as usize;
    let above: f64 = per_depth.iter().take(at).sum();
    let all: f64 = per_depth.iter().sum();
    let subtrees = per_depth.get(at).copied().unwrap_or(0.0);
    let open = puzzle.free_cells();
    let instructions = above * sw.dynamic_instructions_per_node()
        + (all - above) * Heuristic::Hybrid(sw).instructions_per_node()
        + subtrees * Switch::instructions_per_subtree(open, 4 * puzzle.pieces.len());
    instructions / all.max(1.0) * 1e-9
}

/// The prediction of a candidate its short run (`run`; none with fixed costs) did
/// not settle, from Knuth's probes in about `seconds`: None on Ctrl-C, Some(None) for
/// a hybrid whose tree could not be counted down to its switch depth in the time.
#[allow(clippy::too_many_arguments)]
fn predict(
    puzzle: &Puzzle,
    h: Heuristic,
    solutions: Option<u64>,
    run: Option<&Short>,
    seconds: f64,
    costs: Costs,
    seed: u64,
    stop: &AtomicBool,
) -> Option<Option<Candidate>> {
    let run_nodes = run.map_or(0.0, |r| r.nodes as f64);
    let mut cost_s = run.map_or(fixed_cost(h), Short::cost_s);
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    let late = || match costs {
        Costs::Measured => stop.load(Ordering::Relaxed) || Instant::now() >= end,
        Costs::Fixed => stop.load(Ordering::Relaxed),
    };
    let never = || stop.load(Ordering::Relaxed);
    let per_depth = match h {
        // A hybrid's tree is counted level by level ([`levels_within`]), for 40% of the
        // time, then probed from the last level counted. Plain probes die out above its
        // switch depth D, and so do these while the count stops above D (on Eternity II
        // with its hints `ply:2@31`'s stop above level 28, and put its tree at 1e12-4e13
        // nodes); below D they probe the planned order, whose trees are not needles. So
        // a hybrid is weighed by its probes only when the count reached D and a round of
        // probes finished.
        Heuristic::Hybrid(Switch { at, .. }) => {
            let counted = Instant::now() + Duration::from_secs_f64(0.4 * seconds);
            let (spread, enough) = match costs {
                Costs::Measured => (LEVELS, Some(counted)),
                Costs::Fixed => (LEVELS_FIXED, None),
            };
            let enough = || enough.is_some_and(|t| Instant::now() >= t);
            let c = levels_within(puzzle, h, spread, seed, &never, &enough, &late)?;
            if !c.whole && (c.level < at as usize || c.rounds == 0) {
                return Some(None);
            }
            if let (Heuristic::Hybrid(sw), Costs::Fixed) = (h, costs) {
                cost_s = hybrid_fixed_cost(sw, &c.per_depth, puzzle);
            }
            c.per_depth
        }
        _ => {
            // Fixed costs fix the probes too (the first two batches, whatever the clock
            // says), so that the prediction depends on the seed alone.
            let batches = [16usize, 64, 64, 256, 256, 1024, 1024];
            let take = match costs {
                Costs::Measured => batches.len(),
                Costs::Fixed => 2,
            };
            per_depth_within(
                puzzle,
                h,
                batches.into_iter().take(take),
                seed,
                &never,
                &late,
            )?
        }
    };
    let tree: f64 = per_depth.iter().sum();
    let found = per_depth.last().copied().unwrap_or(0.0);
    let nodes = match solutions {
        None => tree,
        Some(k) => tree * (k as f64 / (found + 1.0)).min(1.0),
    }
    .max(run_nodes)
        * undercount(h);
    Some(Some(Candidate {
        select: h,
        nodes,
        cost_s,
        time_s: nodes * cost_s,
        measured: false,
        basis: Basis::Probes,
        depth: run.map(|r| r.deepest),
    }))
}
