//! The lines of the text formats: their tokens and numbers.

use crate::error::{InputError, Result};

/// Splits a line into its comment-free, whitespace-separated tokens.
pub(super) fn tokens(line: &str) -> Vec<&str> {
    line.split('#')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect()
}

pub(super) fn number<T: std::str::FromStr>(
    tok: &str,
    what: &str,
    origin: &str,
    line: usize,
) -> Result<T> {
    tok.parse::<T>().map_err(|_| {
        let hint = if tok.starts_with('-') {
            " (negative)"
        } else {
            ""
        };
        InputError::at(origin, line, format!("'{tok}' is not a valid {what}{hint}"))
    })
}

pub(super) fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}
