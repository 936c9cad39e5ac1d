//! Independent solution checking.

use crate::layout::Layout;
use crate::moves::Move;

/// Why a move list does not solve a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// Start and goal have different shapes.
    #[error("start board is {start} but goal is {goal}")]
    ShapeMismatch {
        /// Start shape.
        start: crate::Shape,
        /// Goal shape.
        goal: crate::Shape,
    },
    /// A move that no tile can make.
    #[error(
        "move {index} ({mv}) is illegal: no tile can slide that way into the blank at cell {blank}"
    )]
    Illegal {
        /// 0-based index of the move.
        index: usize,
        /// The move.
        mv: Move,
        /// The blank's cell before it.
        blank: usize,
    },
    /// All moves are legal but the final board is not the goal.
    #[error("after {moves} moves the board is {reached}, not the goal {goal}")]
    NotGoal {
        /// Number of moves replayed.
        moves: usize,
        /// The board reached.
        reached: String,
        /// The goal.
        goal: String,
    },
}

/// Replays `moves` from `start` on a plain `Layout` (independent of any engine's board type) and
/// checks that they reach `goal`. O(W·H + moves).
///
/// # Errors
/// [`VerifyError`] naming the first illegal move, or the board reached instead of the goal.
pub fn verify(start: &Layout, moves: &[Move], goal: &Layout) -> Result<(), VerifyError> {
    if start.shape() != goal.shape() {
        return Err(VerifyError::ShapeMismatch {
            start: start.shape(),
            goal: goal.shape(),
        });
    }
    let reached = replay(start, moves)?;
    let cells = reached.cells();
    if cells != goal.cells() {
        return Err(VerifyError::NotGoal {
            moves: moves.len(),
            reached: reached.to_compact(),
            goal: goal.to_compact(),
        });
    }
    Ok(())
}

/// Replays `moves` from `start` on a plain `Layout`; returns the board reached. O(W·H + moves).
///
/// # Errors
/// [`VerifyError::Illegal`] naming the first illegal move.
pub(crate) fn replay(start: &Layout, moves: &[Move]) -> Result<Layout, VerifyError> {
    let shape = start.shape();
    let (w, h) = (shape.width(), shape.height());
    let mut cells: Vec<u16> = start.cells().to_vec();
    let mut blank = start.blank();
    for (index, &mv) in moves.iter().enumerate() {
        let (r, c) = (blank / w, blank % w);
        let target = match mv {
            Move::Down if r > 0 => blank - w,
            Move::Right if c > 0 => blank - 1,
            Move::Left if c + 1 < w => blank + 1,
            Move::Up if r + 1 < h => blank + w,
            _ => return Err(VerifyError::Illegal { index, mv, blank }),
        };
        cells.swap(blank, target);
        blank = target;
    }
    let cells: Vec<usize> = cells.iter().map(|&t| t as usize).collect();
    Ok(Layout::new(shape, &cells).expect("moves permute a valid layout"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Shape, parse_moves};

    #[test]
    fn verify_cases() {
        let s = Shape::square(3).unwrap();
        let goal = Layout::blank_last(s);
        let start = crate::parse_board("123456708", None).unwrap();
        assert!(verify(&start, &parse_moves("L").unwrap(), &goal).is_ok());
        assert!(matches!(
            verify(&start, &parse_moves("R").unwrap(), &goal),
            Err(VerifyError::NotGoal { .. })
        ));
        assert!(matches!(
            verify(&start, &parse_moves("D").unwrap(), &goal),
            Err(VerifyError::NotGoal { .. })
        ));
        assert!(matches!(
            verify(&start, &parse_moves("U").unwrap(), &goal),
            Err(VerifyError::Illegal {
                index: 0,
                mv: Move::Up,
                blank: 7
            })
        ));
    }
}
