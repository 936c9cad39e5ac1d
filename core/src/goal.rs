//! Goals (blank-last, blank-first, or any explicit board) and solvability by parity.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::layout::{Layout, Shape};

/// Which goal convention a goal board follows.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GoalKind {
    /// Tiles `1..N-1` in row-major order, blank in the last cell (the default, e.g. `123456789abcdef0`).
    BlankLast,
    /// `0 1 .. N-1`: blank in the first cell (Korf's convention, used by Korf's 100).
    BlankFirst,
    /// Any explicit goal board of the same shape.
    Custom(Layout),
}

/// Error for a goal that does not fit the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the goal board is {goal} but the board to solve is {board}")]
pub struct GoalShapeError {
    /// The goal's shape.
    pub goal: Shape,
    /// The board's shape.
    pub board: Shape,
}

/// A resolved goal for one shape: the goal layout and, for each tile, its goal cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Goal {
    kind: GoalKind,
    layout: Layout,
    cell_of: Vec<u16>,
}

impl Goal {
    /// Resolves `kind` for boards of `shape`.
    ///
    /// # Errors
    /// [`GoalShapeError`] if a [`GoalKind::Custom`] goal has another shape.
    pub fn new(kind: &GoalKind, shape: Shape) -> Result<Goal, GoalShapeError> {
        let layout = match kind {
            GoalKind::BlankLast => Layout::blank_last(shape),
            GoalKind::BlankFirst => Layout::blank_first(shape),
            GoalKind::Custom(l) => {
                if l.shape() != shape {
                    return Err(GoalShapeError {
                        goal: l.shape(),
                        board: shape,
                    });
                }
                l.clone()
            }
        };
        let cell_of = layout.positions();
        Ok(Goal {
            kind: kind.clone(),
            layout,
            cell_of,
        })
    }

    /// The blank-last goal for `shape`.
    pub fn blank_last(shape: Shape) -> Goal {
        let layout = Layout::blank_last(shape);
        let cell_of = layout.positions();
        Goal {
            kind: GoalKind::BlankLast,
            layout,
            cell_of,
        }
    }

    /// The blank-first goal for `shape`.
    pub fn blank_first(shape: Shape) -> Goal {
        let layout = Layout::blank_first(shape);
        let cell_of = layout.positions();
        Goal {
            kind: GoalKind::BlankFirst,
            layout,
            cell_of,
        }
    }

    /// An explicit goal board.
    pub fn custom(layout: Layout) -> Goal {
        let cell_of = layout.positions();
        Goal {
            kind: GoalKind::Custom(layout.clone()),
            layout,
            cell_of,
        }
    }

    /// The convention this goal was built from.
    pub fn kind(&self) -> &GoalKind {
        &self.kind
    }

    /// The goal board.
    #[inline]
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.layout.shape()
    }

    /// The goal cell of `tile` (0 = the blank's goal cell).
    ///
    /// # Panics
    /// If `tile >= W*H`.
    #[inline]
    pub fn cell_of(&self, tile: usize) -> usize {
        self.cell_of[tile] as usize
    }

    /// A short name: `blank-last`, `blank-first`, or the goal board in compact form.
    pub fn name(&self) -> String {
        match &self.kind {
            GoalKind::BlankLast => "blank-last".into(),
            GoalKind::BlankFirst => "blank-first".into(),
            GoalKind::Custom(l) => l.to_compact(),
        }
    }

    /// Decides by parity whether `board` can reach this goal (see [`Parity`]). O(W·H).
    ///
    /// # Errors
    /// [`GoalShapeError`] if the shapes differ.
    pub fn parity(&self, board: &Layout) -> Result<Parity, GoalShapeError> {
        if board.shape() != self.shape() {
            return Err(GoalShapeError {
                goal: self.shape(),
                board: board.shape(),
            });
        }
        Ok(Parity::compute(board, self))
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The parity argument deciding solvability, for any W×H board and any goal.
///
/// Every move swaps the blank with a neighbouring tile: one transposition of the permutation
/// (blank included) that maps the board to the goal, and one step of the blank. So the parity of
/// that permutation always equals the parity of the blank's Manhattan distance to its goal cell;
/// and on every board with W, H ≥ 2 all positions satisfying this are reachable (Johnson & Story
/// 1879; Archer 1999 for the general rectangular case). The board is solvable iff the two parities
/// agree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parity {
    /// Minimum number of transpositions that sort the board into the goal (`N - cycles`).
    pub transpositions: usize,
    /// Manhattan distance, in moves, from the blank's cell to its goal cell.
    pub blank_distance: usize,
    /// Whether the two numbers have the same parity.
    pub solvable: bool,
}

impl Parity {
    fn compute(board: &Layout, goal: &Goal) -> Parity {
        let n = board.cells().len();
        let mut seen = vec![false; n];
        let mut cycles = 0;
        for start in 0..n {
            if seen[start] {
                continue;
            }
            cycles += 1;
            let mut c = start;
            while !seen[c] {
                seen[c] = true;
                c = goal.cell_of(board.tile(c));
            }
        }
        let transpositions = n - cycles;
        let blank_distance = board.shape().distance(board.blank(), goal.cell_of(0));
        Parity {
            transpositions,
            blank_distance,
            solvable: transpositions % 2 == blank_distance % 2,
        }
    }

    /// One-sentence explanation of the verdict.
    pub fn explain(&self) -> String {
        let pe = |x: usize| if x.is_multiple_of(2) { "even" } else { "odd" };
        format!(
            "the permutation taking the board to the goal is {} ({} transposition{}) and the blank is {} move{} from its goal cell ({}): {}",
            pe(self.transpositions),
            self.transpositions,
            if self.transpositions == 1 { "" } else { "s" },
            self.blank_distance,
            if self.blank_distance == 1 { "" } else { "s" },
            pe(self.blank_distance),
            if self.solvable {
                "the parities agree, so the board is solvable"
            } else {
                "the parities differ, so no sequence of moves can reach the goal"
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_basics() {
        let s = Shape::square(4).unwrap();
        let g = Goal::blank_last(s);
        assert!(g.parity(g.layout()).unwrap().solvable);
        // Swap tiles 14 and 15: the classic unsolvable 15-puzzle.
        let mut c: Vec<usize> = g.layout().cells().iter().map(|&t| t as usize).collect();
        c.swap(13, 14);
        let l = Layout::new(s, &c).unwrap();
        let p = g.parity(&l).unwrap();
        assert!(!p.solvable);
        assert_eq!(p.transpositions, 1);
        // Blank-first goal vs blank-last goal: 15 transpositions (one 16-cycle), blank 6 away.
        let p = Goal::blank_first(s).parity(g.layout()).unwrap();
        assert_eq!(
            (p.transpositions, p.blank_distance, p.solvable),
            (15, 6, false)
        );
        let s3 = Shape::square(3).unwrap();
        // 8 cycle + blank distance 4 on 3x3: solvable.
        assert!(
            Goal::blank_first(s3)
                .parity(&Layout::blank_last(s3))
                .unwrap()
                .solvable
        );
    }
}
