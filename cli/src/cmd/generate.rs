//! `npuzzle generate`: reproducible random boards, solvable for the chosen goal, drawn by
//! [`npuzzle::generate`] (uniform, or `--walk K` random moves from the goal; `ChaCha8` seeded
//! with `--seed`, or a random seed).

use std::io::{self, BufWriter, Write};

use anyhow::{Result, bail};
use npuzzle::generate::{Method, generate};
use npuzzle::{Goal, parse_goal};

use crate::args::{GenerateArgs, GenerateFormat};
use crate::status::Status;

/// Runs `npuzzle generate`.
///
/// # Errors
/// A bad `--goal`, `--format hex` for boards of more than 16 cells, or a write error.
pub fn run(args: &GenerateArgs) -> Result<Status> {
    let shape = args.size;
    let goal = Goal::new(&parse_goal(&args.goal, Some(shape))?, shape)?;
    // A board on one line tells its shape only when it is square: other shapes get slash rows,
    // which `solve` and `check` read without `--size`.
    let format = args.format.unwrap_or(if shape.width() != shape.height() {
        GenerateFormat::Slash
    } else if shape.cells() <= 16 {
        GenerateFormat::Hex
    } else {
        GenerateFormat::Line
    });
    if format == GenerateFormat::Hex && shape.cells() > 16 {
        bail!(
            "--format hex writes one hex digit a cell, so it holds at most 16 cells; a {shape} board has {}: use --format line, grid or slash",
            shape.cells()
        );
    }
    let method = args.walk.map_or(Method::Uniform, Method::Walk);
    npuzzle::generate::check(method, args.count)?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let mut out = BufWriter::new(io::stdout().lock());
    for (i, layout) in generate(&goal, method, seed, args.count).enumerate() {
        match format {
            GenerateFormat::Hex => writeln!(out, "{}", layout.to_compact())?,
            GenerateFormat::Line => writeln!(out, "{}", layout.to_line())?,
            GenerateFormat::Slash => writeln!(out, "{}", layout.to_slash())?,
            GenerateFormat::Grid => {
                if i > 0 {
                    writeln!(out)?;
                }
                write!(out, "{}", layout.to_grid())?;
            }
        }
    }
    out.flush()?;
    Ok(Status::Success)
}
