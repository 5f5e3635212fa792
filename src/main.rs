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
    let cli = plytile::cli::Cli::parse();
    match plytile::cli::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("plytile: {e}");
            ExitCode::from(2)
        }
    }
}
