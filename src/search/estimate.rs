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

/// The stratified estimate per depth for any heuristic, on the generic state (the
/// `scan` heuristics stratify on their tables in [`per_depth_until`], about 100x
/// faster per probe). A tree of at most `k` nodes (at least 1,000) is walked whole:
/// exact per depth. Otherwise the same rule as scan's: a pilot of 1,000 plain probes
/// picks the deepest level whose nodes it puts at `k / 8` at most, the tree above it
/// is walked and counted exactly, and every node of that level gets its share of the
/// `k` probes; a pilot that put the level too low (the walk passes `k` nodes) is
/// answered by the level above. What `predict` reports for the trees of heuristics
/// other than scan (for a hybrid `ply:N@D` the exact top levels are its dynamic part,
/// where plain probes draw their variance). The flag: the tree was walked whole.
pub fn stratified_generic(
    puzzle: &Puzzle,
    h: Heuristic,
    k: usize,
    seed: u64,
    stopped: &Stopped<'_>,
) -> Option<(Vec<f64>, bool)> {
    let mut rng = SplitMix64::new(seed.wrapping_add(1));
    let mut st = State::new(puzzle);
    let depth = st.max_depth() - st.depth();
    // First the whole tree, exact if it has at most k nodes (a needle-like tree that
    // the pilot's probes would not get down); then the pilot's level.
    let (mut top, mut pilot) = (depth, None::<Vec<f64>>);
    crate::with_selector!(h, &st, |sel| loop {
        let each = pilot.as_ref().map_or(1, |p| probes_each(p, top, k, depth));
        let mut strata = Strata {
            top,
            each,
            walked: 0,
            cap: k.max(1000) as u64,
            per_depth: vec![0.0; depth + 1],
            cands: vec![0u64; (top + 1) * st.words],
            words: st.words,
            path: Vec::with_capacity(depth),
            probed: 0,
        };
        let d0 = st.depth();
        match strata.walk(&mut st, &mut sel, d0, &mut rng, stopped) {
            Walk::Done => break Some((strata.per_depth, pilot.is_none())),
            Walk::Stopped => break None,
            Walk::TooBig if pilot.is_none() => {
                let p = probes_until(puzzle, h, 1000, seed, stopped)?.knuth();
                top = stratum(&p, k).min(depth - 1);
                pilot = Some(p);
            }
            Walk::TooBig if top > 0 => top -= 1,
            Walk::TooBig => unreachable!("the root alone is one node"),
        }
    })
}

/// How a walk of [`Strata`] ended.
enum Walk {
    Done,
    /// Past `cap` nodes above the level: try the level above.
    TooBig,
    Stopped,
}

/// One walk of [`stratified_generic`]: the tree above level `top` counted exactly,
/// `each` probes from every node of it.
struct Strata {
    top: usize,
    each: usize,
    walked: u64,
    cap: u64,
    per_depth: Vec<f64>,
    /// The placements of the walk's node at depth d in row d (`words` each), the
    /// probes' in row `top`: nothing is allocated per node.
    cands: Vec<u64>,
    words: usize,
    /// The cells a probe filled, to empty them again.
    path: Vec<usize>,
    probed: usize,
}

impl Strata {
    fn walk<S: Select>(
        &mut self,
        st: &mut State,
        sel: &mut S,
        d0: usize,
        rng: &mut SplitMix64,
        stopped: &Stopped<'_>,
    ) -> Walk {
        let d = st.depth() - d0;
        if d == self.top {
            for _ in 0..self.each {
                if self.probed.is_multiple_of(ASK_EVERY) && stopped() {
                    return Walk::Stopped;
                }
                self.probed += 1;
                self.probe(st, sel, d0, rng);
            }
            return Walk::Done;
        }
        self.walked += 1;
        if self.walked > self.cap {
            return Walk::TooBig;
        }
        self.per_depth[d] += 1.0;
        let Some((c, b)) = site(st, sel) else {
            return Walk::Done;
        };
        let w = self.words;
        st.candidates_into(c, &mut self.cands[d * w..][..w]);
        for i in 0..b {
            st.place(c, nth_bit(&self.cands[d * w..][..w], i));
            let r = self.walk(st, sel, d0, rng, stopped);
            st.unplace(c);
            if !matches!(r, Walk::Done) {
                return r;
            }
        }
        Walk::Done
    }

    /// One probe down from the current node, which stands for 1/`each` of itself.
    fn probe<S: Select>(&mut self, st: &mut State, sel: &mut S, d0: usize, rng: &mut SplitMix64) {
        let row = self.top * self.words..(self.top + 1) * self.words;
        let mut w = 1.0 / self.each as f64;
        loop {
            self.per_depth[st.depth() - d0] += w;
            let Some((c, b)) = site(st, sel) else { break };
            st.candidates_into(c, &mut self.cands[row.clone()]);
            let o = nth_bit(&self.cands[row.clone()], rng.below(b as u64) as u32);
            st.place(c, o);
            self.path.push(c);
            w *= b as f64;
        }
        while let Some(c) = self.path.pop() {
            st.unplace(c);
        }
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
