//! `bench`'s live line on stderr (a terminal only): which setting, puzzle and run is
//! going, for how long, and its nodes so far with their rate, redrawn a few times a
//! second from the search's progress atomics ([`crate::search::progress`]), beside
//! the bar of runs done. A run of hours then shows it is working, and how fast.

use crate::report::export::fmt_count;
use crate::search::progress::PROGRESS;
use indicatif::ProgressBar;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The run going: its label, when it started, and the process's node count then.
type Going = (String, Instant, u64);

pub struct Live {
    going: Arc<Mutex<Going>>,
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Live {
    /// Redraws `bar`'s message from the run going; nothing when the bar is hidden
    /// (stderr is not a terminal).
    pub fn start(bar: &ProgressBar) -> Live {
        let going = Arc::new(Mutex::new((String::new(), Instant::now(), 0)));
        let done = Arc::new(AtomicBool::new(false));
        if bar.is_hidden() {
            return Live {
                going,
                done,
                thread: None,
            };
        }
        let (bar, shared, flag) = (bar.clone(), going.clone(), done.clone());
        let thread = std::thread::spawn(move || {
            while !flag.load(Ordering::Relaxed) {
                let (label, start, base) = shared.lock().expect("not poisoned").clone();
                if !label.is_empty() {
                    let nodes = PROGRESS.snapshot().0.saturating_sub(base);
                    bar.set_message(status_text(&label, start.elapsed().as_secs_f64(), nodes));
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        });
        Live {
            going,
            done,
            thread: Some(thread),
        }
    }

    /// A run starts: `label` names it (see [`run_label`]).
    pub fn run(&self, label: String) {
        *self.going.lock().expect("not poisoned") = (label, Instant::now(), PROGRESS.snapshot().0);
    }

    /// Ends the redraws; call before the bar is cleared.
    pub fn stop(mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `scan on p.txt, run 2/3 (setting 1/5)`, or `warm-up 1/1`; with `~3.0 h per run
/// predicted` when the check before the runs predicted one (`predicted`).
#[inline] // crate::cli::bench_parts
pub fn run_label(
    what: &str,
    run: u32,
    warmup: u32,
    runs: u32,
    setting: (usize, usize),
    predicted: Option<&str>,
) -> String {
    let which = if run < warmup {
        format!("warm-up {}/{warmup}", run + 1)
    } else {
        format!("run {}/{runs}", run - warmup + 1)
    };
    let mut s = format!("{what}, {which} (setting {}/{})", setting.0, setting.1);
    if let Some(p) = predicted {
        s += &format!(", {p} per run predicted");
    }
    s
}

/// The live line of a run: its label, time so far, nodes and rate.
#[inline] // crate::cli::bench_parts
pub fn status_text(label: &str, elapsed_s: f64, nodes: u64) -> String {
    let rate = nodes as f64 / elapsed_s.max(1e-9);
    format!(
        "{label}: {}, {} nodes, {rate:.2e} nodes/s",
        elapsed(elapsed_s),
        fmt_count(nodes as f64)
    )
}

/// A run's time so far: `0.4 s`, `12 min 05 s`, `3 h 07 min`.
#[inline] // crate::cli::bench_parts
pub fn elapsed(s: f64) -> String {
    let whole = s as u64;
    if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{} min {:02} s", whole / 60, whole % 60)
    } else {
        format!("{} h {:02} min", whole / 3600, whole % 3600 / 60)
    }
}
