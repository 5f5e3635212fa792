//! A board as a standalone SVG picture: every cell is four triangles (up, right,
//! down, left, meeting in the middle) filled with their edge colours, so that a
//! matched join reads as one diamond of one colour. Hints get a thick outline and a
//! dot, empty cells are dashed, and every mismatched join (two filled neighbours
//! showing different colours, or a rim side that is not grey / an inner side that
//! is) is drawn as a thick red bar. The title carries the score: matched inner joins
//! out of 2WH - W - H. Hand-written SVG like `plot.rs`: no crate, small, diff-able.
//!
//! Elements carry classes (`tri`, `empty`, `hint`, `mismatch`, `score`) so that tests
//! and stylesheets can find them.

use crate::puzzle::{rotated, verify, Board, Puzzle, RIM};
use std::fmt::Write;

/// Fill of colour 0, the grey rim.
pub const RIM_FILL: &str = "#8f8f8f";

/// Fills of colours 1, 2, ...: twenty-two distinct, readable colours (Sasha
/// Trubetskoy's "20 distinct colours" without its greys, white and black, plus three
/// darker ones). Colours beyond the list get generated hues ([`fill`]).
pub const PALETTE: [&str; 22] = [
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6",
    "#bfef45", "#fabed4", "#469990", "#dcbeff", "#9a6324", "#fffac8", "#800000", "#aaffc3",
    "#808000", "#ffd8b1", "#000075", "#1b5e20", "#5f7d95", "#c71585",
];

/// The fill of colour `c` as `#rrggbb`.
pub fn fill(c: u8) -> String {
    match c {
        RIM => RIM_FILL.to_string(),
        c if (c as usize) <= PALETTE.len() => PALETTE[c as usize - 1].to_string(),
        c => {
            // Golden-angle hues at two lightness levels: distinct enough for a few
            // more colours, and deterministic.
            let hue = (c as f64 * 137.508) % 360.0;
            let light = if c % 2 == 0 { 0.45 } else { 0.65 };
            let (r, g, b) = hsl(hue, 0.65, light);
            format!("#{r:02x}{g:02x}{b:02x}")
        }
    }
}

fn hsl(h: f64, s: f64, l: f64) -> (u8, u8, u8) {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let to = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    (to(r), to(g), to(b))
}

/// The RGB of a `#rrggbb` fill.
pub fn rgb(fill: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(fill.trim_start_matches('#'), 16).unwrap_or(0);
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// Is a fill light enough for black text on it?
pub fn is_light(fill: &str) -> bool {
    let (r, g, b) = rgb(fill);
    0.299 * r as f64 + 0.587 * g as f64 + 0.114 * b as f64 > 140.0
}

/// The least cell size, in px, of a picture with `--numbers`.
pub const NUMBERED_CELL: f64 = 36.0;

/// How far into its cell a side's colour number is drawn, as a fraction of the
/// cell: 0.22, so that the labels of two cells that meet are 0.44 cells apart and
/// two digits (about 0.26 cells at a font of 0.22 cells) leave a gap between them.
pub const LABEL_AT: f64 = 0.22;

/// What to draw beyond the colours.
#[derive(Debug, Clone, Copy, Default)]
pub struct SvgOptions {
    /// Print each edge's colour number in its triangle.
    pub numbers: bool,
}

/// A side of a cell whose colour is wrong: `(cell, side)`. Each mismatched join
/// between two filled cells is listed once, from its upper or left cell (side right
/// or down); a rim fault (grey on an inner side or colour on a rim side) is listed
/// from its own cell and side.
pub fn mismatches(puzzle: &Puzzle, board: &Board) -> Vec<(usize, usize)> {
    let w = puzzle.width;
    let shown = |cell: usize| board[cell].map(|(p, r)| rotated(puzzle.pieces[p], r));
    let mut out = Vec::new();
    for cell in 0..board.len() {
        let Some(e) = shown(cell) else { continue };
        for side in 0..4 {
            match puzzle.neighbour(cell, side) {
                None if e[side] != RIM => out.push((cell, side)),
                None => {}
                Some(_) if e[side] == RIM => out.push((cell, side)),
                Some(n) if side == 1 || side == 2 => {
                    if let Some(f) = shown(n) {
                        if f[(side + 2) % 4] != e[side] && f[(side + 2) % 4] != RIM {
                            out.push((cell, side));
                        }
                    }
                }
                Some(_) => {}
            }
        }
    }
    debug_assert!(out.iter().all(|&(c, _)| c < w * puzzle.height));
    out
}

/// The one-line caption: name, size, then the [`score_line`].
pub fn caption(puzzle: &Puzzle, board: &Board) -> String {
    format!("{}: {}", heading(puzzle), score_line(puzzle, board))
}

/// Name and size, e.g. `pieces_05x05 5x5`.
fn heading(puzzle: &Puzzle) -> String {
    let size = format!("{}x{}", puzzle.width, puzzle.height);
    if puzzle.name.is_empty() {
        size
    } else {
        format!("{} {size}", puzzle.name)
    }
}

/// The score (matched inner edges out of 2WH - W - H), then how full the board is
/// and how many mismatches it shows, e.g. `38 of 40 inner edges matched, 2 mismatches`,
/// then the hints it does not hold and the pieces it places more than once (0-based,
/// as in the puzzle file).
pub fn score_line(puzzle: &Puzzle, board: &Board) -> String {
    let filled = board.iter().filter(|c| c.is_some()).count();
    let mut s = format!(
        "{} of {} inner edges matched",
        verify::score(puzzle, board),
        puzzle.inner_joins()
    );
    if filled < board.len() {
        s += &format!(", {filled} of {} cells filled", board.len());
    }
    let bad = mismatches(puzzle, board).len();
    if bad > 0 {
        s += &format!(", {bad} mismatch{}", if bad == 1 { "" } else { "es" });
    }
    // Matching edges do not make a board valid: a hint may be missing, a piece placed
    // twice.
    match verify::missing_hints(puzzle, board).as_slice() {
        [] => {}
        [h] => {
            s += &format!(
                ", hint at row {} column {} (piece {} turned {}) not on the board",
                h.row, h.col, h.piece, h.rotation
            )
        }
        hs => s += &format!(", {} hints not on the board", hs.len()),
    }
    match verify::repeated_pieces(board).as_slice() {
        [] => {}
        [p] => s += &format!(", piece {p} placed more than once"),
        ps => {
            let list: Vec<String> = ps.iter().map(|p| p.to_string()).collect();
            s += &format!(", pieces {} placed more than once", list.join(", "));
        }
    }
    s
}

/// Renders `board` (full, partial or empty) of `puzzle` as an SVG document.
pub fn board_svg(puzzle: &Puzzle, board: &Board, opts: SvgOptions) -> String {
    let (w, h) = (puzzle.width, puzzle.height);
    // Cells shrink on big boards so the picture stays about 800 px wide.
    // With --numbers a cell is at least 36 px, so that its labels (8 px at least)
    // fit between those of its neighbours.
    let least = if opts.numbers { NUMBERED_CELL } else { 24.0 };
    let cell = (800.0 / w.max(h) as f64).clamp(least, 64.0).floor();
    let (head, score) = (escape(&heading(puzzle)), escape(&score_line(puzzle, board)));
    // Wide enough for the two title lines (about 0.6 em per character).
    let text_w = 0.6 * 16.0 * head.len().max(score.len()) as f64;
    let board_w = cell * w as f64;
    let width = (board_w + 24.0).max(text_w + 24.0).ceil();
    let margin = ((width - board_w) / 2.0).floor();
    let top = 60.0;
    let height = top + 12.0 + cell * h as f64;
    let title = escape(&caption(puzzle, board));
    let font = (cell * 0.22).max(8.0).round();
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">
<title>{title}</title>
<rect width="100%" height="100%" fill="white"/>
<text x="{mid}" y="22" text-anchor="middle" font-size="16" font-weight="bold">{head}</text>
<text class="score" x="{mid}" y="44" text-anchor="middle" font-size="15">{score}</text>
"##,
        mid = width / 2.0
    );
    let x0 = |c: usize| margin + cell * (c % w) as f64;
    let y0 = |c: usize| top + cell * (c / w) as f64;
    // A hint's mark goes on its cell only when the board holds it there.
    let hinted = verify::hints_in_place(puzzle, board);
    for (c, placed) in board.iter().enumerate() {
        let (x, y) = (x0(c), y0(c));
        let (mx, my) = (x + cell / 2.0, y + cell / 2.0);
        let Some((p, r)) = *placed else {
            let _ = writeln!(
                s,
                r##"<rect class="empty" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#f4f4f4" stroke="#bbb" stroke-dasharray="4 3"/>"##,
                x + 1.0,
                y + 1.0,
                cell - 2.0,
                cell - 2.0
            );
            continue;
        };
        let e = rotated(puzzle.pieces[p], r);
        // Triangle corners per side, clockwise from the top.
        let corners = [
            [(x, y), (x + cell, y)],
            [(x + cell, y), (x + cell, y + cell)],
            [(x + cell, y + cell), (x, y + cell)],
            [(x, y + cell), (x, y)],
        ];
        let _ = writeln!(
            s,
            r#"<g class="cell" data-piece="{p}" data-rotation="{r}">"#
        );
        for side in 0..4 {
            let [(ax, ay), (bx, by)] = corners[side];
            let f = fill(e[side]);
            let _ = writeln!(
                s,
                r##"<polygon class="tri" data-colour="{}" points="{ax:.1},{ay:.1} {bx:.1},{by:.1} {mx:.1},{my:.1}" fill="{f}" stroke="#333" stroke-width="0.6"/>"##,
                e[side]
            );
            if opts.numbers {
                // On the line from the edge's middle to the cell's, LABEL_AT of the
                // cell in: the labels on the two sides of a join are 2 LABEL_AT
                // apart, room for two digits each and a gap (closer to the edge,
                // they ran together: `1213`).
                let (ex, ey) = ((ax + bx) / 2.0, (ay + by) / 2.0);
                let tx = ex + (mx - ex) * 2.0 * LABEL_AT;
                let ty = ey + (my - ey) * 2.0 * LABEL_AT;
                let ink = if is_light(&f) { "black" } else { "white" };
                let _ = writeln!(
                    s,
                    r##"<text x="{tx:.1}" y="{:.1}" text-anchor="middle" font-size="{font}" fill="{ink}">{}</text>"##,
                    ty + font * 0.35,
                    e[side]
                );
            }
        }
        let _ = writeln!(s, "</g>");
    }
    for (c, &hint) in hinted.iter().enumerate() {
        if !hint {
            continue;
        }
        let (x, y) = (x0(c), y0(c));
        let _ = writeln!(
            s,
            r##"<g class="hint"><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="none" stroke="black" stroke-width="3"/><circle cx="{:.1}" cy="{:.1}" r="{:.1}" fill="white" stroke="black" stroke-width="1.5"/></g>"##,
            x + 1.5,
            y + 1.5,
            cell - 3.0,
            cell - 3.0,
            x + cell / 2.0,
            y + cell / 2.0,
            (cell * 0.09).max(2.5)
        );
    }
    // Mismatches last, on top of everything.
    for (c, side) in mismatches(puzzle, board) {
        let (x, y) = (x0(c), y0(c));
        let (x1, y1, x2, y2) = match side {
            0 => (x, y, x + cell, y),
            1 => (x + cell, y, x + cell, y + cell),
            2 => (x, y + cell, x + cell, y + cell),
            _ => (x, y, x, y + cell),
        };
        let _ = writeln!(
            s,
            r##"<line class="mismatch" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="red" stroke-width="{:.1}" stroke-linecap="round"/>"##,
            (cell * 0.1).max(3.0)
        );
    }
    // Thin frame around the board.
    let _ = writeln!(
        s,
        r##"<rect x="{margin}" y="{top}" width="{:.1}" height="{:.1}" fill="none" stroke="#333" stroke-width="1.5"/>"##,
        cell * w as f64,
        cell * h as f64
    );
    s += "</svg>\n";
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
