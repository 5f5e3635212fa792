//! Tests for the N-ply average local branching factor (the note "The N-ply average
//! local branching factor"): the note's worked examples, an independent
//! implementation, and properties.

use plytile::branching::{
    beats, branching_factor, cli_branching, default_ply_for_tree, lhs, lhs_capped, LocalTree, Mean,
    Tree,
};
use proptest::prelude::*;
use std::collections::HashSet;

const EPS: f64 = 1e-9;
const PHI: f64 = 1.618033988749895;

fn tree(json: &str) -> Tree {
    Tree::parse_json(json).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < EPS
}

/// A node with `k` leaf children.
fn fan(k: usize) -> Tree {
    Tree::node(vec![Tree::leaf(); k])
}

// The note's two-ply trees (a), (b), (c).
const A: &str = "[[[],[],[]]]";
const B: &str = "[[[]],[[],[]]]";
const C: &str = "[[[]],[[]],[[]]]";
// The note's 3-ply example.
const THREE_PLY: &str = "[[[[],[]],[[]]],[[[]],[[],[],[]]]]";

#[test]
fn seed_two_ply_trees() {
    assert_eq!(branching_factor(&tree(A), 2), 1.0);
    assert!(close(
        branching_factor(&tree(B), 2),
        (1.0 + 5f64.sqrt()) / 2.0
    ));
    assert!(close(branching_factor(&tree(B), 2), PHI));
    assert!(close(branching_factor(&tree(C), 2), 3f64.sqrt()));
}

#[test]
fn seed_labelled_equations() {
    // (a): min(b,3) = b^2; (b): min(b,1)+min(b,2) = b^2; (c): 3min(b,1) = b^2.
    for b in [0.5, 1.0, 1.3, 2.0, 2.5, 4.0] {
        assert!(close(lhs(&tree(A), 2, b), b.min(3.0)));
        assert!(close(lhs(&tree(B), 2, b), b.min(1.0) + b.min(2.0)));
        assert!(close(lhs(&tree(C), 2, b), 3.0 * b.min(1.0)));
    }
    // The note's trial values for (b): LHS(2) = 3 < 4, LHS(1) = 2 > 1.
    assert!(beats(&tree(B), 2, 2.0));
    assert!(!beats(&tree(B), 2, 1.0));
}

/// The real root of b^3 = 2b + 2 by Cardano: for t^3 + pt + q with p = q = -2
/// the discriminant (q/2)^2 + (p/3)^3 = 19/27 is positive.
fn cardano() -> f64 {
    let d = (19.0f64 / 27.0).sqrt();
    (1.0 + d).cbrt() + (1.0 - d).cbrt()
}

#[test]
fn seed_three_ply_example() {
    let t = tree(THREE_PLY);
    // The note's equation m(b^2,m(b,1)+m(b,2)) + m(b^2,m(b,1)+m(b,3)) = b^3.
    let m = f64::min;
    for b in [0.7, 1.0, 1.5, 1.77, 2.0, 3.0] {
        let want = m(b * b, m(b, 1.0) + m(b, 2.0)) + m(b * b, m(b, 1.0) + m(b, 3.0));
        assert!(close(lhs(&t, 3, b), want));
    }
    let b = branching_factor(&t, 3);
    let root = cardano();
    assert!(close(root.powi(3), 2.0 * (root + 1.0)));
    assert!(close(b, root));
    assert!(close(b, 1.7692923542386314));
    assert!(!beats(&t, 3, PHI), "the note: phi is too low");
}

#[test]
fn uniform_tree_gives_b_at_every_ply() {
    for b in 1..=5 {
        for n in 1..=4 {
            assert!(close(branching_factor(&Tree::uniform(b, n), n), b as f64));
            // Levels deeper than the ply are ignored.
            assert!(close(branching_factor(&Tree::uniform(b, 4), n), b as f64));
        }
    }
}

#[test]
fn forced_first_move_gives_one() {
    for sub in ["[[]]", "[[],[],[]]", "[[[],[]],[]]", B, THREE_PLY] {
        let t = Tree::node(vec![tree(sub)]);
        assert_eq!(branching_factor(&t, 2), 1.0, "subtree {sub}");
    }
    // A forced move whose subtree never reaches level 2 is a dead end.
    assert_eq!(branching_factor(&tree("[[]]"), 2), 0.0);
}

#[test]
fn seed_same_tree_branching_factor_two() {
    let x = "[]";
    let left = tree(&format!("[[{x},{x},{x}],[{x},{x}]]"));
    let right = tree(&format!("[[{x},{x}],[{x},{x}]]"));
    assert!(close(branching_factor(&left, 2), 2.0));
    assert!(close(branching_factor(&right, 2), 2.0));
}

/// The seed says (b) "is equivalent to" the tree whose right branch is a node
/// with n children "if and only if n >= (1+sqrt 5)/2". We read it as: the
/// right level-1 move of (b) has 2 follow-ups; replacing that 2 by n (tree
/// `[[[]], n leaves]`, whose equation is 1 + min(b, n) = b^2) leaves b = phi
/// unchanged exactly when n >= phi, so only "phi of those 2 branches" count.
/// For integers: n = 1 gives sqrt 2, n >= 2 gives phi. The real-n threshold
/// is checked on the equation itself.
#[test]
fn seed_partially_redundant_branch() {
    let b = branching_factor(&tree(B), 2);
    for n in 1..=5 {
        let t = Tree::node(vec![fan(1), fan(n)]);
        let bn = branching_factor(&t, 2);
        assert_eq!(close(bn, b), n as f64 >= PHI, "n = {n}, b = {bn}");
    }
    assert!(close(
        branching_factor(&Tree::node(vec![fan(1), fan(1)]), 2),
        2f64.sqrt()
    ));
    // Real n: solve 1 + min(b, n) = b^2 by bisection.
    let solve = |n: f64| bisect(1.0, 3.0, |b| 1.0 + b.min(n) - b * b);
    for n in [1.0, 1.5, 1.6, PHI + 1e-6, 1.7, 2.0, 7.5] {
        assert_eq!(close(solve(n), PHI), n >= PHI, "n = {n}");
    }
}

#[test]
fn deeper_levels_ignored_and_shallow_leaves_dead() {
    // Dead-end leaf at level 1 for ply 2 contributes nothing.
    let t = Tree::node(vec![Tree::leaf(), fan(2), fan(3)]);
    let without = Tree::node(vec![fan(2), fan(3)]);
    assert_eq!(branching_factor(&t, 2), branching_factor(&without, 2));
    assert_eq!(branching_factor(&t, 1), 3.0);
    assert_eq!(branching_factor(&Tree::leaf(), 1), 0.0);
    assert_eq!(branching_factor(&tree(THREE_PLY), 5), 0.0);
}

#[test]
fn lhs_capped_stops_early_but_agrees_below_cap() {
    let t = tree(THREE_PLY);
    for b in [1.0, 1.5, 2.0] {
        let full = lhs(&t, 3, b);
        assert_eq!(lhs_capped(&t, 3, b, full + 1.0), full);
        assert!(lhs_capped(&t, 3, b, 0.5) >= 0.5);
        assert!(lhs_capped(&t, 3, b, 0.5) <= full);
    }
}

#[test]
fn parse_json_and_errors() {
    assert_eq!(tree("[]"), Tree::leaf());
    assert_eq!(tree("[[],[]]"), fan(2));
    assert_eq!(tree(" [ [ [] ] ] "), Tree::node(vec![fan(1)]));
    let err = Tree::parse_json("[[],[3]]").unwrap_err();
    assert!(err.contains("$[1][0]"), "{err}");
    assert!(Tree::parse_json("{}").is_err());
    assert!(Tree::parse_json("[[]").is_err());
}

#[test]
fn default_ply_is_height() {
    assert_eq!(default_ply_for_tree(&Tree::leaf()), 0);
    assert_eq!(default_ply_for_tree(&tree(B)), 2);
    assert_eq!(default_ply_for_tree(&tree(THREE_PLY)), 3);
    assert_eq!(default_ply_for_tree(&Tree::uniform(2, 4)), 4);
}

#[test]
fn cli_output() {
    assert_eq!(
        cli_branching(B, None).unwrap(),
        format!(
            "b = {} (ply 2, 2 level-1 moves, 3 level-2 nodes)",
            branching_factor(&tree(B), 2)
        )
    );
    assert!(cli_branching(B, None)
        .unwrap()
        .starts_with("b = 1.61803398874989"));
    assert_eq!(
        cli_branching(A, Some(1)).unwrap(),
        "b = 1 (ply 1, 1 level-1 move, 1 level-1 node)"
    );
    assert_eq!(
        cli_branching("[]", None).unwrap(),
        "b = 0 (ply 1, 0 level-1 moves, 0 level-1 nodes)"
    );
    // --ply deeper than the tree: every leaf is a dead end.
    assert!(cli_branching(B, Some(3))
        .unwrap()
        .starts_with("b = 0 (ply 3"));
    assert!(cli_branching(B, Some(0)).is_err());
    assert!(cli_branching("[1]", None).is_err());
}

#[test]
fn local_tree_builder() {
    // (b) in preorder: move, follow-up, move, follow-up, follow-up.
    let mut lt = LocalTree::new();
    for level in [1, 2, 1, 2, 2] {
        lt.push(level);
    }
    assert_eq!(lt, LocalTree::from_tree(&tree(B)));
    assert_eq!(lt.moves(), 2);
    assert!(close(lt.branching_factor(2), PHI));
    lt.clear();
    assert!(lt.is_empty());
    assert_eq!(lt.branching_factor(1), 0.0);
}

#[test]
#[should_panic]
fn local_tree_rejects_level_jump() {
    let mut lt = LocalTree::new();
    lt.push(1);
    lt.push(3);
}

// ---------------------------------------------------------------------------
// The note's two-player game, played literally for tree (b).

/// Number of distinct final states after `moves` moves of the note's game on
/// copies of (b), with S's strategy from the note: play in a `1` if there is
/// one, else in the first fresh `B`. A state is the prefix of trees already
/// touched: '1', '2' or '-' (thrown away); the rest are fresh `B`s.
fn game_states(moves: usize) -> usize {
    let mut states: HashSet<Vec<u8>> = HashSet::from([Vec::new()]);
    for _ in 0..moves {
        let mut next = HashSet::new();
        for s in &states {
            if let Some(i) = s.iter().position(|&t| t == b'1') {
                let mut t = s.clone();
                t[i] = b'-'; // the 1's only move reaches the bottom
                next.insert(t);
            } else {
                for child in [b'1', b'2'] {
                    let mut t = s.clone();
                    t.push(child);
                    next.insert(t);
                }
            }
        }
        states = next;
    }
    states.len()
}

#[test]
fn seed_game_counts_are_fibonacci_with_ratio_b() {
    let counts: Vec<usize> = (0..=26).map(game_states).collect();
    assert_eq!(&counts[..6], &[1, 2, 3, 5, 8, 13]);
    for n in 2..counts.len() {
        assert_eq!(counts[n], counts[n - 1] + counts[n - 2]);
    }
    let ratio = counts[26] as f64 / counts[25] as f64;
    assert!(close(ratio, branching_factor(&tree(B), 2)));
}

// ---------------------------------------------------------------------------
// An independent implementation: labels bottom-up over level lists (no
// recursion, no early exit), root found by bisection on ln LHS(e^t) - N t.

fn independent_bf(t: &Tree, n: usize) -> f64 {
    // levels[k] = (parent index in levels[k-1], node) for the nodes at level k.
    let mut levels: Vec<Vec<(usize, &Tree)>> = vec![vec![(0, t)]];
    for k in 1..=n {
        let next = levels[k - 1]
            .iter()
            .enumerate()
            .flat_map(|(i, (_, node))| node.children.iter().map(move |c| (i, c)))
            .collect();
        levels.push(next);
    }
    let lhs = |b: f64| {
        let mut labels = vec![1.0; levels[n].len()];
        for k in (1..n).rev() {
            let mut sums = vec![0.0; levels[k].len()];
            for (j, &(parent, _)) in levels[k + 1].iter().enumerate() {
                sums[parent] += labels[j];
            }
            let cap = b.powf((n - k) as f64);
            labels = sums
                .into_iter()
                .map(|s| if s < cap { s } else { cap })
                .collect();
        }
        labels.iter().sum::<f64>()
    };
    if lhs(1.0) == 0.0 {
        return 0.0;
    }
    let hi = (t.children.len() as f64).ln();
    let f = |x: f64| lhs(x.exp()).ln() - n as f64 * x;
    bisect(0.0, hi, f).exp()
}

/// Root of a non-increasing `f` on `[lo, hi]` with `f(lo) >= 0 >= f(hi)`.
fn bisect(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn independent_implementation_on_seed_trees() {
    for (json, n) in [(A, 2), (B, 2), (C, 2), (THREE_PLY, 3), (THREE_PLY, 2)] {
        let t = tree(json);
        assert!(
            close(branching_factor(&t, n), independent_bf(&t, n)),
            "{json}"
        );
    }
}

// ---------------------------------------------------------------------------
// Properties on random trees up to depth 4 and branching 4.

fn arb_tree() -> impl Strategy<Value = Tree> {
    Just(Tree::leaf()).prop_recursive(4, 256, 4, |inner| {
        prop::collection::vec(inner, 0..=4).prop_map(Tree::node)
    })
}

/// Largest child count among nodes at levels `< n`.
fn max_fanout(t: &Tree, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let below = t.children.iter().map(|c| max_fanout(c, n - 1)).max();
    below.unwrap_or(0).max(t.children.len())
}

/// Adds a leaf child to the `k`-th node in preorder (modulo the node count).
fn add_leaf(t: &mut Tree, k: usize) {
    fn size(t: &Tree) -> usize {
        1 + t.children.iter().map(size).sum::<usize>()
    }
    fn walk(t: &mut Tree, k: &mut usize) -> bool {
        if *k == 0 {
            t.children.push(Tree::leaf());
            return true;
        }
        *k -= 1;
        t.children.iter_mut().any(|c| walk(c, k))
    }
    let mut k = k % size(t);
    assert!(walk(t, &mut k));
}

proptest! {
    #[test]
    fn ply_one_is_move_count(t in arb_tree()) {
        prop_assert_eq!(branching_factor(&t, 1), t.children.len() as f64);
    }

    #[test]
    fn agrees_with_independent_implementation(t in arb_tree(), n in 1usize..=4) {
        let (b, want) = (branching_factor(&t, n), independent_bf(&t, n));
        prop_assert!(close(b, want), "b = {}, independent = {}", b, want);
    }

    #[test]
    fn local_tree_agrees(t in arb_tree(), n in 1usize..=4, x in 0.0f64..5.0) {
        let lt = LocalTree::from_tree(&t);
        prop_assert_eq!(lt.lhs(n, x), lhs(&t, n, x));
        prop_assert_eq!(lt.branching_factor(n), branching_factor(&t, n));
        prop_assert_eq!(lt.beats(n, x), beats(&t, n, x));
    }

    #[test]
    fn b_ends_a_pair_of_adjacent_floats_where_the_test_flips(t in arb_tree(), n in 1usize..=4) {
        // The solver brackets the root down to adjacent floats lo < hi, lo failing the
        // test `LHS(x) < x^N` and hi passing it, and returns the one with the smaller
        // residual: the pair a full bisection ends on, however the bracket was cut.
        let b = branching_factor(&t, n);
        let passes = |x: f64| lhs(&t, n, x) < x.powi(n as i32);
        if b > 1.0 && b < t.children.len() as f64 {
            let (lo, hi) = if passes(b) { (b.next_down(), b) } else { (b, b.next_up()) };
            prop_assert!(!passes(lo) && passes(hi), "b = {}: no flip at [{}, {}]", b, lo, hi);
        }
    }

    #[test]
    fn adding_a_leaf_never_lowers_b(t in arb_tree(), k in 0usize..1000, n in 1usize..=4) {
        let mut bigger = t.clone();
        add_leaf(&mut bigger, k);
        prop_assert!(branching_factor(&bigger, n) >= branching_factor(&t, n) - 1e-12);
    }

    #[test]
    fn b_is_bounded(t in arb_tree(), n in 1usize..=4) {
        let b = branching_factor(&t, n);
        prop_assert!(b <= max_fanout(&t, n) as f64 + 1e-12);
        prop_assert!(b <= t.children.len() as f64);
        if t.count_at_level(n) == 0 {
            prop_assert_eq!(b, 0.0);
        } else {
            prop_assert!(b >= 1.0);
        }
    }

    #[test]
    fn forced_move_is_one(sub in arb_tree(), n in 2usize..=4) {
        let t = Tree::node(vec![sub]);
        let b = branching_factor(&t, n);
        prop_assert_eq!(b, if t.count_at_level(n) > 0 { 1.0 } else { 0.0 });
    }

    #[test]
    fn beats_matches_branching_factors(s in arb_tree(), t in arb_tree(), n in 1usize..=4) {
        let (bs, bt) = (branching_factor(&s, n), branching_factor(&t, n));
        prop_assume!((bs - bt).abs() > 1e-9);
        prop_assert_eq!(beats(&s, n, bt), bs < bt);
        prop_assert_eq!(beats(&t, n, bs), bt < bs);
    }

    #[test]
    fn min_polynomials_agree_with_the_solver(
        t in arb_tree(),
        n in 1usize..=4,
        wide in prop::collection::vec(prop::collection::vec(0usize..12, 0..8), 0..20),
    ) {
        // The selector's exact b under `min` (LocalTree::branching_factor_mean, by
        // polynomials) against the bisection of the explicit tree: random shapes
        // (deeper levels ignored, dead ends) and wide ones like a site's local tree
        // (up to 20 moves, each with up to 7 follow-ups of up to 11 leaves).
        let wide = Tree::node(
            wide.into_iter()
                .map(|kids| Tree::node(kids.into_iter().map(fan).collect()))
                .collect(),
        );
        for t in [t, wide] {
            let got = LocalTree::from_tree(&t).branching_factor_mean(n, Mean::Min);
            let want = branching_factor(&t, n);
            prop_assert!(
                (got - want).abs() <= 1e-13 * want,
                "ply {}: polynomials {} against {} on {:?}", n, got, want, t
            );
        }
    }

    #[test]
    fn dead_moves_change_no_b(t in arb_tree(), k in 0usize..6, at in 0usize..100, n in 2usize..=4) {
        // k childless moves (dead ends below ply 1) in the tree itself, somewhere
        // among the moves, against the same tree with them added by `add_dead_moves`
        // (as the selector's walks do): the same b, bit for bit, under every mean.
        let mut with = t.clone();
        let at = at % (with.children.len() + 1);
        for _ in 0..k {
            with.children.insert(at, Tree::node(vec![]));
        }
        let with = LocalTree::from_tree(&with);
        let mut added = LocalTree::from_tree(&t);
        added.add_dead_moves(k);
        prop_assert_eq!((with.moves(), with.len()), (added.moves(), added.len()));
        for mean in [Mean::Min, Mean::Power(-4.0), Mean::Power(-1.0)] {
            let (a, b) = (with.branching_factor_mean(n, mean), added.branching_factor_mean(n, mean));
            prop_assert_eq!(a.to_bits(), b.to_bits(), "{:?} ply {}: {} against {}", mean, n, a, b);
        }
    }

    #[test]
    fn beats_brackets_own_b(t in arb_tree(), n in 1usize..=4) {
        let b = branching_factor(&t, n);
        prop_assert!(!beats(&t, n, b * (1.0 - 1e-9)));
        prop_assert!(beats(&t, n, b * (1.0 + 1e-9) + 1e-12));
    }
}

/// The p-mean labelling (Rivest, game tree searching by min/max approximation) tends
/// to the min labelling as p -> -inf, and with M_p the note's tree (b) gets a b between
/// its min value (phi) and sqrt(3).
#[test]
fn pmean_tends_to_min() {
    let t = LocalTree::from_tree(&Tree::parse_json("[[[]],[[],[]]]").unwrap());
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    assert!((t.branching_factor_mean(2, Mean::Min) - phi).abs() < 1e-12);
    let mut last = f64::INFINITY;
    for p in [-1.0, -4.0, -16.0, -64.0, -256.0] {
        let b = t.branching_factor_mean(2, Mean::Power(p));
        assert!(
            b < last + 1e-12,
            "b must fall towards the min value as p decreases"
        );
        assert!(b > phi - 1e-9);
        last = b;
    }
    assert!((last - phi).abs() < 1e-2, "p = -256 gives {last}");
    // The least p the CLI takes: no underflow to an infinite label (QA: the plain
    // formula gave +inf from p = -500 on), and within 0.1% of the min.
    for (x, y) in [(2.0, 3.0), (1e3, 2e3), (0.5, 40.0), (7.0, 7.0)] {
        let m = Mean::Power(-1000.0).combine(x, y);
        assert!(
            m.is_finite() && m >= x.min(y) && m <= x.min(y) * 1.001,
            "{x} {y}: {m}"
        );
    }
    let b = t.branching_factor_mean(2, Mean::Power(-1000.0));
    assert!(b > phi - 1e-9 && b < last, "p = -1000 gives {b}");
    // A uniform tree has no min to soften beyond equal arguments: M_p(x, x) = x.
    let u = LocalTree::from_tree(&Tree::uniform(3, 2));
    assert!((u.branching_factor_mean(2, Mean::Power(-4.0)) - 3.0).abs() < 1e-9);
}

#[test]
fn leaf_runs_give_the_same_lhs_as_single_pushes() {
    // A level-1 node with 3 leaves, one with none, one with 2 (ply 2), and a ply-3
    // shape; `push_run` must give bit-identical LHS and b to single pushes.
    for (n, shape) in [
        (
            2usize,
            vec![(1usize, 1usize), (2, 3), (1, 1), (1, 1), (2, 2)],
        ),
        (
            3,
            vec![
                (1, 1),
                (2, 1),
                (3, 4),
                (2, 1),
                (3, 1),
                (1, 1),
                (2, 2),
                (3, 5),
            ],
        ),
    ] {
        let mut runs = LocalTree::new();
        let mut single = LocalTree::new();
        for &(level, k) in &shape {
            runs.push_run(level, k);
            for _ in 0..k {
                single.push(level);
            }
        }
        assert_eq!(runs.len(), single.len());
        assert_eq!(runs.moves(), single.moves());
        for b in [0.5, 1.0, 1.3, 2.0, 3.7] {
            for cap in [1.0, 2.5, f64::INFINITY] {
                assert_eq!(
                    runs.lhs_capped(n, b, cap).to_bits(),
                    single.lhs_capped(n, b, cap).to_bits()
                );
            }
        }
        assert_eq!(
            runs.branching_factor(n).to_bits(),
            single.branching_factor(n).to_bits()
        );
    }
}

/// A local tree of `k` level-1 nodes, node i with 1 + i % 5 children of 2 leaves
/// each: about 7k entries.
fn big_tree(k: usize) -> LocalTree {
    let mut lt = LocalTree::new();
    for i in 0..k {
        lt.push(1);
        for _ in 0..1 + i % 5 {
            lt.push(2);
            lt.push_run(3, 2);
        }
    }
    lt
}

#[test]
fn a_solve_is_stopped_between_and_within_its_passes() {
    // About 10 polls' worth of entries per pass (every 65,536 entries).
    let lt = big_tree(100_000);
    for (n, mean) in [(2, Mean::Min), (3, Mean::Min), (3, Mean::Power(-4.0))] {
        let mut polls = 0;
        let b = lt.branching_factor_mean_until(n, mean, &mut || {
            polls += 1;
            false
        });
        assert_eq!(
            b,
            Some(lt.branching_factor_mean(n, mean)),
            "ply {n} {mean:?}"
        );
        assert!(polls >= 10, "ply {n} {mean:?}: {polls} polls");
        // Stopped at the k-th poll: in the first pass (k = 2) or a later one.
        for k in [1, 2, 10, polls] {
            let mut left = k;
            let b = lt.branching_factor_mean_until(n, mean, &mut || {
                left -= 1;
                left == 0
            });
            assert_eq!(b, None, "ply {n} {mean:?} stopped at poll {k}");
            assert_eq!(left, 0, "asked again after saying stop");
        }
    }
}
