//! `npuzzle bench`: solves every instance of a benchmark file (Korf's 100, seed15, ...) with each
//! engine × heuristic configuration, in the single-tile or the multi-tile metric (`--metric`),
//! checks every length (counted in that metric) against the file's known optimum, writes
//! one JSON line per instance and configuration, and ends with a Markdown summary per
//! configuration.
//!
//! Every board goes through the facade like `npuzzle solve` ([`npuzzle::Npuzzle::solve`]), so
//! every answer is replayed to the goal with `npuzzle_core::verify` before it counts. Instances
//! run in parallel on `--jobs` plain threads that take them in file order; records are written in file
//! order all the same (each as soon as every earlier instance of its configuration is done), so
//! two runs compare line by line.
//!
//! Where the summary goes: standard error when the JSON lines go to standard output (so that
//! standard output stays pure JSON lines), standard output when `--json` names a file.
//!
//! Cut by layer: [`records`] holds a configuration and turns one answer into one JSON record;
//! [`summary`] totals the records and prints the table; this module, on top, runs the
//! configurations.

mod records;
mod summary;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle::npuzzle_nxn::WeightedAStar;
use npuzzle::{Goal, GoalKind, Limit, Limits, Observer, parse_goal};
use npuzzle_core::parse_instances;

use crate::args::BenchArgs;
use crate::interrupt;
use crate::plan::bench_config;
use crate::progress::Terminal;
use crate::status::Status;
use npuzzle::{Engine, EngineChoice, HeuristicKind};
use records::{Config, engine_label};

/// Runs `npuzzle bench`.
///
/// # Errors
/// An unreadable or malformed instance file, a bad `--goal` or one of another shape than the
/// instances, a bad `--weight` or one without the weighted-astar engine, an unwritable `--json`
/// file, or a write error.
/// Mismatches and failed boards are not errors: they are reported on stderr and give
/// [`Status::Failed`].
pub fn run(args: &BenchArgs) -> Result<Status> {
    let path = &args.file;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let instances = parse_instances(&text, args.board.size)
        .with_context(|| format!("{} is not a benchmark instance file", path.display()))?;
    let goal = parse_goal(&args.board.goal, args.board.size)?;
    if let Some(w) = args.weight {
        WeightedAStar::new(w)?;
        if !args
            .engines
            .contains(&EngineChoice::Engine(Engine::WeightedAStar))
        {
            bail!(
                "--weight applies to the weighted-astar engine only; add --engine weighted-astar"
            );
        }
    }
    for inst in &instances {
        Goal::new(&goal, inst.board.shape()).with_context(|| {
            format!(
                "instance {} (line {}) does not fit --goal {}",
                inst.id, inst.line, args.board.goal
            )
        })?;
    }
    let configs = configurations(args, &goal)?;
    // Pattern databases: opened (or built, if cheap) once for the run, before any timing, and
    // shared by every configuration that uses them.
    let boards: Vec<_> = instances.iter().map(|i| i.board.clone()).collect();
    for c in &configs {
        c.npz.prepare(&boards)?;
    }
    let jobs = match args.jobs {
        Some(n) => n as usize,
        None => npuzzle_core::Threads::EVERY_CORE.count(),
    };
    let (out, summary_to_stdout): (Box<dyn Write + Send>, bool) = match &args.json {
        Some(p) => {
            let f = File::create(p).with_context(|| format!("cannot create {}", p.display()))?;
            (Box::new(BufWriter::new(f)), true)
        }
        None => (Box::new(io::stdout()), false),
    };
    let bar = progress_bar((configs.len() * instances.len()) as u64);
    let mut sink = records::Sink {
        out,
        records: Vec::new(),
        next: 0,
    };
    let mut summaries = Vec::with_capacity(configs.len());
    for config in &configs {
        bar.set_message(format!("{} + {}", config.label, config.heuristic.name()));
        sink.records = (0..instances.len()).map(|_| None).collect();
        sink.next = 0;
        let shared = Mutex::new(sink);
        let start = Instant::now();
        run_jobs(jobs, instances.len(), |i| -> io::Result<()> {
            if interrupt::interrupted() {
                return Ok(());
            }
            let inst = &instances[i];
            let record = records::run_one(config, inst);
            if matches!(record.limit, Some(Limit::Cancelled)) {
                // Stopped by SIGINT/SIGTERM: not a result, left out of the records.
                return Ok(());
            }
            records::report(&bar, &record, inst);
            shared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(i, record)?;
            bar.inc(1);
            Ok(())
        })
        .context("cannot write the results")?;
        let wall = start.elapsed().as_secs_f64();
        sink = shared
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if interrupt::interrupted() {
            // The records finished after an interrupted one, not yet written to keep file order.
            sink.write_rest().context("cannot write the results")?;
        }
        let done: Vec<records::Record> = sink.records.drain(..).flatten().collect();
        summaries.push(summary::Summary::of(config, &done, wall));
        if interrupt::interrupted() {
            break;
        }
    }
    bar.finish_and_clear();
    sink.out.flush().context("cannot write the results")?;
    drop(sink);

    let status = summary::finish(&summaries, jobs, summary_to_stdout)?;
    if interrupt::interrupted() {
        let finished: usize = summaries.iter().map(|s| s.instances).sum();
        eprintln!(
            "interrupted: the records and the summary above cover the {finished} finished board{}",
            if finished == 1 { "" } else { "s" }
        );
        return Ok(Status::Interrupted);
    }
    Ok(status)
}

/// Every `--engine` × `--heuristic` pair (defaults: auto, and linear-conflict, or mtm-pdb with
/// `--metric mtm`), in command-line order, in `--metric`, each validated into its [`Npuzzle`];
/// configurations with the same pattern databases share them.
///
/// # Errors
/// A bad weight, a heuristic not admissible in the multi-tile metric (see
/// [`crate::plan::bench_config`]).
fn configurations(args: &BenchArgs, goal: &GoalKind) -> Result<Vec<Config>> {
    let limits = Limits {
        max_nodes: args.max_nodes,
        timeout: args.timeout_per_board,
        memory_bytes: args.memory_limit,
        cancel: Some(interrupt::flag()),
    };
    let engines = if args.engines.is_empty() {
        vec![EngineChoice::Auto]
    } else {
        args.engines.clone()
    };
    let metric = npuzzle::Metric::from(args.metric);
    let heuristics = if !args.heuristics.is_empty() {
        args.heuristics.clone()
    } else if metric == npuzzle::Metric::Mtm {
        // Auto's heuristic in the multi-tile metric: the multi-tile tables where they serve,
        // else walking distance or mtm-manhattan.
        vec![HeuristicKind::MtmPdb]
    } else {
        vec![HeuristicKind::LinearConflict]
    };
    let observer: Arc<dyn Observer> = Arc::new(Terminal::new(false));
    let mut configs: Vec<Config> = Vec::new();
    for &engine in &engines {
        for &heuristic in &heuristics {
            let mut npz = bench_config(
                engine,
                heuristic,
                metric,
                goal,
                limits.clone(),
                args.weight,
                args.threads,
                Arc::clone(&observer),
            )?;
            for c in &configs {
                npz = npz.sharing_databases_with(&c.npz);
            }
            configs.push(Config {
                label: engine_label(engine),
                heuristic,
                metric,
                npz,
            });
        }
    }
    Ok(configs)
}

/// A bar with elapsed time and ETA on stderr when it is a terminal; hidden otherwise.
fn progress_bar(total: u64) -> ProgressBar {
    let target = if io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} boards, ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Runs `task(0..n)` on `jobs` scoped threads that take the indices in order; stops handing out
/// indices after the first error, which it returns. Plain threads rather than a rayon pool: a
/// rayon worker waiting for parallel IDA*'s own pool would steal further instances meanwhile,
/// running them nested inside each other and blurring every instance's time.
fn run_jobs<E: Send>(
    jobs: usize,
    n: usize,
    task: impl Fn(usize) -> Result<(), E> + Sync,
) -> Result<(), E> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let error = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, n.max(1)) {
            s.spawn(|| {
                while !failed.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    if let Err(e) = task(i) {
                        failed.store(true, Ordering::Relaxed);
                        *error
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                    }
                }
            });
        }
    });
    match error
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_every_index_once_and_stop_at_an_error() {
        for jobs in [1, 2, 5] {
            let seen = Mutex::new(Vec::new());
            run_jobs::<()>(jobs, 20, |i| {
                seen.lock().unwrap().push(i);
                Ok(())
            })
            .unwrap();
            let mut v = seen.into_inner().unwrap();
            v.sort_unstable();
            assert_eq!(v, (0..20).collect::<Vec<_>>());
        }
        let e = run_jobs(1, 20, |i| if i == 3 { Err(i) } else { Ok(()) });
        assert_eq!(e, Err(3));
    }
}
