//! `npuzzle check`: is a board solvable for the goal, why, and how many moves it needs at least
//! (through [`npuzzle::check`]).

use std::io::{self, Write};

use anyhow::Result;
use npuzzle::{Goal, parse_goal};

use crate::args::CheckArgs;
use crate::input::read_one_board;
use crate::status::Status;

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
    let c = npuzzle::check::check(&layout, &goal)?;
    let mut out = io::stdout().lock();
    writeln!(out, "Board: {} ({})", layout, layout.shape())?;
    writeln!(out, "Goal: {} ({})", goal.layout(), goal.name())?;
    if !c.parity.solvable {
        writeln!(out, "Unsolvable: {}", c.parity.explain())?;
        return Ok(Status::Unsolvable);
    }
    writeln!(out, "Solvable: {}", c.parity.explain())?;
    writeln!(
        out,
        "Lower bounds: Manhattan distance {}, linear conflict {}",
        moves(c.manhattan),
        moves(c.linear_conflict)
    )?;
    Ok(Status::Success)
}

/// `1 move`, `21 moves`.
fn moves(n: u32) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}
