//! The parallel search: the top of the tree expanded breadth-first into a frontier of
//! independent subproblems, each searched depth-first on rayon's pool, and the
//! per-worker counts summed at the end.
//!
//! **Subproblems.** A subproblem is a *prefix*: the placements `(cell, oriented piece)`
//! from the root, as the heuristic makes them. Its depth-first search counts its own
//! start node; the frontier counts the nodes above the frontier (its *internal* nodes)
//! exactly once, and treats a dead internal node exactly as the DFS does (counted, no
//! children). Disjoint subtrees plus the internal nodes are the whole tree, so
//! `nodes_per_depth` and `solutions_found` equal the single-thread run's for every
//! heuristic and thread count.
//!
//! **Frontier ("Tree-packing algorithms").** The top levels live in one packed array:
//! every node stores its parent's index and its placement, levels are contiguous, and
//! a node's prefix is read by walking parent indices (a heap indexation generalised
//! to a varying branching factor). Expansion stops at the first level with at least
//! the wanted number of nodes (default 8 per worker thread run, see
//! [`crate::search::workers`]) or at `--split-depth`. The
//! frontier depends only on the puzzle, the heuristic and the split depth, so shards
//! and job files are reproducible.
//!
//! **Keeping every core busy.** Subtree sizes differ by orders of magnitude, so a
//! static split leaves cores idle at the end. A running DFS therefore gives work away
//! ([`crate::search::limits::Share`]): when the queue of unstarted subproblems runs empty, the
//! next worker to poll (every 4096 nodes) hands the untried placements at its
//! *shallowest* open depth, the biggest pieces of work it has, to the pool as new
//! subproblems and drops them from its own stack. Nothing is abandoned or searched
//! twice, so counts stay exact; rayon's work stealing spreads the new tasks.
//!
//! **Stopping.** Workers poll one shared flag (`halt`) every 4096 nodes. It is set by
//! the first worker that reaches the solution limit or the node limit, and by a helper
//! thread that copies the caller's stop flag (Ctrl-C) and the deadline into it (once
//! before the first subproblem too: a run already due searches nothing). With `--solutions K`
//! the result keeps exactly K solutions: each subproblem may find up to the K still
//! missing when it starts, and the surplus of a race is cut off in search order.
//! `--max-nodes` is checked per subproblem against the budget left when it starts, so
//! with several threads a run may overshoot it.
//!
//! **Order.** Subproblems are started in prefix order (the DFS order; rayon's FIFO
//! scope), or with `--order penalty` least penalty first ([`order_by_penalty`]), which
//! changes only which solutions a run that stops early finds. Outcomes are merged in
//! the DFS order either way (`merged`: by prefix, or under `--move-order penalty`
//! by each placement's penalty at its node). A donor's own outcome covers only
//! placements that come before the ones it gave away, so with `--all` the kept
//! solutions are the single-thread run's first `--keep`, in its order. The boards
//! themselves go to one shelf for the whole run ([`shelf`]), which holds only
//! the first `--keep` in that order of those found so far.

pub mod compact;
pub mod frontier;
pub mod interleave;
mod pool;
pub mod resume;
pub mod shelf;

pub use compact::{Finished, Record};
pub use frontier::{
    apply, check_path, frontier, frontier_of, full_frontier, order_by_penalty, paths_legal,
    paths_pass, search_ranks, share, unapply, unit_of, Frontier, FrontierError, Prefix, Split,
    FRONTIER_MAX, MAX_SPLIT_DEPTH, UNITS_PER_SHARD, UNITS_PER_THREAD,
};
pub use resume::resume;

use crate::puzzle::Puzzle;
use crate::search::limits::{stop_reason, Limits, Stats, Stop};
use crate::search::select::{Order, ScanTables, Strategy};
use crate::search::state::State;
use frontier::in_search_order;
use interleave::Plan;
use pool::{spawn, Ctx, Folded};
use shelf::{Rank, Shelf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the helper thread calls the progress callback (checkpoints).
pub const SAVE_EVERY: Duration = Duration::from_secs(3);

/// A checkpointed run's way to its file: `save` is called now and then with what the
/// file holds, the subproblems summed so far (`Finished`) and the other records.
pub struct Saver<'a> {
    pub save: &'a (dyn Fn(&Finished, Vec<Record>) + Sync + 'a),
    /// The run's frontier subproblems (all of them, not only the ones left to search).
    pub units: &'a compact::Units<'a>,
}

/// What [`run`] did.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Everything counted: the `base` counts, finished and unfinished subproblems.
    pub stats: Stats,
    /// Finished subproblems (the checkpoint's content), previous ones included; with
    /// their boards (those among the run's first `--keep`) only when there is a
    /// checkpoint to save them to.
    pub records: Vec<Record>,
    /// The finished frontier subproblems summed instead of recorded (the checkpoint's
    /// too): the work's `finished`, plus what the run's saves compacted.
    pub finished: Finished,
    /// Subproblems searched by this run (frontier units plus the ones given away).
    pub subproblems: usize,
    /// Nodes of `stats` read from the checkpoint's records, not searched by this run.
    pub resumed_nodes: u64,
    /// Nodes of `stats` in the frontier (`base`) that `--max-nodes` was not charged
    /// for: all of them with a checkpoint (see `Ctx::base_nodes`), else none.
    pub rebuilt_nodes: u64,
}

/// What one [`run`] searches: the subproblems left to search, what is counted before
/// any of them (the frontier's internal nodes, when this run owns them), and the
/// subproblems an earlier run finished (a checkpoint's records). Both lists come from
/// [`resume`], which checked them.
pub struct Work {
    pub todo: Vec<Prefix>,
    pub base: Stats,
    pub done: Vec<Record>,
    /// The subproblems an earlier run finished and summed.
    pub finished: Finished,
}

/// How a [`run`] schedules its subproblems: in which order, on how many workers (0: all
/// cores), depth-first each or interleaved.
#[derive(Clone, Copy)]
pub struct Schedule<'a> {
    pub order: Order,
    pub threads: usize,
    pub interleave: Option<&'a Plan>,
}

/// `records` with the boards their subproblems have on `shelf` ([`shelf::with_boards`]):
/// the ones among the run's first `--keep`, a checkpoint's records' included.
fn shelved(puzzle: &Puzzle, s: Strategy, shelf: &Shelf, records: Vec<Record>) -> Vec<Record> {
    let mut st = State::new(puzzle);
    (records.into_iter())
        .map(|mut r| {
            let rank = Rank::of(&mut st, s, &r.prefix);
            r.stats = shelf::with_boards(shelf, &rank, r.stats);
            r
        })
        .collect()
}

/// `base` plus the subproblems' `outcomes` of a search with `s` merged in search
/// order ([`in_search_order`]), keeping the first `keep` solutions.
fn merged<'x>(
    puzzle: &Puzzle,
    s: Strategy,
    base: Stats,
    outcomes: impl Iterator<Item = (&'x Prefix, &'x Stats)>,
    keep: usize,
) -> Stats {
    let mut outcomes: Vec<_> = outcomes.collect();
    in_search_order(puzzle, s, &mut outcomes, |o| o.0);
    let mut stats = base;
    for (_, s) in outcomes {
        stats.merge(s, keep);
    }
    stats
}

/// Searches `work` as `schedule` says and sums everything. `stop` is the caller's stop
/// flag (Ctrl-C). `save` is called with the finished subproblems, compacted, every
/// [`SAVE_EVERY`] from a helper thread, never from a worker.
pub fn run(
    puzzle: &Puzzle,
    s: Strategy,
    work: Work,
    schedule: Schedule<'_>,
    limits: &Limits,
    stop: &AtomicBool,
    save: Option<&Saver<'_>>,
) -> Result<Outcome, String> {
    let Work {
        mut todo,
        base,
        done: mut valid,
        finished,
    } = work;
    let Schedule {
        order,
        threads,
        interleave,
    } = schedule;
    let root = State::new(puzzle);
    if order == Order::Penalty {
        order_by_penalty(puzzle, &mut todo);
    }
    let mut prior = finished.stats();
    for r in &valid {
        prior.merge(&r.stats, 0);
    }
    crate::search::progress::PROGRESS.add_resumed(prior.nodes(), prior.solutions_found);
    // The checkpoint's boards are in the running for the first `keep` too: they move
    // to the shelf (and come back to their records from there, see `shelved`). The
    // shelf has room for all of them, so that a rerun with a smaller `--keep` does not
    // drop boards from the checkpoint (the result lists the first `keep`). A record
    // that found more boards than it holds leaves a gap ([`Shelf::mark_gap`]).
    let held = valid.iter().map(|r| r.stats.solutions.len()).sum::<usize>();
    let shelf = Shelf::new(limits.keep.max(held));
    let mut st = State::new(puzzle);
    for r in &mut valid {
        let boards = std::mem::take(&mut r.stats.solutions);
        let rank = Rank::of(&mut st, s, &r.prefix);
        let lost = r.stats.solutions_found > boards.len() as u64;
        shelf.offer_all(rank.clone(), boards);
        if lost {
            shelf.mark_gap(rank);
        }
    }
    let want = limits.max_solutions.unwrap_or(u64::MAX);
    let frontier_nodes = base.nodes();
    let ctx = Ctx {
        puzzle,
        s,
        // An interleaved run walks on its plan's tables alone.
        tables: match interleave {
            Some(_) => ScanTables::none(),
            None => ScanTables::for_search(&root, s.select),
        },
        root,
        limits,
        want,
        // With a checkpoint the frontier is not new work after the first run, and a
        // budget it used up would leave every rerun where the last one stopped.
        base_nodes: if save.is_some() { 0 } else { frontier_nodes },
        halt: AtomicBool::new(false),
        hungry: AtomicBool::new(false),
        queued: AtomicUsize::new(0),
        found: AtomicU64::new(prior.solutions_found),
        nodes: AtomicU64::new(0),
        started: AtomicUsize::new(0),
        records: Mutex::new(valid),
        folded: Mutex::new(Folded::default()),
        units: save.map(|sv| sv.units),
        partial: Mutex::new(Vec::new()),
        deepest: AtomicUsize::new(0),
        skipped: AtomicUsize::new(0),
        keep_rest: save.is_some(),
        shelf,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let done = AtomicBool::new(false);
    // The deadline too: subproblems smaller than a poll's nodes never see it.
    let halt_if_due = || {
        if stop_reason(limits, stop).is_some() {
            ctx.halt.store(true, Ordering::Release);
        }
    };
    // Once before any subproblem starts, so that a run already due searches nothing
    // (else what it searched would depend on when the helper first looks).
    halt_if_due();
    std::thread::scope(|scope| {
        let helper = scope.spawn(|| {
            let mut last = Instant::now();
            while !done.load(Ordering::Acquire) {
                halt_if_due();
                if let Some(sv) = save {
                    if last.elapsed() >= SAVE_EVERY {
                        let records = ctx.records.lock().unwrap().clone();
                        let (now, records) = ctx.folded.lock().unwrap().with(&finished, records);
                        (sv.save)(&now, shelved(puzzle, s, &ctx.shelf, records));
                        last = Instant::now();
                    }
                }
                std::thread::park_timeout(Duration::from_millis(20));
            }
        });
        match interleave {
            Some(plan) => {
                let queue = interleave::queue(todo);
                pool.broadcast(|_| interleave::work(&ctx, &plan.tables, &queue, plan.how));
                interleave::drain(&ctx, &plan.tables, queue);
            }
            None => pool.scope_fifo(|s| {
                for u in todo {
                    spawn(&ctx, s, u);
                }
            }),
        }
        done.store(true, Ordering::Release);
        helper.thread().unpark();
    });
    let user_stop = stop.load(Ordering::Relaxed);

    // Merge in search order (see the module doc).
    let records = ctx.records.into_inner().unwrap();
    let (finished, records) = ctx.folded.into_inner().unwrap().with(&finished, records);
    // Their boards for the checkpoint (no other reader): a second copy of the shelf's.
    let records = match save {
        Some(_) => shelved(puzzle, s, &ctx.shelf, records),
        None => records,
    };
    let partial = ctx.partial.into_inner().unwrap();
    let outcomes = records.iter().map(|r| (&r.prefix, &r.stats));
    let outcomes = outcomes.chain(partial.iter().map(|(p, s)| (p, s)));
    // The counts; the boards are the shelf's.
    let mut stats = merged(puzzle, s, base, outcomes, 0);
    stats.solutions = ctx.shelf.take_all();
    stats.solutions.truncate(limits.keep);
    stats.merge(&finished.stats(), 0);
    stats.stopped = None;
    let found = stats.solutions_found;
    // What stopped subproblems: unfinished ones, and finished ones that handed their
    // rest over (records of this run only carry a stop).
    let stops: Vec<Stop> = partial
        .iter()
        .map(|(_, s)| s)
        .chain(records.iter().map(|r| &r.stats))
        .filter_map(|s| s.stopped)
        .collect();
    let unfinished =
        !stops.is_empty() || !partial.is_empty() || ctx.skipped.load(Ordering::Relaxed) > 0;
    if found >= want {
        stats.solutions_found = want;
        stats
            .solutions
            .truncate(want.min(limits.keep as u64) as usize);
        stats.stopped = Some(Stop::Solutions);
    } else if unfinished {
        let why = |w: Stop| stops.contains(&w);
        stats.stopped = Some(if user_stop {
            Stop::Interrupted
        } else if why(Stop::MaxNodes)
            || limits
                .max_nodes
                .is_some_and(|m| stats.nodes() - prior.nodes() >= m)
        {
            Stop::MaxNodes
        } else if why(Stop::Timeout) || limits.deadline.is_some() {
            Stop::Timeout
        } else {
            Stop::Interrupted
        });
    }
    Ok(Outcome {
        stats,
        records,
        finished,
        subproblems: ctx.started.load(Ordering::Relaxed),
        resumed_nodes: prior.nodes(),
        rebuilt_nodes: frontier_nodes - ctx.base_nodes,
    })
}
