//! Parallel IDA*: one iteration searched by a pool of worker threads.
//!
//! The scheme is AIDA*'s (Reinefeld & Schnecke 1994) with dynamic scheduling:
//! 1. the iteration's tree is expanded breadth-first, one whole level at a time and in child
//!    order, until a level holds at least [`FRONTIER_PER_THREAD`] nodes per thread (or the tree
//!    ends). Every node is counted, pruned and goal-tested exactly as the sequential search
//!    does, so a level lists its nodes in depth-first order;
//! 2. the workers take the frontier's nodes in that order from a shared counter and search each
//!    subtree depth-first with the sequential search's loop, so cheap subtrees never wait for
//!    expensive ones. Each worker keeps its counts in registers and publishes them to shared
//!    counters at every check, where it also reads the stop flags and the limits;
//! 3. the calling thread waits on a channel, calling the observer now and then, until every
//!    worker is done: an iteration never starts before the previous one is exhausted by all
//!    threads, which is what keeps the first solution optimal.
//!
//! A non-final iteration therefore expands and generates exactly the sequential search's
//! nodes. In the final one a solution stops the other workers: all of them (the default), or in
//! deterministic mode only those on later frontier nodes, so that the solution returned is the
//! one in the earliest frontier node that holds one — the sequential search's.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, mpsc};
use std::time::Duration;

use npuzzle_core::{Board, BoundKind, Heuristic, Limit, LimitClock, Move, Progress, Threads};

use crate::dfs::Frame;
use crate::{CHECK_INTERVAL, IdaStar, IterationEnd, Kernel, OBSERVE_INTERVAL, Run};

/// Frontier nodes per worker thread: enough that the largest subtree is a small part of an
/// iteration, few enough that building the frontier costs little (it allocates per node).
const FRONTIER_PER_THREAD: usize = 256;

/// Generated nodes a worker takes from the node budget at a time: it checks the stop flags and
/// the limits every 2^16 to 2^17 expansions, like the sequential search.
const RESERVE: u64 = 4 * CHECK_INTERVAL;

/// How long the calling thread sleeps between two looks at the workers' progress.
const OBSERVE_PERIOD: Duration = Duration::from_millis(10);

/// How long a worker waiting for node budget sleeps between two looks at the stop flags and
/// the time limit.
const WAIT_PERIOD: Duration = Duration::from_millis(1);

impl IdaStar {
    /// The parallel configuration of the next solve, building (once) and caching the pool;
    /// `None` for one thread or when the pool cannot be built.
    pub(crate) fn parallel(&mut self) -> Option<Parallel> {
        if Threads::resolve(self.workers.configured()) <= 1 {
            return None;
        }
        self.workers.parallel(self.deterministic)
    }
}

/// An engine's worker threads, written once for [`IdaStar`] and [`crate::AStarIdaStar`]: the
/// count as configured (`0`: one per available core, resolved by [`Threads::resolve`]) and,
/// once a search needed it, the pool of that many threads, shared by the engine's clones.
#[derive(Clone, Debug)]
pub(crate) struct Workers {
    /// As configured.
    threads: usize,
    /// Built on the first search that needs it.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// The threads' name prefix (`idastar-0`, …).
    name: &'static str,
}

impl Workers {
    /// `threads` workers named `name-i`, none started yet.
    pub(crate) fn new(threads: usize, name: &'static str) -> Workers {
        Workers {
            threads,
            pool: None,
            name,
        }
    }

    /// Sets the count; a pool of another count is dropped (rebuilt on the next search).
    pub(crate) fn set(&mut self, threads: usize) {
        if threads != self.threads {
            self.pool = None;
        }
        self.threads = threads;
    }

    /// The count as configured (`0`: one per available core).
    pub(crate) fn configured(&self) -> usize {
        self.threads
    }

    /// The pool for the next search, built once; `None` if the system refuses the threads.
    pub(crate) fn parallel(&mut self, deterministic: bool) -> Option<Parallel> {
        if self.pool.is_none() {
            let name = self.name;
            self.pool = rayon::ThreadPoolBuilder::new()
                .num_threads(Threads::resolve(self.threads))
                .thread_name(move |i| format!("{name}-{i}"))
                .build()
                .ok()
                .map(Arc::new);
        }
        let pool = Arc::clone(self.pool.as_ref()?);
        Some(Parallel {
            threads: pool.current_num_threads(),
            pool,
            deterministic,
        })
    }
}

/// What one parallel iteration needs from the engine's configuration.
pub(crate) struct Parallel {
    pub(crate) pool: Arc<rayon::ThreadPool>,
    pub(crate) threads: usize,
    pub(crate) deterministic: bool,
}

/// A frontier node: a board entered (goal-tested, not yet expanded) at depth `path.len()`.
pub(crate) struct Node<B: Board, M> {
    pub(crate) board: B,
    pub(crate) h: u32,
    pub(crate) memo: M,
    /// Its children's moves (legal, parent excluded), as a 4-bit mask.
    pub(crate) todo: u8,
    /// The moves from the start board.
    pub(crate) path: Vec<Move>,
    /// Keys of the states on the path, this one last ([`crate::CycleCheck::Path`] only).
    pub(crate) keys: Vec<B::Key>,
    /// Its duplicate-pruning automaton state ([`crate::CycleCheck::Fsm`] only).
    pub(crate) fsm: u32,
}

/// One level of the breadth-first expansion, in depth-first order.
type Level<B, M> = Vec<Node<B, M>>;

/// What [`expand`] ends with: the last level built and the smallest f above the threshold
/// seen, or how the iteration ended on the way.
pub(crate) type Expansion<B, M> = Result<(Level<B, M>, u32), IterationEnd>;

/// State shared by the workers of one iteration.
struct Shared {
    /// Index of the next frontier node to search.
    next: AtomicUsize,
    /// Nodes expanded and generated by the workers, as published at their checks.
    expanded: AtomicU64,
    generated: AtomicU64,
    /// The smallest f above the threshold seen by a finished subtree.
    next_threshold: AtomicU32,
    /// The lowest frontier index whose subtree holds a solution (`usize::MAX`: none yet).
    found_index: AtomicUsize,
    /// That solution: (frontier index, moves from the start board).
    solution: Mutex<Option<(usize, Vec<Move>)>>,
    /// Set when every worker must stop: a limit was hit, or a solution was found (not in
    /// deterministic mode).
    stop: AtomicBool,
    /// The limit that was hit.
    limit: Mutex<Option<Limit>>,
    /// Generated nodes left to the node limit, not yet reserved by a worker. Workers take from
    /// it at any time; it grows only under [`Shared::running`]'s lock, when a worker ends.
    budget: AtomicU64,
    /// Workers that may still give budget back: started or not yet started, and neither ended
    /// nor waiting for budget ([`Ctx::wait_for_budget`]). Changed only under its lock; its
    /// condition variable wakes the waiting workers when one ends.
    running: Mutex<usize>,
    budget_returned: Condvar,
    /// Nodes generated in each frontier node's subtree (the node itself not included: the
    /// frontier counted it), by frontier index; a subtree cut short by a stop holds what it
    /// generated before.
    subtree_generated: Vec<AtomicU64>,
}

/// Read-only context of the workers of one iteration.
struct Ctx<'a, B: Board, H: Heuristic<B>> {
    heuristic: &'a H,
    goal_key: &'a B::Key,
    clock: &'a LimitClock,
    threshold: u32,
    /// Nodes generated before the workers started (earlier iterations and the frontier).
    generated_before: u64,
    deterministic: bool,
    frontier: &'a [Node<B, H::Memo>],
    shared: Shared,
    /// The sequential engine's kernel, chosen at search start ([`crate::Kernel::choose`]):
    /// the workers search every subtree with it ([`Ctx::subtree_fused`],
    /// [`Ctx::subtree_tables`], [`Ctx::subtree`]).
    kernel: &'a Kernel<'a>,
    /// The duplicate-pruning automaton's transitions ([`crate::CycleCheck::Fsm`]; empty without).
    fsm: &'a [u32],
}

/// A worker's counters: the totals so far, the part already published, and its share of the
/// node budget.
#[derive(Default)]
struct Local {
    expanded: u64,
    generated: u64,
    published_expanded: u64,
    published_generated: u64,
    /// The generated count this worker may reach (nodes reserved from [`Shared::budget`]).
    allowed: u64,
    /// The expansion count at which to check next.
    next_check: u64,
    /// The worker stopped while waiting for budget: it no longer counts in
    /// [`Shared::running`].
    left: bool,
}

/// What the search of one frontier node's subtree ended with.
enum SubtreeEnd {
    /// A goal: the moves from the start board.
    Found(Vec<Move>),
    /// No goal within the threshold; the smallest f above it.
    Exceeded(u32),
    /// The worker must stop (a limit, or a solution elsewhere).
    Aborted,
}

impl Parallel {
    /// One iteration bounded by `threshold`, on the pool; updates `run`'s counters like
    /// [`Run::iterate`].
    pub(crate) fn iterate<B: Board, H: Heuristic<B>, O: FnMut(&Progress)>(
        &self,
        run: &mut Run<'_, B, H, O>,
        start: &B,
        (h0, memo0): (u32, H::Memo),
        threshold: u32,
    ) -> IterationEnd {
        if h0 == 0 && start.key() == run.goal_key {
            return IterationEnd::Found(Vec::new());
        }
        let target = self.threads * FRONTIER_PER_THREAD;
        let (frontier, next_threshold) = match expand(run, start, (h0, memo0), threshold, target) {
            Ok(f) => f,
            Err(end) => return end,
        };
        self.search_frontier(run, &frontier, threshold, next_threshold)
    }

    /// Searches the subtrees of `frontier`'s nodes (in order, dynamically scheduled on the
    /// pool) within `threshold`, the nodes themselves already entered, goal-tested and counted;
    /// `next_threshold` is the smallest f above the threshold already seen. Updates `run`'s
    /// counters like [`Run::iterate`].
    pub(crate) fn search_frontier<B: Board, H: Heuristic<B>, O: FnMut(&Progress)>(
        &self,
        run: &mut Run<'_, B, H, O>,
        frontier: &[Node<B, H::Memo>],
        threshold: u32,
        next_threshold: u32,
    ) -> IterationEnd {
        search_nodes(Some(self), run, frontier, threshold, next_threshold).0
    }
}

/// Searches the subtrees of `frontier`'s nodes in order within `threshold`, on `parallel`'s
/// pool (dynamically scheduled) or, with `None`, on the calling thread (one worker, in
/// frontier order, the first solution in order wins); the nodes themselves were already
/// entered, goal-tested and counted. `next_threshold` is the smallest f above the threshold
/// already seen. Updates `run`'s counters like [`Run::iterate`]; also returns the nodes
/// generated in each node's subtree, by index (0 for a subtree not searched).
pub(crate) fn search_nodes<B: Board, H: Heuristic<B>, O: FnMut(&Progress)>(
    parallel: Option<&Parallel>,
    run: &mut Run<'_, B, H, O>,
    frontier: &[Node<B, H::Memo>],
    threshold: u32,
    next_threshold: u32,
) -> (IterationEnd, Vec<u64>) {
    {
        if frontier.is_empty() {
            return (IterationEnd::Exceeded(next_threshold), Vec::new());
        }
        if let Some(limit) = run.clock.check(run.generated) {
            return (IterationEnd::Stopped(limit), vec![0; frontier.len()]);
        }
        let run_max_nodes = run.clock.max_nodes();
        let fsm = run.fsm.map_or(&[][..], crate::Fsm::table);
        let Run {
            heuristic,
            goal_key,
            path_check,
            kernel,
            expanded,
            generated,
            clock,
            observer,
            ..
        } = run;
        let ctx = Ctx {
            kernel: &*kernel,
            fsm,
            heuristic: *heuristic,
            goal_key: &*goal_key,
            clock: &*clock,
            threshold,
            generated_before: *generated,
            deterministic: parallel.is_none_or(|p| p.deterministic),
            frontier,
            shared: Shared {
                next: AtomicUsize::new(0),
                expanded: AtomicU64::new(0),
                generated: AtomicU64::new(0),
                next_threshold: AtomicU32::new(u32::MAX),
                found_index: AtomicUsize::new(usize::MAX),
                solution: Mutex::new(None),
                stop: AtomicBool::new(false),
                limit: Mutex::new(None),
                budget: AtomicU64::new(run_max_nodes.saturating_sub(*generated)),
                running: Mutex::new(parallel.map_or(1, |p| p.threads)),
                budget_returned: Condvar::new(),
                subtree_generated: frontier.iter().map(|_| AtomicU64::new(0)).collect(),
            },
        };
        let path_check = *path_check;
        let expanded_before = *expanded;
        let Some(parallel) = parallel else {
            ctx.work_dispatch(path_check);
            return ctx.finish(expanded, generated, next_threshold);
        };
        let (done_tx, done_rx) = mpsc::channel::<()>();
        parallel.pool.in_place_scope(|scope| {
            for _ in 0..parallel.threads {
                let done = done_tx.clone();
                let ctx = &ctx;
                scope.spawn(move |_| {
                    ctx.work_dispatch(path_check);
                    // The receiver outlives the scope; a failed send cannot happen.
                    let _ = done.send(());
                });
            }
            drop(done_tx);
            // Every worker drops its sender when it ends: then `recv` reports disconnection.
            let mut next_observe = next_multiple(expanded_before, OBSERVE_INTERVAL);
            while let Ok(()) | Err(mpsc::RecvTimeoutError::Timeout) =
                done_rx.recv_timeout(OBSERVE_PERIOD)
            {
                let e = expanded_before + ctx.shared.expanded.load(Ordering::Relaxed);
                if e >= next_observe {
                    next_observe = next_multiple(e, OBSERVE_INTERVAL);
                    observer(&Progress {
                        expanded: e,
                        generated: ctx.generated_before
                            + ctx.shared.generated.load(Ordering::Relaxed),
                        seconds: ctx.clock.seconds(),
                        bound: threshold,
                        stored_states: 0,
                        bound_kind: BoundKind::FBound,
                    });
                }
            }
        });
        ctx.finish(expanded, generated, next_threshold)
    }
}

impl<B: Board, H: Heuristic<B>> Ctx<'_, B, H> {
    /// One worker with the loop for the cycle check: `path_check`, the automaton, or parent
    /// pruning.
    fn work_dispatch(&self, path_check: bool) {
        match (path_check, self.fsm.is_empty()) {
            (true, _) => self.work::<true, false>(),
            (false, false) => self.work::<false, true>(),
            (false, true) => self.work::<false, false>(),
        }
    }

    /// Adds the workers' counts to the run's and says how the iteration ended.
    fn finish(
        self,
        expanded: &mut u64,
        generated: &mut u64,
        mut next_threshold: u32,
    ) -> (IterationEnd, Vec<u64>) {
        let shared = self.shared;
        let subtrees = shared
            .subtree_generated
            .into_iter()
            .map(AtomicU64::into_inner)
            .collect();
        *expanded += shared.expanded.into_inner();
        *generated += shared.generated.into_inner();
        let solution = shared
            .solution
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let limit = shared
            .limit
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        let end = match (solution, limit) {
            // Deterministic mode promises the first solution in child order: a limit that may
            // have cut an earlier subtree short wins.
            (Some(_), Some(limit)) if self.deterministic => IterationEnd::Stopped(limit),
            (Some((_, moves)), _) => IterationEnd::Found(moves),
            (None, Some(limit)) => IterationEnd::Stopped(limit),
            (None, None) => {
                next_threshold = next_threshold.min(shared.next_threshold.into_inner());
                IterationEnd::Exceeded(next_threshold)
            }
        };
        (end, subtrees)
    }
}

/// Expands the iteration's tree breadth-first, whole levels in child order, until a level
/// holds at least `target` nodes (or the tree ends); counts, prunes and goal-tests like the
/// sequential search. Returns the last level and the smallest f above the threshold seen, or
/// `Err` with a goal found on the way ([`IterationEnd::Found`]) or the node limit
/// ([`IterationEnd::Stopped`], checked after every expansion, so it is overshot by at most 3
/// nodes; the other limits are checked once the frontier is built).
pub(crate) fn expand<B: Board, H: Heuristic<B>, O>(
    run: &mut Run<'_, B, H, O>,
    start: &B,
    (h0, memo0): (u32, H::Memo),
    threshold: u32,
    target: usize,
) -> Expansion<B, H::Memo> {
    let root = Node {
        board: start.clone(),
        h: h0,
        memo: memo0,
        todo: start.legal().bits(),
        fsm: run.fsm.map_or(0, |f| f.start(start.blank())),
        path: Vec::new(),
        keys: if run.path_check {
            vec![start.key()]
        } else {
            Vec::new()
        },
    };
    expand_level(run, vec![root], threshold, target)
}

/// [`expand`] from `level` (nodes already entered, goal-tested and counted, each at the depth
/// of its path; not necessarily all at one depth): the next levels are built from it, whole
/// levels at a time in child order, until one holds at least `target` nodes. With a level of
/// at least `target` nodes nothing is expanded.
pub(crate) fn expand_level<B: Board, H: Heuristic<B>, O>(
    run: &mut Run<'_, B, H, O>,
    mut level: Level<B, H::Memo>,
    threshold: u32,
    target: usize,
) -> Expansion<B, H::Memo> {
    {
        let mut next_threshold = u32::MAX;
        while !level.is_empty() && level.len() < target {
            let mut next = Vec::with_capacity(level.len() * 2);
            for node in &level {
                let depth = node.path.len() as u32;
                if run.generated >= run.clock.max_nodes() {
                    return Err(IterationEnd::Stopped(Limit::Nodes(run.clock.max_nodes())));
                }
                run.expanded += 1;
                let mut todo = node.todo;
                while todo != 0 {
                    let m = Move::from_index(todo.trailing_zeros() as usize);
                    todo &= todo - 1;
                    let fsm = match run.fsm {
                        Some(fsm) => match fsm.step(node.fsm, m) {
                            crate::fsm::DEAD => continue,
                            s => s,
                        },
                        None => 0,
                    };
                    run.generated += 1;
                    // As the sequential loop: a child is pruned iff its h exceeds this bound.
                    let bound = threshold.saturating_sub(depth + 1);
                    let (h2, memo2) = run.heuristic.update_memo_bounded(
                        &node.board,
                        node.h,
                        &node.memo,
                        m,
                        bound,
                    );
                    let f2 = depth + 1 + h2;
                    if f2 > threshold {
                        next_threshold = next_threshold.min(f2);
                        continue;
                    }
                    let mut board = node.board.clone();
                    board.apply(m);
                    let mut keys = Vec::new();
                    if run.path_check {
                        let key = board.key();
                        // As in the sequential search: only every second ancestor can match.
                        if node.keys.iter().rev().skip(1).step_by(2).any(|k| *k == key) {
                            continue;
                        }
                        keys.reserve(node.keys.len() + 1);
                        keys.extend_from_slice(&node.keys);
                        keys.push(key);
                    }
                    let mut path = Vec::with_capacity(node.path.len() + 1);
                    path.extend_from_slice(&node.path);
                    path.push(m);
                    if h2 == 0 && board.key() == run.goal_key {
                        return Err(IterationEnd::Found(path));
                    }
                    let todo = board.legal().bits() & !(1 << m.inverse().index());
                    next.push(Node {
                        board,
                        h: h2,
                        memo: memo2,
                        todo,
                        path,
                        keys,
                        fsm,
                    });
                }
            }
            level = next;
        }
        Ok((level, next_threshold))
    }
}

/// The smallest multiple of `step` (a power of two) above `x`.
fn next_multiple(x: u64, step: u64) -> u64 {
    (x | (step - 1)) + 1
}

impl<B: Board, H: Heuristic<B>> Ctx<'_, B, H> {
    /// Whether the worker searching frontier node `index` must stop.
    fn aborted(&self, index: usize) -> bool {
        self.shared.stop.load(Ordering::Relaxed)
            || self.shared.found_index.load(Ordering::Relaxed) < index
    }

    /// One worker: takes frontier nodes in order until none is left or it must stop, then
    /// publishes its counts and the smallest f above the threshold it saw.
    fn work<const PATH: bool, const FSM: bool>(&self) {
        let mut local = Local::default();
        if !self.reserve(&mut local) {
            // The others took the whole budget: they search every subtree, or stop at the
            // node limit once all of them wait for budget.
            self.end(&local);
            return;
        }
        let mut frames = Vec::new();
        let mut keys = Vec::new();
        let mut next_threshold = u32::MAX;
        loop {
            let index = self.shared.next.fetch_add(1, Ordering::Relaxed);
            if index >= self.frontier.len() || self.aborted(index) {
                break;
            }
            let before = local.generated;
            let end = match self.kernel {
                Kernel::Fused { table, goal } if !PATH => {
                    let start = Kernel::bitboard(goal, &self.frontier[index].board);
                    self.subtree_fused(index, &mut local, &start, table, goal.cells())
                }
                Kernel::Tables(p) if !PATH => self.subtree_tables(index, &mut local, p),
                _ => self.subtree::<PATH, FSM>(index, &mut local, &mut frames, &mut keys),
            };
            self.shared.subtree_generated[index].store(local.generated - before, Ordering::Relaxed);
            match end {
                SubtreeEnd::Exceeded(t) => next_threshold = next_threshold.min(t),
                SubtreeEnd::Found(moves) => self.record(index, moves),
                SubtreeEnd::Aborted => break,
            }
        }
        self.publish(&mut local);
        self.shared
            .next_threshold
            .fetch_min(next_threshold, Ordering::Relaxed);
        self.end(&local);
    }

    /// A worker ends: its unused reserved nodes go back to the budget, for the workers still
    /// searching, and those waiting for budget are woken.
    fn end(&self, local: &Local) {
        if local.left {
            return;
        }
        let mut running = self
            .shared
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        self.shared.budget.fetch_add(
            local.allowed.saturating_sub(local.generated),
            Ordering::Relaxed,
        );
        *running -= 1;
        self.shared.budget_returned.notify_all();
    }

    /// The budget is spent but the worker's subtree is not: it waits until a worker that ends
    /// gives unused reserved nodes back (`false`: go on with them), or until no worker is left
    /// that could (the node limit: every worker stops, having generated the limit's count
    /// together), or until it must stop for another reason (a solution, another limit).
    /// `true` = stop.
    ///
    /// Without the wait a worker that found the budget empty while another still held unused
    /// reserved nodes stopped its subtree for the node limit, and the other could then finish
    /// the iteration's last subtrees with nodes to spare: the search reported the node limit
    /// having generated far fewer nodes than it allows.
    #[cold]
    #[inline(never)]
    fn wait_for_budget(&self, index: usize, local: &mut Local) -> bool {
        let mut running = self
            .shared
            .running
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *running -= 1;
        loop {
            // Budget grows only under the lock: a failed reservation with no worker running
            // means it stays empty.
            if self.reserve(local) {
                *running += 1;
                return false;
            }
            if *running == 0 {
                self.record_limit(Limit::Nodes(self.clock.max_nodes()));
                self.shared.stop.store(true, Ordering::Relaxed);
                self.shared.budget_returned.notify_all();
            }
            let total = self.generated_before + self.shared.generated.load(Ordering::Relaxed);
            if self.aborted(index) {
                local.left = true;
                return true;
            }
            if let Some(limit) = self.clock.check(total) {
                self.record_limit(limit);
                self.shared.stop.store(true, Ordering::Relaxed);
                local.left = true;
                return true;
            }
            running = self
                .shared
                .budget_returned
                .wait_timeout(running, WAIT_PERIOD)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Records a solution found in frontier node `index`'s subtree, keeping the lowest index.
    fn record(&self, index: usize, moves: Vec<Move>) {
        let mut slot = self
            .shared
            .solution
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if slot.as_ref().is_none_or(|(i, _)| index < *i) {
            *slot = Some((index, moves));
        }
        self.shared.found_index.fetch_min(index, Ordering::Relaxed);
        if !self.deterministic {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Adds the worker's unpublished counts to the shared ones; returns the shared generated
    /// count afterwards.
    fn publish(&self, local: &mut Local) -> u64 {
        self.shared
            .expanded
            .fetch_add(local.expanded - local.published_expanded, Ordering::Relaxed);
        let delta = local.generated - local.published_generated;
        let generated = self.shared.generated.fetch_add(delta, Ordering::Relaxed) + delta;
        local.published_expanded = local.expanded;
        local.published_generated = local.generated;
        generated
    }

    /// Reserves up to [`RESERVE`] more generated nodes from the node budget and sets the next
    /// check where they run out (an expansion generates at most 4 nodes, so the worker
    /// overshoots its share by at most 3). `false` when nothing is left: the node limit.
    fn reserve(&self, local: &mut Local) -> bool {
        let got = self
            .shared
            .budget
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some(b - b.min(RESERVE))
            })
            .map_or(0, |b| b.min(RESERVE));
        local.allowed += got;
        if local.generated >= local.allowed {
            return false;
        }
        local.next_check = local.expanded + (local.allowed - local.generated).div_ceil(4);
        true
    }

    /// Records the limit that stopped a worker (the first one wins).
    fn record_limit(&self, limit: Limit) {
        self.shared
            .limit
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(limit);
    }

    /// Publishes the counts, then checks the stop flags and the limits and reserves more of
    /// the node budget; `true` = stop.
    ///
    /// A time limit or cancellation stops every worker at its next check. A worker that finds
    /// the node budget spent waits ([`Ctx::wait_for_budget`]) until the others have spent
    /// their reserved nodes too (then the node limit stops all of them, having generated the
    /// limit's count plus at most 3 nodes each) or one ends and gives nodes back.
    #[cold]
    #[inline(never)]
    fn checkpoint(&self, index: usize, local: &mut Local) -> bool {
        let total = self.generated_before + self.publish(local);
        if self.aborted(index) {
            return true;
        }
        if let Some(limit) = self.clock.check(total) {
            self.record_limit(limit);
            self.shared.stop.store(true, Ordering::Relaxed);
            return true;
        }
        if !self.reserve(local) {
            return self.wait_for_budget(index, local);
        }
        false
    }

    /// Depth-first search of frontier node `index`'s subtree within the threshold: the
    /// sequential search's loop ([`crate::dfs::search`]) started below the root, with the
    /// worker's limit checks.
    fn subtree<const PATH: bool, const FSM: bool>(
        &self,
        index: usize,
        local: &mut Local,
        frames: &mut Vec<Frame<H::Memo>>,
        keys: &mut Vec<B::Key>,
    ) -> SubtreeEnd {
        let node = &self.frontier[index];
        if PATH {
            keys.clear();
            keys.extend_from_slice(&node.keys);
        }
        let root = crate::dfs::Start {
            board: &node.board,
            todo: node.todo,
            g: node.path.len() as u32,
            h: node.h,
            memo: node.memo,
            fsm: node.fsm,
        };
        let (threshold, heuristic, goal_key, fsm) =
            (self.threshold, self.heuristic, self.goal_key, self.fsm);
        self.run_kernel(index, local, |counters, check| {
            crate::dfs::search::<B, H, PATH, FSM>(
                &root,
                threshold,
                heuristic,
                goal_key,
                fsm,
                crate::dfs::Scratch { frames, keys },
                counters,
                check,
            )
        })
    }

    /// [`Ctx::subtree`] for the bitboard with Manhattan distance and parent pruning: the
    /// sequential engine's kernel ([`crate::fused`]: each child's tile looked up once for the h
    /// update and the move, the move made and undone by one XOR) started at frontier node
    /// `index` (`start` is its board), with the worker's limit checks. Same nodes in the same
    /// order as [`Ctx::subtree`].
    fn subtree_fused(
        &self,
        index: usize,
        local: &mut Local,
        start: &npuzzle_core::BitBoard,
        table: &[i8; 1024],
        goal: u64,
    ) -> SubtreeEnd {
        let node = &self.frontier[index];
        let root = crate::fused::Start {
            board: start,
            todo: node.todo,
            g: node.path.len() as u32,
            h: node.h,
            fsm: node.fsm,
        };
        let (threshold, fsm) = (self.threshold, self.fsm);
        self.run_kernel(index, local, |counters, check| {
            crate::fused::search(
                &root,
                threshold,
                table,
                (!fsm.is_empty()).then_some(fsm),
                goal,
                counters,
                check,
            )
        })
    }

    /// [`Ctx::subtree`] with an additive pattern database and no path check: the sequential
    /// engine's kernel ([`crate::tables`]: the tables' indices updated in place) started at
    /// frontier node `index`, with the worker's limit checks. Same nodes in the same order as
    /// [`Ctx::subtree`].
    fn subtree_tables(
        &self,
        index: usize,
        local: &mut Local,
        p: &crate::tables::Prepared<'_>,
    ) -> SubtreeEnd {
        let node = &self.frontier[index];
        let root = crate::tables::Start {
            tiles: crate::tables::Tiles::of(&node.board),
            todo: node.todo,
            g: node.path.len() as u32,
            h: node.h,
            fsm: node.fsm,
        };
        let (threshold, fsm) = (self.threshold, self.fsm);
        self.run_kernel(index, local, |counters, check| {
            crate::tables::search(
                &root,
                threshold,
                p,
                (!fsm.is_empty()).then_some(fsm),
                counters,
                check,
            )
        })
    }

    /// Runs `kernel` (a depth-first search below frontier node `index`: [`crate::dfs::search`],
    /// [`crate::fused::search`] or [`crate::tables::search`]) with the worker's counters and limit checks, and turns its
    /// end into the subtree's (a goal's moves are appended to the node's path).
    fn run_kernel(
        &self,
        index: usize,
        local: &mut Local,
        kernel: impl FnOnce(
            &mut crate::dfs::Counters,
            &mut WorkerCheck<'_, '_, B, H>,
        ) -> crate::dfs::End,
    ) -> SubtreeEnd {
        let mut counters = crate::dfs::Counters {
            expanded: local.expanded + 1,
            generated: local.generated,
            next_check: local.next_check,
        };
        let mut check = WorkerCheck {
            ctx: self,
            index,
            local: &mut *local,
        };
        let end = kernel(&mut counters, &mut check);
        local.expanded = counters.expanded;
        local.generated = counters.generated;
        match end {
            crate::dfs::End::Found(moves) => {
                let mut path = self.frontier[index].path.clone();
                path.extend(moves);
                SubtreeEnd::Found(path)
            }
            crate::dfs::End::Exceeded(next) => SubtreeEnd::Exceeded(next),
            crate::dfs::End::Stopped => SubtreeEnd::Aborted,
        }
    }
}

/// A worker's limit checks ([`Ctx::checkpoint`]) for [`crate::dfs::search`] and the
/// [`crate::fused`] kernel.
struct WorkerCheck<'c, 'a, B: Board, H: Heuristic<B>> {
    ctx: &'c Ctx<'a, B, H>,
    /// The frontier node being searched.
    index: usize,
    local: &'c mut Local,
}

impl<B: Board, H: Heuristic<B>> crate::dfs::Checkpoint for WorkerCheck<'_, '_, B, H> {
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, expanded: u64, generated: u64) -> Option<u64> {
        self.local.expanded = expanded;
        self.local.generated = generated;
        if self.ctx.checkpoint(self.index, self.local) {
            return None;
        }
        Some(self.local.next_check)
    }
}
