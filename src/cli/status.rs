//! The live status line of long searches: on stderr, only when it is a terminal.
//! A thread redraws it a few times a second from the search's progress atomics
//! ([`crate::search::progress`]); the search itself never touches the terminal.

use crate::puzzle::Puzzle;
use crate::search::estimate::estimate;
use crate::search::progress::PROGRESS;
use crate::search::Heuristic;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Knuth probes taken to estimate the tree size for the "done" fraction.
const PROBES: usize = 200;

pub struct StatusLine {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl StatusLine {
    /// Starts the status line when stderr is a terminal (and `enabled`); otherwise a
    /// no-op. The fraction of the tree done comes from a quick Knuth estimate of the
    /// whole tree; `part` names the share searched (`shard 1/4`), whose end is then
    /// about its share of that.
    pub fn start(puzzle: &Puzzle, h: Heuristic, part: Option<String>, enabled: bool) -> StatusLine {
        let done = Arc::new(AtomicBool::new(false));
        if !enabled || !std::io::stderr().is_terminal() {
            return StatusLine { done, thread: None };
        }
        let estimate = estimate(puzzle, h, PROBES, 1);
        let max_depth = puzzle.free_cells();
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("a valid template"));
        let flag = done.clone();
        let (start, base) = (Instant::now(), PROGRESS.snapshot().0);
        let thread = std::thread::spawn(move || {
            let whole = match &part {
                Some(p) => format!(" in the whole tree ({p} searched here)"),
                None => String::new(),
            };
            while !flag.load(Ordering::Relaxed) {
                let (nodes, deepest, solutions) = PROGRESS.snapshot();
                let new = nodes - base;
                let rate = new as f64 / start.elapsed().as_secs_f64().max(1e-9);
                // A resumed run shows the checkpoint's nodes too, but not in the rate.
                let nodes = new + PROGRESS.resumed();
                let frac = (nodes as f64 / estimate).min(1.0) * 100.0;
                bar.set_message(format!(
                    "{nodes} nodes, {rate:.3e} nodes/s, deepest {deepest} of {max_depth}, {solutions} solutions, ~{frac:.1}% of an estimated {estimate:.2e} nodes{whole}"
                ));
                bar.tick();
                std::thread::sleep(Duration::from_millis(250));
            }
            bar.finish_and_clear();
        });
        StatusLine {
            done,
            thread: Some(thread),
        }
    }

    /// Clears the line; call before printing the result.
    pub fn stop(mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
