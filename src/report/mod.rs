//! Reports: the result of a run as one serde struct (the JSON schema) and its text
//! rendering for people.

pub mod board;
pub mod export;
pub mod plot;
pub mod svg;

use crate::puzzle::{Board, Puzzle};
pub use crate::search::limits::stop_text;
pub use crate::search::outcome::{
    rate, solution_cells, Cell, Deepest, Input, Merged, Second, SolveResult, SymmetryPart,
};
use crate::search::Stop;
use serde::{Deserialize, Serialize};

impl SolveResult {
    /// The line of the text report that says why the node count is not the same on
    /// every run and how to get one that is; None when it is.
    pub fn timing_line(&self) -> Option<String> {
        if !self.nodes_depend_on_timing {
            return None;
        }
        Some(match self.stopped_by {
            Some(Stop::Timeout | Stop::Interrupted) => {
                "reproduce   the node count depends on when the run was stopped; --max-nodes N --threads 1 counts the same nodes every run\n".to_string()
            }
            _ => format!(
                "reproduce   the node count depends on thread timing ({} threads stopped early); --threads 1 counts the same nodes every run\n",
                self.threads
            ),
        })
    }

    /// The human-readable report.
    pub fn render_text(&self, puzzle: &Puzzle, show_boards: usize) -> String {
        let mut s = String::new();
        for i in 0..self.solutions.len().min(show_boards) {
            s += &format!("solution {}:\n", i + 1);
            s += &board::render(puzzle, &self.solution_board(i));
            s.push('\n');
        }
        let more = self.solutions.len().saturating_sub(show_boards);
        if more > 0 {
            s += &format!(
                "({more} more solution boards kept, not drawn: --keep N draws N, --json lists them)\n\n"
            );
        }
        if self.solutions.is_empty() && self.deepest.depth > 0 {
            // With --keep 0 the deepest board may be a solution, not a partial one.
            let full = self.deepest.board.iter().all(Option::is_some);
            s += &format!(
                "deepest {} ({} pieces beyond the hints):\n",
                if full {
                    "board, a solution"
                } else {
                    "partial board"
                },
                self.deepest.depth
            );
            let b: Board = self
                .deepest
                .board
                .iter()
                .map(|c| c.map(|[p, r]| (p, r as u8)))
                .collect();
            s += &board::render(puzzle, &b);
            s.push('\n');
        }
        let drawn = self.solutions.len().min(show_boards) > 0
            || (self.solutions.is_empty() && self.deepest.depth > 0);
        if drawn {
            s += board::LEGEND;
            s += "\n\n";
        }
        s += &format!(
            "puzzle      {} ({}x{}, {} pieces, {} hints)\n",
            self.puzzle,
            self.width,
            self.height,
            puzzle.pieces.len(),
            puzzle.hints.len()
        );
        s += &format!("select      {}\n", self.select);
        s += &format!("solutions   {}\n", self.solutions_found);
        s += &format!(
            "exhaustive  {}\n",
            match (self.stopped_by, &self.unsolvable) {
                (None, Some(why)) => format!("yes (proven before the search: {why})"),
                (None, None) => "yes".to_string(),
                (Some(stop), _) => format!("no (stopped: {})", stop_text(stop)),
            }
        );
        s += &self.nodes_line();
        s += self.timing_line().as_deref().unwrap_or("");
        if self.symmetry > 1 && self.nodes == 0 {
            // Not even a root: stopped while the estimates chose the trees.
            s += "symmetry    stopped while choosing the trees to search: nothing searched\n";
        } else if self.symmetry > 1 {
            s += &format!(
                "symmetry    1/{} of the tree searched (corners fixed); each solution counted with its turns\n",
                self.symmetry
            );
            for t in &self.symmetry_parts {
                let fixed: Vec<String> = t
                    .corners
                    .iter()
                    .map(|[r, c, piece, _]| format!("piece {piece} at ({r},{c})"))
                    .collect();
                s += &format!(
                    "  part      {}, {}: {} nodes, {} solution(s){}\n",
                    fixed.join(" and "),
                    t.select,
                    t.nodes,
                    t.solutions_found,
                    t.estimated_nodes
                        .map_or(String::new(), |e| format!(" (estimated {e:.3e})"))
                );
            }
        }
        s += &format!(
            "deepest     {} of {}\n",
            self.deepest.depth,
            puzzle.free_cells()
        );
        s += &format!("time        {:.3} s\n", self.elapsed_s);
        s += &format!("nodes/s     {:.3e}\n", self.nodes_per_s);
        s += &depth_table(&self.nodes_per_depth);
        s
    }
}

/// The "nodes per depth" section of a text report; none for a run that searched
/// nothing (stopped while it chose its trees, say).
pub fn depth_table(nodes_per_depth: &[u64]) -> String {
    if nodes_per_depth.iter().all(|&n| n == 0) {
        return String::new();
    }
    let mut s = "nodes per depth:\n".to_string();
    for (d, n) in nodes_per_depth.iter().enumerate() {
        s += &format!("  {d:>4} {n:>16}\n");
    }
    s
}

/// True when a run searched what it was asked to (every solution, or the solutions
/// asked for) rather than being stopped by a limit or Ctrl-C: only such runs are
/// ranked by time (`compare`, `bench`), since a run cut short did less work.
pub fn reached_goal(stopped_by: Option<Stop>) -> bool {
    limit_stop(stopped_by).is_none()
}

/// The stop of a run that a limit or Ctrl-C cut short; None when it reached its goal
/// (a run stopped by the solutions asked for did).
pub fn limit_stop(stopped_by: Option<Stop>) -> Option<Stop> {
    stopped_by.filter(|&s| s != Stop::Solutions)
}

/// How a run compares by time with the fastest run that reached its goal.
pub enum Rank {
    /// It reached its goal too: the time ratio is the comparison.
    Ranked,
    /// A limit stopped it after the fastest had finished: the ratio is a lower bound.
    AtLeast(Stop),
    /// A limit stopped it sooner: its time says nothing.
    Unranked(Stop),
}

/// The [`Rank`] of a run that stopped as `stopped_by` says, whose time (or nodes) is
/// `ratio` times the best run's, which `best_reached` its goal or not (then no run
/// did, and nothing is ranked): `compare`'s lines and table, `bench`'s summary and
/// exports.
pub fn rank(stopped_by: Option<Stop>, ratio: f64, best_reached: bool) -> Rank {
    match limit_stop(stopped_by) {
        None => Rank::Ranked,
        Some(s) if ratio >= 1.0 && best_reached => Rank::AtLeast(s),
        Some(s) => Rank::Unranked(s),
    }
}

/// A [`Rank`] without its stop, as exports give it (the `rank` field and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Standing {
    #[default]
    #[serde(rename = "ranked")]
    Ranked,
    #[serde(rename = "at least")]
    AtLeast,
    #[serde(rename = "not ranked")]
    NotRanked,
}

impl std::fmt::Display for Standing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Standing::Ranked => "ranked",
            Standing::AtLeast => "at least",
            Standing::NotRanked => "not ranked",
        })
    }
}

impl Rank {
    pub fn standing(&self) -> Standing {
        match self {
            Rank::Ranked => Standing::Ranked,
            Rank::AtLeast(_) => Standing::AtLeast,
            Rank::Unranked(_) => Standing::NotRanked,
        }
    }

    /// The ratio as tables and exports give it: a lower bound when `AtLeast`, none when
    /// `Unranked` (a run stopped sooner: its ratio says nothing).
    pub fn ratio(&self, ratio: f64) -> Option<f64> {
        (!matches!(self, Rank::Unranked(_))).then_some(ratio)
    }
}

/// The quickest of `runs` by `time` among those whose `stop` [`reached_goal`], or
/// among all of them when none did: what ratios are taken against (a ratio to a run
/// that did not reach its goal is then not ranked, see [`rank`]).
pub fn quickest<T>(
    runs: &[T],
    stop: impl Fn(&T) -> Option<Stop>,
    time: impl Fn(&T) -> f64,
) -> Option<&T> {
    let by_time = |a: &&T, b: &&T| time(a).total_cmp(&time(b));
    (runs
        .iter()
        .filter(|r| reached_goal(stop(r)))
        .min_by(by_time))
    .or_else(|| runs.iter().min_by(by_time))
}

/// The quickest of `runs` by `time` that [`reached_goal`]; `None` when none did, so
/// that nothing is named fastest (or fewest nodes) by a limit's stop: `compare`'s and
/// `bench`'s `fastest` and `fewest_nodes`.
pub fn winner<T>(
    runs: &[T],
    stop: impl Fn(&T) -> Option<Stop>,
    time: impl Fn(&T) -> f64,
) -> Option<&T> {
    quickest(runs, &stop, time).filter(|r| reached_goal(stop(r)))
}
