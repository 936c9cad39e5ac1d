//! Path shortening: a solution made shorter by cutting the loops it makes and by replacing
//! short stretches of it with optimal ones.

use npuzzle_core::{Board, Move, StopAt};
use std::collections::HashMap;

/// Shortens the path `moves` from `start` (a solution or any path), keeping its end state:
///
/// 1. **loops**: whenever the path comes back to a state it visited before, the moves in
///    between are cut (O(L·N) for L moves on N cells, one hash-map entry a state);
/// 2. **windows**: each stretch of `window` consecutive moves, between states `a` and `b`, is
///    replaced by a shortest path from `a` to `b` when one is shorter — found by IDA\* (Korf
///    1985) with the Manhattan distance to `b` (admissible for any target), under a budget of
///    `window_nodes` generated nodes a stretch (a stretch not finished within it is left as
///    it is). Windows start every `window / 2` moves; passes repeat while one shortens the
///    path and `stop` is not reached (its deadline passed or its cancel flag set, checked
///    before each window).
///
/// The result is never longer than `moves`, leads from `start` to the same state, and is
/// deterministic for given arguments and enough time. Moves are validated: an illegal move
/// panics (callers pass solutions of the same board).
///
/// Time: per window at most `window_nodes` nodes (each O(1)); per pass O(L / window) windows.
///
/// # Panics
/// If a move of `moves` is illegal on the board it is applied to.
pub fn shorten<B: Board>(
    start: &B,
    moves: &[Move],
    window: usize,
    window_nodes: u64,
    stop: &StopAt,
) -> Vec<Move> {
    let mut path = cut_loops(start, moves);
    if window < 2 {
        return path;
    }
    loop {
        let before = path.len();
        path = window_pass(start, &path, window, window_nodes, stop);
        path = cut_loops(start, &path);
        if path.len() >= before || stop.reached() {
            return path;
        }
    }
}

/// Cuts every loop of the path: returns the path through the distinct states in order, each
/// state's last visit kept. O(L·N).
pub(crate) fn cut_loops<B: Board>(start: &B, moves: &[Move]) -> Vec<Move> {
    let mut board = start.clone();
    // `keys[i]`: the state after the first `i` moves of `out`; `seen` maps a key to its `i`.
    let mut keys = vec![board.key()];
    let mut seen: HashMap<_, usize> = HashMap::with_capacity(moves.len() + 1);
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    seen.insert(board.key(), 0);
    for &m in moves {
        assert!(board.legal().contains(m), "illegal move {m:?} in the path");
        board.apply(m);
        let key = board.key();
        if let Some(&at) = seen.get(&key) {
            // Back at the state after `at` moves: drop the loop and forget its states.
            for k in keys.drain(at + 1..) {
                seen.remove(&k);
            }
            out.truncate(at);
        } else {
            out.push(m);
            keys.push(key.clone());
            seen.insert(key, out.len());
        }
    }
    out
}

/// One pass of window replacement over the path.
fn window_pass<B: Board>(
    start: &B,
    path: &[Move],
    window: usize,
    window_nodes: u64,
    stop: &StopAt,
) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(path.len());
    let mut board = start.clone(); // the state after `out`
    let mut i = 0; // moves of `path` consumed
    let step = (window / 2).max(1);
    while i < path.len() {
        let j = (i + window).min(path.len());
        if stop.reached() || j - i < 4 {
            for &m in &path[i..] {
                board.apply(m);
                out.push(m);
            }
            break;
        }
        let mut target = board.clone();
        for &m in &path[i..j] {
            target.apply(m);
        }
        let shorter = optimal_between(&board, &target, j - i, window_nodes);
        // Replace the whole window and go on from its end, or keep its first `step` moves.
        let end = (i + step).min(path.len());
        let (kept, consumed) = shorter
            .as_deref()
            .map_or((&path[i..end], end - i), |better| (better, j - i));
        for &m in kept {
            board.apply(m);
            out.push(m);
        }
        i += consumed;
    }
    out
}

/// A path from `from` to `to` of fewer than `len` moves, if IDA\* with the Manhattan distance
/// to `to` finds one within `max_nodes` generated nodes (a shortest one: IDA\* with an
/// admissible heuristic); `None` if there is none or the budget runs out.
fn optimal_between<B: Board>(from: &B, to: &B, len: usize, max_nodes: u64) -> Option<Vec<Move>> {
    let shape = from.shape();
    let (w, n) = (shape.width(), shape.cells());
    // Goal row and column of every tile.
    let mut home = vec![(0u16, 0u16); n];
    for c in 0..n {
        home[to.tile(c)] = ((c / w) as u16, (c % w) as u16);
    }
    let dist = |tile: usize, cell: usize| -> u32 {
        let (r, c) = home[tile];
        (r as i32 - (cell / w) as i32).unsigned_abs()
            + (c as i32 - (cell % w) as i32).unsigned_abs()
    };
    let h0: u32 = (0..n)
        .filter(|&c| from.tile(c) != 0)
        .map(|c| dist(from.tile(c), c))
        .sum();
    let len = len as u32;
    if h0 + 2 > len {
        return None; // same parity: a shorter path has at most len - 2 moves
    }
    let mut search = Ida {
        board: from.clone(),
        dist: &dist,
        path: Vec::with_capacity(len as usize),
        nodes: 0,
        max_nodes,
    };
    let mut bound = h0;
    while bound + 2 <= len {
        match search.dfs(0, h0, bound, None) {
            Found::Yes => return Some(search.path),
            Found::Budget => return None,
            Found::No => bound += 2,
        }
    }
    None
}

enum Found {
    Yes,
    No,
    Budget,
}

struct Ida<'a, B, D: Fn(usize, usize) -> u32> {
    board: B,
    dist: &'a D,
    path: Vec<Move>,
    nodes: u64,
    max_nodes: u64,
}

impl<B: Board, D: Fn(usize, usize) -> u32> Ida<'_, B, D> {
    fn dfs(&mut self, g: u32, h: u32, bound: u32, parent: Option<Move>) -> Found {
        if h == 0 {
            return Found::Yes;
        }
        for m in self.board.legal() {
            if Some(m.inverse()) == parent {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.max_nodes {
                return Found::Budget;
            }
            let from = self.board.tile_cell(m);
            let tile = self.board.tile(from);
            let blank = self.board.blank();
            let h2 = h + (self.dist)(tile, blank) - (self.dist)(tile, from);
            if g + 1 + h2 > bound {
                continue;
            }
            self.board.apply(m);
            self.path.push(m);
            match self.dfs(g + 1, h2, bound, Some(m)) {
                Found::No => {}
                other => return other,
            }
            self.path.pop();
            self.board.apply(m.inverse());
        }
        Found::No
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Goal, Layout, Shape, verify};
    use npuzzle_nxn::VecBoard;
    use rand::{Rng, SeedableRng};

    use super::*;

    fn random_walk(shape: Shape, steps: usize, seed: u64) -> (Layout, Vec<Move>) {
        let goal = Goal::blank_last(shape);
        let mut b = VecBoard::from_layout(goal.layout()).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut walk = Vec::new();
        for _ in 0..steps {
            let legal: Vec<Move> = b.legal().into_iter().collect();
            let m = legal[rng.random_range(0..legal.len())];
            b.apply(m);
            walk.push(m);
        }
        (b.to_layout(), walk)
    }

    /// The reversed random walk is a solution full of detours; the shortened one still solves
    /// the board, is never longer, and on small boards is no shorter than the optimum (IDA*).
    #[test]
    fn shortened_walks_still_solve_and_are_not_below_the_optimum() {
        use npuzzle_core::{BitBoard, Limits, LinearConflict, Outcome, Solver};
        for seed in 0..20 {
            let shape = Shape::new(4, 4).unwrap();
            let (layout, walk) = random_walk(shape, 60, seed);
            let goal = Goal::blank_last(shape);
            let back: Vec<Move> = walk.iter().rev().map(|m| m.inverse()).collect();
            verify(&layout, &back, goal.layout()).unwrap();
            let start = VecBoard::from_layout(&layout).unwrap();
            let short = shorten(&start, &back, 16, 1_000_000, &StopAt::never());
            verify(&layout, &short, goal.layout()).unwrap();
            assert!(short.len() <= back.len());
            let Outcome::Solved(opt) = npuzzle_idastar::IdaStar::new()
                .solve(
                    &BitBoard::from_layout(&layout).unwrap(),
                    &goal,
                    &LinearConflict::new(&goal),
                    &Limits::default(),
                )
                .unwrap()
            else {
                panic!("solvable")
            };
            assert!(short.len() >= opt.moves.len(), "seed {seed}");
            // A window as long as the whole path makes it optimal.
            let whole = shorten(&start, &back, back.len(), u64::MAX, &StopAt::never());
            assert_eq!(whole.len(), opt.moves.len(), "seed {seed}");
            verify(&layout, &whole, goal.layout()).unwrap();
        }
    }

    #[test]
    fn loops_are_cut() {
        let shape = Shape::new(3, 3).unwrap();
        let goal = Goal::blank_last(shape);
        let b = VecBoard::from_layout(goal.layout()).unwrap();
        // Around a 2×2 square and back: 12 moves that return to the goal.
        let ring = [Move::Down, Move::Right, Move::Up, Move::Left];
        let moves: Vec<Move> = ring.iter().cycle().take(12).copied().collect();
        assert_eq!(cut_loops(&b, &moves), Vec::<Move>::new());
        // An inverse pair in the middle of a path.
        let path = vec![Move::Down, Move::Right, Move::Left, Move::Right];
        assert_eq!(cut_loops(&b, &path), vec![Move::Down, Move::Right]);
    }
}
