//! [`Answer`]: what a facade solve returns, and its packaging, apart from choosing what runs
//! (the registry's dispatch): a board decided without search ([`trivial`]), a solution
//! replayed to the goal with what it proves ([`solved`]), the printable-size check
//! ([`printable`]).

use npuzzle_core::{
    Goal, Guarantee, Layout, Metric, Move, MtmManhattan, Parity, Solution, Stats, moves_to_string,
    verify,
};

use crate::{Engine, Error, HeuristicKind};

/// `check_printable` refuses solutions whose board sequence has more cells than this.
pub const MAX_PRINTED_CELLS: usize = 100_000_000;

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
    /// The partial goal the board was solved for, when [`crate::Config::goal`] was one
    /// (`npuzzle_core::partial`); [`Answer::goal`] is then the full board the solution
    /// reaches (before a search, or for an unsolvable board, the partial goal's canonical
    /// completion, [`npuzzle_core::PartialGoal::canonical`]) and [`Answer::parity`] the
    /// parity against it.
    pub partial: Option<npuzzle_core::PartialGoal>,
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

/// Refuses an answer whose board sequence (start to goal) has more than [`MAX_PRINTED_CELLS`]
/// cells in all (`Config::check_printable`, `--format boards`).
///
/// # Errors
/// [`Error::TooManyBoards`] with the moves and the shape.
pub(crate) fn printable(answer: &Answer) -> Result<(), Error> {
    let shape = answer.layout.shape();
    if (answer.len() + 1).saturating_mul(shape.cells()) > MAX_PRINTED_CELLS {
        return Err(Error::TooManyBoards {
            moves: answer.len(),
            shape,
        });
    }
    Ok(())
}

/// A board decided without search: unsolvable by parity, or equal to its goal.
pub(crate) struct Trivial<'a> {
    pub layout: &'a Layout,
    pub goal: &'a Goal,
    pub parity: Parity,
    /// The engine and heuristic that would have searched.
    pub engine: Engine,
    pub heuristic: HeuristicKind,
    pub weight: Option<f64>,
    pub metric: Metric,
}

/// The answer for a [`Trivial`] board: the parity proof, or the empty solution (optimal
/// whatever the engine: nothing is shorter).
pub(crate) fn trivial(t: &Trivial<'_>) -> Answer {
    let solution = t.parity.solvable.then(|| Solution {
        moves: Vec::new(),
        guarantee: Guarantee::Optimal,
        stats: Stats::default(),
    });
    Answer {
        layout: t.layout.clone(),
        goal: t.goal.clone(),
        engine: t.engine,
        heuristic: t.heuristic,
        weight: t.weight,
        parity: t.parity.clone(),
        solution,
        lower_bound: 0,
        notes: Vec::new(),
        metric: t.metric,
        partial: None,
    }
}

/// `answer` with `solution`, replayed to the goal, and its lower bound: the length (in the
/// answer's metric) when the solution is proven optimal, else the start's h when the heuristic
/// is `admissible`, else 0. In the multi-tile metric only the idastar engine searches MTM
/// moves: any other engine's solution is unproven there, with the MTM bound as lower bound.
///
/// # Errors
/// [`Error::Internal`] when the moves do not solve the board.
pub(crate) fn solved(
    mut answer: Answer,
    solution: Solution,
    admissible: bool,
) -> Result<Answer, Error> {
    verify(&answer.layout, &solution.moves, answer.goal.layout()).map_err(|e| {
        Error::Internal(format!(
            "the {} engine returned moves that do not solve the board: {e}",
            answer.engine.name()
        ))
    })?;
    let mut solution = solution;
    if answer.metric == Metric::Mtm && !answer.engine.searches_mtm() {
        // Searched in single-tile moves: nothing is proven about the MTM optimum but the MTM
        // bound of the start board.
        solution.guarantee = Guarantee::Unproven;
        answer.lower_bound = MtmManhattan::new(&answer.goal).estimate_layout(&answer.layout);
    } else {
        answer.lower_bound = if solution.guarantee.is_optimal() {
            answer.metric.length(&solution.moves) as u32
        } else if admissible {
            solution.stats.initial_h
        } else {
            0
        };
    }
    answer.solution = Some(solution);
    Ok(answer)
}
