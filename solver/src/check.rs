//! Solvability and lower bounds without search (`npuzzle check`).

use npuzzle_core::{Board, Goal, Heuristic, Layout, LinearConflict, Manhattan, Parity};
use npuzzle_nxn::VecBoard;

use crate::Error;

/// What can be said about a board without searching.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// The goal the board was checked against.
    pub goal: Goal,
    /// The parity argument: solvable or not, and why.
    pub parity: Parity,
    /// The Manhattan-distance lower bound, in moves (0 when unsolvable).
    pub manhattan: u32,
    /// The linear-conflict lower bound (Hansson, Mayer & Yung 1992), in moves (0 when
    /// unsolvable); at least [`Check::manhattan`].
    pub linear_conflict: u32,
}

/// Checks `layout` against `goal`: parity, then the Manhattan and linear-conflict lower bounds
/// for solvable boards. O(W·H·(W + H)).
///
/// # Errors
/// [`Error::Goal`] when the goal's shape differs from the board's.
pub fn check(layout: &Layout, goal: &Goal) -> Result<Check, Error> {
    let parity = goal.parity(layout)?;
    let (manhattan, linear_conflict) = if parity.solvable {
        let board = VecBoard::from_layout(layout)?;
        (
            Manhattan::new(goal).estimate(&board),
            LinearConflict::new(goal).estimate(&board),
        )
    } else {
        (0, 0)
    };
    Ok(Check {
        goal: goal.clone(),
        parity,
        manhattan,
        linear_conflict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Shape, parse_board};

    #[test]
    fn bounds() {
        let l = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        let c = check(&l, &Goal::blank_last(l.shape())).unwrap();
        assert!(c.parity.solvable);
        assert_eq!((c.manhattan, c.linear_conflict), (21, 23));
        // Boards above 16 cells get both bounds too.
        let big = Layout::blank_first(Shape::square(5).unwrap());
        let c = check(&big, &Goal::blank_last(big.shape())).unwrap();
        assert!(c.manhattan > 0 && c.linear_conflict >= c.manhattan);
        let u = parse_board("1 2 3 4 5 6 8 7 0", None).unwrap();
        let c = check(&u, &Goal::blank_last(u.shape())).unwrap();
        assert!(!c.parity.solvable);
        assert_eq!(c.linear_conflict, 0);
    }
}
