//! The puzzle model: pieces, rotations, hints, and the checks a puzzle must pass
//! before any search starts.
//!
//! Conventions (the only place that knows them):
//! - A piece lists its four edge colours clockwise from the top: up, right, down, left.
//!   Colour 0 is the grey rim.
//! - Rotation k = k quarter turns clockwise: the edge shown on side s (0 up, 1 right,
//!   2 down, 3 left) is the listed edge `(s - k) mod 4`.
//! - Cells are numbered row-major from the top-left: cell = row * width + col.

pub mod formats;
pub mod generate;
pub mod verify;

use crate::error::{InputError, Result};
use serde::{Deserialize, Serialize};

/// Four edge colours, clockwise from the top: up, right, down, left.
pub type Piece = [u8; 4];

/// Side indices, clockwise from the top.
pub const UP: usize = 0;
pub const RIGHT: usize = 1;
pub const DOWN: usize = 2;
pub const LEFT: usize = 3;

/// The grey rim colour.
pub const RIM: u8 = 0;

/// Largest board side accepted.
pub const MAX_SIDE: usize = 32;

/// The edges a piece shows after `rot` clockwise quarter turns.
#[inline]
pub fn rotated(piece: Piece, rot: u8) -> Piece {
    let k = rot as usize & 3;
    [
        piece[(4 - k) & 3],
        piece[(5 - k) & 3],
        piece[(6 - k) & 3],
        piece[(7 - k) & 3],
    ]
}

/// True when `scan` fills a `width` x `height` board column by column: when it is
/// wider than tall. Lines along the shorter side leave fewer open edges between the
/// filled part and the rest, so the tree is much smaller (set-2 9x4: 1.7e7 nodes
/// along columns, 6.0e8 along rows).
pub fn scans_columns(width: usize, height: usize) -> bool {
    width > height
}

/// A piece fixed at a cell with a rotation before the search starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hint {
    /// Row from the top, 0-based.
    pub row: usize,
    /// Column from the left, 0-based.
    pub col: usize,
    /// Piece index, 0-based in file order.
    pub piece: usize,
    /// Clockwise quarter turns.
    pub rotation: u8,
}

impl Hint {
    /// The hint that puts cell `cell` of `board` (a board `width` cells wide, that
    /// cell filled) in place.
    pub fn of(board: &Board, width: usize, cell: usize) -> Hint {
        let (piece, rotation) = board[cell].expect("a filled cell");
        Hint {
            row: cell / width,
            col: cell % width,
            piece,
            rotation,
        }
    }
}

/// A board and its pieces. Construct with [`Puzzle::new`], which validates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    #[serde(default)]
    pub name: String,
    pub width: usize,
    pub height: usize,
    pub pieces: Vec<Piece>,
    #[serde(default)]
    pub hints: Vec<Hint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// A line-carrying item of a puzzle file, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Piece(usize),
    Hint(usize),
    /// A field of the file's puzzle (`width`, `pieces`, ...): its whole value.
    Field(&'static str),
}

/// Which part of the board a piece or cell belongs to, by its number of rim sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Corner,
    Border,
    Inner,
}

impl Puzzle {
    /// Builds and validates a puzzle; `origin` names the file for error messages.
    pub fn new(
        origin: &str,
        name: String,
        width: usize,
        height: usize,
        pieces: Vec<Piece>,
        hints: Vec<Hint>,
    ) -> Result<Puzzle> {
        let p = Puzzle {
            name,
            width,
            height,
            pieces,
            hints,
            source: None,
            notes: None,
        };
        p.validate(origin)?;
        Ok(p)
    }

    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// The cells a search fills: all but the hints (the depth of a full board).
    pub fn free_cells(&self) -> usize {
        self.cells() - self.hints.len()
    }

    /// The board reflected in its main diagonal (W x H becomes H x W): every piece
    /// mirrored so that up and left, right and down trade places, every hint moved to
    /// (col, row) and turned the other way. Its tilings are this puzzle's, reflected,
    /// and its row-major order is this puzzle's column-major one.
    pub fn transposed(&self) -> Puzzle {
        let mut t = self.clone();
        (t.width, t.height) = (self.height, self.width);
        for p in &mut t.pieces {
            *p = [p[LEFT], p[DOWN], p[RIGHT], p[UP]];
        }
        for h in &mut t.hints {
            (h.row, h.col) = (h.col, h.row);
            h.rotation = (4 - h.rotation % 4) % 4;
        }
        t
    }

    /// The puzzle whose row-major order is this one's filled along columns
    /// (`columns`: [`Puzzle::transposed`]) or rows (itself): `scan`'s order with
    /// `columns` from [`scans_columns`] or the heuristic's own lines.
    pub fn along(&self, columns: bool) -> std::borrow::Cow<'_, Puzzle> {
        if columns {
            std::borrow::Cow::Owned(self.transposed())
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// The kind of cell (row, col) by how many of its sides face the rim.
    pub fn cell_kind(&self, row: usize, col: usize) -> Kind {
        let rim_sides = (row == 0) as usize
            + (row + 1 == self.height) as usize
            + (col == 0) as usize
            + (col + 1 == self.width) as usize;
        match rim_sides {
            0 => Kind::Inner,
            1 => Kind::Border,
            _ => Kind::Corner,
        }
    }

    /// The colours other than the rim's that show on an odd number of piece sides,
    /// with their counts. Every such side must meet a side of its colour on a filled
    /// board, so the sides of a colour pair off: with any of these no board is
    /// solved (a mistyped piece, or a piece missing).
    pub fn odd_colours(&self) -> Vec<(u8, usize)> {
        let mut count = [0usize; 256];
        for &c in self.pieces.iter().flatten() {
            count[c as usize] += 1;
        }
        (1..256)
            .filter(|&c| count[c] % 2 == 1)
            .map(|c| (c as u8, count[c]))
            .collect()
    }

    /// Number of distinct colours used, the rim colour included (max colour + 1).
    pub fn colour_count(&self) -> usize {
        self.pieces
            .iter()
            .flat_map(|p| p.iter())
            .map(|&c| c as usize + 1)
            .max()
            .unwrap_or(1)
    }

    /// Checks everything that can be checked without searching. `origin` names the
    /// file in the messages.
    pub fn validate(&self, origin: &str) -> Result<()> {
        self.validate_located(origin, &|_| None, 0)
    }

    /// As [`Puzzle::validate`]; `line_of` gives the file line of a piece or hint, so
    /// that a problem with one of them names its line, and the messages number the
    /// pieces from `first_piece` as the file does (0, or 1 in an Eternity II hints file).
    pub fn validate_located(
        &self,
        origin: &str,
        line_of: &dyn Fn(Item) -> Option<usize>,
        first_piece: usize,
    ) -> Result<()> {
        let err = |m: String| Err(InputError::new(origin, m));
        let err_at = |item: Item, m: String| Err(InputError::located(origin, line_of(item), m));
        let (w, h) = (self.width, self.height);
        if !(2..=MAX_SIDE).contains(&w) || !(2..=MAX_SIDE).contains(&h) {
            let side = if (2..=MAX_SIDE).contains(&w) {
                "height"
            } else {
                "width"
            };
            return err_at(
                Item::Field(side),
                format!("board is {w}x{h}; each side must be 2..={MAX_SIDE}"),
            );
        }
        if self.pieces.len() != w * h {
            return err_at(
                Item::Field("pieces"),
                format!(
                    "{} pieces for a {w}x{h} board, which needs {}",
                    self.pieces.len(),
                    w * h
                ),
            );
        }
        let expected = expected_kind_counts(w, h);
        let mut counts = [0usize; 3];
        for (i, p) in self.pieces.iter().enumerate() {
            let rims = p.iter().filter(|&&c| c == RIM).count();
            let adjacent = (0..4).any(|s| p[s] == RIM && p[(s + 1) % 4] == RIM);
            match rims {
                0 => counts[2] += 1,
                1 => counts[1] += 1,
                2 if adjacent => counts[0] += 1,
                _ => {
                    return err_at(Item::Piece(i), format!(
                        "piece {i} ({}) has the rim colour 0 on {rims} {}sides, which fits no cell of a {w}x{h} board",
                        piece_text(*p),
                        if rims == 2 { "opposite " } else { "" }
                    ))
                }
            }
        }
        if counts != expected {
            return err(format!(
                "a {w}x{h} board needs {} corner, {} border and {} inner pieces (by number of rim edges), but the file has {}, {} and {}",
                expected[0], expected[1], expected[2], counts[0], counts[1], counts[2]
            ));
        }
        let mut seen_cell = vec![false; w * h];
        let mut seen_piece = vec![false; self.pieces.len()];
        // A hint as the file names it (after its row and column are checked).
        let named = |hint: &Hint| {
            format!(
                "the hint at row {} column {} (piece {} turned {})",
                hint.row,
                hint.col,
                hint.piece + first_piece,
                hint.rotation
            )
        };
        for (k, hint) in self.hints.iter().enumerate() {
            if hint.row >= h || hint.col >= w {
                return err_at(
                    Item::Hint(k),
                    format!(
                        "hint {k} is at row {} column {}, outside the {w}x{h} board",
                        hint.row, hint.col
                    ),
                );
            }
            if hint.piece >= self.pieces.len() {
                return err_at(
                    Item::Hint(k),
                    format!(
                        "hint {k} names piece {}, but the puzzle has {} pieces, numbered from {first_piece} here",
                        hint.piece as u128 + first_piece as u128,
                        self.pieces.len()
                    ),
                );
            }
            if hint.rotation > 3 {
                return err_at(
                    Item::Hint(k),
                    format!(
                        "hint {k} has rotation {}; rotations are 0..=3 clockwise quarter turns",
                        hint.rotation
                    ),
                );
            }
            let cell = hint.row * w + hint.col;
            if std::mem::replace(&mut seen_cell[cell], true) {
                return err_at(
                    Item::Hint(k),
                    format!(
                        "hint {k} is at row {} column {}, which another hint already fills",
                        hint.row, hint.col
                    ),
                );
            }
            if std::mem::replace(&mut seen_piece[hint.piece], true) {
                return err_at(
                    Item::Hint(k),
                    format!("{}: another hint already uses that piece", named(hint)),
                );
            }
            let shown = rotated(self.pieces[hint.piece], hint.rotation);
            for (side, &colour) in shown.iter().enumerate() {
                let on_rim = self.neighbour(cell, side).is_none();
                if on_rim != (colour == RIM) {
                    return err_at(
                        Item::Hint(k),
                        format!(
                            "{} shows colour {colour} on its {} side, which {} the rim",
                            named(hint),
                            SIDE_NAMES[side],
                            if on_rim { "faces" } else { "does not face" }
                        ),
                    );
                }
            }
        }
        // Hints side by side must match, or no board has them all: the search would
        // find none, or trust the hints and report a board the checker rejects.
        let mut hint_at = vec![None; w * h];
        for (k, hint) in self.hints.iter().enumerate() {
            hint_at[hint.row * w + hint.col] = Some(k);
        }
        for hint in &self.hints {
            let cell = hint.row * w + hint.col;
            let shown = rotated(self.pieces[hint.piece], hint.rotation);
            for side in [RIGHT, DOWN] {
                let Some(j) = self.neighbour(cell, side).and_then(|c| hint_at[c]) else {
                    continue;
                };
                let other = &self.hints[j];
                let faced = rotated(self.pieces[other.piece], other.rotation)[(side + 2) % 4];
                if shown[side] != faced {
                    return err_at(Item::Hint(j), format!(
                        "{} shows colour {faced} on its {} side, but {} next to it shows colour {}: the hints do not fit together",
                        named(other),
                        SIDE_NAMES[(side + 2) % 4],
                        named(hint),
                        shown[side]
                    ));
                }
            }
        }
        Ok(())
    }

    /// The cell across side `side` of `cell`, or None at the rim.
    #[inline]
    pub fn neighbour(&self, cell: usize, side: usize) -> Option<usize> {
        let (r, c) = (cell / self.width, cell % self.width);
        match side {
            UP if r > 0 => Some(cell - self.width),
            RIGHT if c + 1 < self.width => Some(cell + 1),
            DOWN if r + 1 < self.height => Some(cell + self.width),
            LEFT if c > 0 => Some(cell - 1),
            _ => None,
        }
    }

    /// Number of inner joins on the board: 2WH - W - H.
    pub fn inner_joins(&self) -> usize {
        2 * self.width * self.height - self.width - self.height
    }

    /// The same puzzle mirrored left to right: every piece is mirrored (its right and
    /// left edges swap) and the hints move to the mirrored cells. Solutions of the two
    /// correspond one to one.
    pub fn mirrored(&self) -> Puzzle {
        let mut m = self.clone();
        for p in &mut m.pieces {
            p.swap(RIGHT, LEFT);
        }
        for h in &mut m.hints {
            h.col = self.width - 1 - h.col;
            // Mirroring turns a clockwise rotation k into -k.
            h.rotation = (4 - h.rotation) & 3;
        }
        m
    }
}

/// A piece as its file line shows it: `up right down left`.
pub fn piece_text(p: Piece) -> String {
    format!("{} {} {} {}", p[0], p[1], p[2], p[3])
}

pub const SIDE_NAMES: [&str; 4] = ["up", "right", "down", "left"];

/// Expected numbers of [corner, border, inner] pieces on a W x H board.
pub fn expected_kind_counts(w: usize, h: usize) -> [usize; 3] {
    let border = 2 * (w + h) - 8;
    [4, border, w * h - 4 - border]
}

/// A placement: piece index and clockwise quarter turns.
pub type Placement = (usize, u8);

/// A full or partial board: one optional placement per cell, row-major.
pub type Board = Vec<Option<Placement>>;

/// FNV-1a, 64 bits, of `bytes` continued from `h` (start from [`FNV_START`]).
pub(crate) fn fnv1a(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The [`fingerprint`] a result file records: its `fingerprint_hex` when that parses
/// (exact whatever tool rewrote the file), else its `fingerprint` number.
pub fn recorded_fingerprint(hex: Option<&str>, number: Option<u64>) -> Option<u64> {
    hex.and_then(|h| u64::from_str_radix(h, 16).ok()).or(number)
}

/// A 64-bit FNV-1a fingerprint of what the search depends on: size, pieces, hints.
/// Results, job files and checkpoints record it, so that a file is never read
/// against another puzzle.
pub fn fingerprint(p: &Puzzle) -> u64 {
    let mut h = FNV_START;
    let mut eat = |x: u64| h = fnv1a(h, &x.to_le_bytes());
    eat(p.width as u64);
    eat(p.height as u64);
    for piece in &p.pieces {
        eat(u32::from_le_bytes(*piece) as u64);
    }
    for hint in &p.hints {
        eat(hint.row as u64);
        eat(hint.col as u64);
        eat(hint.piece as u64);
        eat(hint.rotation as u64);
    }
    h
}
