//! `ply:N` and `ply:N:adj`: branch on the site with the smallest N-ply average local
//! branching factor ("The N-ply average local branching factor"; the measure itself is in [`crate::branching`]).
//!
//! The local tree of an empty site s: level 1 = the legal placements at s; below a
//! level-k node (its k placements applied for real on the state, then taken back),
//! the follow-up placements
//! - `ply:N` (rule `one`): at the one empty cell adjacent to the k local placements
//!   with the fewest legal placements (ties: lowest cell index);
//! - `ply:N:adj`: at every empty cell adjacent to the local placements.
//!
//! When no empty cell is adjacent, the line continues unbranched to level N (label 1):
//! that is "nothing left to decide here", never a dead end. So a site whose b is 0
//! really proves the node dead: every placement at s leads to an empty cell with no
//! legal placement.
//!
//! The pick is the site with the smallest b, ties to the lowest cell index, as in
//! `mrv`; `ply:1` visits exactly the nodes of `mrv`. b* starts at the exact b of the
//! site with the fewest placements (lowest index among them), the best so far. The
//! other sites are then tried in cell-index order against b*: one after the best must
//! beat it strictly, one before it may tie (by a relative 1e-12, above rounding).
//! Selection never solves for b from scratch: a site beats b* exactly when
//! LHS(b*) < b*^N, evaluated with the labels capped at b*^(N-k), so a walk stops as
//! soon as a partial sum reaches its cap. Only a site that beats needs its exact b
//! (the new b*): its walk recorded its local tree ([`Ply::beats`]). At ply 2 most
//! sites are not walked at all: enough placements that leave every empty neighbour a
//! placement prove that LHS(b*) reaches the target ([`Ply::cannot_beat`]), a lower
//! bound, so the picks are those of the walks. A proof tests first the placements
//! found alive at its cell last time ([`alive_at_least`]), and proofs and walks skip
//! placements that starve a neighbour with few placements ([`Ply::drop_dead`]): the
//! count a proof needs and every sum a walk forms stay the same. The proofs, their
//! memo per shape and the narrowing of walks are in `proof.rs`; this file has the
//! walks, the pick and `scores` (for `explain`).

pub mod proof;

use super::mrv::Mrv;
use super::pick::{Named, Pick, Select};
use super::tables::ScanTables;
use crate::branching::{LocalTree, Mean};
use crate::search::limits::{stop_reason, Limits, Stop};
use crate::search::state::{pop_lowest, popcount, with_words, State};
use proof::{alive_at_least, narrow_by_tight_neighbours, Shapes, HINTS, NO_HINT};
use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A site must beat b*^N by this relative margin to replace the best: rounding in
/// b* can then never reorder two sites with the same tree.
const TIE: f64 = 1e-12;

/// A site's walk target (LHS(b*) must stay below it) and how many surviving
/// placements prove that it does not ([`Ply::cannot_beat`]; `u32::MAX`: no proof).
type Bound = (f64, u32);

/// The bounds for b*: strictly below it (`beats`), or at most equal (`ties`).
struct Bounds {
    beats: Bound,
    ties: Bound,
}

/// Largest ply supported.
pub const MAX_PLY: usize = 4;

/// `ply:N` (`adj`: `ply:N:adj`) as `--select` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyN {
    pub n: u8,
    /// Follow-ups at every adjacent empty cell, not the one with the fewest placements.
    pub adj: bool,
}

impl Named for PlyN {
    const SYNTAXES: &'static [(&'static str, &'static str)] = &[
        ("ply:N", "smallest N-ply average local branching factor (N = 1..=4), follow-ups at the adjacent cell with the fewest placements"),
        ("ply:N:adj", "as ply:N, follow-ups at every empty cell adjacent to the local placements"),
    ];
    type Selector = Ply;

    /// `ply:N` and `ply:N:adj` (`ply:N:one` is `ply:N`).
    fn parse(s: &str) -> Option<Result<PlyN, String>> {
        let rest = s.strip_prefix("ply:").filter(|_| !s.contains('@'))?;
        let mut parts = rest.split(':');
        let n = parts.next().and_then(|n| n.parse::<u8>().ok());
        let rule = parts.next();
        Some(match (n, rule, parts.next()) {
            (Some(n), None | Some("one") | Some("adj"), None)
                if (1..=MAX_PLY as u8).contains(&n) =>
            {
                Ok(PlyN {
                    n,
                    adj: rule == Some("adj"),
                })
            }
            _ => Err(format!(
                "bad heuristic '{s}': expected ply:N or ply:N:adj with N in 1..={MAX_PLY}"
            )),
        })
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let adj = if self.adj { ":adj" } else { "" };
        write!(f, "ply:{}{adj}", self.n)
    }

    fn selector(self, st: &State, _: &ScanTables) -> Ply {
        Ply::new(st, self.n as usize, self.adj)
    }

    /// ply:2's 3,195, about 5x per ply beyond.
    fn instructions_per_node(&self) -> f64 {
        3195.0 * 5f64.powi(self.n as i32 - 2)
    }
}

/// Why [`Ply::scores`] left the sites from some site on unscored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unscored {
    /// The deadline passed or Ctrl-C came.
    Stopped(Stop),
    /// The record of this site's local tree would hold more than the memory budget.
    TooBig { cell: usize },
}

/// What [`Ply::scores`] gives up at: its limits (a deadline, the Ctrl-C flag) and the
/// most bytes a walk's record may hold ([`LocalTree::bytes`]).
struct Halt {
    limits: Limits,
    flag: &'static AtomicBool,
    max_tree_bytes: usize,
}

pub struct Ply {
    n: usize,
    adj: bool,
    /// How labels combine cap and children: `min` (ply) or a p-mean (pmean).
    mean: Mean,
    words: usize,
    /// Scratch candidate sets, one per level: `cands[k * words..][..words]`.
    cands: Vec<u64>,
    /// Scratch for [`State::neighbour_room_w`]: `4 * words`.
    room: Vec<u64>,
    /// Scratch for [`State::keep_matching_w`]: `words`.
    keep: Vec<u64>,
    /// Per cell, placements that a proof there last found alive: the next proof at
    /// that cell tests them first ([`alive_at_least`]).
    hints: Vec<[u32; HINTS]>,
    /// What the proofs of this pick found per shape of untouched site.
    shapes: Shapes,
    /// The cells placed on the current local path (levels 1..=k).
    path: [usize; MAX_PLY],
    /// `pow[j]` = b*^j: the cap of a level-(N-j) label.
    pow: [f64; MAX_PLY + 1],
    /// Full local tree of a site that beat b*, to solve for its exact b.
    tree: LocalTree,
    /// Whether walks skip placements whose label is known to be 0 ([`Ply::drop_dead`]):
    /// off in [`Ply::scores`], which reports the size of the whole local tree.
    prune: bool,
    recording: bool,
    /// The limits of [`Ply::scores`]; None in a search, whose driver polls.
    halt: Option<Halt>,
    /// Walks poll `halt` after each placement they probe at levels 1..=`polled`: at
    /// every level in [`Ply::scores`] (all but the last two probe), so that a record
    /// passes its budget by at most one probe's nodes; at level 1 in a search (where
    /// `halt` is None), as before the budget.
    polled: usize,
    /// Why a walk of [`Ply::scores`] gave up, once one did: its sum is then partial.
    stopped: Option<Unscored>,
    /// Per (side of the cell being expanded, colour): the memo of
    /// `State::count_facing` for the one `children` call whose stamp it holds.
    facing: Vec<(u32, u32)>,
    stamp: u32,
    colours: usize,
}

impl Ply {
    pub fn new(st: &State, n: usize, adj: bool) -> Ply {
        Ply::with_mean(st, n, adj, Mean::Min)
    }

    /// `pmean:N:p`: the labelling of `ply:N` with its min replaced by the
    /// generalized mean M_p (Rivest).
    pub fn with_mean(st: &State, n: usize, adj: bool, mean: Mean) -> Ply {
        assert!((1..=MAX_PLY).contains(&n));
        Ply {
            n,
            adj,
            mean,
            words: st.words,
            cands: vec![0; (MAX_PLY + 1) * st.words],
            room: vec![0; 4 * st.words],
            keep: vec![0; st.words],
            hints: vec![[NO_HINT; HINTS]; st.cells()],
            shapes: Shapes::default(),
            path: [0; MAX_PLY],
            pow: [1.0; MAX_PLY + 1],
            tree: LocalTree::new(),
            prune: true,
            recording: false,
            halt: None,
            polled: 1,
            stopped: None,
            facing: vec![(0, 0); 4 * st.colours()],
            stamp: 0,
            colours: st.colours(),
        }
    }

    fn set_bound(&mut self, b: f64) {
        for j in 0..=self.n {
            self.pow[j] = b.powi(j as i32);
        }
    }

    /// Sum of the level-1 labels of site `s`, stopping once it reaches `cap`.
    fn root_sum(&mut self, st: &mut State, s: usize, cap: f64) -> f64 {
        self.children(st, s, 0, cap)
    }

    /// Adds the labels of the placements at `c`, children of a level-k node, stopping
    /// once the sum reaches `cap`.
    fn children(&mut self, st: &mut State, c: usize, k: usize, cap: f64) -> f64 {
        let leaves = k + 1 == self.n;
        if leaves && !self.recording {
            return count(st, c, k) as f64;
        }
        if k + 2 == self.n {
            return self.children_virtual(st, c, k, cap);
        }
        let w = self.words;
        st.candidates_into(c, &mut self.cands[k * w..][..w]);
        if !leaves {
            self.drop_dead(st, c, k);
        }
        let mut sum = 0.0;
        while let Some(o) = pop_lowest(&mut self.cands[k * w..][..w]) {
            if self.recording {
                self.tree.push(k + 1);
            }
            if leaves {
                sum += 1.0;
            } else {
                st.probe(c, o);
                self.path[k] = c;
                sum += self.label(st, k + 1);
                st.unprobe(c);
                if k < self.polled && self.halted() {
                    return sum;
                }
            }
            if sum >= cap {
                return sum;
            }
        }
        sum
    }

    /// Whether the limits of [`Ply::scores`] say to give up now (never in a search).
    #[inline]
    fn halted(&mut self) -> bool {
        self.halt.is_some() && self.scores_halted()
    }

    /// [`Ply::halted`] in [`Ply::scores`]: a deadline, Ctrl-C, or the record of the
    /// walk under way (of site `path[0]`) past the budget; between walks the record
    /// is the last site's, within it. Out of line: the search's loops stay as small.
    #[inline(never)]
    fn scores_halted(&mut self) -> bool {
        if let (Some(h), None) = (&self.halt, self.stopped) {
            self.stopped = match stop_reason(&h.limits, h.flag) {
                Some(why) => Some(Unscored::Stopped(why)),
                None => (self.tree.bytes() > h.max_tree_bytes)
                    .then_some(Unscored::TooBig { cell: self.path[0] }),
            };
        }
        self.stopped.is_some()
    }

    /// The label of a level-k node (k < N) whose path is placed on `st`.
    fn label(&mut self, st: &mut State, k: usize) -> f64 {
        let cap = self.pow[self.n - k];
        // With `min` a partial sum at the cap decides the label; a p-mean has no cap.
        let cut = if self.mean.caps() { cap } else { f64::INFINITY };
        // Empty cells adjacent to the local placements, in index order, deduplicated.
        let mut adjacent = [0usize; 4 * MAX_PLY];
        let mut m = 0;
        for &p in &self.path[..k] {
            for &nb in st.neighbours(p) {
                if nb != u32::MAX
                    && st.is_empty(nb as usize)
                    && !adjacent[..m].contains(&(nb as usize))
                {
                    adjacent[m] = nb as usize;
                    m += 1;
                }
            }
        }
        if m == 0 {
            if self.recording {
                for level in k + 1..=self.n {
                    self.tree.push(level);
                }
            }
            return self.mean.combine(cap, 1.0);
        }
        let adjacent = &mut adjacent[..m];
        adjacent.sort_unstable();
        let sum = if self.adj {
            let mut sum = 0.0;
            for &c in adjacent.iter() {
                sum += self.children(st, c, k, cut - sum);
                if sum >= cut {
                    break;
                }
            }
            sum
        } else {
            let mut best = (u32::MAX, usize::MAX);
            for &c in adjacent.iter() {
                best = best.min((count(st, c, k), c));
            }
            self.children(st, best.1, k, cut)
        };
        self.mean.combine(cap, sum)
    }

    /// `children(c, k)` for k = N - 2, without probing the placements at c: the
    /// label of each (a level N-1 node) only needs the counts of the empty cells
    /// adjacent to the local placements after that placement, and those follow from
    /// the counts before it. A cell next to c keeps its placements whose side facing
    /// c shows o's colour there; every cell loses the orientations of o's piece.
    /// Adds the same labels in the same order as probing would (same floats).
    fn children_virtual(&mut self, st: &mut State, c: usize, k: usize, cap: f64) -> f64 {
        let n_label = self.pow[self.n - k - 1];
        let cut = if self.mean.caps() {
            n_label
        } else {
            f64::INFINITY
        };
        // The empty cells adjacent to path[..k] and c, c excluded, in index order;
        // each with the side of c it touches (4 if none) and its count now.
        let mut adjacent = [(0usize, 4usize, 0u32); 4 * MAX_PLY];
        let mut m = 0;
        for (j, &p) in self.path[..k].iter().chain(std::iter::once(&c)).enumerate() {
            for (side, &nb) in st.neighbours(p).iter().enumerate() {
                let nb = nb as usize;
                if nb as u32 == u32::MAX || nb == c || !st.is_empty(nb) {
                    continue;
                }
                match adjacent[..m].iter_mut().find(|a| a.0 == nb) {
                    Some(a) if j == k => a.1 = side,
                    Some(_) => {}
                    None => {
                        adjacent[m] = (nb, if j == k { side } else { 4 }, 0);
                        m += 1;
                    }
                }
            }
        }
        let adjacent = &mut adjacent[..m];
        adjacent.sort_unstable();
        for a in adjacent.iter_mut() {
            if a.1 == 4 {
                a.2 = count(st, a.0, k);
            }
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.facing.fill((0, 0));
            self.stamp = 1;
        }
        let w = self.words;
        st.candidates_into(c, &mut self.cands[k * w..][..w]);
        self.drop_dead(st, c, k);
        let mut sum = 0.0;
        while let Some(o) = pop_lowest(&mut self.cands[k * w..][..w]) {
            let piece = o as usize / 4;
            if self.recording {
                self.tree.push(k + 1);
            }
            let label = if m == 0 {
                if self.recording {
                    for level in k + 2..=self.n {
                        self.tree.push(level);
                    }
                }
                self.mean.combine(n_label, 1.0)
            } else {
                // The follow-up counts after o, in index order.
                let mut after = [(0u32, 0usize); 4 * MAX_PLY];
                for (slot, &(a, side, now)) in after.iter_mut().zip(adjacent.iter()) {
                    let kk = if side == 4 {
                        now - st.piece_fits(a, piece, 0, 0).0
                    } else {
                        let facing = (side + 2) & 3;
                        let colour = st.edges[o as usize][side] as usize;
                        let key = facing * self.colours + colour;
                        if self.facing[key].0 != self.stamp {
                            self.facing[key] = (self.stamp, st.count_facing(a, facing, colour));
                        }
                        self.facing[key].1 - st.piece_fits(a, piece, facing, colour).1
                    };
                    *slot = (kk, a);
                }
                let after = &after[..m];
                let total = if self.adj {
                    let mut t = 0.0;
                    for &(kk, _) in after {
                        if self.recording {
                            self.tree.push_run(k + 2, kk as usize);
                        }
                        t += kk as f64;
                        if t >= cut {
                            break;
                        }
                    }
                    t
                } else {
                    let best = after.iter().min().unwrap().0;
                    if self.recording {
                        self.tree.push_run(k + 2, best as usize);
                    }
                    best as f64
                };
                self.mean.combine(n_label, total)
            };
            sum += label;
            if sum >= cap {
                return sum;
            }
        }
        sum
    }

    /// Drops from the placements at `c` (`cands` of level k, a level below N) some
    /// whose label is 0 under rule `one` (either mean: `combine(cap, 0)` is 0): those
    /// that starve an empty neighbour of c with few placements
    /// ([`State::keep_matching_w`]). That neighbour is then adjacent to the local
    /// placements with no placement left, so it is the fewest and the label's sum is
    /// 0. A 0 adds nothing to any sum that the walk or the solver for b forms, so the
    /// walk ends where it would have ended and b comes out the same, bit for bit. A
    /// recorded walk still counts the dropped level-1 nodes
    /// ([`LocalTree::add_dead_moves`]): the bisection's bracket reads their number.
    fn drop_dead(&mut self, st: &State, c: usize, k: usize) {
        if self.adj || !self.prune {
            return;
        }
        let w = self.words;
        let (cands, room, keep) = (
            &mut self.cands[k * w..][..w],
            &mut self.room[..],
            &mut self.keep[..],
        );
        let count_dead = self.recording && k == 0;
        let before = if count_dead { popcount(cands) } else { 0 };
        with_words!(w, N => narrow_by_tight_neighbours::<N>(st, c, cands, keep, room));
        if count_dead {
            let dead = before - popcount(cands);
            self.tree.add_dead_moves(dead as usize);
        }
    }

    /// Sets b* for the walks (`pow`) and returns the [`Bound`]s of the sites after the
    /// best (they must beat b*) and before it (a tie is enough).
    fn bound(&mut self, b_star: f64) -> Bounds {
        self.set_bound(b_star);
        let floor = b_star.min(1.0);
        let pow = self.pow[self.n];
        let bound = |target: f64| {
            let need = if self.n == 2 && target.is_finite() && floor > 0.0 {
                // A margin far above the rounding of the walk's float sum.
                (target * (1.0 + 1e-9) / floor).ceil().min(u32::MAX as f64) as u32
            } else {
                u32::MAX
            };
            (target, need)
        };
        Bounds {
            beats: bound(pow * (1.0 - TIE)),
            ties: bound(pow * (1.0 + TIE)),
        }
    }

    /// A cheap proof that site `s` does not beat b* (its walk would reach the target),
    /// for ply 2 only: a placement that leaves every empty neighbour of `s` a placement
    /// ([`State::kills_in_room_w`] false) has a follow-up count of at least 1, so its
    /// label is at least min(b*, 1) (`min`, a p-mean and the `adj` sum alike). `need`
    /// such placements ([`Ply::bound`]) put LHS(b*) over the target without any walk.
    /// False means "walk it": the walk decides exactly as before, so the picks do not
    /// change.
    ///
    /// The answer depends only on the placements at s and its empty neighbours, so
    /// sites of one [`State::untouched_shape`] share it within a pick ([`Shapes`]).
    fn cannot_beat(&mut self, st: &State, s: usize, need: u32) -> bool {
        if need > st.count(s) {
            return false;
        }
        let shape = st.untouched_shape(s);
        if let Some(known) = shape.and_then(|key| self.shapes.known(key, need)) {
            return known;
        }
        let (cands, keep, room) = (
            &mut self.cands[..self.words],
            &mut self.keep[..],
            &mut self.room[..],
        );
        // Compiled per common bitset length, as the depth-first loop is.
        let hints = &mut self.hints[s];
        let alive = with_words!(self.words, N => {
            alive_at_least::<N>(st, s, need, hints, cands, keep, room)
        });
        if let Some(key) = shape {
            self.shapes.learn(key, need, alive);
        }
        alive
    }

    /// The exact b of site `s` when it beats b* (its walk's LHS(b*) stays below
    /// `target`), else None.
    ///
    /// The walk that tests the site records its local tree on the way, so a site that
    /// beats is not walked again. Its walk went through every level-1 placement (the
    /// sum never reached the target); below them, a partial sum of a level-k node's
    /// children was cut once it reached its cap b*^(N-k) (under `min`). That loses
    /// nothing for any b <= b*: a label at b is at least (b/b*)^(N-k) times its value
    /// at b* (by induction from the leaves, labels 1), so the recorded children still
    /// sum to at least b^(N-k-1) b* > b^(N-k) at b, and the node's label is its cap
    /// b^(N-k), as with all its children. The recorded tree's LHS therefore equals the
    /// full one's up to b*, the site's b lies below b*, and both solvers end on the
    /// same floats there: the same b, bit for bit.
    fn beats(&mut self, st: &mut State, s: usize, target: f64) -> Option<f64> {
        let lhs = self.recorded_sum(st, s, target);
        (lhs < target).then(|| self.tree.branching_factor_mean(self.n, self.mean))
    }

    /// The exact b of site `s` (a full walk, recorded, then solved).
    fn exact(&mut self, st: &mut State, s: usize) -> f64 {
        self.record_all(st, s);
        self.tree.branching_factor_mean(self.n, self.mean)
    }

    /// Site `s` walked on its own and unpruned, as [`Ply::scores`] walked each site
    /// before sites shared walks: its exact b, and its record's nodes and bytes. For
    /// the test suite.
    #[doc(hidden)]
    pub fn exact_alone(&mut self, st: &mut State, s: usize) -> (f64, usize, usize) {
        self.prune = false;
        self.record_all(st, s);
        let b = self.tree.branching_factor_mean(self.n, self.mean);
        self.prune = true;
        (b, self.tree.len(), self.tree.bytes())
    }

    /// Records the whole local tree of site `s` in `tree` (cut short only when
    /// [`Ply::scores`] is told to stop).
    fn record_all(&mut self, st: &mut State, s: usize) {
        self.set_bound(f64::INFINITY);
        self.recorded_sum(st, s, f64::INFINITY);
    }

    /// [`Ply::root_sum`] with the walk's local tree recorded in `tree`.
    fn recorded_sum(&mut self, st: &mut State, s: usize, cap: f64) -> f64 {
        self.tree.clear();
        self.recording = true;
        let sum = self.root_sum(st, s, cap);
        self.recording = false;
        sum
    }

    /// Every empty site's exact b and local tree size (nodes), in cell order, handed
    /// to `each` with the state as `(cell, Some((b, nodes)))` (for `explain`). Once `deadline` passes
    /// or `stop` is set (Ctrl-C), or a site's recorded local tree would hold more than
    /// `max_tree_bytes` ([`LocalTree::bytes`]; a big board's inner site at ply 4 with
    /// `adj` needs gigabytes), the sites left are handed over as `(cell, None)` and the
    /// reason is returned. A site whose whole record fits is scored as without a
    /// budget, bit for bit.
    ///
    /// Sites with the same `Ply::reach_key` share one walk: far from the placed
    /// cells most sites do (on an empty board, all but those near the rim or a hint).
    pub fn scores<E>(
        &mut self,
        st: &mut State,
        deadline: Option<Instant>,
        stop: &'static AtomicBool,
        max_tree_bytes: usize,
        mut each: impl FnMut(&State, usize, Option<(f64, usize)>) -> Result<(), E>,
    ) -> Result<Option<Unscored>, E> {
        let halt = Halt {
            limits: Limits {
                deadline,
                ..Limits::default()
            },
            flag: stop,
            max_tree_bytes,
        };
        // `halted` reads the record between walks too: not one of a search's picks.
        self.tree.clear();
        (self.prune, self.halt, self.polled, self.stopped) = (false, Some(halt), MAX_PLY, None);
        let mut known: FxHashMap<Vec<u64>, (f64, usize)> = FxHashMap::default();
        let mut key = Vec::new();
        let mut result = Ok(());
        for s in 0..st.cells() {
            if !st.is_empty(s) {
                continue;
            }
            let score = if self.halted() {
                None
            } else {
                self.reach_key(st, s, &mut key);
                match known.get(&key) {
                    Some(&score) => Some(score),
                    None => {
                        self.record_all(st, s);
                        // Walks of ply 1 and 2 probe nothing, so poll none: the whole
                        // record is checked here.
                        if self.stopped.is_none() && self.tree.bytes() > max_tree_bytes {
                            self.stopped = Some(Unscored::TooBig { cell: s });
                        }
                        // A walk cut short holds no b: not solved. Solving a big
                        // tree takes longer than its walk (an empty 32x32 at ply 4
                        // with `adj`: about 1.5 times as long), so it polls the
                        // limits too, and a site whose solving they stop is not
                        // scored.
                        self.stopped
                            .is_none()
                            .then(|| self.solve_polled())
                            .flatten()
                            .map(|b| {
                                let score = (b, self.tree.len());
                                known.insert(key.clone(), score);
                                score
                            })
                    }
                }
            };
            result = each(st, s, score);
            if result.is_err() {
                break;
            }
        }
        let stopped = self.stopped;
        (self.prune, self.halt, self.polled, self.stopped) = (true, None, 1, None);
        result.map(|()| stopped)
    }

    /// The exact b of the recorded tree, solved under the limits of [`Ply::scores`]:
    /// None, with `stopped` set, when a deadline or Ctrl-C comes first.
    fn solve_polled(&mut self) -> Option<f64> {
        let h = self.halt.as_ref().expect("only in Ply::scores");
        let mut why = None;
        let b = self
            .tree
            .branching_factor_mean_until(self.n, self.mean, &mut || {
                why = stop_reason(&h.limits, h.flag);
                why.is_some()
            });
        if b.is_none() {
            self.stopped = why.map(Unscored::Stopped);
        }
        b
    }

    /// Everything the walk of empty site `s` in [`Ply::scores`] reads of the state,
    /// written into `key`: per cell within N - 1 steps of `s`, in one order of the
    /// offsets, 0 when it is off the board or filled (a walk treats both alike), else
    /// 1 and its legal placements (`fits & free`). A level-(k+1) placement is next to
    /// the k above it, so the cells whose placements a walk counts, lists or narrows
    /// by its probes (and the cells it asks whether they are empty) lie within N - 1
    /// steps, and it reads them only through those placements; cells are taken in
    /// index order, the same relative order at every site of the board. Two sites
    /// with one key thus have the same local tree, node for node, and the same b to
    /// the bit.
    #[doc(hidden)]
    pub fn reach_key(&self, st: &State, s: usize, key: &mut Vec<u64>) {
        key.clear();
        let r = self.n as isize - 1;
        let (w, h) = (st.width as isize, st.height as isize);
        let (row, col) = ((s / st.width) as isize, (s % st.width) as isize);
        for dr in -r..=r {
            let span = r - dr.abs();
            for dc in -span..=span {
                let (y, x) = (row + dr, col + dc);
                let c = (y * w + x) as usize;
                if !(0..h).contains(&y) || !(0..w).contains(&x) || !st.is_empty(c) {
                    key.push(0);
                } else {
                    key.push(1);
                    let at = key.len();
                    key.resize(at + self.words, 0);
                    st.candidates_into(c, &mut key[at..]);
                }
            }
        }
    }
}

/// Legal placements at empty `c` with k probes outstanding (the kept count when
/// there are none, invariant 7 of the state).
#[inline]
fn count(st: &State, c: usize, k: usize) -> u32 {
    if k == 0 {
        st.count(c)
    } else {
        st.count_fresh(c)
    }
}

impl Ply {
    /// The site among the empty cells `cells` (increasing index; `None`: every empty
    /// cell). Cells are tried in index order, so ties go to the lowest index.
    fn pick_among(&mut self, st: &mut State, cells: Option<&[u32]>) -> Pick {
        // ply:1 under `min` is mrv's rule (b = placements), so it takes mrv's pick:
        // over every empty cell that is the kept minimum, O(1) instead of a scan.
        if self.n == 1 && self.mean == Mean::Min {
            return match cells {
                None => Mrv.pick(st),
                Some(cells) => Mrv::among(st, cells),
            };
        }
        // The shapes' answers hold for this node only.
        self.shapes.clear();
        // The site with the fewest placements (the lowest index among them).
        let (fewest, first) = match cells {
            None => st.fewest().unwrap_or((0, usize::MAX)),
            Some(cells) => cells
                .iter()
                .map(|&c| (st.count(c as usize), c as usize))
                .min()
                .unwrap_or((0, usize::MAX)),
        };
        if fewest == 0 {
            return Pick::Dead;
        }
        // Its exact b is the first b*: a tight bound from the start (b <= placements
        // under `min`), so that most other sites are proven to lose without a walk.
        // It is the best so far, yet sites of lower index come before it in index
        // order: they take it over on a tie (`ties`), those after it must beat it.
        let mut best = first;
        let mut b_star = self.exact(st, first);
        if b_star == 0.0 {
            return Pick::Dead;
        }
        let mut bound = self.bound(b_star);
        for i in 0..cells.map_or(st.cells(), |c| c.len()) {
            let s = cells.map_or(i, |c| c[i] as usize);
            if s == first || !st.is_empty(s) {
                continue;
            }
            let (target, need) = if s < best { bound.ties } else { bound.beats };
            if self.cannot_beat(st, s, need) {
                continue;
            }
            if let Some(b) = self.beats(st, s, target) {
                (best, b_star) = (s, b);
                if b_star == 0.0 {
                    return Pick::Dead;
                }
                bound = self.bound(b_star);
            }
        }
        Pick::Site(best)
    }
}

impl Select for Ply {
    // `pick_among` starts with the fewest placements over every empty cell.
    const DEAD_ON_ZERO: bool = true;

    // On Eternity II a pick of pmean:4 near the root takes 40 ms (0.9 ms per node on
    // average): 4,096 nodes between polls let `--timeout 2` run 3.5 s. From 3 plies a
    // poll (a clock read, tens of nanoseconds) at every node costs nothing; ply:2's
    // nodes take about half a microsecond, so it polls every 64.
    fn check_every(&self) -> u32 {
        match self.n {
            1 => crate::search::limits::CHECK_EVERY,
            2 => 64,
            _ => 1,
        }
    }

    fn pick(&mut self, st: &mut State) -> Pick {
        self.pick_among(st, None)
    }

    fn pick_in(&mut self, st: &mut State, cells: &[u32]) -> Pick {
        self.pick_among(st, Some(cells))
    }
}
