//! Random probes of the real search (Knuth 1975), and the exhaustive enumeration that gives
//! their `K → ∞` limit. The only part of the prediction that runs the search: it uses the
//! public `State` / `Select` API and never changes the search itself.

use crate::growth::models::owen::kind_index;
use crate::growth::models::sampled::{class_of, ProbeStats, SOLUTION};
use crate::puzzle::generate::SplitMix64;
use crate::puzzle::Puzzle;
use crate::search::rowscan::RowScan;
use crate::search::select::{Heuristic, Pick, Select};
use crate::search::state::State;

/// The class of the current node and its site: `(class, site, b)`.
fn classify<S: Select>(
    puzzle: &Puzzle,
    st: &mut State,
    sel: &mut S,
) -> (usize, Option<usize>, u32) {
    if st.depth() == st.max_depth() {
        return (SOLUTION, None, 0);
    }
    match sel.pick(st) {
        Pick::Dead => (class_of(0, 0), None, 0),
        Pick::Site(c) => {
            let b = st.count(c);
            let kind = kind_index(puzzle.cell_kind(c / puzzle.width, c % puzzle.width));
            (class_of(kind, b), (b > 0).then_some(c), b)
        }
    }
}

/// The `idx`-th set bit of `set`.
fn nth_bit(set: &[u64], mut idx: u32) -> u32 {
    for (k, &w) in set.iter().enumerate() {
        let n = w.count_ones();
        if idx < n {
            let mut x = w;
            for _ in 0..idx {
                x &= x - 1;
            }
            return (k * 64) as u32 + x.trailing_zeros();
        }
        idx -= n;
    }
    unreachable!("index beyond the set")
}

/// `k` random probes with heuristic `h`, seeded with `seed` (SplitMix64).
pub fn probes(puzzle: &Puzzle, h: Heuristic, k: usize, seed: u64) -> ProbeStats {
    probes_until(puzzle, h, k, seed, &|| false).expect("never stopped")
}

/// [`probes`], given up (None) once `stopped()` says so (asked every `ASK_EVERY`
/// probes): on the generic state a probe of an 8x8 takes microseconds, and a tree
/// choice may ask for millions.
pub fn probes_until(
    puzzle: &Puzzle,
    h: Heuristic,
    k: usize,
    seed: u64,
    stopped: &Stopped<'_>,
) -> Option<ProbeStats> {
    let mut st = State::new(puzzle);
    let mut stats = ProbeStats::new(st.max_depth(), k);
    let mut rng = SplitMix64::new(seed);
    // Mass 1 per probe; `ProbeStats::knuth` divides by K at the end (exact at the root).
    let pi = 1.0;
    let d0 = st.depth();
    let mut cands = vec![0u64; st.words];
    let mut path: Vec<usize> = Vec::with_capacity(st.max_depth());
    crate::with_selector!(h, &st, |sel| {
        for i in 0..k {
            if i % ASK_EVERY == 0 && stopped() {
                return None;
            }
            let mut w = 1.0;
            let (mut class, mut site, mut b) = classify(puzzle, &mut st, &mut sel);
            stats.root_class = class;
            loop {
                let d = st.depth() - d0;
                stats.visit(d, class, pi, w);
                let Some(c) = site else { break };
                st.candidates_into(c, &mut cands);
                let o = nth_bit(&cands, rng.below(b as u64) as u32);
                st.place(c, o);
                path.push(c);
                let (nc, ns, nb) = classify(puzzle, &mut st, &mut sel);
                stats.child(d, class, nc, pi * b as f64, w);
                w *= b as f64;
                (class, site, b) = (nc, ns, nb);
            }
            while let Some(c) = path.pop() {
                st.unplace(c);
            }
        }
    });
    Some(stats)
}

/// Knuth's estimate of the nodes of `puzzle`'s tree under `h`, from about `k` probes
/// (SplitMix64 `seed`).
///
/// The `scan` heuristics run on scan's tables ([`RowScan::prober`]) and stratify: the
/// top levels, down to the deepest whose nodes a pilot of 1,000 probes puts at `k / 8`
/// at most (and no deeper than the pilot reached), are counted exactly, and every node
/// of that level gets its share of the `k` probes (at least one). The top levels'
/// draws are where much of the variance is: on a tree of Puzzle C (2.0e11 nodes) the
/// spread of six seeds fell from 27% to 11% with a third of the time. The others take
/// `k` plain probes ([`probes`]).
pub fn estimate(puzzle: &Puzzle, h: Heuristic, k: usize, seed: u64) -> f64 {
    estimate_until(puzzle, h, k, seed, &|| false).expect("never stopped")
}

/// [`estimate`] per depth (index 0 = the root): exact above the stratified level.
pub fn estimate_per_depth(puzzle: &Puzzle, h: Heuristic, k: usize, seed: u64) -> Vec<f64> {
    per_depth_until(puzzle, h, k, seed, &|| false).expect("never stopped")
}

/// Knuth's estimate per depth from batches of probes (`batches`: the probes of each,
/// seeded `seed`, `seed + 1`, ...) for as long as `late()` allows: the first batch
/// always finishes (only `stop()` ends it), and the batches that finished are
/// averaged, weighted by their probes (the estimate is unbiased for any number). What
/// `auto` weighs a candidate by and `bench`'s check forecasts a setting by. None when
/// `stop()` was set.
pub fn per_depth_within(
    puzzle: &Puzzle,
    h: Heuristic,
    batches: impl IntoIterator<Item = usize>,
    seed: u64,
    stop: &Stopped<'_>,
    late: &Stopped<'_>,
) -> Option<Vec<f64>> {
    let (mut sum, mut probes) = (Vec::new(), 0usize);
    for (i, k) in batches.into_iter().enumerate() {
        let stopped = if i == 0 { stop } else { late };
        let Some(est) = per_depth_until(puzzle, h, k, seed + i as u64, stopped) else {
            break;
        };
        if sum.len() < est.len() {
            sum.resize(est.len(), 0.0);
        }
        for (a, b) in sum.iter_mut().zip(&est) {
            *a += b * k as f64;
        }
        probes += k;
        if late() {
            break;
        }
    }
    if stop() || probes == 0 {
        return None;
    }
    Some(sum.into_iter().map(|n| n / probes as f64).collect())
}

/// Probes between two questions to `stopped`.
/// A probe of `ply:4` on an 8x8 takes about 3 ms, one of scan's tables 0.3 µs: 64
/// answers a Ctrl-C within 0.2 s and costs the fastest probes well under 1%.
const ASK_EVERY: usize = 64;

/// Asked during the probes: has the run been stopped (Ctrl-C, `--timeout`)?
pub type Stopped<'a> = dyn Fn() -> bool + Sync + 'a;

/// [`estimate`], given up (None) once `stopped()` says so (Ctrl-C, a deadline), which
/// is asked every `ASK_EVERY` (64) probes.
pub fn estimate_until(
    puzzle: &Puzzle,
    h: Heuristic,
    k: usize,
    seed: u64,
    stopped: &Stopped<'_>,
) -> Option<f64> {
    Some(per_depth_until(puzzle, h, k, seed, stopped)?.iter().sum())
}

/// [`estimate_until`] per depth.
pub fn per_depth_until(
    puzzle: &Puzzle,
    h: Heuristic,
    k: usize,
    seed: u64,
    stopped: &Stopped<'_>,
) -> Option<Vec<f64>> {
    let Some(columns) = h.scan_columns(puzzle.width, puzzle.height) else {
        return Some(probes_until(puzzle, h, k, seed, stopped)?.knuth());
    };
    let st = State::new(puzzle);
    let tables = RowScan::new(&st, columns);
    let mut prober = tables
        .prober(&st)
        .expect("the hints-only state is in scan order");
    let mut rng = SplitMix64::new(seed);
    let pilot = 1000;
    let mut per_depth = vec![0.0; st.max_depth() + 1];
    for _ in 0..pilot {
        prober.probe(|b| rng.below(b), |d, w| per_depth[d] += w / pilot as f64);
    }
    let top = stratum(&per_depth, k);
    let each = probes_each(&per_depth, top, k, st.max_depth());
    let mut above = vec![0u64; top];
    let (mut below, mut probed) = (vec![0.0; st.max_depth() + 1], 0);
    prober.each_at(top, &mut above, &mut |pr| {
        for _ in 0..each {
            if probed % ASK_EVERY == 0 && stopped() {
                return false;
            }
            probed += 1;
            pr.probe(|b| rng.below(b), |d, w| below[d] += w);
        }
        true
    })?;
    // Each node of the level stands for the mean of its probes.
    for b in below.iter_mut() {
        *b /= each as f64;
    }
    for (b, &a) in below.iter_mut().zip(&above) {
        *b += a as f64;
    }
    Some(below)
}

/// The level a stratified estimate counts exactly down to: the deepest whose nodes
/// the `pilot` (per depth) puts at `k / 8` at most, and not past a level no pilot
/// probe reached (it may be rare, not small).
fn stratum(pilot: &[f64], k: usize) -> usize {
    let share = k as f64 / 8.0;
    pilot
        .iter()
        .take_while(|&&n| n > 0.0 && n <= share)
        .count()
        .max(1)
        - 1
}

/// The probes each node of level `top` gets of `k`; one at the bottom (`depth`), where
/// a probe from a solution counts exactly 1.
fn probes_each(pilot: &[f64], top: usize, k: usize, depth: usize) -> usize {
    match pilot.get(top) {
        Some(&n) if top < depth => (k as f64 / n.max(1.0)).ceil() as usize,
        _ => 1,
    }
}

/// How far [`levels_within`] counts a tree exactly before it probes, and how many
/// probes it shares among the nodes where it stopped.
#[derive(Debug, Clone, Copy)]
pub struct Spread {
    /// The most nodes of the level the probes start from.
    pub level_max: usize,
    /// The most nodes expanded above it, in all.
    pub walk_max: u64,
    /// The probes, shared evenly among the nodes of that level (each gets at least one).
    pub probes: usize,
}

/// The stratified estimate per depth for any heuristic, on the generic state (the
/// `scan` heuristics stratify on their tables in [`per_depth_until`], about 100x
/// faster per probe): `k` probes, levels of at most `k / 8` nodes, at most `k` nodes
/// (at least 1,000) counted exactly ([`levels_within`]). What `predict` reports for the
/// trees of heuristics other than scan. The flag: the tree was counted whole.
pub fn stratified_generic(
    puzzle: &Puzzle,
    h: Heuristic,
    k: usize,
    seed: u64,
    stopped: &Stopped<'_>,
) -> Option<(Vec<f64>, bool)> {
    let spread = Spread {
        level_max: (k / 8).max(1),
        walk_max: k.max(1000) as u64,
        probes: k,
    };
    let c = levels_within(puzzle, h, spread, seed, stopped, stopped, stopped)?;
    Some((c.per_depth, c.whole))
}

/// What [`levels_within`] found.
#[derive(Debug, Clone)]
pub struct Counted {
    /// The estimate per depth (index 0 = the root), exact down to `level`.
    pub per_depth: Vec<f64>,
    /// The deepest level counted exactly, the one the probes started from.
    pub level: usize,
    /// True when the tree was counted whole: exact per depth, and no probes drawn.
    pub whole: bool,
    /// The rounds of probes finished (0: the first was cut short, and scaled up).
    pub rounds: usize,
}

/// Chen's stratified estimate with the levels as strata, grown from the root: the tree
/// is expanded breadth first and counted exactly while the next level has at most
/// `spread.level_max` nodes and the expansion stays within `spread.walk_max` nodes
/// (and until `enough()`), then every node of the last level counted gets its share of
/// the probes (rounds of one probe each, until `late()`; a first round cut short is a
/// random sample of the level's nodes, scaled up to all of them).
///
/// Levels are counted rather than guessed from a pilot of plain probes because the
/// trees this is for are needle-like, which is why plain probes under-count them: on
/// Puzzle C with five hints `ply:2@16` has 17,059 nodes, never more than 1,540 on a
/// level, and 1 or 2 on each of levels 8-10; no plain probe of 10,000 got past level 8,
/// and the pilot-chosen stratum left the estimate at 127. Counted level by level, the
/// narrow levels are exact however deep they run. None when `stop()` was set.
pub fn levels_within(
    puzzle: &Puzzle,
    h: Heuristic,
    spread: Spread,
    seed: u64,
    stop: &Stopped<'_>,
    enough: &Stopped<'_>,
    late: &Stopped<'_>,
) -> Option<Counted> {
    let mut rng = SplitMix64::new(seed.wrapping_add(1));
    let mut st = State::new(puzzle);
    let depth = st.max_depth() - st.depth();
    let mut per_depth = vec![0.0; depth + 1];
    per_depth[0] = 1.0;
    let mut cands = vec![0u64; st.words];
    crate::with_selector!(h, &st, |sel| {
        // The level's nodes as their paths from the root: `level` placements (cell,
        // placement) each, one after another.
        let (mut paths, mut next) = (Vec::<(u32, u32)>::new(), Vec::new());
        // `nodes` on `level`, `walked` above it.
        let (mut level, mut nodes, mut walked, mut asked) = (0, 1usize, 0u64, 0usize);
        let whole = loop {
            next.clear();
            let mut over = walked + nodes as u64 > spread.walk_max;
            for node in 0..nodes {
                if over {
                    break;
                }
                asked += 1;
                if asked.is_multiple_of(ASK_EVERY) {
                    if stop() {
                        return None;
                    }
                    if enough() {
                        over = true;
                        break;
                    }
                }
                let path = &paths[node * level..][..level];
                replay(&mut st, path);
                if let Some((c, b)) = site(&mut st, &mut sel) {
                    st.candidates_into(c, &mut cands);
                    for i in 0..b {
                        next.extend_from_slice(path);
                        next.push((c as u32, nth_bit(&cands, i)));
                    }
                }
                undo(&mut st, path);
                over = next.len() / (level + 1) > spread.level_max;
            }
            if over {
                break false;
            }
            walked += nodes as u64;
            level += 1;
            std::mem::swap(&mut paths, &mut next);
            nodes = paths.len() / level;
            if nodes == 0 || level > depth {
                break true;
            }
            per_depth[level] = nodes as f64;
        };
        if whole {
            let level = depth;
            return Some(Counted {
                per_depth,
                level,
                whole,
                rounds: 0,
            });
        }
        // Each node of the level stands for the mean of its probes, below it. The rounds
        // take the nodes in one random order, so that a first round cut short by `late()`
        // is a random sample of them, scaled up to all.
        let mut order: Vec<u32> = (0..nodes as u32).collect();
        for i in (1..nodes).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let rounds = spread.probes.div_ceil(nodes).max(1);
        let (mut below, mut round) = (vec![0.0; depth + 1], vec![0.0; depth + 1]);
        let (mut done, mut rounds_done) = (0.0, 0);
        'rounds: for _ in 0..rounds {
            round.fill(0.0);
            for (m, &node) in order.iter().enumerate() {
                // Asked at every probe: one may take milliseconds (ply:2 on Eternity II).
                if stop() {
                    return None;
                }
                if (done > 0.0 || m > 0) && late() {
                    if done == 0.0 {
                        let scale = nodes as f64 / m as f64;
                        below
                            .iter_mut()
                            .zip(&round)
                            .for_each(|(b, r)| *b = r * scale);
                        done = 1.0;
                    }
                    break 'rounds;
                }
                let path = &paths[node as usize * level..][..level];
                replay(&mut st, path);
                probe(&mut st, &mut sel, level, &mut cands, &mut rng, &mut round);
                undo(&mut st, path);
            }
            below.iter_mut().zip(&round).for_each(|(b, r)| *b += r);
            done += 1.0;
            rounds_done += 1;
        }
        for (p, b) in per_depth.iter_mut().zip(&below).skip(level + 1) {
            *p = b / done;
        }
        Some(Counted {
            per_depth,
            level,
            whole,
            rounds: rounds_done,
        })
    })
}

/// Places a path's pieces, from the root down.
fn replay(st: &mut State, path: &[(u32, u32)]) {
    for &(c, o) in path {
        st.place(c as usize, o);
    }
}

/// Empties a path's cells, from the bottom up.
fn undo(st: &mut State, path: &[(u32, u32)]) {
    for &(c, _) in path.iter().rev() {
        st.unplace(c as usize);
    }
}

/// One plain probe down from the current node at depth `top`, adding each node it
/// passes below `top`, weighted by the product of the branchings above it, to `below`.
fn probe<S: Select>(
    st: &mut State,
    sel: &mut S,
    top: usize,
    cands: &mut [u64],
    rng: &mut SplitMix64,
    below: &mut [f64],
) {
    let (d0, mut w) = (st.depth() - top, 1.0);
    let mut filled = 0;
    while let Some((c, b)) = site(st, sel) {
        st.candidates_into(c, cands);
        st.place(c, nth_bit(cands, rng.below(b as u64) as u32));
        filled += 1;
        w *= b as f64;
        below[st.depth() - d0] += w;
    }
    for _ in 0..filled {
        st.unplace(st.last_placed().expect("the probe placed it"));
    }
}

/// The site the search branches on at the current node, with its placements; None at
/// a leaf (a solution, a dead pick, a site with none), as [`classify`] has it.
fn site<S: Select>(st: &mut State, sel: &mut S) -> Option<(usize, u32)> {
    if st.depth() == st.max_depth() {
        return None;
    }
    match sel.pick(st) {
        Pick::Site(c) if st.count(c) > 0 => Some((c, st.count(c))),
        _ => None,
    }
}

/// Every node of the tree, each with its exact probe reach probability as mass: the
/// expectation of [`probes`] for `K → ∞`. `None` when the tree has more than `max_nodes`.
pub fn enumerate(puzzle: &Puzzle, h: Heuristic, max_nodes: u64) -> Option<ProbeStats> {
    let mut st = State::new(puzzle);
    let mut stats = ProbeStats::new(st.max_depth(), 0);
    let mut budget = max_nodes;
    // A row of placements per depth: nothing is allocated per node.
    let mut cands = vec![0u64; (st.max_depth() + 1) * st.words];
    let ok = crate::with_selector!(h, &st, |sel| {
        let (class, site, b) = classify(puzzle, &mut st, &mut sel);
        stats.root_class = class;
        walk(
            puzzle,
            &mut st,
            &mut sel,
            (&mut stats, &mut cands),
            &mut budget,
            (class, site, b),
            1.0,
        )
    });
    ok.then_some(stats)
}

fn walk<S: Select>(
    puzzle: &Puzzle,
    st: &mut State,
    sel: &mut S,
    (stats, cands): (&mut ProbeStats, &mut [u64]),
    budget: &mut u64,
    (class, site, b): (usize, Option<usize>, u32),
    pi: f64,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let d = st.depth();
    let w = 1.0 / pi;
    stats.visit(d, class, pi, w);
    let Some(c) = site else { return true };
    let words = st.words;
    st.candidates_into(c, &mut cands[d * words..][..words]);
    for i in 0..b {
        let o = nth_bit(&cands[d * words..][..words], i);
        st.place(c, o);
        let child = classify(puzzle, st, sel);
        // Each child is the sampled one with probability 1/b, and then counts b times.
        stats.child(d, class, child.0, pi, w);
        let ok = walk(
            puzzle,
            st,
            sel,
            (stats, cands),
            budget,
            child,
            pi / b as f64,
        );
        st.unplace(c);
        if !ok {
            return false;
        }
    }
    true
}
