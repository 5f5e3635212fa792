//! `plytile solve`.

use super::{
    catch_interrupts, check_outputs, LimitArgs, PuzzleArgs, StrategyArgs, SymmetryParts,
    INTERRUPTED,
};
use crate::error::{InputError, Result};
use crate::puzzle::formats::EdgeOrder;
use crate::report::SolveResult;
use crate::search::auto::{self, Budget, Costs, Setting};
use crate::search::parallel::interleave::{self, Interleave};
use crate::search::parallel::MAX_SPLIT_DEPTH;
use crate::search::{self, jobs, Along, Heuristic, Order, Spread};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Puzzle file: .ron (native) or plain text (`W H`, then `up right down left` lines).
    #[arg(required_unless_present = "job")]
    pub puzzle: Option<PathBuf>,
    /// Edge order of a text file's piece lines: urdl (default) or blrt (Wortmann).
    #[arg(long, default_value = "urdl", conflicts_with = "job")]
    pub edge_order: EdgeOrder,
    /// Add hints from an Eternity II hints file (`SQUARE ROW COL PIECE ROT`, piece 1-based).
    #[arg(long, value_name = "FILE", conflicts_with = "job")]
    pub hints: Option<PathBuf>,
    #[arg(long, default_value = "auto", conflicts_with = "job", help = concat!("Site-selection heuristic: auto (the default: predicts each candidate's time within about 1% of --timeout, or 0.3 s, and runs the fastest; JSON `auto`), or ", heuristics!()))]
    pub select: Setting,
    /// Seed of auto's probes: the predicted node counts, and with --shard, --job or
    /// --checkpoint (where auto prices nodes by a fixed cost model) the choice, are
    /// the same on every run with the same seed.
    #[arg(long, value_name = "S", default_value = "1")]
    pub auto_seed: u64,
    /// With --select auto, --all on a board without hints searches the --symmetry
    /// trees (a quarter of the tree on a square board); this searches the whole tree.
    #[arg(long, conflicts_with = "symmetry")]
    pub no_symmetry: bool,
    #[command(flatten)]
    pub strategy: StrategyArgs,
    /// Order in which to start the frontier's subproblems: natural (search order) or
    /// penalty (smallest predicted subtree first; uses the frontier even on one thread).
    /// Counts are the same either way.
    #[arg(long, value_name = "natural|penalty", default_value = "natural")]
    pub order: Order,
    /// Walk many of the frontier's subproblems side by side, a slice of nodes each in
    /// turn, instead of one after another (scan only): on or off. Changes only which
    /// part of the tree a run that stops early has searched; counts of an exhaustive
    /// run are the same.
    #[arg(long, value_name = "on|off", default_value = "off", value_parser = super::parse_on_off, action = clap::ArgAction::Set)]
    pub interleave: bool,
    /// Subproblems walked side by side with --interleave on (default: 4096); the
    /// default frontier is the first level with at least this many.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub window: Option<u64>,
    /// Nodes each subproblem walks per turn with --interleave on (default: 2048).
    #[arg(long, value_name = "NODES", value_parser = super::parse_count)]
    pub slice: Option<u64>,
    /// Worker threads (default: all cores; 1 with --max-nodes, whose budget is exact only
    /// on one thread). At most the cores this process may use: a larger T runs one per
    /// core and says so on stderr (JSON `threads`: the count run), since threads past
    /// the cores only take turns on them and slow the search down. 1 without
    /// --shard/--job/--checkpoint is the plain depth-first search; any count gives the
    /// same nodes per depth.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Depth of the frontier of subproblems (default: the first level with at least
    /// 8 subproblems per thread run, or 64 per shard with --shard).
    #[arg(long, value_name = "D", conflicts_with = "job", value_parser = clap::value_parser!(u64).range(0..=MAX_SPLIT_DEPTH))]
    pub split_depth: Option<u64>,
    /// Search only shard I of N (0 <= I < N) of the frontier; `plytile merge` sums shards.
    /// Exit codes for batch engines (GNU parallel, Slurm): 0 when the shard's share was
    /// searched to the end, with or without solutions (or its --solutions K were
    /// found), 3 when a limit or a signal stopped it first, 2 bad input.
    #[arg(long, value_name = "I/N", value_parser = jobs::parse_shard, conflicts_with = "job")]
    pub shard: Option<(usize, usize)>,
    /// Search the subproblems of a job file written by `plytile split` (it names the
    /// puzzle and the heuristic). Exit codes as for --shard: 0 when the job's share was
    /// searched to the end, with or without solutions, 3 when stopped first, 2 bad input.
    #[arg(long, value_name = "FILE", conflicts_with = "puzzle")]
    pub job: Option<PathBuf>,
    /// Record finished subproblems in FILE every few seconds and on Ctrl-C/SIGTERM;
    /// running again with the same FILE resumes.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Find every solution (default: stop at the first).
    #[arg(long, conflicts_with = "solutions")]
    pub all: bool,
    /// Stop after K solutions.
    #[arg(long, value_name = "K", value_parser = super::parse_count)]
    pub solutions: Option<u64>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Keep at most this many solution boards (default 1000; all are counted). The
    /// text report draws the first 3, or this many when given.
    #[arg(long, value_name = "K", value_parser = super::parse_keep)]
    pub keep: Option<usize>,
    /// Boards without hints: fix the lowest corner piece at the top-left (square:
    /// a quarter of the tree) or at the top-left and then at the corner the scan's
    /// lines reach second (W != H: two runs, half the tree; the top-right along rows,
    /// the bottom-left along columns, which scan takes when W > H); every solution
    /// found is reported with its turns, so counts are those of the whole puzzle
    /// (JSON `symmetry`: 4 or 2; `symmetry_parts`: the trees searched). With
    /// --checkpoint FILE the parts use FILE, FILE.tr and FILE.tr3.
    #[arg(long, conflicts_with = "job")]
    pub symmetry: bool,
    #[command(flatten)]
    pub symmetry_parts: SymmetryParts,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Print only the summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Solution boards kept without `--keep`.
const KEEP: usize = 1000;
/// Solution boards the text report draws without `--keep`.
const DRAWN: usize = 3;

pub fn run(a: SolveArgs) -> Result<u8> {
    // From the start: a Ctrl-C while a large job file or checkpoint is read stops the
    // run as soon as the search would begin, with its report (exit 3), not silently.
    catch_interrupts();
    let keep = a.keep.unwrap_or(KEEP);
    if a.job.is_some() && a.symmetry_parts.given.is_some() {
        // Clap refuses --symmetry with --job, but checks no `requires` of a flag
        // whose requirement conflicts.
        return Err(InputError::new(
            "--symmetry-parts",
            "not with --job (job files are split without --symmetry)",
        ));
    }
    let job = match &a.job {
        Some(path) => Some((path.display().to_string(), jobs::read_job(path)?)),
        None => None,
    };
    let (puzzle, fixed) = match (&job, &a.puzzle) {
        (Some((_, j)), _) => (j.puzzle.clone(), Some(j.select)),
        (None, Some(path)) => {
            let input = PuzzleArgs {
                puzzle: path.clone(),
                edge_order: a.edge_order,
                hints: a.hints.clone(),
            };
            (input.load_quiet()?, a.select.fixed())
        }
        (None, None) => unreachable!("clap requires PUZZLE or --job"),
    };
    super::check_select(fixed, &puzzle)?;
    if !a.interleave && (a.window.is_some() || a.slice.is_some()) {
        let flag = if a.window.is_some() {
            "--window"
        } else {
            "--slice"
        };
        return Err(InputError::new(flag, "only with --interleave on"));
    }
    if job.is_some() && a.strategy.factor {
        // Job files record the heuristic only; their frontier was made without it.
        return Err(InputError::new(
            "--factor",
            "not with --job (job files do not record it)",
        ));
    }
    // Unsolvable boards are reported before auto spends its time choosing.
    if let Some(why) = super::no_solution_reason(&puzzle) {
        // Proven before the search: a search would only confirm it, and on a large
        // board never end.
        let origin = match (&job, &a.puzzle) {
            (Some((path, _)), _) => path.clone(),
            (None, Some(path)) => path.display().to_string(),
            (None, None) => unreachable!("clap requires PUZZLE or --job"),
        };
        eprintln!("plytile: {origin}: {why}");
        // The result names a heuristic: the one asked for, or scan for auto.
        let strategy = a
            .strategy
            .strategy(fixed.unwrap_or(Heuristic::Scan(Along::Shape)));
        let mut result = SolveResult::new(&puzzle, strategy, 1, search::Stats::default(), 0.0);
        result.unsolvable = super::unsolvable_key(&puzzle);
        result.shard = match (a.shard, &job) {
            (Some((i, n)), _) => Some([i, n]),
            (_, Some((_, j))) => Some([j.job, j.jobs]),
            _ => None,
        };
        result.input = Some(super::input(
            a.puzzle.as_deref(),
            a.job.as_deref(),
            a.edge_order,
            a.hints.as_deref(),
        ));
        print_result(&a, &puzzle, &result)?;
        return Ok(1);
    }
    // Held until the run ends: a second run on the same file would save over this
    // one's records, and each would lose the other's work.
    let mut _lock = None;
    if let Some(ck) = &a.checkpoint {
        // Before the search: a checkpoint path found bad only at the first save (or at
        // the end, for a short run) would cost the run its result.
        let inputs = [a.puzzle.as_deref(), a.hints.as_deref(), a.job.as_deref()];
        check_outputs(&[ck], &inputs.into_iter().flatten().collect::<Vec<_>>())?;
        _lock = crate::files::lock_beside(ck)
            .map_err(|e| InputError::new(ck.display().to_string(), e.to_string()))?;
    }
    let spread = Spread {
        // A node budget is exact on one thread; several threads check it per
        // subproblem and may overshoot, so they are used only when asked for.
        threads: match a.threads {
            Some(t) => super::threads(t),
            None if a.limits.max_nodes.is_some() => 1,
            None => 0,
        },
        split_depth: super::split_depth(a.split_depth, &puzzle),
        shard: a.shard,
        job,
        checkpoint: a.checkpoint.clone(),
        cut: Vec::new(),
        order: a.order,
        interleave: a.interleave.then(|| Interleave {
            window: a.window.map_or(interleave::WINDOW, |w| w as usize),
            slice: a.slice.unwrap_or(interleave::SLICE),
        }),
    };
    let limits = a.limits.limits(
        if a.all {
            None
        } else {
            Some(a.solutions.unwrap_or(1))
        },
        keep,
    );
    // --interleave walks scan's tables only: it asks for scan.
    let fixed = fixed.or(a.interleave.then_some(Heuristic::Scan(Along::Shape)));
    let auto = if fixed.is_none() {
        // A shard, job or checkpoint must choose as its siblings and reruns do.
        let costs = if spread.shard.is_some() || spread.checkpoint.is_some() {
            Costs::Fixed
        } else {
            Costs::Measured
        };
        let budget = Budget::for_timeout(a.limits.timeout);
        match auto::choose(
            &puzzle,
            limits.max_solutions,
            budget,
            costs,
            a.auto_seed,
            &INTERRUPTED,
        ) {
            Some(choice) => Some(choice),
            None => {
                return Err(InputError::new(
                    "--select auto",
                    "interrupted while choosing",
                ))
            }
        }
    } else {
        None
    };
    let select = match (&auto, fixed) {
        (Some(c), _) => c.chosen,
        (None, Some(h)) => h,
        (None, None) => unreachable!("auto chooses when no heuristic is fixed"),
    };
    // auto also cuts a board without hints by its symmetry when all solutions are asked.
    let auto_symmetry = auto.is_some()
        && !a.no_symmetry
        && limits.max_solutions.is_none()
        && puzzle.hints.is_empty()
        && spread.job.is_none();
    if let Some(c) = &auto {
        if !a.json && !a.quiet {
            // Not a "plytile:" line: a choice made, not an error or a warning.
            eprintln!("{}", c.line());
            if auto_symmetry {
                eprintln!("auto: searching the --symmetry trees (--no-symmetry: the whole tree)");
            }
        }
    }
    let symmetry = super::symmetry_applies(a.symmetry || auto_symmetry, &puzzle);
    super::note_symmetry_parts(symmetry, a.symmetry_parts.how(), &puzzle);
    // A shard or job is one task of a batch engine, which counts any exit code but 0
    // as a failed task: its code says whether its share is done, not what it held.
    let batch = spread.shard.is_some() || spread.job.is_some();
    let part = match (&spread.shard, &spread.job) {
        (Some((i, n)), _) => Some(format!("shard {i}/{n}")),
        (_, Some((_, j))) => Some(format!("job {} of {}", j.job, j.jobs)),
        _ => None,
    };
    let status = super::status::StatusLine::start(&puzzle, select, part, !a.quiet);
    let strategy = a.strategy.strategy(select);
    let result = if symmetry {
        search::symmetric::solve_symmetric_parts(
            &puzzle,
            strategy,
            a.symmetry_parts.how(),
            &limits,
            &INTERRUPTED,
            &spread,
        )
    } else {
        search::solve_with(&puzzle, strategy, &limits, &INTERRUPTED, &spread)
    };
    status.stop();
    let mut result = result?;
    result.auto = auto;
    result.input = Some(super::input(
        a.puzzle.as_deref(),
        a.job.as_deref(),
        a.edge_order,
        a.hints.as_deref(),
    ));
    result.mark_timing();
    print_result(&a, &puzzle, &result)?;
    let room = (keep as u64).min(result.solutions_found) as usize;
    if a.checkpoint.is_some() && result.solutions.len() < room {
        // The records keep the boards of the run that wrote them (its first --keep, or
        // fewer in a save made while subproblems before them still ran).
        eprintln!(
            "plytile: note: {} of {} solution boards listed (--keep {} allows {room}): the checkpoint's records were written with a smaller --keep, or saved while earlier subproblems still ran",
            result.solutions.len(),
            result.solutions_found,
            keep
        );
    }
    log_summary(&result);
    if let Some(e) = &result.checkpoint_error {
        eprintln!(
            "plytile: {e}; the result printed is complete, but a rerun would resume from the last checkpoint saved"
        );
        return Ok(2);
    }
    Ok(if batch {
        result.batch_exit_code()
    } else {
        result.exit_code()
    })
}

/// Prints the result as asked: JSON, the summary line, or the text report.
fn print_result(a: &SolveArgs, puzzle: &crate::puzzle::Puzzle, result: &SolveResult) -> Result<()> {
    if a.json {
        outln!(
            "{}",
            serde_json::to_string(result).expect("results serialize")
        )
    } else if a.quiet {
        outln!("{}", result.summary_line())
    } else {
        out!("{}", result.render_text(puzzle, a.keep.unwrap_or(DRAWN)))
    }
}

/// Per-depth summaries for `-v`: emitted once, after the search, never per node.
fn log_summary(r: &SolveResult) {
    for (d, n) in r.nodes_per_depth.iter().enumerate() {
        tracing::debug!(depth = d, nodes = n, "nodes per depth");
    }
    tracing::info!(
        nodes = r.nodes,
        solutions = r.solutions_found,
        exhaustive = r.exhaustive,
        elapsed_s = r.elapsed_s,
        "search finished"
    );
}
