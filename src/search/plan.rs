//! Static fill orders for the planned driver ([`super::rowscan::RowScan::with_order`]):
//! `order:spiral` ([`spiral`]) and `order:hints` ([`plan`]).

use super::state::State;

/// The order of `order:hints`, grown from the hints: repeatedly the empty cell with
/// the most constrained sides comes next, a side being constrained when it faces the
/// rim or a filled cell (a hint, a cell filled in `st`, or one earlier in the plan);
/// ties go to the lowest cell index. Lists every empty cell of `st` once.
///
/// Without hints this is row-major order: the corner (two rim sides), then along the
/// top row (a rim side and the cell to the left), and so on. Hints pull the order
/// toward themselves: their neighbours are constrained early.
pub fn plan(st: &State) -> Vec<u32> {
    let n = st.cells();
    let mut filled: Vec<bool> = (0..n).map(|c| !st.is_empty(c)).collect();
    let constrained = |c: usize, filled: &[bool]| {
        st.neighbours(c)
            .iter()
            .filter(|&&nb| nb == u32::MAX || filled[nb as usize])
            .count()
    };
    let mut order = Vec::with_capacity(n);
    while let Some(c) = (0..n)
        .filter(|&c| !filled[c])
        // The most constrained; max_by_key keeps the last of equals, so scan down.
        .rev()
        .max_by_key(|&c| constrained(c, &filled))
    {
        filled[c] = true;
        order.push(c as u32);
    }
    order
}

/// The order of `order:spiral`: the empty cells of `st` clockwise from the top-left
/// corner, outside in, ring by ring (each ring: its top row left to right, its right
/// column down, its bottom row right to left, its left column up).
pub fn spiral(st: &State) -> Vec<u32> {
    spiral_cells(st.width, st.height)
        .into_iter()
        .filter(|&c| st.is_empty(c as usize))
        .collect()
}

/// Every cell of a `width` x `height` board in spiral order.
pub fn spiral_cells(width: usize, height: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(width * height);
    let (mut top, mut left) = (0usize, 0usize);
    let (mut bottom, mut right) = (height, width); // exclusive
    let at = |r: usize, c: usize| (r * width + c) as u32;
    while top < bottom && left < right {
        out.extend((left..right).map(|c| at(top, c)));
        out.extend((top + 1..bottom).map(|r| at(r, right - 1)));
        if bottom - top > 1 {
            out.extend((left..right - 1).rev().map(|c| at(bottom - 1, c)));
        }
        if right - left > 1 {
            out.extend((top + 1..bottom - 1).rev().map(|r| at(r, left)));
        }
        (top, left, bottom, right) = (top + 1, left + 1, bottom - 1, right - 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spirals_visit_every_cell_once_clockwise() {
        assert_eq!(spiral_cells(3, 3), [0, 1, 2, 5, 8, 7, 6, 3, 4]);
        assert_eq!(spiral_cells(4, 2), [0, 1, 2, 3, 7, 6, 5, 4]);
        assert_eq!(spiral_cells(1, 3), [0, 1, 2]);
        assert_eq!(spiral_cells(3, 1), [0, 1, 2]);
        for (w, h) in [(4, 4), (5, 3), (3, 5), (16, 16), (2, 7)] {
            let mut s = spiral_cells(w, h);
            s.sort();
            assert_eq!(s, (0..(w * h) as u32).collect::<Vec<_>>(), "{w}x{h}");
        }
    }
}
