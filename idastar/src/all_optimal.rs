//! Every optimal solution: IDA\*'s last iteration searched to the end, counting (and listing)
//! every goal it meets, with plain parent pruning.
//!
//! IDA\* (Korf 1985) with an admissible heuristic finds its first goal in the iteration whose
//! threshold T equals the optimal length L: every node of an optimal path has f = g + h ≤ L,
//! and no goal lies within an earlier, smaller threshold. [`AllOptimal`] runs the same
//! iterations and, in the last one, does not stop at the first goal: it searches the whole
//! tree within T and counts every goal. Each goal met is one **distinct** move sequence (a
//! path of the search tree), of length exactly L (a goal at depth d ≤ T = L is a solution of
//! length d ≥ L).
//!
//! Why this counts **every** optimal solution exactly once:
//! - every optimal path is in the tree: its nodes have f ≤ L (admissible h), and parent pruning
//!   never cuts it, since a move followed by its inverse is a cycle and an optimal path holds
//!   no cycle (cutting the cycle out would give a shorter solution);
//! - nothing else is counted: a path of the tree that reaches the goal within T moves is a
//!   solution of at most L moves, so exactly L;
//! - no sequence is counted twice: distinct tree paths are distinct move sequences.
//!
//! Duplicate pruning that keeps only *one* shortest path to each state —
//! [`CycleCheck::Fsm`](crate::CycleCheck::Fsm), which refuses a move string whenever a
//! shortlex-smaller string of the same length reaches the same state (Taylor & Korf 1993) —
//! must not be used here: it keeps the optimal length but drops optimal solutions by design.
//! Parent pruning only removes paths with a cycle, which no optimal path has. So this search
//! always uses parent pruning, whatever cycle check the caller set for IDA\*.
//!
//! **Every solution within k moves of the optimum** ([`AllOptimal::within`]): once the
//! iteration at threshold L has met a goal (so L is the optimum), one more iteration runs at
//! threshold L + k, searched to the end, and counts every goal it meets, by length. Each is a
//! distinct move sequence without a move followed by its inverse, of L to L + k moves, that
//! reaches the goal at its end and not before (the search never expands the goal). Every such
//! sequence is in that tree: each of its nodes has f = g + h ≤ g + (moves left) ≤ L + k
//! (admissible h), and parent pruning cuts only a move followed by its inverse. With k = 0 this
//! is the count above. In the single-tile metric every solution's length has the parity of L,
//! so only L, L + 2, … occur.
//!
//! **The multi-tile metric** ([`AllOptimal::metric`] with [`Metric::Mtm`]: one move slides 1 to
//! k tiles of the blank's row or column one cell each). A **distinct MTM solution** is a
//! sequence of MTM moves — each a direction and a count of tiles — in which no move is followed
//! by a move along the same axis (after a horizontal move the next one is vertical, and the
//! other way round), which ends at the goal and is not at the goal after any earlier move. Its
//! length is its number of moves. Two moves in a row along one axis slide tiles of one line
//! (the blank stays in its row after a horizontal move, in its column after a vertical one):
//! `R2 R1` is the move `R3`, `R2 L1` is `R1`, `R1 L1` is no move, so such a pair is never part
//! of a distinct solution — the analogue of "no move followed by its inverse" in the
//! single-tile metric. Only the boards after whole moves count as visited: a move of k tiles
//! does not stop after fewer (`R3` passes no board after `R1`), so a solution may slide
//! through the goal's arrangement inside one of its moves; it then goes on past it. The MTM
//! search tree is [`crate::MtmIdaStar`]'s — for each direction off the last move's axis, the
//! boards after 1, 2, … k tiles, each one move deeper — and its paths are exactly these
//! sequences, so the argument above carries over word for word with an MTM-admissible
//! heuristic: every solution of at most L + k moves has f ≤ L + k at each node, and distinct
//! paths are distinct sequences. Every length from L to L + k can occur (no parity). The
//! solutions are returned as single-tile moves, each MTM move `R3` as `RRR`; since
//! consecutive moves lie on different axes, the maximal runs of one direction
//! ([`npuzzle_core::group_moves`]) give the MTM moves back, and the MTM length is
//! [`npuzzle_core::mtm_length`].
//!
//! Cost: the iterations before the last as IDA\*'s, and the last iteration in full (IDA\* stops
//! in it at the first goal, often early): 1.4–4.6× the generated nodes of sequential IDA\* with
//! linear conflict on the 8-puzzle's antipodes and three seed15 boards (BENCHMARKS.md, "Every
//! optimal solution"). In MTM with the multi-tile tables: 1.1–2.8× the generated nodes of
//! one-thread [`crate::MtmIdaStar`] on the nine seed15 boards, and 2.1–3.7× more for each move
//! of k (BENCHMARKS.md, "Every solution within k moves of the optimum", "In the multi-tile
//! metric").
//! Memory: O(L) for the path, plus the solutions kept ([`AllOptimal::keep`]).

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Iteration, Limit, LimitClock, Limits,
    Metric, Move, Outcome, Progress, SearchError, SearchStart, Solution, Solver, start_search,
};

use crate::driver::{self, IterationEnd};

/// Expansions between two checks of the limits and observer calls.
const CHECK_INTERVAL: u64 = 1 << 16;

/// Counts every optimal solution of a board and keeps the first [`AllOptimal::keep`] of them,
/// in Korf's child order (see the [module docs](self) for why the count is exact). A
/// [`Solver`]: `solve` returns the first optimal solution, and [`AllOptimal::count`] and
/// [`AllOptimal::solutions`] then hold the rest.
///
/// ```
/// use npuzzle_core::{BitBoard, Board, Goal, Limits, Manhattan, Solver, parse_board};
/// use npuzzle_idastar::AllOptimal;
///
/// let start = parse_board("4 1 3 0 2 6 7 5 8", None)?;
/// let goal = Goal::blank_last(start.shape());
/// let mut all = AllOptimal::new(10);
/// all.solve(&BitBoard::from_layout(&start)?, &goal, &Manhattan::new(&goal), &Limits::default())?;
/// assert_eq!(all.count(), all.solutions().len() as u64);
/// assert!(all.solutions().iter().all(|s| s.len() == all.solutions()[0].len()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct AllOptimal {
    keep: usize,
    count: u64,
    by_length: Vec<u64>,
    solutions: Vec<Vec<Move>>,
    max_depth: Option<u32>,
    within: u32,
    metric: Metric,
}

impl AllOptimal {
    /// A search that keeps the first `keep` optimal solutions it meets (0: count only).
    pub fn new(keep: usize) -> AllOptimal {
        AllOptimal {
            keep,
            ..AllOptimal::default()
        }
    }

    /// Stops with [`Limit::Depth`] when the optimum is proven to be above `depth` moves (as
    /// [`crate::IdaStar::max_depth`]). Not for use with [`AllOptimal::within`]: the depth
    /// limit bounds every threshold, the last one (optimum + k) included, and a stop there would
    /// read as a proven bound although shorter solutions exist.
    #[must_use]
    pub fn max_depth(mut self, depth: Option<u32>) -> AllOptimal {
        self.max_depth = depth;
        self
    }

    /// Counts (and keeps) every solution of at most the optimum + `k` moves instead of the
    /// optimal ones only (see the [module docs](self)): one more iteration, at threshold
    /// optimum + k, searched to the end. The cost grows quickly with k: the whole tree
    /// within L + k, 3.0–4.6× the generated nodes each 2 moves of k with linear conflict on
    /// 8- and 15-puzzles (BENCHMARKS.md, "Every solution within k moves of the optimum").
    #[must_use]
    pub fn within(mut self, k: u32) -> AllOptimal {
        self.within = k;
        self
    }

    /// Searches in `metric`: single-tile moves ([`Metric::Stm`], the default) or multi-tile
    /// moves ([`Metric::Mtm`]; lengths and counts in MTM moves, each solution a distinct MTM
    /// move sequence as defined in the [module docs](self)). In MTM the heuristic must be
    /// admissible in MTM (`npuzzle_core::WalkingDistance` built for MTM,
    /// `npuzzle_core::MtmManhattan`, the multi-tile pattern databases, `Zero`), as for
    /// [`crate::MtmIdaStar`]: the engine cannot check it and trusts
    /// [`HeuristicProperties::admissible`].
    #[must_use]
    pub fn metric(mut self, metric: Metric) -> AllOptimal {
        self.metric = metric;
        self
    }

    /// How many solutions are kept.
    pub fn keep(&self) -> usize {
        self.keep
    }

    /// The number of distinct solutions found by the last solve: optimal ones, or with
    /// [`AllOptimal::within`] those within k moves of the optimum (0 before, and for an
    /// unsolvable board; 1 for a board equal to its goal).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The last solve's count by length (in the search's [`AllOptimal::metric`]): element i is
    /// the number of solutions of i moves more than the optimum (`within + 1` elements; one,
    /// the optimal count, without [`AllOptimal::within`]). Empty before any solve and for an
    /// unsolvable board.
    pub fn counts_by_length(&self) -> &[u64] {
        &self.by_length
    }

    /// The first [`AllOptimal::keep`] solutions of the last solve, shortest first (the
    /// optimal ones first), in Korf's child order within a length (in MTM: by direction, then
    /// by the number of tiles). Single-tile moves in both metrics (an MTM move of k tiles is k
    /// letters).
    pub fn solutions(&self) -> &[Vec<Move>] {
        &self.solutions
    }
}

/// The search's iterations, for [`driver::drive`]: each one a [`Dfs`] from the start board.
struct Iterations<'a, B: Board, H: Heuristic<B>, O> {
    heuristic: &'a H,
    goal_key: B::Key,
    keep: usize,
    /// k of [`AllOptimal::within`].
    within: u32,
    metric: Metric,
    /// The most nodes one expansion generates: 4 in the single-tile metric, the single-tile
    /// steps of every slide in the multi-tile one (W - 1 + H - 1).
    branching: u64,
    /// The optimum, once an iteration has met a goal (then the next iteration, at optimum +
    /// `within`, is the last).
    optimum: Option<u32>,
    board: B,
    /// h(start) and its memo.
    root: (u32, H::Memo),
    expanded: u64,
    generated: u64,
    clock: LimitClock,
    observer: O,
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> driver::Iterations
    for Iterations<'_, B, H, O>
{
    /// The number of solutions by length from the optimum on, and the first of them,
    /// shortest first (at least one).
    type Found = (Vec<u64>, Vec<Vec<Move>>);

    fn progress(&self, bound: u32) -> Progress {
        crate::driver::progress(&self.clock, self.expanded, self.generated, bound)
    }

    fn observe(&mut self, progress: &Progress) {
        (self.observer)(progress);
    }

    /// One iteration searched to the end: every goal within the threshold counted. The first
    /// iteration that meets a goal proves the optimum; with `within` > 0 it is followed by the
    /// one at optimum + `within`.
    fn iterate(&mut self, threshold: u32, _: Option<&Iteration>) -> IterationEnd<Self::Found> {
        let shortest = self.optimum.unwrap_or(threshold);
        let lengths = (threshold - shortest) as usize + 1;
        let mut dfs = Dfs {
            heuristic: self.heuristic,
            batches: crate::mtm::SlideBatches::new(self.heuristic),
            goal_key: self.goal_key.clone(),
            threshold,
            next_threshold: u32::MAX,
            keep: self.keep.max(1),
            shortest,
            by_length: vec![0; lengths],
            solutions: vec![Vec::new(); lengths],
            path: Vec::with_capacity(threshold as usize),
            expanded: self.expanded,
            generated: self.generated,
            next_check: self.clock.next_expansion_check(
                self.expanded,
                self.generated,
                CHECK_INTERVAL,
                self.branching,
            ),
            branching: self.branching,
            clock: &self.clock,
            observer: &mut self.observer,
        };
        let (root_h, root_memo) = self.root;
        let r = match self.metric {
            Metric::Stm => dfs.search(&mut self.board, 0, root_h, &root_memo, None),
            Metric::Mtm => dfs.search_mtm(&mut self.board, 0, root_h, &root_memo, None),
        };
        let (by_length, solutions, next) = (dfs.by_length, dfs.solutions, dfs.next_threshold);
        (self.expanded, self.generated) = (dfs.expanded, dfs.generated);
        match r {
            Err(limit) => IterationEnd::Stopped(limit),
            // The optimum is `threshold` (the first iteration with a goal, see the module
            // docs); the solutions within `within` of it come from one more iteration.
            Ok(()) if self.optimum.is_none() && by_length[0] > 0 && self.within > 0 => {
                self.optimum = Some(threshold);
                IterationEnd::Exceeded(threshold + self.within)
            }
            Ok(()) if by_length.iter().any(|&n| n > 0) => {
                IterationEnd::Found((by_length, solutions.concat()))
            }
            Ok(()) => IterationEnd::Exceeded(next),
        }
    }
}

/// The depth-first search of one iteration.
struct Dfs<'a, B: Board, H: Heuristic<B>, O> {
    heuristic: &'a H,
    /// The MTM search's children's estimates, when the heuristic batches them.
    batches: crate::mtm::SlideBatches<H::Memo>,
    goal_key: B::Key,
    threshold: u32,
    next_threshold: u32,
    /// The most solutions kept of each length.
    keep: usize,
    /// The shortest length counted (the threshold, or the optimum in the last iteration of
    /// [`AllOptimal::within`]).
    shortest: u32,
    /// Goals met by length, from `shortest` on.
    by_length: Vec<u64>,
    /// The first `keep` solutions of each length, from `shortest` on.
    solutions: Vec<Vec<Vec<Move>>>,
    path: Vec<Move>,
    expanded: u64,
    generated: u64,
    next_check: u64,
    /// See [`Iterations::branching`].
    branching: u64,
    clock: &'a LimitClock,
    observer: &'a mut O,
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> Dfs<'_, B, H, O> {
    fn progress(&self) -> Progress {
        crate::driver::progress(self.clock, self.expanded, self.generated, self.threshold)
    }

    /// Counts one expansion; every [`CHECK_INTERVAL`] of them, and early enough near the node
    /// limit ([`LimitClock::next_expansion_check`]), calls the observer and checks the limits.
    fn expand(&mut self) -> Result<(), Limit> {
        self.expanded += 1;
        if self.expanded >= self.next_check {
            self.next_check = self.clock.next_expansion_check(
                self.expanded,
                self.generated,
                CHECK_INTERVAL,
                self.branching,
            );
            let p = self.progress();
            (self.observer)(&p);
            if let Some(limit) = self.clock.check(self.generated) {
                return Err(limit);
            }
        }
        Ok(())
    }

    /// Counts (and keeps) the current path, a goal of `length` moves.
    fn goal_met(&mut self, length: u32) {
        // `length` ≥ the optimum = `shortest` (or the threshold, when no goal lies within a
        // smaller one).
        let i = (length - self.shortest) as usize;
        self.by_length[i] += 1;
        if self.solutions[i].len() < self.keep {
            self.solutions[i].push(self.path.clone());
        }
    }

    /// Searches below `board` (entered, not the goal) at depth `g` with estimate `h`.
    fn search(
        &mut self,
        board: &mut B,
        g: u32,
        h: u32,
        memo: &H::Memo,
        parent: Option<Move>,
    ) -> Result<(), Limit> {
        self.expand()?;
        for m in board.legal() {
            if parent == Some(m.inverse()) {
                continue;
            }
            self.generated += 1;
            let (h2, memo2) = self.heuristic.update_memo(board, h, memo, m);
            let f2 = g + 1 + h2;
            if f2 > self.threshold {
                self.next_threshold = self.next_threshold.min(f2);
                continue;
            }
            board.apply(m);
            self.path.push(m);
            if h2 == 0 && board.key() == self.goal_key {
                self.goal_met(g + 1);
            } else {
                let r = self.search(board, g + 1, h2, &memo2, Some(m));
                if r.is_err() {
                    self.path.pop();
                    board.apply(m.inverse());
                    return r;
                }
            }
            self.path.pop();
            board.apply(m.inverse());
        }
        Ok(())
    }

    /// [`Dfs::search`] over multi-tile moves: below `board` (entered, not the goal) at depth
    /// `g` MTM moves with estimate `h`, whose last move was along the vertical axis when
    /// `last_vertical == Some(true)`. The children are [`crate::MtmIdaStar`]'s: for each
    /// direction off the last move's axis, the boards after 1, 2, … k tiles slid, each one move
    /// deeper (a goal among them is counted and not entered; the slide goes on past it).
    fn search_mtm(
        &mut self,
        board: &mut B,
        g: u32,
        h: u32,
        memo: &H::Memo,
        last_vertical: Option<bool>,
    ) -> Result<(), Limit> {
        self.expand()?;
        for dir in Move::ALL {
            if last_vertical == Some(dir.is_vertical()) {
                continue;
            }
            let mut k = 0;
            let mut result = Ok(());
            let room = crate::mtm::slide_room(board, dir);
            let bound = self.threshold.saturating_sub(g + 1);
            // Every child's estimate at once when the heuristic batches them (their table
            // lookups overlap), else each after each single-tile step, from the step before's.
            let batched = self
                .batches
                .fill(self.heuristic, board, (h, memo), dir, bound, g);
            let (mut hc, mut mc) = (h, *memo);
            while k < room {
                (hc, mc) = if batched {
                    self.batches.get(g, dir, k)
                } else {
                    npuzzle_core::slide_step_estimate(self.heuristic, board, (hc, &mc), dir, bound)
                };
                board.apply(dir);
                self.path.push(dir);
                k += 1;
                self.generated += 1;
                let f = g + 1 + hc;
                if f > self.threshold {
                    self.next_threshold = self.next_threshold.min(f);
                } else if hc == 0 && board.key() == self.goal_key {
                    self.goal_met(g + 1);
                } else if let Err(limit) =
                    self.search_mtm(board, g + 1, hc, &mc, Some(dir.is_vertical()))
                {
                    result = Err(limit);
                    break;
                }
            }
            for _ in 0..k {
                board.apply(dir.inverse());
                self.path.pop();
            }
            result?;
        }
        Ok(())
    }
}

impl<B: Board> Solver<B> for AllOptimal {
    fn name(&self) -> &'static str {
        "idastar"
    }

    /// Optimal with any admissible heuristic, as IDA\*; with a heuristic that is not
    /// admissible the count means nothing, and the guarantee says so.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        Guarantee::of_admissible_search(heuristic)
    }

    /// Runs IDA\*'s iterations with parent pruning (in MTM: [`crate::MtmIdaStar`]'s tree, moves
    /// alternating axes); the first iteration that meets a goal is searched to the end,
    /// counting every goal. Returns the first optimal solution (the sequential IDA\*'s with
    /// parent pruning; in MTM the first of [`AllOptimal::solutions`]); [`AllOptimal::count`]
    /// and [`AllOptimal::solutions`] hold the rest.
    ///
    /// Time: IDA\*'s iterations plus the whole last one; memory: O(L) plus the kept solutions
    /// (L × max(W, H) single-tile moves a path in MTM).
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] when a node, time or cancel limit stops the search (the
    /// count is then unknown: nothing is kept), or with [`Limit::Depth`] when the next
    /// threshold exceeds [`AllOptimal::max_depth`] (the progress's bound is the proven lower
    /// bound); [`SearchError::Goal`] / [`SearchError::Board`] as for IDA\*.
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        observer: O,
    ) -> Result<Outcome, SearchError> {
        self.count = 0;
        self.by_length.clear();
        self.solutions.clear();
        let goal_board = match start_search(start, goal)? {
            SearchStart::Answered(outcome) => {
                if matches!(outcome, Outcome::Solved(_)) {
                    // The board is the goal: its one solution, the empty sequence (a
                    // longer one would reach the goal before its end).
                    self.count = 1;
                    self.by_length = std::iter::once(1)
                        .chain(std::iter::repeat_n(0, self.within as usize))
                        .collect();
                    if self.keep > 0 {
                        self.solutions.push(Vec::new());
                    }
                }
                return Ok(outcome);
            }
            SearchStart::Search { goal_board, .. } => goal_board,
        };
        let root = heuristic.estimate_memo(start);
        let mut search = Iterations {
            heuristic,
            goal_key: goal_board.key(),
            keep: self.keep,
            within: self.within,
            metric: self.metric,
            branching: match self.metric {
                Metric::Stm => 4,
                Metric::Mtm => {
                    let shape = goal.shape();
                    (shape.width() + shape.height()).saturating_sub(2).max(1) as u64
                }
            },
            optimum: None,
            board: start.clone(),
            root,
            expanded: 0,
            generated: 0,
            clock: LimitClock::new(limits),
            observer,
        };
        let ((by_length, mut solutions), stats) =
            driver::drive(&mut search, root.0, root.0, self.max_depth)?;
        let first = solutions[0].clone();
        solutions.truncate(self.keep);
        self.count = by_length.iter().sum();
        self.by_length = by_length;
        self.solutions = solutions;
        Ok(Outcome::Solved(Solution {
            moves: first,
            guarantee: Solver::<B>::guarantee(self, heuristic.properties()),
            stats,
        }))
    }
}
