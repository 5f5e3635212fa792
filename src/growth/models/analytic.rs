//! The analytic class model of the static row-major order (`scan` on [`crate::puzzle::Puzzle::along`]), from the piece set
//! alone, before any search.
//!
//! # Classes
//!
//! At depth `d` the search fills cell `q = order[d]` (row-major, hint cells skipped). The
//! cell kind (corner / edge / inner) and which of its sides are already constrained (left
//! and up: the rim, a hint, or a piece placed earlier) are fixed by `d`. A node's class is
//! the colour its *left* neighbour shows towards `q` (0 = the rim): the one constraint the
//! previous placement decides. `N(d)[x]` is the expected number of depth-`d` nodes whose
//! next cell must show `x` on its left.
//!
//! # Transition matrices
//!
//! For each oriented placement `o` of a free piece that fits `q`'s rim sides (and the edges
//! of hint neighbours), `o` is a child of a class-`x` node when `left(o) = x`; its up edge
//! must match the piece placed above, whose down colour is a random colour `u` with the
//! distribution `f_q(u)` that the model itself produced when it filled the cell above
//! (mass of placements there by down colour). The child's class is `right(o)` when the
//! next cell of the order is `q`'s right neighbour, otherwise the fixed colour the next
//! cell sees on its left (0 = rim at the start of a row, or a hint's edge). So
//!
//! ```text
//! P_d[y][x] = a_k(d) · κ(d) · Σ_{o fits q, left(o)=x, class-after(o)=y} f_q(up(o)),
//! N(d+1) = P_d N(d),   N(0) = e_{left colour of order[0]}
//! ```
//!
//! Depletion of the piece pool: `a_k(d) = (A_k − used_k(d)) / A_k`, the share of the
//! `A_k` pieces of the cell's kind still free after `used_k(d)` cells of that kind were
//! filled (the product over depths is Owen's falling factorial `P(A_k, n)/A_k^n`).
//! Depletion of colours: `κ(d)` multiplies each new join by `[p(j+1)/p(j)] / p(1)`, Owen's
//! conditional probability that the `(j+1)`-th frame / inner join matches given the first
//! `j` did, relative to a fresh urn (see [`super::owen`]). The matrix entries themselves use
//! the fresh piece set, so this rescales them the way used-up colour pairs change the odds.
//! `κ` is optional (`colour_depletion`) and **off** in `plytile predict`: with it the
//! total is 1.3–1.8x too high on every Brendan board tried (4x4 … 8x4, scan), without it
//! 1.01–1.27x; on generated boards (random, unbalanced colour counts) neither setting is
//! reliably better (see BENCHMARKS.md, prediction accuracy).
//!
//! # Stationary part
//!
//! The matrix of a generic inner cell (left and up constrained by inner pieces) with the
//! full pool (`a = κ = 1`) and `f` = the inner half-edge colour distribution: its spectral
//! radius is the asymptotic branching factor the row interior would have without depletion.

use super::owen::{self, edge_counts, is_frame_join, kind_index};
use crate::puzzle::{rotated, Kind, Puzzle, RIM};
use nalgebra::DMatrix;

/// Per-depth expected node counts plus the matrices that produced them.
#[derive(Debug, Clone)]
pub struct Analytic {
    /// Expected nodes per depth, index 0 = root.
    pub per_depth: Vec<f64>,
    /// `class_counts[d][x]` = `N(d)[x]`.
    pub class_counts: Vec<Vec<f64>>,
    /// The stationary (generic inner cell, full pool) matrix `P[y][x]`, over the colours
    /// listed in `stationary_classes`.
    pub stationary: DMatrix<f64>,
    /// Colour of each row/column of `stationary`.
    pub stationary_classes: Vec<usize>,
}

/// Build the analytic model. `colour_depletion` switches the `κ` factor on.
pub fn analytic(puzzle: &Puzzle, colour_depletion: bool) -> Analytic {
    let w = puzzle.width;
    let n = puzzle.cells();
    let colours = puzzle.colour_count();
    let hint_at = owen::hint_edges(puzzle);
    let hinted_piece = owen::hinted_pieces(puzzle);
    let order: Vec<usize> = (0..n).filter(|&c| hint_at[c].is_none()).collect();
    let ec = edge_counts(puzzle);
    // Join counts for κ: frame and inner joins made so far along the order.
    let (max_b, max_m) = (2 * (puzzle.width + puzzle.height), 2 * n);
    let ln_pb = owen::ln_frame_join_probabilities(&ec.frame_left, &ec.frame_right, max_b);
    let ln_pm = owen::ln_inner_join_probabilities(&ec.inner, max_m);
    // (p(j+1)/p(j))/p(1), in logs: the p(j) of deep levels are below the smallest f64.
    let kappa = |ln_p: &[f64], j: usize| -> f64 {
        let finite = |k: usize| ln_p[k].is_finite();
        if !colour_depletion || j + 1 >= ln_p.len() || !finite(1) || !finite(j) {
            1.0
        } else {
            (ln_p[j + 1] - ln_p[j] - ln_p[1]).exp()
        }
    };
    // Oriented placements of every free piece.
    let placements: Vec<[u8; 4]> = puzzle
        .pieces
        .iter()
        .enumerate()
        .filter(|(i, _)| !hinted_piece[*i])
        .flat_map(|(_, &p)| (0..4).map(move |r| rotated(p, r)))
        .collect();
    let left_colour_of = |c: usize| -> u8 {
        match puzzle.neighbour(c, 3) {
            None => RIM,
            Some(nb) => hint_at[nb].map(|e| e[1]).unwrap_or(RIM),
        }
    };
    let mut filled: Vec<bool> = hint_at.iter().map(|h| h.is_some()).collect();
    let mut used = [0usize; 3];
    let (mut b_joins, mut m_joins) = (0usize, 0usize);
    // Mass of placements by down colour at each filled cell (for f_q of the cell below).
    let mut down_mass: Vec<Vec<f64>> = vec![Vec::new(); n];
    // The root, of the class the first free cell sees on its left (any class when every
    // cell is a hint: the root is then the one node).
    let mut cur = vec![0.0; colours];
    cur[order.first().map_or(RIM, |&q| left_colour_of(q)) as usize] = 1.0;
    let mut class_counts = vec![cur.clone()];
    for (d, &q) in order.iter().enumerate() {
        let (row, col) = (q / w, q % w);
        let kind = puzzle.cell_kind(row, col);
        let k = kind_index(kind);
        let avail = if ec.available[k] == 0 {
            0.0
        } else {
            ec.available[k].saturating_sub(used[k]) as f64 / ec.available[k] as f64
        };
        // κ for the joins this placement makes with filled neighbours.
        let mut factor = avail;
        for side in 0..4 {
            if let Some(nb) = puzzle.neighbour(q, side) {
                if filled[nb] {
                    if is_frame_join(puzzle, q, nb) {
                        factor *= kappa(&ln_pb, b_joins);
                        b_joins += 1;
                    } else {
                        factor *= kappa(&ln_pm, m_joins);
                        m_joins += 1;
                    }
                }
            }
        }
        // The up-side probability of a placement showing `u` on its up side.
        let up = puzzle.neighbour(q, 0);
        let up_prob: Vec<f64> = match up {
            None => vec![1.0; colours],
            Some(nb) if hint_at[nb].is_some() => {
                let c = hint_at[nb].unwrap()[2] as usize;
                (0..colours).map(|u| (u == c) as u8 as f64).collect()
            }
            Some(nb) => {
                let mass = &down_mass[nb];
                let total: f64 = mass.iter().sum();
                if total > 0.0 {
                    mass.iter().map(|m| m / total).collect()
                } else {
                    vec![0.0; colours]
                }
            }
        };
        let next = order.get(d + 1).copied();
        let next_is_right = next.is_some() && puzzle.neighbour(q, 1) == next;
        let fixed_next = next.map(left_colour_of).unwrap_or(RIM) as usize;
        let mut new = vec![0.0; colours];
        let mut down = vec![0.0; colours];
        for e in &placements {
            // Rim sides and hint neighbours.
            let fits = (0..4).all(|side| match puzzle.neighbour(q, side) {
                None => e[side] == RIM,
                Some(nb) => {
                    e[side] != RIM
                        && hint_at[nb].is_none_or(|h| side == 3 || h[(side + 2) % 4] == e[side])
                }
            });
            if !fits {
                continue;
            }
            let x = e[3] as usize;
            let mass = cur[x] * up_prob[e[0] as usize] * factor;
            if mass == 0.0 {
                continue;
            }
            let y = if next_is_right {
                e[1] as usize
            } else {
                fixed_next
            };
            new[y] += mass;
            down[e[2] as usize] += mass;
        }
        down_mass[q] = down;
        used[k] += 1;
        filled[q] = true;
        cur = new;
        class_counts.push(cur.clone());
    }
    let per_depth = class_counts.iter().map(|v| v.iter().sum()).collect();
    let (stationary, stationary_classes) = stationary_matrix(puzzle, &placements, &ec.inner);
    Analytic {
        per_depth,
        class_counts,
        stationary,
        stationary_classes,
    }
}

/// The generic inner-cell matrix with the full pool (see the module docs). Falls back to a
/// top-row edge cell when the board has no inner cells.
fn stationary_matrix(
    puzzle: &Puzzle,
    placements: &[[u8; 4]],
    inner_counts: &[u64],
) -> (DMatrix<f64>, Vec<usize>) {
    let colours = puzzle.colour_count();
    let has_inner = puzzle.width > 2 && puzzle.height > 2;
    let total: u64 = inner_counts.iter().sum();
    let f: Vec<f64> = inner_counts
        .iter()
        .map(|&c| {
            if total > 0 {
                c as f64 / total as f64
            } else {
                0.0
            }
        })
        .collect();
    let mut m = vec![vec![0.0; colours]; colours];
    for e in placements {
        let ok = if has_inner {
            e.iter().all(|&c| c != RIM)
        } else {
            e[0] == RIM && e[1] != RIM && e[2] != RIM && e[3] != RIM
        };
        if ok {
            let weight = if has_inner { f[e[0] as usize] } else { 1.0 };
            m[e[1] as usize][e[3] as usize] += weight;
        }
    }
    // Keep the colours that occur on a left or right side.
    let classes: Vec<usize> = (0..colours)
        .filter(|&c| (0..colours).any(|o| m[c][o] != 0.0 || m[o][c] != 0.0))
        .collect();
    let k = classes.len();
    let p = DMatrix::from_fn(k, k, |r, c| m[classes[r]][classes[c]]);
    (p, classes)
}

/// The kind of a cell as a display name.
pub fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Corner => "corner",
        Kind::Border => "edge",
        Kind::Inner => "inner",
    }
}
