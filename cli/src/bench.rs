//! `npuzzle bench`: solves every instance of a benchmark file (Korf's 100, seed15, ...) with each
//! engine × heuristic configuration, checks every length against the file's known optimum, writes
//! one JSON line per instance and configuration, and ends with a Markdown summary per
//! configuration.
//!
//! Every board goes through the same dispatch as `npuzzle solve`
//! ([`crate::dispatch::solve_board`]), so every answer is replayed to the goal with
//! `npuzzle_core::verify` before it counts. Instances run in parallel on a local rayon thread
//! pool of `--jobs` threads; records are written in file order all the same (each as soon as
//! every earlier instance of its configuration is done), so two runs compare line by line.
//!
//! Where the summary goes: standard error when the JSON lines go to standard output (so that
//! standard output stays pure JSON lines), standard output when `--json` names a file.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle_core::{Goal, GoalKind, Instance, Limit, Limits, SearchError, parse_instances};
use npuzzle_nxn::WeightedAStar;
use rayon::prelude::*;
use serde::Serialize;

use crate::Status;
use crate::args::{BenchArgs, EngineChoice, HeuristicChoice};
use crate::output::Answer;
use crate::plan::{Engine, HeuristicKind, Plan, bench_plan, parse_goal};
use crate::progress::si;

/// Runs `npuzzle bench`.
///
/// # Errors
/// An unreadable or malformed instance file, a bad `--goal` or one of another shape than the
/// instances, a bad `--weight` or one without the weighted-astar engine, an unwritable `--json`
/// file, a write error, or a thread pool that cannot start.
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
        if !args.engines.contains(&EngineChoice::WeightedAStar) {
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
    let mut configs = configurations(args, &goal);
    // Pattern databases: opened (or built, if cheap) once for the run, before any timing, and
    // shared by every configuration that uses them (their `PdbPlan`s are all the same, see
    // `bench_plan`).
    let boards: Vec<_> = instances.iter().map(|i| i.board.clone()).collect();
    let mut opened: Option<std::sync::Arc<crate::pdb::Databases>> = None;
    for c in &mut configs {
        if let Some(pdb) = &c.plan.pdb {
            if opened.is_none() {
                opened = Some(std::sync::Arc::new(crate::pdb::open_for(
                    pdb, &goal, &boards,
                )?));
            }
            c.plan.pdbs.clone_from(&opened);
        }
    }
    let jobs = match args.jobs {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("cannot start the worker threads")?;

    let (out, summary_to_stdout): (Box<dyn Write + Send>, bool) = match &args.json {
        Some(p) => {
            let f = File::create(p).with_context(|| format!("cannot create {}", p.display()))?;
            (Box::new(BufWriter::new(f)), true)
        }
        None => (Box::new(io::stdout()), false),
    };
    let bar = progress_bar((configs.len() * instances.len()) as u64);
    let mut sink = Sink {
        out,
        records: Vec::new(),
        next: 0,
    };
    let mut summaries = Vec::with_capacity(configs.len());
    for config in &configs {
        bar.set_message(format!(
            "{} + {}",
            config.label,
            config.plan.heuristic.name()
        ));
        sink.records = (0..instances.len()).map(|_| None).collect();
        sink.next = 0;
        let shared = Mutex::new(sink);
        let start = Instant::now();
        pool.install(|| {
            instances
                .par_iter()
                .enumerate()
                .try_for_each(|(i, inst)| -> io::Result<()> {
                    let record = run_one(config, inst);
                    report(&bar, &record, inst);
                    shared
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(i, record)?;
                    bar.inc(1);
                    Ok(())
                })
        })
        .context("cannot write the results")?;
        let wall = start.elapsed().as_secs_f64();
        sink = shared
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let records: Vec<Record> = sink.records.drain(..).flatten().collect();
        summaries.push(Summary::of(config, &records, wall));
    }
    bar.finish_and_clear();
    sink.out.flush().context("cannot write the results")?;
    drop(sink);

    finish(&summaries, jobs, summary_to_stdout)
}

/// Every `--engine` × `--heuristic` pair (defaults: auto, linear-conflict), in command-line
/// order, each with its plan.
fn configurations(args: &BenchArgs, goal: &GoalKind) -> Vec<Config> {
    let limits = Limits {
        max_nodes: args.max_nodes,
        timeout: args.timeout_per_board,
        memory_bytes: args.memory_limit,
        cancel: None,
    };
    let engines = if args.engines.is_empty() {
        vec![EngineChoice::Auto]
    } else {
        args.engines.clone()
    };
    let heuristics = if args.heuristics.is_empty() {
        vec![HeuristicChoice::LinearConflict]
    } else {
        args.heuristics.clone()
    };
    engines
        .iter()
        .flat_map(|&e| heuristics.iter().map(move |&h| (e, h)))
        .map(|(engine, heuristic)| Config {
            label: engine_label(engine),
            plan: bench_plan(engine, heuristic, goal.clone(), limits.clone(), args.weight),
        })
        .collect()
}

/// Prints the summary table and the closing lines; the exit status.
///
/// # Errors
/// Write errors on standard output.
fn finish(summaries: &[Summary], jobs: usize, summary_to_stdout: bool) -> Result<Status> {
    let table = markdown(summaries, jobs);
    if summary_to_stdout {
        let mut o = io::stdout().lock();
        o.write_all(table.as_bytes())?;
        o.flush()?;
    } else {
        eprint!("{table}");
    }
    let mismatches: usize = summaries.iter().map(|s| s.mismatches).sum();
    let failures: usize = summaries.iter().map(|s| s.failures).sum();
    if mismatches + failures == 0 {
        return Ok(Status::Success);
    }
    if mismatches > 0 {
        eprintln!(
            "MISMATCH: {mismatches} answer{} differ from the file's known optimal length (see the MISMATCH lines above; is --goal the file's goal? Korf's files use blank-first)",
            if mismatches == 1 { "" } else { "s" }
        );
    }
    if failures > 0 {
        eprintln!(
            "bench: {failures} board{} not solved (limit reached or error; see the error lines above)",
            if failures == 1 { "" } else { "s" }
        );
    }
    Ok(Status::Failed)
}

/// One configuration: an engine (as named on the command line) and its plan.
struct Config {
    /// `--engine`'s name: `auto` or the engine's own name.
    label: &'static str,
    /// The plan every board of this configuration is solved with.
    plan: Plan,
}

/// `--engine`'s name for `c`.
fn engine_label(c: EngineChoice) -> &'static str {
    match c {
        EngineChoice::Auto => "auto",
        other => Engine::from(other).name(),
    }
}

/// How one instance ended under one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
enum Verdict {
    /// Solved; the length is the file's (or, for an engine that does not prove optimality,
    /// at least the file's).
    Solved,
    /// Solved with another length than the file's, or called unsolvable although the file
    /// gives a length.
    Mismatch,
    /// No answer: a limit reached, or an error.
    Failed,
}

/// One JSON line: one instance under one configuration.
#[derive(Debug, Serialize)]
struct Record {
    /// The instance's ID in the file.
    id: String,
    /// Its 1-based line in the file.
    line: usize,
    /// The start board, compact (hex up to 16 cells, else comma-separated).
    board: String,
    /// `--engine`'s name (`auto` or the engine's).
    engine: &'static str,
    /// The engine that answered (auto's choice); `null` when the board failed.
    solver: Option<&'static str>,
    /// The heuristic's name.
    heuristic: &'static str,
    /// `solved`, `mismatch` or `failed`.
    status: Verdict,
    /// Solution length in moves; `null` when unsolved or unsolvable.
    length: Option<usize>,
    /// The file's known optimal length, in moves.
    known_optimal: u32,
    /// Whether `length` equals `known_optimal`.
    #[serde(rename = "match")]
    matches: bool,
    /// Whether the answering engine proves its answers optimal; `null` when the board failed.
    proven_optimal: Option<bool>,
    /// Nodes expanded (how far the search got, for a limit reached).
    expanded: u64,
    /// Nodes generated.
    generated: u64,
    /// Search seconds (wall clock, the replay check excluded).
    seconds: f64,
    /// Generated nodes per second.
    nodes_per_second: f64,
    /// States stored when the search ended: the peak for A* and bidirectional search, which
    /// never free one; 0 for IDA*.
    stored_states: u64,
    /// Peak bytes of the engine's state storage (0 for IDA*).
    peak_memory_bytes: u64,
    /// The error or mismatch, in words; `null` when solved.
    error: Option<String>,
    /// The limit that stopped the search (`{"nodes": N}`, `{"time": S}`, `{"memory": B}`);
    /// `null` otherwise.
    limit: Option<Limit>,
}

/// Solves one instance with one configuration and judges the answer.
fn run_one(config: &Config, inst: &Instance) -> Record {
    let plan = &config.plan;
    let mut record = Record {
        id: inst.id.clone(),
        line: inst.line,
        board: inst.board.to_compact(),
        engine: config.label,
        solver: None,
        heuristic: plan.heuristic.name(),
        status: Verdict::Failed,
        length: None,
        known_optimal: inst.optimal,
        matches: false,
        proven_optimal: None,
        expanded: 0,
        generated: 0,
        seconds: 0.0,
        nodes_per_second: 0.0,
        stored_states: 0,
        peak_memory_bytes: 0,
        error: None,
        limit: None,
    };
    match crate::dispatch::solve_board(plan, &inst.board) {
        Ok(answer) => judge(&mut record, &answer, inst),
        Err(e) => {
            if let Some(SearchError::LimitReached { limit, progress }) =
                e.downcast_ref::<SearchError>()
            {
                record.limit = Some(limit.clone());
                record.expanded = progress.expanded;
                record.generated = progress.generated;
                record.seconds = progress.seconds;
                record.stored_states = progress.stored_states;
                if progress.seconds > 0.0 {
                    record.nodes_per_second = progress.generated as f64 / progress.seconds;
                }
            }
            record.error = Some(crate::one_line(&e));
        }
    }
    record
}

/// Fills `record` from a proven answer: solved, or a mismatch with the file's length.
fn judge(record: &mut Record, answer: &Answer, inst: &Instance) {
    record.solver = Some(answer.engine.name());
    record.proven_optimal = Some(answer.optimal);
    let Some(solution) = &answer.solution else {
        record.status = Verdict::Mismatch;
        record.error = Some(format!(
            "the board is unsolvable for this goal ({}), but the file says {} moves",
            answer.parity.explain(),
            inst.optimal
        ));
        return;
    };
    let s = &solution.stats;
    let length = solution.moves.len();
    record.length = Some(length);
    record.expanded = s.expanded;
    record.generated = s.generated;
    record.seconds = s.seconds;
    record.nodes_per_second = s.nodes_per_second();
    record.stored_states = s.stored_states;
    record.peak_memory_bytes = s.peak_memory_bytes;
    record.matches = length == inst.optimal as usize;
    // An engine that does not prove optimality may be longer, never shorter.
    let wrong = if answer.optimal {
        !record.matches
    } else {
        length < inst.optimal as usize
    };
    if wrong {
        record.status = Verdict::Mismatch;
        record.error = Some(format!(
            "found {length} moves, the file says {}",
            inst.optimal
        ));
    } else {
        record.status = Verdict::Solved;
    }
}

/// Reports a mismatch (loudly) or a failure on stderr, above the progress bar.
fn report(bar: &ProgressBar, r: &Record, inst: &Instance) {
    let what = match r.status {
        Verdict::Solved => return,
        Verdict::Mismatch => match r.length {
            Some(n) => format!(
                "MISMATCH: instance {} (line {}): {} + {} found {n}, file says {}",
                inst.id, inst.line, r.engine, r.heuristic, inst.optimal
            ),
            None => format!(
                "MISMATCH: instance {} (line {}): {} + {}: {}",
                inst.id,
                inst.line,
                r.engine,
                r.heuristic,
                r.error.as_deref().unwrap_or_default()
            ),
        },
        Verdict::Failed => format!(
            "error: instance {} (line {}): {} + {}: {}",
            inst.id,
            inst.line,
            r.engine,
            r.heuristic,
            r.error.as_deref().unwrap_or_default()
        ),
    };
    bar.suspend(|| eprintln!("{what}"));
}

/// Writes records in file order: record `i` as soon as records `0..i` are written.
struct Sink {
    out: Box<dyn Write + Send>,
    /// This configuration's records, by instance index (`None` until done).
    records: Vec<Option<Record>>,
    /// The first index not yet written.
    next: usize,
}

impl Sink {
    /// Stores record `i` and writes every record now ready, one JSON line each.
    fn push(&mut self, i: usize, record: Record) -> io::Result<()> {
        self.records[i] = Some(record);
        let mut wrote = false;
        while let Some(Some(r)) = self.records.get(self.next) {
            serde_json::to_writer(&mut self.out, r).map_err(io::Error::from)?;
            self.out.write_all(b"\n")?;
            self.next += 1;
            wrote = true;
        }
        if wrote {
            self.out.flush()?;
        }
        Ok(())
    }
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

/// One configuration's totals.
#[derive(Debug, PartialEq)]
struct Summary {
    engine: &'static str,
    heuristic: HeuristicKind,
    instances: usize,
    solved: usize,
    /// Solved, but longer than the file's length (engines that do not prove optimality).
    longer: usize,
    mismatches: usize,
    failures: usize,
    /// Sum of the search seconds of the answered boards.
    total_seconds: f64,
    /// Median search seconds of the answered boards (`None` if none).
    median_seconds: Option<f64>,
    /// Wall-clock seconds of the configuration (less than the sum with several jobs).
    wall_seconds: f64,
    expanded: u64,
    generated: u64,
}

impl Summary {
    /// Totals of `records` (one configuration's), which took `wall` seconds.
    fn of(config: &Config, records: &[Record], wall: f64) -> Summary {
        let answered: Vec<&Record> = records.iter().filter(|r| r.length.is_some()).collect();
        let mut times: Vec<f64> = answered.iter().map(|r| r.seconds).collect();
        times.sort_by(f64::total_cmp);
        let count = |v| records.iter().filter(|r| r.status == v).count();
        Summary {
            engine: config.label,
            heuristic: config.plan.heuristic,
            instances: records.len(),
            solved: count(Verdict::Solved),
            longer: records
                .iter()
                .filter(|r| r.status == Verdict::Solved && !r.matches)
                .count(),
            mismatches: count(Verdict::Mismatch),
            failures: count(Verdict::Failed),
            total_seconds: times.iter().sum(),
            median_seconds: median(&times),
            wall_seconds: wall,
            expanded: answered.iter().map(|r| r.expanded).sum(),
            generated: answered.iter().map(|r| r.generated).sum(),
        }
    }
}

/// The median of sorted values (the mean of the middle two for an even count).
fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some(f64::midpoint(sorted[n / 2 - 1], sorted[n / 2])),
    }
}

/// A duration for the table: `12.35 s`, `4.56 ms`, `38.9 µs`.
fn seconds(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.2} s")
    } else if v >= 1e-3 {
        format!("{:.2} ms", v * 1e3)
    } else {
        format!("{:.1} µs", v * 1e6)
    }
}

/// The Markdown summary: one row per configuration. Times are search seconds of the answered
/// boards; nodes/s is their generated nodes over their search seconds (per thread).
fn markdown(summaries: &[Summary], jobs: usize) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "\n| engine | heuristic | instances | solved | mismatches | failures | total time | median time | wall time ({jobs} job{}) | generated | nodes/s |",
        if jobs == 1 { "" } else { "s" }
    );
    t.push_str("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for s in summaries {
        let solved = if s.longer > 0 {
            format!("{} ({} longer)", s.solved, s.longer)
        } else {
            s.solved.to_string()
        };
        // The constructive solver generates no search nodes: no rate.
        let rate = if s.total_seconds > 0.0 && s.generated > 0 {
            si(s.generated as f64 / s.total_seconds)
        } else {
            "-".to_string()
        };
        let _ = writeln!(
            t,
            "| {} | {} | {} | {solved} | {} | {} | {} | {} | {} | {} | {rate} |",
            s.engine,
            s.heuristic.name(),
            s.instances,
            s.mismatches,
            s.failures,
            seconds(s.total_seconds),
            s.median_seconds.map_or_else(|| "-".to_string(), seconds),
            seconds(s.wall_seconds),
            si(s.generated as f64),
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(board: &str, optimal: u32) -> Instance {
        Instance {
            id: "x".into(),
            board: npuzzle_core::parse_board(board, None).unwrap(),
            optimal,
            line: 3,
        }
    }

    fn config(engine: EngineChoice, limits: Limits) -> Config {
        Config {
            label: engine_label(engine),
            plan: bench_plan(
                engine,
                HeuristicChoice::Manhattan,
                GoalKind::BlankLast,
                limits,
                None,
            ),
        }
    }

    #[test]
    fn medians() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[1.0, 2.0, 9.0]), Some(2.0));
        assert_eq!(median(&[1.0, 2.0, 4.0, 9.0]), Some(3.0));
    }

    #[test]
    fn verdicts() {
        let c = config(EngineChoice::Auto, Limits::default());
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 31));
        assert_eq!(
            (r.status, r.length, r.matches, r.solver),
            (Verdict::Solved, Some(31), true, Some("idastar"))
        );
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 30));
        assert_eq!((r.status, r.matches), (Verdict::Mismatch, false));
        // Unsolvable for the goal although the file gives a length: a mismatch.
        let r = run_one(&c, &instance("1 2 3 4 5 6 8 7 0", 5));
        assert_eq!((r.status, r.length), (Verdict::Mismatch, None));
        assert!(r.error.unwrap().contains("unsolvable"));
        // The constructive solver may be longer than the optimum without a mismatch.
        let c = config(EngineChoice::Constructive, Limits::default());
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 31));
        assert_eq!(r.status, Verdict::Solved);
        assert_eq!(r.proven_optimal, Some(false));
        assert!(r.length.unwrap() >= 31);
    }

    #[test]
    fn limits_are_failures_that_name_the_limit() {
        let limits = Limits {
            max_nodes: Some(100),
            ..Limits::default()
        };
        let c = config(EngineChoice::IdaStar, limits);
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 31));
        assert_eq!(r.status, Verdict::Failed);
        assert_eq!(r.limit, Some(Limit::Nodes(100)));
        assert!(r.generated > 0);
        assert!(r.error.as_deref().unwrap().contains("node limit of 100"));
        let s = Summary::of(&c, &[r], 0.5);
        assert_eq!((s.solved, s.failures, s.median_seconds), (0, 1, None));
    }

    #[test]
    fn sink_writes_in_file_order() {
        #[derive(Clone, Default)]
        struct Shared(std::sync::Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let buf = Shared::default();
        let c = config(EngineChoice::IdaStar, Limits::default());
        let mut sink = Sink {
            out: Box::new(buf.clone()),
            records: vec![None, None],
            next: 0,
        };
        let rec = |b| run_one(&c, &instance(b, 1));
        sink.push(1, rec("1 2 3 4 5 6 7 0 8")).unwrap();
        assert!(buf.0.lock().unwrap().is_empty());
        sink.push(0, rec("1 2 3 4 5 0 7 8 6")).unwrap();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let boards: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["board"].to_string())
            .collect();
        assert_eq!(boards, ["\"123450786\"", "\"123456708\""]);
    }

    #[test]
    fn table() {
        let s = Summary {
            engine: "idastar",
            heuristic: HeuristicKind::LinearConflict,
            instances: 3,
            solved: 2,
            longer: 0,
            mismatches: 1,
            failures: 0,
            total_seconds: 1.5,
            median_seconds: Some(0.5),
            wall_seconds: 1.6,
            expanded: 10,
            generated: 3_000_000,
        };
        let t = markdown(&[s], 1);
        assert!(
            t.contains(
                "| idastar | linear-conflict | 3 | 2 | 1 | 0 | 1.50 s | 500.00 ms | 1.60 s | 3.0 M | 2.0 M |"
            ),
            "{t}"
        );
        assert!(t.contains("wall time (1 job)"));
        assert_eq!(seconds(0.000_038_94), "38.9 µs");
        assert_eq!(seconds(12.345), "12.35 s");
    }
}
