//! The `plytile` binary: parse the command line, run the library, map the result to
//! an exit code (0 solution found, 1 none exists, 2 bad input or usage, 3 stopped by
//! a limit or Ctrl-C with none found; 130 a second Ctrl-C, `cli::catch_interrupts`).

use std::process::ExitCode;

fn main() -> ExitCode {
    // A closed pipe (`plytile ... | head`) ends the program quietly, as in other Unix
    // tools, instead of a panic on the next print.
    #[cfg(unix)]
    // SAFETY: resetting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // A panic is a bug. On a worker it would leave the threads that wait for that
    // worker (the parallel search's saver) waiting forever: report it, then end.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        std::process::exit(101);
    }));
    let cli = match plytile::cli::parse_args() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap's own output, exit 0.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line, as for every other bad input; `--help` has the rest.
            // A first line ending in ':' lists its items on the indented lines after it
            // (the arguments a flag requires): they join it.
            let text = e.to_string();
            let mut lines = text.lines();
            let mut first = lines.next().unwrap_or("bad usage").to_string();
            if first.ends_with(':') {
                let items: Vec<&str> = lines
                    .take_while(|l| l.starts_with("  "))
                    .map(str::trim)
                    .collect();
                first = format!("{first} {}", items.join(", "));
            } else if let Some(values) =
                lines.find_map(|l| l.trim().strip_prefix("[possible values: "))
            {
                // A bad choice: the choices join it.
                first = format!("{first}; expected one of: {}", values.trim_end_matches(']'));
            }
            eprintln!(
                "plytile: {} (see --help)",
                first.trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    match plytile::cli::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("plytile: {e}");
            ExitCode::from(2)
        }
    }
}
