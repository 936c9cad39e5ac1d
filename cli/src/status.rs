//! How a command ended (the exit status) and how an error is shown: the bottom layer that every
//! subcommand returns into; imports no other CLI module.

use std::io;
use std::process::ExitCode;

/// How a command ended, as the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Every board was solved (or, for `check`, is solvable): exit 0.
    Success,
    /// Some board is proven unsolvable and none failed: exit 1.
    Unsolvable,
    /// Some board failed (its error is already on stderr): exit 2.
    Failed,
    /// SIGINT or SIGTERM stopped the command (what was proven is already on stderr): exit 130.
    Interrupted,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(match s {
            Status::Success => 0,
            Status::Unsolvable => 1,
            Status::Failed => 2,
            Status::Interrupted => 130,
        })
    }
}

/// The error and its causes on one line, joined by `": "`, leaving out a cause whose text the
/// message already holds (errors that print their source themselves) and any line breaks.
pub fn one_line(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let text = match cause.downcast_ref::<npuzzle::Error>() {
            Some(e) => e.describe(&flag),
            None => cause.to_string(),
        };
        if msg.contains(&text) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&text);
    }
    msg.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The command line's words for a setting the library names in an error
/// ([`npuzzle::Error::describe`]).
pub fn flag(s: npuzzle::Setting) -> String {
    use npuzzle::Setting;
    match s {
        Setting::Goal => "--goal",
        Setting::Engine => "--engine",
        Setting::Heuristic => "--heuristic",
        Setting::Pdb => "--pdb",
        Setting::NoReflect => "--no-reflect",
        Setting::PathCycleCheck => "--cycle-check path",
        Setting::FsmCycleCheck => "--cycle-check fsm",
        Setting::Optimal => "--optimal",
        Setting::Weight => "--weight",
        Setting::CheckPrintable => "--format boards; use --format text or json",
        Setting::Threads => "--threads",
        Setting::Metric => "--metric",
        Setting::Moves => "--moves",
        Setting::AllOptimal => "--all-optimal",
        Setting::Limit => "--limit",
        Setting::MaxDepth => "--max-depth",
        Setting::Seed => "--seed",
        Setting::MaxSteps => "--max-steps",
        Setting::PartialGoal => "--goal with wildcards (a partial goal)",
        other => return other.name().to_string(),
    }
    .to_string()
}

/// Whether the error is the reader of our output going away (`npuzzle generate | head -1`): not
/// a failure, so the program ends quietly.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_skips_repeated_causes() {
        #[derive(Debug)]
        struct Inner;
        impl std::fmt::Display for Inner {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("tile 9 is out\nof range")
            }
        }
        impl std::error::Error for Inner {}
        #[derive(Debug)]
        struct Outer(Inner);
        impl std::fmt::Display for Outer {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "line 1: {}", self.0)
            }
        }
        impl std::error::Error for Outer {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                Some(&self.0)
            }
        }
        let e = anyhow::Error::from(Outer(Inner)).context("board \"x\"");
        assert_eq!(one_line(&e), "board \"x\": line 1: tile 9 is out of range");
    }

    #[test]
    fn broken_pipe_is_recognised_through_context() {
        let e = anyhow::Error::from(io::Error::from(io::ErrorKind::BrokenPipe)).context("writing");
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }
}
