//! The depth-first iteration specialised for the bitboard with Manhattan distance: one kernel
//! for the sequential engine ([`crate::Run::iterate`]) and the parallel engine's subtrees
//! (`parallel::Ctx::work`).
//!
//! Same nodes, same order and same counts as the generic loop ([`crate::dfs::search`]). The kernel
//! is recursive, as a classic C implementation is (Korf 1985), and monomorphised twice over:
//! - per board width `W` (2 to 8; other widths use the shape's offsets at run time), so that the
//!   cell of the tile each move slides is the blank's cell plus a constant;
//! - per move that entered the node (`LAST`), so that parent pruning costs nothing: the move
//!   undoing it is left out of the node's children at compile time;
//! - per use of the duplicate-pruning automaton (`FSM`): with it, each child first loads its
//!   transition and is not generated when the move completes a forbidden string; without it
//!   the kernel is exactly the parent-pruning one.
//!
//! Not per observer or crate: [`search`] takes the limit checks as a trait object (called
//! every 2^16 expansions, more often only near a node limit), so the kernel is compiled
//! once, in this crate.
//!
//! Each child's tile cell and tile are computed once and serve both the heuristic update (one
//! table lookup) and the move (one XOR of the cells, undone by the same XOR). The four children
//! are unrolled in Korf's order. The return addresses of the recursion are perfectly predicted,
//! which an explicit stack's "which child next" dispatch is not. On `0bd45c329671af8e` this runs
//! 49.1 instructions per generated node (callgrind), against 59.9 for the explicit-stack loop
//! it replaces and 48.9 for the C baseline (`benches/c-baseline/ida.c`; see BENCHMARKS.md).

use npuzzle_core::{BitBoard, Board, Move};

use crate::dfs::{Checkpoint, Counters, End};

/// Where one search starts: a node already entered, goal-tested and counted as expanded.
pub(crate) struct Start<'b> {
    /// The node's board.
    pub(crate) board: &'b BitBoard,
    /// Its children still to search, as a 4-bit set of [`Move::index`] (parent excluded).
    pub(crate) todo: u8,
    /// Its depth g, in moves from the iteration's root.
    pub(crate) g: u32,
    /// Its h (Manhattan distance), in moves.
    pub(crate) h: u32,
    /// Its state in the duplicate-pruning automaton (read only when one is given).
    pub(crate) fsm: u32,
}

/// The search state the recursion shares, in memory (as a C implementation's globals).
struct Kernel<'t, 'c> {
    cells: u64,
    blank: usize,
    threshold: u32,
    next_threshold: u32,
    expanded: u64,
    generated: u64,
    next_check: u64,
    /// Legal moves per blank cell, a nibble per cell ([`BitBoard::legal_moves_table`]).
    legal: u64,
    /// The blank's offset per move index, a byte each ([`BitBoard::blank_offsets`]); only
    /// read when the width is not a compile-time constant.
    offsets: u32,
    /// [`npuzzle_core::Manhattan::small_delta_table`].
    table: &'t [i8; 1024],
    /// The duplicate-pruning automaton's transitions ([`crate::Fsm::table`]); empty without.
    fsm: &'t [u32],
    goal: u64,
    checkpoint: &'c mut dyn Checkpoint,
    stopped: bool,
    /// On a goal, the moves from the goal back to the start (pushed while unwinding).
    path: Vec<Move>,
}

/// One depth-first search bounded by `threshold` on f = g + h below `start`, with `table` the
/// Manhattan delta table, `fsm` the duplicate-pruning automaton's transitions (if any) and
/// `goal` the goal's cells; `counters` are updated in place.
///
/// Not generic: the checkpoint is a trait object, so the kernel is compiled once, in this
/// crate, and not once per heuristic, observer and crate that runs IDA\* (BENCHMARKS.md, "CI
/// time").
pub(crate) fn search(
    start: &Start<'_>,
    threshold: u32,
    table: &[i8; 1024],
    fsm: Option<&[u32]>,
    goal: u64,
    counters: &mut Counters,
    checkpoint: &mut dyn Checkpoint,
) -> End {
    let mut k = Kernel {
        cells: start.board.cells(),
        blank: start.board.blank(),
        threshold,
        next_threshold: u32::MAX,
        expanded: counters.expanded,
        generated: counters.generated,
        next_check: counters.next_check,
        legal: start.board.legal_moves_table(),
        offsets: start.board.blank_offsets(),
        table,
        fsm: fsm.unwrap_or(&[]),
        goal,
        checkpoint,
        stopped: false,
        path: Vec::new(),
    };
    let found = if fsm.is_some() {
        by_width::<true>(&mut k, start)
    } else {
        by_width::<false>(&mut k, start)
    };
    counters.expanded = k.expanded;
    counters.generated = k.generated;
    counters.next_check = k.next_check;
    if !found {
        End::Exceeded(k.next_threshold)
    } else if k.stopped {
        End::Stopped
    } else {
        k.path.reverse();
        End::Found(k.path)
    }
}

/// [`children`] of the start node, monomorphised for the board's width.
fn by_width<const FSM: bool>(k: &mut Kernel<'_, '_>, start: &Start<'_>) -> bool {
    let (todo, g, h, s) = (start.todo, start.g, start.h, start.fsm);
    match start.board.shape().width() {
        2 => children::<2, FSM>(k, todo, g, h, s),
        3 => children::<3, FSM>(k, todo, g, h, s),
        4 => children::<4, FSM>(k, todo, g, h, s),
        5 => children::<5, FSM>(k, todo, g, h, s),
        6 => children::<6, FSM>(k, todo, g, h, s),
        7 => children::<7, FSM>(k, todo, g, h, s),
        8 => children::<8, FSM>(k, todo, g, h, s),
        _ => children::<0, FSM>(k, todo, g, h, s),
    }
}

/// The children of the current node (`todo`, a 4-bit set of move indices), in index order;
/// `true` = unwind (a goal was found, or the search must stop).
#[expect(
    clippy::inline_always,
    reason = "the hot loop: inlined into each monomorphised node function"
)]
#[inline(always)]
fn children<const W: usize, const FSM: bool>(
    k: &mut Kernel<'_, '_>,
    todo: u8,
    g: u32,
    h: u32,
    s: u32,
) -> bool {
    let blank = k.blank;
    (todo & 1 != 0 && child::<W, 0, FSM>(k, g, h, blank, s))
        || (todo & 2 != 0 && child::<W, 1, FSM>(k, g, h, blank, s))
        || (todo & 4 != 0 && child::<W, 2, FSM>(k, g, h, blank, s))
        || (todo & 8 != 0 && child::<W, 3, FSM>(k, g, h, blank, s))
}

/// A node entered by move index `LAST` (automaton state `s`): its children but the one undoing
/// `LAST`.
#[inline(never)]
fn node<const W: usize, const LAST: usize, const FSM: bool>(
    k: &mut Kernel<'_, '_>,
    g: u32,
    h: u32,
    s: u32,
) -> bool {
    let todo = ((k.legal >> (4 * k.blank)) & 15) as u8 & !(1 << (LAST ^ 3));
    children::<W, FSM>(k, todo, g, h, s)
}

/// Child `MI` (a move index) of the node at depth `g` with h = `h` and the blank on `blank`:
/// generated, pruned on f, or entered, goal-tested, expanded and searched. With `FSM`, a move
/// that completes a forbidden string of the automaton (state `s`) is not generated at all.
#[expect(
    clippy::inline_always,
    reason = "the hot loop: inlined into each monomorphised node function"
)]
#[inline(always)]
fn child<const W: usize, const MI: usize, const FSM: bool>(
    k: &mut Kernel<'_, '_>,
    g: u32,
    h: u32,
    blank: usize,
    s: u32,
) -> bool {
    let s2 = if FSM {
        let s2 = k.fsm[4 * s as usize + MI];
        if s2 == crate::fsm::DEAD {
            return false;
        }
        s2
    } else {
        0
    };
    k.generated += 1;
    let offset = if W == 0 {
        (k.offsets >> (8 * MI)) as u8 as i8 as isize
    } else {
        [-(W as isize), -1, 1, W as isize][MI]
    };
    // The cell of the tile that slides; `& 15` keeps every shift in range.
    let tc = blank.wrapping_add_signed(offset) & 15;
    let tile = ((k.cells >> (4 * tc)) & 15) as usize;
    let h2 = h.wrapping_add(i32::from(k.table[((tile << 6) | (tc << 2) | MI) & 1023]) as u32);
    let f2 = g + 1 + h2;
    if f2 > k.threshold {
        k.next_threshold = k.next_threshold.min(f2);
        return false;
    }
    let mask = ((tile as u64) << (4 * tc)) | ((tile as u64) << (4 * blank));
    k.cells ^= mask;
    k.blank = tc;
    if h2 == 0 && k.cells == k.goal {
        k.path.push(Move::from_index(MI));
        return true;
    }
    k.expanded += 1;
    if k.expanded >= k.next_check {
        if let Some(next) = k.checkpoint.checkpoint(k.expanded, k.generated) {
            k.next_check = next;
        } else {
            k.stopped = true;
            return true;
        }
    }
    if node::<W, MI, FSM>(k, g + 1, h2, s2) {
        k.path.push(Move::from_index(MI));
        return true;
    }
    k.cells ^= mask;
    k.blank = blank;
    false
}
