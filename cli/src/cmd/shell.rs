//! `npuzzle completions SHELL` and `npuzzle man`: the shell completion scripts and the man
//! page, generated from the clap definition of [`crate::args::Cli`] (`clap_complete`,
//! `clap_mangen`), so they list every subcommand and option of this build.

use std::io::{self, Write};

use anyhow::Result;
use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs};
use crate::status::Status;

/// Writes the completion script of `args.shell` to standard output.
///
/// # Errors
/// A write error (a closed pipe ends quietly, as for every subcommand).
pub fn completions(args: &CompletionsArgs) -> Result<Status> {
    let mut out = io::stdout().lock();
    clap_complete::generate(args.shell, &mut Cli::command(), "npuzzle", &mut out);
    out.flush()?;
    Ok(Status::Success)
}

/// Writes the man page (roff, section 1) to standard output.
///
/// # Errors
/// A write error.
pub fn man() -> Result<Status> {
    let mut out = io::stdout().lock();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    out.flush()?;
    Ok(Status::Success)
}
