//! `plytile merge`: sums the JSON results of shards or jobs into one result.

use super::{read_text, PuzzleArgs};
use crate::error::{InputError, Result};
use crate::merge;
use crate::puzzle::formats::{text_of, EdgeOrder};
use crate::puzzle::Puzzle;
use crate::report::{depth_table, stop_text, SolveResult};
use crate::search::jobs;
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// JSON results of `plytile solve --shard i/n --json` or `solve --job FILE --json`:
    /// files, each holding one result or several one after another (the output of a
    /// batch engine gathered into one file), or `-` for standard input.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
    /// Keep at most this many solution boards; all are counted.
    #[arg(long, value_name = "K", default_value = "1000", value_parser = super::parse_keep)]
    pub keep: usize,
    /// Print the result as one JSON object (the schema of `solve --json`).
    #[arg(long)]
    pub json: bool,
    /// Print only the summary line (that of `solve -q`); --json wins, as in `solve`.
    #[arg(short, long)]
    pub quiet: bool,
    /// The puzzle the results are of: each must match it, and every solution they
    /// hold is checked by the independent checker before it is reported.
    #[arg(long, value_name = "FILE")]
    pub puzzle: Option<PathBuf>,
    /// Edge order of --puzzle's piece lines: urdl (default) or blrt (Wortmann).
    #[arg(long, default_value = "urdl", requires = "puzzle")]
    pub edge_order: EdgeOrder,
    /// Hints of --puzzle from an Eternity II hints file, as given to `solve`.
    #[arg(long, value_name = "FILE", requires = "puzzle")]
    pub hints: Option<PathBuf>,
}

pub fn run(a: MergeArgs) -> Result<u8> {
    let puzzle = match &a.puzzle {
        Some(path) => Some(
            PuzzleArgs {
                puzzle: path.clone(),
                edge_order: a.edge_order,
                hints: a.hints.clone(),
            }
            .load()?,
        ),
        None => None,
    };
    let mut parts = Vec::new();
    let mut stdin_read = false;
    for path in &a.results {
        let (origin, text) = if path.as_os_str() == "-" {
            if std::mem::replace(&mut stdin_read, true) {
                return Err(InputError::new("-", "standard input is given twice"));
            }
            let origin = "standard input";
            let bytes = crate::files::read_stdin()
                .map_err(|e| InputError::new(origin, format!("cannot read: {e}")))?;
            (origin.to_string(), text_of(bytes, origin)?)
        } else {
            (path.display().to_string(), read_text(path)?)
        };
        parts.extend(results_in(&text, &origin)?);
    }
    let (m, warnings) = merge::merge_with(&parts, a.keep, puzzle.as_ref())?;
    let boards: usize = parts.iter().map(|(_, r)| r.solutions.len()).sum();
    if puzzle.is_none() && boards > 0 {
        // Every board reported is checked again: against the puzzle the results name.
        match recorded_puzzle(&parts) {
            Ok(p) => {
                for (origin, r) in &parts {
                    merge::check_result_against(origin, r, &p)?;
                }
            }
            Err(why) => eprintln!(
                "plytile: note: the {boards} solution boards were not checked again: {why}; give --puzzle FILE"
            ),
        }
    }
    for w in warnings {
        eprintln!("plytile: {w}");
    }
    if a.json {
        outln!("{}", serde_json::to_string(&m).expect("results serialize"))?;
    } else if a.quiet {
        outln!("{}", m.summary_line())?;
    } else {
        out!("{}", render(&m, parts.len()))?;
    }
    Ok(m.exit_code())
}

/// The results in `text` (one JSON object, or several one after another), each named
/// after `origin`, and after its place in it when there are several.
fn results_in(text: &str, origin: &str) -> Result<Vec<(String, SolveResult)>> {
    let mut found = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<SolveResult>();
    for r in &mut stream {
        match r {
            Ok(r) => found.push(r),
            Err(e) => {
                let which = match found.len() {
                    0 => String::new(),
                    n => format!(" (after {n} good ones)"),
                };
                return Err(InputError::located(
                    origin,
                    Some(e.line()).filter(|&l| l > 0),
                    format!("not a JSON result of `plytile solve --json`{which}: {e}"),
                ));
            }
        }
    }
    if found.is_empty() {
        return Err(InputError::new(
            origin,
            "holds no JSON result of `plytile solve --json` (empty)",
        ));
    }
    let several = found.len() > 1;
    Ok((found.into_iter().enumerate())
        .map(|(i, r)| {
            let name = match several {
                true => format!("{origin} (result {})", i + 1),
                false => origin.to_string(),
            };
            (name, r)
        })
        .collect())
}

/// The puzzle the results name in `input`, read again, when it is still there and
/// still the puzzle of every result; else why not.
fn recorded_puzzle(parts: &[(String, SolveResult)]) -> std::result::Result<Puzzle, String> {
    let Some(input) = parts.iter().find_map(|(_, r)| r.input.as_ref()) else {
        return Err("the results do not name their puzzle file (older plytile)".into());
    };
    let (read, file) = match (&input.job_file, &input.puzzle_file) {
        (Some(job), _) => (jobs::read_job(Path::new(job)).map(|j| j.puzzle), job),
        (None, Some(file)) => {
            let args = PuzzleArgs {
                puzzle: file.into(),
                edge_order: input.edge_order,
                hints: input.hints_file.as_ref().map(PathBuf::from),
            };
            (args.load(), file)
        }
        (None, None) => return Err("the results do not name their puzzle file".into()),
    };
    let p = read.map_err(|e| format!("cannot read the puzzle they name ({e})"))?;
    let fp = crate::puzzle::fingerprint(&p);
    if parts
        .iter()
        .any(|(_, r)| r.puzzle_fingerprint() != Some(fp))
    {
        return Err(format!("{file} no longer holds their puzzle"));
    }
    Ok(p)
}

/// The summary of `solve`'s text report (boards need the puzzle file; see `--json`).
fn render(r: &SolveResult, parts: usize) -> String {
    let mut s = String::new();
    s += &format!(
        "puzzle      {} ({}x{}), {} results merged\n",
        r.puzzle, r.width, r.height, parts
    );
    s += &format!("select      {}\n", r.select);
    s += &format!("solutions   {}\n", r.solutions_found);
    s += &format!(
        "exhaustive  {}\n",
        match (r.exhaustive, r.stopped_by) {
            (true, _) => "yes".to_string(),
            (false, Some(stop)) => format!("no (stopped: {})", stop_text(stop)),
            (false, None) => "no (shards missing)".to_string(),
        }
    );
    s += &r.nodes_line();
    s += &format!("deepest     {}\n", r.deepest.depth);
    s += &format!("time        {:.3} s (longest part)\n", r.elapsed_s);
    s += &depth_table(&r.nodes_per_depth);
    s
}
