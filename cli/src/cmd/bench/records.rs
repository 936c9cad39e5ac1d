//! One instance under one configuration: solve it through the facade, judge the answer against
//! the file's known length, and write the JSON record.

use std::io::{self, Write};

use indicatif::ProgressBar;
use npuzzle::{Answer, EngineChoice, HeuristicKind, Limit, Metric, Npuzzle, SearchError};
use npuzzle_core::Instance;
use serde::Serialize;

/// One configuration: an engine (as named on the command line), its heuristic, and the
/// validated facade every board of it is solved with.
pub struct Config {
    /// `--engine`'s name: `auto` or the engine's own name.
    pub label: &'static str,
    /// The heuristic asked for.
    pub heuristic: HeuristicKind,
    /// The metric boards are solved and lengths counted in (`--metric`).
    pub metric: Metric,
    /// The solver.
    pub npz: Npuzzle,
}

/// `--engine`'s name for `c`.
pub fn engine_label(c: EngineChoice) -> &'static str {
    c.name()
}

/// How one instance ended under one configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
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
pub struct Record {
    /// The instance's ID in the file.
    pub id: String,
    /// Its 1-based line in the file.
    pub line: usize,
    /// The start board, compact (hex up to 16 cells, else comma-separated).
    pub board: String,
    /// `--engine`'s name (`auto` or the engine's).
    pub engine: &'static str,
    /// The engine that answered (auto's choice); `null` when the board failed.
    pub solver: Option<&'static str>,
    /// The heuristic's name.
    pub heuristic: &'static str,
    /// `solved`, `mismatch` or `failed`.
    pub status: Verdict,
    /// The metric `length` and `known_optimal` count in: `"stm"` or `"mtm"` (`--metric`).
    pub metric: Metric,
    /// Solution length in moves of `metric` (in MTM a run of one direction is one move);
    /// `null` when unsolved or unsolvable.
    pub length: Option<usize>,
    /// The file's known optimal length, in moves of `metric`.
    pub known_optimal: u32,
    /// Whether `length` equals `known_optimal`.
    #[serde(rename = "match")]
    pub matches: bool,
    /// Whether the answering engine proves its answers optimal; `null` when the board failed.
    pub proven_optimal: Option<bool>,
    /// Nodes expanded (how far the search got, for a limit reached).
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// Search seconds (wall clock, the replay check excluded).
    pub seconds: f64,
    /// Generated nodes per second.
    pub nodes_per_second: f64,
    /// States stored when the search ended: the peak for A* and bidirectional search, which
    /// never free one; 0 for IDA*.
    pub stored_states: u64,
    /// Peak bytes of the engine's state storage (0 for IDA*).
    pub peak_memory_bytes: u64,
    /// The error or mismatch, in words; `null` when solved.
    pub error: Option<String>,
    /// The limit that stopped the search (`{"nodes": N}`, `{"time": S}`, `{"memory": B}`);
    /// `null` otherwise.
    pub limit: Option<Limit>,
}

/// Solves one instance with one configuration and judges the answer.
pub fn run_one(config: &Config, inst: &Instance) -> Record {
    let mut record = Record {
        id: inst.id.clone(),
        line: inst.line,
        board: inst.board.to_compact(),
        engine: config.label,
        solver: None,
        heuristic: config.heuristic.name(),
        status: Verdict::Failed,
        metric: config.metric,
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
    match config.npz.solve(&inst.board) {
        Ok(answer) => judge(&mut record, &answer, inst),
        Err(e) => {
            if let npuzzle::Error::Search(SearchError::LimitReached { limit, progress }) = &e {
                record.limit = Some(limit.clone());
                record.expanded = progress.expanded;
                record.generated = progress.generated;
                record.seconds = progress.seconds;
                record.stored_states = progress.stored_states;
                if progress.seconds > 0.0 {
                    record.nodes_per_second = progress.generated as f64 / progress.seconds;
                }
            }
            record.error = Some(crate::status::one_line(&anyhow::Error::from(e)));
        }
    }
    record
}

/// Fills `record` from a proven answer: solved, or a mismatch with the file's length.
fn judge(record: &mut Record, answer: &Answer, inst: &Instance) {
    record.solver = Some(answer.engine.name());
    record.proven_optimal = Some(
        answer
            .solution
            .as_ref()
            .is_none_or(|s| s.guarantee.is_optimal()),
    );
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
    // In the run's metric (the answer's, which the configuration set).
    let length = answer.length();
    record.length = Some(length);
    record.expanded = s.expanded;
    record.generated = s.generated;
    record.seconds = s.seconds;
    record.nodes_per_second = s.nodes_per_second();
    record.stored_states = s.stored_states;
    record.peak_memory_bytes = s.peak_memory_bytes;
    record.matches = length == inst.optimal as usize;
    // An engine that does not prove optimality may be longer, never shorter.
    let wrong = if solution.guarantee.is_optimal() {
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
pub fn report(bar: &ProgressBar, r: &Record, inst: &Instance) {
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
pub struct Sink {
    pub out: Box<dyn Write + Send>,
    /// This configuration's records, by instance index (`None` until done).
    pub records: Vec<Option<Record>>,
    /// The first index not yet written.
    pub next: usize,
}

impl Sink {
    /// Stores record `i` and writes every record now ready, one JSON line each.
    pub fn push(&mut self, i: usize, record: Record) -> io::Result<()> {
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

    /// Writes the records not written yet (those after a gap left by an interrupted board),
    /// in file order, one JSON line each.
    pub fn write_rest(&mut self) -> io::Result<()> {
        for r in self.records.iter().skip(self.next).flatten() {
            serde_json::to_writer(&mut self.out, r).map_err(io::Error::from)?;
            self.out.write_all(b"\n")?;
        }
        self.next = self.records.len();
        self.out.flush()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use npuzzle::Engine;
    use npuzzle::{GoalKind, Limits};

    fn instance(board: &str, optimal: u32) -> Instance {
        Instance {
            id: "x".into(),
            board: npuzzle_core::parse_board(board, None).unwrap(),
            optimal,
            line: 3,
        }
    }

    pub(in crate::cmd::bench) fn config(engine: EngineChoice, limits: Limits) -> Config {
        Config {
            label: engine_label(engine),
            heuristic: npuzzle::HeuristicKind::Manhattan,
            metric: Metric::Stm,
            npz: crate::plan::bench_config(
                engine,
                npuzzle::HeuristicKind::Manhattan,
                Metric::Stm,
                &GoalKind::BlankLast,
                limits,
                None,
                1,
                Arc::new(npuzzle::Quiet),
            )
            .unwrap(),
        }
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
        let c = config(
            EngineChoice::Engine(Engine::Constructive),
            Limits::default(),
        );
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 31));
        assert_eq!(r.status, Verdict::Solved);
        assert_eq!(r.proven_optimal, Some(false));
        assert!(r.length.unwrap() >= 31);
    }

    /// `--metric mtm`: the MTM IDA\* answers, and the length judged against the file's is
    /// counted in MTM (20 for the hardest 8-puzzle board, whose STM optimum is 31).
    #[test]
    fn mtm_lengths_are_judged_in_mtm() {
        let c = Config {
            label: "auto",
            heuristic: HeuristicKind::WalkingDistance,
            metric: Metric::Mtm,
            npz: crate::plan::bench_config(
                EngineChoice::Auto,
                HeuristicKind::WalkingDistance,
                Metric::Mtm,
                &GoalKind::BlankLast,
                Limits::default(),
                None,
                1,
                Arc::new(npuzzle::Quiet),
            )
            .unwrap(),
        };
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 20));
        assert_eq!(
            (r.status, r.metric, r.length, r.matches, r.proven_optimal),
            (Verdict::Solved, Metric::Mtm, Some(20), true, Some(true))
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(
            (v["metric"].as_str(), v["length"].as_u64()),
            (Some("mtm"), Some(20))
        );
        // The single-tile optimum is a mismatch in MTM.
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 31));
        assert_eq!((r.status, r.length), (Verdict::Mismatch, Some(20)));
        assert_eq!(r.error.as_deref(), Some("found 20 moves, the file says 31"));
    }

    #[test]
    fn limits_are_failures_that_name_the_limit() {
        let limits = Limits {
            max_nodes: Some(100),
            ..Limits::default()
        };
        let c = config(EngineChoice::Engine(Engine::IdaStar), limits);
        let r = run_one(&c, &instance("8 6 7 2 5 4 3 0 1", 31));
        assert_eq!(r.status, Verdict::Failed);
        assert_eq!(r.limit, Some(Limit::Nodes(100)));
        assert!(r.generated > 0);
        assert!(r.error.as_deref().unwrap().contains("node limit of 100"));
    }

    #[test]
    fn sink_writes_in_file_order() {
        #[derive(Clone, Default)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
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
        let c = config(EngineChoice::Engine(Engine::IdaStar), Limits::default());
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
}
