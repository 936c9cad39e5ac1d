//! The depth-first iteration of IDA\*, written once: the sequential engine's iterations
//! ([`crate::Run::iterate`]) and the parallel engine's subtrees (`parallel::Ctx::subtree`, also
//! behind the frontier API) both run [`search`], each with its own [`Checkpoint`] for the limit
//! checks. The bitboard with Manhattan distance runs the specialised kernel of [`crate::fused`]
//! instead, and an additive pattern database the kernel of [`crate::tables`]; both share this
//! module's [`Checkpoint`], [`Counters`] and [`End`] and visit the same nodes in the same
//! order.
//!
//! The loop is iterative, with an explicit stack, and keeps the current node's board, untried
//! moves, h, heuristic memo and automaton state in locals so that they stay in registers (a
//! recursive version of this generic loop ran at about half the node rate). Children are tried
//! in [`Move::index`] order; a child is generated (counted) unless the duplicate-pruning
//! automaton rejects its move, and entered when f = g + h ≤ threshold and, with the path check,
//! its state is not on the path. The goal test is made when a node is entered.

use npuzzle_core::{Board, Heuristic, Move, prefetch};

/// What a search asks its engine when the expansion count reaches the next check.
pub(crate) trait Checkpoint {
    /// Limits and progress at `expanded` / `generated` nodes (the search's running totals):
    /// the expansion count of the next check, or `None` to stop the search.
    fn checkpoint(&mut self, expanded: u64, generated: u64) -> Option<u64>;
}

/// How a search ended.
pub(crate) enum End {
    /// A goal: the moves from the search's start board.
    Found(Vec<Move>),
    /// No goal within the threshold; the smallest f above it (`u32::MAX` if none), counted
    /// from the iteration's root.
    Exceeded(u32),
    /// The checkpoint said to stop.
    Stopped,
}

/// Running totals, shared with the engine before and after a search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Counters {
    /// Nodes expanded so far.
    pub(crate) expanded: u64,
    /// Nodes generated so far.
    pub(crate) generated: u64,
    /// The expansion count at which to call the checkpoint next.
    pub(crate) next_check: u64,
}

/// One level of the explicit stack; `M` is the heuristic's [`Heuristic::Memo`] (`()` for
/// Manhattan distance, so a frame stays 8 bytes).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame<M> {
    /// Moves still to try from this node (4-bit mask).
    todo: u8,
    /// The move taken from this node to its child on the path.
    took: u8,
    /// h of this node, in moves.
    h: u32,
    /// The heuristic's memo of this node.
    memo: M,
    /// The duplicate-pruning automaton's state at this node ([`crate::CycleCheck::Fsm`] only).
    fsm: u32,
}

/// Where one search starts: a node already entered, goal-tested and counted as expanded.
pub(crate) struct Start<'b, B, M> {
    /// The node's board.
    pub(crate) board: &'b B,
    /// Its children still to search, as a 4-bit set of [`Move::index`] (parent excluded).
    pub(crate) todo: u8,
    /// Its depth g, in moves from the iteration's root.
    pub(crate) g: u32,
    /// Its h, in moves.
    pub(crate) h: u32,
    /// Its heuristic memo.
    pub(crate) memo: M,
    /// Its state in the duplicate-pruning automaton (read only with `FSM`).
    pub(crate) fsm: u32,
}

/// Reusable scratch of a search: the explicit stack and, with the path check, the keys of the
/// states on the path.
pub(crate) struct Scratch<'s, B: Board, M> {
    /// The explicit stack (resized to the threshold here).
    pub(crate) frames: &'s mut Vec<Frame<M>>,
    /// With `PATH`: the keys of the states from the iteration's root to the start node, the
    /// start's last (the caller fills them); pushed and popped as the search moves.
    pub(crate) keys: &'s mut Vec<B::Key>,
}

/// One depth-first search bounded by `threshold` (on f = g + h from the iteration's root)
/// below `start`, with `heuristic` updated incrementally and goals recognised by `goal_key`.
/// `PATH` selects [`crate::CycleCheck::Path`] and `FSM` [`crate::CycleCheck::Fsm`] (with `fsm`
/// the automaton's transitions, [`crate::Fsm::table`]) at compile time. `counters` are updated
/// in place; `checkpoint` is called whenever the expansion count reaches
/// `counters.next_check` (a trait object, so that the sequential and the parallel engine, and
/// every observer, share one copy per board type, heuristic and cycle check).
///
/// Time O(nodes generated below `start`); memory: the scratch, O(threshold − g) frames.
#[expect(
    clippy::too_many_arguments,
    reason = "hot loop: arguments keep the optimiser's aliasing facts"
)]
#[inline(never)]
pub(crate) fn search<B, H, const PATH: bool, const FSM: bool>(
    start: &Start<'_, B, H::Memo>,
    threshold: u32,
    heuristic: &H,
    goal_key: &B::Key,
    fsm: &[u32],
    scratch: Scratch<'_, B, H::Memo>,
    counters: &mut Counters,
    checkpoint: &mut dyn Checkpoint,
) -> End
where
    B: Board,
    H: Heuristic<B>,
{
    // f is counted from the start node (g = 0 here) against what is left of the threshold.
    let threshold = threshold - start.g;
    let mut board = start.board.clone();
    let mut expanded = counters.expanded;
    let mut generated = counters.generated;
    let mut next_check = counters.next_check;
    let mut next_threshold = u32::MAX;
    let frames = scratch.frames;
    let keys = scratch.keys;
    frames.clear();
    frames.resize(threshold as usize + 2, Frame::default());
    let frames = frames.as_mut_slice();
    // The current node's untried moves and h live in registers; `frames[d]` keeps them for the
    // ancestors, with the move each took towards the current node.
    let mut todo = start.todo;
    let mut h = start.h;
    let mut memo = start.memo;
    let mut state = start.fsm;
    let mut depth = 0usize;
    prefetch_rows::<FSM>(fsm, state, todo);
    loop {
        while todo != 0 {
            let m = Move::from_index(todo.trailing_zeros() as usize);
            todo &= todo - 1;
            let state2 = if FSM {
                let s2 = fsm[4 * state as usize + m.index()];
                if s2 == crate::fsm::DEAD {
                    continue;
                }
                s2
            } else {
                0
            };
            generated += 1;
            // A child is pruned iff its h exceeds `threshold - (depth + 1)`.
            let bound = threshold.saturating_sub(depth as u32 + 1);
            let (h2, memo2) = heuristic.update_memo_bounded(&board, h, &memo, m, bound);
            let f2 = depth as u32 + 1 + h2;
            if f2 > threshold {
                next_threshold = next_threshold.min(f2);
                continue;
            }
            board.apply(m);
            if PATH {
                let key = board.key();
                // Cycles have even length: only every second ancestor can equal this state.
                let n = keys.len();
                if (0..n).rev().skip(1).step_by(2).any(|i| keys[i] == key) {
                    board.apply(m.inverse());
                    continue;
                }
                keys.push(key);
            }
            frames[depth] = Frame {
                todo,
                took: m.index() as u8,
                h,
                memo,
                fsm: state,
            };
            depth += 1;
            if h2 == 0 && board.key() == *goal_key {
                counters.expanded = expanded;
                counters.generated = generated;
                counters.next_check = next_check;
                let path = frames[..depth]
                    .iter()
                    .map(|f| Move::from_index(f.took as usize))
                    .collect();
                return End::Found(path);
            }
            expanded += 1;
            if expanded >= next_check {
                let Some(next) = checkpoint.checkpoint(expanded, generated) else {
                    counters.expanded = expanded;
                    counters.generated = generated;
                    return End::Stopped;
                };
                next_check = next;
            }
            todo = board.legal().bits() & !(1 << m.inverse().index());
            h = h2;
            memo = memo2;
            state = state2;
            prefetch_rows::<FSM>(fsm, state, todo);
        }
        // Node done: back to the parent.
        if depth == 0 {
            break;
        }
        depth -= 1;
        let frame = frames[depth];
        board.apply(Move::from_index(frame.took as usize).inverse());
        if PATH {
            keys.pop();
        }
        todo = frame.todo;
        h = frame.h;
        memo = frame.memo;
        state = frame.fsm;
    }
    counters.expanded = expanded;
    counters.generated = generated;
    counters.next_check = next_check;
    End::Exceeded(next_threshold.saturating_add(start.g))
}

/// With `FSM`: prefetches the automaton rows of the children `todo` of a node in automaton state `state`
/// (children the automaton prunes are skipped), so that the transitions read when a child is
/// entered come from cache: on the 24-puzzle the automata of depth 14 and 16 (4.2 and 19.7 MB)
/// do not stay in cache beside the pattern databases. One read of the node's own row (in cache:
/// the loop reads it next) and at most three prefetch instructions; changes no value. (The
/// [`crate::tables`] kernel prefetches a child's row where it reads the child's transition
/// instead: one instruction per child rather than this loop per node.)
#[expect(
    clippy::inline_always,
    reason = "IDA*'s inner loop, once per entered node"
)]
#[inline(always)]
pub(crate) fn prefetch_rows<const FSM: bool>(fsm: &[u32], state: u32, todo: u8) {
    if !FSM {
        return;
    }
    let mut rest = todo;
    while rest != 0 {
        let m = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let s2 = fsm[4 * state as usize + m];
        if s2 != crate::fsm::DEAD
            && let Some(row) = fsm.get(4 * s2 as usize)
        {
            prefetch(row);
        }
    }
}
