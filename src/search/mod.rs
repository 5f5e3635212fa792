//! The search: state (board and candidate sets), the depth-first driver, the
//! site-selection heuristics, and the parallel driver with its files.

pub mod auto;
pub mod checkpoint;
pub mod dfs;
pub mod engine;
pub mod estimate;
pub mod jobs;
pub mod limits;
pub mod outcome;
pub mod parallel;
pub mod plan;
pub mod progress;
pub mod rowscan;
pub mod select;
pub mod solve;
pub mod state;
pub mod symmetric;
pub mod symmetry;

pub use engine::search;
pub use limits::{Limits, Stats, Stop};
pub use select::{Along, Heuristic, Mrv, Order, PMean, Pick, Plan, PlyN, Select, Strategy, Switch};
pub use state::State;

pub use outcome::SolveResult;
pub use solve::{cores, solve, solve_with, workers, Spread};
pub use symmetric::{solve_one, solve_setting};
