//! The native RON format (`.ron`): a serialized [`Puzzle`], and RON's line numbers
//! and wording for the messages about it (job files are RON too).

use crate::error::{InputError, Result};
use crate::puzzle::{Item, Puzzle};

/// Parses the native RON format.
pub fn parse_ron(text: &str, origin: &str) -> Result<Puzzle> {
    let p: Puzzle = from_ron(text, origin, "not a valid puzzle RON file")?;
    check_ron_puzzle(&p, text, origin, &[])?;
    Ok(p)
}

/// Validates `p`, parsed from the RON `text` where it is the struct at the field path
/// `at` (empty: the top-level struct), so that a problem with one piece or hint names
/// the line its entry starts on.
pub fn check_ron_puzzle(p: &Puzzle, text: &str, origin: &str, at: &[&str]) -> Result<()> {
    // Looked up only for a message: each look walks the whole text (a job file's
    // puzzle comes after its prefixes, megabytes of them).
    let lines = |field: &str| ron_lines(text, &[at, &[field]].concat());
    check_one_line(p, origin, |what| lines(what).key)?;
    p.validate_located(
        origin,
        &|item| match item {
            Item::Piece(k) => lines("pieces").entries.get(k).copied(),
            Item::Hint(k) => lines("hints").entries.get(k).copied(),
            Item::Field(f) => lines(f).key,
        },
        0,
    )
}

/// Refuses a puzzle whose name or source holds a control character, `line_of` giving
/// the line of the field (`name` or `source`). Both end up on `#` lines of the text
/// format (`convert`) and in one-line reports, where a line break would start a line
/// of another meaning; every reader applies this, so what `convert` writes reads back.
pub(super) fn check_one_line(
    p: &Puzzle,
    origin: &str,
    line_of: impl Fn(&'static str) -> Option<usize>,
) -> Result<()> {
    for (what, t) in [("name", Some(&p.name)), ("source", p.source.as_ref())] {
        if t.is_some_and(|t| t.chars().any(char::is_control)) {
            return Err(InputError::located(
                origin,
                line_of(what),
                format!("the puzzle's {what} holds a control character (a tab or a line break?); write it on one line without them"),
            ));
        }
    }
    Ok(())
}

/// Where a field of a RON file is: the line of its name and, when its value is a
/// list, the line each entry starts on.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct RonLines {
    pub key: Option<usize>,
    pub entries: Vec<usize>,
}

/// The lines of the field at `path` of a RON file: `["prefixes"]` is a field of the
/// top-level struct, `["puzzle", "pieces"]` a field of the struct in its `puzzle`.
/// Nothing when there is no such field. A scan of brackets, strings and comments
/// only: the file has been parsed already, so it is well formed.
pub fn ron_lines(text: &str, path: &[&str]) -> RonLines {
    let mut out = RonLines::default();
    let (mut line, mut depth) = (1usize, 0usize);
    // How many of `path`'s structs the scan is inside (the struct of path[k - 1]
    // opened at depth k + 1), whether the last field name read is path's next, the depth
    // inside the final field's list while in it, and whether an entry may start.
    let (mut inside, mut keyed, mut list, mut entry) = (0, false, None, false);
    let last = path.len().saturating_sub(1);
    let mut it = text.chars().peekable();
    while let Some(c) = it.next() {
        if c.is_whitespace() {
            line += (c == '\n') as usize;
            continue;
        }
        if c == '/' && it.peek() == Some(&'/') {
            it.by_ref().take_while(|&c| c != '\n').for_each(drop);
            line += 1;
            continue;
        }
        if c == '/' && it.peek() == Some(&'*') {
            it.next();
            let mut prev = ' ';
            for c in it.by_ref() {
                line += (c == '\n') as usize;
                if prev == '*' && c == '/' {
                    break;
                }
                prev = c;
            }
            continue;
        }
        if entry && list == Some(depth) && !matches!(c, ']' | ',') {
            out.entries.push(line);
            entry = false;
        }
        match c {
            '"' => {
                let mut escaped = false;
                for c in it.by_ref() {
                    line += (c == '\n') as usize;
                    match c {
                        '\\' if !escaped => escaped = true,
                        '"' if !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                if keyed && inside == last && c == '[' {
                    (list, entry) = (Some(depth), true);
                } else if keyed && inside < last && c == '(' {
                    inside += 1;
                }
                keyed = false;
            }
            ')' | ']' | '}' => {
                if list == Some(depth) {
                    list = None;
                }
                if inside > 0 && depth == inside + 1 {
                    inside -= 1;
                }
                depth = depth.saturating_sub(1);
            }
            ',' if list == Some(depth) => entry = true,
            c if depth == inside + 1 && (c.is_alphabetic() || c == '_') => {
                let mut ident = String::from(c);
                while let Some(&n) = it.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                    ident.push(n);
                    it.next();
                }
                let at = line;
                while let Some(&n) = it.peek().filter(|n| n.is_whitespace()) {
                    line += (n == '\n') as usize;
                    it.next();
                }
                // A field's name, not a value (`Some`, a struct's name, an enum's variant).
                if it.peek() == Some(&':') {
                    keyed = path.get(inside) == Some(&ident.as_str());
                    if keyed && inside == last && out.key.is_none() {
                        out.key = Some(at);
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Writes the native RON format.
pub fn to_ron(p: &Puzzle) -> String {
    let cfg = ron::ser::PrettyConfig::new()
        .depth_limit(1)
        .struct_names(false);
    let mut s = ron::ser::to_string_pretty(p, cfg).expect("a puzzle always serializes");
    s.push('\n');
    s
}

/// Reads RON text as a `T`, or says on which line it is not one:
/// `origin:line: {what}: {why}`.
pub fn from_ron<T: serde::de::DeserializeOwned>(text: &str, origin: &str, what: &str) -> Result<T> {
    ron::from_str(text).map_err(|e| {
        InputError::at(
            origin,
            e.position.line,
            format!("{what}: {}", ron_reason(&e.code)),
        )
    })
}

/// Why RON text does not parse, in the user's terms: ron's own wording of an unknown
/// field names our Rust type and not the fields there are.
pub fn ron_reason(e: &ron::Error) -> String {
    match e {
        ron::Error::NoSuchStructField {
            expected, found, ..
        } => {
            let fields: Vec<String> = expected.iter().map(|f| format!("`{f}`")).collect();
            format!(
                "unknown field `{found}`; the fields are {}",
                fields.join(", ")
            )
        }
        e => e.to_string(),
    }
}
