//! The N-ply average local branching factor of a tree of moves (after the note "The
//! N-ply average local branching factor", written about the Eternity puzzles).
//!
//! A site's local tree has the site as its root (level 0), the ways to tile
//! the site at level 1, and follow-up moves at deeper levels. For ply `N`,
//! label every level-`N` node 1 and every level-`k` node (`1 <= k < N`)
//! `min(b^(N-k), sum of its children's labels)`; a node above level `N` with
//! no children is a dead end and gets label 0, and levels below `N` are
//! ignored. The average local branching factor is the `b` that solves
//!
//! ```text
//! LHS(b) := sum of level-1 labels = b^N
//! ```
//!
//! and `b = 0` when no branch reaches level `N`. For `N = 1` it is the number
//! of moves; a uniform `b`-ary tree gives `b` at every ply; a forced first
//! move gives 1 whatever follows ("play it and rethink globally"). The seed
//! derives the number as the growth rate of a two-player game in which one
//! player picks the site and the other the move.
//!
//! Key fact, used by [`beats`] and [`branching_factor`]: for `b > 0`,
//! `LHS(b) / b^N` is strictly decreasing while `LHS > 0`. By induction from
//! the bottom, a level-`k` label divided by `b^(N-k)` equals
//! `min(1, (sum of the children's normalised labels) / b)`, which never
//! increases with `b`; the root adds one more factor `1/b`. Hence
//! `LHS(b*) < b*^N` holds exactly when the site's `b` is below `b*`, and the
//! root bracket is `[1, c1]` with `c1` the number of level-1 moves: at
//! `b = 1` every label is 0 or 1 and at least one level-1 label is 1, so
//! `LHS(1) >= 1`; and each level-1 label is at most `b^(N-1)`, so
//! `LHS(c1) <= c1^N`.
//!
//! Ties: a site only replaces the current best when it is strictly better, so
//! the solver, which scans cells in index order, keeps the lowest cell index
//! among equal branching factors.
//!
//! [`Tree`] is the explicit recursive form (tests, the CLI); [`LocalTree`] is
//! a flat preorder form the solver can fill while it explores, reusing one
//! buffer.

use serde_json::Value;

/// How a label combines its cap `b^(N-k)` with the sum of its children's labels.
/// `Min` is the note's rule; `Power(p)` (p < 0) is the generalized mean of Rivest's
/// "Game Tree Searching by Min/Max Approximation", `M_p(x, y) = ((x^p + y^p) / 2)^(1/p)`,
/// a soft min that tends to `min` as p -> -inf. Both are increasing and homogeneous of degree 1, so LHS(b)/b^N still
/// falls as b grows and the `beats` comparison stays exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mean {
    Min,
    Power(f64),
}

impl Mean {
    /// The label from its cap and its children's sum.
    #[inline]
    pub fn combine(self, cap: f64, sum: f64) -> f64 {
        match self {
            Mean::Min => cap.min(sum),
            // M_p(x, 0) = 0 for p < 0: a dead end stays a dead end.
            Mean::Power(_) if sum <= 0.0 || cap <= 0.0 => 0.0,
            // Scaled by the smaller argument m: M_p = m ((1 + (M/m)^p) / 2)^(1/p) with
            // (M/m)^p in (0, 1]. The plain form underflows x^p + y^p to 0 (a label
            // of +inf) once p is below about -300 for arguments above 10.
            Mean::Power(p) => {
                let (lo, hi) = (cap.min(sum), cap.max(sum));
                lo * ((1.0 + (hi / lo).powf(p)) / 2.0).powf(1.0 / p)
            }
        }
    }

    /// True when a label can never exceed its cap, so that summing may stop there.
    #[inline]
    pub fn caps(self) -> bool {
        matches!(self, Mean::Min)
    }
}

/// An explicit tree of moves: the root is the site, its children the moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    pub children: Vec<Tree>,
}

impl Tree {
    /// A node with no children.
    pub fn leaf() -> Tree {
        Tree::default()
    }

    /// A node with the given children.
    pub fn node(children: Vec<Tree>) -> Tree {
        Tree { children }
    }

    /// The complete `b`-ary tree of the given depth (`depth` 0 is a leaf).
    pub fn uniform(b: usize, depth: usize) -> Tree {
        if depth == 0 {
            return Tree::leaf();
        }
        Tree::node(vec![Tree::uniform(b, depth - 1); b])
    }

    /// Reads nested JSON lists, e.g. `[[[],[]],[[]]]`: the outer list is the
    /// root and each inner list a child.
    pub fn parse_json(text: &str) -> Result<Tree, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("tree JSON: {e}"))?;
        fn convert(value: &Value, path: &mut String) -> Result<Tree, String> {
            let Value::Array(items) = value else {
                return Err(format!(
                    "tree JSON: expected a list at {path}, found {value}"
                ));
            };
            let mut children = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                children.push(convert(item, path)?);
                path.truncate(len);
            }
            Ok(Tree { children })
        }
        convert(&value, &mut String::from("$"))
    }

    /// Length of the longest root-to-leaf path (a lone root has height 0).
    pub fn height(&self) -> usize {
        self.children
            .iter()
            .map(|c| c.height() + 1)
            .max()
            .unwrap_or(0)
    }

    /// Number of nodes at `level` (the root is level 0).
    pub fn count_at_level(&self, level: usize) -> usize {
        if level == 0 {
            return 1;
        }
        self.children
            .iter()
            .map(|c| c.count_at_level(level - 1))
            .sum()
    }
}

/// The ply the CLI uses when `--ply` is not given: the tree's height.
pub fn default_ply_for_tree(tree: &Tree) -> usize {
    tree.height()
}

/// Label of `node` at `level` for ply `n`; stops summing children as soon as
/// the cap `b^(n-level)` is reached, since the min is then decided.
fn label(node: &Tree, level: usize, n: usize, b: f64) -> f64 {
    if level == n {
        return 1.0;
    }
    let cap = b.powi((n - level) as i32);
    let mut sum = 0.0;
    for child in &node.children {
        sum += label(child, level + 1, n, b);
        if sum >= cap {
            return cap;
        }
    }
    sum
}

/// `LHS(b)`, the sum of the level-1 labels, or some value `>= cap` once the
/// partial sum reaches `cap` (labels are non-negative, so the rest cannot
/// bring it back below). `lhs_capped(t, n, b, f64::INFINITY) == lhs(t, n, b)`.
pub fn lhs_capped(tree: &Tree, n: usize, b: f64, cap: f64) -> f64 {
    assert!(n >= 1, "ply must be at least 1");
    assert!(b >= 0.0, "b must be non-negative, got {b}");
    let mut sum = 0.0;
    for child in &tree.children {
        sum += label(child, 1, n, b);
        if sum >= cap {
            break;
        }
    }
    sum
}

/// `LHS(b)`, the sum of the level-1 labels for ply `n`.
pub fn lhs(tree: &Tree, n: usize, b: f64) -> f64 {
    lhs_capped(tree, n, b, f64::INFINITY)
}

/// Whether the site's branching factor is strictly below `b_star`, decided
/// without solving for it: `LHS(b*) < b*^N` (see the module doc for why this
/// is exact). A dead-end site (`b = 0`) beats every `b_star > 0`; nothing
/// beats `b_star = 0`. Equal values do not beat, so ties keep the earlier
/// (lowest-index) site.
pub fn beats(tree: &Tree, n: usize, b_star: f64) -> bool {
    let target = b_star.powi(n as i32);
    lhs_capped(tree, n, b_star, target) < target
}

/// The average local branching factor for ply `n`, to within a couple of
/// ulps (well inside 1e-12).
pub fn branching_factor(tree: &Tree, n: usize) -> f64 {
    solve(n, tree.children.len(), |b, cap| lhs_capped(tree, n, b, cap))
}

/// Root of the strictly monotone `LHS(b)/b^N` against 1 on `[1, c1]`, bracketed
/// down to adjacent floats, using the same test as [`beats`] so that the two
/// agree. `lhs_capped(b, cap)` evaluates the tree's LHS.
fn solve(n: usize, c1: usize, lhs_capped: impl Fn(f64, f64) -> f64) -> f64 {
    solve_above(n, c1 as f64, lhs_capped)
}

/// As [`solve`] with `hi` a first guess of the upper end: it is doubled until
/// `LHS(hi) < hi^N` (needed for [`Mean::Power`], whose labels can exceed
/// `b^(N-k)`, so that `c1` is no longer a bound).
fn solve_above(n: usize, hi: f64, lhs_capped: impl Fn(f64, f64) -> f64) -> f64 {
    solve_above_until(n, hi, |b, cap| Some(lhs_capped(b, cap))).expect("never stopped")
}

/// [`solve_above`] with an `lhs_capped` that may give up (None, passed on).
fn solve_above_until(
    n: usize,
    hi: f64,
    mut lhs_capped: impl FnMut(f64, f64) -> Option<f64>,
) -> Option<f64> {
    assert!(n >= 1, "ply must be at least 1");
    // At b = 1 every label is 0 or 1: this counts level-1 moves reaching level n.
    let reaching = lhs_capped(1.0, f64::INFINITY)?;
    if reaching == 0.0 {
        return Some(0.0);
    }
    if reaching == 1.0 {
        return Some(1.0); // LHS(1) = 1^n: a forced move
    }
    // g(b) = LHS(b) - b^N: negative exactly when `lhs_capped(b, b^N) < b^N` (a capped
    // walk stops only past the target), the test of [`beats`].
    let mut g = |b: f64| Some(lhs_capped(b, f64::INFINITY)? - b.powi(n as i32));
    // Invariant: the root lies in [lo, hi], g(lo) >= 0 > g(hi); `g_lo`, `g_hi` are
    // their values (for the residuals at the end).
    let (mut lo, mut g_lo) = (1.0_f64, reaching - 1.0);
    let mut hi = hi.max(1.0);
    let mut g_hi = g(hi)?;
    while g_hi >= 0.0 && hi < 1e300 {
        (lo, g_lo) = (hi, g_hi);
        hi *= 2.0;
        g_hi = g(hi)?;
    }
    // While the bracket is wide, cut it at the Illinois point (regula falsi with
    // weights, halving the weight of an end kept twice) instead of the midpoint: a
    // few steps instead of about 55. An end moves by the bisection's test, so both
    // end on the same pair of adjacent floats wherever the test is monotone.
    let (mut w_lo, mut w_hi) = (g_lo, g_hi);
    let (mut kept, mut steps) = (0i8, 0);
    loop {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        let wide = hi - lo > 64.0 * f64::EPSILON * hi && steps < 64;
        let falsi = lo + (hi - lo) * (w_lo / (w_lo - w_hi));
        let x = if wide && falsi > lo && falsi < hi {
            falsi
        } else {
            mid
        };
        steps += 1;
        let gx = g(x)?;
        if gx < 0.0 {
            (hi, g_hi, w_hi) = (x, gx, gx);
            if kept == 1 {
                w_lo /= 2.0;
            }
            kept = 1;
        } else {
            (lo, g_lo, w_lo) = (x, gx, gx);
            if kept == -1 {
                w_hi /= 2.0;
            }
            kept = -1;
        }
    }
    // The end with the smaller relative residual |LHS(b) - b^N| / b^N.
    Some(
        if g_hi.abs() / hi.powi(n as i32) < g_lo.abs() / lo.powi(n as i32) {
            hi
        } else {
            lo
        },
    )
}

/// A local tree stored flat, in preorder, as the level of each node (the root
/// is implicit at level 0). The solver can `clear` it and `push` levels while
/// it explores, with no allocation once the buffer has grown.
///
/// An entry is `level | (run - 1) << 8`: `run` consecutive nodes at `level`
/// (`push` stores run 1; `push_run` a whole run of siblings, e.g. the leaves
/// below a node, in one entry).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalTree {
    levels: Vec<u32>,
    /// Childless level-1 nodes kept out of `levels` ([`LocalTree::add_dead_moves`]).
    dead_moves: usize,
}

impl LocalTree {
    pub fn new() -> LocalTree {
        LocalTree::default()
    }

    pub fn clear(&mut self) {
        self.levels.clear();
        self.dead_moves = 0;
    }

    /// Adds `k` level-1 nodes without children (dead moves) apart from the preorder:
    /// under `min` and every p-mean their label is 0, which changes no sum, so only
    /// [`LocalTree::moves`] (the bisection's bracket) and [`LocalTree::len`] count
    /// them. The same tree as `push_run(1, k)` anywhere, at no cost to the passes.
    pub fn add_dead_moves(&mut self, k: usize) {
        self.dead_moves += k;
    }

    /// Appends the next node in preorder. Panics unless `1 <= level <=` the
    /// previous node's level + 1 (the first node has level 1).
    pub fn push(&mut self, level: usize) {
        self.push_run(level, 1);
    }

    /// Appends `run` consecutive nodes at `level` (siblings with no children):
    /// the same tree as `run` calls of `push(level)`. A run of 0 appends nothing.
    pub fn push_run(&mut self, level: usize, run: usize) {
        if run == 0 {
            return;
        }
        let max = self.levels.last().map_or(1, |&l| (l & 0xFF) as usize + 1);
        assert!(
            (1..=max).contains(&level) && level < 256 && run <= 1 << 24,
            "preorder level {level} out of range 1..={max}"
        );
        self.levels.push(level as u32 | ((run - 1) as u32) << 8);
    }

    /// Number of nodes, the root excluded.
    pub fn len(&self) -> usize {
        self.dead_moves
            + self
                .levels
                .iter()
                .map(|&e| (e >> 8) as usize + 1)
                .sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        self.levels.is_empty() && self.dead_moves == 0
    }

    /// Bytes the record's entries take (a run of leaves is one entry; the buffer may
    /// have room for up to as many more, untouched).
    pub fn bytes(&self) -> usize {
        self.levels.len() * std::mem::size_of::<u32>()
    }

    /// The preorder form of `tree`.
    pub fn from_tree(tree: &Tree) -> LocalTree {
        fn walk(node: &Tree, level: usize, out: &mut LocalTree) {
            for child in &node.children {
                out.push(level);
                walk(child, level + 1, out);
            }
        }
        let mut out = LocalTree::new();
        walk(tree, 1, &mut out);
        out
    }

    /// Number of level-1 moves.
    pub fn moves(&self) -> usize {
        self.dead_moves
            + self
                .levels
                .iter()
                .filter(|&&e| e & 0xFF == 1)
                .map(|&e| (e >> 8) as usize + 1)
                .sum::<usize>()
    }

    /// As [`lhs_capped`]. One pass with a stack of per-level partial sums:
    /// when a node closes, its label is added to its parent's sum.
    pub fn lhs_capped(&self, n: usize, b: f64, cap: f64) -> f64 {
        self.lhs_mean(n, b, cap, Mean::Min)
    }

    /// As [`LocalTree::lhs_capped`] with labels combined by `mean`.
    pub fn lhs_mean(&self, n: usize, b: f64, cap: f64, mean: Mean) -> f64 {
        self.lhs_mean_until(n, b, cap, mean, &mut never)
            .expect("never stopped")
    }

    /// [`LocalTree::lhs_mean`], polling `halt` as [`LocalTree::close_in_preorder`]
    /// does: None once it says stop.
    fn lhs_mean_until(&self, n: usize, b: f64, cap: f64, mean: Mean, halt: Halt) -> Option<f64> {
        assert!(n >= 1, "ply must be at least 1");
        assert!(b >= 0.0, "b must be non-negative, got {b}");
        // sums[j] = labels of the closed children of the open level-(j-1) node.
        // The solver calls this per node: a stack buffer for the plies it uses.
        let mut stack = [0.0_f64; 16];
        let mut heap = Vec::new();
        let sums: &mut [f64] = if n + 2 <= stack.len() {
            &mut stack[..n + 2]
        } else {
            heap.resize(n + 2, 0.0);
            &mut heap
        };
        let close = |sums: &mut [f64], j: usize| {
            let label = if j == n {
                1.0
            } else {
                mean.combine(b.powi((n - j) as i32), sums[j + 1])
            };
            sums[j + 1] = 0.0;
            sums[j] += label;
        };
        self.close_in_preorder(
            n,
            sums,
            |sums, j| {
                close(sums, j);
                j == 1 && sums[1] >= cap
            },
            |sums, k| sums[n] += k as f64,
            halt,
        )
        .then_some(sums[1])
    }

    /// The pass under every walk of the tree up to level `n` (deeper nodes are
    /// ignored): nodes open in preorder, and each closes after its children, deepest
    /// first, by `close(acc, j)` for a node at level j. A run of leaves at level n
    /// (n >= 2) closes all but its last at once, by `leaves(acc, run - 1)` (each adds
    /// 1 to its parent's sum). `close` returning true ends the pass there. `halt` is
    /// asked before every [`POLL_ENTRIES`] entries: true abandons the pass, and it
    /// returns false (a big tree's pass takes a large fraction of a second).
    fn close_in_preorder<A: ?Sized>(
        &self,
        n: usize,
        acc: &mut A,
        mut close: impl FnMut(&mut A, usize) -> bool,
        mut leaves: impl FnMut(&mut A, usize),
        halt: Halt,
    ) -> bool {
        let mut open = 0; // level of the deepest open node at or above level n
        for chunk in self.levels.chunks(POLL_ENTRIES) {
            if halt() {
                return false;
            }
            for &e in chunk {
                let level = (e & 0xFF) as usize;
                if level > n {
                    continue;
                }
                let run = (e >> 8) as usize + 1;
                // Leaves below level 1 close with no check in between (each adds 1 to
                // an integer sum, exactly), so the first run - 1 close at once.
                let one_by_one = if level == n && n >= 2 { 1 } else { run };
                for _ in 0..one_by_one {
                    while open >= level {
                        if close(acc, open) {
                            return true;
                        }
                        open -= 1;
                    }
                    open = level;
                }
                if one_by_one < run {
                    leaves(acc, run - 1);
                }
            }
        }
        while open >= 1 {
            if close(acc, open) {
                return true;
            }
            open -= 1;
        }
        true
    }

    /// As [`lhs`].
    pub fn lhs(&self, n: usize, b: f64) -> f64 {
        self.lhs_capped(n, b, f64::INFINITY)
    }

    /// As [`beats`].
    pub fn beats(&self, n: usize, b_star: f64) -> bool {
        let target = b_star.powi(n as i32);
        self.lhs_capped(n, b_star, target) < target
    }

    /// As [`branching_factor`].
    pub fn branching_factor(&self, n: usize) -> f64 {
        solve(n, self.moves(), |b, cap| self.lhs_capped(n, b, cap))
    }

    /// The average local branching factor with labels combined by `mean`.
    pub fn branching_factor_mean(&self, n: usize, mean: Mean) -> f64 {
        self.branching_factor_mean_until(n, mean, &mut never)
            .expect("never stopped")
    }

    /// [`LocalTree::branching_factor_mean`], asking `halt` before every
    /// 65,536 entries (`POLL_ENTRIES`) of each of the solver's passes over the tree: None
    /// once it says stop. A tree of tens of millions of entries (`explain` at ply 4)
    /// takes seconds to solve, which a deadline or Ctrl-C need not wait for.
    pub fn branching_factor_mean_until(&self, n: usize, mean: Mean, halt: Halt) -> Option<f64> {
        if mean == Mean::Min && n == 2 {
            return self.two_ply_min(halt);
        }
        if mean == Mean::Min && n <= MIN_PLY_POLY {
            if let Some(b) = self.min_root(n, halt)? {
                return Some(b);
            }
        }
        solve_above_until(n, self.moves() as f64, |b, cap| {
            self.lhs_mean_until(n, b, cap, mean, halt)
        })
    }

    /// b under `min` without bisection. Fix, at some b, which side of every `min`
    /// wins: a label is then its cap x^(N-k) or the sum of its children's, so LHS is
    /// a polynomial q(x) with non-negative coefficients, of degree below N, and
    /// LHS(x) <= q(x) for every x (a min is at most either side), with equality at b.
    /// So when b is above the root r of LHS(x) = x^N, the positive root of
    /// q(x) = x^N (unique: q(x)/x^N falls) lies in [r, b): it is the next b. Started
    /// at b = inf (no cap wins), b falls until the sides repeat, at r; each side
    /// flips at most once. Some(None) if that takes too long (the caller bisects),
    /// None if `halt` stopped it.
    fn min_root(&self, n: usize, halt: Halt) -> Option<Option<f64>> {
        let mut b = f64::INFINITY;
        for _ in 0..64 {
            let q = self.min_polynomial(n, b, halt)?;
            if q[..n].iter().all(|&a| a == 0.0) {
                return Some(Some(0.0)); // nothing reaches level n
            }
            let next = polynomial_root(n, &q);
            if next >= b {
                return Some(Some(b));
            }
            b = next;
        }
        Some(None)
    }

    /// The polynomial LHS is at x near `b` (coefficients by power, `q[k]` of x^k):
    /// each label is its cap x^(N-k) where that is the smaller at b, else the sum of
    /// its children's (a leaf at level N is 1): [`LocalTree::lhs_mean`]'s pass, with
    /// polynomials for sums.
    fn min_polynomial(&self, n: usize, b: f64, halt: Halt) -> Option<Poly> {
        // sums[j]: the closed children of the open level-(j-1) node. A label at level
        // j has degree n - j at most, and a leaf's (level n) is 1.
        let mut sums = [[0.0; MIN_PLY_POLY + 1]; MIN_PLY_POLY + 2];
        // caps[j] = b^(n-j), the cap of a level-j label; at b = inf no cap wins (and
        // 0 * inf would be NaN).
        let caps: [f64; MIN_PLY_POLY + 1] =
            std::array::from_fn(|j| if j < n { b.powi((n - j) as i32) } else { 1.0 });
        let close = |sums: &mut [Poly], j: usize| {
            if j == n {
                sums[n][0] += 1.0;
                return;
            }
            let below = sums[j + 1];
            sums[j + 1] = [0.0; MIN_PLY_POLY + 1];
            let at_b = below[..n - j].iter().rev().fold(0.0, |acc, &a| acc * b + a);
            if b.is_finite() && caps[j] <= at_b {
                sums[j][n - j] += 1.0;
            } else {
                for (s, l) in sums[j].iter_mut().zip(below) {
                    *s += l;
                }
            }
        };
        self.close_in_preorder(
            n,
            &mut sums,
            |sums, j| {
                close(sums, j);
                false
            },
            |sums, k| sums[n][0] += k as f64,
            halt,
        )
        .then_some(sums[1])
    }

    /// [`LocalTree::min_root`] at ply 2, the selector's hot case, on the follow-up
    /// counts alone: with c_j the children of level-1 node j, q(x) = m x + s (s: the
    /// c_j below b, m: how many are not), whose root is r(s, m) = (m + sqrt(m^2 + 4s))
    /// / 2. It stops when (s, m) repeats, after at most one step per distinct c_j.
    fn two_ply_min(&self, halt: Halt) -> Option<f64> {
        let mut at = (u64::MAX, u64::MAX); // (s, m) of the last b
        let mut b = f64::INFINITY;
        loop {
            let (mut s, mut m) = (0u64, 0u64);
            // Per level-1 node, its children c (counted as they close).
            let mut c = 0u64;
            let close = |c: &mut u64, level: usize| {
                if level == 2 {
                    *c += 1;
                } else {
                    if (*c as f64) < b {
                        s += *c;
                    } else {
                        m += 1;
                    }
                    *c = 0;
                }
                false
            };
            if !self.close_in_preorder(2, &mut c, close, |c, k| *c += k as u64, halt) {
                return None;
            }
            if (s, m) == at {
                return Some(b);
            }
            if s == 0 && m == 0 {
                return Some(0.0); // no level-1 move reaches level 2 (the first pass)
            }
            at = (s, m);
            b = (m as f64 + ((m * m + 4 * s) as f64).sqrt()) / 2.0;
        }
    }
}

/// What a solver's pass asks, now and then, whether to give up: true stops it.
pub type Halt<'a> = &'a mut dyn FnMut() -> bool;

/// Entries of a [`LocalTree`] between two questions to a [`Halt`] (about a
/// millisecond of a pass).
const POLL_ENTRIES: usize = 1 << 16;

/// The [`Halt`] of a solve that runs to the end.
fn never() -> bool {
    false
}

/// Plies up to which [`LocalTree::branching_factor_mean`] solves `min` by polynomials.
const MIN_PLY_POLY: usize = 4;

/// Coefficients of a polynomial by power.
type Poly = [f64; MIN_PLY_POLY + 1];

/// The positive root of x^n = q(x) (q's coefficients non-negative, of degree below n,
/// not all 0): the root of phi(x) = 1 - sum_k q_k x^(k-n), which rises and is concave,
/// so Newton's steps from below stay below it and climb to it. max_k q_k^(1/(n-k)) is
/// below it (x^n >= q_k x^k there).
fn polynomial_root(n: usize, q: &Poly) -> f64 {
    let mut x = (0..n)
        .map(|k| q[k].powf(1.0 / (n - k) as f64))
        .fold(0.0, f64::max);
    loop {
        let (mut phi, mut slope) = (1.0, 0.0);
        for (k, &a) in q.iter().enumerate().take(n) {
            let t = a * x.powi(k as i32 - n as i32);
            phi -= t;
            slope += t * (n - k) as f64 / x;
        }
        let next = x - phi / slope;
        if next.is_nan() || next <= x {
            return x;
        }
        x = next;
    }
}

/// The text `plytile branching TREE [--ply N]` prints, e.g.
/// `b = 1.618033988749895 (ply 2, 2 level-1 moves, 3 level-2 nodes)`.
/// Without `ply` the tree's height is used (at least 1); with it, leaves
/// above level `ply` are dead ends and deeper levels are ignored.
pub fn cli_branching(tree_json: &str, ply: Option<usize>) -> Result<String, String> {
    let tree = Tree::parse_json(tree_json)?;
    let n = match ply {
        Some(0) => return Err("--ply must be at least 1".to_string()),
        Some(n) => n,
        None => default_ply_for_tree(&tree).max(1),
    };
    let b = branching_factor(&tree, n);
    let plural = |k: usize, word: &str| format!("{k} {word}{}", if k == 1 { "" } else { "s" });
    Ok(format!(
        "b = {b} (ply {n}, {}, {})",
        plural(tree.children.len(), "level-1 move"),
        plural(tree.count_at_level(n), &format!("level-{n} node")),
    ))
}
