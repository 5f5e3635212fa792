//! `ply:N` (`search::select::ply`): shared walks, stopped and budgeted scores, and
//! what one pick's proofs remember per shape of site.

use plytile::puzzle::generate::{default_colours, generate};
use plytile::search::select::ply::proof::{Shapes, SHAPES};
use plytile::search::select::{Ply, Select, Unscored};
use plytile::search::state::pop_lowest;
use plytile::search::{State, Stop};
use std::sync::atomic::{AtomicBool, Ordering};

/// A 10x8 board with two pieces placed near a corner: sites of many kinds, and
/// many that share a reach.
fn board() -> State {
    let (rim, inner) = default_colours(10, 8);
    let mut st = State::new(&generate(10, 8, rim, inner, 7).unwrap());
    for cell in [11, 12] {
        let mut cands = vec![0; st.words];
        st.candidates_into(cell, &mut cands);
        st.place(cell, pop_lowest(&mut cands).unwrap());
    }
    st
}

/// `scores` on one board, every site as `(cell, Some((b, nodes)))` or None.
fn scores(
    p: &mut Ply,
    st: &mut State,
    stop: &'static AtomicBool,
) -> Vec<(usize, Option<(f64, usize)>)> {
    let mut out = Vec::new();
    let stopped = p.scores(st, None, stop, usize::MAX, |_, cell, score| {
        out.push((cell, score));
        Ok::<(), ()>(())
    });
    assert_eq!(stopped, Ok(None));
    out
}

#[test]
fn sites_that_share_a_reach_share_their_walk_bit_for_bit() {
    static NEVER: AtomicBool = AtomicBool::new(false);
    let mut st = board();
    for (n, adj) in [
        (1, false),
        (2, false),
        (2, true),
        (3, false),
        (3, true),
        (4, false),
    ] {
        let mut p = Ply::new(&st, n, adj);
        let shared = scores(&mut p, &mut st, &NEVER);
        let mut keys = std::collections::HashSet::new();
        for &(s, score) in &shared {
            let mut key = Vec::new();
            p.reach_key(&st, s, &mut key);
            keys.insert(key);
            // Each site on its own, as before sites shared walks.
            let (b, nodes, _) = p.exact_alone(&mut st, s);
            let (got_b, got_nodes) = score.unwrap();
            assert_eq!(
                (got_b.to_bits(), got_nodes),
                (b.to_bits(), nodes),
                "ply {n} adj {adj}, cell {s}"
            );
        }
        assert!(
            keys.len() < shared.len(),
            "ply {n}: {} walks for {} sites",
            keys.len(),
            shared.len()
        );
    }
}

#[test]
fn stopped_scores_hand_over_the_sites_left_unscored() {
    static STOP: AtomicBool = AtomicBool::new(false);
    let mut st = board();
    let mut p = Ply::new(&st, 3, false);
    let mut got = Vec::new();
    let stopped = p.scores(&mut st, None, &STOP, usize::MAX, |_, cell, score| {
        got.push((cell, score.is_some()));
        // Ctrl-C after the third site.
        STOP.store(got.len() == 3, Ordering::Relaxed);
        Ok::<(), ()>(())
    });
    assert_eq!(stopped, Ok(Some(Unscored::Stopped(Stop::Interrupted))));
    assert_eq!(got.len(), 78, "every empty site, scored or not");
    assert!(got[..3].iter().all(|g| g.1) && got[3..].iter().all(|g| !g.1));
    // The selector is a selector again: its pick and a full score as before.
    assert_eq!(p.pick(&mut st), Ply::new(&st, 3, false).pick(&mut st));
    STOP.store(false, Ordering::Relaxed);
    let again = scores(&mut p, &mut st, &STOP);
    assert!(again.iter().all(|s| s.1.is_some()));
}

/// A memory budget leaves every site whose record fits scored as without one, bit
/// for bit, and stops at the first that does not fit, whether a walk finds that
/// out on the way (ply 3, 4) or at its end (ply 2).
#[test]
fn a_memory_budget_stops_at_the_first_site_whose_record_does_not_fit() {
    static NEVER: AtomicBool = AtomicBool::new(false);
    let mut st = board();
    for (n, adj) in [(2, true), (3, true), (4, false)] {
        let mut p = Ply::new(&st, n, adj);
        let all = scores(&mut p, &mut st, &NEVER);
        let bytes: Vec<usize> = all
            .iter()
            .map(|&(s, _)| p.exact_alone(&mut st, s).2)
            .collect();
        // The first site that needs more than all before it: a budget of theirs.
        let i = (1..bytes.len())
            .find(|&i| bytes[i] > *bytes[..i].iter().max().unwrap())
            .unwrap();
        let budget = *bytes[..i].iter().max().unwrap();
        let most = *bytes.iter().max().unwrap();
        for (budget, stops_at) in [(budget, Some(i)), (most, None)] {
            let mut got = Vec::new();
            let stopped = p.scores(&mut st, None, &NEVER, budget, |_, cell, score| {
                got.push((cell, score));
                Ok::<(), ()>(())
            });
            let cut = stops_at.unwrap_or(all.len());
            let want = stops_at.map(|i| Unscored::TooBig { cell: all[i].0 });
            assert_eq!(stopped, Ok(want), "ply {n} adj {adj}, budget {budget}");
            let bits = |v: &[(usize, Option<(f64, usize)>)]| {
                v.iter()
                    .map(|&(c, s)| (c, s.map(|(b, size)| (b.to_bits(), size))))
                    .collect::<Vec<_>>()
            };
            assert_eq!(bits(&got[..cut]), bits(&all[..cut]));
            assert!(got[cut..].iter().all(|g| g.1.is_none()));
            assert_eq!(got.len(), all.len());
        }
    }
}

#[test]
fn shapes_answer_only_what_follows_from_a_proof() {
    let mut s = Shapes::default();
    assert_eq!(s.known(7, 3), None);
    s.learn(7, 5, true); // at least 5 placements survive
    assert_eq!(
        (s.known(7, 4), s.known(7, 5), s.known(7, 6)),
        (Some(true), Some(true), None)
    );
    s.learn(7, 9, false); // fewer than 9 do
    assert_eq!(
        (s.known(7, 8), s.known(7, 9), s.known(7, 12)),
        (None, Some(false), Some(false))
    );
    assert_eq!(s.known(8, 4), None, "another shape");
    for shape in 100..100 + SHAPES as u64 {
        s.learn(shape, 1, true);
    }
    assert_eq!(s.known(100 + SHAPES as u64 - 2, 1), Some(true));
    assert_eq!(s.known(100 + SHAPES as u64 - 1, 1), None, "full: not kept");
    s.clear();
    assert_eq!(s.known(7, 4), None, "a new pick knows nothing");
}
