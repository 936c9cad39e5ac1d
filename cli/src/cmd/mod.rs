//! The subcommands: the top layer of the CLI, each gluing [`crate::args`] → [`crate::plan`] →
//! the `npuzzle` facade → [`crate::output`]. No lower module imports these.

pub mod bench;
pub mod check;
pub mod generate;
pub mod pdb;
pub mod play;
pub mod serve;
pub mod shell;
pub mod solve;
