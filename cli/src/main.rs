//! # npuzzle
//!
//! The command-line front end of the npuzzle toolkit: optimal solutions for sliding-tile puzzles
//! (8-puzzle, 15-puzzle, any W×H board up to 127×127; boards too large for optimal search get
//! the constructive solver's answer, marked as not proven optimal), solvability checks with the
//! parity argument, and reproducible random instances of any size up to 127×127.
//!
//! ```text
//! npuzzle solve 2348170c56ab9def                  # 15 moves
//! npuzzle solve "8 6 7 2 5 4 3 0 1" --format json # the hardest 8-puzzle: 31 moves
//! npuzzle solve --file korf.txt --goal blank-first --engine idastar --heuristic manhattan
//! npuzzle check 123456789abcdfe0                  # unsolvable, and why
//! npuzzle generate --size 4x4 --count 10 --seed 42
//! npuzzle pdb build --pdb 78 --goal blank-first     # 7-8 pattern databases, cached
//! npuzzle bench testdata/korf100.txt --goal blank-first --jobs 1 --json korf100.jsonl
//! npuzzle play "8 6 7 2 5 4 3 0 1" --delay 200        # watch the solution on the terminal
//! ```
//!
//! Moves are printed as letters naming the direction in which **the tile slides** into the blank
//! (`U` = the tile below the blank moves up).
//!
//! Exit status: **0** solved (or, for `check`, solvable), **1** proven unsolvable, **2** error:
//! bad input, bad usage, or a search limit reached; **130** interrupted by SIGINT (Ctrl-C) or
//! SIGTERM, after printing on stderr what was proven (see [`interrupt`]). A closed output pipe
//! ends the program quietly with status 0.
//!
//! ## Structure
//! This crate is glue over the `npuzzle` library facade, cut by layer (no module imports one
//! that imports it back):
//! 1. [`args`]: the clap types; [`status`]: exit statuses and one-line errors; [`interrupt`]:
//!    SIGINT/SIGTERM as the searches' cancel flag;
//! 2. [`plan`]: options validated into an [`npuzzle::Npuzzle`] (the auto policy lives in the
//!    facade); [`input`] reads boards; [`progress`] is the terminal observer (spinners, build
//!    bars, the auto policy's notes);
//! 3. [`output`]: answers as text, JSON or boards;
//! 4. [`cmd`]: the subcommands on top (`solve`, `check`, `generate`, `pdb`, `bench`, `play`;
//!    [`playback`] holds `play`'s frames and keys, pure, below it).
//!
//! Every solution is replayed with [`npuzzle_core::verify`] inside the facade before it is
//! printed. Library crates return typed errors; this binary alone uses `anyhow` and turns any
//! error into one line on stderr.

mod args;
mod cmd;
mod input;
mod interrupt;
mod output;
mod plan;
mod playback;
mod progress;
mod status;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

use crate::args::{Cli, Command};
use crate::status::{is_broken_pipe, one_line};

fn main() -> ExitCode {
    // Usage errors: clap prints them and exits with status 2.
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Command::Solve(_)
            | Command::Check(_)
            | Command::Bench(_)
            | Command::Pdb(args::PdbArgs {
                command: args::PdbCommand::Build { .. },
                ..
            })
    ) && let Err(e) = interrupt::install()
    {
        let _ = writeln!(io::stderr().lock(), "error: cannot handle signals: {e}");
        return ExitCode::from(2);
    }
    let result = match &cli.command {
        Command::Solve(a) => cmd::solve::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Pdb(a) => cmd::pdb::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Completions(a) => cmd::shell::completions(a),
        Command::Man => cmd::shell::man(),
    };
    match result {
        Ok(status) => status.into(),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        // What the signal stopped (a table build, a search) says so itself.
        Err(e) if interrupt::interrupted() => {
            let _ = writeln!(io::stderr().lock(), "interrupted: {}", one_line(&e));
            ExitCode::from(interrupt::EXIT_INTERRUPTED)
        }
        Err(e) => {
            let _ = writeln!(io::stderr().lock(), "error: {}", one_line(&e));
            ExitCode::from(2)
        }
    }
}
