//! Merging the results of the shards or jobs of one search into one (`plytile
//! merge`), each result checked first: counts that add up, boards the independent
//! checker accepts, shards that belong to the same search.

use crate::error::{InputError, Result};
use crate::puzzle::{fingerprint, Puzzle, MAX_SIDE};
use crate::search::checkpoint::checked_sum;
use crate::search::limits::Stop;
use crate::search::outcome::{try_absorb, Deepest, Merged, SolveResult, SymmetryPart};
use crate::search::select::{on_off, Order};

/// Sums results of shards or jobs of one search into one result (`plytile merge`);
/// [`merge_with`] without a puzzle.
pub fn merge(parts: &[(String, SolveResult)], keep: usize) -> Result<(SolveResult, Vec<String>)> {
    merge_with(parts, keep, None)
}

/// Sums results of shards or jobs of one search into one result (`plytile merge`),
/// each first checked by [`check_result`] (against `puzzle` when given).
///
/// Nodes per depth and solution counts are summed (per `--symmetry` tree too),
/// solutions gathered in search order (at most `keep`; in shard order from results
/// of older versions, see `boards_in_search_order`), the deepest node is the first
/// in search order of the deepest, `elapsed_s` is the longest run (the wall time when all ran at
/// once) and `threads` the sum. The result
/// is exhaustive only when every part is and the shards `0/n .. n-1/n` are all there.
/// Returns the result and warnings for stderr.
pub fn merge_with(
    parts: &[(String, SolveResult)],
    keep: usize,
    puzzle: Option<&Puzzle>,
) -> Result<(SolveResult, Vec<String>)> {
    let Some((first_name, first)) = parts.first() else {
        return Err(InputError::new("merge", "no results given"));
    };
    let mut warnings = Vec::new();
    let size = |r: &SolveResult| format!("{} {}x{}", r.puzzle, r.width, r.height);
    // Files from before the fingerprint have none: they merge by name alone.
    let known = parts
        .iter()
        .find_map(|(name, r)| Some((name, r.puzzle_fingerprint()?, r)));
    for (name, r) in parts {
        check_result(name, r, puzzle)?;
        match (known, r.puzzle_fingerprint()) {
            (Some((other, f, o)), Some(g)) if f != g => {
                let why = if o.puzzle != r.puzzle {
                    format!("{}, not {}", size(r), size(o))
                } else {
                    "other pieces or hints under the same name: the fingerprints differ".into()
                };
                return Err(InputError::new(
                    name,
                    format!("is a result of another puzzle than {other} ({why})"),
                ));
            }
            _ => {}
        }
    }
    // Before comparing them: a whole search beside shards differs from them in its
    // split depth too, which would say less.
    if let Some((name, _)) = parts.iter().find(|(_, r)| shards_of(r).is_none()) {
        return Err(InputError::new(
            name,
            "is a whole search (no --shard or --job): merge takes the results of `solve --shard i/n` or `solve --job FILE`, or of merge",
        ));
    }
    for (name, r) in &parts[1..] {
        // Equal fingerprints (checked above) make the same puzzle whatever its name: a
        // cluster may stage the file under another one.
        let same_pieces = r.puzzle_fingerprint().is_some() && first.puzzle_fingerprint().is_some();
        if same_pieces && r.puzzle != first.puzzle {
            warnings.push(format!(
                "{name}: its puzzle is named {}, that of {first_name} {}: the same pieces and hints (their fingerprints agree), merged as {}",
                r.puzzle, first.puzzle, first.puzzle
            ));
        }
        if let Some(why) = other_cut(r, first, first_name) {
            return Err(InputError::new(
                name,
                format!("{why}; merge the shards of one run"),
            ));
        }
        let facts = |r: &SolveResult| {
            // A shard stopped before its frontier was cut searched nothing and has no
            // split depth: it fits any.
            let depth = match r.split_depth {
                None if r.nodes == 0 => None,
                d => Some(d.map_or("none".into(), |d| d.to_string())),
            };
            [
                ("puzzle", (!same_pieces).then(|| size(r))),
                ("--select", Some(r.select.to_string())),
                ("--factor", Some(on_off(r.factor).to_string())),
                // It orders the boards (and which are kept), not the counts.
                ("--move-order", Some(r.move_order.to_string())),
                ("split depth", depth),
            ]
        };
        let differ: Vec<String> = (facts(r).into_iter().zip(facts(first)))
            .filter_map(|((what, a), (_, b))| match (a, b) {
                (Some(a), Some(b)) if a != b => Some(format!("{what} {a}, not {b}")),
                _ => None,
            })
            .collect();
        if !differ.is_empty() {
            return Err(InputError::new(
                name,
                format!(
                    "is not a part of the same search as {first_name} ({}); merge the shards or jobs of one search",
                    differ.join("; ")
                ),
            ));
        }
    }
    // Which shards are there? (Before the boards: a shard given twice, or one of
    // another split, holds boards of the others too.)
    let n = shards_of(first).map(|(_, n)| n);
    let mut seen = vec![None::<&str>; n.unwrap_or(0)];
    for (name, r) in parts {
        match (shards_of(r), n) {
            (Some((have, m)), Some(n)) if m == n => {
                for i in have {
                    if i >= n {
                        return Err(InputError::new(
                            name,
                            format!("shard {i}/{n} is out of range (0 <= i < n)"),
                        ));
                    }
                    match seen[i] {
                        Some(other) if other == name => {
                            return Err(InputError::new(
                                name,
                                "is given twice: it would be counted twice; give each shard once",
                            ))
                        }
                        Some(other) => {
                            return Err(InputError::new(
                                name,
                                format!("shard {i}/{n} is also in {other}: it would be counted twice; give one of them"),
                            ))
                        }
                        None => seen[i] = Some(name),
                    }
                }
            }
            _ => {
                return Err(InputError::new(
                    name,
                    format!(
                        "is {}, {first_name} {}: not shards of one split; merge the results of `solve --shard i/n` with one n, or of `solve --job FILE` with the jobs of one `split`",
                        part_name(r),
                        part_name(first)
                    ),
                ))
            }
        }
    }
    // The shards' trees are disjoint, so a board in two places was put there by hand.
    let (boards, at): (Vec<_>, Vec<_>) = parts
        .iter()
        .flat_map(|(name, r)| {
            r.solutions
                .iter()
                .enumerate()
                .map(move |(i, b)| (b, (name, i)))
        })
        .unzip();
    if let Some((a, b)) = crate::puzzle::verify::first_repeat(&boards) {
        let ((other, j), (name, i)) = (at[a], at[b]);
        return Err(InputError::new(
            name,
            format!("solution {} is the same board as solution {} of {other}: it would be counted twice", i + 1, j + 1),
        ));
    }
    check_found_at(parts)?;
    let missing: Vec<String> = (0..seen.len())
        .filter(|&i| seen[i].is_none())
        .map(|i| i.to_string())
        .collect();
    let complete = missing.is_empty();
    if !complete {
        warnings.push(format!(
            "shards missing: {} of {}; the sum is not the whole search",
            missing.join(", "),
            n.unwrap_or(0)
        ));
    }
    let mut order: Vec<(&str, &SolveResult)> = parts.iter().map(|(n, r)| (n.as_str(), r)).collect();
    order.sort_by_key(|(_, r)| shards_of(r).map(|(have, _)| have.first().copied()));
    let mut m = first.clone();
    m.split_depth = parts.iter().find_map(|(_, r)| r.split_depth);
    m.shard = None;
    m.merged = n.map(|of| Merged {
        shards: (0..of).filter(|&i| seen[i].is_some()).collect(),
        of,
    });
    m.threads = 0;
    m.solutions_found = 0;
    m.nodes = 0;
    m.resumed_nodes = 0;
    m.nodes_per_depth = Vec::new();
    m.solutions = Vec::new();
    m.solutions_from = Vec::new();
    m.deepest_from = None;
    m.elapsed_s = 0.0;
    m.subproblems = 0;
    m.exhaustive = complete;
    m.stopped_by = None;
    m.deepest = Deepest {
        depth: 0,
        board: Vec::new(),
    };
    // The trees of the shard that got furthest (a stopped one lists fewer; theirs
    // agree as far as they go).
    let furthest = parts
        .iter()
        .map(|(_, r)| &r.symmetry_parts)
        .max_by_key(|t| t.len());
    m.symmetry_parts = furthest.cloned().unwrap_or_default();
    for t in &mut m.symmetry_parts {
        (t.nodes, t.solutions_found) = (0, 0);
    }
    for &(name, r) in &order {
        let over = |e: String| InputError::new(name, format!("cannot be added to the others: {e}"));
        try_absorb(&mut m, r, keep).map_err(over)?;
        for (t, u) in m.symmetry_parts.iter_mut().zip(&r.symmetry_parts) {
            t.nodes = t
                .nodes
                .checked_add(u.nodes)
                .ok_or_else(|| over("symmetry_parts nodes sum past 2^64".into()))?;
            t.solutions_found = (t.solutions_found.checked_add(u.solutions_found))
                .ok_or_else(|| over("symmetry_parts solutions_found sum past 2^64".into()))?;
        }
    }
    boards_in_search_order(&mut m, &order, keep, &mut warnings);
    m.set_rate();
    Ok((m, warnings))
}

/// The shards of a split that `r` holds, and into how many the split cut: one for a
/// `--shard` or `--job` result, those it sums for a `merge` result, none for a whole
/// search.
fn shards_of(r: &SolveResult) -> Option<(Vec<usize>, usize)> {
    match (&r.shard, &r.merged) {
        (Some([i, n]), _) => Some((vec![*i], *n)),
        (None, Some(m)) => Some((m.shards.clone(), m.of)),
        (None, None) => None,
    }
}

/// Whether subproblem `from` can be in `r`'s share. In the natural move order a place
/// is the index in the frontier, which the split dealt out by k mod n; under
/// `--move-order penalty` places follow that order, and any may be a shard's.
fn in_share(r: &SolveResult, from: &[usize; 2]) -> bool {
    match shards_of(r) {
        Some((have, n)) if r.move_order == Order::Natural => have.contains(&(from[1] % n)),
        _ => true,
    }
}

/// What `r` is of a split, for messages: "shard 1/3", "a merge of shards 0, 2 of 3".
fn part_name(r: &SolveResult) -> String {
    match (&r.shard, &r.merged) {
        (Some([i, n]), _) => format!("shard {i}/{n}"),
        (None, Some(m)) => {
            let list: Vec<String> = m.shards.iter().map(|i| i.to_string()).collect();
            format!("a merge of shards {} of {}", list.join(", "), m.of)
        }
        (None, None) => "a whole search (no --shard or --job)".to_string(),
    }
}

/// Lists the boards of `parts` (in shard order, summed into `m` by [`try_absorb`]) as
/// the whole search would: the first `keep` solutions in search order, and the first
/// deepest board in search order. A shard's boards are in its own search order, and
/// `solutions_from` and `deepest_from` say where each comes in the whole search's
/// (shard i of n holds the frontier's subproblems i, i + n, ...). Results of older
/// versions do not say: their boards stay in shard order, with a warning.
fn boards_in_search_order(
    m: &mut SolveResult,
    parts: &[(&str, &SolveResult)],
    keep: usize,
    warnings: &mut Vec<String>,
) {
    let keyed = |r: &SolveResult| r.solutions_from.len() == r.solutions.len();
    let with_boards: Vec<_> = parts
        .iter()
        .filter(|(_, r)| !r.solutions.is_empty())
        .collect();
    let old_boards = with_boards.iter().find(|(_, r)| !keyed(r)).map(|p| p.0);
    match old_boards {
        Some(_) => m.solutions_from.clear(),
        None => {
            let mut all: Vec<([usize; 2], &Vec<[usize; 2]>)> = parts
                .iter()
                .flat_map(|(_, r)| r.solutions_from.iter().copied().zip(&r.solutions))
                .collect();
            // Stable: one subproblem's boards are all in one part, in its order.
            all.sort_by_key(|&(from, _)| from);
            all.truncate(keep);
            m.solutions = all.iter().map(|&(_, b)| b.clone()).collect();
            m.solutions_from = all.iter().map(|&(from, _)| from).collect();
            // A part that kept fewer boards than it found (its --keep) may have left
            // out boards that come before later ones of the others.
            let cut = parts
                .iter()
                .filter(|(_, r)| (r.solutions.len() as u64) < r.solutions_found)
                .map(|&(name, r)| (r.solutions_from.last().copied(), name, r))
                .min_by_key(|(last, _, _)| *last);
            if let Some((last, name, r)) = cut {
                let sure = m
                    .solutions_from
                    .iter()
                    .filter(|&&f| Some(f) <= last)
                    .count();
                // Past them, a board it dropped may come first: no list with a hole (and
                // a merge of this result takes the list as sure).
                if sure < m.solutions.len() {
                    m.solutions.truncate(sure);
                    m.solutions_from.truncate(sure);
                    warnings.push(format!(
                        "{name} kept {} of its {} solution boards (its --keep), and a board it dropped may come before the next of the others: {sure} listed; solve the shards with --keep {} or more",
                        r.solutions.len(),
                        r.solutions_found,
                        keep
                    ));
                }
            }
        }
    }
    // The deepest: the first in search order of the parts' deepest boards at the
    // greatest depth (try_absorb took the first in shard order).
    let tied: Vec<_> = parts
        .iter()
        .filter(|(_, r)| r.deepest.depth == m.deepest.depth && !r.deepest.board.is_empty())
        .collect();
    let old_deepest = tied
        .iter()
        .find(|(_, r)| r.deepest_from.is_none())
        .map(|p| p.0);
    match old_deepest {
        Some(_) => m.deepest_from = None,
        None => {
            let first = tied.iter().min_by_key(|(_, r)| r.deepest_from);
            if let Some((_, r)) = first {
                m.deepest.clone_from(&r.deepest);
                m.deepest_from = r.deepest_from;
            }
        }
    }
    let boards = old_boards.filter(|_| with_boards.len() > 1);
    let deepest = old_deepest.filter(|_| tied.len() > 1);
    let what = match (boards, deepest) {
        (Some(_), Some(_)) => "the solution boards are listed shard by shard and the deepest board is the first shard's",
        (Some(_), None) => "the solution boards are listed shard by shard",
        (None, Some(_)) => "the deepest board is the first shard's of that depth",
        (None, None) => return,
    };
    let name = boards.or(deepest).expect("one of them");
    warnings.push(format!(
        "{name} does not say where its boards were found (solutions_from, deepest_from: a result of an older plytile): {what}, not in search order"
    ));
}

/// Checks the `solutions_from` of `parts`, where their boards were found: one entry
/// per board, each of a tree the result searched, in search order within a part, and
/// no subproblem in two parts (each shard has its own).
fn check_found_at(parts: &[(String, SolveResult)]) -> Result<()> {
    let mut all = Vec::new();
    for (name, r) in parts {
        let from = &r.solutions_from;
        let bad = |m: String| {
            Err(InputError::new(
                name,
                format!("{m}: the file was edited or damaged; {}", r.redo()),
            ))
        };
        // [0, 0] also stands for a deepest board above the frontier (no subproblem).
        if let Some(f) = r.deepest_from.filter(|f| *f != [0, 0] && !in_share(r, f)) {
            return bad(format!(
                "deepest_from names subproblem {}, which is not in the share of {}",
                f[1],
                part_name(r)
            ));
        }
        if from.is_empty() {
            continue;
        }
        if from.len() != r.solutions.len() {
            return bad(format!(
                "solutions_from has {} entries for {} solution boards",
                from.len(),
                r.solutions.len()
            ));
        }
        let trees = r.symmetry_parts.len().max(1);
        if let Some(k) = from.iter().position(|f| f[0] >= trees) {
            return bad(format!(
                "solutions_from {} names tree {}, but the result searched {trees}",
                k + 1,
                from[k][0]
            ));
        }
        if let Some(k) = from.iter().position(|f| !in_share(r, f)) {
            return bad(format!(
                "solutions_from {} names subproblem {}, which is not in the share of {}",
                k + 1,
                from[k][1],
                part_name(r)
            ));
        }
        if let Some(k) = from.windows(2).position(|w| w[1] < w[0]) {
            return bad(format!(
                "solutions_from is not in search order ({} is {:?}, {} {:?})",
                k + 1,
                from[k],
                k + 2,
                from[k + 1]
            ));
        }
        all.extend(from.iter().enumerate().map(|(i, f)| (*f, name, i)));
    }
    all.sort();
    if let Some(w) = all
        .windows(2)
        .find(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
    {
        let ((f, other, j), (_, name, i)) = (w[0], w[1]);
        return Err(InputError::new(
            name,
            format!(
                "solution {} was found in subproblem {f:?}, as was solution {} of {other}: each subproblem is one shard's; merge the shards of one run",
                i + 1,
                j + 1
            ),
        ));
    }
    Ok(())
}

/// The checks of [`check_result`] that need no puzzle and come before the depths:
/// the board's size, the kept and deepest boards' cells, the `--symmetry` trees and
/// their sums.
fn check_shape(name: &str, r: &SolveResult) -> Result<()> {
    let bad = |m: String| Err(InputError::new(name, m));
    let (w, h) = (r.width, r.height);
    if !(2..=MAX_SIDE).contains(&w) || !(2..=MAX_SIDE).contains(&h) {
        return bad(format!(
            "is of a {w}x{h} board; each side must be 2..={MAX_SIDE}"
        ));
    }
    let cells = w * h;
    let fits = |&[piece, rot]: &[usize; 2]| piece < cells && rot <= 3;
    let not_placement = |what: String, [piece, rot]: [usize; 2]| {
        bad(format!(
            "{what} holds [{piece}, {rot}], which is no placement on a {w}x{h} board (piece below {cells}, rotation 0 to 3)"
        ))
    };
    for (i, b) in r.solutions.iter().enumerate() {
        if b.len() != cells {
            return bad(format!(
                "solution {} has {} cells, a {w}x{h} board has {cells}",
                i + 1,
                b.len(),
            ));
        }
        if let Some(c) = b.iter().position(|x| !fits(x)) {
            return not_placement(format!("solution {} cell {c}", i + 1), b[c]);
        }
    }
    let deepest = &r.deepest.board;
    if !deepest.is_empty() && deepest.len() != cells {
        return bad(format!(
            "deepest.board has {} cells, a {w}x{h} board has {cells}",
            deepest.len()
        ));
    }
    if let Some((c, x)) =
        (deepest.iter().enumerate()).find_map(|(c, x)| x.filter(|x| !fits(x)).map(|x| (c, x)))
    {
        return not_placement(format!("deepest.board cell {c}"), x);
    }
    // --symmetry's trees.
    let parts = &r.symmetry_parts;
    let turns = if w == h { 4 } else { 2 };
    if r.symmetry != 1 && r.symmetry != turns || r.symmetry == 1 && !parts.is_empty() {
        return bad(format!(
            "symmetry is {} with {} symmetry_parts; a {w}x{h} board has 1 (no parts) or {turns}",
            r.symmetry,
            parts.len()
        ));
    }
    let most_parts = if w == h { 3 } else { 2 };
    if parts.len() > most_parts {
        return bad(format!(
            "lists {} symmetry_parts; --symmetry searches at most {most_parts} trees of a {w}x{h} board",
            parts.len()
        ));
    }
    let fixed = parts.first().map_or(0, |t| t.corners.len());
    for (i, t) in parts.iter().enumerate() {
        if !(1..=2).contains(&t.corners.len()) || t.corners.len() != fixed {
            return bad(format!(
                "symmetry part {} fixes {} corners, part 1 {fixed} (each tree fixes 1 or 2)",
                i + 1,
                t.corners.len()
            ));
        }
        let corner = |&[row, col, piece, rot]: &[usize; 4]| {
            (row == 0 || row == h - 1) && (col == 0 || col == w - 1) && piece < cells && rot <= 3
        };
        if let Some(c) = t.corners.iter().find(|c| !corner(c)) {
            return bad(format!(
                "symmetry part {} fixes {c:?}, which is no [row, col, piece, rotation] of a corner of a {w}x{h} board",
                i + 1
            ));
        }
        if let Some(j) = parts[..i].iter().position(|u| u.corners == t.corners) {
            return bad(format!(
                "symmetry part {} repeats part {}: the same tree would be counted twice",
                i + 1,
                j + 1
            ));
        }
    }
    let part_nodes = checked_sum(parts.iter().map(|t| t.nodes));
    let part_found = checked_sum(parts.iter().map(|t| t.solutions_found));
    let (Some(part_nodes), Some(_)) = (part_nodes, part_found) else {
        return bad("symmetry_parts' counts sum past 2^64".into());
    };
    if !parts.is_empty() && part_nodes != r.nodes {
        return bad(format!(
            "symmetry_parts' nodes sum to {part_nodes}, not nodes {}",
            r.nodes
        ));
    }
    if r.symmetry > 1 && parts.is_empty() && (r.nodes > 0 || r.solutions_found > 0) {
        return bad(format!(
            "counts {} nodes and {} solutions under --symmetry but lists no symmetry_parts (the trees searched)",
            r.nodes, r.solutions_found
        ));
    }
    Ok(())
}

/// Checks a result of `plytile solve --json` against itself, and against `puzzle`
/// when given, before it is summed or reported (`merge`). A hand-edited, damaged or
/// truncated file fails here with what does not hold:
/// - the board is 2..=32 on a side, every kept board has its cells, each a piece of
///   the board's and a rotation 0..=3 (as written: nothing is cut to fit), and so has
///   the deepest board;
/// - `--symmetry`: 4 turns on a square board, 2 on others, 1 without; at most 3 trees
///   (2 when W != H), distinct, each fixing as many corners, whose nodes sum to
///   `nodes` (none when the run stopped before it chose them);
/// - `nodes_per_depth` counts the root, has no depth past the board (less its hints
///   with `puzzle`, less the fixed corners of `--symmetry`'s trees), ends in a depth
///   some node reached, counts no more nodes at a depth than the tree has there (one
///   root per tree, then at most 4 rotations of each piece left per node), and sums
///   to `nodes` without passing 2^64;
/// - a full board is a solution: `solutions_found` is the nodes at the full depth
///   times the turns each stands for, or less when `--solutions` cut it (stopped by
///   `solutions`), and the trees' counts sum to those nodes. The full depth is the
///   board's free cells with `puzzle`; without, the deepest depth when the result
///   claims solutions (a node at it is a full board), or when no depth is left below
///   it (no hints); else it is unknown and no count can contradict it;
/// - at most `solutions_found` boards are kept; exhaustive only without a stop, and a
///   shard's result names its stop when it is not exhaustive;
/// - with `puzzle`: the result is of it, and every kept board passes the independent
///   checker.
pub fn check_result(name: &str, r: &SolveResult, puzzle: Option<&Puzzle>) -> Result<()> {
    check_result_in(name, r, puzzle, true)
}

/// What [`check_result`] says against `p` of a result that passed it without a
/// puzzle, from the checks that depend on the puzzle: `check_shape` is not made
/// again (merge checks the boards against the puzzle the results name so).
pub fn check_result_against(name: &str, r: &SolveResult, p: &Puzzle) -> Result<()> {
    check_result_in(name, r, Some(p), false)
}

/// What a `merge` result's `merged` must be: shards in ascending order, each once and
/// in range, and `exhaustive` exactly when they are all there and none stopped (merge
/// takes the list on trust, so a lie would count shards twice or not at all).
fn check_merged(r: &SolveResult, m: &Merged) -> std::result::Result<(), String> {
    if m.shards.is_empty() || m.shards.windows(2).any(|w| w[0] >= w[1]) {
        return Err(format!(
            "merged.shards {:?} is not a list of shards in ascending order, each once",
            m.shards
        ));
    }
    if let Some(i) = m.shards.iter().find(|&&i| i >= m.of) {
        return Err(format!("merged.shards names shard {i} of {}", m.of));
    }
    let whole = m.shards.len() == m.of && r.stopped_by.is_none();
    if r.exhaustive != whole {
        return Err(format!(
            "it is {}exhaustive, but merged.shards lists {} of {} shards{}",
            if r.exhaustive { "" } else { "not " },
            m.shards.len(),
            m.of,
            if r.stopped_by.is_some() {
                " and it names a stop"
            } else {
                ""
            }
        ));
    }
    Ok(())
}

/// [`check_result`], its [`check_shape`] only when `shape`.
fn check_result_in(
    name: &str,
    r: &SolveResult,
    puzzle: Option<&Puzzle>,
    shape: bool,
) -> Result<()> {
    let bad = |m: String| Err(InputError::new(name, m));
    // `solve` writes 16 hex digits; anything else would be taken for the number.
    if let Some(h) = r.fingerprint_hex.as_deref() {
        if h.len() != 16 || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return bad(format!(
                "its fingerprint_hex {h:?} is not 16 hex digits: the file was edited or damaged; run its solve again"
            ));
        }
    }
    if let Some(p) = puzzle {
        let same = match r.puzzle_fingerprint() {
            Some(f) => f == fingerprint(p),
            None => (&r.puzzle, r.width, r.height) == (&p.name, p.width, p.height),
        };
        if !same {
            return bad(format!(
                "is not a result of the puzzle {} given with --puzzle",
                p.name
            ));
        }
    }
    if shape {
        check_shape(name, r)?;
    }
    if let Some(m) = &r.merged {
        check_merged(r, m)
            .or_else(|e| bad(format!("{e}: the file was edited or damaged; {}", r.redo())))?;
    }
    let (w, h) = (r.width, r.height);
    let cells = w * h;
    let parts = &r.symmetry_parts;
    let fixed = parts.first().map_or(0, |t| t.corners.len());
    let part_found = checked_sum(parts.iter().map(|t| t.solutions_found));
    let part_found = part_found.expect("check_shape refuses trees' sums past 2^64");
    // The depths.
    let free = match puzzle {
        Some(p) => p.free_cells().checked_sub(fixed),
        None => cells.checked_sub(fixed),
    };
    let Some(free) = free else {
        return bad(format!(
            "fixes {fixed} corners on a board with fewer free cells"
        ));
    };
    let board = match (puzzle, fixed) {
        (None, 0) => format!("a {w}x{h} board"),
        (Some(p), 0) => format!("the {w}x{h} puzzle less its {} hints", p.hints.len()),
        (_, _) => format!("a {w}x{h} board less its {fixed} fixed corners"),
    };
    let npd = &r.nodes_per_depth;
    if npd.is_empty() || npd.len() > free + 1 {
        return bad(format!(
            "nodes_per_depth has {} depths, {board} has {}",
            npd.len(),
            free + 1
        ));
    }
    let top = npd.len() - 1;
    if top > 0 && npd[top] == 0 {
        return bad(format!(
            "nodes_per_depth ends in depth {top}, which no node reached"
        ));
    }
    let mut most = parts.len().max(1) as u64;
    for (d, &n) in npd.iter().enumerate() {
        if n > most {
            return bad(format!(
                "nodes_per_depth counts {n} nodes at depth {d}, more than the tree of {board} has there ({most})"
            ));
        }
        most = most.saturating_mul(4 * (free - d) as u64);
    }
    let Some(total) = checked_sum(npd.iter().copied()) else {
        return bad("nodes_per_depth sums past 2^64".into());
    };
    if r.nodes != total {
        return bad(format!(
            "nodes {} is not the sum of nodes_per_depth ({total})",
            r.nodes
        ));
    }
    if r.resumed_nodes > r.nodes {
        return bad(format!(
            "resumed_nodes {} is more than nodes {}",
            r.resumed_nodes, r.nodes
        ));
    }
    if r.deepest.depth > free + fixed {
        return bad(format!(
            "deepest.depth {} is deeper than {board} ({})",
            r.deepest.depth,
            free + fixed
        ));
    }
    // Full boards are solutions.
    let claimed = r.solutions_found > 0 || !r.solutions.is_empty() || part_found > 0;
    let full_depth = match puzzle {
        Some(_) => Some(free),
        None => (claimed || top == free).then_some(top),
    };
    let cut = r.stopped_by == Some(Stop::Solutions);
    if let Some(d) = full_depth {
        let full = npd.get(d).copied().unwrap_or(0);
        let each = match r.symmetry {
            1 => String::new(),
            t => format!(", each standing for its {t} turns"),
        };
        let want = full.checked_mul(r.symmetry);
        if want.is_none_or(|x| r.solutions_found > x || !cut && r.solutions_found != x) {
            let but = if cut { "at most" } else { "but" };
            return bad(format!(
                "solutions_found is {}, {but} nodes_per_depth counts {full} full boards (depth {d}){each}",
                r.solutions_found
            ));
        }
        if !parts.is_empty() && (part_found > full || !cut && part_found != full) {
            return bad(format!(
                "symmetry_parts find {part_found} solutions, but nodes_per_depth counts {full} full boards (depth {d})"
            ));
        }
    }
    if r.solutions.len() as u64 > r.solutions_found {
        return bad(format!(
            "holds {} solution boards but solutions_found is {}",
            r.solutions.len(),
            r.solutions_found
        ));
    }
    if let Some(stop) = r.stopped_by.filter(|_| r.exhaustive) {
        return bad(format!(
            "is exhaustive, yet stopped by {}",
            crate::search::limits::stop_text(stop)
        ));
    }
    if r.shard.is_some() && !r.exhaustive && r.stopped_by.is_none() {
        return bad("is not exhaustive, yet names no stop (stopped_by)".into());
    }
    if let Some(p) = puzzle {
        for i in 0..r.solutions.len() {
            crate::puzzle::verify::check(p, &r.solution_board(i), true).map_err(|v| {
                InputError::new(name, format!("solution {} is not a solution: {v}", i + 1))
            })?;
        }
    }
    Ok(())
}

/// How `r` differs from `first` (the file `first_name`) in the trees it searched,
/// if it does: the `--symmetry` turns, or the corners fixed in a tree or its
/// heuristic (as far as both got).
fn other_cut(r: &SolveResult, first: &SolveResult, first_name: &str) -> Option<String> {
    let with = |r: &SolveResult| match r.symmetry {
        1 => "without --symmetry".to_string(),
        t => format!("with --symmetry ({t} turns)"),
    };
    if r.symmetry != first.symmetry {
        return Some(format!(
            "was searched {}, {first_name} {}",
            with(r),
            with(first)
        ));
    }
    let tree = |t: &SymmetryPart| format!("fixes {:?} under --select {}", t.corners, t.select);
    let (k, (t, u)) = (r.symmetry_parts.iter().zip(&first.symmetry_parts))
        .enumerate()
        .find(|(_, (t, u))| t.corners != u.corners || t.select != u.select)?;
    Some(format!(
        "was cut by --symmetry into other trees than {first_name}: its tree {} {}, {first_name}'s {}",
        k + 1,
        tree(t),
        tree(u)
    ))
}
