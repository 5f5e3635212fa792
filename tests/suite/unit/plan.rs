//! Planned orders (`search::plan`): the rule, its memorylessness, spirals.

use plytile::puzzle::{generate, Puzzle};
use plytile::search::plan::{next, plan, spiral_cells};
use plytile::search::{solve, Heuristic, Limits, Mrv, State};
use std::sync::atomic::AtomicBool;

/// The puzzle's first solution by mrv, as `[piece, rotation]` per cell.
fn first_solution(p: &Puzzle) -> Vec<[usize; 2]> {
    let limits = Limits {
        max_solutions: Some(1),
        keep: 1,
        ..Default::default()
    };
    let stop = AtomicBool::new(false);
    let r = solve(p, Heuristic::Mrv(Mrv), &limits, &stop);
    r.solutions[0].clone()
}

/// On an empty board the rule is row-major order; `next` is the plan's first
/// cell at every step (the rule is memoryless).
#[test]
fn an_empty_board_is_planned_in_rows_and_next_follows_the_plan() {
    let p = generate::generate(5, 4, 3, 3, 7).unwrap();
    let sol = &first_solution(&p);
    let mut st = State::new(&p);
    let order = plan(&st);
    assert_eq!(order, (0..20).collect::<Vec<u32>>());
    // Fill along the plan with the solution's pieces: `next` is the rest's first.
    for (i, &c) in order.iter().enumerate() {
        assert_eq!(next(&st), Some(c as usize), "step {i}");
        assert_eq!(plan(&st), order[i..], "step {i}");
        let [piece, rot] = sol[c as usize];
        st.place(c as usize, (4 * piece + rot) as u32);
    }
    assert_eq!(next(&st), None);
}

/// Around a hint the plan grows out of it: its neighbours gain a constrained side.
#[test]
fn a_hint_pulls_its_neighbours_forward() {
    let p = generate::generate(6, 6, 3, 3, 11).unwrap();
    let mut st = State::new(&p);
    let [piece, rot] = first_solution(&p)[14]; // row 2, column 2
    st.place(14, (4 * piece + rot) as u32);
    let order = plan(&st);
    assert_eq!(order.len(), 35);
    assert!(!order.contains(&14));
    // The top row until cell 2, whose down neighbour (cell 8) touches the hint:
    // then around the hint (8, 7, 6, 13, 12) before the top row goes on.
    let expected = [0, 1, 2, 8, 7, 6, 13, 12, 3, 9, 15, 4, 5, 10, 11, 16];
    assert_eq!(&order[..16], &expected[..]);
}

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
