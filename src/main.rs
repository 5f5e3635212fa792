//! The `plytile` binary: parse the command line, run the library, map the result to
//! an exit code (0 solution found, 1 none exists, 2 bad input or usage, 3 stopped by
//! a limit or Ctrl-C with none found).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A closed pipe (`plytile ... | head`) ends the program quietly, as in other Unix
    // tools, instead of a panic on the next print.
    #[cfg(unix)]
    // SAFETY: resetting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match plytile::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: clap's own output, exit 0.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line, as for every other bad input; `--help` has the rest.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("bad usage");
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
