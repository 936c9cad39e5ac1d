//! `npuzzle check`: is a board solvable for the goal, why, and how many moves it needs at least
//! (through [`npuzzle::check`]); for every board of a file or of standard input, each answer
//! written as soon as its board has been read.

use std::io::{self, Write};

use anyhow::{Context, Result};
use npuzzle::{Goal, Layout, PartialGoal, Shape, parse_goal, parse_partial};

use crate::args::{CheckArgs, CheckFormat};
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
    if let (Some(moves), Some(board)) = (&args.moves, &args.board) {
        return check_moves(args, board, moves);
    }
    let size = args.options.size;
    let boards = Boards::new(args.board.as_slice(), args.file.as_deref(), size)?;
    // The output does not depend on the count: every board is answered as it arrives.
    let (total, boards) = interrupt::waiting(|| with_total(boards, false))?;
    let mut out = io::stdout().lock();
    let mut status = Status::Success;
    // The goal of the last board's shape: parsed once per shape change, not per board.
    let mut goal: Option<(Shape, Target)> = None;
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

/// What boards are checked against: a goal board, or a partial goal (cells that do not
/// matter).
enum Target {
    Full(Goal),
    Partial(PartialGoal),
}

/// Checks one board against the goal (`goal` caches the goal of the last shape).
fn check_one(
    args: &CheckArgs,
    layout: &Layout,
    goal: &mut Option<(Shape, Target)>,
    out: &mut impl Write,
) -> Result<Status> {
    let goal = match goal {
        Some((shape, g)) if *shape == layout.shape() => g,
        _ => {
            let text = &args.options.goal;
            let g = match parse_partial(text, args.options.size.or(Some(layout.shape())))
                .map_err(|e| anyhow::anyhow!("bad --goal {text:?}: {e}"))?
            {
                Some(kind) => Target::Partial(
                    PartialGoal::new(&kind, layout.shape())
                        .map_err(|e| anyhow::anyhow!("bad --goal {text:?}: {e}"))?,
                ),
                None => Target::Full(Goal::new(
                    &parse_goal(text, args.options.size)?,
                    layout.shape(),
                )?),
            };
            &goal.insert((layout.shape(), g)).1
        }
    };
    writeln!(out, "Board: {} ({})", layout, layout.shape())?;
    let c = match goal {
        Target::Full(goal) => {
            writeln!(out, "Goal: {} ({})", goal.layout(), goal.name())?;
            npuzzle::check::check(layout, goal).context("check")?
        }
        Target::Partial(goal) => {
            writeln!(
                out,
                "Goal: {}",
                partial_label(&goal.board_text(), &goal.name())
            )?;
            npuzzle::check::check_partial(layout, goal).context("check")?
        }
    };
    if !c.parity.solvable {
        writeln!(out, "Unsolvable: {}", c.parity.explain())?;
        return Ok(Status::Unsolvable);
    }
    writeln!(out, "Solvable: {}", c.parity.explain())?;
    writeln!(
        out,
        "Lower bounds{}: Manhattan distance {}, linear conflict {}",
        if c.partial.is_some() {
            " (the tiles that matter)"
        } else {
            ""
        },
        moves(c.manhattan),
        moves(c.linear_conflict)
    )?;
    Ok(Status::Success)
}

/// A partial goal as the output names it: `123xxxxxx (partial goal first-rows:1; x: any tile)`,
/// `1x3x5x7x0 (partial goal; x: any tile)` when it has no name but its board.
fn partial_label(board: &str, name: &str) -> String {
    if board == name {
        format!("{board} (partial goal; x: any tile)")
    } else {
        format!("{board} (partial goal {name}; x: any tile)")
    }
}

/// `1 move`, `21 moves`.
fn moves(n: u32) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
}

/// `npuzzle check BOARD --moves MOVES`: judges the moves as a solution of the board
/// ([`npuzzle::Npuzzle::check_solution`] with IDA\* and linear conflict within `--max-nodes`).
/// Status: success if they solve the board, [`Status::Unsolvable`] (exit 1) if not.
///
/// # Errors
/// A malformed board, goal or move string (exit 2).
fn check_moves(args: &CheckArgs, board: &str, moves: &str) -> Result<Status> {
    let moves = npuzzle::check::read_moves(moves)?;
    let mut config = npuzzle::check::check_config_in(&args.options.goal, args.metric.into())?
        .cancel(interrupt::flag());
    if let Some(size) = args.options.size {
        config = config.size(size).goal(&args.options.goal)?;
    }
    if let Some(n) = args.max_nodes {
        config = config.max_nodes(n);
    }
    let solver = config.build()?;
    let layout = npuzzle::parse_board(board, args.options.size)?;
    let c = solver.check_solution(&layout, &moves, &solver.settings())?;
    let mut out = io::stdout().lock();
    match args.format {
        CheckFormat::Json => {
            serde_json::to_writer(&mut out, &c)?;
            writeln!(out)?;
        }
        CheckFormat::Text => write_judgement(&mut out, &c)?,
    }
    out.flush()?;
    Ok(if c.solves {
        Status::Success
    } else {
        Status::Unsolvable
    })
}

/// The judgement in lines: board, goal, moves, legality, the board reached and the wrong
/// cells, the optimum, and the verdict.
fn write_judgement(out: &mut impl Write, c: &npuzzle::check::SolutionCheck) -> io::Result<()> {
    use npuzzle::check::Optimum;
    writeln!(out, "Board: {} ({}x{})", c.board, c.width, c.height)?;
    match &c.partial_goal {
        Some(name) => writeln!(out, "Goal: {}", partial_label(&c.goal, name))?,
        None => writeln!(out, "Goal: {}", c.goal)?,
    }
    let metric = if c.metric == npuzzle::Metric::Mtm {
        " in the multi-tile metric"
    } else {
        ""
    };
    writeln!(
        out,
        "Moves: {} ({}{metric})",
        c.moves,
        moves(c.length as u32)
    )?;
    match &c.illegal {
        Some(i) => writeln!(
            out,
            "Illegal: move {} ({}) is illegal: {}; the {} move{} before it were replayed",
            i.index + 1,
            i.mv,
            i.reason,
            i.index,
            if i.index == 1 { "" } else { "s" }
        )?,
        None => writeln!(out, "Legal: every move is legal")?,
    }
    if c.solves {
        writeln!(out, "Reaches the goal: yes")?;
    } else {
        writeln!(
            out,
            "Reaches the goal: no; the board reached is {}",
            c.reached
        )?;
        let wrong: Vec<String> = c
            .wrong_cells
            .iter()
            .map(|w| {
                format!(
                    "row {} column {} holds {} (goal: {})",
                    w.row + 1,
                    w.column + 1,
                    w.tile,
                    w.expected
                )
            })
            .collect();
        writeln!(out, "Wrong cells ({}): {}", wrong.len(), wrong.join("; "))?;
    }
    match &c.optimum {
        Optimum::Unsolvable => writeln!(out, "Unsolvable: {}", c.parity)?,
        Optimum::Known {
            length,
            moves: m,
            how,
        } => writeln!(out, "Optimum: {}{metric} ({how}): {m}", moves(*length))?,
        Optimum::AtLeast { lower_bound, how } => writeln!(
            out,
            "Optimum: not computed; at least {} ({how})",
            moves(*lower_bound)
        )?,
    }
    writeln!(out, "Verdict: {}", c.verdict())
}
