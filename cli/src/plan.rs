//! From parsed arguments to validated facade configurations: the second layer of the CLI (it
//! imports only [`crate::args`] and the library crates).
//!
//! Everything that can be wrong with the options is found here, before any board is read or
//! searched: [`solve_config`] hands `npuzzle solve`'s options to [`npuzzle::Config`] and
//! validates them with [`npuzzle::Config::build`], where the auto policy lives.

use std::sync::Arc;

use anyhow::Result;
use npuzzle::{
    Config, CycleCheck, Engine, EngineChoice, GoalKind, HeuristicKind, Npuzzle, Observer,
};

use crate::args::{CycleCheckChoice, PlayArgs, SearchOptions, SolveArgs};

/// The [`Config`] of the search options `solve` and `play` share, reporting to `observer`.
///
/// # Errors
/// A bad `--goal` or `--pdb`.
fn search_config(s: &SearchOptions, observer: Arc<dyn Observer>) -> Result<Config> {
    let mut c = Config::new()
        .engine_choice(s.engine)
        .optimal(s.optimal)
        .metric(s.metric.into())
        .observer(observer);
    if let Some(size) = s.board.size {
        c = c.size(size);
    }
    c = c.goal(&s.board.goal)?;
    if let Some(h) = s.heuristic {
        c = c.heuristic(h);
    }
    if let Some(p) = &s.pdb {
        c = c.pdb(p)?;
    }
    if let Some(d) = &s.pdb_dir {
        c = c.pdb_dir(d);
    }
    if let Some(n) = s.max_nodes {
        c = c.max_nodes(n);
    }
    if let Some(t) = s.timeout {
        c = c.timeout(t);
    }
    if let Some(m) = s.memory_limit {
        c = c.memory_limit(m);
    }
    if let Some(w) = s.weight {
        c = c.weight(w);
    }
    if let Some(d) = s.max_depth {
        c = c.max_depth(d);
    }
    if let Some(seed) = s.seed {
        c = c.seed(seed);
    }
    if let Some(n) = s.max_steps {
        c = c.max_steps(n);
    }
    Ok(c)
}

/// Validates `npuzzle solve`'s options into a ready [`Npuzzle`] whose progress and decisions go
/// to `observer`.
///
/// # Errors
/// A bad `--goal` or `--pdb`, `--pdb`/`--no-reflect` with another heuristic, `--cycle-check
/// path` with an engine other than IDA\*, a bad `--weight` or one with an engine other than
/// weighted A\*, or `--optimal` with an engine × heuristic that does not prove optimality.
pub fn solve_config(args: &SolveArgs, observer: Arc<dyn Observer>) -> Result<Npuzzle> {
    let mut c = search_config(&args.search, observer)?
        .reflect(!args.no_reflect)
        .check_printable(args.format == crate::args::SolveFormat::Boards)
        .threads(args.threads)
        .deterministic(args.deterministic)
        .cancel(crate::interrupt::flag());
    if let Some(check) = args.cycle_check {
        c = c.cycle_check(match check {
            CycleCheckChoice::Parent => CycleCheck::Parent,
            CycleCheckChoice::Path => CycleCheck::Path,
            CycleCheckChoice::Fsm => CycleCheck::Fsm,
        });
    }
    if let Some(t) = args.anytime {
        c = c.anytime_budget(t);
    }
    Ok(c.build()?)
}

/// Validates `npuzzle play`'s options (the search options it shares with `solve`) into a ready
/// [`Npuzzle`] whose progress goes to `observer`.
///
/// # Errors
/// As [`solve_config`].
pub fn play_config(args: &PlayArgs, observer: Arc<dyn Observer>) -> Result<Npuzzle> {
    Ok(search_config(&args.search, observer)?.build()?)
}

/// The configuration of one `npuzzle bench` column: `engine` × `heuristic` in `metric` with the
/// run's goal and limits, IDA\*'s default cycle check, `threads` for IDA\*, and `weight` for
/// weighted A\* (`None`: its default, 2). `--engine auto` gets `optimal`, so that it never gives
/// an answer it cannot prove.
///
/// # Errors
/// As [`solve_config`] (a bad weight, a weight without weighted A\*, a heuristic not
/// admissible in the multi-tile metric for its search).
#[expect(
    clippy::too_many_arguments,
    reason = "one bench column: each argument is one command-line option"
)]
pub fn bench_config(
    engine_arg: EngineChoice,
    heuristic_arg: HeuristicKind,
    metric: npuzzle::Metric,
    goal: &GoalKind,
    limits: npuzzle::Limits,
    weight: Option<f64>,
    threads: usize,
    observer: Arc<dyn Observer>,
) -> Result<Npuzzle> {
    let mut c = Config::new()
        .goal_kind(goal.clone())
        .engine_choice(engine_arg)
        .heuristic(heuristic_arg)
        .metric(metric)
        .limits(limits)
        .optimal(engine_arg == EngineChoice::Auto)
        .threads(threads)
        .observer(observer);
    if engine_arg == EngineChoice::Engine(Engine::WeightedAStar)
        && let Some(w) = weight
    {
        c = c.weight(w);
    }
    Ok(c.build()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use clap::Parser;

    fn solve_args(argv: &[&str]) -> SolveArgs {
        let mut v = vec!["npuzzle", "solve"];
        v.extend_from_slice(argv);
        match Cli::parse_from(v).command {
            Command::Solve(a) => a,
            other => panic!("not solve: {other:?}"),
        }
    }

    fn plan(argv: &[&str]) -> Result<Npuzzle> {
        solve_config(&solve_args(argv), Arc::new(npuzzle::Quiet))
    }

    #[test]
    fn auto_and_defaults() {
        let p = plan(&["123456780"]).unwrap();
        assert_eq!(p.engine(), None);
        assert_eq!(p.heuristic(), HeuristicKind::Pdb);
        assert_eq!(p.config().limits_ref().max_nodes, None);
    }

    #[test]
    fn options_are_validated() {
        let p = plan(&[
            "--engine",
            "astar",
            "--memory-limit",
            "1M",
            "--goal",
            "blank-first",
        ])
        .unwrap();
        assert_eq!(p.engine(), Some(Engine::AStar));
        assert_eq!(p.config().limits_ref().memory_bytes, Some(1 << 20));
        assert!(plan(&["--engine", "astar", "--cycle-check", "path"]).is_err());
        assert!(plan(&["--goal", "12345678"]).is_err());
        // An explicit engine keeps linear conflict as the default heuristic.
        let p = plan(&["--engine", "idastar"]).unwrap();
        assert_eq!(p.heuristic(), HeuristicKind::LinearConflict);
        let p = plan(&["--engine", "idastar", "--pdb", "78"]).unwrap();
        assert_eq!(p.heuristic(), HeuristicKind::Pdb);
        assert!(plan(&["--pdb", "7x8"]).is_err());
        assert!(plan(&["--heuristic", "manhattan", "--pdb", "78"]).is_err());
        assert!(plan(&["--heuristic", "manhattan", "--no-reflect"]).is_err());
        assert!(plan(&["--goal", "1 2 3 4 5 6 7 8 9 10 11 0", "--size", "4x3"]).is_ok());
    }

    /// `--optimal` refuses what is not proven, naming the reason (the example of the issue that
    /// asked for typed guarantees: weighted A* with weight 1 and the inconsistent pdb heuristic).
    #[test]
    fn optimal_refuses_unproven_combinations() {
        let e = plan(&[
            "--optimal",
            "--engine",
            "weighted-astar",
            "--weight",
            "1",
            "--heuristic",
            "pdb",
        ])
        .unwrap_err()
        .to_string();
        assert!(e.contains("never reopens states"), "{e}");
        assert!(e.contains("pdb is only admissible"), "{e}");
        assert!(
            plan(&["--optimal", "--engine", "weighted-astar", "--weight", "1"]).is_ok(),
            "weight 1 with the consistent linear conflict is optimal"
        );
        // In the command line's words (`--optimal`), as printed.
        let e =
            crate::status::one_line(&plan(&["--optimal", "--engine", "constructive"]).unwrap_err());
        assert!(
            e.contains("--optimal: the constructive engine does not prove"),
            "{e}"
        );
        for ok in [
            &["--optimal"][..],
            &["--optimal", "--engine", "idastar", "--heuristic", "pdb"],
            &["--optimal", "--engine", "astar", "--heuristic", "pdb"],
            &[
                "--optimal",
                "--engine",
                "bidirectional",
                "--heuristic",
                "hamming",
            ],
        ] {
            assert!(plan(ok).is_ok(), "{ok:?}");
        }
    }
}
