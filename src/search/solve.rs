//! Solving a puzzle, or a part of it, as the command line spreads it: one thread and
//! no parts runs the depth-first search; otherwise the frontier is planned, resumed
//! from a checkpoint, run on the pool, and the result assembled
//! ([`super::parallel`]).

use super::checkpoint::{self, Checkpoint};
use super::engine::search;
use super::jobs;
use super::limits::{Limits, Stats};
use super::outcome::SolveResult;
use super::parallel::{self, compact, interleave, Finished, Prefix, Record, Split};
use super::select::{Order, Strategy};
use super::state::State;
use crate::error::{InputError, Result};
use crate::puzzle::Puzzle;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How to spread a search (`solve --threads/--split-depth/--shard/--job/--checkpoint`).
#[derive(Debug, Clone, Default)]
pub struct Spread {
    /// Worker threads asked for; 0 = all cores. At most the cores run ([`workers`]).
    pub threads: usize,
    /// Frontier depth; default: the first level with 8 subproblems per thread
    /// (64 per shard with `shard`).
    pub split_depth: Option<usize>,
    /// Search only shard i of n: frontier units with index = i (mod n).
    pub shard: Option<(usize, usize)>,
    /// Search the subproblems of a job file instead (`plytile split`).
    pub job: Option<(String, jobs::Job)>,
    /// Record finished subproblems here and resume from it.
    pub checkpoint: Option<PathBuf>,
    /// The `--symmetry` trees this search is one of, recorded in its checkpoint
    /// ([`symmetry`] sets it).
    pub cut: Vec<checkpoint::CutTree>,
    /// Order in which to start the frontier's subproblems (`--order`). `penalty`
    /// takes the frontier path even on one thread.
    pub order: Order,
    /// Walk many subproblems side by side ([`interleave`]; `scan` only). Takes the
    /// frontier path even on one thread.
    pub interleave: Option<interleave::Interleave>,
}

impl Spread {
    /// `shard` as results report it: `[i, n]`.
    pub fn shard_field(&self) -> Option<[usize; 2]> {
        self.shard.map(|(i, n)| [i, n])
    }

    /// The worker threads this search runs: [`workers`] of `threads`.
    pub fn threads(&self) -> usize {
        workers(self.threads)
    }
}

/// The cores this process may use: [`std::thread::available_parallelism`] (the CPUs
/// of its affinity mask, within a cgroup CPU quota), at least 1.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The worker threads a search runs when `asked` for (0: all cores): at most
/// [`cores`]. The search is bound by the CPU alone, so threads past the cores only
/// take turns on them; and each idle worker of the pool scans every other worker's
/// queue for work, so their cost grows faster than their number (1000 threads on 2
/// cores took 5-10 s for a search that takes 0.01 s on 2). The frontier is sized
/// for the threads that run (8 subproblems each). Counts never depend on it.
pub fn workers(asked: usize) -> usize {
    match asked {
        0 => cores(),
        t => t.min(cores()),
    }
}

/// Solves `puzzle` from its hints with heuristic `h` (or a [`Strategy`]) on one
/// thread: deterministic, including which solutions a limited run finds first.
/// [`solve_with`] spreads it.
pub fn solve(
    puzzle: &Puzzle,
    h: impl Into<Strategy>,
    limits: &Limits,
    stop: &AtomicBool,
) -> SolveResult {
    let spread = Spread {
        threads: 1,
        ..Spread::default()
    };
    solve_with(puzzle, h, limits, stop, &spread)
        .expect("a whole-puzzle search has no input to reject")
}

/// Solves `puzzle` (or a part of it) as `spread` says. One thread and no parts: the
/// plain depth-first search. Otherwise the frontier and the parallel driver
/// ([`parallel`]); the counts are the same.
pub fn solve_with(
    puzzle: &Puzzle,
    s: impl Into<Strategy>,
    limits: &Limits,
    stop: &AtomicBool,
    spread: &Spread,
) -> Result<SolveResult> {
    solve_read(puzzle, s, limits, stop, spread, Loaded::Unread)
}

/// The `--checkpoint` file as the caller of [`solve_read`] has it. One per run: its
/// size does not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Loaded {
    /// Not read yet: [`solve_read`] reads it.
    Unread,
    /// Read already (None: there is no such file), so that it is not read and checked
    /// twice ([`super::symmetric`] reads the part checkpoints to learn its trees).
    Read(Option<Checkpoint>),
}

/// Step 1 of a spread search: which frontier subproblems this run owns, and whether
/// it counts the frontier itself.
struct Plan {
    /// This run's subproblems: the whole frontier's, or its shard's or job's share.
    units: Vec<Prefix>,
    /// Counted before any subproblem: the frontier's internal nodes, for the run that
    /// owns them (shard 0 of a split); none for the others.
    base: Stats,
    split_depth: usize,
    /// `[i, n]` for shard or job i of n.
    shard: Option<[usize; 2]>,
    /// For a shard or job, where each of its subproblems comes in the search order of
    /// the whole frontier (`solutions_from`, by which `merge` orders boards).
    ranks: Vec<usize>,
}

/// What [`plan`] leads to: a plan to run, or a run that stopped while it expanded
/// the frontier (nothing searched past the root). One per run.
#[allow(clippy::large_enum_variant)]
enum Planned {
    Run(Plan),
    Halted(SolveResult),
}

/// Step 2: the plan resumed from the checkpoint ([`parallel::resume`]).
struct Resumed {
    /// The checkpoint's records still valid.
    done: Vec<Record>,
    /// The subproblems left to search.
    todo: Vec<Prefix>,
    /// The frontier subproblems the checkpoint summed.
    finished: Finished,
}

/// [`solve_with`] with the `--checkpoint` file as `loaded`: plan -> resume -> run ->
/// assemble.
pub(crate) fn solve_read(
    puzzle: &Puzzle,
    s: impl Into<Strategy>,
    limits: &Limits,
    stop: &AtomicBool,
    spread: &Spread,
    loaded: Loaded,
) -> Result<SolveResult> {
    let start = Instant::now();
    let s: Strategy = s.into();
    let columns = s.select.scan_columns(puzzle.width, puzzle.height);
    if spread.interleave.is_some() && (columns.is_none() || s != Strategy::from(s.select)) {
        return Err(InputError::new(
            "--interleave",
            "works only with plain scan (--select scan, scan:rows or scan:columns, --factor off, --move-order natural): only the row-scan walk pauses and resumes",
        ));
    }
    let threads = spread.threads();
    // The window as it will run: cut to fit memory (the frontier is sized by it).
    let interleaving = spread
        .interleave
        .map(|how| interleave::Plan::new(puzzle, how, columns == Some(true)));
    if threads == 1
        && spread.shard.is_none()
        && spread.job.is_none()
        && spread.checkpoint.is_none()
        && spread.order == Order::Natural
        && spread.interleave.is_none()
    {
        let mut st = State::new(puzzle);
        let stats = crate::with_strategy!(s, &st, |sel| search(
            &mut st, &mut sel, puzzle, limits, stop
        ));
        return Ok(SolveResult::new(
            puzzle,
            s,
            1,
            stats,
            start.elapsed().as_secs_f64(),
        ));
    }
    let ck_name = spread
        .checkpoint
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let ck = match (&spread.checkpoint, loaded) {
        (Some(_), Loaded::Read(ck)) => ck,
        (Some(p), Loaded::Unread) => checkpoint::read_checkpoint(p)?,
        (None, _) => None,
    };
    let ctx = Ctx {
        puzzle,
        s,
        limits,
        stop,
        spread,
        ck_name: &ck_name,
        threads,
        start,
    };
    let plan = match ctx.plan(ck.as_ref(), interleaving.as_ref())? {
        Planned::Run(plan) => plan,
        Planned::Halted(r) => return Ok(r),
    };
    let Resumed {
        done,
        todo,
        finished,
    } = ctx.resume(&plan, ck)?;
    let Plan {
        units,
        base,
        split_depth,
        shard,
        ranks,
    } = plan;
    // Step 3: the run, saving the checkpoint as it goes.
    // Only a checkpoint names subproblems by index (a deep split has millions).
    let index = spread
        .checkpoint
        .is_some()
        .then(|| compact::Units::new(&units));
    let save_to = |path: &std::path::Path, finished: &Finished, records| {
        let index = index.as_ref().expect("built for a checkpoint");
        let (finished, records) = compact::compact(puzzle, s, index, finished, records);
        let ck = Checkpoint {
            symmetry_parts: spread.cut.clone(),
            ..Checkpoint::new(puzzle, s, split_depth, shard, &finished, records)
        };
        checkpoint::write_checkpoint(path, &ck)
    };
    let periodic = |finished: &Finished, records| {
        if let Some(p) = &spread.checkpoint {
            if let Err(e) = save_to(p, finished, records) {
                tracing::warn!("{e}");
            }
        }
    };
    let saver = index.as_ref().map(|units| parallel::Saver {
        save: &periodic,
        units,
    });
    let work = parallel::Work {
        todo,
        base,
        done,
        finished,
    };
    let schedule = parallel::Schedule {
        order: spread.order,
        threads,
        interleave: interleaving.as_ref(),
    };
    let out =
        parallel::run(puzzle, s, work, schedule, limits, stop, saver.as_ref()).map_err(|e| {
            InputError::new(spread.job.as_ref().map_or("--threads", |j| j.0.as_str()), e)
        })?;
    // Step 4: the result.
    // A failed last save must not cost the run its result: it is reported with it.
    let saved = match &spread.checkpoint {
        Some(p) => save_to(p, &out.finished, out.records),
        None => Ok(()),
    };
    // Where the boards were found, by the subproblem that holds each (see `ranks`).
    let from = |b: &crate::puzzle::Board| -> Option<[usize; 2]> {
        Some([0, *ranks.get(parallel::unit_of(&units, b)?)?])
    };
    let solutions_from: Option<Vec<[usize; 2]>> = match shard {
        Some(_) => out.stats.solutions.iter().map(from).collect(),
        None => None,
    };
    // A deepest board above the frontier (it has no subproblems below) has no
    // subproblem: nothing of this tree ties with it.
    let deepest_from = shard.map(|_| from(&out.stats.deepest_board).unwrap_or([0, 0]));
    let mut r = SolveResult::new(puzzle, s, threads, out.stats, start.elapsed().as_secs_f64());
    r.solutions_from = solutions_from.unwrap_or_default();
    r.deepest_from = deepest_from;
    r.checkpoint_error = saved.err().map(|e| e.to_string());
    r.order = spread.order;
    r.interleave = interleaving.map(|p| p.how);
    r.shard = shard;
    r.split_depth = Some(split_depth);
    r.subproblems = out.subproblems;
    r.set_resumed(out.resumed_nodes);
    r.rebuilt_nodes = out.rebuilt_nodes;
    Ok(r)
}

/// What the steps of [`solve_read`] share.
struct Ctx<'a> {
    puzzle: &'a Puzzle,
    s: Strategy,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    spread: &'a Spread,
    /// The `--checkpoint` file's name, for messages ("" without one).
    ck_name: &'a str,
    threads: usize,
    start: Instant,
}

impl Ctx<'_> {
    /// Step 1: the plan, from the job file, or from the frontier as the checkpoint's
    /// or the command line's split depth makes it.
    fn plan(
        &self,
        ck: Option<&Checkpoint>,
        interleaving: Option<&interleave::Plan>,
    ) -> Result<Planned> {
        let Ctx {
            puzzle,
            s,
            limits,
            stop,
            spread,
            ck_name,
            threads,
            start,
        } = *self;
        let plan = interleaving;
        let (units, base, split_depth, shard, ranks) = match &spread.job {
            Some((origin, job)) => {
                let units = job.units(origin)?;
                let ranks = match s.moves {
                    // In the natural order a unit's rank is its place in the frontier.
                    Order::Natural => parallel::share(0.., job.job, job.jobs)
                        .take(units.len())
                        .collect(),
                    Order::Penalty => {
                        let split = Split::Depth(job.split_depth);
                        match parallel::full_frontier(puzzle, s, split) {
                            Ok(f) => parallel::share(
                                parallel::search_ranks(puzzle, s, &f.units),
                                job.job,
                                job.jobs,
                            )
                            .collect(),
                            // read_job built it already; without it, no ranks.
                            Err(_) => Vec::new(),
                        }
                    }
                };
                (
                    units,
                    job.base(),
                    job.split_depth,
                    Some([job.job, job.jobs]),
                    ranks,
                )
            }
            None => {
                // A frontier the checkpoint's split depth makes impossible is that file's fault.
                let from_ck = spread.split_depth.is_none() && ck.is_some();
                // The run that wrote a checkpoint built its frontier: one too big is an edit.
                let refused = |e: parallel::FrontierError| {
                    match (from_ck, e) {
                (true, parallel::FrontierError::TooBig { depth }) => InputError::new(
                    ck_name,
                    format!(
                        "its split_depth is too deep: the frontier of subproblems would hold more than {} nodes at depth {depth}; the file was edited or damaged: delete it to search from the start",
                        parallel::FRONTIER_MAX
                    ),
                ),
                _ => InputError::new("--split-depth", e.to_string()),
            }
                };
                let split = match (spread.split_depth, &ck, spread.shard) {
                    (Some(d), _, _) => Split::Depth(d),
                    (None, Some(ck), _) if ck.split_depth > puzzle.free_cells() => {
                        let m = format!(
                        "its split_depth {} is deeper than the board ({} empty cells): the file was edited or damaged; delete it to search from the start",
                        ck.split_depth,
                        puzzle.free_cells()
                    );
                        return Err(InputError::new(ck_name, m));
                    }
                    (None, Some(ck), _) => Split::Depth(ck.split_depth),
                    (None, None, Some((_, n))) => Split::AtLeast(parallel::UNITS_PER_SHARD * n),
                    (None, None, None) => match &plan {
                        Some(plan) => Split::AtLeast(plan.how.window),
                        None => Split::AtLeast(parallel::UNITS_PER_THREAD * threads),
                    },
                };
                let f = match parallel::frontier_of(puzzle, s, split, limits, stop) {
                    Ok(f) => f,
                    // With a checkpoint the run goes on to report (and keep) what the file
                    // holds, checked as always: the whole frontier first (its levels are
                    // few), then a run that halts at once.
                    Err(parallel::FrontierError::Stopped(_)) if ck.is_some() => {
                        parallel::full_frontier(puzzle, s, split).map_err(refused)?
                    }
                    Err(parallel::FrontierError::Stopped(why)) => {
                        // Nothing searched past the root, no checkpoint written. The root
                        // is counted as always (`nodes_per_depth[0] = 1`), by shard 0 alone
                        // as the frontier's other nodes.
                        let root = u64::from(spread.shard.is_none_or(|(i, _)| i == 0));
                        let stats = Stats {
                            nodes_per_depth: vec![root],
                            stopped: Some(why),
                            ..Stats::default()
                        };
                        let t = start.elapsed().as_secs_f64();
                        let mut r = SolveResult::new(puzzle, s, threads, stats, t);
                        r.shard = spread.shard_field();
                        r.deepest_from = r.shard.map(|_| [0, 0]);
                        return Ok(Planned::Halted(r));
                    }
                    Err(e) => return Err(refused(e)),
                };
                let (i, n) = spread.shard.unwrap_or((0, 1));
                let ranks = match spread.shard {
                    Some(_) => {
                        parallel::share(parallel::search_ranks(puzzle, s, &f.units), i, n).collect()
                    }
                    None => Vec::new(),
                };
                let units = parallel::share(f.units, i, n).collect();
                let base = if i == 0 { f.internal } else { Stats::default() };
                (units, base, f.depth, spread.shard_field(), ranks)
            }
        };
        Ok(Planned::Run(Plan {
            units,
            base,
            split_depth,
            shard,
            ranks,
        }))
    }

    /// Step 2: the checkpoint (`ck`) checked against the plan, and the work left.
    fn resume(&self, plan: &Plan, ck: Option<Checkpoint>) -> Result<Resumed> {
        let Ctx {
            puzzle,
            s,
            spread,
            ck_name,
            ..
        } = *self;
        let has_ck = ck.is_some();
        let (records, finished) = match (ck, &spread.checkpoint) {
            (Some(ck), Some(path)) => {
                ck.check(path, puzzle, s, plan.split_depth, plan.shard, &spread.cut)?;
                ck.records(ck_name, puzzle, s)?
            }
            _ => Default::default(),
        };
        let blame = match (has_ck, &spread.job) {
            (true, _) => ck_name,
            (false, Some((origin, _))) => origin.as_str(),
            (false, None) => "--split-depth",
        };
        let (done, todo) = parallel::resume(puzzle, &plan.units, records, &finished)
            .map_err(|e| InputError::new(blame, e))?;
        Ok(Resumed {
            done,
            todo,
            finished,
        })
    }
}
