//! Placing one line of tiles by beam search, for the constructive reduction of large boards
//! ([`crate::Constructive::reduce_with_beams`]).
//!
//! Only the blank and the line's own tiles matter for placing a line: the other tiles of the
//! unsolved part may end anywhere. The search state is therefore the cells of the blank and of
//! the line's `k` tiles (k + 1 cells), not the board, and two boards that differ only in the
//! other tiles are one state. Each layer keeps the `width` children with the least sum of the
//! line tiles' Manhattan distances to their goal cells, ties broken by the blank's distance to
//! the nearest misplaced line tile (the blank has to get there to move it); duplicates are
//! dropped against the current layer and the two before it. Placed lines (`locked` cells) are
//! never entered.

use std::collections::HashSet;

use ahash::RandomState;
use npuzzle_core::StopAt;

/// A set of state hashes.
type Seen = HashSet<u64, RandomState>;

/// An empty [`Seen`] with room for `n` hashes (fixed seeds: runs are deterministic).
fn seen_set(n: usize) -> Seen {
    HashSet::with_capacity_and_hasher(n, RandomState::with_seeds(5, 6, 7, 8))
}

/// One line to place: the board's width and height in cells, the cells the blank must not
/// enter, and the goal cell of each of the line's tiles.
pub(crate) struct LineProblem<'a> {
    pub(crate) w: usize,
    pub(crate) h: usize,
    pub(crate) locked: &'a [bool],
    pub(crate) goals: &'a [u32],
}

impl LineProblem<'_> {
    fn distance(&self, a: u32, b: u32) -> u32 {
        let w = self.w as u32;
        (a / w).abs_diff(b / w) + (a % w).abs_diff(b % w)
    }

    /// The cells next to `c` the blank may enter.
    fn neighbours(&self, c: u32) -> impl Iterator<Item = u32> + '_ {
        let (w, h) = (self.w as u32, self.h as u32);
        let (r, col) = (c / w, c % w);
        [
            (r > 0).then(|| c - w),
            (col > 0).then(|| c - 1),
            (col + 1 < w).then(|| c + 1),
            (r + 1 < h).then(|| c + w),
        ]
        .into_iter()
        .flatten()
        .filter(|&n| !self.locked[n as usize])
    }

    /// The blank's distance to the nearest line tile off its goal cell (0 when none is), the
    /// tile `moved` (if any) standing on cell `to` instead of its cell in `tiles`.
    fn to_misplaced(&self, blank: u32, tiles: &[u32], moved: Option<usize>, to: u32) -> u32 {
        let mut best = u32::MAX;
        for (i, (&p, &g)) in tiles.iter().zip(self.goals).enumerate() {
            let p = if moved == Some(i) { to } else { p };
            if p != g {
                best = best.min(self.distance(blank, p));
            }
        }
        if best == u32::MAX { 0 } else { best }
    }
}

/// A child in a layer's selection: its rank, its parent's index, the cell the blank moves to,
/// and the line tile moved (or `u32::MAX`).
#[derive(Clone, Copy)]
struct Child {
    rank: u64,
    parent: u32,
    blank: u32,
    tile: u32,
    h: u32,
}

/// Beam search for a sequence of blank steps that brings every tile of the line to its goal
/// cell, from the blank on `blank` and the line's tiles on `tiles` (`tiles[i]` goes to
/// `problem.goals[i]`). Returns the cells the blank steps into, in order, or `None` when no
/// layer of at most `max_depth` steps reaches the goal, a layer empties, or `stop` is reached
/// (its deadline passed or its cancel flag set; checked every 16 layers).
///
/// Time: O(`max_depth` · `width` · k) for k line tiles; memory O(`max_depth` · `width` +
/// `width` · k).
pub(crate) fn line_beam(
    problem: &LineProblem<'_>,
    blank: u32,
    tiles: &[u32],
    width: usize,
    max_depth: usize,
    stop: &StopAt,
) -> Option<Vec<u32>> {
    let k = tiles.len();
    let stride = k + 1;
    let h0: u32 = tiles
        .iter()
        .zip(problem.goals)
        .map(|(&p, &g)| problem.distance(p, g))
        .sum();
    if h0 == 0 {
        return Some(Vec::new());
    }
    let hasher = RandomState::with_seeds(1, 2, 3, 4);
    let hash = |state: &[u32]| hasher.hash_one(state);
    let mut states: Vec<u32> = Vec::with_capacity(stride);
    states.push(blank);
    states.extend_from_slice(tiles);
    let mut hs = vec![h0];
    // The layers two and one back, for duplicate detection.
    let mut seen: [Seen; 2] = [seen_set(0), seen_set(1)];
    seen[1].insert(hash(&states));
    // Per depth: each kept child's parent index and the blank's new cell.
    let mut history: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut children: Vec<Child> = Vec::new();
    for depth in 0..max_depth {
        if depth % 16 == 0 && stop.reached() {
            return None;
        }
        children.clear();
        for (i, state) in states.chunks_exact(stride).enumerate() {
            let (b, line) = (state[0], &state[1..]);
            for n in problem.neighbours(b) {
                let tile = line.iter().position(|&p| p == n);
                let h = match tile {
                    Some(j) => {
                        let g = problem.goals[j];
                        hs[i] + problem.distance(b, g) - problem.distance(n, g)
                    }
                    None => hs[i],
                };
                // The blank's new cell is n; a moved tile now stands on b.
                let near = problem.to_misplaced(n, line, tile, b);
                children.push(Child {
                    rank: (u64::from(h) << 32) | u64::from(near),
                    parent: i as u32,
                    blank: n,
                    tile: tile.map_or(u32::MAX, |j| j as u32),
                    h,
                });
            }
        }
        // The best 2·width children, in order (duplicates are dropped from them below).
        if children.len() > 2 * width {
            children.select_nth_unstable_by_key(2 * width, |c| c.rank);
            children.truncate(2 * width);
        }
        children.sort_unstable_by_key(|c| c.rank);
        let mut next_states = Vec::with_capacity(width.min(children.len()) * stride);
        let mut next_hs = Vec::with_capacity(width.min(children.len()));
        let mut kept = Vec::with_capacity(width.min(children.len()));
        let mut layer = seen_set(width.min(children.len()));
        let mut child = vec![0u32; stride];
        for c in &children {
            if kept.len() == width {
                break;
            }
            let parent = &states[c.parent as usize * stride..(c.parent as usize + 1) * stride];
            child.copy_from_slice(parent);
            if c.tile != u32::MAX {
                child[1 + c.tile as usize] = parent[0];
            }
            child[0] = c.blank;
            let key = hash(&child);
            if seen[0].contains(&key) || seen[1].contains(&key) || !layer.insert(key) {
                continue;
            }
            next_states.extend_from_slice(&child);
            next_hs.push(c.h);
            kept.push((c.parent, c.blank));
            if c.h == 0 {
                history.push(kept);
                return Some(path(&history));
            }
        }
        if kept.is_empty() {
            return None;
        }
        history.push(kept);
        states = next_states;
        hs = next_hs;
        seen.swap(0, 1);
        seen[1] = layer;
    }
    None
}

/// The blank's cells from the first layer to the last kept child of the last layer.
fn path(history: &[Vec<(u32, u32)>]) -> Vec<u32> {
    let mut cells = Vec::with_capacity(history.len());
    let mut i = history.last().map_or(0, |l| l.len() - 1);
    for layer in history.iter().rev() {
        let (parent, cell) = layer[i];
        cells.push(cell);
        i = parent as usize;
    }
    cells.reverse();
    cells
}
