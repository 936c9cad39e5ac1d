//! `npuzzle check`: is a board solvable for the goal, why, and how many moves it needs at least
//! (through [`npuzzle::check`]); for every board of a file or of standard input, each answer
//! written as soon as its board has been read.

use std::io::{self, Write};

use anyhow::{Context, Result};
use npuzzle::{Goal, Layout, Shape, parse_goal};

use crate::args::CheckArgs;
use crate::input::{Boards, with_total};
use crate::interrupt;
use crate::status::Status;

/// Runs `npuzzle check`: for each board, prints the board, the goal, the parity verdict with
/// its reasoning and, for solvable boards, the Manhattan and linear-conflict lower bounds; with
/// several boards, answers are separated by a blank line. Status: unsolvable if any board is.
///
/// # Errors
/// A malformed board or goal, or a goal of another shape (with several boards, the message
/// names the board; the boards before it have been answered).
pub fn run(args: &CheckArgs) -> Result<Status> {
    let size = args.options.size;
    let boards = Boards::new(args.board.as_slice(), args.file.as_deref(), size)?;
    // The output does not depend on the count: every board is answered as it arrives.
    let (total, boards) = interrupt::waiting(|| with_total(boards, false))?;
    let mut out = io::stdout().lock();
    let mut status = Status::Success;
    // The goal of the last board's shape: parsed once per shape change, not per board.
    let mut goal: Option<(Shape, Goal)> = None;
    let mut boards = boards.enumerate().peekable();
    while let Some((i, layout)) = interrupt::waiting(|| boards.next()) {
        if interrupt::interrupted() {
            eprintln!("interrupted after board {i}");
            return Ok(Status::Interrupted);
        }
        let layout = layout?;
        if i > 0 {
            writeln!(out)?;
        }
        let answer = check_one(args, &layout, &mut goal, &mut out);
        match answer {
            Ok(Status::Unsolvable) => status = Status::Unsolvable,
            Ok(_) => {}
            // A stream's only board: its error is the run's (known by looking for a next one).
            Err(e)
                if total == Some(1)
                    || (i == 0 && interrupt::waiting(|| boards.peek().is_none())) =>
            {
                return Err(e);
            }
            Err(e) => return Err(e.context(format!("board {} ({layout})", i + 1))),
        }
        out.flush()?;
    }
    Ok(status)
}

/// Checks one board against the goal (`goal` caches the goal of the last shape).
fn check_one(
    args: &CheckArgs,
    layout: &Layout,
    goal: &mut Option<(Shape, Goal)>,
    out: &mut impl Write,
) -> Result<Status> {
    let goal = match goal {
        Some((shape, g)) if *shape == layout.shape() => g,
        _ => {
            let g = Goal::new(
                &parse_goal(&args.options.goal, args.options.size)?,
                layout.shape(),
            )?;
            &goal.insert((layout.shape(), g)).1
        }
    };
    let c = npuzzle::check::check(layout, goal).context("check")?;
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
