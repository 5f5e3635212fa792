//! The e2.bucas.name viewer's links: a board as an address, and back.

use crate::error::{InputError, Result};
use crate::puzzle::{rotated, Board, Piece, Puzzle, MAX_SIDE};

/// The e2.bucas.name viewer's address; a board link is this plus a `#...` fragment.
pub const VIEWER_URL: &str = "https://e2.bucas.name/";

/// Highest colour a viewer link can carry: `a` = 0 ... `z` = 25 (the viewer itself
/// draws `a` ... `w`, the Eternity II colours 0 ... 22).
pub const VIEWER_MAX_COLOUR: u8 = 25;

/// A board as an e2.bucas.name viewer link:
/// `https://e2.bucas.name/#board_w=W&board_h=H&board_edges=...&board_pieces=...`.
/// `board_edges` has four letters per cell (`a` = colour 0, up right down left as
/// the piece shows after its rotation), cells row-major from the top-left;
/// `board_pieces` has three digits per cell, the 1-based piece number (`000` = empty
/// cell, whose edges are `aaaa`). Fails when a colour is above `z` = 25 or a piece
/// number above 999.
pub fn to_viewer_link(puzzle: &Puzzle, board: &Board) -> std::result::Result<String, String> {
    let mut edges = String::with_capacity(4 * board.len());
    let mut pieces = String::with_capacity(3 * board.len());
    for cell in board {
        match *cell {
            Some((p, r)) => {
                for c in rotated(puzzle.pieces[p], r) {
                    if c > VIEWER_MAX_COLOUR {
                        return Err(format!(
                            "colour {c} has no letter in a viewer link (a = 0 ... z = 25)"
                        ));
                    }
                    edges.push((b'a' + c) as char);
                }
                if p + 1 > 999 {
                    return Err(format!("piece {p} has no 3-digit number in a viewer link"));
                }
                pieces += &format!("{:03}", p + 1);
            }
            None => {
                edges += "aaaa";
                pieces += "000";
            }
        }
    }
    Ok(format!(
        "{VIEWER_URL}#board_w={}&board_h={}&board_edges={edges}&board_pieces={pieces}",
        puzzle.width, puzzle.height
    ))
}

/// Does `text` look like a viewer link (or its bare `board_w=...` fragment)? Any of
/// the link's board keys makes it one, so a link missing `board_edges` is reported as
/// such, not looked for as a file.
pub fn is_viewer_link(text: &str) -> bool {
    ["board_edges=", "board_w=", "board_h=", "board_pieces="]
        .iter()
        .any(|k| text.contains(k))
}

/// Reads a viewer link (see [`to_viewer_link`]; the text may be the whole address,
/// only its fragment, or a file holding either) back into a puzzle and a full board.
///
/// The pieces are the cells' edges as the link shows them, so every piece is placed
/// with rotation 0. With `board_pieces` (a permutation of 1 ... W*H), piece k-1 is
/// the one on the cell numbered k, so piece numbers survive a round trip; without it
/// piece i is the one on cell i. Every cell must be filled: the pieces of an empty
/// cell are unknown.
pub fn parse_viewer_link(text: &str, origin: &str) -> Result<(Puzzle, Board)> {
    let err = |m: String| InputError::new(origin, m);
    let link = text
        .split_whitespace()
        .find(|t| is_viewer_link(t))
        .ok_or_else(|| {
            err("no viewer link (`...#board_w=W&board_h=H&board_edges=...`) found".into())
        })?;
    let fragment = link.rsplit(['#', '?']).next().unwrap_or(link);
    let (mut w, mut h, mut edges, mut numbers) = (None, None, None, None);
    for pair in fragment.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let size = |v: &str| {
            v.parse::<usize>()
                .ok()
                .filter(|n| (2..=MAX_SIDE).contains(n))
                .ok_or_else(|| err(format!("{k}={v}: each side must be 2..={}", MAX_SIDE)))
        };
        match k {
            "board_w" => w = Some(size(v)?),
            "board_h" => h = Some(size(v)?),
            "board_edges" => edges = Some(v),
            "board_pieces" => numbers = Some(v),
            // Other viewer settings (motifs, names, ...) do not change the board.
            _ => {}
        }
    }
    let missing = |k: &str| err(format!("the viewer link has no `{k}=`"));
    let (w, h) = (
        w.ok_or_else(|| missing("board_w"))?,
        h.ok_or_else(|| missing("board_h"))?,
    );
    let edges = edges.ok_or_else(|| missing("board_edges"))?.as_bytes();
    let n = w * h;
    if edges.len() != 4 * n {
        return Err(err(format!(
            "board_edges has {} letters; a {w}x{h} board needs 4 per cell, {}",
            edges.len(),
            4 * n
        )));
    }
    let mut cell_edges: Vec<Piece> = Vec::with_capacity(n);
    for (cell, four) in edges.chunks(4).enumerate() {
        let mut e = [0u8; 4];
        for (s, &ch) in four.iter().enumerate() {
            if !ch.is_ascii_lowercase() {
                return Err(err(format!(
                    "board_edges letter {} ('{}') is not a colour letter a..z",
                    4 * cell + s + 1,
                    ch as char
                )));
            }
            e[s] = ch - b'a';
        }
        if e == [0; 4] {
            return Err(err(format!(
                "cell row {} column {} is empty (`aaaa`); a puzzle needs every cell filled",
                cell / w,
                cell % w
            )));
        }
        cell_edges.push(e);
    }
    // Piece index of each cell: from board_pieces when it is a permutation, else
    // the cell's own index.
    let mut order: Vec<usize> = (0..n).collect();
    if let Some(v) = numbers.filter(|v| !v.is_empty()) {
        let digits = v.as_bytes();
        if digits.len() != 3 * n || !digits.iter().all(u8::is_ascii_digit) {
            return Err(err(format!(
                "board_pieces must be 3 digits per cell ({} for a {w}x{h} board)",
                3 * n
            )));
        }
        let mut seen = vec![false; n];
        for (cell, d) in digits.chunks(3).enumerate() {
            let k: usize = std::str::from_utf8(d)
                .expect("ASCII digits")
                .parse()
                .expect("digits");
            if k == 0 || k > n || std::mem::replace(&mut seen[k - 1], true) {
                return Err(err(format!(
                    "board_pieces gives cell row {} column {} piece {k}; expected each of 1..={n} once",
                    cell / w,
                    cell % w
                )));
            }
            order[cell] = k - 1;
        }
    }
    let mut pieces = vec![[0u8; 4]; n];
    for (cell, &p) in order.iter().enumerate() {
        pieces[p] = cell_edges[cell];
    }
    let mut puzzle = Puzzle::new(origin, String::new(), w, h, pieces, Vec::new())?;
    puzzle.source = Some("e2.bucas.name viewer link".to_string());
    let board = order.iter().map(|&p| Some((p, 0))).collect();
    Ok((puzzle, board))
}
