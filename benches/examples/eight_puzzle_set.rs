//! Writes the exhaustive 8-puzzle instance file: every position reachable from the goal (181,440
//! for the 8-puzzle), with its exact distance from a breadth-first search
//! (`npuzzle_testsuite::BfsOracle`), one `ID T0 .. T8 LENGTH` line each — the form that
//! `npuzzle bench` reads.
//!
//! `cargo run --release -p npuzzle-benches --example eight_puzzle_set -- [STEP] [GOAL] > FILE`
//!
//! - `STEP`: every STEP-th state in BFS order (default 1: all of them); the 31-move states are
//!   always included.
//! - `GOAL`: `blank-last` (default) or `blank-first`.
//!
//! Then, for example: `npuzzle bench FILE --jobs 1 -e idastar -e astar`.

use std::io::{self, BufWriter, Write};

use npuzzle_core::{Goal, Shape};
use npuzzle_testsuite::BfsOracle;

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let step: usize = match args.next() {
        Some(s) => s.parse().map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("STEP {s:?} is not a positive number"),
            )
        })?,
        None => 1,
    };
    let shape = Shape::square(3).expect("3x3");
    let goal = match args.next().as_deref() {
        None | Some("blank-last") => Goal::blank_last(shape),
        Some("blank-first") => Goal::blank_first(shape),
        Some(other) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("GOAL {other:?}: expected blank-last or blank-first"),
            ));
        }
    };
    let oracle = BfsOracle::new(&goal);
    let mut out = BufWriter::new(io::stdout().lock());
    let which = if step == 1 {
        "All".to_string()
    } else {
        format!("Every {step}th")
    };
    writeln!(
        out,
        "# {which} of the {} 8-puzzle positions reachable from the {} goal {}, in breadth-first order,",
        oracle.len(),
        goal.name(),
        goal.layout().to_compact()
    )?;
    writeln!(
        out,
        "# with its exact distance by breadth-first search (diameter {}). Format: ID T0 .. T8 LENGTH.",
        oracle.diameter()
    )?;
    let mut states = oracle.sample(step);
    // The sample appends the last state, which step 1 already holds.
    states.dedup();
    for (i, (layout, d)) in states.iter().enumerate() {
        writeln!(out, "{} {} {d}", i + 1, layout.to_line())?;
    }
    out.flush()
}
