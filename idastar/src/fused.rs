//! The depth-first iteration specialised for the bitboard with Manhattan distance.
//!
//! Same nodes, same order and same counts as the generic loop ([`crate::iterate`]), but each
//! child's tile cell and tile are computed once and serve both the heuristic update and the
//! move: the child's f comes from one table lookup, and entering it is one XOR of the cells with
//! a mask that the frame keeps, so that going back is the same XOR (no recomputation). The
//! board's cells, the blank and the shape's tables live in locals, as in a C implementation
//! with globals.

use npuzzle_core::{BitBoard, Board, Heuristic, Move, Progress};

use crate::{IterationEnd, Run};

/// One level of the explicit stack (also used by the parallel subtree loop,
/// `parallel::Ctx::subtree_fused`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Frame {
    /// The XOR that made the move from this node (and undoes it).
    pub(crate) mask: u64,
    /// Moves still to try from this node (4-bit mask).
    pub(crate) todo: u8,
    /// The move's index.
    pub(crate) took: u8,
    /// The blank's cell in this node.
    pub(crate) blank: u8,
    /// h of this node, in moves.
    pub(crate) h: u32,
}

/// One iteration bounded by `threshold` from `start` (h = `h0`), with `table` the Manhattan
/// delta table ([`npuzzle_core::Manhattan::small_delta_table`]) and `goal` the goal's cells.
#[inline(never)]
pub(crate) fn iterate<B: Board, H: Heuristic<B>, O: FnMut(&Progress)>(
    run: &mut Run<'_, B, H, O>,
    start: &BitBoard,
    table: &[i8; 1024],
    goal: u64,
    h0: u32,
    threshold: u32,
) -> IterationEnd {
    let legal = start.legal_moves_table();
    let offsets = start.blank_offsets();
    let mut cells = start.cells();
    let mut blank = start.blank();
    let mut expanded = run.expanded;
    let mut generated = run.generated;
    let mut next_check = run.next_check(expanded, generated);
    let mut next_threshold = u32::MAX;
    if h0 == 0 && cells == goal {
        return IterationEnd::Found(Vec::new());
    }
    expanded += 1;
    let mut frames = vec![Frame::default(); threshold as usize + 2];
    let frames = frames.as_mut_slice();
    let mut todo = ((legal >> (4 * blank)) & 15) as u8;
    let mut h = h0;
    let mut depth = 0usize;
    loop {
        while todo != 0 {
            let mi = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            generated += 1;
            let tc = blank.wrapping_add((offsets >> (8 * mi)) as u8 as i8 as usize) & 15;
            let tile = ((cells >> (4 * tc)) & 15) as usize;
            let h2 = h.wrapping_add(i32::from(table[((tile << 6) | (tc << 2) | mi) & 1023]) as u32);
            let f2 = depth as u32 + 1 + h2;
            if f2 > threshold {
                next_threshold = next_threshold.min(f2);
                continue;
            }
            let mask = ((tile as u64) << (4 * tc)) | ((tile as u64) << (4 * blank));
            frames[depth] = Frame {
                mask,
                todo,
                took: mi as u8,
                blank: blank as u8,
                h,
            };
            cells ^= mask;
            blank = tc;
            depth += 1;
            if h2 == 0 && cells == goal {
                run.expanded = expanded;
                run.generated = generated;
                let path = frames[..depth]
                    .iter()
                    .map(|f| Move::from_index(f.took as usize))
                    .collect();
                return IterationEnd::Found(path);
            }
            expanded += 1;
            if expanded >= next_check {
                next_check = run.next_check(expanded, generated);
                if let Some(limit) = run.checkpoint(expanded, generated, threshold) {
                    return IterationEnd::Stopped(limit);
                }
            }
            // Children: legal moves but the one undoing this move (index `mi ^ 3`).
            todo = ((legal >> (4 * blank)) & 15) as u8 & !(1 << (mi ^ 3));
            h = h2;
        }
        if depth == 0 {
            break;
        }
        depth -= 1;
        let frame = frames[depth];
        cells ^= frame.mask;
        blank = frame.blank as usize;
        todo = frame.todo;
        h = frame.h;
    }
    run.expanded = expanded;
    run.generated = generated;
    IterationEnd::Exceeded(next_threshold)
}
