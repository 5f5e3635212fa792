//! The `--symmetry` run: a fraction of the tree, cut by the geometry of
//! [`super::symmetry`], searched part by part, each solution reported with its turns.
//!
//! The pair trees (square boards, [`Parts::Pairs`]) differ in size (on Brendan's 8x8
//! Puzzle C by up to 2x), so the pairs and ways are chosen by Knuth estimates of the 24 trees
//! ([`estimate`](crate::search::estimate::estimate), stratified for `scan`),
//! the cheapest of the 8 covers winning ([`choose_pairs`]); the probes cost about
//! 0.5 % of the predicted search, and Ctrl-C or `--timeout` ends them
//! ([`parts_until`]). [`Parts::Auto`] takes pairs only for runs after every
//! solution (`--all`, whatever their node or time limits, so that a run resumed from
//! its checkpoints cuts the tree the same way) whose anchored tree is estimated at
//! [`PAIRS_FROM`] nodes or more. The part checkpoints record the trees, and a rerun
//! takes them from there without estimating (`recorded_cut`).
//!
//! Every solution found is reported with its turns, each checked again by the
//! independent checker.

use super::auto::{self, Budget, Costs, Setting};
use super::checkpoint::{self, cut_parts, of_recorded_cut, part_checkpoint, part_files, CutTree};
use super::estimate::{estimate_until, Stopped};
use super::limits::{self, Limits, Stats, Stop};
use super::outcome::{absorb, SolveResult, SymmetryPart};
use super::select::{Along, Heuristic, Strategy};
use super::solve::{solve_read, solve_with, Loaded, Spread};
use super::symmetry::{anchored_along, covers, half_turn, pair_corners, turn, with_corners, Parts};
use crate::error::{InputError, Result};
use crate::puzzle::{fingerprint, verify, Puzzle};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// [`Parts::Auto`] takes pairs when the anchored tree is estimated at this many nodes
/// or more (about a minute of `scan` on two threads): below it the choice is not
/// worth its probes.
pub const PAIRS_FROM: f64 = 1e10;

/// Probes of the estimate that decides [`Parts::Auto`].
const FIRST_PROBES: usize = 20_000;

/// One probe costs about as much as this many `scan` nodes (on scan's tables, below
/// the stratified top levels: 2.8e8 probes of Puzzle C's trees take 37 s of one
/// thread, as about 4e9 nodes do); the pair estimates get 0.5 % of the predicted
/// search (Puzzle C: 1.2e7 probes per tree). Ctrl-C and `--timeout` end them
/// ([`parts_until`]), and then nothing is searched.
const PROBE_COST: f64 = 15.0;
/// The same for the other heuristics' probes, on the generic state (as the search's
/// nodes are; the figure the `scan` estimates used before they had their own).
const GENERIC_PROBE_COST: f64 = 300.0;
const ESTIMATE_SHARE: f64 = 0.005;
/// Probes per pair tree, at least and at most.
const PAIR_PROBES: (usize, usize) = (2_000, 30_000_000);
/// The seed of every estimate here: the same puzzle always gets the same parts.
const SEED: u64 = 1;

/// One tree that `--symmetry` searches: the puzzle with corners fixed as hints, and
/// the heuristic it is searched with (its own lines for `scan`).
#[derive(Debug, Clone)]
pub struct Part {
    pub puzzle: Puzzle,
    pub select: Heuristic,
    /// Knuth's estimate of its nodes, when estimates chose it.
    pub estimate: Option<f64>,
}

impl Part {
    /// The corner pieces fixed in it, `[row, col, piece, rotation]` each (JSON
    /// `symmetry_parts[].corners`).
    pub fn corners(&self) -> Vec<[usize; 4]> {
        let hints = &self.puzzle.hints;
        hints
            .iter()
            .map(|c| [c.row, c.col, c.piece, c.rotation as usize])
            .collect()
    }

    /// The tree as checkpoints record it.
    fn tree(&self) -> CutTree {
        CutTree {
            corners: self.corners(),
            select: self.select,
            estimated_nodes: self.estimate,
        }
    }
}

/// The anchored trees, searched with `h` itself.
fn anchor_parts(anchors: &[Puzzle], h: Heuristic, estimate: Option<f64>) -> Vec<Part> {
    anchors
        .iter()
        .map(|q| Part {
            puzzle: q.clone(),
            select: h,
            estimate,
        })
        .collect()
}

/// Whether estimates choose the trees of a board whose solutions stand for `turns`
/// turns each: square boards under `pairs`, and under `auto` for runs after every
/// solution (`all`).
fn estimated(how: Parts, all: bool, turns: u64) -> bool {
    turns == 4 && (how == Parts::Pairs || (how == Parts::Auto && all))
}

/// Knuth's estimate of the nodes of `p`'s tree under `h`, from about `k` probes;
/// None once `stopped()`.
fn nodes(p: &Puzzle, h: Heuristic, k: usize, stopped: &Stopped<'_>) -> Option<f64> {
    estimate_until(p, h, k, SEED, stopped)
}

/// The ways a pair can lie on the first line for heuristic `h`: along rows (false)
/// or columns (true). Only `scan` fills lines; the others take the rows way.
fn ways(h: Heuristic) -> &'static [bool] {
    match h {
        Heuristic::Scan(Along::Shape) => &[false, true],
        Heuristic::Scan(Along::Columns) => &[true],
        _ => &[false],
    }
}

/// The tree of pair u → v (v right after u, clockwise) on a square board, laid the
/// `columns` way: v at the top-left and u at the bottom-left, or u at the top-left and
/// v at the top-right.
fn pair_part(p: &Puzzle, h: Heuristic, u: usize, v: usize, columns: bool) -> Option<Part> {
    let n = p.width;
    let fixed = if columns {
        [(v, 0, 0), (u, n - 1, 0)]
    } else {
        [(u, 0, 0), (v, 0, n - 1)]
    };
    let select = match h {
        Heuristic::Scan(_) => Heuristic::Scan(Along::fixed(columns)),
        other => other,
    };
    Some(Part {
        puzzle: with_corners(p, &fixed)?,
        select,
        estimate: None,
    })
}

/// The tree of every ordered pair of `corners` laid every way `h` has, with its pair.
fn pair_trees(p: &Puzzle, h: Heuristic, corners: &[usize]) -> Option<Vec<((usize, usize), Part)>> {
    let mut trees = Vec::new();
    for &u in corners {
        for &v in corners.iter().filter(|&&v| v != u) {
            for &columns in ways(h) {
                trees.push(((u, v), pair_part(p, h, u, v, columns)?));
            }
        }
    }
    Some(trees)
}

/// Every cut of `p` into pair trees that [`choose_pairs`] can pick under `h`: each
/// cover with each pair laid each way. Empty when pairs cannot cut `p`.
fn pair_cuts(p: &Puzzle, h: Heuristic) -> Vec<Vec<Part>> {
    let Some(corners) = pair_corners(p) else {
        return Vec::new();
    };
    let Some(trees) = pair_trees(p, h, &corners) else {
        return Vec::new();
    };
    let mut cuts = Vec::new();
    for cover in covers(&corners) {
        let mut these = vec![Vec::new()];
        for pair in cover {
            let laid = trees.iter().filter(|(q, _)| *q == pair);
            these = these
                .iter()
                .flat_map(|cut: &Vec<Part>| {
                    laid.clone()
                        .map(|(_, t)| [&cut[..], std::slice::from_ref(t)].concat())
                })
                .collect();
        }
        cuts.extend(these);
    }
    cuts
}

/// The three pair trees of the cheapest cover (module doc) of square `p` under `h`,
/// each tree estimated from `k` probes on up to `threads` threads. None when `p` does
/// not have exactly four corner pieces; an empty list when `stopped()` ended the
/// estimates.
pub fn choose_pairs(
    p: &Puzzle,
    h: Heuristic,
    k: usize,
    threads: usize,
    stopped: &Stopped<'_>,
) -> Option<Vec<Part>> {
    let corners = pair_corners(p)?;
    let mut trees = pair_trees(p, h, &corners)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .ok()?;
    pool.install(|| {
        trees.par_iter_mut().for_each(|(_, t)| {
            t.estimate = nodes(&t.puzzle, t.select, k, stopped);
        })
    });
    if trees.iter().any(|(_, t)| t.estimate.is_none()) {
        return Some(Vec::new());
    }
    // All are set now.
    let est = |t: &Part| t.estimate.unwrap_or(0.0);
    // The cheaper way of each pair (the first on a tie).
    let best = |u: usize, v: usize| {
        trees
            .iter()
            .filter(|(pair, _)| *pair == (u, v))
            .min_by(|a, b| est(&a.1).total_cmp(&est(&b.1)))
            .map(|(_, t)| t.clone())
    };
    let cost = |parts: &[Part]| parts.iter().map(est).sum::<f64>();
    // The first cheapest cover wins, so a tie keeps the pairs out of the anchor.
    covers(&corners)
        .into_iter()
        .map(|cover| {
            cover
                .iter()
                .map(|&(u, v)| best(u, v))
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<Vec<_>>>()?
        .into_iter()
        .reduce(|a, b| if cost(&b) < cost(&a) { b } else { a })
}

/// The trees `--symmetry` searches for `p` under `h` (`how`; only runs after every
/// solution, `all`, get pairs from `Auto`), the turns each solution found stands for,
/// and the seconds the estimates took. None when `p` has hints or a side shorter than 2.
pub fn parts(
    p: &Puzzle,
    h: Heuristic,
    how: Parts,
    all: bool,
    threads: usize,
) -> Option<(Vec<Part>, u64, f64)> {
    parts_until(p, h, how, all, threads, &|| false)
}

/// [`parts`], with no trees at all when `stopped()` ended the estimates that choose
/// them (nothing may be searched then: a resumed run must cut the board the same way).
pub fn parts_until(
    p: &Puzzle,
    h: Heuristic,
    how: Parts,
    all: bool,
    threads: usize,
    stopped: &Stopped<'_>,
) -> Option<(Vec<Part>, u64, f64)> {
    let start = Instant::now();
    let (anchors, turns) = anchored_along(p, h.lines_columns(p.width, p.height))?;
    let anchor_parts = |estimate| {
        let parts = anchor_parts(&anchors, h, estimate);
        Some((parts, turns, start.elapsed().as_secs_f64()))
    };
    if !estimated(how, all, turns) {
        return anchor_parts(None);
    }
    let Some(whole) = nodes(&anchors[0], h, FIRST_PROBES, stopped) else {
        return Some((Vec::new(), turns, start.elapsed().as_secs_f64()));
    };
    if how == Parts::Auto && whole < PAIRS_FROM {
        return anchor_parts(Some(whole));
    }
    let trees = 12 * ways(h).len(); // 4 x 3 ordered pairs, each laid every way
    let cost = if h.is_scan() {
        PROBE_COST
    } else {
        GENERIC_PROBE_COST
    };
    let budget = whole * ESTIMATE_SHARE / cost / trees as f64;
    let k = (budget as usize).clamp(PAIR_PROBES.0, PAIR_PROBES.1);
    match choose_pairs(p, h, k, threads, stopped) {
        Some(pairs) => {
            for t in &pairs {
                tracing::info!(
                    corners = ?t.corners(),
                    select = %t.select,
                    estimate = t.estimate,
                    probes = k,
                    anchored_estimate = whole,
                    "symmetry part"
                );
            }
            Some((pairs, turns, start.elapsed().as_secs_f64()))
        }
        None => anchor_parts(Some(whole)),
    }
}

/// The trees an earlier run with `--checkpoint file` cut `p` into, as [`parts_until`]
/// gives them, read from the part checkpoints (`file`, `file.tr`, `file.tr3`) rather
/// than estimated again: a rerun, however soon it is stopped, cuts the board as the
/// run that wrote them did. Each file names its tree (the fingerprint of its puzzle,
/// whose hints are the fixed corners, and its heuristic). The first part alone does
/// not tell the rest (the pair of the two lowest corner pieces, either way round,
/// begins two covers, and under `scan` each later pair may lie two ways), so each
/// file also records the whole cut (`symmetry_parts`). Of the cuts the estimates
/// could pick, those that fit every file remain: one is the cut; none refuses the
/// file that ruled out the last; several (older files, without the record, of a run
/// stopped before its last part) leave it to the estimates, as before: None, as when
/// there are no files or no estimates choose the trees. First, whatever chooses the
/// trees, a file of this puzzle's search without `--symmetry` or of another
/// `--symmetry-parts` is refused with what it is and how to resume it. The files it
/// read, it leaves in `read` for the parts' runs (`read[i]`: part i's, None when there
/// is none).
fn recorded_cut(
    p: &Puzzle,
    h: Heuristic,
    how: Parts,
    all: bool,
    file: &Path,
    read: &mut Vec<Option<checkpoint::Checkpoint>>,
) -> Result<Option<(Vec<Part>, u64, f64)>> {
    let start = Instant::now();
    let Some((anchors, turns)) = anchored_along(p, h.lines_columns(p.width, p.height)) else {
        return Ok(None);
    };
    for i in 0..3 {
        read.push(checkpoint::read_checkpoint(&part_checkpoint(file, i))?);
    }
    let files: Vec<_> = (read.iter().enumerate())
        .filter_map(|(i, ck)| Some((i, part_checkpoint(file, i), ck.as_ref()?)))
        .collect();
    let estimated = estimated(how, all, turns);
    // Without estimates the cut is the anchor (`parts_until`).
    let asked = match (estimated, how) {
        (true, Parts::Auto) => None,
        (true, how) => Some((how, how.to_string())),
        (false, Parts::Auto) => Some((
            Parts::Anchor,
            "anchor (what auto takes without --all)".into(),
        )),
        (false, _) => Some((Parts::Anchor, "anchor".into())),
    };
    // A file of this puzzle's search of another kind: say which, and how to resume it.
    for (_, path, ck) in &files {
        let refuse = |why: String| {
            Err(InputError::new(
                path.display().to_string(),
                format!(
                    "this checkpoint {why}, or delete {} to start again",
                    part_files(file)
                ),
            ))
        };
        if ck.fingerprint == fingerprint(p) {
            return refuse("is of a search without --symmetry, not of a --symmetry tree; rerun without --symmetry to resume it".into());
        }
        let held = cut_parts(&ck.symmetry_parts).filter(|_| of_recorded_cut(p, ck));
        if let (Some(held), Some((want, text))) = (held, &asked) {
            if held != *want {
                return refuse(format!("holds a tree of another --symmetry cut: --symmetry-parts {held}, not {text} as asked; rerun with --symmetry-parts {held} to resume it"));
            }
        }
    }
    if !estimated || files.is_empty() {
        return Ok(None);
    }
    let mut cuts = pair_cuts(p, h);
    if how == Parts::Auto || cuts.is_empty() {
        // Auto's small trees, and a board pairs cannot cut.
        cuts.push(anchor_parts(&anchors, h, None));
    }
    let mut left: Vec<usize> = (0..cuts.len()).collect();
    for (k, (i, path, ck)) in files.iter().enumerate() {
        let is = |t: &Part| ck.is_for(&t.puzzle, t.select);
        let at = |cut: &[Part]| cut.get(*i).is_some_and(is);
        // The cut it records, if any (the estimates aside).
        let same = |cut: &[Part]| {
            let r = &ck.symmetry_parts;
            let tree = |(t, r): (&Part, &CutTree)| t.corners() == r.corners && t.select == r.select;
            r.is_empty() || (cut.len() == r.len() && cut.iter().zip(r).all(tree))
        };
        left.retain(|&c| at(&cuts[c]) && same(&cuts[c]));
        if left.is_empty() {
            let why = if !cuts.iter().flatten().any(is) {
                format!("is for none of the trees --symmetry-parts {how} cuts this puzzle into under --select {h}")
            } else if !cuts.iter().any(|c| at(c)) {
                let nth = ["first", "second", "third"][*i];
                format!("is of a tree that no cut searches {nth}")
            } else if k == 0 {
                "records symmetry_parts that are no cut --symmetry makes of this puzzle".into()
            } else {
                let before: Vec<String> = files[..k]
                    .iter()
                    .map(|f| f.1.display().to_string())
                    .collect();
                format!("is not of the --symmetry cut of {}", before.join(" and "))
            };
            return Err(InputError::new(
                path.display().to_string(),
                format!("this checkpoint {why}; use another --checkpoint file or delete it"),
            ));
        }
    }
    let [c] = left[..] else {
        return Ok(None);
    };
    let mut parts = cuts.swap_remove(c);
    // The estimates that chose the trees, for the report.
    if let Some((_, _, ck)) = files.iter().find(|f| !f.2.symmetry_parts.is_empty()) {
        for (t, r) in parts.iter_mut().zip(&ck.symmetry_parts) {
            t.estimate = r.estimated_nodes;
        }
    }
    Ok(Some((parts, turns, start.elapsed().as_secs_f64())))
}

/// [`solve_symmetric_parts`] with [`Parts::Auto`].
pub fn solve_symmetric(
    p: &Puzzle,
    h: impl Into<Strategy>,
    limits: &Limits,
    stop: &AtomicBool,
    spread: &Spread,
) -> Result<SolveResult> {
    solve_symmetric_parts(p, h, Parts::Auto, limits, stop, spread)
}

/// [`solve_with`] on the trees of [`parts`] when `p` allows it (see the module doc),
/// else on `p`. Solution counts and kept solutions are those of the whole puzzle; node
/// counts are those of the trees searched, their fixed corners counted as hints. The
/// runs go one after the other; with `--checkpoint FILE` they use FILE, FILE.tr and
/// FILE.tr3, and a rerun takes its trees from them. The estimates' time counts in
/// `elapsed_s`.
pub fn solve_symmetric_parts(
    p: &Puzzle,
    h: impl Into<Strategy>,
    how: Parts,
    limits: &Limits,
    stop: &AtomicBool,
    spread: &Spread,
) -> Result<SolveResult> {
    let h: Strategy = h.into();
    let all = limits.max_solutions.is_none();
    let stopped = || limits::stop_reason(limits, stop).is_some();
    let threads = spread.threads();
    // The part checkpoints recorded_cut read, if it read them.
    let mut read = Vec::new();
    let recorded = match &spread.checkpoint {
        Some(file) => recorded_cut(p, h.select, how, all, file, &mut read)?,
        None => None,
    };
    let chosen = recorded.or_else(|| parts_until(p, h.select, how, all, threads, &stopped));
    let Some((parts, turns, chose_s)) = chosen else {
        return solve_with(p, h, limits, stop, spread);
    };
    if parts.is_empty() {
        // Stopped while choosing the trees: nothing searched, no checkpoint written.
        let stats = Stats {
            stopped: Some(limits::stop_reason(limits, stop).unwrap_or(Stop::Timeout)),
            ..Stats::default()
        };
        let mut r = SolveResult::new(p, h, threads, stats, chose_s);
        r.symmetry = turns;
        r.shard = spread.shard_field();
        return Ok(r);
    }
    let keep = limits.keep.div_ceil(turns as usize);
    // Every part's checkpoint records the whole cut, for a rerun (`recorded_cut`).
    let spread = &Spread {
        cut: parts.iter().map(Part::tree).collect(),
        ..spread.clone()
    };
    // Every part's checkpoint is checked before any part is searched: a stale later
    // one must not cost the earlier parts' search.
    for (i, part) in parts.iter().enumerate() {
        if let (Some(Some(ck)), Some(file)) = (read.get(i), &spread.checkpoint) {
            let s = Strategy {
                select: part.select,
                ..h
            };
            let depth = spread.split_depth.unwrap_or(ck.split_depth);
            let path = part_checkpoint(file, i);
            ck.check(
                &path,
                &part.puzzle,
                s,
                depth,
                spread.shard_field(),
                &spread.cut,
            )?;
        }
    }
    let mut total: Option<SolveResult> = None;
    let mut searched = Vec::new();
    // One node budget for the whole run, as the deadline is: each part gets what the
    // parts before it left of this run's new work (what they read from their
    // checkpoints or rebuilt for them is not new).
    let mut spent = 0;
    for (i, part) in parts.iter().enumerate() {
        let found = total.as_ref().map_or(0, |t| t.solutions_found);
        let budget = limits.max_nodes.map(|m| m.saturating_sub(spent));
        if let (Some(0), Some(t)) = (budget, &mut total) {
            (t.exhaustive, t.stopped_by) = (false, Some(Stop::MaxNodes));
            break;
        }
        let inner = Limits {
            max_solutions: limits
                .max_solutions
                .map(|k| k.div_ceil(turns).saturating_sub(found)),
            max_nodes: budget,
            keep,
            ..limits.clone()
        };
        let mut spread = spread.clone();
        spread.checkpoint = spread.checkpoint.map(|f| part_checkpoint(&f, i));
        let s = Strategy {
            select: part.select,
            ..h
        };
        let ck = match read.get_mut(i) {
            Some(ck) => Loaded::Read(ck.take()),
            None => Loaded::Unread,
        };
        let mut r = solve_read(&part.puzzle, s, &inner, stop, &spread, ck)?;
        // Where a shard's boards were found: in this tree.
        for from in r.solutions_from.iter_mut().chain(&mut r.deepest_from) {
            from[0] = i;
        }
        spent += (r.nodes - r.resumed_nodes).saturating_sub(r.rebuilt_nodes);
        // The deepest board counts its fixed corners as pieces placed, as a whole-tree
        // search of the puzzle would (they are hints of the part only).
        r.deepest.depth += part.puzzle.hints.len() - p.hints.len();
        searched.push(SymmetryPart {
            corners: part.corners(),
            select: part.select,
            estimated_nodes: part.estimate,
            nodes: r.nodes,
            solutions_found: r.solutions_found,
        });
        let stopped = r.stopped_by.is_some();
        total = Some(match total {
            None => r,
            Some(mut t) => {
                let elapsed = t.elapsed_s + r.elapsed_s;
                absorb(&mut t, &r, keep);
                (t.threads, t.elapsed_s) = (r.threads, elapsed);
                t
            }
        });
        if stopped {
            break;
        }
    }
    let mut r = total.expect("at least one part");
    r.select = h.select;
    r.elapsed_s += chose_s;
    r.set_rate();
    r.symmetry_parts = searched;
    let found = r.solutions_found * turns;
    r.solutions_found = limits.max_solutions.map_or(found, |k| found.min(k));
    let mut kept = Vec::new();
    // Each turn of a board was found where the board was.
    let keyed = r.solutions_from.len() == r.solutions.len();
    let mut from = Vec::new();
    for i in 0..r.solutions.len() {
        let mut b = r.solution_board(i);
        for _ in 0..turns {
            if let Err(v) = verify::check(p, &b, true) {
                panic!("internal error: a turned solution fails the checker: {v}");
            }
            kept.push(b.clone());
            if keyed {
                from.push(r.solutions_from[i]);
            }
            b = if turns == 4 {
                turn(&b, p.width)
            } else {
                half_turn(&b)
            };
        }
    }
    kept.truncate(limits.keep.min(r.solutions_found as usize));
    from.truncate(kept.len());
    r.solutions = kept.iter().map(super::outcome::solution_cells).collect();
    r.solutions_from = from;
    r.symmetry = turns;
    // The parts' puzzles hold the anchor as a hint; the result is of the whole puzzle.
    r.set_fingerprint(fingerprint(p));
    Ok(r)
}

/// One run of `compare` or `bench`: [`solve`] on `threads` threads (the parallel
/// driver when more than one: same counts when exhaustive), on the trees of `solve
/// --symmetry` (its default `--symmetry-parts auto`) when `symmetric` (see
/// [`solve_symmetric`]).
pub fn solve_one(
    puzzle: &Puzzle,
    h: impl Into<Strategy>,
    symmetric: bool,
    threads: usize,
    limits: &Limits,
    stop: &AtomicBool,
) -> SolveResult {
    let spread = Spread {
        threads,
        ..Spread::default()
    };
    if symmetric {
        solve_symmetric(puzzle, h, limits, stop, &spread)
    } else {
        solve_with(puzzle, h, limits, stop, &spread)
    }
    .expect("a whole-puzzle search has no input to reject")
}

/// [`solve_one`] for a `--select` setting of `compare` or `bench`: `auto` first
/// chooses ([`auto::choose`], costs measured, within `budget`), then runs its choice
/// (on the same trees as the others: `symmetric` as given); the result's `auto` says
/// what and why, and its [`SolveResult::total_s`] counts the choosing. `strategy`
/// wraps the heuristic run in the command's options. None when Ctrl-C stopped the
/// choosing.
#[allow(clippy::too_many_arguments)]
pub fn solve_setting(
    puzzle: &Puzzle,
    setting: Setting,
    strategy: impl Fn(Heuristic) -> Strategy,
    symmetric: bool,
    threads: usize,
    limits: &Limits,
    (budget, seed): (Budget, u64),
    stop: &AtomicBool,
) -> Option<SolveResult> {
    let (h, choice) = match setting {
        Setting::Use(h) => (h, None),
        Setting::Auto => {
            let c = auto::choose(
                puzzle,
                limits.max_solutions,
                budget,
                Costs::Measured,
                seed,
                stop,
            )?;
            (c.chosen, Some(c))
        }
    };
    // The deadline was set before the choosing: the search gets what is left of it.
    let mut r = solve_one(puzzle, strategy(h), symmetric, threads, limits, stop);
    r.auto = choice;
    Some(r)
}
