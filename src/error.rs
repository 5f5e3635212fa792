//! Errors the library reports. Every input error names the file (and the line when
//! there is one) so that the one-line message tells the user what to fix.

use std::fmt;

/// A problem with user input: a file, a flag value, a puzzle that cannot be solved as
/// given. The CLI prints it as one line and exits with code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (or flag) the problem is in.
    pub source: String,
    /// 1-based line number, when the problem is on one line.
    pub line: Option<usize>,
    pub message: String,
}

impl InputError {
    pub fn new(source: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            source: source.into(),
            line: None,
            message: message.into(),
        }
    }

    pub fn at(source: impl Into<String>, line: usize, message: impl Into<String>) -> Self {
        InputError {
            source: source.into(),
            line: Some(line),
            message: message.into(),
        }
    }

    /// [`InputError::at`] when the line is known, else [`InputError::new`].
    pub fn located(
        source: impl Into<String>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        InputError {
            source: source.into(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (source, message) = (OneLine(&self.source), OneLine(&self.message));
        match self.line {
            Some(l) => write!(f, "{source}:{l}: {message}"),
            None => write!(f, "{source}: {message}"),
        }
    }
}

/// Text quoted from input, shown with its control characters escaped: a line break
/// would split the one-line message, and a terminal would act on escape sequences.
struct OneLine<'a>(&'a str);

impl fmt::Display for OneLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for InputError {}

pub type Result<T> = std::result::Result<T, InputError>;
