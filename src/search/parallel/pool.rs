//! The workers of a parallel run: the context they share ([`Ctx`]), a subproblem's
//! task on rayon's pool, giving work away ([`Share`]) and filing what each finished.

use super::compact::{self, Finished, Record};
use super::frontier::{apply, Prefix};
use super::shelf::{Rank, Shelf};
use crate::puzzle::Puzzle;
use crate::search::engine::search_sharing;
use crate::search::limits::{Limits, Share, Stats, Stop};
use crate::search::select::{ScanTables, Strategy};
use crate::search::state::State;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Shared by the workers of one [`run`].
pub(super) struct Ctx<'a> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) s: Strategy,
    pub(super) root: State,
    /// `scan`'s tables, built once from `root` and shared by every subproblem (none
    /// for the other heuristics).
    pub(super) tables: ScanTables,
    pub(super) limits: &'a Limits,
    /// Solutions wanted in all (u64::MAX: all).
    pub(super) want: u64,
    /// Nodes this run counted before any subproblem (the frontier's internal nodes):
    /// with the subproblems' nodes, what `--max-nodes` limits. A checkpoint's records
    /// are not in it, so a resumed run gets the whole budget for new work; with a
    /// checkpoint the frontier is not in it either (0).
    pub(super) base_nodes: u64,
    pub(super) halt: AtomicBool,
    pub(super) hungry: AtomicBool,
    pub(super) queued: AtomicUsize,
    pub(super) found: AtomicU64,
    pub(super) nodes: AtomicU64,
    pub(super) started: AtomicUsize,
    pub(super) records: Mutex<Vec<Record>>,
    /// The closed records, summed as they come ([`Folded`]).
    pub(super) folded: Mutex<Folded>,
    /// With a checkpoint, the frontier's subproblems: the file names the closed ones
    /// [`Folded`] sums by their index.
    pub(super) units: Option<&'a compact::Units<'a>>,
    pub(super) partial: Mutex<Vec<(Prefix, Stats)>>,
    /// The greatest depth a filed subproblem reached.
    pub(super) deepest: AtomicUsize,
    pub(super) skipped: AtomicUsize,
    /// A stopped subproblem hands over its untried rest and is recorded as finished
    /// ([`Share::wants_rest`]): when there is a checkpoint to keep its work.
    pub(super) keep_rest: bool,
    /// The run's solution boards: its first `--keep`, whichever subproblem found them.
    pub(super) shelf: Arc<Shelf>,
}

impl Ctx<'_> {
    /// Adds what a worker just searched to the run's totals; halts the run once it has
    /// the solutions wanted. Returns the nodes this run has searched (see `base_nodes`).
    pub(super) fn count(&self, nodes: u64, solutions: u64) -> u64 {
        let used = self.base_nodes + self.nodes.fetch_add(nodes, Ordering::AcqRel) + nodes;
        if solutions > 0
            && self.found.fetch_add(solutions, Ordering::AcqRel) + solutions >= self.want
        {
            self.halt.store(true, Ordering::Release);
        }
        used
    }

    /// Files the outcome of a subproblem: a record when `finished` (its subtree searched
    /// to the end, or what a stop left of it handed over to `given`, see
    /// [`Ctx::keep_rest`]); else a partial outcome. A limit that stopped it (not the halt
    /// flag) halts the run.
    pub(super) fn file(
        &self,
        prefix: Prefix,
        mut stats: Stats,
        given: Vec<Prefix>,
        finished: bool,
    ) {
        if stats.stopped.is_some_and(|w| w != Stop::Interrupted) {
            self.halt.store(true, Ordering::Release);
        }
        // A subproblem shallower than one filed before never holds the run's deepest
        // board (`Stats::merge` keeps its depth without a board, as a compacted
        // checkpoint's records do), so its board (a cell each) is not kept.
        if stats.deepest < self.deepest.fetch_max(stats.deepest, Ordering::AcqRel) {
            stats.deepest_board = Vec::new();
        }
        let closed = given.is_empty() && stats.solutions_found == 0 && stats.stopped.is_none();
        // With a checkpoint only the frontier's are summed at once (the file names them
        // by index); one given away waits among the records for its giver (`compact`).
        let unit = self.units.map(|u| u.index(&prefix));
        if finished && closed && unit != Some(None) {
            let unit = unit.flatten();
            (self.folded.lock().unwrap()).add(self.puzzle, self.s, prefix, stats, unit);
        } else if finished {
            self.records.lock().unwrap().push(Record {
                prefix,
                stats,
                given,
            });
        } else {
            self.partial.lock().unwrap().push((prefix, stats));
        }
    }
}

/// The closed records of a run (searched to the end, no solution, nothing given away,
/// no stop), summed as they are filed instead of kept: the merge (and a checkpoint) needs
/// of them only their counts and the first of them in search order at the greatest
/// depth, the one whose deepest board the merge would keep. A record costs its prefix,
/// its nodes per depth and a board (about 2 KB on a 6x6), and a deep `--split-depth`
/// files millions (6.6 GB at depth 16 on Brendan's 6x6 when all were kept).
#[derive(Default)]
pub(super) struct Folded {
    /// The first at the greatest depth so far, as filed.
    first: Option<(Rank, Record, Option<usize>)>,
    /// The counts of all the others (no board).
    rest: Stats,
    /// Their indices among the frontier's subproblems (with a checkpoint, see
    /// [`Ctx::units`]; else none).
    units: Vec<usize>,
    /// For the ranks under `--move-order penalty` (None until a tie needs one).
    st: Option<State>,
}

impl Folded {
    /// Files subproblem `prefix` (the frontier's `unit`-th, with a checkpoint).
    fn add(
        &mut self,
        puzzle: &Puzzle,
        s: Strategy,
        prefix: Prefix,
        stats: Stats,
        unit: Option<usize>,
    ) {
        let mut rank = |p: &Prefix| {
            let st = self.st.get_or_insert_with(|| State::new(puzzle));
            Rank::of(st, s, p)
        };
        // Its rank when it takes over as the first deepest.
        let wins = match &self.first {
            None => Some(rank(&prefix)),
            Some((first_rank, first, _)) => match stats.deepest.cmp(&first.stats.deepest) {
                std::cmp::Ordering::Greater => Some(rank(&prefix)),
                std::cmp::Ordering::Equal => Some(rank(&prefix)).filter(|r| r < first_rank),
                std::cmp::Ordering::Less => None,
            },
        };
        // The one it beats, or itself, goes to the rest.
        let beaten = match wins {
            Some(r) => {
                let given = Vec::new();
                let first = (
                    r,
                    Record {
                        prefix,
                        stats,
                        given,
                    },
                    unit,
                );
                self.first
                    .replace(first)
                    .map(|(_, old, unit)| (old.stats, unit))
            }
            None => Some((stats, unit)),
        };
        let Some((mut stats, unit)) = beaten else {
            return;
        };
        stats.deepest_board = Vec::new();
        self.rest.merge(&stats, 0);
        self.units.extend(unit);
    }

    /// `before` (the subproblems a checkpoint summed) with the ones filed here, and
    /// `records` with the first deepest, which keeps a record of its own.
    pub(super) fn with(
        &self,
        before: &Finished,
        mut records: Vec<Record>,
    ) -> (Finished, Vec<Record>) {
        let mut sum = before.stats();
        sum.merge(&self.rest, 0);
        let mut units = before.units.clone();
        units.extend(&self.units);
        units.sort_unstable();
        records.extend(self.first.as_ref().map(|(_, r, _)| Record {
            prefix: r.prefix.clone(),
            stats: r.stats.clone(),
            given: Vec::new(),
        }));
        let finished = Finished {
            units,
            nodes_per_depth: sum.nodes_per_depth,
        };
        (finished, records)
    }
}

/// The [`Share`] of one running subproblem: spawns what it gives away.
struct Donor<'x, 's, 'a> {
    ctx: &'s Ctx<'a>,
    scope: &'x rayon::ScopeFifo<'s>,
    base: &'x [(usize, u32)],
    given: Vec<Prefix>,
}

impl<'a: 's, 's> Share for Donor<'_, 's, 'a> {
    #[inline]
    fn wants(&mut self) -> bool {
        self.ctx.hungry.load(Ordering::Relaxed)
    }

    fn take(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) -> bool {
        if !self.ctx.hungry.swap(false, Ordering::AcqRel) {
            return false;
        }
        for p in given_away(self.base, path, site, untried) {
            self.given.push(p.clone());
            spawn(self.ctx, self.scope, p);
        }
        true
    }

    fn wants_rest(&self) -> bool {
        self.ctx.keep_rest
    }

    fn rest(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) {
        // Left for the next run: the run is stopping.
        self.given
            .extend(given_away(self.base, path, site, untried));
    }
}

/// The subproblems a search below `base` gives away through [`Share::take`]: one per
/// untried placement at `site`, below the placements `path`.
pub(super) fn given_away(
    base: &[(usize, u32)],
    path: &[(usize, u32)],
    site: usize,
    untried: &[u64],
) -> Vec<Prefix> {
    let mut out = Vec::new();
    for (k, &w) in untried.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let o = (k * 64) as u32 + w.trailing_zeros();
            w &= w - 1;
            let mut p = Vec::with_capacity(base.len() + path.len() + 1);
            p.extend_from_slice(base);
            p.extend_from_slice(path);
            p.push((site, o));
            out.push(p);
        }
    }
    out
}

pub(super) fn spawn<'a: 's, 's>(ctx: &'s Ctx<'a>, scope: &rayon::ScopeFifo<'s>, p: Prefix) {
    ctx.queued.fetch_add(1, Ordering::AcqRel);
    scope.spawn_fifo(move |s| task(ctx, s, p));
}

/// Searches one subproblem and files its outcome.
fn task<'a: 's, 's>(ctx: &'s Ctx<'a>, scope: &rayon::ScopeFifo<'s>, prefix: Prefix) {
    if ctx.queued.fetch_sub(1, Ordering::AcqRel) == 1 {
        ctx.hungry.store(true, Ordering::Release);
    }
    let found = ctx.found.load(Ordering::Acquire);
    let used = ctx.base_nodes + ctx.nodes.load(Ordering::Acquire);
    let budget = ctx.limits.max_nodes.map(|m| m.saturating_sub(used));
    if ctx.halt.load(Ordering::Acquire) || found >= ctx.want || budget == Some(0) {
        ctx.halt.store(true, Ordering::Release);
        ctx.skipped.fetch_add(1, Ordering::Relaxed);
        return;
    }
    ctx.started.fetch_add(1, Ordering::Relaxed);
    let mut st = ctx.root.clone();
    let limits = Limits {
        max_nodes: budget,
        deadline: ctx.limits.deadline,
        max_solutions: (ctx.want != u64::MAX).then(|| ctx.want - found),
        keep: ctx.limits.keep,
        shelf: Some(ctx.shelf.slot(Rank::of(&mut st, ctx.s, &prefix)).sink()),
    };
    apply(&mut st, &prefix).expect("subproblem prefixes were checked");
    let mut donor = Donor {
        ctx,
        scope,
        base: &prefix,
        given: Vec::new(),
    };
    let stats = crate::with_strategy!(ctx.s, &ctx.root, tables: &ctx.tables, |sel| search_sharing(
        &mut st, &mut sel, ctx.puzzle, &limits, &ctx.halt, &mut donor
    ));
    let given = donor.given;
    ctx.count(stats.nodes(), stats.solutions_found);
    // A stop (the solution limit too) made the search hand its rest over when
    // keep_rest is on.
    let finished = stats.stopped.is_none() || ctx.keep_rest;
    ctx.file(prefix, stats, given, finished);
    if ctx.queued.load(Ordering::Acquire) == 0 {
        ctx.hungry.store(true, Ordering::Release);
    }
}
