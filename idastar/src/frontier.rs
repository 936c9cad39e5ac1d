//! The pieces of IDA\* a distributed driver needs: cut an iteration's tree at a frontier, and
//! search the subtrees below frontier nodes anywhere (another thread, process or machine).
//!
//! This is AIDA\*'s scheme (Reinefeld & Schnecke, "AIDA\* — Asynchronous Parallel IDA\*",
//! 1994: 79 % efficiency on 1,024 transputers), and the same code the threads of
//! [`IdaStar::threads`] run: [`IdaStar::frontier`] expands the tree of one iteration
//! breadth-first, a whole level at a time in Korf's child order, until a level holds at least
//! the nodes asked for; [`IdaStar::search_subtrees`] searches the subtrees of some of those
//! nodes depth-first under the same threshold, reporting the nodes generated below each (from
//! which a driver predicts the next iteration's work per node), and [`IdaStar::split`] cuts
//! the subtrees of some frontier nodes at a deeper frontier, so that a node expected to be
//! large is searched as several packets. A frontier node travels as its move path from
//! the start board (plus g, h and the duplicate-pruning automaton's state for ordering and
//! checking): the searching side replays the path to rebuild the board, h, the heuristic's
//! memo and the automaton's state, and refuses a path that is not a node of the tree.
//!
//! For one threshold t, the frontier's counts plus the counts of the searches of all its nodes
//! are exactly those of the sequential iteration with threshold t, and the smallest f above t
//! over the frontier and all subtrees is the sequential search's next threshold: a driver that
//! runs the thresholds in order, each over all frontier nodes, finds the optimal length, and
//! the first solution found at the smallest threshold with one is optimal (admissible
//! heuristic; Korf 1985).
//!
//! ```
//! use npuzzle_core::{BitBoard, Board, Goal, Limits, Manhattan, parse_board};
//! use npuzzle_idastar::{IdaStar, SubtreeEnd};
//!
//! let layout = parse_board("8 6 7 2 5 4 3 0 1", None)?;
//! let goal = Goal::blank_last(layout.shape());
//! let (board, h) = (BitBoard::from_layout(&layout)?, Manhattan::new(&goal));
//! let mut engine = IdaStar::new();
//! let mut threshold = engine.frontier(&board, &goal, &h, 0, 1, &Limits::default())?.next_threshold;
//! let length = loop {
//!     let frontier = engine.frontier(&board, &goal, &h, threshold, 64, &Limits::default())?;
//!     if let Some(moves) = frontier.solution {
//!         break moves.len();
//!     }
//!     let paths: Vec<_> = frontier.nodes.iter().map(|n| n.moves.clone()).collect();
//!     let search = engine.search_subtrees(&board, &goal, &h, threshold, &paths, &Limits::default())?;
//!     match search.end {
//!         SubtreeEnd::Found(moves) => break moves.len(),
//!         SubtreeEnd::Exceeded(next) => threshold = next.min(frontier.next_threshold),
//!     }
//! };
//! assert_eq!(length, 31);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use npuzzle_core::{
    Board, Goal, Heuristic, Limits, Move, Outcome, SearchError, SearchStart, start_search,
};

use crate::parallel::{Expansion, Node, expand, expand_level, search_nodes};
use crate::{CycleCheck, IdaStar, IterationEnd, Run};

/// One node of a frontier: a board reached from the start board by [`FrontierNode::moves`],
/// entered (goal-tested) but not expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontierNode {
    /// The moves from the start board (tile-slide letters, see `npuzzle_core::Move`).
    pub moves: Vec<Move>,
    /// Its depth, in moves (`moves.len()`).
    pub g: u32,
    /// Its heuristic estimate, in moves.
    pub h: u32,
    /// The duplicate-pruning automaton's state at this node ([`CycleCheck::Fsm`]; 0 without).
    /// [`IdaStar::search_subtrees`] recomputes it from the moves; it is here for checks.
    pub fsm: u32,
}

impl FrontierNode {
    /// f = g + h, in moves.
    pub fn f(&self) -> u32 {
        self.g + self.h
    }
}

/// The tree of one IDA\* iteration cut at a frontier ([`IdaStar::frontier`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frontier {
    /// The iteration's threshold on f = g + h, in moves.
    pub threshold: u32,
    /// The start board's h, in moves (the first threshold worth searching).
    pub initial_h: u32,
    /// The nodes of the last level built, in depth-first (Korf's child) order; empty when the
    /// tree ends above the requested size or [`Frontier::solution`] is set.
    pub nodes: Vec<FrontierNode>,
    /// A solution met while expanding (it has at most the frontier's depth in moves, and is
    /// optimal when the thresholds were run in order).
    pub solution: Option<Vec<Move>>,
    /// The smallest f above the threshold among the children pruned while expanding
    /// (`u32::MAX`: none). The iteration's next threshold is the minimum of this and the
    /// subtrees' [`SubtreeEnd::Exceeded`].
    pub next_threshold: u32,
    /// Nodes expanded and generated while expanding (the frontier nodes themselves are
    /// generated here and expanded by their subtree searches).
    pub expanded: u64,
    /// See [`Frontier::expanded`].
    pub generated: u64,
}

/// How the search of some frontier nodes' subtrees ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SubtreeEnd {
    /// A goal within the threshold: the moves from the start board.
    Found(Vec<Move>),
    /// No goal within the threshold below these nodes; the smallest f above it (`u32::MAX`:
    /// none).
    Exceeded(u32),
}

/// The result of [`IdaStar::search_subtrees`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtreeSearch {
    /// Solution or next threshold.
    pub end: SubtreeEnd,
    /// Nodes expanded (each searched frontier node included) and generated.
    pub expanded: u64,
    /// See [`SubtreeSearch::expanded`].
    pub generated: u64,
    /// Nodes generated below each given node, in the order given (they sum to
    /// [`SubtreeSearch::generated`]): 0 for a node beyond the threshold on its own path or not
    /// reached (a solution or a stop came first); a subtree cut short holds what it generated.
    /// A distributed driver predicts the next iteration's subtree sizes from them (each grows
    /// by about the same factor from one threshold to the next).
    pub subtree_generated: Vec<u64>,
}

/// Why a frontier could not be built or searched.
#[derive(Debug)]
pub enum FrontierError {
    /// The search failed or a limit stopped it (the progress's bound is the threshold).
    Search(SearchError),
    /// The board cannot reach the goal (parity): there is no tree to cut.
    Unsolvable,
    /// A node's move path is not a path of the search tree: move `at` (0-based) of node
    /// `node` is illegal, undoes the previous move, or is pruned by the cycle check.
    NotInTree {
        /// The node's index in the slice given.
        node: usize,
        /// The offending move's index in its path.
        at: usize,
    },
}

impl std::fmt::Display for FrontierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrontierError::Search(e) => e.fmt(f),
            FrontierError::Unsolvable => f.write_str("the board cannot reach the goal (parity)"),
            FrontierError::NotInTree { node, at } => write!(
                f,
                "frontier node {node} is not in the search tree: its move {at} is illegal, undoes the previous one, or is pruned by the cycle check"
            ),
        }
    }
}

impl std::error::Error for FrontierError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FrontierError::Search(e) => Some(e),
            _ => None,
        }
    }
}

impl From<SearchError> for FrontierError {
    fn from(e: SearchError) -> FrontierError {
        FrontierError::Search(e)
    }
}

/// The goal board, or the answer without search (the goal itself: `Ok(None)`).
fn goal_board<B: Board>(start: &B, goal: &Goal) -> Result<Option<B>, FrontierError> {
    match start_search(start, goal)? {
        SearchStart::Answered(Outcome::Unsolvable(_)) => Err(FrontierError::Unsolvable),
        SearchStart::Answered(Outcome::Solved(_)) => Ok(None),
        SearchStart::Search { goal_board, .. } => Ok(Some(goal_board)),
    }
}

impl IdaStar {
    /// Expands the tree of the IDA\* iteration with `threshold` from `start` breadth-first, a
    /// whole level at a time in Korf's child order, until a level holds at least `target`
    /// nodes or the tree ends; nodes are counted, f-pruned, cycle-checked (this engine's
    /// [`CycleCheck`]) and goal-tested exactly as the sequential search does. Returns that
    /// level (in depth-first order) or a solution met on the way. Threshold 0 (below any
    /// solvable start's h) gives the start's h as [`Frontier::next_threshold`].
    ///
    /// Time and memory: O(nodes of the levels built × depth) (each node keeps its path).
    ///
    /// # Errors
    /// [`FrontierError::Unsolvable`] (parity), [`FrontierError::Search`] for a goal of another
    /// shape, or a node limit (checked after every expansion; the other limits are not
    /// checked: the expansion is short).
    pub fn frontier<B: Board, H: Heuristic<B>>(
        &self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        threshold: u32,
        target: usize,
        limits: &Limits,
    ) -> Result<Frontier, FrontierError> {
        let (h0, memo0) = heuristic.estimate_memo(start);
        let mut frontier = Frontier::empty(threshold, h0);
        let Some(goal_board) = goal_board(start, goal)? else {
            frontier.solution = Some(Vec::new());
            return Ok(frontier);
        };
        if h0 > threshold {
            frontier.next_threshold = h0;
            return Ok(frontier);
        }
        let automaton = self.automaton(start.shape());
        let mut run = Run::new(
            heuristic,
            &goal_board,
            (self.cycle_check == CycleCheck::Path, automaton.as_deref()),
            limits,
            |_: &npuzzle_core::Progress| {},
        );
        let end = expand(&mut run, start, (h0, memo0), threshold, target.max(1));
        frontier.take(end, &run)?;
        Ok(frontier)
    }

    /// Searches the subtrees below `nodes` (move paths from `start`, as in
    /// [`FrontierNode::moves`]) depth-first within `threshold`, in the order given, as the
    /// sequential IDA\* iteration would (same children, pruning and goal test): on this
    /// engine's threads when [`IdaStar::threads`] is above 1 (nodes scheduled dynamically),
    /// else on the calling thread. A node whose f exceeds the threshold on its own path is
    /// not searched (its f counts towards the next threshold). With one thread the search
    /// stops at the first solution in the given order; with threads at the first found.
    ///
    /// Time: O(nodes generated + Σ path lengths); memory: O(threshold + nodes × depth).
    ///
    /// # Errors
    /// [`FrontierError::NotInTree`] for a path that is not a path of the tree (checked before
    /// any search), [`FrontierError::Unsolvable`], and [`FrontierError::Search`] when a limit
    /// of `limits` (nodes, time, cancel flag) stops the search (its progress's bound is
    /// `threshold`; counts are those of this call).
    pub fn search_subtrees<B: Board, H: Heuristic<B>>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        threshold: u32,
        nodes: &[Vec<Move>],
        limits: &Limits,
    ) -> Result<SubtreeSearch, FrontierError> {
        let Some(goal_board) = goal_board(start, goal)? else {
            return Ok(SubtreeSearch {
                end: SubtreeEnd::Found(Vec::new()),
                expanded: 0,
                generated: 0,
                subtree_generated: vec![0; nodes.len()],
            });
        };
        let automaton = self.automaton(start.shape());
        let path_check = self.cycle_check == CycleCheck::Path;
        let Replayed {
            nodes: frontier,
            given,
            beyond,
        } = replay_all(
            (start, threshold),
            heuristic,
            (automaton.as_deref(), path_check),
            nodes,
        )?;
        let mut run = Run::new(
            heuristic,
            &goal_board,
            (path_check, automaton.as_deref()),
            limits,
            |_: &npuzzle_core::Progress| {},
        );
        let parallel = self.parallel();
        let (end, searched) =
            search_nodes(parallel.as_ref(), &mut run, &frontier, threshold, beyond);
        let mut subtree_generated = vec![0; nodes.len()];
        for (&index, &count) in given.iter().zip(&searched) {
            subtree_generated[index] = count;
        }
        let end = match end {
            IterationEnd::Found(moves) => SubtreeEnd::Found(moves),
            IterationEnd::Exceeded(next) => SubtreeEnd::Exceeded(next),
            IterationEnd::Stopped(limit) => {
                return Err(FrontierError::Search(SearchError::LimitReached {
                    limit,
                    progress: run.progress(threshold),
                }));
            }
        };
        Ok(SubtreeSearch {
            end,
            expanded: run.expanded,
            generated: run.generated,
            subtree_generated,
        })
    }

    /// Splits frontier nodes (move paths from `start`, as in [`FrontierNode::moves`]) into a
    /// deeper frontier of the iteration with `threshold`: the nodes are replayed (checked as in
    /// [`IdaStar::search_subtrees`]) and expanded breadth-first, whole levels at a time in
    /// Korf's child order, until a level holds at least `target` nodes (or the subtrees end).
    /// A distributed driver splits a node whose subtree it expects to be large, so that its
    /// work is spread over several packets instead of one (work is neither lost nor repeated:
    /// searching the returned nodes' subtrees, plus the counts returned here, is searching
    /// the given nodes' subtrees). The nodes given may lie at different depths.
    ///
    /// Returns a [`Frontier`]: the new nodes in depth-first order (below the given nodes, in
    /// their order), or a solution met while expanding; [`Frontier::next_threshold`] includes
    /// the f of given nodes beyond the threshold; [`Frontier::initial_h`] is the start's h.
    ///
    /// Time and memory: O(nodes of the levels built × depth).
    ///
    /// # Errors
    /// As [`IdaStar::search_subtrees`] (a path not in the tree: [`FrontierError::NotInTree`]);
    /// a node limit of `limits` as [`IdaStar::frontier`].
    #[expect(
        clippy::too_many_arguments,
        reason = "search_subtrees' arguments and the target size"
    )]
    pub fn split<B: Board, H: Heuristic<B>>(
        &self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        threshold: u32,
        nodes: &[Vec<Move>],
        target: usize,
        limits: &Limits,
    ) -> Result<Frontier, FrontierError> {
        let mut frontier = Frontier::empty(threshold, heuristic.estimate(start));
        let Some(goal_board) = goal_board(start, goal)? else {
            frontier.solution = Some(Vec::new());
            return Ok(frontier);
        };
        let automaton = self.automaton(start.shape());
        let path_check = self.cycle_check == CycleCheck::Path;
        let replayed = replay_all(
            (start, threshold),
            heuristic,
            (automaton.as_deref(), path_check),
            nodes,
        )?;
        frontier.next_threshold = replayed.beyond;
        let level = replayed.nodes;
        let mut run = Run::new(
            heuristic,
            &goal_board,
            (path_check, automaton.as_deref()),
            limits,
            |_: &npuzzle_core::Progress| {},
        );
        // Every given node is expanded at least once (a level of `nodes.len()` nodes would
        // already hold `target` when `target` is small).
        let target = target.max(level.len() + 1);
        let end = expand_level(&mut run, level, threshold, target);
        frontier.take(end, &run)?;
        Ok(frontier)
    }
}

impl Frontier {
    /// A frontier of the iteration with `threshold` from a start whose h is `initial_h`, with
    /// nothing in it yet.
    fn empty(threshold: u32, initial_h: u32) -> Frontier {
        Frontier {
            threshold,
            initial_h,
            nodes: Vec::new(),
            solution: None,
            next_threshold: u32::MAX,
            expanded: 0,
            generated: 0,
        }
    }

    /// Takes what an expansion ended with: its counts, and its last level (its smallest f
    /// above the threshold lowering [`Frontier::next_threshold`]) or the solution met; a limit
    /// is the error.
    fn take<B: Board, H: Heuristic<B>, O: FnMut(&npuzzle_core::Progress)>(
        &mut self,
        end: Expansion<B, H::Memo>,
        run: &Run<'_, B, H, O>,
    ) -> Result<(), FrontierError> {
        self.expanded = run.expanded;
        self.generated = run.generated;
        match end {
            Ok((level, next)) => {
                self.next_threshold = self.next_threshold.min(next);
                self.nodes = level.into_iter().map(frontier_node).collect();
            }
            Err(IterationEnd::Found(moves)) => self.solution = Some(moves),
            Err(IterationEnd::Exceeded(next)) => {
                self.next_threshold = self.next_threshold.min(next);
            }
            Err(IterationEnd::Stopped(limit)) => {
                return Err(FrontierError::Search(SearchError::LimitReached {
                    limit,
                    progress: run.progress(self.threshold),
                }));
            }
        }
        Ok(())
    }
}

/// Frontier nodes rebuilt from their paths ([`replay_all`]).
struct Replayed<B: Board, M> {
    /// The nodes within the threshold, in the order given.
    nodes: Vec<Node<B, M>>,
    /// For each of them, its index among the paths given.
    given: Vec<usize>,
    /// The smallest f above the threshold on the paths beyond it (`u32::MAX`: none).
    beyond: u32,
}

/// [`replay`] of every path of `nodes`; a path not in the tree is
/// [`FrontierError::NotInTree`].
fn replay_all<B: Board, H: Heuristic<B>>(
    (start, threshold): (&B, u32),
    heuristic: &H,
    (fsm, path_check): (Option<&crate::Fsm>, bool),
    nodes: &[Vec<Move>],
) -> Result<Replayed<B, H::Memo>, FrontierError> {
    let mut replayed = Replayed {
        nodes: Vec::with_capacity(nodes.len()),
        given: Vec::with_capacity(nodes.len()),
        beyond: u32::MAX,
    };
    for (index, moves) in nodes.iter().enumerate() {
        match replay((start, threshold), heuristic, fsm, path_check, moves)
            .map_err(|at| FrontierError::NotInTree { node: index, at })?
        {
            Replay::Node(node) => {
                replayed.nodes.push(node);
                replayed.given.push(index);
            }
            Replay::Beyond(f) => replayed.beyond = replayed.beyond.min(f),
        }
    }
    Ok(replayed)
}

/// A level's node as the [`FrontierNode`] a driver gets.
fn frontier_node<B: Board, M>(n: Node<B, M>) -> FrontierNode {
    FrontierNode {
        g: n.path.len() as u32,
        h: n.h,
        fsm: n.fsm,
        moves: n.path,
    }
}

/// What replaying a frontier node's path gave.
enum Replay<B: Board, M> {
    Node(Node<B, M>),
    /// A node on the path (this one included) has f above the threshold: the first such f,
    /// where the sequential search prunes.
    Beyond(u32),
}

/// Rebuilds the frontier node reached by `moves`: board, h and memo (incrementally, as the
/// search computes them), the automaton's state, the path's keys, the moves left to try.
/// `Err(at)`: move `at` is not a move of the tree.
fn replay<B: Board, H: Heuristic<B>>(
    (start, threshold): (&B, u32),
    heuristic: &H,
    fsm: Option<&crate::Fsm>,
    path_check: bool,
    moves: &[Move],
) -> Result<Replay<B, H::Memo>, usize> {
    let mut board = start.clone();
    let (mut h, mut memo) = heuristic.estimate_memo(start);
    let mut state = fsm.map_or(0, |f| f.start(start.blank()));
    let mut keys = if path_check {
        vec![start.key()]
    } else {
        Vec::new()
    };
    let mut beyond = (h > threshold).then_some(h);
    let mut last: Option<Move> = None;
    for (at, &m) in moves.iter().enumerate() {
        if !board.legal().contains(m) || last.is_some_and(|l| l.inverse() == m) {
            return Err(at);
        }
        if let Some(f) = fsm {
            state = f.step(state, m);
            if state == crate::fsm::DEAD {
                return Err(at);
            }
        }
        (h, memo) = heuristic.update_memo(&board, h, &memo, m);
        board.apply(m);
        if path_check {
            let key = board.key();
            if keys.iter().rev().skip(1).step_by(2).any(|k| *k == key) {
                return Err(at);
            }
            keys.push(key);
        }
        let f = at as u32 + 1 + h;
        if beyond.is_none() && f > threshold {
            beyond = Some(f);
        }
        last = Some(m);
    }
    if let Some(f) = beyond {
        return Ok(Replay::Beyond(f));
    }
    let todo = board.legal().bits() & !last.map_or(0, |m| 1 << m.inverse().index());
    Ok(Replay::Node(Node {
        board,
        h,
        memo,
        todo,
        path: moves.to_vec(),
        keys,
        fsm: state,
    }))
}
