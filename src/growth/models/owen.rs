//! Brendan Owen's expected-count model (as written up in Wortmann's Eternity2Puzzles.jl
//! docs, "theory"): the expected number of partial solutions after placing `c` corner,
//! `e` edge and `i` inner pieces, with `b` frame (rim) joins and `m` inner joins between
//! placed cells, is
//!
//! ```text
//! S = P(Ac, c) · P(Ae, e) · P(Ai, i) · 4^i · pb(b) · pm(m),     P(n, k) = n!/(n−k)!
//! ```
//!
//! `pb(b)` / `pm(m)` are the probabilities that *all* `b` frame / `m` inner joins match
//! when the joins are made from edges drawn at random, without replacement, from the
//! finite multiset of frame / inner half-edges of the piece set. They are exact under that
//! urn model (not `p^b` with a per-join `p`):
//!
//! * frame joins always pair a clockwise ("right") frame edge with an anticlockwise
//!   ("left") one, because frame pieces have one legal rotation per cell. With `L_c` / `R_c`
//!   left / right edges of colour `c` and `T_L`, `T_R` their totals,
//!   `V(i, b) = Σ_j V(i−1, b−j) · P(L_i, j) · P(R_i, j) · C(b, j)`,
//!   `pb(b) = V(B, b) / (P(T_L, b) · P(T_R, b))` (Wortmann writes `P(n_i, j)²`, i.e. `L = R`);
//! * inner joins have no sides: with `n_c` inner half-edges of colour `c` (the inner pieces'
//!   four edges and the inward edge of every edge piece) and `N = Σ n_c`,
//!   `V(i, m) = Σ_j V(i−1, m−j) · P(n_i, 2j) · C(m, j)`, `pm(m) = V(M, m) / P(N, 2m)`.
//!
//! For one join these reduce to `pm(1) = Σ n_c (n_c − 1) / (N (N − 1))` — the chance that two
//! distinct half-edges drawn from the urn match — which is a little *below* the
//! with-replacement value `Σ (n_c/N)²` (two draws cannot be the same edge). For many
//! joins the urn model is not `pm(1)^m`: each matched join removes two edges of one colour,
//! which changes the chance of the next match (for balanced colour counts, as in Brendan's
//! sets, it rises slightly: colours get used up in pairs; for skewed counts it can fall).
//! Only the exact recursion reproduces Owen's numbers; it is evaluated in log space (the
//! counts overflow `f64` beyond ~6x6).
//!
//! Along a static order the counts `c, e, i, b, m` after `d` placements are those of the
//! first `d` cells; hint pieces are not in the urns.
//!
//! # Joins with hints
//!
//! A join between a free cell and a hint is not a pair drawn from the urn: the free
//! cell's half-edge is one draw that must show the hint's fixed colour. With `k_c` such
//! draws of colour `c` (`K = Σ k_c`) besides the `m` pair joins, the ordered draws of
//! distinct half-edges number `P(N, K + 2m)`, and the favourable ones, `j_c` pairs of
//! colour `c` (`m!/Π j_c!` ways to colour the pairs), `Π_c P(n_c, k_c + 2j_c)`. Since
//! `P(n, k + 2j) = P(n, k) · P(n − k, 2j)` and `P(N, K + 2m) = P(N, K) · P(N − K, 2m)`,
//!
//! ```text
//! pm(m | k) = Π_c P(n_c, k_c) / P(N, K) · pm(m) of the urn n − k
//! ```
//!
//! the chance that the hint joins match, times Owen's `pm` on the half-edges they leave.
//! Frame joins alike, per urn: a free frame cell facing a hint clockwise draws its right
//! (clockwise) frame edge, anticlockwise its left one. Joins between two hints are fixed
//! and not counted. Without hints `k = 0` and this is Owen's formula.

use crate::puzzle::{rotated, Kind, Puzzle, RIM};
use bitvec::vec::BitVec;

/// `ln(n!)` for `n = 0..=max`.
fn ln_factorials(max: usize) -> Vec<f64> {
    let mut out = vec![0.0; max + 1];
    for n in 1..=max {
        out[n] = out[n - 1] + (n as f64).ln();
    }
    out
}

/// Logarithms of falling factorials and binomials from a table of ln n!.
struct LnCounts(Vec<f64>);

impl LnCounts {
    fn up_to(max: usize) -> LnCounts {
        LnCounts(ln_factorials(max))
    }

    /// ln P(n, k) = ln n!/(n-k)!, or -inf when k > n.
    fn perm(&self, n: u64, k: usize) -> f64 {
        if k as u64 > n {
            f64::NEG_INFINITY
        } else {
            self.0[n as usize] - self.0[n as usize - k]
        }
    }

    /// ln C(n, k).
    fn choose(&self, n: usize, k: usize) -> f64 {
        self.0[n] - self.0[k] - self.0[n - k]
    }
}

fn logsumexp(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let m = a.max(b);
    m + ((a - m).exp() + (b - m).exp()).ln()
}

/// `ln pb(b)` for `b = 0..=max_b`: all `b` frame joins match, from left-edge counts
/// `left[c]` and right-edge counts `right[c]` per colour (see the module docs). Entries
/// beyond what the edges allow are `-inf`. In logs because on 14x14 and larger boards the
/// probabilities of the deep levels are below the smallest f64 (E2: 0 from depth 162).
pub fn ln_frame_join_probabilities(left: &[u64], right: &[u64], max_b: usize) -> Vec<f64> {
    assert_eq!(left.len(), right.len());
    let tl: u64 = left.iter().sum();
    let tr: u64 = right.iter().sum();
    let ln = LnCounts::up_to((tl.max(tr) as usize).max(max_b) + 1);
    let lp = |n: u64, k: usize| ln.perm(n, k);
    let lc = |n: usize, k: usize| ln.choose(n, k);
    // ln V(i, b) over the colours added so far.
    let mut v = vec![f64::NEG_INFINITY; max_b + 1];
    v[0] = 0.0;
    for (&l, &r) in left.iter().zip(right) {
        let mut next = vec![f64::NEG_INFINITY; max_b + 1];
        for (b, slot) in next.iter_mut().enumerate() {
            for j in 0..=b.min(l.min(r) as usize) {
                if v[b - j] > f64::NEG_INFINITY {
                    *slot = logsumexp(*slot, v[b - j] + lp(l, j) + lp(r, j) + lc(b, j));
                }
            }
        }
        v = next;
    }
    (0..=max_b)
        .map(|b| {
            let den = lp(tl, b) + lp(tr, b);
            if v[b] == f64::NEG_INFINITY || den == f64::NEG_INFINITY {
                f64::NEG_INFINITY
            } else {
                v[b] - den
            }
        })
        .collect()
}

/// `ln pm(m)` for `m = 0..=max_m`: all `m` inner joins match, from half-edge counts per
/// colour (`-inf` where impossible; in logs, as [`ln_frame_join_probabilities`]).
pub fn ln_inner_join_probabilities(counts: &[u64], max_m: usize) -> Vec<f64> {
    let total: u64 = counts.iter().sum();
    let ln = LnCounts::up_to((total as usize).max(2 * max_m) + 1);
    let lp = |n: u64, k: usize| ln.perm(n, k);
    let lc = |n: usize, k: usize| ln.choose(n, k);
    let mut v = vec![f64::NEG_INFINITY; max_m + 1];
    v[0] = 0.0;
    for &n in counts {
        let mut next = vec![f64::NEG_INFINITY; max_m + 1];
        for (m, slot) in next.iter_mut().enumerate() {
            for j in 0..=m.min(n as usize / 2) {
                if v[m - j] > f64::NEG_INFINITY {
                    *slot = logsumexp(*slot, v[m - j] + lp(n, 2 * j) + lc(m, j));
                }
            }
        }
        v = next;
    }
    (0..=max_m)
        .map(|m| {
            let den = lp(total, 2 * m);
            if v[m] == f64::NEG_INFINITY || den == f64::NEG_INFINITY {
                f64::NEG_INFINITY
            } else {
                v[m] - den
            }
        })
        .collect()
}

/// The colour counts Owen's model needs: frame left/right edges and inner half-edges,
/// over the pieces that are not hints, indexed by colour.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeCounts {
    /// Anticlockwise frame edge (the one before the rim edge(s), going clockwise).
    pub frame_left: Vec<u64>,
    /// Clockwise frame edge (the one after the rim edge(s)).
    pub frame_right: Vec<u64>,
    pub inner: Vec<u64>,
    /// Available (non-hint) corner, edge and inner pieces.
    pub available: [usize; 3],
}

/// Kind of a piece by its rim edges (the puzzle is validated, so only these occur).
pub fn piece_kind(p: [u8; 4]) -> Kind {
    match p.iter().filter(|&&c| c == RIM).count() {
        0 => Kind::Inner,
        1 => Kind::Border,
        _ => Kind::Corner,
    }
}

pub fn kind_index(k: Kind) -> usize {
    match k {
        Kind::Corner => 0,
        Kind::Border => 1,
        Kind::Inner => 2,
    }
}

pub fn edge_counts(puzzle: &Puzzle) -> EdgeCounts {
    let colours = puzzle.colour_count();
    let mut ec = EdgeCounts {
        frame_left: vec![0; colours],
        frame_right: vec![0; colours],
        inner: vec![0; colours],
        available: [0; 3],
    };
    let hinted = hinted_pieces(puzzle);
    for (i, &p) in puzzle.pieces.iter().enumerate() {
        if hinted[i] {
            continue;
        }
        let kind = piece_kind(p);
        ec.available[kind_index(kind)] += 1;
        match kind {
            Kind::Inner => {
                for &c in &p {
                    ec.inner[c as usize] += 1;
                }
            }
            Kind::Border => {
                let g = (0..4).find(|&s| p[s] == RIM).unwrap();
                ec.frame_right[p[(g + 1) % 4] as usize] += 1;
                ec.inner[p[(g + 2) % 4] as usize] += 1;
                ec.frame_left[p[(g + 3) % 4] as usize] += 1;
            }
            Kind::Corner => {
                // The rim edges are s and s+1 (clockwise); s+2 is clockwise after them.
                let s = (0..4)
                    .find(|&s| p[s] == RIM && p[(s + 1) % 4] == RIM)
                    .unwrap();
                ec.frame_right[p[(s + 2) % 4] as usize] += 1;
                ec.frame_left[p[(s + 3) % 4] as usize] += 1;
            }
        }
    }
    ec
}

/// Is the join between neighbouring cells `a` and `b` a frame join (both on the rim and the
/// join runs along the rim)?
pub fn is_frame_join(puzzle: &Puzzle, a: usize, b: usize) -> bool {
    let (w, h) = (puzzle.width, puzzle.height);
    let (ra, ca, rb, cb) = (a / w, a % w, b / w, b % w);
    if ra == rb {
        ra == 0 || ra + 1 == h
    } else {
        debug_assert_eq!(ca, cb);
        ca == 0 || ca + 1 == w
    }
}

/// The oriented edges of the hint at each cell, `None` on free cells.
pub fn hint_edges(puzzle: &Puzzle) -> Vec<Option<[u8; 4]>> {
    let mut at = vec![None; puzzle.cells()];
    for h in &puzzle.hints {
        at[h.row * puzzle.width + h.col] = Some(rotated(puzzle.pieces[h.piece], h.rotation));
    }
    at
}

/// The pieces the hints place, as a set (bit `p` for piece p): they are in no cell
/// the models fill.
pub fn hinted_pieces(puzzle: &Puzzle) -> BitVec {
    let mut hinted = BitVec::repeat(false, puzzle.pieces.len());
    for h in &puzzle.hints {
        hinted.set(h.piece, true);
    }
    hinted
}

/// `ln Π_c P(n_c, k_c) − ln P(N, K)`: `K = Σ k_c` half-edges drawn without replacement
/// from the urn `counts` show colour `c` at `k_c` given draws (`-inf` if it has too few).
pub fn ln_fixed_draws(counts: &[u64], fixed: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let k: u64 = fixed.iter().sum();
    let ln = LnCounts::up_to(total.max(k) as usize);
    let favourable: f64 = counts
        .iter()
        .zip(fixed)
        .map(|(&n, &k)| ln.perm(n, k as usize))
        .sum();
    if favourable == f64::NEG_INFINITY {
        return favourable;
    }
    favourable - ln.perm(total, k as usize)
}

/// The urn `counts` less the draws `fixed` (too few edges left is `-inf` in
/// [`ln_fixed_draws`] already).
fn left_after(counts: &[u64], fixed: &[u64]) -> Vec<u64> {
    counts
        .iter()
        .zip(fixed)
        .map(|(&n, &k)| n.saturating_sub(k))
        .collect()
}

/// `table(key, max)[count]` for each `(key, count)` level, the table computed once per run
/// of equal keys up to the run's largest count (hint draws only grow along the order, so
/// equal keys are contiguous and counts within a run grow).
fn per_run<K: PartialEq>(levels: &[(K, usize)], table: impl Fn(&K, usize) -> Vec<f64>) -> Vec<f64> {
    let mut out = Vec::with_capacity(levels.len());
    let mut start = 0;
    while start < levels.len() {
        let key = &levels[start].0;
        let end = start + levels[start..].iter().take_while(|l| &l.0 == key).count();
        let t = table(key, levels[end - 1].1);
        out.extend(levels[start..end].iter().map(|l| t[l.1]));
        start = end;
    }
    out
}

/// Owen's expected node count per depth along the static row-major order (scan on
/// [`crate::puzzle::Puzzle::along`]), index 0 = root; joins with hints as in the module
/// docs.
pub fn owen_per_depth(puzzle: &Puzzle) -> Vec<f64> {
    let ec = edge_counts(puzzle);
    let colours = puzzle.colour_count();
    let hint_at = hint_edges(puzzle);
    let mut filled: Vec<bool> = hint_at.iter().map(Option::is_some).collect();
    let order: Vec<usize> = (0..puzzle.cells()).filter(|&c| !filled[c]).collect();
    // Per depth: pieces placed by kind, then (colours drawn against hints, pair joins)
    // for the frame (left and right urns) and the inner urn.
    let mut placed = [0usize; 3];
    let (mut b, mut m) = (0usize, 0usize);
    let (mut left, mut right, mut inner) = (
        vec![0u64; colours],
        vec![0u64; colours],
        vec![0u64; colours],
    );
    let mut pieces = vec![placed];
    let mut frame = vec![((left.clone(), right.clone()), b)];
    let mut inside = vec![(inner.clone(), m)];
    for &c in &order {
        let (row, col) = (c / puzzle.width, c % puzzle.width);
        placed[kind_index(puzzle.cell_kind(row, col))] += 1;
        for side in 0..4 {
            let Some(nb) = puzzle.neighbour(c, side).filter(|&nb| filled[nb]) else {
                continue;
            };
            let along_rim = is_frame_join(puzzle, c, nb);
            match hint_at[nb] {
                None if along_rim => b += 1,
                None => m += 1,
                Some(e) => {
                    let colour = e[(side + 2) % 4] as usize;
                    // Clockwise along the rim when the side before this one is the rim.
                    let clockwise = puzzle.neighbour(c, (side + 3) % 4).is_none();
                    match (along_rim, clockwise) {
                        (false, _) => inner[colour] += 1,
                        (true, true) => right[colour] += 1,
                        (true, false) => left[colour] += 1,
                    }
                }
            }
        }
        filled[c] = true;
        pieces.push(placed);
        frame.push(((left.clone(), right.clone()), b));
        inside.push((inner.clone(), m));
    }
    let ln_pb = per_run(&frame, |(l, r), max_b| {
        let hints = ln_fixed_draws(&ec.frame_left, l) + ln_fixed_draws(&ec.frame_right, r);
        let (l, r) = (
            left_after(&ec.frame_left, l),
            left_after(&ec.frame_right, r),
        );
        let pairs = ln_frame_join_probabilities(&l, &r, max_b);
        pairs.iter().map(|p| p + hints).collect()
    });
    let ln_pm = per_run(&inside, |k, max_m| {
        let hints = ln_fixed_draws(&ec.inner, k);
        let pairs = ln_inner_join_probabilities(&left_after(&ec.inner, k), max_m);
        pairs.iter().map(|p| p + hints).collect()
    });
    let lf = LnCounts::up_to(puzzle.pieces.len() + 1);
    pieces
        .iter()
        .zip(ln_pb.iter().zip(&ln_pm))
        .map(|(p, (pb, pm))| {
            let ln = lf.perm(ec.available[0] as u64, p[0])
                + lf.perm(ec.available[1] as u64, p[1])
                + lf.perm(ec.available[2] as u64, p[2])
                + p[2] as f64 * 4f64.ln();
            // exp(-inf) = 0 for an impossible level.
            (ln + pb + pm).exp()
        })
        .collect()
}
