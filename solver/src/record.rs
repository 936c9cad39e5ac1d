//! [`Record`]: an [`Answer`] as one serde record — the JSON object `npuzzle solve --format json`
//! prints and the web app's `POST /api/solve` answers, built in one place so both stay identical.

use npuzzle_core::{
    Guarantee, Metric, Parity, Stats, moves_to_counts, moves_to_string, mtm_length,
};
use serde::{Deserialize, Serialize};

use crate::Answer;

/// One answer as a flat, serialisable record. Field order is the JSON key order.
///
/// Unsolvable boards have `solvable: false` and `null` for `optimal`, `guarantee`,
/// `lower_bound`, `length`, `moves` and `stats`; `parity` is always present.
///
/// ```
/// let answer = npuzzle::solve("1 2 3 4 5 6 0 7 8")?;
/// let record = npuzzle::Record::from(&answer);
/// assert_eq!(record.moves.as_deref(), Some("LL"));
/// let json = serde_json::to_string(&record).unwrap();
/// assert!(json.starts_with(r#"{"board":"123456078","width":3,"height":3,"goal":"123456780""#));
/// assert_eq!(serde_json::from_str::<npuzzle::Record>(&json).unwrap(), record);
/// # Ok::<(), npuzzle::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The start board, compact: one hex digit a cell for boards of at most 16 cells, else the
    /// numbers separated by spaces ([`npuzzle_core::Layout::to_compact`]).
    pub board: String,
    /// Board width, in cells.
    pub width: usize,
    /// Board height, in cells.
    pub height: usize,
    /// The goal board, compact like `board`; with a partial goal, the board the solution
    /// reaches (see `partial_goal`).
    pub goal: String,
    /// The partial goal asked for, compact like `board` with `x` for each cell that does not
    /// matter ([`npuzzle_core::PartialGoal::board_text`]); absent from the JSON for a full
    /// goal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_goal: Option<String>,
    /// The engine's name (`idastar`, `astar`, ...: [`crate::Engine::name`]).
    pub engine: String,
    /// The heuristic's name (`manhattan`, `pdb`, ...: [`crate::HeuristicKind::name`]).
    pub heuristic: String,
    /// Whether a solution exists (parity).
    pub solvable: bool,
    /// Whether the solution is proven optimal; `None` (`null`) when unsolvable.
    pub optimal: Option<bool>,
    /// What is proven: `"optimal"`, `{"within-factor": W}` or `"unproven"`; `null` when
    /// unsolvable.
    pub guarantee: Option<Guarantee>,
    /// The proven lower bound on the optimal length, in moves ([`Answer::lower_bound`]);
    /// `null` when unsolvable.
    pub lower_bound: Option<u32>,
    /// Weighted A\*'s weight (its answers are at most this times the optimum); absent from the
    /// JSON for the other engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
    /// The metric `length`, `lower_bound` and `optimal` are in: `"stm"` (single-tile moves,
    /// the default) or `"mtm"` (multi-tile metric, [`crate::Config::metric`]).
    pub metric: Metric,
    /// The solution's length, in moves **of the chosen metric** (`metric`); `null` when
    /// unsolvable.
    pub length: Option<usize>,
    /// The solution's length in single-tile moves (the number of letters in `moves`),
    /// whatever the metric; `null` when unsolvable.
    pub length_stm: Option<usize>,
    /// The solution's length in the multi-tile metric (its runs of one direction: the groups
    /// of `moves_counts`), whatever the metric; `null` when unsolvable.
    pub length_mtm: Option<usize>,
    /// The moves as letters `U D L R` naming the direction the tile slides, one letter a
    /// single-tile move (empty when the board is the goal); `null` when unsolvable.
    pub moves: Option<String>,
    /// The same moves with counts, the speedsolving notation: each run of one direction as
    /// its letter and, when longer than one, its length (`R2U2LDLD`); `null` when unsolvable.
    pub moves_counts: Option<String>,
    /// The engine's statistics and node rate; `null` when unsolvable.
    pub stats: Option<RecordStats>,
    /// The parity argument and its explanation.
    pub parity: RecordParity,
}

/// The engine's statistics ([`Stats`]: `expanded`, `generated`, `seconds`, `initial_h`, the
/// per-iteration table of IDA\*, states stored and peak memory in bytes, the per-direction
/// figures of bidirectional search) plus the node rate, all in one JSON object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordStats {
    /// The statistics, flattened into this object.
    #[serde(flatten)]
    pub stats: Stats,
    /// Generated nodes per second ([`Stats::nodes_per_second`]).
    pub nodes_per_second: f64,
}

/// The parity argument ([`Parity`]: `transpositions`, `blank_distance`, `solvable`) plus its
/// one-sentence explanation, in one JSON object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordParity {
    /// The parity argument, flattened into this object.
    #[serde(flatten)]
    pub parity: Parity,
    /// [`Parity::explain`].
    pub explanation: String,
}

impl From<&Answer> for Record {
    /// Builds the record of `answer`. O(moves + cells).
    fn from(answer: &Answer) -> Record {
        let shape = answer.layout.shape();
        let solution = answer.solution.as_ref();
        Record {
            board: answer.layout.to_compact(),
            width: shape.width(),
            height: shape.height(),
            goal: answer.goal.layout().to_compact(),
            partial_goal: answer
                .partial
                .as_ref()
                .map(npuzzle_core::PartialGoal::board_text),
            engine: answer.engine.name().to_string(),
            heuristic: answer.heuristic.name().to_string(),
            solvable: answer.parity.solvable,
            optimal: solution.map(|s| s.guarantee.is_optimal()),
            guarantee: answer.guarantee(),
            lower_bound: solution.map(|_| answer.lower_bound),
            weight: answer.weight,
            metric: answer.metric,
            length: solution.map(|s| answer.metric.length(&s.moves)),
            length_stm: solution.map(|s| s.moves.len()),
            length_mtm: solution.map(|s| mtm_length(&s.moves)),
            moves: solution.map(|s| moves_to_string(&s.moves)),
            moves_counts: solution.map(|s| moves_to_counts(&s.moves)),
            stats: solution.map(|s| RecordStats {
                stats: s.stats.clone(),
                nodes_per_second: s.stats.nodes_per_second(),
            }),
            parity: RecordParity {
                parity: answer.parity.clone(),
                explanation: answer.parity.explain(),
            },
        }
    }
}
