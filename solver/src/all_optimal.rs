//! Every optimal solution of a board ([`Npuzzle::all_optimal`]), or every solution within k
//! moves of the optimum ([`Npuzzle::solutions_within`]): IDA\*'s last iteration searched to the
//! end with parent pruning (`npuzzle_idastar::AllOptimal`, whose docs prove the counts exact).
//! In both metrics: in the multi-tile metric the lengths are MTM moves and a distinct solution
//! is a sequence of MTM moves alternating axes (`npuzzle_idastar::AllOptimal`'s module docs
//! define it).

use npuzzle_core::{
    BitBoard, Board, Goal, Layout, Metric, Move, PackedBoard, moves_to_counts, moves_to_string,
    verify,
};
use npuzzle_idastar::{AllOptimal, CycleCheck};
use npuzzle_nxn::VecBoard;
use serde::Serialize;

use crate::answer::{Trivial, trivial};
use crate::registry::with_heuristic;
use crate::{Answer, Engine, Error, Npuzzle, Record, SearchSettings, Setting};

/// Every optimal solution of a board (or every one within k moves of the optimum), counted,
/// and the first ones listed.
#[derive(Clone, Debug)]
pub struct AllOptimalAnswer {
    /// The answer with the first optimal solution (proven optimal), its statistics (the last
    /// iteration searched in full), the parity proof for an unsolvable board.
    pub answer: Answer,
    /// k: solutions of at most the optimum + `within` moves are counted (0: optimal ones).
    pub within: u32,
    /// The number of distinct solutions counted (optimal ones, or within `within` moves of the
    /// optimum): 0 for an unsolvable board, 1 for a board equal to its goal.
    pub count: u64,
    /// The count by length: element i is the number of solutions of the optimum + i moves
    /// (`within + 1` elements; empty for an unsolvable board). Lengths in the answer's metric
    /// ([`Answer::metric`]): MTM moves in the multi-tile metric.
    pub counts_by_length: Vec<u64>,
    /// The first `limit` of them, shortest first (Korf's child order within a length), each
    /// replayed to the goal. Single-tile moves in both metrics: in MTM each maximal run of one
    /// direction is one MTM move ([`npuzzle_core::group_moves`], written with counts by
    /// [`npuzzle_core::moves_to_counts`]).
    pub solutions: Vec<Vec<Move>>,
}

impl AllOptimalAnswer {
    /// Whether every counted solution is listed (the count is at most the limit).
    pub fn is_complete(&self) -> bool {
        self.solutions.len() as u64 == self.count
    }

    /// The number of optimal solutions (the first of [`AllOptimalAnswer::counts_by_length`]; 0
    /// for an unsolvable board).
    pub fn optimal_count(&self) -> u64 {
        self.counts_by_length.first().copied().unwrap_or(0)
    }

    /// The JSON record of `npuzzle solve --all-optimal --format json` and of the web API:
    /// [`Record`]'s fields in their order, then `optimal_count` and (when `listed`)
    /// `optimal_solutions`; with `within` > 0, `optimal_count`, then `within`, `within_count`,
    /// `counts_by_length` and (when `listed`) `solutions` instead of `optimal_solutions`. In the
    /// multi-tile metric the lengths are MTM moves, and the listed solutions come in letters
    /// and, as `optimal_solutions_counts` / `solutions_counts`, with counts (`R2U2LDLD`, one
    /// letter a move), as `moves` and `moves_counts`.
    pub fn record(&self, listed: bool) -> AllOptimalRecord {
        let letters = || self.solutions.iter().map(|s| moves_to_string(s)).collect();
        let counts = || self.solutions.iter().map(|s| moves_to_counts(s)).collect();
        let within = self.within > 0;
        let mtm = self.answer.metric == Metric::Mtm;
        let shortest = self.answer.length();
        AllOptimalRecord {
            record: Record::from(&self.answer),
            optimal_count: self.optimal_count(),
            optimal_solutions: (listed && !within).then(letters),
            optimal_solutions_counts: (listed && !within && mtm).then(counts),
            within: within.then_some(self.within),
            within_count: within.then_some(self.count),
            counts_by_length: within.then(|| {
                self.counts_by_length
                    .iter()
                    .enumerate()
                    .map(|(i, &count)| LengthCount {
                        length: shortest + i,
                        count,
                    })
                    .collect()
            }),
            solutions: (listed && within).then(letters),
            solutions_counts: (listed && within && mtm).then(counts),
        }
    }
}

/// How many solutions have `length` moves (in [`AllOptimalRecord::counts_by_length`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LengthCount {
    /// Moves, in the record's metric.
    pub length: usize,
    /// Distinct solutions of that many moves.
    pub count: u64,
}

/// [`AllOptimalAnswer::record`]: a [`Record`] with the number of optimal solutions and the
/// ones listed, or the solutions within k moves of the optimum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AllOptimalRecord {
    /// The answer's record, flattened into this object.
    #[serde(flatten)]
    pub record: Record,
    /// The number of distinct optimal move sequences.
    pub optimal_count: u64,
    /// The listed optimal ones, letters `U D L R` (absent when only counted, and with
    /// `within`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal_solutions: Option<Vec<String>>,
    /// In the multi-tile metric, the listed optimal ones with counts (`R2U2LDLD`: one letter a
    /// move; absent in STM, when only counted, and with `within`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal_solutions_counts: Option<Vec<String>>,
    /// k of a search for every solution within k moves of the optimum (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within: Option<u32>,
    /// The number of solutions within k moves, the optimal ones included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within_count: Option<u64>,
    /// Their number by length, from the optimum to the optimum + k.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts_by_length: Option<Vec<LengthCount>>,
    /// The listed ones within k moves, shortest first, letters (absent when only counted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<String>>,
    /// In the multi-tile metric, the listed ones within k moves with counts (absent in STM,
    /// when only counted, and without `within`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions_counts: Option<Vec<String>>,
}

impl Npuzzle {
    /// Counts every optimal solution of `layout` (distinct move sequences of the optimal
    /// length) and lists the first `limit` of them (0: count only), with this solver's
    /// heuristic and pattern databases and `settings`' limits. Runs IDA\*'s iterations with
    /// **parent pruning**, whatever cycle check was configured: FSM duplicate pruning keeps
    /// one shortest path to each state and so drops optimal solutions by design, while parent
    /// pruning only removes paths with a cycle, which no optimal path holds. Cost: IDA\*'s
    /// plus the rest of its last iteration (1.4–4.6× the generated nodes of IDA\* with the same
    /// heuristic and parent pruning on the boards of BENCHMARKS.md, "Every optimal
    /// solution"); against a default solve (FSM duplicate pruning, every core) 11–24× the
    /// time on 4×4 boards of 65–80 moves, two cores.
    ///
    /// ```
    /// let solver = npuzzle::Config::new().engine(npuzzle::Engine::IdaStar).build()?;
    /// let layout = npuzzle::parse_board("1 2 3 4 5 6 0 7 8", None)?;
    /// let all = solver.all_optimal(&layout, 10, &solver.settings())?;
    /// assert_eq!((all.answer.len(), all.count), (2, 1));
    /// # Ok::<(), npuzzle::Error>(())
    /// ```
    ///
    /// In the multi-tile metric ([`crate::Config::metric`] [`Metric::Mtm`]) the lengths are MTM
    /// moves and the solutions distinct MTM move sequences (see [`Npuzzle::solutions_within`]).
    ///
    /// # Errors
    /// [`Error::NotApplicable`] with an engine other than idastar (or auto), or with a depth
    /// limit (`max_depth`) in the multi-tile metric, where no search takes one;
    /// [`Error::Search`] when a limit stops the search (no count then; with a depth limit
    /// the bound is proven); as [`Npuzzle::solve`] otherwise.
    pub fn all_optimal(
        &self,
        layout: &Layout,
        limit: usize,
        settings: &SearchSettings,
    ) -> Result<AllOptimalAnswer, Error> {
        self.solutions_within(layout, 0, limit, settings)
    }

    /// Counts every solution of `layout` of at most the optimum + `within` moves (distinct move
    /// sequences in which no move is followed by its inverse, reaching the goal at their end
    /// and not before), by length, and lists the first `limit` of them, shortest first (0:
    /// count only). `within` = 0 is [`Npuzzle::all_optimal`]. IDA\*'s iterations find the
    /// optimum L; one more iteration at threshold L + `within`, with parent pruning, is searched
    /// to the end (`npuzzle_idastar::AllOptimal::within` proves the count exact). In the
    /// single-tile metric every solution has the parity of L: only L, L + 2, … occur. Cost:
    /// the tree within L + `within`: 3.0–4.6× the generated nodes each 2 moves of `within` on
    /// 8- and 15-puzzles (BENCHMARKS.md, "Every solution within k moves of the optimum").
    ///
    /// **In the multi-tile metric** ([`Metric::Mtm`]) lengths count MTM moves (one move slides
    /// 1 to k tiles of the blank's row or column), every length from L to L + `within` can
    /// occur, and a distinct solution is a sequence of MTM moves — each a direction and a
    /// count of tiles — in which no move is followed by a move along the same axis (two such
    /// moves slide one line: `R2 R1` is `R3`, `R2 L1` is `R1`), ending at the goal and not at
    /// the goal after any earlier move (a move's inner boards, after fewer of its tiles, are
    /// not visited). The search is IDA\* over MTM moves with the configured MTM heuristic
    /// (walking distance, MTM pattern databases, ...). Solutions come as single-tile moves, an
    /// MTM move of k tiles as k letters: [`npuzzle_core::moves_to_counts`] writes one letter a
    /// move.
    ///
    /// ```
    /// let solver = npuzzle::Config::new().engine(npuzzle::Engine::IdaStar).build()?;
    /// let layout = npuzzle::parse_board("1 2 3 4 5 6 0 7 8", None)?;
    /// let all = solver.solutions_within(&layout, 2, 10, &solver.settings())?;
    /// assert_eq!(all.counts_by_length[0], 1); // LL, the optimum
    /// assert_eq!(all.count, all.counts_by_length.iter().sum::<u64>());
    /// assert!(all.solutions.iter().all(|s| s.len() == 2 || s.len() == 4));
    /// # Ok::<(), npuzzle::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Npuzzle::all_optimal`]; also [`Error::NotApplicable`] for `within` > 0 with a
    /// depth limit (`max_depth`).
    pub fn solutions_within(
        &self,
        layout: &Layout,
        within: u32,
        limit: usize,
        settings: &SearchSettings,
    ) -> Result<AllOptimalAnswer, Error> {
        if let Some(e) = self.engine
            && e != Engine::IdaStar
        {
            return Err(Error::NotApplicable {
                setting: Setting::AllOptimal,
                applies_to: "the idastar engine (and auto)",
                chosen: e.name(),
            });
        }
        if within > 0 && settings.max_depth.is_some() {
            return Err(Error::NotApplicable {
                setting: Setting::MaxDepth,
                applies_to: "the search for optimal solutions",
                chosen: "a search for the solutions within k moves of the optimum",
            });
        }
        self.check_per_search(settings)?;
        let goal = Goal::new(&self.config.goal, layout.shape())?;
        let parity = goal.parity(layout)?;
        if !parity.solvable || layout == goal.layout() {
            let solvable = parity.solvable;
            let answer = trivial(&Trivial {
                layout,
                goal: &goal,
                parity,
                engine: Engine::IdaStar,
                heuristic: self.trivial_heuristic(layout, settings),
                weight: None,
                metric: self.config.metric,
            });
            return Ok(AllOptimalAnswer {
                answer,
                within,
                count: u64::from(solvable),
                // The goal's one solution, the empty sequence: every longer one would pass
                // through the goal (its start) before its end.
                counts_by_length: if solvable {
                    std::iter::once(1)
                        .chain(std::iter::repeat_n(0, within as usize))
                        .collect()
                } else {
                    Vec::new()
                },
                solutions: if solvable && limit > 0 {
                    vec![Vec::new()]
                } else {
                    Vec::new()
                },
            });
        }
        let tables = self.pdb_for(layout, settings)?;
        let mut job = self.job(
            Engine::IdaStar,
            (layout, &goal, parity),
            tables.as_ref(),
            settings,
        );
        // One deterministic thread with parent pruning (see above); no hill-climbing settings.
        job.cycle_check = CycleCheck::Parent;
        job.weight = 1.0;
        job.threads = 1;
        job.deterministic = true;
        job.check_printable = false;
        job.seed = None;
        job.max_steps = None;
        let mut search = AllOptimal::new(limit)
            .max_depth(settings.max_depth)
            .within(within)
            .metric(self.config.metric);
        let observer = &*settings.observer;
        let cells = layout.shape().cells();
        let answer = if cells <= BitBoard::MAX_CELLS {
            with_heuristic::<BitBoard, _>(&mut search, &job, layout, observer)
        } else if cells <= PackedBoard::CELLS {
            with_heuristic::<PackedBoard, _>(&mut search, &job, layout, observer)
        } else {
            with_heuristic::<VecBoard, _>(&mut search, &job, layout, observer)
        }?;
        check_listed(
            layout,
            &goal,
            (self.config.metric, answer.length()),
            within,
            search.solutions(),
        )?;
        Ok(AllOptimalAnswer {
            answer,
            within,
            count: search.count(),
            counts_by_length: search.counts_by_length().to_vec(),
            solutions: search.solutions().to_vec(),
        })
    }
}

/// Checks the listed solutions of `layout`: each replayed to the goal, of `optimum` to
/// `optimum + within` moves in `metric`, shortest first.
///
/// # Errors
/// [`Error::Internal`] naming the first solution that is not so.
fn check_listed(
    layout: &Layout,
    goal: &Goal,
    (metric, optimum): (Metric, usize),
    within: u32,
    solutions: &[Vec<Move>],
) -> Result<(), Error> {
    let longest = optimum + within as usize;
    let mut previous = optimum;
    for (i, moves) in solutions.iter().enumerate() {
        verify(layout, moves, goal.layout())
            .map_err(|e| Error::Internal(format!("solution {} fails the replay: {e}", i + 1)))?;
        let length = metric.length(moves);
        if length < previous || length > longest {
            return Err(Error::Internal(format!(
                "solution {} has {length} moves ({}), after one of {previous}, the optimum {optimum} and at most {longest} asked for",
                i + 1,
                metric.name(),
            )));
        }
        previous = length;
    }
    Ok(())
}
