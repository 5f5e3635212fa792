//! The command line: one file per subcommand. Parsing only validates into plain
//! structs; the library does the work. Errors are one line naming the file or flag.

/// `print!` for a command's output: a failed write (a full disk) is returned as an
/// error naming stdout, where `print!` would panic. Defined before the subcommand
/// modules, which use it.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_stdout(format_args!($($arg)*))
    };
}

/// `println!` for a command's output; see [`out!`].
macro_rules! outln {
    () => {
        out!("\n")
    };
    ($($arg:tt)*) => {
        out!("{}\n", format_args!($($arg)*))
    };
}

/// The values of `--select`, for the help of every command that takes them: a mark
/// that [`parse_args`] replaces with the table's list ([`crate::search::select::help`]),
/// since clap's attributes take only literals.
macro_rules! heuristics {
    () => {
        "<HEURISTICS>"
    };
}

mod bench;
mod branching;
mod compare;
mod convert;
mod explain;
mod gen;
mod merge;
mod predict;
mod show;
mod solve;
mod spectral;
mod split;
mod status;
mod verify;

use crate::error::{InputError, Result};
pub use crate::puzzle::formats::read_text;
use crate::puzzle::formats::{self, EdgeOrder};
use crate::puzzle::{Item, Puzzle};
use crate::report::Input;
use crate::search::symmetry::Parts;
use crate::search::{Heuristic, Order, Strategy};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// `bench`'s pure parts, public for the test suite only: the check's refusal, the live
/// line and the warnings about timed runs. The binary's code must not change for
/// them: an exported function is no longer inlined into its one caller, so those
/// are `#[inline]` (a copy in each caller). The check's two are wrappers and stay
/// private: `refusal` is generic, and an instance of it outside the library (or one
/// whose address is taken here) would export `duration`, which `bench` calls.
#[doc(hidden)]
pub mod bench_parts {
    use super::bench::guard;
    pub use super::bench::live::{elapsed, run_label, status_text};
    pub use super::bench::warnings::{modified_zscores, warnings, OUTLIER_THRESHOLD};
    use crate::search::Heuristic;
    pub use guard::Forecast;

    /// [`guard::refusal`] for a heuristic, instantiated here.
    pub fn refusal(
        h: Heuristic,
        puzzle: &str,
        f: &Forecast,
        warmup: u32,
        runs: u32,
        solutions: Option<u64>,
    ) -> Option<String> {
        guard::refusal(h, puzzle, f, warmup, runs, solutions)
    }

    /// [`guard::duration`].
    pub fn duration(s: f64) -> String {
        guard::duration(s)
    }
}

/// Set by Ctrl-C / SIGTERM; long runs poll it and stop cleanly with their statistics.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Parses the command line. A flag's value may start with '-', so that `--timeout -1`,
/// `--timeout -inf` or `--shard -1/2` get the flag's own message rather than
/// "unexpected argument '-1'" (a flag given no value gets it too: "invalid value
/// '--all' for '--timeout'").
pub fn parse_args() -> std::result::Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let heuristics = crate::search::select::help();
    let cmd = Cli::command().mut_subcommands(|c| {
        c.mut_args(|a| {
            let value = a.get_action().takes_values() && !a.is_positional();
            let help = a.get_help().map(|h| h.to_string());
            let a = a.allow_hyphen_values(value);
            match help.filter(|h| h.contains(heuristics!())) {
                Some(h) => a.help(h.replace(heuristics!(), &heuristics)),
                None => a,
            }
        })
    });
    Cli::from_arg_matches_mut(&mut cmd.try_get_matches()?)
}

#[derive(Parser, Debug)]
#[command(name = "plytile", version, about = "Exact edge-matching (Eternity II-style) puzzle solver", long_about = None)]
pub struct Cli {
    /// More logging on stderr (-v per-depth summaries, -vv more).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve a puzzle depth-first and report solutions and nodes per depth.
    Solve(solve::SolveArgs),
    /// Generate a puzzle with a planted solution.
    Gen(gen::GenArgs),
    /// Check a solution (solve's JSON, a `piece rotation` list, or a Brendan file).
    Verify(verify::VerifyArgs),
    /// Convert a puzzle between formats (.ron, .txt), or a viewer link to a puzzle and board.
    Convert(convert::ConvertArgs),
    /// Write the subproblems of a search as N job files for other machines.
    Split(split::SplitArgs),
    /// Sum the JSON results of shards or jobs into one result.
    Merge(merge::MergeArgs),
    /// The N-ply average local branching factor of a tree given as nested JSON lists.
    Branching(branching::BranchingArgs),
    /// Every empty site's N-ply branching factor and the site ply:N chooses.
    Explain(explain::ExplainArgs),
    /// Eigenvalues, spectral radius, period and N(d) of an equivalence graph (RON).
    Spectral(spectral::SpectralArgs),
    /// Draw a board: SVG (-o), viewer link (--link), or coloured text.
    Show(show::ShowArgs),
    /// Run several heuristics on one puzzle under the same limits, side by side.
    Compare(compare::CompareArgs),
    /// Benchmark settings over puzzles: mean ± σ of time and nodes, exports.
    Bench(bench::BenchArgs),
    /// Predict nodes per depth (analytic and sampled class models, Knuth plain and stratified, Owen) vs measured.
    Predict(predict::PredictArgs),
}

/// `--symmetry-parts`, for the commands whose `--symmetry` may cut a board into pairs
/// of corners (`solve`, and `predict`, which predicts what `solve` searches).
#[derive(Args, Debug, Clone, Copy)]
pub struct SymmetryParts {
    /// How --symmetry cuts a square board: `anchor` (the lowest corner piece at the
    /// top-left: one tree), `pairs` (three trees, each with two corner pieces fixed on
    /// the first line, chosen by Knuth estimates worth about 0.5% of the search) or
    /// `auto` (pairs for an --all run whose anchored tree is estimated at 1e10
    /// nodes or more, else the anchor) [default: auto].
    #[arg(long = "symmetry-parts", value_name = "HOW", requires = "symmetry")]
    pub given: Option<Parts>,
}

impl SymmetryParts {
    /// The cut asked for, `auto` unless given. (An `Option` so that `solve --job`,
    /// whose `--symmetry` clap refuses, can refuse the flag too: clap does not check
    /// `requires` against an argument that conflicts.)
    pub fn how(&self) -> Parts {
        self.given.unwrap_or(Parts::Auto)
    }
}

/// How to read a puzzle file; shared by every subcommand that takes one.
#[derive(Args, Debug, Clone)]
pub struct PuzzleArgs {
    /// Puzzle file: .ron (native) or plain text (`W H`, then `up right down left` lines).
    pub puzzle: PathBuf,
    /// Edge order of a text file's piece lines: urdl (default) or blrt (Wortmann).
    #[arg(long, default_value = "urdl")]
    pub edge_order: EdgeOrder,
    /// Add hints from an Eternity II hints file (`SQUARE ROW COL PIECE ROT`, piece 1-based).
    #[arg(long, value_name = "FILE")]
    pub hints: Option<PathBuf>,
}

/// The files a search read, absolute, as its result records them (`input`): `merge`
/// checks the boards against them.
pub fn input(
    puzzle: Option<&Path>,
    job: Option<&Path>,
    edge_order: EdgeOrder,
    hints: Option<&Path>,
) -> Input {
    let file = |p: &Path| {
        std::path::absolute(p)
            .unwrap_or(p.into())
            .display()
            .to_string()
    };
    Input {
        puzzle_file: puzzle.map(file),
        job_file: job.map(file),
        edge_order,
        hints_file: hints.map(file),
    }
}

impl PuzzleArgs {
    /// The files read, for [`check_outputs`].
    pub fn inputs(&self) -> Vec<&Path> {
        std::iter::once(self.puzzle.as_path())
            .chain(self.hints.as_deref())
            .collect()
    }

    /// The files read, as a result records them (`input`).
    pub fn input(&self) -> Input {
        input(
            Some(&self.puzzle),
            None,
            self.edge_order,
            self.hints.as_deref(),
        )
    }

    /// The puzzle, with a note on stderr when it provably has no solution
    /// ([`no_solution_reason`]).
    pub fn load(&self) -> Result<Puzzle> {
        let p = self.load_quiet()?;
        if let Some(why) = no_solution_reason(&p) {
            eprintln!("plytile: note: {}: {why}", self.puzzle.display());
        }
        Ok(p)
    }

    /// The puzzle, without the note of [`PuzzleArgs::load`]: for the commands that
    /// act on a puzzle without a solution themselves (`solve`, `compare`).
    pub fn load_quiet(&self) -> Result<Puzzle> {
        let text = read_text(&self.puzzle)?;
        let mut p = formats::parse_puzzle(&text, &self.puzzle, self.edge_order)?;
        if self.edge_order != EdgeOrder::Urdl && formats::is_ron(&text, &self.puzzle) {
            eprintln!(
                "plytile: note: --edge-order is for text puzzle files; {} is RON, whose pieces are up right down left",
                self.puzzle.display()
            );
        }
        if let Some(h) = &self.hints {
            let origin = h.display().to_string();
            let text = read_text(h)?;
            // The puzzle file was checked on reading: what fails now is a hint of
            // this file, so the message names its line.
            let base = p.hints.len();
            let located = formats::parse_e2_hints_located(&text, &origin)?;
            p.hints.extend(located.iter().map(|l| l.hint));
            // Its pieces count from 1.
            p.validate_located(
                &origin,
                &|item| match item {
                    Item::Hint(k) if k >= base => located.get(k - base).map(|l| l.line),
                    _ => None,
                },
                1,
            )?;
            formats::check_hint_edges(&p, &located, &origin)?;
        }
        Ok(p)
    }
}

/// Why `p` has no solution, when that shows without a search: a colour on an odd
/// number of piece sides ([`Puzzle::odd_colours`]).
pub fn no_solution_reason(p: &Puzzle) -> Option<String> {
    unsolvable_key(p).map(|fact| {
        format!("{fact}, so no board matches them all: the puzzle has no solution (a piece mistyped or missing?)")
    })
}

/// The `unsolvable` of a result: the fact [`no_solution_reason`] explains.
pub fn unsolvable_key(p: &Puzzle) -> Option<String> {
    let &(colour, n) = p.odd_colours().first()?;
    Some(format!(
        "colour {colour} shows on {n} piece sides, an odd number"
    ))
}

/// `--select`'s heuristics checked against the puzzle they are to run on: an
/// `order:FILE` cell off the board is an input error naming the file and line.
pub fn check_select(hs: impl IntoIterator<Item = Heuristic>, puzzle: &Puzzle) -> Result<()> {
    for h in hs {
        h.check(puzzle.width, puzzle.height)
            .map_err(|e| InputError::new("--select", e))?;
    }
    Ok(())
}

/// How to search beyond the heuristic, shared by every command that takes `--select`.
#[derive(Args, Debug, Clone)]
pub struct StrategyArgs {
    /// Search the 4-connected regions of the empty cells one at a time, smallest
    /// first, and end a node whose region cannot be filled: on or off.
    #[arg(long, value_name = "on|off", default_value = "off", value_parser = parse_on_off, action = clap::ArgAction::Set)]
    pub factor: bool,
    /// Order of the placements at each site: natural (lowest piece first) or penalty
    /// (least constraining first). Counts are the same either way.
    #[arg(long, value_name = "natural|penalty", default_value = "natural")]
    pub move_order: Order,
}

impl StrategyArgs {
    pub fn strategy(&self, select: Heuristic) -> Strategy {
        Strategy {
            select,
            factor: self.factor,
            moves: self.move_order,
        }
    }
}

/// `--split-depth` as the frontier takes it: at most the board's empty cells, with a
/// note when it asked for more (the frontier is then the full boards).
pub fn split_depth(asked: Option<u64>, puzzle: &Puzzle) -> Option<usize> {
    let top = puzzle.free_cells();
    let d = asked? as usize;
    if d > top {
        eprintln!(
            "plytile: note: --split-depth {d} is deeper than the board's {top} empty cells; splitting at the full depth (of each tree, with --symmetry)"
        );
    }
    Some(d.min(top))
}

/// `--threads T` as the search runs it ([`crate::search::workers`]: at most the cores),
/// with a note when the cores cut it: the run says it used fewer threads than asked.
pub fn threads(asked: u64) -> usize {
    let run = crate::search::workers(asked as usize);
    if asked as usize > run {
        eprintln!(
            "plytile: note: --threads {asked} is more than the {run} cores this process may use; running {run} worker threads (more would only take turns on the same cores; counts are the same)"
        );
    }
    run
}

/// Heuristics in order, each once (its first place kept): `compare` and `bench` run a
/// setting given twice only once, since it would be timed against itself and the
/// fastest is found by name.
pub fn distinct<T: PartialEq>(settings: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for h in settings {
        if !out.contains(&h) {
            out.push(h);
        }
    }
    out
}

/// `args` as one POSIX shell line that gives them back when pasted: an argument with
/// anything but letters, digits and `_./,:=@%+-` goes in single quotes (a `'` in it as
/// `'\''`), so that a file named `a|b "c".txt` survives.
pub fn shell_line<S: AsRef<str>>(args: impl IntoIterator<Item = S>) -> String {
    let quote = |a: &str| {
        let plain = |c: char| c.is_ascii_alphanumeric() || "_./,:=@%+-".contains(c);
        if !a.is_empty() && a.chars().all(plain) {
            a.to_string()
        } else {
            format!("'{}'", a.replace('\'', r"'\''"))
        }
    };
    let words: Vec<String> = args.into_iter().map(|a| quote(a.as_ref())).collect();
    words.join(" ")
}

/// Whether `--symmetry` (`asked`) cuts `puzzle`'s tree: not on a board with hints,
/// which is searched whole with a note on stderr. Every command that takes
/// `--symmetry` decides here, so that none ignores it silently.
pub fn symmetry_applies(asked: bool, puzzle: &Puzzle) -> bool {
    symmetry_applies_as(asked, puzzle, "searching the whole tree")
}

/// [`symmetry_applies`], whose note ends with `instead`, what the command does with
/// the whole tree (`predict` searches nothing without `--measure`).
pub fn symmetry_applies_as(asked: bool, puzzle: &Puzzle, instead: &str) -> bool {
    if asked && !puzzle.hints.is_empty() {
        // Hints pin pieces, so turning a solution gives no solution: nothing to cut.
        eprintln!("plytile: note: --symmetry is for boards without hints; {instead}");
        return false;
    }
    asked
}

/// A note when `--symmetry-parts` names a cut (`anchor`, `pairs`) that a board with
/// W != H has not: its `--symmetry` always searches its two half trees.
pub fn note_symmetry_parts(symmetry: bool, how: Parts, puzzle: &Puzzle) {
    if symmetry && how != Parts::Auto && puzzle.width != puzzle.height {
        eprintln!(
            "plytile: note: --symmetry-parts cuts square boards; this {}x{} board's --symmetry searches its two half trees",
            puzzle.width, puzzle.height
        );
    }
}

/// The help of `compare --symmetry` and `bench --symmetry`: they cut each tree as
/// `solve --symmetry` does with its default `--symmetry-parts auto`.
pub const SYMMETRY_HELP: &str = "Boards without hints: search each heuristic on the \
    trees of `solve --symmetry` (its default --symmetry-parts auto): a square board's \
    lowest corner piece fixed at the top-left (a quarter of the tree) or, for a run for \
    all solutions whose anchored tree is estimated at 1e10 nodes or more, three trees \
    with pairs of corners fixed; on a W x H board with W != H two half trees. \
    Solution counts are those of the whole puzzle.";

/// Parses `on` / `off`.
pub fn parse_on_off(s: &str) -> std::result::Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("'{s}' is neither on nor off")),
    }
}

/// Node and time limits, shared by every command that searches (each run gets them).
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Stop (each run) after N nodes (default: no limit).
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub max_nodes: Option<u64>,
    /// Stop (each run) after SECS seconds (default: no limit).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
}

impl LimitArgs {
    /// The search limits of one run that starts now.
    pub fn limits(&self, max_solutions: Option<u64>, keep: usize) -> crate::search::Limits {
        crate::search::Limits {
            max_nodes: self.max_nodes,
            deadline: self
                .timeout
                .map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s)),
            max_solutions,
            keep,
            shelf: None,
        }
    }
}

/// Writes `text` to `path`, or stdout for `-` ([`crate::files::write_file`]: through
/// a temporary file and a rename, so that an interrupted write never leaves half a file).
pub fn write_output(path: &Path, text: &str) -> Result<()> {
    if path == Path::new("-") {
        return out!("{text}");
    }
    crate::files::write_file(path, text)
        .map_err(|e| InputError::new(path.display().to_string(), format!("cannot write: {e}")))
}

/// A puzzle as the text an output file takes: RON for `.ron`, plain text for `.txt`,
/// `to` (or `default`) for stdout or a name without an extension; another extension, or
/// a `to` that contradicts the name, is refused.
pub fn puzzle_text(p: &Puzzle, path: &Path, to: Option<&str>, default: &str) -> Result<String> {
    // `X.RON` is a RON file as `X.ron` is (`show -o X.SVG` is SVG too).
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let fmt = match (ext.as_deref(), to) {
        (Some(e), Some(t)) if e != t => {
            let m = format!("--to {t} contradicts the file name's .{e}");
            return Err(InputError::new(path.display().to_string(), m));
        }
        (Some(e), _) => e,
        (None, t) => t.unwrap_or(default),
    };
    match fmt {
        "ron" => Ok(formats::to_ron(p)),
        "txt" => Ok(formats::to_text(p)),
        other => Err(InputError::new(
            path.display().to_string(),
            format!("unknown format '{other}': use a name ending in .ron or .txt"),
        )),
    }
}

pub use crate::puzzle::formats::no_solution_at;

/// Checks the files a command will write before it does any work, so that a long
/// run never ends in a path error with its results lost: each can be written, none
/// is one of the `inputs`, no two are the same file. Stdout (`-`) passes, and so does
/// a FIFO or a device, which is written directly and may take several outputs.
pub fn check_outputs(outputs: &[&Path], inputs: &[&Path]) -> Result<()> {
    use crate::files;
    for (i, out) in outputs.iter().enumerate() {
        let err = |m: String| InputError::new(out.display().to_string(), m);
        if *out == Path::new("-") {
            continue;
        }
        if std::fs::metadata(out).is_ok_and(|m| !m.is_file()) {
            if out.is_dir() {
                return Err(err("cannot write: is a directory".into()));
            }
            continue;
        }
        if inputs.iter().any(|input| files::same_file(out, input)) {
            return Err(err("is also an input; refusing to overwrite it".into()));
        }
        if outputs[..i].iter().any(|o| files::same_file(out, o)) {
            return Err(err(
                "given to two outputs; one would overwrite the other".into()
            ));
        }
        files::check_writable(out).map_err(|e| err(format!("cannot write: {e}")))?;
    }
    Ok(())
}

/// Refuses two outputs on stdout, which a script could not take apart (JSON followed
/// by an SVG): `uses` pairs each output's flag with whether it goes there. `bench`'s
/// exports are held to the same rule.
pub fn one_on_stdout(uses: &[(&str, bool)]) -> Result<()> {
    let on: Vec<&str> = uses.iter().filter(|u| u.1).map(|u| u.0).collect();
    if on.len() > 1 {
        return Err(InputError::new(
            on.join(" and "),
            "only one output can go to stdout (-); write the other to a file",
        ));
    }
    Ok(())
}

/// Whether an output path is stdout (`-`).
pub fn is_stdout(path: Option<&Path>) -> bool {
    path.is_some_and(|p| p == Path::new("-"))
}

/// Refuses an SVG output, `flag`'s FILE, whose name ends in anything but `.svg`, as
/// `convert -o` refuses an unknown extension: an SVG in `board.png` would pass for a
/// PNG. Stdout (`-`) and a FIFO or device (no name to go by) pass.
pub fn check_svg_name(flag: &str, path: &Path) -> Result<()> {
    let svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let special = std::fs::metadata(path).is_ok_and(|m| !m.is_file());
    if svg || special || path == Path::new("-") {
        return Ok(());
    }
    Err(InputError::new(
        path.display().to_string(),
        format!("{flag} writes SVG only: give a name ending in .svg (or - for stdout)"),
    ))
}

/// Writes a command's output to stdout (the `out!` macro). A closed pipe never returns here:
/// SIGPIPE ends the program quietly (main.rs).
pub fn write_stdout(args: std::fmt::Arguments) -> Result<()> {
    std::io::stdout()
        .lock()
        .write_fmt(args)
        .map_err(stdout_error)
}

/// Sends what stdout holds back (a last line without a newline) now.
pub fn flush_stdout() -> Result<()> {
    std::io::stdout().flush().map_err(stdout_error)
}

fn stdout_error(e: std::io::Error) -> InputError {
    InputError::new("stdout", format!("cannot write: {e}"))
}

/// Runs the command line; returns the process exit code.
pub fn run(cli: Cli) -> Result<u8> {
    init_logging(cli.verbose);
    let code = match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Gen(a) => gen::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Split(a) => split::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Branching(a) => branching::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Spectral(a) => spectral::run(a),
        Command::Show(a) => show::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Predict(a) => predict::run(a),
    }?;
    flush_stdout()?;
    Ok(code)
}

fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => tracing::Level::WARN,
        1 => tracing::Level::INFO,
        _ => tracing::Level::DEBUG,
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        // Colour codes only for a person: not in a log file (a Slurm job's) or a pipe.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// Exit code of a run stopped by a second Ctrl-C / SIGTERM (128 + SIGINT, as shells
/// report a process killed by the signal).
pub const EXIT_INTERRUPTED_TWICE: i32 = 130;

/// Installs the Ctrl-C / SIGTERM handler once. The first signal sets [`INTERRUPTED`]:
/// the run stops at its next check and reports what it has. A second one quits at
/// once, for a stretch of work that does not check the flag: every file is written
/// through a rename ([`write_output`], checkpoints), so none is left half-written and
/// the last checkpoint stays usable.
pub fn catch_interrupts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // GNU `timeout` sends its SIGTERM to the process and to its group: one event that
    // arrives twice within microseconds. Only a signal a person could send counts as
    // the second.
    static FIRST: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    const SAME_EVENT: std::time::Duration = std::time::Duration::from_millis(200);
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let first = *FIRST.get_or_init(std::time::Instant::now);
            if INTERRUPTED.swap(true, Ordering::SeqCst) && first.elapsed() >= SAME_EVENT {
                eprintln!("plytile: interrupted twice: quitting without a report");
                crate::files::remove_temporaries();
                std::process::exit(EXIT_INTERRUPTED_TWICE);
            }
        });
    });
}

/// Parses a positive count of nodes or probes, in digits or as the README writes them
/// (`3e8`, `2.5e6`).
pub fn parse_count(s: &str) -> std::result::Result<u64, String> {
    let exact = s.parse::<u64>().ok();
    let written = || {
        s.parse::<f64>()
            .ok()
            .filter(|x| x.fract() == 0.0 && *x < 1.8e19)
    };
    // Digits that do not fit a u64, or a whole number written past it.
    let too_big = || {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            || s.parse::<f64>().is_ok_and(|x| x.is_finite() && x >= 1.8e19)
    };
    match exact.or_else(|| written().map(|x| x as u64)) {
        Some(n) if n > 0 => Ok(n),
        None if too_big() => Err(format!(
            "'{s}' is over 1.8e19 (2^64); leave the limit out for none"
        )),
        _ => Err(format!(
            "'{s}' is not a positive whole number (e.g. 300000000 or 3e8)"
        )),
    }
}

/// Parses a number of solution boards to keep: 0, or a count as [`parse_count`] takes
/// it (`1e3` too, as `--solutions` and `--max-nodes`).
pub fn parse_keep(s: &str) -> std::result::Result<usize, String> {
    if s.parse::<f64>() == Ok(0.0) {
        return Ok(0);
    }
    let n = parse_count(s)
        .map_err(|_| format!("'{s}' is not a whole number of boards (e.g. 0, 100 or 1e3)"))?;
    usize::try_from(n).map_err(|_| format!("'{s}' is too large"))
}

/// The most probes `predict` takes: a probe walks the tree from the root to a leaf
/// (about a microsecond on a small board, several on 16x16), so 1e10 is hours.
const MAX_PROBES: u64 = 10_000_000_000;

/// Parses a count of probes ([`parse_count`]), at most 1e10.
pub fn parse_probes(s: &str) -> std::result::Result<u64, String> {
    match parse_count(s)? {
        n if n > MAX_PROBES => Err(format!(
            "'{s}' probes is over 1e10 (hours to days of probing); fewer probes already bound the error (BENCHMARKS.md, prediction accuracy)"
        )),
        n => Ok(n),
    }
}

/// The longest `--timeout`: a deadline must fit in an `Instant` (1e20 s panicked).
const MAX_SECONDS: f64 = 1e9;

/// Parses a positive number of seconds, at most `MAX_SECONDS` (1e9).
pub fn parse_seconds(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > MAX_SECONDS && x.is_finite() => Err(format!(
            "'{s}' seconds is over 1e9 (31 years); leave the limit out for none"
        )),
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// Parses a positive size in MiB, fractions allowed, at most 2^30 MiB (1 PiB).
pub fn parse_mib(s: &str) -> std::result::Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x <= (1u64 << 30) as f64 => Ok(x),
        _ => Err(format!(
            "'{s}' is not a positive number of MiB up to 2^30 (e.g. 1024 or 0.5)"
        )),
    }
}
