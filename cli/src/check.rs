//! `npuzzle check`: is a board solvable for the goal, why, and how many moves it needs at least.

use std::io::{self, Write};

use anyhow::Result;
use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Layout, LinearConflict, Manhattan};

use crate::Status;
use crate::args::CheckArgs;
use crate::input::read_one_board;
use crate::plan::parse_goal;

/// Runs `npuzzle check`: prints the board, the goal, the parity verdict with its reasoning and,
/// for solvable boards, the Manhattan and linear-conflict lower bounds.
///
/// # Errors
/// A malformed board or goal, or a goal of another shape.
pub fn run(args: &CheckArgs) -> Result<Status> {
    let layout = read_one_board(args.board.as_deref(), args.options.size)?;
    let goal = Goal::new(
        &parse_goal(&args.options.goal, args.options.size)?,
        layout.shape(),
    )?;
    let parity = goal.parity(&layout)?;
    let mut out = io::stdout().lock();
    writeln!(out, "Board: {} ({})", layout, layout.shape())?;
    writeln!(out, "Goal: {} ({})", goal.layout(), goal.name())?;
    if !parity.solvable {
        writeln!(out, "Unsolvable: {}", parity.explain())?;
        return Ok(Status::Unsolvable);
    }
    writeln!(out, "Solvable: {}", parity.explain())?;
    let (manhattan, linear_conflict) = lower_bounds(&layout, &goal);
    writeln!(
        out,
        "Lower bounds: Manhattan distance {}, {linear_conflict}",
        moves(manhattan)
    )?;
    Ok(Status::Success)
}

/// The Manhattan distance (any size) and a description of the linear-conflict bound (boards of
/// at most 16 cells: the heuristics need an engine board type, and the generic one is not
/// available yet).
fn lower_bounds(layout: &Layout, goal: &Goal) -> (u32, String) {
    let md = Manhattan::new(goal);
    let manhattan = layout
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(cell, &t)| md.tile_distance(t as usize, cell))
        .sum();
    let lc = match BitBoard::from_layout(layout) {
        Ok(board) => format!(
            "linear conflict {}",
            moves(LinearConflict::new(goal).estimate(&board))
        ),
        Err(_) => "linear conflict not computed (boards of more than 16 cells need the generic board, npuzzle-nxn)".to_string(),
    };
    (manhattan, lc)
}

/// `1 move`, `21 moves`.
fn moves(n: u32) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::parse_board;

    #[test]
    fn bounds() {
        let l = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        let g = Goal::blank_last(l.shape());
        assert_eq!(
            lower_bounds(&l, &g),
            (21, "linear conflict 23 moves".to_string())
        );
        let big = Layout::blank_first(npuzzle_core::Shape::square(5).unwrap());
        let (md, lc) = lower_bounds(&big, &Goal::blank_last(big.shape()));
        assert!(md > 0);
        assert!(lc.contains("npuzzle-nxn"));
    }
}
