//! Totals per configuration, the Markdown table, and the closing lines and exit status.

use std::io::{self, Write};

use anyhow::Result;
use npuzzle::{HeuristicKind, Metric};

use super::records::{Config, Record, Verdict};
use crate::output::median;
use crate::progress::si;
use crate::status::Status;

/// Prints the summary table and the closing lines; the exit status.
///
/// # Errors
/// Write errors on standard output.
pub fn finish(summaries: &[Summary], jobs: usize, summary_to_stdout: bool) -> Result<Status> {
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

/// One configuration's totals.
#[derive(Debug, PartialEq)]
pub struct Summary {
    pub engine: &'static str,
    pub heuristic: HeuristicKind,
    /// The metric the lengths were counted and judged in.
    pub metric: Metric,
    pub instances: usize,
    pub solved: usize,
    /// Solved, but longer than the file's length (engines that do not prove optimality).
    pub longer: usize,
    pub mismatches: usize,
    pub failures: usize,
    /// Sum of the search seconds of the answered boards.
    pub total_seconds: f64,
    /// Median search seconds of the answered boards (`None` if none).
    pub median_seconds: Option<f64>,
    /// Wall-clock seconds of the configuration (less than the sum with several jobs).
    pub wall_seconds: f64,
    pub expanded: u64,
    pub generated: u64,
}

impl Summary {
    /// Totals of `records` (one configuration's), which took `wall` seconds.
    pub fn of(config: &Config, records: &[Record], wall: f64) -> Summary {
        let answered: Vec<&Record> = records.iter().filter(|r| r.length.is_some()).collect();
        let mut times: Vec<f64> = answered.iter().map(|r| r.seconds).collect();
        times.sort_by(f64::total_cmp);
        let count = |v| records.iter().filter(|r| r.status == v).count();
        Summary {
            engine: config.label,
            heuristic: config.heuristic,
            metric: config.metric,
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
        "\n| engine | heuristic | metric | instances | solved | mismatches | failures | total time | median time | wall time ({jobs} job{}) | generated | nodes/s |",
        if jobs == 1 { "" } else { "s" }
    );
    t.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
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
            "| {} | {} | {} | {} | {solved} | {} | {} | {} | {} | {} | {} | {rate} |",
            s.engine,
            s.heuristic.name(),
            s.metric.name(),
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

    #[test]
    fn a_limit_is_a_failure_without_a_time() {
        use npuzzle::{Engine, EngineChoice};
        let limits = npuzzle::Limits {
            max_nodes: Some(100),
            ..npuzzle::Limits::default()
        };
        let c = super::super::records::tests::config(EngineChoice::Engine(Engine::IdaStar), limits);
        let inst = npuzzle_core::Instance {
            id: "x".into(),
            board: npuzzle_core::parse_board("8 6 7 2 5 4 3 0 1", None).unwrap(),
            optimal: 31,
            line: 3,
        };
        let r = super::super::records::run_one(&c, &inst);
        let s = Summary::of(&c, &[r], 0.5);
        assert_eq!((s.solved, s.failures, s.median_seconds), (0, 1, None));
    }

    #[test]
    fn table() {
        let s = Summary {
            engine: "idastar",
            heuristic: HeuristicKind::LinearConflict,
            metric: Metric::Stm,
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
                "| idastar | linear-conflict | stm | 3 | 2 | 1 | 0 | 1.50 s | 500.00 ms | 1.60 s | 3.0 M | 2.0 M |"
            ),
            "{t}"
        );
        assert!(t.contains("wall time (1 job)"));
        assert_eq!(seconds(0.000_038_94), "38.9 µs");
        assert_eq!(seconds(12.345), "12.35 s");
    }
}
