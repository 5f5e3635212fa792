//! The puzzle generator: a planted solution in the Eternity II convention, then the
//! pieces shuffled and turned. Deterministic: the same arguments give the same file on
//! every platform (the random stream is SplitMix64, written out here, not a crate whose
//! stream may change between versions).

use super::{rotated, Piece, Puzzle, RIM};
use crate::error::Result;

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and fixed forever.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0), by rejection so that no value is favoured.
    pub fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Rim and inner colour counts of Brendan Owen's benchmark set for a W x H board
/// (W >= H), read off `../shared/puzzles/brendan`; they are the "hardest" counts the
/// Brendan and META sets use. Rows are W = 3..=20, entries H = 3..=W.
const BRENDAN_COLOURS: &[(usize, usize)] = &[
    // W = 3, H = 3..=3
    (2, 2),
    // W = 4, H = 3..=4
    (2, 2),
    (2, 3),
    // W = 5, H = 3..=5
    (2, 3),
    (2, 3),
    (3, 4),
    // W = 6, H = 3..=6
    (2, 3),
    (3, 4),
    (3, 5),
    (3, 5),
    // W = 7, H = 3..=7
    (3, 3),
    (3, 4),
    (3, 5),
    (3, 6),
    (3, 6),
    // W = 8, H = 3..=8
    (3, 3),
    (3, 5),
    (3, 5),
    (3, 6),
    (3, 7),
    (3, 8),
    // W = 9, H = 3..=9
    (3, 4),
    (3, 5),
    (3, 6),
    (3, 7),
    (3, 7),
    (3, 8),
    (4, 9),
    // W = 10, H = 3..=10
    (3, 4),
    (3, 5),
    (3, 6),
    (3, 7),
    (3, 8),
    (4, 9),
    (4, 9),
    (4, 10),
    // W = 11, H = 3..=11
    (4, 4),
    (4, 5),
    (3, 7),
    (3, 8),
    (4, 8),
    (4, 9),
    (4, 10),
    (4, 11),
    (4, 11),
    // W = 12, H = 3..=12
    (4, 4),
    (4, 6),
    (4, 7),
    (4, 8),
    (4, 9),
    (4, 10),
    (4, 10),
    (4, 11),
    (4, 12),
    (4, 12),
    // W = 13, H = 3..=13
    (4, 4),
    (4, 6),
    (4, 7),
    (4, 8),
    (4, 9),
    (4, 10),
    (4, 11),
    (4, 12),
    (4, 12),
    (4, 13),
    (4, 14),
    // W = 14, H = 3..=14
    (4, 5),
    (4, 6),
    (4, 8),
    (4, 9),
    (4, 10),
    (4, 11),
    (4, 11),
    (4, 12),
    (4, 13),
    (4, 13),
    (5, 14),
    (5, 15),
    // W = 15, H = 3..=15
    (5, 5),
    (4, 6),
    (4, 8),
    (4, 9),
    (4, 10),
    (4, 11),
    (4, 12),
    (4, 13),
    (4, 13),
    (5, 14),
    (5, 15),
    (5, 15),
    (5, 16),
    // W = 16, H = 3..=16
    (5, 5),
    (4, 7),
    (4, 8),
    (4, 9),
    (4, 10),
    (4, 11),
    (4, 12),
    (4, 13),
    (5, 14),
    (5, 15),
    (5, 15),
    (5, 16),
    (5, 17),
    (5, 17),
    // W = 17, H = 3..=17
    (5, 5),
    (5, 7),
    (5, 8),
    (4, 10),
    (4, 11),
    (4, 12),
    (4, 13),
    (5, 13),
    (5, 14),
    (5, 15),
    (5, 16),
    (5, 16),
    (5, 17),
    (5, 18),
    (5, 18),
    // W = 18, H = 3..=18
    (5, 5),
    (5, 7),
    (5, 9),
    (5, 10),
    (5, 11),
    (5, 12),
    (5, 13),
    (5, 14),
    (5, 15),
    (5, 16),
    (5, 16),
    (5, 17),
    (5, 18),
    (5, 18),
    (5, 19),
    (5, 20),
    // W = 19, H = 3..=19
    (6, 5),
    (5, 7),
    (5, 9),
    (5, 10),
    (5, 11),
    (5, 12),
    (5, 13),
    (5, 14),
    (5, 15),
    (5, 16),
    (5, 17),
    (5, 17),
    (5, 18),
    (5, 19),
    (5, 20),
    (5, 20),
    (5, 21),
    // W = 20, H = 3..=20
    (6, 5),
    (5, 8),
    (5, 9),
    (5, 11),
    (5, 12),
    (5, 13),
    (5, 14),
    (5, 15),
    (5, 16),
    (5, 16),
    (5, 17),
    (5, 18),
    (5, 19),
    (5, 19),
    (5, 20),
    (5, 21),
    (6, 21),
    (6, 22),
];

/// Default (rim, inner) colour counts for a W x H board: Brendan's counts for the same
/// size, with sides clamped into his 3..=20 range.
pub fn default_colours(width: usize, height: usize) -> (usize, usize) {
    let w = width.max(height).clamp(3, 20);
    let h = width.min(height).clamp(3, w);
    // Row W starts after the rows for 3..W, which hold 1 + 2 + ... + (W - 3) entries.
    let start = (w - 3) * (w - 2) / 2;
    BRENDAN_COLOURS[start + (h - 3)]
}

/// Generates a W x H puzzle with a planted solution. Joins between two rim cells take
/// colours 1..=rim, all other inner joins rim+1..=rim+inner.
pub fn generate(
    width: usize,
    height: usize,
    rim: usize,
    inner: usize,
    seed: u64,
) -> Result<Puzzle> {
    let origin = "gen";
    let err = |m: String| Err(crate::error::InputError::new(origin, m));
    if rim == 0 || inner == 0 {
        return err("--rim-colours and --inner-colours must be at least 1".into());
    }
    if rim.checked_add(inner).is_none_or(|n| n > 255) {
        return err(format!(
            "--rim-colours {rim} + --inner-colours {inner}: at most 255 colours fit"
        ));
    }
    let (w, h) = (width, height);
    if !(2..=super::MAX_SIDE).contains(&w) || !(2..=super::MAX_SIDE).contains(&h) {
        return err(format!(
            "board is {w}x{h}; each side must be 2..={}",
            super::MAX_SIDE
        ));
    }
    let mut rng = SplitMix64::new(seed);
    let mut colour = |rim_join: bool| -> u8 {
        if rim_join {
            1 + rng.below(rim as u64) as u8
        } else {
            1 + rim as u8 + rng.below(inner as u64) as u8
        }
    };
    let on_rim = |r: usize, c: usize| r == 0 || c == 0 || r + 1 == h || c + 1 == w;
    // right[r][c]: colour of the join right of (r, c); down[r][c]: below (r, c).
    let mut right = vec![RIM; w * h];
    let mut down = vec![RIM; w * h];
    for r in 0..h {
        for c in 0..w {
            if c + 1 < w {
                right[r * w + c] =
                    colour(on_rim(r, c) && on_rim(r, c + 1) && (r == 0 || r + 1 == h));
            }
            if r + 1 < h {
                down[r * w + c] =
                    colour(on_rim(r, c) && on_rim(r + 1, c) && (c == 0 || c + 1 == w));
            }
        }
    }
    let mut pieces: Vec<Piece> = (0..w * h)
        .map(|cell| {
            let (r, c) = (cell / w, cell % w);
            [
                if r > 0 { down[cell - w] } else { RIM },
                right[cell],
                down[cell],
                if c > 0 { right[cell - 1] } else { RIM },
            ]
        })
        .collect();
    // Fisher-Yates shuffle, then a random turn for each piece.
    for i in (1..pieces.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        pieces.swap(i, j);
    }
    for p in &mut pieces {
        *p = rotated(*p, rng.below(4) as u8);
    }
    let mut puzzle = Puzzle::new(
        origin,
        format!("gen-{w}x{h}-{rim}+{inner}-seed{seed}"),
        w,
        h,
        pieces,
        vec![],
    )?;
    puzzle.source = Some(format!(
        "plytile gen --width {w} --height {h} --rim-colours {rim} --inner-colours {inner} --seed {seed}"
    ));
    Ok(puzzle)
}
