//! The solution boards a parallel run keeps: one shelf for the whole run, holding only
//! the first `--keep` boards (in search order) of all the boards found so far.
//!
//! **Why.** A parallel run searches many subproblems (thousands with `--interleave on`),
//! and each may find solutions. Kept per subproblem, up to `--keep` boards each until
//! the final merge, the boards took subproblems x keep memory (gigabytes). The result
//! needs only the first `keep` boards in search order, so a board with `keep` boards
//! before it can never be among them: the shelf drops it at once.
//!
//! **How.** Every subproblem is a *holder* with its place in the search order (its
//! [`Rank`]). A holder's boards come in its own search order, after those of every
//! holder before it and before those of every holder after it (a subproblem given away
//! lies after the part its giver searched, [`super`]), so the shelf is a map
//! from rank to the holder's boards, a prefix of what it found. A board is taken while
//! the shelf holds fewer than `keep`; once full, only a board that comes before the
//! last one held, which is then dropped. Full, the shelf's last board only moves
//! earlier, so a holder whose board was refused is refused for good: it is *closed*,
//! and the rest of its solutions cost one atomic load each (no lock). The lock is taken
//! per board offered by an open holder, never per node.
//!
//! Memory: at most `keep` boards, plus the one each driver holds while offering it.
//! A checkpoint's records offer theirs at the start and get back the ones kept.
//!
//! **Gaps.** A checkpoint record may have found more boards than it holds (its run
//! kept fewer). Those boards are lost, so no board after them can be listed in its
//! place: the shelf takes only boards before the first such *gap*
//! ([`Shelf::mark_gap`]). A rerun with a larger `--keep` then lists what it can be
//! sure of, not a list with a hole in it.

use super::frontier::{penalty_key, Prefix};
use crate::puzzle::Board;
use crate::search::limits::{Sink, Stats};
use crate::search::select::{Order, Strategy};
use crate::search::state::State;
use std::cmp::Ordering as Cmp;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A subproblem's place in the search order: per placement of its prefix, the key
/// the search tries it by at its node (the cell and oriented piece in the natural move
/// order, its penalty and oriented piece under `--move-order penalty`); a prefix comes
/// before the prefixes below it. The order of `parallel::in_search_order`.
#[derive(Debug, Clone)]
pub struct Rank(Vec<(f64, u32)>);

impl Rank {
    /// The rank of `prefix` in a search with `s` (`st`: the root, left as found).
    pub fn of(st: &mut State, s: Strategy, prefix: &Prefix) -> Rank {
        Rank(match s.moves {
            Order::Natural => prefix.iter().map(|&(c, o)| (c as f64, o)).collect(),
            Order::Penalty => penalty_key(st, prefix),
        })
    }
}

impl Ord for Rank {
    fn cmp(&self, other: &Rank) -> Cmp {
        let pairs = self.0.iter().zip(&other.0);
        let mut first = pairs.map(|(x, y)| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        first
            .find(|o| o.is_ne())
            .unwrap_or_else(|| self.0.len().cmp(&other.0.len()))
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Rank) -> Option<Cmp> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Rank {
    fn eq(&self, other: &Rank) -> bool {
        self.cmp(other) == Cmp::Equal
    }
}

impl Eq for Rank {}

/// The boards of one run, at most `keep` (see the module doc).
#[derive(Debug)]
pub struct Shelf {
    keep: usize,
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Per holder with boards on the shelf, its first ones in its order.
    boards: BTreeMap<Rank, Vec<Board>>,
    /// Boards on the shelf.
    len: usize,
    /// The first holder that found boards it does not hold: boards from it on are
    /// refused (see the module doc).
    gap: Option<Rank>,
}

impl Shelf {
    pub fn new(keep: usize) -> Arc<Shelf> {
        Arc::new(Shelf {
            keep,
            inner: Mutex::new(Inner::default()),
        })
    }

    /// Takes `board`, the next of the holder of `rank`, if it is among the first `keep`
    /// known; drops the board it pushes past them. False when refused.
    fn offer(&self, rank: &Rank, board: Board) -> bool {
        if self.keep == 0 {
            return false;
        }
        let mut inner = self.inner.lock().unwrap();
        let inner = &mut *inner;
        if inner.gap.as_ref().is_some_and(|g| g <= rank) {
            return false;
        }
        if inner.len >= self.keep {
            // Full: the board must come before the last one held (a holder's next board
            // comes after all of its own).
            let mut last = inner.boards.last_entry().expect("full, so not empty");
            if *last.key() <= *rank {
                return false;
            }
            last.get_mut().pop();
            if last.get().is_empty() {
                last.remove();
            }
            inner.len -= 1;
        }
        match inner.boards.get_mut(rank) {
            Some(held) => held.push(board),
            None => {
                inner.boards.insert(rank.clone(), vec![board]);
            }
        }
        inner.len += 1;
        true
    }

    /// Marks the holder of `rank` as one that found boards the shelf never got (a
    /// checkpoint record written with a smaller `--keep`): the boards after its own are
    /// dropped, and later ones from it on refused. Call it after its boards are offered;
    /// the first gap in search order holds, whatever order the marks come in.
    pub fn mark_gap(&self, rank: Rank) {
        let mut inner = self.inner.lock().unwrap();
        let inner = &mut *inner;
        if inner.gap.as_ref().is_some_and(|g| *g <= rank) {
            return;
        }
        let after = inner.boards.split_off(&rank);
        for (r, boards) in after {
            if r == rank {
                inner.boards.insert(r, boards);
            } else {
                inner.len -= boards.len();
            }
        }
        inner.gap = Some(rank);
    }

    /// The boards held for `rank`, in its order.
    pub fn boards_of(&self, rank: &Rank) -> Vec<Board> {
        let inner = self.inner.lock().unwrap();
        inner.boards.get(rank).cloned().unwrap_or_default()
    }

    /// Every board held, in search order: the first `keep` found.
    pub fn take_all(&self) -> Vec<Board> {
        let mut inner = self.inner.lock().unwrap();
        inner.len = 0;
        std::mem::take(&mut inner.boards)
            .into_values()
            .flatten()
            .collect()
    }

    /// The slot of a holder of `rank`: what its search offers its boards through.
    pub fn slot(self: &Arc<Shelf>, rank: Rank) -> Slot {
        Slot(Arc::new(Holder {
            shelf: Arc::clone(self),
            rank,
            closed: AtomicBool::new(false),
        }))
    }

    /// Offers `boards` (a holder's first ones, in its order, such as a checkpoint
    /// record's) for `rank`.
    pub fn offer_all(self: &Arc<Shelf>, rank: Rank, boards: Vec<Board>) {
        let slot = self.slot(rank);
        for b in boards {
            if !slot.offer(b) {
                break;
            }
        }
    }
}

/// One holder's way to the shelf, carried by its search's [`crate::search::Limits`]: the
/// drivers offer every solution board through it instead of keeping it in their
/// [`Stats`] (which then keeps none).
#[derive(Debug, Clone)]
pub struct Slot(Arc<Holder>);

#[derive(Debug)]
struct Holder {
    shelf: Arc<Shelf>,
    rank: Rank,
    /// A board of this holder was refused: every later one is too.
    closed: AtomicBool,
}

impl Slot {
    /// Offers the holder's next solution board; false if it is not kept.
    pub fn offer(&self, board: Board) -> bool {
        self.0.offer(board)
    }

    /// The slot as its search's [`crate::search::Limits::shelf`] (no copy: the same holder).
    pub fn sink(&self) -> Arc<dyn Sink> {
        self.0.clone()
    }

    pub fn rank(&self) -> &Rank {
        &self.0.rank
    }
}

impl Sink for Holder {
    fn offer(&self, board: Board) -> bool {
        let h = self;
        if h.closed.load(Ordering::Relaxed) {
            return false;
        }
        let taken = h.shelf.offer(&h.rank, board);
        if !taken {
            h.closed.store(true, Ordering::Relaxed);
        }
        taken
    }
}

/// `stats` of the holder of `rank` with the boards it has on `shelf` (a search that
/// offered them there keeps none itself).
pub fn with_boards(shelf: &Shelf, rank: &Rank, mut stats: Stats) -> Stats {
    if stats.solutions_found > 0 {
        stats.solutions = shelf.boards_of(rank);
    }
    stats
}
