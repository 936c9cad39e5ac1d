//! IDA\* in the **multi-tile metric** (MTM): one move slides 1 to k tiles of the blank's row or
//! column one cell each, at cost 1 (the speedsolving community's metric; `slidy`'s MTM solvers).
//!
//! [`MtmIdaStar`] is IDA\* (Korf 1985) over MTM moves, generic over core's [`Board`] trait: a
//! node's successors are, for each direction the blank can move, the boards after 1, 2, … k
//! single-tile moves in that direction (k up to the edge of the board), each one move deeper.
//! The path is pruned by axis: after a horizontal move the next one is vertical, and the other
//! way round, because two moves along one line in a row are never both needed (`R2 R1` is
//! `R3`, `R2 L1` is `R1`, `R1 L1` is nothing: one move or none replaces two), so every optimal
//! MTM path alternates axes. The branching factor is then W−1 or H−1 (2 on the 8-puzzle, 3 on
//! the 15-puzzle).
//!
//! Optimal in MTM with a heuristic admissible **in MTM** (`npuzzle_core::WalkingDistance` built
//! for `Metric::Mtm`, `npuzzle_core::MtmManhattan`, or `Zero`): the engine cannot check that, so its [`Solver::guarantee`] trusts
//! [`HeuristicProperties::admissible`] like the STM engines do, and callers (the `npuzzle`
//! facade) pass only heuristics declared admissible in MTM. Plain Manhattan distance is not:
//! one move `R2` has Manhattan distance 2.
//!
//! Returned moves are single-tile moves (`RRUL…`), so they replay with `verify` like every
//! engine's; their MTM length is their count of runs of one direction
//! (`npuzzle_core::mtm_length`), which for an optimal MTM path (alternating axes) is its
//! number of MTM moves.
//!
//! Each child's estimate comes from its parent's through [`Heuristic::update_memo`], one
//! single-tile step at a time (a move of k tiles is k steps, each one generated node): O(1)
//! per node with `npuzzle_core::WalkingDistance` (its memo holds the abstract states) and with
//! `MtmManhattan` (its memo holds the four directional sums). No stored states,
//! O(depth × max(W, H)) memory for the path.

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Iteration, LimitClock, Limits, Move,
    Outcome, Progress, SearchError, SearchStart, Solution, Solver, start_search,
};

use crate::driver::{self, IterationEnd};

/// Checks limits every this many generated nodes.
const CHECK_INTERVAL: u64 = 1 << 12;

/// IDA\* in the multi-tile metric (see the [module docs](self)). Holds no state between
/// searches; safe to call again for the next board.
#[derive(Clone, Copy, Debug, Default)]
pub struct MtmIdaStar;

impl MtmIdaStar {
    /// The engine.
    pub fn new() -> MtmIdaStar {
        MtmIdaStar
    }
}

/// An iteration's end: the goal found (the moves are [`Run::path`]), the least f above the
/// threshold, or the limit that stopped it.
type End = IterationEnd<()>;

/// One search's state.
struct Run<'a, B: Board, H: Heuristic<B>, O: FnMut(&Progress)> {
    heuristic: &'a H,
    goal_key: B::Key,
    clock: LimitClock,
    observer: O,
    expanded: u64,
    generated: u64,
    next_check: u64,
    /// The single-tile moves of the current path.
    path: Vec<Move>,
    board: B,
    /// h(start) and its memo.
    root: (u32, H::Memo),
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> Run<'_, B, H, O> {
    fn progress(&self, bound: u32) -> Progress {
        crate::driver::progress(&self.clock, self.expanded, self.generated, bound)
    }

    /// Depth-first search below `board` (at depth `g` MTM moves, estimate `h`), whose last
    /// move was along the vertical axis when `last_vertical == Some(true)`.
    fn dfs(
        &mut self,
        board: &mut B,
        g: u32,
        (h, memo): (u32, H::Memo),
        last_vertical: Option<bool>,
        threshold: u32,
    ) -> End {
        if h == 0 && board.key() == self.goal_key {
            return End::Found(());
        }
        if self.generated >= self.next_check {
            self.next_check = self.generated + CHECK_INTERVAL;
            if let Some(limit) = self.clock.check(self.generated) {
                return End::Stopped(limit);
            }
            let p = self.progress(threshold);
            (self.observer)(&p);
        }
        self.expanded += 1;
        let mut least = u32::MAX;
        for dir in Move::ALL {
            if last_vertical == Some(dir.is_vertical()) {
                continue;
            }
            let mut k = 0;
            // The estimate after each single-tile step, from the step before's.
            let (mut hc, mut mc) = (h, memo);
            while board.legal().contains(dir) {
                (hc, mc) = if size_of::<H::Memo>() == 0 {
                    // A bounded estimate leaves a memo that must not be used; a memo of no
                    // bytes carries nothing, so the next slide along this line may start from
                    // it (the multi-tile tables stop at their first lookup above the bound).
                    let bound = threshold.saturating_sub(g + 1);
                    self.heuristic
                        .update_memo_bounded(board, hc, &mc, dir, bound)
                } else {
                    self.heuristic.update_memo(board, hc, &mc, dir)
                };
                board.apply(dir);
                self.path.push(dir);
                k += 1;
                self.generated += 1;
                let f = g + 1 + hc;
                if f <= threshold {
                    match self.dfs(board, g + 1, (hc, mc), Some(dir.is_vertical()), threshold) {
                        End::Found(()) => return End::Found(()),
                        End::Stopped(l) => return End::Stopped(l),
                        End::Exceeded(next) => least = least.min(next),
                    }
                } else {
                    least = least.min(f);
                }
            }
            for _ in 0..k {
                board.apply(dir.inverse());
                self.path.pop();
            }
        }
        End::Exceeded(least)
    }
}

impl<B: Board> Solver<B> for MtmIdaStar {
    fn name(&self) -> &'static str {
        "idastar"
    }

    /// Optimal **in MTM** with an admissible heuristic — which must be admissible in MTM (see
    /// the [module docs](self)); unproven otherwise.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        if heuristic.admissible {
            Guarantee::Optimal
        } else {
            Guarantee::Unproven
        }
    }

    /// IDA\* over MTM moves: thresholds start at h(start) and rise to the least f that
    /// exceeded the last one, so the first solution found is optimal in MTM (with an
    /// MTM-admissible heuristic). Node counts are MTM nodes (each board after 1..k tiles slid
    /// is one generated node).
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] when a limit stops it (the progress's bound is the
    /// threshold reached, a lower bound on the MTM optimum); [`SearchError::Goal`] when shapes
    /// differ.
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        observer: O,
    ) -> Result<Outcome, SearchError> {
        let goal_board = match start_search(start, goal)? {
            SearchStart::Answered(outcome) => return Ok(outcome),
            SearchStart::Search { goal_board, .. } => goal_board,
        };
        let root = heuristic.estimate_memo(start);
        let mut run = Run {
            heuristic,
            goal_key: goal_board.key(),
            clock: LimitClock::new(limits),
            observer,
            expanded: 0,
            generated: 0,
            next_check: 0,
            path: Vec::new(),
            board: start.clone(),
            root,
        };
        let (moves, stats) = driver::drive(&mut run, root.0, root.0, None)?;
        Ok(Outcome::Solved(Solution {
            moves,
            guarantee: Solver::<B>::guarantee(self, heuristic.properties()),
            stats,
        }))
    }
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> driver::Iterations for Run<'_, B, H, O> {
    type Found = Vec<Move>;

    fn progress(&self, bound: u32) -> Progress {
        Run::progress(self, bound)
    }

    fn observe(&mut self, progress: &Progress) {
        (self.observer)(progress);
    }

    fn iterate(&mut self, threshold: u32, _: Option<&Iteration>) -> IterationEnd {
        let mut board = self.board.clone();
        match self.dfs(&mut board, 0, self.root, None, threshold) {
            End::Found(()) => IterationEnd::Found(std::mem::take(&mut self.path)),
            End::Exceeded(next) => IterationEnd::Exceeded(next),
            End::Stopped(limit) => IterationEnd::Stopped(limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{BitBoard, MtmManhattan, mtm_length, parse_board, verify};

    #[test]
    fn one_mtm_move_and_a_few_more() {
        let goal = Goal::blank_last(npuzzle_core::Shape::square(3).unwrap());
        let h = MtmManhattan::new(&goal);
        for (text, mtm, stm) in [
            // The blank at the left end of the bottom row: L2 slides two tiles, one MTM move.
            ("1 2 3 4 5 6 0 7 8", 1, 2),
            ("1 2 3 4 5 6 7 0 8", 1, 1),
            // Two moves: U2 (the blank up its column), then L2.
            ("0 2 3 1 5 6 4 7 8", 2, 4),
        ] {
            let layout = parse_board(text, None).unwrap();
            let board = BitBoard::from_layout(&layout).unwrap();
            let Outcome::Solved(s) = MtmIdaStar::new()
                .solve(&board, &goal, &h, &Limits::default())
                .unwrap()
            else {
                panic!("solvable")
            };
            verify(&layout, &s.moves, goal.layout()).unwrap();
            assert_eq!(mtm_length(&s.moves), mtm, "{text}");
            assert!(s.moves.len() >= stm, "{text}");
            assert_eq!(s.guarantee, Guarantee::Optimal);
        }
    }
}
