//! IDA\* in the **multi-tile metric** (MTM): one move slides 1 to k tiles of the blank's row or
//! column one cell each, at cost 1 (the speedsolving community's metric; `slidy`'s MTM solvers).
//!
//! [`MtmIdaStar`] is IDA\* (Korf 1985) over MTM moves, generic over core's [`Board`] trait: a
//! node's successors are, for each direction the blank can move, the boards after 1, 2, … k
//! single-tile moves in that direction (k up to the edge of the board), each one move deeper.
//! The path is pruned by axis: after a horizontal move the next one is vertical, and the other
//! way round, because two moves along one line in a row are never both needed (`R2 R1` is
//! `R3`, `R2 L1` is `R1`, `R1 L1` is nothing: one move or none replaces two), so every optimal
//! MTM path alternates axes. The branching factor is then W−1 or H−1 (2 on the 8-puzzle, 3 on
//! the 15-puzzle).
//!
//! Optimal in MTM with a heuristic admissible **in MTM** (`npuzzle_core::WalkingDistance` built
//! for `Metric::Mtm`, `npuzzle_core::MtmManhattan`, or `Zero`): the engine cannot check that, so its [`Solver::guarantee`] trusts
//! [`HeuristicProperties::admissible`] like the STM engines do, and callers (the `npuzzle`
//! facade) pass only heuristics declared admissible in MTM. Plain Manhattan distance is not:
//! one move `R2` has Manhattan distance 2.
//!
//! Returned moves are single-tile moves (`RRUL…`), so they replay with `verify` like every
//! engine's; their MTM length is their count of runs of one direction
//! (`npuzzle_core::mtm_length`), which for an optimal MTM path (alternating axes) is its
//! number of MTM moves.
//!
//! When a node is expanded, the estimates of all its children come at once from
//! [`Heuristic::slide_estimates`], a slide (direction) at a time, before the first child is
//! searched: the multi-tile tables (`npuzzle_pdb::MtmDb`) index and prefetch every lookup of
//! every child first, so that their cache misses overlap; the other heuristics step from the
//! parent's estimate through [`Heuristic::update_memo`], one single-tile step at a time (a move
//! of k tiles is k steps, each one generated node): O(1) per node with
//! `npuzzle_core::WalkingDistance` (its memo holds the abstract states) and with
//! `MtmManhattan` (its memo holds the four directional sums). Slides of more than 15 tiles
//! (boards over 16 cells a side) are estimated one tile at a time. No stored states,
//! O(depth × max(W, H)) memory for the path, and the children's estimates in each frame.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use npuzzle_core::{
    Board, Goal, Guarantee, Heuristic, HeuristicProperties, Iteration, Limit, LimitClock, Limits,
    Move, Outcome, Progress, SearchError, SearchStart, Solution, Solver, start_search,
};

use crate::driver::{self, IterationEnd};
use crate::parallel::Workers;

/// Checks limits every this many generated nodes.
const CHECK_INTERVAL: u64 = 1 << 12;
/// The parallel search splits an iteration at the first depth (in MTM moves, at most
/// [`MAX_SPLIT_DEPTH`]) whose frontier holds at least this many subtrees a thread.
const SUBTREES_PER_THREAD: usize = 256;
/// The deepest split of the parallel search.
const MAX_SPLIT_DEPTH: u32 = 8;
/// An iteration runs on the calling thread alone when the one before generated fewer nodes
/// (the threads' start and the frontier would cost more than they save). These three were
/// measured on hard 4×4 boards (BENCHMARKS.md, "Multi-tile search: every child's lookups at
/// once, and dynamic scheduling").
const PARALLEL_MIN_NODES: u64 = 1 << 14;

/// IDA\* in the multi-tile metric (see the [module docs](self)). Holds no state between
/// searches but its thread pool (built on the first parallel search, shared by clones); safe
/// to call again for the next board.
#[derive(Clone, Debug)]
pub struct MtmIdaStar {
    workers: Workers,
}

impl Default for MtmIdaStar {
    fn default() -> MtmIdaStar {
        MtmIdaStar::new()
    }
}

impl MtmIdaStar {
    /// The engine, on one thread.
    pub fn new() -> MtmIdaStar {
        MtmIdaStar {
            workers: Workers::new(1, "mtm-idastar"),
        }
    }

    /// Searches each iteration on `threads` threads (`0`: one per available core, resolved by
    /// `npuzzle_core::Threads::resolve`). Each iteration is split into the subtrees below the
    /// first depth (in MTM moves, at most 8) that holds at least 256 of them a thread
    /// (iterations after one of fewer than 16,384 generated nodes run on the calling thread);
    /// each thread takes the next subtree, in depth-first order, from a shared counter (dynamic
    /// scheduling, as AIDA\*: Reinefeld & Schnecke 1994), and the first goal found ends the
    /// iteration. The answer is as short (the threshold loop is the same); which optimal path
    /// is returned, and the node counts of the last iteration, may differ from run to run.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> MtmIdaStar {
        self.workers.set(threads);
        self
    }
}

/// An iteration's end: the goal found (the moves are [`Walk::path`]), the least f above the
/// threshold, or the limit that stopped it.
type End = IterationEnd<()>;

/// What a depth-first walk asks every [`CHECK_INTERVAL`] nodes: go on, stop at a limit, or
/// give up because another thread's subtree ended the iteration.
enum Check {
    Go,
    Stop(Limit),
    Abandon,
}

/// Who checks the limits of a walk: the search's own clock and observer (one thread), or the
/// shared state of a parallel iteration.
trait Control {
    fn check(&mut self, expanded: u64, generated: u64, threshold: u32) -> Check;

    /// The generated-node count at which to check next, after a check at `generated`.
    fn next_check(&self, generated: u64) -> u64 {
        generated + CHECK_INTERVAL
    }
}

/// One depth-first walk below a node: the nodes it counted and its path.
struct Walk<'a, B: Board, H: Heuristic<B>> {
    heuristic: &'a H,
    /// The children's estimates of each frame on the path, when the heuristic batches them.
    batches: SlideBatches<H::Memo>,
    goal_key: B::Key,
    expanded: u64,
    generated: u64,
    next_check: u64,
    /// The single-tile moves of the current path.
    path: Vec<Move>,
    /// Another thread's subtree ended the iteration: every frame returns at once.
    abandoned: bool,
}

impl<B: Board, H: Heuristic<B>> Walk<'_, B, H> {
    /// Depth-first search below `board` (at depth `g` MTM moves, estimate `h`), whose last
    /// move was along the vertical axis when `last_vertical == Some(true)`.
    fn dfs(
        &mut self,
        control: &mut impl Control,
        board: &mut B,
        g: u32,
        (h, memo): (u32, H::Memo),
        last_vertical: Option<bool>,
        threshold: u32,
    ) -> End {
        if h == 0 && board.key() == self.goal_key {
            return End::Found(());
        }
        if let Some(end) = self.poll(control, threshold) {
            return end;
        }
        self.expanded += 1;
        let bound = threshold.saturating_sub(g + 1);
        // Every child's estimate before the first is searched, when the heuristic batches
        // them (their table lookups overlap) and the slides are short enough; else each after
        // each single-tile step, from the step before's.
        let mut batched = [false; 4];
        if self.batches.on {
            for dir in Move::ALL {
                if last_vertical != Some(dir.is_vertical()) {
                    batched[dir.index()] =
                        self.batches
                            .fill(self.heuristic, board, (h, &memo), dir, bound, g);
                }
            }
        }
        let mut least = u32::MAX;
        for dir in Move::ALL {
            if last_vertical == Some(dir.is_vertical()) {
                continue;
            }
            let mut k = 0;
            let (mut hc, mut mc) = (h, memo);
            while board.legal().contains(dir) {
                (hc, mc) = if batched[dir.index()] {
                    self.batches.get(g, dir, k)
                } else {
                    npuzzle_core::slide_step_estimate(self.heuristic, board, (hc, &mc), dir, bound)
                };
                k += 1;
                board.apply(dir);
                self.path.push(dir);
                self.generated += 1;
                let f = g + 1 + hc;
                if f <= threshold {
                    match self.dfs(
                        control,
                        board,
                        g + 1,
                        (hc, mc),
                        Some(dir.is_vertical()),
                        threshold,
                    ) {
                        End::Found(()) => return End::Found(()),
                        End::Stopped(l) => return End::Stopped(l),
                        End::Exceeded(_) if self.abandoned => return End::Exceeded(u32::MAX),
                        End::Exceeded(next) => least = least.min(next),
                    }
                } else {
                    least = least.min(f);
                }
            }
            for _ in 0..k {
                board.apply(dir.inverse());
                self.path.pop();
            }
        }
        End::Exceeded(least)
    }

    /// The limits checked when the generated-node count has reached the next check: `None`
    /// to go on, else how the walk ends (a limit, or abandoned for another thread's subtree).
    /// A comparison, except every [`Control::next_check`].
    #[inline]
    fn poll(&mut self, control: &mut impl Control, threshold: u32) -> Option<End> {
        if self.generated < self.next_check {
            return None;
        }
        self.checkpoint(control, threshold)
    }

    /// [`Walk::poll`]'s slow path, out of line so that the walk's loop stays small.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, control: &mut impl Control, threshold: u32) -> Option<End> {
        self.next_check = control.next_check(self.generated);
        match control.check(self.expanded, self.generated, threshold) {
            Check::Go => None,
            Check::Stop(limit) => Some(End::Stopped(limit)),
            Check::Abandon => {
                self.abandoned = true;
                Some(End::Exceeded(u32::MAX))
            }
        }
    }
}

/// The search's clock and observer, for the walk of a one-thread iteration.
struct Observed<'c, O> {
    clock: &'c LimitClock,
    observer: &'c mut O,
}

impl<O: FnMut(&Progress)> Control for Observed<'_, O> {
    fn check(&mut self, expanded: u64, generated: u64, threshold: u32) -> Check {
        if let Some(limit) = self.clock.check(generated) {
            return Check::Stop(limit);
        }
        (self.observer)(&driver::progress(
            self.clock, expanded, generated, threshold,
        ));
        Check::Go
    }

    /// Every [`CHECK_INTERVAL`] nodes, and at the first node the walk enters once the node
    /// limit is reached (the pruned children generated before it are over the limit: a few):
    /// [`LimitClock::next_node_check`].
    fn next_check(&self, generated: u64) -> u64 {
        self.clock.next_node_check(generated, CHECK_INTERVAL)
    }
}

/// The state the threads of a parallel iteration share: the clock (checked against every
/// thread's nodes together), whether the iteration has ended (a goal, or a limit another thread
/// hit), and the nodes counted before.
struct Shared<'c> {
    clock: &'c LimitClock,
    /// Nodes generated by the search so far, every thread's counted as it checks.
    generated: AtomicU64,
    ended: AtomicBool,
}

/// One thread's view of [`Shared`]: the nodes it has reported.
struct Worker<'s, 'c> {
    shared: &'s Shared<'c>,
    reported: u64,
}

impl Control for Worker<'_, '_> {
    fn check(&mut self, _expanded: u64, generated: u64, _threshold: u32) -> Check {
        let new = generated - self.reported;
        self.reported = generated;
        let total = self.shared.generated.fetch_add(new, Ordering::Relaxed) + new;
        if self.shared.ended.load(Ordering::Relaxed) {
            return Check::Abandon;
        }
        match self.shared.clock.check(total) {
            Some(limit) => Check::Stop(limit),
            None => Check::Go,
        }
    }
}

/// A node of a parallel iteration's frontier: its board, depth, estimate and memo, last axis
/// and path.
struct Sub<B: Board, M> {
    board: B,
    g: u32,
    h: (u32, M),
    last_vertical: Option<bool>,
    path: Vec<Move>,
}

/// One search's state.
struct Run<'a, B: Board, H: Heuristic<B>, O: FnMut(&Progress)> {
    walk: Walk<'a, B, H>,
    clock: LimitClock,
    observer: O,
    board: B,
    /// h(start) and its memo.
    root: (u32, H::Memo),
    /// The pool of a parallel search.
    parallel: Option<crate::parallel::Parallel>,
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> Run<'_, B, H, O> {
    fn progress(&self, bound: u32) -> Progress {
        crate::driver::progress(&self.clock, self.walk.expanded, self.walk.generated, bound)
    }
}

impl<B: Board> Solver<B> for MtmIdaStar {
    fn name(&self) -> &'static str {
        "idastar"
    }

    /// Optimal **in MTM** with an admissible heuristic — which must be admissible in MTM (see
    /// the [module docs](self)); unproven otherwise.
    fn guarantee(&self, heuristic: HeuristicProperties) -> Guarantee {
        if heuristic.admissible {
            Guarantee::Optimal
        } else {
            Guarantee::Unproven
        }
    }

    /// IDA\* over MTM moves: thresholds start at h(start) and rise to the least f that
    /// exceeded the last one, so the first solution found is optimal in MTM (with an
    /// MTM-admissible heuristic). Node counts are MTM nodes (each board after 1..k tiles slid
    /// is one generated node). With [`MtmIdaStar::threads`] above 1, each iteration's subtrees
    /// are searched on that many threads.
    ///
    /// # Errors
    /// [`SearchError::LimitReached`] when a limit stops it (the progress's bound is the
    /// threshold reached, a lower bound on the MTM optimum); [`SearchError::Goal`] when shapes
    /// differ.
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
        let parallel = if npuzzle_core::Threads::resolve(self.workers.configured()) > 1 {
            self.workers.parallel(false)
        } else {
            None
        };
        let mut run = Run {
            walk: Walk {
                heuristic,
                batches: SlideBatches::new(heuristic),
                goal_key: goal_board.key(),
                expanded: 0,
                generated: 0,
                next_check: 0,
                path: Vec::new(),
                abandoned: false,
            },
            clock: LimitClock::new(limits),
            observer,
            board: start.clone(),
            root,
            parallel,
        };
        let (moves, stats) = driver::drive(&mut run, root.0, root.0, None)?;
        Ok(Outcome::Solved(Solution {
            moves,
            guarantee: Solver::<B>::guarantee(self, heuristic.properties()),
            stats,
        }))
    }
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> Run<'_, B, H, O> {
    /// The nodes at the first depth (at most [`MAX_SPLIT_DEPTH`]) with at least `want` of f
    /// within `threshold`, expanded breadth-first from the start (each node counted as the
    /// walk counts it), and the least f of the children pruned on the way; `Err` with the
    /// moves when a goal lies within the threshold on the way.
    #[expect(
        clippy::type_complexity,
        reason = "the frontier and its least pruned f"
    )]
    fn frontier(
        &mut self,
        threshold: u32,
        want: usize,
    ) -> Result<(Vec<Sub<B, H::Memo>>, u32), Vec<Move>> {
        let heuristic = self.walk.heuristic;
        let mut layer = vec![Sub {
            board: self.board.clone(),
            g: 0,
            h: self.root,
            last_vertical: None,
            path: Vec::new(),
        }];
        let mut least = u32::MAX;
        for _ in 0..MAX_SPLIT_DEPTH {
            if layer.len() >= want {
                break;
            }
            let mut next = Vec::new();
            for sub in &layer {
                if sub.h.0 == 0 && sub.board.key() == self.walk.goal_key {
                    return Err(sub.path.clone());
                }
                self.walk.expanded += 1;
                for dir in Move::ALL {
                    if sub.last_vertical == Some(dir.is_vertical()) {
                        continue;
                    }
                    let (mut board, mut h, mut path) = (sub.board.clone(), sub.h, sub.path.clone());
                    while board.legal().contains(dir) {
                        h = heuristic.update_memo(&board, h.0, &h.1, dir);
                        board.apply(dir);
                        path.push(dir);
                        self.walk.generated += 1;
                        let f = sub.g + 1 + h.0;
                        if f <= threshold {
                            next.push(Sub {
                                board: board.clone(),
                                g: sub.g + 1,
                                h,
                                last_vertical: Some(dir.is_vertical()),
                                path: path.clone(),
                            });
                        } else {
                            least = least.min(f);
                        }
                    }
                }
            }
            layer = next;
        }
        Ok((layer, least))
    }

    /// One iteration on the pool: the frontier's subtrees searched by the threads in turn, the
    /// first goal or limit ending it. Nodes of every thread are added to the run's.
    fn iterate_parallel(&mut self, threshold: u32, parallel: &crate::parallel::Parallel) -> End {
        let (frontier, mut least) =
            match self.frontier(threshold, SUBTREES_PER_THREAD * parallel.threads) {
                Ok(f) => f,
                Err(moves) => {
                    self.walk.path = moves;
                    return End::Found(());
                }
            };
        let shared = Shared {
            clock: &self.clock,
            generated: AtomicU64::new(self.walk.generated),
            ended: AtomicBool::new(false),
        };
        let found: Mutex<Option<Vec<Move>>> = Mutex::new(None);
        let heuristic = self.walk.heuristic;
        let goal_key = self.walk.goal_key.clone();
        // Dynamic scheduling (as `crate::parallel`'s): each thread takes the next subtree of
        // the frontier, in depth-first order, from a shared counter, so that no thread waits
        // while another is given a share of large subtrees.
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<(End, u64, u64)>> = Mutex::new(Vec::new());
        let frontier = &frontier;
        parallel.pool.scope(|scope| {
            for _ in 0..parallel.threads {
                scope.spawn(|_| {
                    let end = work_subtrees(
                        frontier, &next, &shared, &found, heuristic, &goal_key, threshold,
                    );
                    results
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(end);
                });
            }
        });
        let results = results.into_inner().unwrap_or_else(PoisonError::into_inner);
        let mut stopped = None;
        for (end, expanded, generated) in results {
            self.walk.expanded += expanded;
            self.walk.generated += generated;
            match end {
                End::Exceeded(next) => least = least.min(next),
                End::Stopped(limit) => stopped = stopped.or(Some(limit)),
                End::Found(()) => {}
            }
        }
        if let Some(moves) = found.into_inner().unwrap_or_else(PoisonError::into_inner) {
            self.walk.path = moves;
            return End::Found(());
        }
        match stopped {
            Some(limit) => End::Stopped(limit),
            None => End::Exceeded(least),
        }
    }
}

impl<B: Board, H: Heuristic<B>, O: FnMut(&Progress)> driver::Iterations for Run<'_, B, H, O> {
    type Found = Vec<Move>;

    fn progress(&self, bound: u32) -> Progress {
        Run::progress(self, bound)
    }

    fn observe(&mut self, progress: &Progress) {
        (self.observer)(progress);
    }

    fn iterate(&mut self, threshold: u32, previous: Option<&Iteration>) -> IterationEnd {
        let large = previous.is_some_and(|p| p.generated >= PARALLEL_MIN_NODES);
        let end = match self.parallel.take() {
            Some(parallel) if large => {
                let end = self.iterate_parallel(threshold, &parallel);
                self.parallel = Some(parallel);
                end
            }
            parallel => {
                self.parallel = parallel;
                let mut board = self.board.clone();
                let mut control = Observed {
                    clock: &self.clock,
                    observer: &mut self.observer,
                };
                self.walk.path.clear();
                self.walk
                    .dfs(&mut control, &mut board, 0, self.root, None, threshold)
            }
        };
        match end {
            End::Found(()) => IterationEnd::Found(std::mem::take(&mut self.walk.path)),
            End::Exceeded(next) => IterationEnd::Exceeded(next),
            End::Stopped(limit) => IterationEnd::Stopped(limit),
        }
    }
}

/// One thread of a parallel iteration: takes the next subtree of `frontier` from `next`
/// until none is left or the iteration has ended, and searches it within `threshold`.
/// Returns how it ended (a goal, whose moves it put in `found`; a limit; else the least f
/// above the threshold it saw) and the nodes it expanded and generated.
fn work_subtrees<B: Board, H: Heuristic<B>>(
    frontier: &[Sub<B, H::Memo>],
    next: &AtomicUsize,
    shared: &Shared<'_>,
    found: &Mutex<Option<Vec<Move>>>,
    heuristic: &H,
    goal_key: &B::Key,
    threshold: u32,
) -> (End, u64, u64) {
    let mut worker = Worker {
        shared,
        reported: 0,
    };
    let (mut expanded, mut generated) = (0, 0);
    let mut least = u32::MAX;
    let mut ended = None;
    // One set of rows for the thread, handed from walk to walk.
    let mut batches = SlideBatches::new(heuristic);
    while let Some(sub) = frontier.get(next.fetch_add(1, Ordering::Relaxed)) {
        if shared.ended.load(Ordering::Relaxed) {
            break;
        }
        let mut walk = Walk {
            heuristic,
            batches,
            goal_key: goal_key.clone(),
            expanded: 0,
            generated: 0,
            next_check: 0,
            path: sub.path.clone(),
            abandoned: false,
        };
        let mut board = sub.board.clone();
        // The walk counts from 0; what it reports at its checks is its own.
        worker.reported = 0;
        let end = walk.dfs(
            &mut worker,
            &mut board,
            sub.g,
            sub.h,
            sub.last_vertical,
            threshold,
        );
        expanded += walk.expanded;
        generated += walk.generated;
        batches = walk.batches;
        match end {
            End::Found(()) => {
                shared.ended.store(true, Ordering::Relaxed);
                found
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .get_or_insert(walk.path);
                ended = Some(End::Found(()));
                break;
            }
            End::Stopped(limit) => {
                shared.ended.store(true, Ordering::Relaxed);
                ended = Some(End::Stopped(limit));
                break;
            }
            End::Exceeded(l) => least = least.min(l),
        }
    }
    (ended.unwrap_or(End::Exceeded(least)), expanded, generated)
}

/// The longest slide whose children [`MtmIdaStar`] and [`crate::AllOptimal`] estimate at once
/// ([`Heuristic::slide_estimates`]); longer ones (on boards more than 16 cells wide or high)
/// one tile at a time.
pub(crate) const BATCH: usize = 15;

/// The children's estimates of the frames of a depth-first path, computed at once a slide at
/// a time ([`Heuristic::slide_estimates`]) for heuristics that batch them
/// ([`Heuristic::batches_slides`]): one row of `4 × BATCH` entries a depth (a direction's
/// slides at `BATCH × direction`), grown as the path deepens, so that no node allocates.
/// Shared by [`MtmIdaStar`] and [`crate::AllOptimal`].
pub(crate) struct SlideBatches<M> {
    rows: Vec<[(u32, M); 4 * BATCH]>,
    /// Whether the heuristic batches its slides ([`Heuristic::batches_slides`]).
    pub(crate) on: bool,
}

impl<M: Copy + Default> SlideBatches<M> {
    /// Empty; used only if `heuristic` batches its slides.
    pub(crate) fn new<B: Board, H: Heuristic<B, Memo = M>>(heuristic: &H) -> SlideBatches<M> {
        SlideBatches {
            rows: Vec::new(),
            on: heuristic.batches_slides(),
        }
    }

    /// Computes, into depth `depth`'s row, the estimates of the children of the slide `dir`
    /// from `board` (estimate and memo `parent`), pruned above `bound`; `false` (nothing
    /// computed) when the heuristic does not batch or the slide is longer than [`BATCH`].
    pub(crate) fn fill<B: Board, H: Heuristic<B, Memo = M>>(
        &mut self,
        heuristic: &H,
        board: &mut B,
        parent: (u32, &M),
        dir: Move,
        bound: u32,
        depth: u32,
    ) -> bool {
        let room = slide_room(board, dir);
        if !self.on || room > BATCH {
            return false;
        }
        let d = depth as usize;
        if self.rows.len() <= d {
            self.rows.resize(d + 1, [(0, M::default()); 4 * BATCH]);
        }
        let row = &mut self.rows[d][BATCH * dir.index()..][..room];
        heuristic.slide_estimates(board, parent, dir, bound, row);
        true
    }

    /// The estimate [`SlideBatches::fill`] computed for the child after `k + 1` tiles of
    /// `dir` at depth `depth`.
    #[inline]
    pub(crate) fn get(&self, depth: u32, dir: Move, k: usize) -> (u32, M) {
        self.rows[depth as usize][BATCH * dir.index() + k]
    }
}

/// How many tiles the blank's line holds in direction `dir` (the most a slide that way
/// moves): 0 when `dir` is illegal.
pub(crate) fn slide_room<B: Board>(board: &B, dir: Move) -> usize {
    let shape = board.shape();
    let (w, h) = (shape.width(), shape.height());
    let (r, c) = (board.blank() / w, board.blank() % w);
    match dir {
        Move::Down => r,
        Move::Right => c,
        Move::Left => w - 1 - c,
        Move::Up => h - 1 - r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{BitBoard, MtmManhattan, mtm_length, parse_board, verify};

    #[test]
    fn one_mtm_move_and_a_few_more() {
        let goal = Goal::blank_last(npuzzle_core::Shape::square(3).unwrap());
        let h = MtmManhattan::new(&goal);
        for (text, mtm, stm) in [
            // The blank at the left end of the bottom row: L2 slides two tiles, one MTM move.
            ("1 2 3 4 5 6 0 7 8", 1, 2),
            ("1 2 3 4 5 6 7 0 8", 1, 1),
            // Two moves: U2 (the blank up its column), then L2.
            ("0 2 3 1 5 6 4 7 8", 2, 4),
        ] {
            let layout = parse_board(text, None).unwrap();
            let board = BitBoard::from_layout(&layout).unwrap();
            let Outcome::Solved(s) = MtmIdaStar::new()
                .solve(&board, &goal, &h, &Limits::default())
                .unwrap()
            else {
                panic!("solvable")
            };
            verify(&layout, &s.moves, goal.layout()).unwrap();
            assert_eq!(mtm_length(&s.moves), mtm, "{text}");
            assert!(s.moves.len() >= stm, "{text}");
            assert_eq!(s.guarantee, Guarantee::Optimal);
        }
    }
}
