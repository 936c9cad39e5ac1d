//! Reproducible random boards, solvable for a chosen goal.
//!
//! - [`random_solvable`]: uniformly random among all solvable boards. A uniformly random
//!   permutation of all `W*H` tiles is drawn (Fisher–Yates); if it is unsolvable, the tiles on
//!   the first two non-blank cells are swapped. For each blank cell that swap maps the
//!   unsolvable boards one-to-one onto the solvable ones, so every solvable board is equally
//!   likely.
//! - [`random_walk`]: K random legal moves from the goal, never undoing the previous move. The
//!   board is at most K moves from the goal (fewer when the walk loops back).
//!
//! [`generate`] draws boards from `ChaCha8` seeded with a `u64`, so a seed always gives the same
//! boards (the same as `npuzzle generate --seed`). Works for every size up to 127×127.

use npuzzle_core::{Goal, Layout, Move, legal_moves};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How [`generate`] draws boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Uniformly random among the solvable boards ([`random_solvable`]).
    Uniform,
    /// `k` random moves from the goal ([`random_walk`]).
    Walk(u64),
}

/// The longest random walk [`check`] accepts, in moves: 10,000,000 (about 0.1 s; a 127×127
/// board is scrambled well by far fewer). The CLI, the web server and the Python package share
/// this bound.
pub const MAX_WALK: u64 = 10_000_000;

/// The most boards [`check`] accepts in one call: 10,000,000 (170 MB of 4×4 boards in hex;
/// larger sets are several runs with other seeds). Shared like [`MAX_WALK`].
pub const MAX_COUNT: u64 = 10_000_000;

/// Checks a request for boards against [`MAX_WALK`] and [`MAX_COUNT`], so that no front end
/// runs an unbounded loop on a user's number. O(1).
///
/// # Errors
/// [`crate::Error::OutOfRange`] naming the value and the bound.
pub fn check(method: Method, count: u64) -> Result<(), crate::Error> {
    if let Method::Walk(k) = method
        && k > MAX_WALK
    {
        return Err(crate::Error::OutOfRange {
            what: "walk",
            value: k,
            max: MAX_WALK,
            unit: "moves",
        });
    }
    if count > MAX_COUNT {
        return Err(crate::Error::OutOfRange {
            what: "count",
            value: count,
            max: MAX_COUNT,
            unit: "boards at a time",
        });
    }
    Ok(())
}

/// `count` boards solvable for `goal`, drawn by `method` from `ChaCha8` seeded with `seed`.
/// O(count × (W·H + k)) time; the boards are produced lazily. Front ends first [`check`] what
/// a user asked for.
pub fn generate(
    goal: &Goal,
    method: Method,
    seed: u64,
    count: u64,
) -> impl Iterator<Item = Layout> {
    let goal = goal.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(move |_| match method {
        Method::Uniform => random_solvable(&goal, &mut rng),
        Method::Walk(k) => random_walk(&goal, k, &mut rng),
    })
}

/// A uniformly random board that is solvable for `goal`. O(W·H).
///
/// # Panics
/// Never for a valid goal: every board has at least 3 tiles besides the blank, and the swap of two
/// tiles keeps a permutation.
pub fn random_solvable(goal: &Goal, rng: &mut impl Rng) -> Layout {
    let shape = goal.shape();
    let mut cells: Vec<usize> = (0..shape.cells()).collect();
    cells.shuffle(rng);
    let layout = Layout::new(shape, &cells).expect("a shuffled permutation is valid");
    if goal.parity(&layout).expect("same shape").solvable {
        return layout;
    }
    let mut tiles = (0..cells.len()).filter(|&c| cells[c] != 0);
    let (a, b) = (tiles.next(), tiles.next());
    let (Some(a), Some(b)) = (a, b) else {
        unreachable!("every board has at least 3 tiles besides the blank");
    };
    cells.swap(a, b);
    let layout = Layout::new(shape, &cells).expect("a swapped permutation is valid");
    debug_assert!(goal.parity(&layout).expect("same shape").solvable);
    layout
}

/// The board after `k` random moves from `goal`, never undoing the previous move. O(W·H + k).
///
/// # Panics
/// Never: every blank cell has at least two legal moves, and moves keep a permutation.
pub fn random_walk(goal: &Goal, k: u64, rng: &mut impl Rng) -> Layout {
    let shape = goal.shape();
    let (w, h) = (shape.width(), shape.height());
    let mut cells: Vec<usize> = goal.layout().cells().iter().map(|&t| t as usize).collect();
    let mut blank = goal.cell_of(0);
    let mut last: Option<Move> = None;
    for _ in 0..k {
        let mut legal = legal_moves(blank, w, h);
        if let Some(m) = last {
            legal = legal.without(m.inverse());
        }
        let choices: Vec<Move> = legal.collect();
        let m = choices[rng.random_range(0..choices.len())];
        let target = m.blank_target(blank, w);
        cells.swap(blank, target);
        blank = target;
        last = Some(m);
    }
    Layout::new(shape, &cells).expect("moves keep a permutation")
}
