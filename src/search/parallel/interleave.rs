//! The interleaved schedule (`solve --interleave on`): instead of searching the
//! frontier's subproblems one after another to the end, the workers keep a *window* of
//! started ones and give each a *slice* of nodes in turn, refilling the window in
//! search order as subproblems finish.
//!
//! **Why.** Row-scan trees are heavy-tailed: an early placement that dooms the board
//! can hide an empty subtree of 10^10 nodes in front of the first solution, so the
//! depth-first time to a first solution is mostly luck of the order. Walking many
//! subtrees side by side finds a solution as soon as any of them reaches one (Puzzle
//! D: see the README). Public GPU solvers get the same effect from thousands of work
//! items; here it is a schedule on two cores.
//!
//! **Exactness.** Every subproblem is still one exact row-scan walk
//! ([`RowScan::pause`]/[`RowScan::resume`]), paused and resumed where it stopped, and
//! the results are filed exactly as the depth-first schedule's ([`super`]):
//! finished subproblems as records (checkpoints), the rest as partial outcomes, all
//! merged in prefix order. An exhaustive run therefore counts the same nodes per
//! depth and solutions; a run that stops early has visited a different part of the
//! tree (its counts are those of the part it visited).
//!
//! **Balance.** The window is one queue shared by the workers: a worker takes the
//! subproblem at its front, runs one slice and puts it back at the end (one lock per
//! slice, none per node). When the queue runs out of subproblems while some are still
//! running, the next worker to finish a slice gives away the untried placements at
//! its subproblem's shallowest open depth as new subproblems, as the depth-first
//! schedule does.

use super::frontier::{apply, unapply, Prefix};
use super::pool::{given_away, Ctx};
use super::shelf::{Rank, Slot};
use crate::puzzle::Puzzle;
use crate::search::limits::{Limits, Share, Stop};
use crate::search::progress::PROGRESS;
use crate::search::rowscan::{Paused, RowScan};
use crate::search::state::State;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::Instant;

/// Subproblems walked side by side when `--window` is not given.
pub const WINDOW: usize = 4096;
/// Nodes per slice when `--slice` is not given.
pub const SLICE: u64 = 2048;
/// Memory the paused walks of a window may take: the window is cut to fit.
pub const WINDOW_BYTES: usize = 48 << 20;

/// How to interleave: subproblems walked side by side, nodes per turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Interleave {
    pub window: usize,
    pub slice: u64,
}

/// An interleaved run as it will go: its settings, the window cut so that the paused
/// walks fit in [`WINDOW_BYTES`] (E2: about 1,000 walks of 45 kB, never below 1), and
/// the tables every walk shares.
pub struct Plan {
    pub how: Interleave,
    pub tables: RowScan,
}

impl Plan {
    /// The plan for `scan` along columns (`columns`) or rows.
    pub fn new(puzzle: &Puzzle, how: Interleave, columns: bool) -> Plan {
        let tables = RowScan::new(&State::new(puzzle), columns);
        let fits = WINDOW_BYTES / tables.walk_bytes(puzzle.cells()).max(1);
        let how = Interleave {
            window: how.window.min(fits).max(1),
            ..how
        };
        Plan { how, tables }
    }
}

/// A started subproblem between slices, with what it gave away and its slot on the
/// run's shelf of boards.
struct Running {
    prefix: Prefix,
    walk: Paused,
    given: Vec<Prefix>,
    slot: Slot,
}

/// The shared queue: unstarted subproblems (in search order) and running ones.
pub(super) struct Queue {
    todo: VecDeque<Prefix>,
    running: VecDeque<Running>,
    /// Running subproblems taken out by workers right now.
    out: usize,
}

/// What a worker does next. (Moved once per slice, as the queue moves `Running`
/// itself: its size does not matter.)
#[allow(clippy::large_enum_variant)]
enum Next {
    Start(Prefix),
    Resume(Running),
    /// Nothing to take while others still run.
    Wait,
    Done,
}

impl Queue {
    /// A new subproblem while the window has room (or nothing else runs), else the
    /// running one at the front.
    fn next(&mut self, window: usize) -> Next {
        let room = self.running.len() + self.out < window || self.running.is_empty();
        let fresh = if room { self.todo.pop_front() } else { None };
        let next = match fresh {
            Some(p) => Next::Start(p),
            None => match self.running.pop_front() {
                Some(r) => Next::Resume(r),
                None if self.out == 0 => return Next::Done,
                None => return Next::Wait,
            },
        };
        self.out += 1;
        next
    }
}

/// Collects what a subproblem gives away into its own list and the queue's todo.
struct Giver<'q> {
    prefix: &'q [(usize, u32)],
    given: &'q mut Vec<Prefix>,
    fresh: Vec<Prefix>,
}

impl Share for Giver<'_> {
    fn wants(&mut self) -> bool {
        true
    }

    fn take(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) -> bool {
        self.fresh = given_away(self.prefix, path, site, untried);
        self.given.extend_from_slice(&self.fresh);
        true
    }

    fn rest(&mut self, path: &[(usize, u32)], site: usize, untried: &[u64]) {
        self.given
            .extend(given_away(self.prefix, path, site, untried));
    }
}

/// Runs `todo` interleaved on the calling thread and every other worker that calls it
/// with the same `queue` (see the module doc); files outcomes into `ctx`.
pub(super) fn work(ctx: &Ctx<'_>, rs: &RowScan, queue: &Mutex<Queue>, how: Interleave) {
    let Interleave { window, slice } = how;
    let mut st = ctx.root.clone();
    loop {
        let next = {
            let mut q = queue.lock().unwrap();
            // A checkpoint may hold the solutions wanted already: then nothing starts.
            if ctx.halt.load(Ordering::Acquire) || ctx.found.load(Ordering::Acquire) >= ctx.want {
                ctx.halt.store(true, Ordering::Release);
                return;
            }
            q.next(window)
        };
        let mut job = match next {
            Next::Start(p) => {
                let slot = ctx.shelf.slot(Rank::of(&mut st, ctx.s, &p));
                apply(&mut st, &p).expect("subproblem prefixes were checked");
                let walk = rs.pause(&st).expect("scan prefixes are in scan order");
                unapply(&mut st, &p);
                ctx.started.fetch_add(1, Ordering::Relaxed);
                ctx.nodes.fetch_add(1, Ordering::AcqRel);
                Running {
                    prefix: p,
                    walk,
                    given: Vec::new(),
                    slot,
                }
            }
            Next::Resume(r) => r,
            Next::Wait => {
                // Others still run: ask them to give work away.
                ctx.hungry.store(true, Ordering::Release);
                std::thread::yield_now();
                continue;
            }
            Next::Done => return,
        };
        let found = ctx.found.load(Ordering::Acquire);
        let (n0, s0) = (job.walk.nodes(), job.walk.solutions());
        let limits = Limits {
            max_nodes: None,
            deadline: ctx.limits.deadline,
            max_solutions: (ctx.want != u64::MAX).then(|| s0 + ctx.want.saturating_sub(found)),
            keep: ctx.limits.keep,
            shelf: Some(job.slot.sink()),
        };
        let paused = if found >= ctx.want {
            ctx.halt.store(true, Ordering::Release);
            true
        } else {
            rs.resume(&mut job.walk, ctx.puzzle, &limits, &ctx.halt, slice)
        };
        let (dn, ds) = (job.walk.nodes() - n0, job.walk.solutions() - s0);
        PROGRESS.add_nodes(dn);
        let used = ctx.count(dn, ds);
        if ctx.limits.max_nodes.is_some_and(|m| used >= m)
            || ctx.limits.deadline.is_some_and(|t| Instant::now() >= t)
        {
            ctx.halt.store(true, Ordering::Release);
        }
        let mut fresh = Vec::new();
        if paused && ctx.hungry.swap(false, Ordering::AcqRel) {
            let mut giver = Giver {
                prefix: &job.prefix,
                given: &mut job.given,
                fresh: Vec::new(),
            };
            rs.give(&mut job.walk, &mut giver);
            fresh = giver.fresh;
        }
        let mut q = queue.lock().unwrap();
        q.out -= 1;
        q.todo.extend(fresh);
        // Unfinished walks wait in `running`: to run on, or at the halt for `drain`.
        let stopped = job.walk.stopped();
        let waits = paused || stopped.is_some_and(|w| w != Stop::Solutions);
        if waits && (ctx.keep_rest || !ctx.halt.load(Ordering::Acquire)) {
            q.running.push_back(job);
            continue;
        }
        drop(q);
        let unfinished = paused || stopped.is_some();
        file(ctx, rs, job, unfinished, unfinished && ctx.keep_rest);
    }
}

/// Files a walk that will not run on: done, or `unfinished` and then handed over
/// (`hand_over`: its rest goes to `given`, and it is a record) or partial.
fn file(ctx: &Ctx<'_>, rs: &RowScan, job: Running, unfinished: bool, hand_over: bool) {
    let Running {
        prefix,
        mut walk,
        mut given,
        slot,
    } = job;
    let limits = &Limits {
        shelf: Some(slot.sink()),
        ..ctx.limits.clone()
    };
    if unfinished && walk.stopped().is_none() {
        walk.set_stopped(Stop::Interrupted);
    }
    if hand_over {
        let mut giver = Giver {
            prefix: &prefix,
            given: &mut given,
            fresh: Vec::new(),
        };
        rs.give_rest(&mut walk, ctx.puzzle, limits, &mut giver);
    } else if unfinished {
        // Its node counted last is a solution to record, as for any stopped search.
        rs.settle_paused(&mut walk, ctx.puzzle, limits);
    }
    ctx.file(prefix, walk.into_stats(), given, !unfinished || hand_over);
}

/// The shared queue of a run over `units` (in the order given).
pub(super) fn queue(units: Vec<Prefix>) -> Mutex<Queue> {
    Mutex::new(Queue {
        todo: units.into(),
        running: VecDeque::new(),
        out: 0,
    })
}

/// After every worker has returned: files the subproblems still in the queue (paused
/// or never started) as unfinished. With a checkpoint ([`Ctx::keep_rest`]) each paused
/// walk hands its rest over and is recorded, so reruns under any budget get to the end;
/// the price is the file's size, a record for every walk of the window at each stop.
pub(super) fn drain(ctx: &Ctx<'_>, rs: &RowScan, queue: Mutex<Queue>) {
    let q = queue.into_inner().unwrap();
    for r in q.running {
        file(ctx, rs, r, true, ctx.keep_rest);
    }
    ctx.skipped.fetch_add(q.todo.len(), Ordering::Relaxed);
}
