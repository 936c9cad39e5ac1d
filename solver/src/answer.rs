//! [`Answer`]: what a facade solve returns.

use npuzzle_core::{Goal, Guarantee, Layout, Move, Parity, Solution, moves_to_string};

use crate::{Engine, HeuristicKind};

/// A proven answer for one board: a solution already replayed to the goal with
/// [`npuzzle_core::verify`], with what is proven about its length, or a parity proof that no
/// solution exists.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The start board.
    pub layout: Layout,
    /// The goal it was solved for.
    pub goal: Goal,
    /// The engine that produced the solution (for an unsolvable board, the one that would have
    /// searched: parity alone decides, before any search).
    pub engine: Engine,
    /// The heuristic it searched with.
    pub heuristic: HeuristicKind,
    /// Weighted A\*'s weight, for that engine only.
    pub weight: Option<f64>,
    /// The parity argument (solvable or not).
    pub parity: Parity,
    /// The solution (its [`Solution::guarantee`] says what is proven); `None` when the board is
    /// unsolvable.
    pub solution: Option<Solution>,
    /// The best proven lower bound on the optimal length, in moves: the solution's length when
    /// it is proven optimal, else the largest of the admissible heuristic's start value and the
    /// last IDA\* threshold exhausted on this board. 0 for unsolvable boards.
    pub lower_bound: u32,
    /// What the auto policy decided on the way, in words (a fallback and why); empty when
    /// nothing worth saying happened.
    pub notes: Vec<String>,
    /// The metric the answer's length, lower bound and guarantee are in
    /// ([`crate::Config::metric`]); the moves are single-tile moves in both.
    pub metric: npuzzle_core::Metric,
}

impl Answer {
    /// Whether a solution exists (parity).
    pub fn is_solvable(&self) -> bool {
        self.parity.solvable
    }

    /// The number of single-tile moves of the solution (its STM length; see [`Answer::length`]
    /// for the length in the answer's metric); 0 when the board is unsolvable (see
    /// [`Answer::is_solvable`]) or already the goal.
    pub fn len(&self) -> usize {
        self.solution.as_ref().map_or(0, |s| s.moves.len())
    }

    /// The solution's length **in the answer's metric** ([`Answer::metric`]): single-tile moves
    /// in STM (= [`Answer::len`]), runs of one direction in MTM
    /// ([`npuzzle_core::mtm_length`]); 0 when unsolvable. O(moves).
    pub fn length(&self) -> usize {
        self.solution
            .as_ref()
            .map_or(0, |s| self.metric.length(&s.moves))
    }

    /// Whether the answer has no moves (the board is the goal, or unsolvable).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What is proven about the solution's length; `None` when the board is unsolvable.
    pub fn guarantee(&self) -> Option<Guarantee> {
        self.solution.as_ref().map(|s| s.guarantee)
    }

    /// Whether the board is solvable and the solution proven optimal.
    pub fn is_optimal(&self) -> bool {
        self.guarantee().is_some_and(Guarantee::is_optimal)
    }

    /// The moves as letters `U D L R` naming the direction the tile slides (empty when
    /// unsolvable or already solved).
    pub fn moves(&self) -> String {
        self.solution
            .as_ref()
            .map_or_else(String::new, |s| moves_to_string(&s.moves))
    }

    /// The moves as values.
    pub fn move_list(&self) -> &[Move] {
        self.solution.as_ref().map_or(&[], |s| &s.moves)
    }

    /// Every board along the solution, the start first and the goal last (just the start when
    /// unsolvable). O(moves × cells) memory.
    pub fn boards(&self) -> Vec<Layout> {
        let mut board = self.layout.clone();
        let mut out = Vec::with_capacity(self.len() + 1);
        out.push(board.clone());
        for &m in self.move_list() {
            // The solution was verified, so every move is legal.
            let legal = board.apply(m);
            debug_assert!(legal, "verified solutions have legal moves only");
            out.push(board.clone());
        }
        out
    }
}
