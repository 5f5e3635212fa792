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
            eprintln!("plytile: {} (see --help)", one_line(&e));
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

/// A clap error in one line, built from its kind and context rather than from its
/// several lines of text: the lists clap puts on lines of their own (the arguments
/// a flag requires, the values a flag takes) join it, and so does its suggestion for
/// a mistyped subcommand or flag ("did you mean 'solve'?").
fn one_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        Some(ContextValue::StyledStrs(v)) => Some(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Some(ContextValue::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let quoted = |k: ContextKind| match e.get(k) {
        Some(ContextValue::Strings(v)) => Some(
            v.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(" or "),
        ),
        _ => text(k).map(|s| format!("'{s}'")),
    };
    let did_you_mean =
        |k: ContextKind| quoted(k).map_or(String::new(), |s| format!("; did you mean {s}?"));
    let arg = text(ContextKind::InvalidArg);
    let value = text(ContextKind::InvalidValue);
    let line = match (e.kind(), arg, value) {
        (ErrorKind::InvalidSubcommand, ..) => text(ContextKind::InvalidSubcommand).map(|sub| {
            format!(
                "unrecognized subcommand '{sub}'{}",
                did_you_mean(ContextKind::SuggestedSubcommand)
            )
        }),
        (ErrorKind::UnknownArgument, Some(arg), _) => Some(format!(
            "unexpected argument '{arg}' found{}",
            did_you_mean(ContextKind::SuggestedArg)
        )),
        (ErrorKind::InvalidValue, Some(arg), Some(v)) if v.is_empty() => Some(format!(
            "a value is required for '{arg}' but none was supplied"
        )),
        (ErrorKind::InvalidValue, Some(arg), Some(v)) => Some(format!(
            "invalid value '{v}' for '{arg}'{}",
            text(ContextKind::ValidValue)
                .map_or(String::new(), |vs| format!("; expected one of: {vs}"))
        )),
        (ErrorKind::ValueValidation, Some(arg), Some(v)) => Some(format!(
            "invalid value '{v}' for '{arg}'{}",
            std::error::Error::source(e).map_or(String::new(), |why| format!(": {why}"))
        )),
        (ErrorKind::MissingRequiredArgument, Some(args), _) => Some(format!(
            "the following required arguments were not provided: {args}"
        )),
        (ErrorKind::ArgumentConflict, Some(arg), _) => {
            match (e.get(ContextKind::PriorArg), text(ContextKind::PriorArg)) {
                (Some(ContextValue::String(p)), _) if *p == arg => Some(format!(
                    "the argument '{arg}' cannot be used multiple times"
                )),
                (Some(ContextValue::String(p)), _) => {
                    Some(format!("the argument '{arg}' cannot be used with '{p}'"))
                }
                (_, Some(others)) => Some(format!(
                    "the argument '{arg}' cannot be used with: {others}"
                )),
                _ => None,
            }
        }
        _ => None,
    };
    // Any other kind (and a context this does not know): clap's own first line, which
    // for the bare `plytile` is the program's description.
    line.unwrap_or_else(|| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or("bad usage");
        first.trim_start_matches("error: ").to_string()
    })
}
