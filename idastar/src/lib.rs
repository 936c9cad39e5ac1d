//! # npuzzle-idastar
//!
//! IDA* — iterative-deepening A* (Korf, "Depth-first iterative-deepening: an optimal admissible
//! tree search", Artificial Intelligence 27, 1985) — for sliding-tile puzzles, generic over
//! [`npuzzle_core::Board`] and any admissible [`Heuristic`].
//!
//! Each iteration is a depth-first search bounded by a threshold on f = g + h; the next threshold
//! is the smallest f that exceeded the current one. With an admissible heuristic the first
//! solution found is optimal. The search mutates **one** board in place and undoes every move,
//! updates h incrementally, never re-enters the parent state, and allocates nothing per node:
//! memory is O(solution length).
//!
//! ## When to use it
//! IDA* is the engine of choice for the 15-puzzle and larger boards: it needs no memory beyond
//! the current path, and its node rate is the highest of all engines. A* (`npuzzle-astar`) wins
//! on small boards or when many transpositions make IDA* re-expand states (weak heuristics on
//! the 8-puzzle), at the cost of storing every state.
//!
//! ## Cycle checks
//! [`CycleCheck::Parent`] (the default) only forbids the move that undoes the previous one, as in
//! Korf (1985). [`CycleCheck::Path`] additionally refuses any state already on the current path
//! (every second ancestor, since cycles have even length): it never changes the answer, prunes
//! few extra nodes on the 15-puzzle (the shortest non-trivial cycle is 12 moves), and costs
//! O(depth) per node, so it is slower; it is offered for experiments.
//! [`CycleCheck::Fsm`] prunes duplicate paths with a finite-state machine over the moves
//! (Taylor & Korf 1993; module [`fsm`]): every move string that a shorter or equally long
//! (shortlex-smaller) string replaces, up to 14 moves ([`fsm::default_depth`]),
//! is refused at one table load per child. It keeps a shortest path to every state (proof in
//! [`fsm`]), so lengths and thresholds are unchanged; it generates 0.43× the nodes of parent
//! pruning on Korf's 100 with Manhattan distance (0.65× the CPU time) and 0.61× on the
//! 24-puzzle's #40 with 6-6-6-6 tables (0.72× the CPU time; BENCHMARKS.md, "FSM duplicate
//! pruning").
//!
//! ## A\*+IDA\*
//! [`AStarIdaStar`] (`astar-idastar`; Bu & Korf 2019) runs A\* until a memory budget is full,
//! then IDA\* below each node of A\*'s open list in (f, h) order, on the parallel engine's
//! workers. Optimal with any admissible heuristic (proof in its docs).
//!
//! ## Node counts
//! Children are tried in Korf's order (blank up, left, right, down = tile moves `D R L U`), the
//! goal is tested when a node is entered, and every child counts as generated. With
//! [`Manhattan`](npuzzle_core::Manhattan) this reproduces Korf's (1985) published node counts
//! exactly (generated = published − 1, the root not being generated); a test checks that on
//! Korf's 100.
//!
//! ## The bitboard with Manhattan distance
//! With [`npuzzle_core::BitBoard`], plain [`Manhattan`](npuzzle_core::Manhattan) distance and
//! [`CycleCheck::Parent`] or [`CycleCheck::Fsm`], iterations (and the parallel engine's subtrees)
//! run a kernel specialised for them, chosen once at search start (`Kernel::choose`, from
//! [`Board::bitboard_cells`] and [`Heuristic::as_manhattan`], as the tables kernel below is from
//! [`Heuristic::as_additive_tables`]): recursive, monomorphised per board width and per move that
//! entered the node (so parent pruning costs nothing at run time), each child's tile looked up once
//! for both the h update and the move, and a move undone by the XOR that made it. It visits the
//! same nodes in the same order as the generic loop, at about 1.4× the node rate of the
//! explicit-stack loop it replaced and 1.15–1.17× that of a classic C implementation
//! (`benches/c-baseline/ida.c`; BENCHMARKS.md, "The recursive kernel").
//!
//! ## Additive pattern databases
//! With a heuristic that shows its tables ([`Heuristic::as_additive_tables`]: `npuzzle-pdb`'s
//! `PatternDb` and `ZeroAwareDb`, with or without reflection), any board of at most 32 cells and
//! [`CycleCheck::Parent`] or [`CycleCheck::Fsm`], iterations and the parallel engine's subtrees
//! run a second specialised kernel, built the same way (recursive, monomorphised per width 4
//! and 5 and per entering move). It keeps the tile on each cell of the board and of its
//! reflection, and each group's table index and value, for the whole path, changes them in
//! place and undoes them on the way back; a child's index changes by one precomputed
//! multiplier (a horizontal move) or by the multiplier times the width plus one precomputed
//! weight per tile in between (a vertical one). Same nodes in the same order as the generic
//! loop with the database's memo (a test compares the counts); on the 24-puzzle's #40 with
//! 6-6-6-6 and reflection, 2.7× its node rate, and the ten easiest of Korf's 50 with the
//! automaton on two threads in half the time (BENCHMARKS.md, "A kernel for additive pattern
//! databases"). With zero-aware tables ([`npuzzle_core::ZeroAwareLayout`]: the blank's region
//! is part of the index) it keeps each group's cell-set and permutation ranks instead, updates
//! the moved group's by [`npuzzle_core::ZeroAwareLayout::reparts`], and locates a node's
//! children's lookups before searching them, prefetching each cell set's record and then each
//! entry so that their cache misses overlap (about 1.3× the generic loop's speed; the plain
//! tables stay about 2× faster on the 24-puzzle: BENCHMARKS.md, "Zero-aware tables in the
//! kernel").
//!
//! ## Parallel search
//! [`IdaStar::threads`] runs each large iteration on several threads, in the manner of AIDA*
//! (Reinefeld & Schnecke, "AIDA* — Asynchronous Parallel IDA*", 1994; after Rao & Kumar, 1987):
//! the iteration's tree is first expanded breadth-first, in child order, into a frontier of a
//! few hundred nodes per thread (parent pruning, duplicates allowed, f-pruning and goal tests as
//! in the sequential search), then the worker threads take frontier nodes in order from a shared
//! counter (dynamic scheduling) and search their subtrees depth-first. An iteration starts only
//! after every thread finished the previous one, so the first goal found is optimal, and the
//! thresholds are those of the sequential search. Node counts, limits and the per-iteration
//! table add up all threads; the observer is called on the calling thread only. `threads(1)`,
//! the default, is exactly the sequential engine described above.
//!
//! ## Example
//! ```
//! use npuzzle_core::{BitBoard, Board, Goal, Limits, Manhattan, Outcome, Solver, parse_board, verify};
//! use npuzzle_idastar::IdaStar;
//!
//! let start = parse_board("8 6 7 2 5 4 3 0 1", None)?; // 31 moves from the blank-last goal
//! let goal = Goal::blank_last(start.shape());
//! let board = BitBoard::from_layout(&start)?;
//! let outcome = IdaStar::new().solve(&board, &goal, &Manhattan::new(&goal), &Limits::default())?;
//! let Outcome::Solved(solution) = outcome else { panic!("solvable") };
//! assert_eq!(solution.moves.len(), 31);
//! verify(&start, &solution.moves, goal.layout())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Iteration, Limit, LimitClock, Limits,
    Move, Outcome, Progress, SearchError, SearchStart, Solution, Solver, start_search,
};

use driver::IterationEnd;

pub mod all_optimal;
pub mod astar_idastar;
mod dfs;
mod driver;
pub mod frontier;
pub mod fsm;
mod fused;
pub mod mtm;
mod parallel;
pub mod partial;
mod tables;

pub use all_optimal::AllOptimal;
pub use astar_idastar::AStarIdaStar;
pub use frontier::{Frontier, FrontierError, FrontierNode, SubtreeEnd, SubtreeSearch};
pub use fsm::{Fsm, FsmError};
pub use mtm::MtmIdaStar;

/// Which repeated states a depth-first iteration refuses to enter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CycleCheck {
    /// Only the parent (the move that undoes the last one). Fastest; the default.
    #[default]
    Parent,
    /// The parent and every state on the current path. O(depth) per node.
    Path,
    /// Duplicate pruning with a finite-state machine over the moves ([`Fsm`]; Taylor & Korf
    /// 1993): refuses every move that completes a forbidden string, i.e. a move string that a
    /// shorter or equally long (shortlex-smaller) string replaces. Subsumes parent pruning; O(1)
    /// per node (one table load). The automaton's pattern length is [`IdaStar::fsm_depth`].
    /// Boards of more than [`fsm::MAX_CELLS`] cells fall back to [`CycleCheck::Parent`].
    Fsm,
}

/// Expansions between two checks of the node, time and cancel limits (a power of two).
const CHECK_INTERVAL: u64 = 1 << 16;
/// Expansions between two observer calls (a power of two).
const OBSERVE_INTERVAL: u64 = 1 << 20;

/// The IDA* engine. It holds its configuration (cycle check, threads, deterministic mode) and,
/// once a parallel solve has run, its thread pool (shared by clones), so one engine solves any
/// number of boards in turn. Each solve allocates its own explicit stack (one frame per move of
/// the current path, plus the path's keys with [`CycleCheck::Path`]), reuses it across all of
/// that solve's iterations, and frees it when it returns: the allocation is O(solution length),
/// not per node.
#[derive(Clone, Debug)]
pub struct IdaStar {
    cycle_check: CycleCheck,
    /// Worker threads (1 = sequential, 0 = all available cores) and, built on the first
    /// parallel solve, their pool (shared by clones).
    workers: parallel::Workers,
    deterministic: bool,
    parallel_cutoff: u64,
    /// The longest forbidden string of [`CycleCheck::Fsm`]'s automaton, in moves (`None`:
    /// [`fsm::default_depth`] of the board's cell count).
    fsm_depth: Option<u32>,
    /// The depth limit, in moves ([`IdaStar::max_depth`]).
    max_depth: Option<u32>,
}

impl Default for IdaStar {
    fn default() -> IdaStar {
        IdaStar {
            cycle_check: CycleCheck::Parent,
            workers: parallel::Workers::new(1, "idastar"),
            deterministic: false,
            parallel_cutoff: IdaStar::DEFAULT_PARALLEL_CUTOFF,
            fsm_depth: None,
            max_depth: None,
        }
    }
}

impl IdaStar {
    /// The default of [`IdaStar::parallel_cutoff`], in generated nodes.
    pub const DEFAULT_PARALLEL_CUTOFF: u64 = 1 << 17;

    /// A sequential engine with parent pruning only ([`CycleCheck::Parent`]).
    pub fn new() -> IdaStar {
        IdaStar::default()
    }

    /// Sets the number of threads that search: `1` (the default) is the sequential engine,
    /// `n > 1` runs large iterations on a pool of `n` worker threads while the calling thread
    /// only waits and calls the observer, and `0` means one thread per available core
    /// ([`std::thread::available_parallelism`]).
    ///
    /// Parallel IDA* returns an optimal solution of the same length, with the same iteration
    /// thresholds; every iteration but the last expands and generates exactly the nodes of the
    /// sequential engine, and the last one stops when some thread finds a goal, so its node
    /// count varies from run to run. Which optimal solution is returned then depends on timing
    /// unless [`IdaStar::deterministic`] is set. A node limit ([`Limits::max_nodes`]) stops the
    /// threads once they have generated its count together (plus at most 3 nodes a thread),
    /// never earlier: a thread that finds the budget spent waits for the nodes the others
    /// reserved and leave unused. The pool is built on the first parallel solve and reused; if
    /// the operating system refuses the threads, the solve runs sequentially.
    #[must_use]
    pub fn threads(mut self, n: usize) -> IdaStar {
        self.workers.set(n);
        self
    }

    /// The configured thread count (`0` = all available cores).
    pub fn thread_count(&self) -> usize {
        self.workers.configured()
    }

    /// With `true`, a parallel search (`threads` > 1) returns the same moves on every run and
    /// with any thread count: those of the sequential engine, the first solution in Korf's
    /// child order. A thread that finds a goal then stops only the threads searching subtrees
    /// that come after its own, and the search waits for the earlier ones, which costs a little
    /// of the parallel speed-up in the last iteration. A limit that stops the search while
    /// earlier subtrees are still open is reported as [`SearchError::LimitReached`] even if a
    /// later subtree held a solution. Default `false`: the first solution found by any thread,
    /// also optimal. No effect on the sequential engine, which is always deterministic.
    #[must_use]
    pub fn deterministic(mut self, yes: bool) -> IdaStar {
        self.deterministic = yes;
        self
    }

    /// Whether [`IdaStar::deterministic`] is set.
    pub fn is_deterministic(&self) -> bool {
        self.deterministic
    }

    /// Sets how large an iteration must be to run in parallel: an iteration runs on the pool
    /// when it is the first one or when the previous iteration generated at least `nodes`
    /// nodes (default [`IdaStar::DEFAULT_PARALLEL_CUTOFF`]); smaller ones, which finish in
    /// about a millisecond, run on the calling thread. `0` runs every iteration in parallel
    /// (tests use it to exercise the parallel code on small boards). No effect with one thread.
    #[must_use]
    pub fn parallel_cutoff(mut self, nodes: u64) -> IdaStar {
        self.parallel_cutoff = nodes;
        self
    }

    /// The configured [`IdaStar::parallel_cutoff`], in generated nodes.
    pub fn parallel_cutoff_nodes(&self) -> u64 {
        self.parallel_cutoff
    }

    /// Sets the cycle check.
    #[must_use]
    pub fn cycle_check(mut self, c: CycleCheck) -> IdaStar {
        self.cycle_check = c;
        self
    }

    /// The configured cycle check.
    pub fn cycle_check_mode(&self) -> CycleCheck {
        self.cycle_check
    }

    /// Sets the pattern length of [`CycleCheck::Fsm`]'s automaton, in moves (default
    /// [`fsm::default_depth`] of the board: 14; clamped to
    /// `2..=`[`fsm::MAX_DEPTH`]). Longer patterns prune more
    /// nodes but make a larger automaton (more cache misses) that takes longer to build (once
    /// per process and shape: [`Fsm::cached`]; once per cache directory with
    /// [`Fsm::cached_with`], as the `npuzzle` facade does).
    #[must_use]
    pub fn fsm_depth(mut self, depth: u32) -> IdaStar {
        self.fsm_depth = Some(depth.clamp(2, fsm::MAX_DEPTH));
        self
    }

    /// Sets a depth limit, in moves (`None`, the default: none): no iteration runs with a
    /// threshold above `depth`. When the next threshold would exceed it, the search stops with
    /// [`SearchError::LimitReached`] and [`Limit::Depth`]`(depth)`, whose progress bound is
    /// that next threshold: every iteration up to `depth` was searched to the end without a
    /// goal, so **no solution of at most `depth` moves exists** and the optimum is at least
    /// the bound (≥ `depth + 1`). A solution of at most `depth` moves is found as without the
    /// limit. This is the teaching notes' "maximum depth" for a depth-first search, made
    /// exact by IDA\*'s thresholds (a plain depth-limited DFS proves nothing when it stops).
    #[must_use]
    pub fn max_depth(mut self, depth: Option<u32>) -> IdaStar {
        self.max_depth = depth;
        self
    }

    /// The configured [`IdaStar::max_depth`], in moves.
    pub fn max_depth_moves(&self) -> Option<u32> {
        self.max_depth
    }

    /// The configured [`IdaStar::fsm_depth`], in moves (`None`: the board's default).
    pub fn fsm_depth_moves(&self) -> Option<u32> {
        self.fsm_depth
    }

    /// The automaton a solve of a board of `shape` uses: `Some` with [`CycleCheck::Fsm`] on
    /// boards of at most [`fsm::MAX_CELLS`] cells, built on first use ([`Fsm::cached`]).
    pub fn automaton(&self, shape: npuzzle_core::Shape) -> Option<Arc<Fsm>> {
        if self.cycle_check != CycleCheck::Fsm {
            return None;
        }
        let depth = self
            .fsm_depth
            .unwrap_or_else(|| fsm::default_depth(shape.cells()));
        Fsm::cached(shape, depth).ok()
    }
}

/// The depth-first loop that runs an iteration, decided once at search start by
/// [`Kernel::choose`], the one place where the engine looks at which board and heuristic it
/// was given; the sequential search ([`Run::iterate`]) and the parallel workers follow it.
pub(crate) enum Kernel<'a> {
    /// [`fused`]: the bitboard ([`Board::bitboard_cells`]), plain Manhattan distance with its
    /// small delta table ([`Heuristic::as_manhattan`]), no path check. `goal` is the goal as a
    /// [`npuzzle_core::BitBoard`] (its shape's move tables serve every node).
    Fused {
        table: &'a [i8; 1024],
        goal: npuzzle_core::BitBoard,
    },
    /// [`tables`]: an additive pattern database that shows its tables
    /// ([`Heuristic::as_additive_tables`]) on a board of at most 32 cells, no path check.
    Tables(Box<tables::Prepared<'a>>),
    /// [`dfs`]: any board, heuristic and cycle check.
    Generic,
}

impl<'a> Kernel<'a> {
    /// The kernel for `heuristic` on boards like `goal_board` (the goal), with or without the
    /// path check: the fused kernel where it applies, else the tables kernel, else the generic
    /// loop. O(cells) (O(table entries) never: the tables are only viewed).
    fn choose<B: Board, H: Heuristic<B>>(
        heuristic: &'a H,
        goal_board: &B,
        path_check: bool,
    ) -> Kernel<'a> {
        if path_check {
            return Kernel::Generic;
        }
        let fused = heuristic
            .as_manhattan()
            .and_then(npuzzle_core::Manhattan::small_delta_table)
            .zip(goal_board.bitboard_cells());
        if let Some((table, _)) = fused {
            let goal = npuzzle_core::BitBoard::from_layout(&goal_board.to_layout())
                .expect("a board that packs its cells like the bitboard has at most 16 cells");
            return Kernel::Fused { table, goal };
        }
        heuristic
            .as_additive_tables()
            .and_then(|view| tables::Prepared::new(&view, goal_board))
            .map_or(Kernel::Generic, |p| Kernel::Tables(Box::new(p)))
    }

    /// For the fused kernel, `board` as a bitboard (`shape` gives its move tables).
    fn bitboard<B: Board>(shape: &npuzzle_core::BitBoard, board: &B) -> npuzzle_core::BitBoard {
        let cells = board
            .bitboard_cells()
            .expect("the fused kernel is chosen for bitboards only");
        shape.with_key(&cells)
    }
}

/// Counters and limits shared by all iterations of one solve.
struct Run<'a, B: Board, H: Heuristic<B>, O> {
    heuristic: &'a H,
    goal_key: B::Key,
    path_check: bool,
    /// The duplicate-pruning automaton ([`CycleCheck::Fsm`]).
    fsm: Option<&'a Fsm>,
    /// The depth-first loop of every iteration ([`Kernel::choose`]).
    kernel: Kernel<'a>,
    expanded: u64,
    generated: u64,
    clock: LimitClock,
    observer: O,
    /// Scratch: the explicit DFS stack, reused across iterations.
    frames: Vec<dfs::Frame<H::Memo>>,
    /// Scratch: keys of the states on the path ([`CycleCheck::Path`] only).
    keys: Vec<B::Key>,
}

impl<'a, B: Board, H: Heuristic<B>, O> Run<'a, B, H, O> {
    /// A run with no node counted yet: `cycle` is ([`CycleCheck::Path`], the automaton of
    /// [`CycleCheck::Fsm`]); the kernel is chosen and the clock starts now.
    fn new(
        heuristic: &'a H,
        goal_board: &B,
        (path_check, fsm): (bool, Option<&'a Fsm>),
        limits: &Limits,
        observer: O,
    ) -> Run<'a, B, H, O> {
        Run {
            heuristic,
            goal_key: goal_board.key(),
            path_check,
            fsm,
            kernel: Kernel::choose(heuristic, goal_board, path_check),
            expanded: 0,
            generated: 0,
            clock: LimitClock::new(limits),
            observer,
            frames: Vec::new(),
            keys: Vec::new(),
        }
    }
}

impl<'a, B: Board, H: Heuristic<B>, O: FnMut(&Progress)> Run<'a, B, H, O> {
    fn progress(&self, bound: u32) -> Progress {
        crate::driver::progress(&self.clock, self.expanded, self.generated, bound)
    }

    /// Limit check and observer call, every [`CHECK_INTERVAL`] expansions.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, expanded: u64, generated: u64, bound: u32) -> Option<Limit> {
        self.expanded = expanded;
        self.generated = generated;
        if expanded % OBSERVE_INTERVAL < CHECK_INTERVAL {
            let p = self.progress(bound);
            (self.observer)(&p);
        }
        self.clock.check(generated)
    }

    /// The expansion count at which to check the limits next: every [`CHECK_INTERVAL`]
    /// expansions, and early enough that the node limit is overshot by fewer than 4 nodes (an
    /// expansion generates at most 4): [`LimitClock::next_expansion_check`].
    fn next_check(&self, expanded: u64, generated: u64) -> u64 {
        self.clock
            .next_expansion_check(expanded, generated, CHECK_INTERVAL, 4)
    }

    /// [`Run::iterate`] on the bitboard with Manhattan distance and parent pruning: the
    /// kernel of [`fused`], with `table` the Manhattan delta table and `goal` the goal's cells.
    fn iterate_fused(
        &mut self,
        start: &npuzzle_core::BitBoard,
        table: &[i8; 1024],
        goal: u64,
        h0: u32,
        threshold: u32,
    ) -> IterationEnd {
        if h0 == 0 && start.cells() == goal {
            return IterationEnd::Found(Vec::new());
        }
        let fsm = self.fsm;
        let root = fused::Start {
            board: start,
            todo: start.legal().bits(),
            g: 0,
            h: h0,
            fsm: fsm.map_or(0, |f| f.start(start.blank())),
        };
        self.run_kernel(threshold, |counters, check| {
            fused::search(
                &root,
                threshold,
                table,
                fsm.map(Fsm::table),
                goal,
                counters,
                check,
            )
        })
    }

    /// [`Run::iterate`] with an additive pattern database and no path check: the kernel of
    /// [`tables`], with `p` the prepared tables.
    fn iterate_tables(
        &mut self,
        p: &tables::Prepared<'_>,
        start: &B,
        h0: u32,
        threshold: u32,
    ) -> IterationEnd {
        if h0 == 0 && start.key() == self.goal_key {
            return IterationEnd::Found(Vec::new());
        }
        let fsm = self.fsm;
        let root = tables::Start {
            tiles: tables::Tiles::of(start),
            todo: start.legal().bits(),
            g: 0,
            h: h0,
            fsm: fsm.map_or(0, |f| f.start(start.blank())),
        };
        self.run_kernel(threshold, |counters, check| {
            tables::search(&root, threshold, p, fsm.map(Fsm::table), counters, check)
        })
    }

    /// One depth-first iteration bounded by `threshold` on f = g + h, from `start` (h = `h0`),
    /// with the run's [`Kernel`]: the generic loop of [`dfs`], the [`fused`] kernel or the
    /// [`tables`] kernel.
    fn iterate(&mut self, start: &B, (h0, memo0): (u32, H::Memo), threshold: u32) -> IterationEnd {
        match std::mem::replace(&mut self.kernel, Kernel::Generic) {
            Kernel::Generic => {}
            Kernel::Fused { table, goal } => {
                let board = Kernel::bitboard(&goal, start);
                let end = self.iterate_fused(&board, table, goal.cells(), h0, threshold);
                self.kernel = Kernel::Fused { table, goal };
                return end;
            }
            Kernel::Tables(p) => {
                let end = self.iterate_tables(&p, start, h0, threshold);
                self.kernel = Kernel::Tables(p);
                return end;
            }
        }
        // Root: the goal is tested when a node is entered.
        if h0 == 0 && start.key() == self.goal_key {
            return IterationEnd::Found(Vec::new());
        }
        let mut frames = std::mem::take(&mut self.frames);
        let mut keys = std::mem::take(&mut self.keys);
        if self.path_check {
            keys.clear();
            keys.push(start.key());
        }
        let heuristic = self.heuristic;
        let goal_key = self.goal_key.clone();
        let (path_check, fsm) = (self.path_check, self.fsm);
        let root = dfs::Start {
            board: start,
            todo: start.legal().bits(),
            g: 0,
            h: h0,
            memo: memo0,
            fsm: fsm.map_or(0, |f| f.start(start.blank())),
        };
        let scratch = dfs::Scratch {
            frames: &mut frames,
            keys: &mut keys,
        };
        let end = self.run_kernel(threshold, |counters, check| {
            let (goal_key, root) = (&goal_key, &root);
            match (path_check, fsm) {
                (true, _) => dfs::search::<B, H, true, false>(
                    root,
                    threshold,
                    heuristic,
                    goal_key,
                    &[],
                    scratch,
                    counters,
                    check,
                ),
                (false, Some(fsm)) => dfs::search::<B, H, false, true>(
                    root,
                    threshold,
                    heuristic,
                    goal_key,
                    fsm.table(),
                    scratch,
                    counters,
                    check,
                ),
                (false, None) => dfs::search::<B, H, false, false>(
                    root,
                    threshold,
                    heuristic,
                    goal_key,
                    &[],
                    scratch,
                    counters,
                    check,
                ),
            }
        });
        self.frames = frames;
        self.keys = keys;
        end
    }

    /// Runs `kernel` (one iteration's depth-first search: [`dfs::search`] or
    /// [`fused::search`]) with this run's counters and limit checks, and turns its end into the
    /// iteration's.
    fn run_kernel(
        &mut self,
        threshold: u32,
        kernel: impl FnOnce(&mut dfs::Counters, &mut SequentialCheck<'_, 'a, B, H, O>) -> dfs::End,
    ) -> IterationEnd {
        let mut counters = dfs::Counters {
            expanded: self.expanded + 1,
            generated: self.generated,
            next_check: self.next_check(self.expanded, self.generated),
        };
        let mut check = SequentialCheck {
            run: self,
            threshold,
            limit: None,
        };
        let end = kernel(&mut counters, &mut check);
        let limit = check.limit;
        self.expanded = counters.expanded;
        self.generated = counters.generated;
        match end {
            dfs::End::Found(path) => IterationEnd::Found(path),
            dfs::End::Exceeded(next) => IterationEnd::Exceeded(next),
            dfs::End::Stopped => IterationEnd::Stopped(
                limit.expect("the sequential checkpoint stops only on a limit"),
            ),
        }
    }
}

/// The sequential engine's limit checks and observer calls, for [`dfs::search`] and the
/// [`fused`] kernel.
struct SequentialCheck<'r, 'a, B: Board, H: Heuristic<B>, O> {
    run: &'r mut Run<'a, B, H, O>,
    /// The iteration's threshold (the bound reported in progress and limits).
    threshold: u32,
    /// The limit that stopped the search.
    limit: Option<Limit>,
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> dfs::Checkpoint
    for SequentialCheck<'_, '_, B, H, O>
{
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, expanded: u64, generated: u64) -> Option<u64> {
        if let Some(limit) = self.run.checkpoint(expanded, generated, self.threshold) {
            self.limit = Some(limit);
            return None;
        }
        Some(self.run.next_check(expanded, generated))
    }
}

impl<B: Board> Solver<B> for IdaStar {
    fn name(&self) -> &'static str {
        "idastar"
    }

    /// Optimal with any admissible heuristic (IDA\* needs no consistency: Korf 1985).
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        Guarantee::of_admissible_search(heuristic)
    }

    /// Runs IDA*: [`start_search`] (parity, goal board; the goal itself is answered with no
    /// moves, no iteration and all-zero stats), then iterations with increasing thresholds.
    ///
    /// Time: O(nodes generated), dominated by the last iteration; memory: O(solution length)
    /// (with threads: also O(frontier) per parallel iteration, see [`IdaStar::threads`]).
    /// The observer is called on the calling thread, once per iteration and every 2^20
    /// expansions (with threads: at most every 10 ms once 2^20 more nodes were expanded).
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        limits: &Limits,
        observer: O,
    ) -> Result<Outcome, SearchError> {
        let goal_board = match start_search(start, goal)? {
            SearchStart::Answered(outcome) => return Ok(outcome),
            SearchStart::Search { goal_board, .. } => goal_board,
        };
        let root = heuristic.estimate_memo(start);
        let automaton = self.automaton(start.shape());
        let path_check = self.cycle_check == CycleCheck::Path;
        let run = Run::new(
            heuristic,
            &goal_board,
            (path_check, automaton.as_deref()),
            limits,
            observer,
        );
        let mut search = Sequence {
            run,
            start,
            root,
            parallel: self.parallel(),
            parallel_cutoff: self.parallel_cutoff,
        };
        let (moves, stats) = driver::drive(&mut search, root.0, root.0, self.max_depth)?;
        Ok(Outcome::Solved(Solution {
            moves,
            guarantee: Solver::<B>::guarantee(self, heuristic.properties()),
            stats,
        }))
    }
}

/// IDA\*'s iterations from one start board, for [`driver::drive`]: on the calling thread, or
/// on the pool for iterations at least as large as the cutoff.
struct Sequence<'a, 's, B: Board, H: Heuristic<B>, O> {
    run: Run<'a, B, H, O>,
    start: &'s B,
    /// h(start) and its memo.
    root: (u32, H::Memo),
    parallel: Option<parallel::Parallel>,
    parallel_cutoff: u64,
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> driver::Iterations
    for Sequence<'_, '_, B, H, O>
{
    type Found = Vec<Move>;

    fn progress(&self, bound: u32) -> Progress {
        self.run.progress(bound)
    }

    fn observe(&mut self, progress: &Progress) {
        (self.run.observer)(progress);
    }

    fn iterate(&mut self, threshold: u32, previous: Option<&Iteration>) -> IterationEnd {
        match &self.parallel {
            Some(p) if previous.is_none_or(|i| i.generated >= self.parallel_cutoff) => {
                p.iterate(&mut self.run, self.start, self.root, threshold)
            }
            _ => self.run.iterate(self.start, self.root, threshold),
        }
    }
}
