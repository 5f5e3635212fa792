//! The row-scan tables (`search::rowscan`): dense colour numbers and the tables they key.

use plytile::puzzle::formats::{parse_text, EdgeOrder};
use plytile::puzzle::{Puzzle, RIM};
use plytile::search::rowscan::{DenseColours, RowScan};
use plytile::search::State;

#[test]
fn dense_colours_number_the_colours_that_occur_in_order() {
    let edges = [[0, 0, 201, 255], [201, 7, 255, 0], [7, 7, 7, 7]];
    let d = DenseColours::new(&edges);
    assert_eq!(d.count(), 4);
    assert_eq!(
        [0, 7, 201, 255].map(|c| d.get(c)),
        [0, 1, 2, 3],
        "the rim keeps 0, the others ascend"
    );
    assert_eq!(d.edges(&[201, 7, 255, 0]), [2, 1, 3, 0]);
    assert_eq!(format!("{d:?}"), "{0: 0, 7: 1, 201: 2, 255: 3}");
    // Already dense colours keep their numbers: the tables of such puzzles are
    // the same as before.
    let plain = DenseColours::new(&[[0, 1, 2, 3], [4, 0, 0, 5]]);
    assert_eq!(plain.count(), 6);
    assert!((0..6).all(|c| plain.get(c) == c));
    // No rim anywhere: 0 is still reserved for it (static key parts are 0).
    let rimless = DenseColours::new(&[[5, 5, 9, 9]]);
    assert_eq!((rimless.count(), rimless.get(5), rimless.get(9)), (3, 1, 2));
}

#[test]
fn renumbered_colours_build_the_same_tables() {
    let text =
        "3 3\n0 0 1 2\n0 0 2 1\n0 0 1 1\n0 0 2 2\n0 1 1 2\n0 2 2 1\n0 1 2 2\n0 2 1 1\n1 2 1 2\n";
    let p: Puzzle = parse_text(text, "3x3", EdgeOrder::Urdl).expect("a 3x3");
    let mut q = p.clone();
    for piece in &mut q.pieces {
        for c in piece.iter_mut().filter(|c| **c != RIM) {
            *c += 250;
        }
    }
    for columns in [false, true] {
        let (a, b) = (
            RowScan::new(&State::new(&p), columns),
            RowScan::new(&State::new(&q), columns),
        );
        let (a_radix, a_heads, a_entries, a_masks) = a.raw_tables();
        let (b_radix, b_heads, b_entries, b_masks) = b.raw_tables();
        assert_eq!((a_radix, b_radix), (3, 3));
        assert_eq!(a_heads, b_heads);
        assert_eq!(a_entries, b_entries);
        assert_eq!(a_masks, b_masks);
    }
}
