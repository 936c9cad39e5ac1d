//! The reflected lookup's mirror (see the crate docs, "Reflected lookup"): on a square board
//! whose goal has its blank on the main diagonal, the board mirrored about that diagonal, with
//! each tile renamed to the tile whose goal cell is the mirror of its own, is exactly as far
//! from the goal. Shared by every index kind of a [`crate::TableSet`].

use npuzzle_core::Goal;

use crate::MAX_CELLS;

/// The mirror about the main diagonal: cells and tiles (both involutions).
#[derive(Clone, Debug)]
pub(crate) struct Reflection {
    /// The mirror image of each cell.
    pub(crate) cell: [u8; MAX_CELLS],
    /// The tile whose goal cell is the mirror image of each tile's goal cell.
    pub(crate) tile: [u8; MAX_CELLS],
}

impl Reflection {
    /// The reflection as [`npuzzle_core::AdditiveTables`] shows it, on a board of `n` cells.
    pub(crate) fn view(&self, n: usize) -> npuzzle_core::TableReflection<'_> {
        npuzzle_core::TableReflection {
            cell: &self.cell[..n],
            tile: &self.tile[..n],
        }
    }

    /// The cell of tile `u` on the reflected board, given the cell of each tile on the board:
    /// tile `u` there is the image of tile `tile[u]` here.
    #[inline]
    pub(crate) fn mirrored_cell(&self, pos: &[u8; MAX_CELLS], u: u8) -> u8 {
        // `% MAX_CELLS` (a power of two) drops the bounds checks: every index is a cell.
        self.cell[usize::from(pos[usize::from(self.tile[usize::from(u) % MAX_CELLS]) % MAX_CELLS])
            % MAX_CELLS]
    }
}

/// The reflection about the main diagonal, if the board is square and the goal's blank is
/// on the diagonal (the condition for the reflected board to be as far from the goal).
pub(crate) fn reflection(goal: &Goal) -> Option<Reflection> {
    let shape = goal.shape();
    let w = shape.width();
    if w != shape.height() {
        return None;
    }
    let mirror = |c: usize| (c % w) * w + c / w;
    let b = goal.cell_of(0);
    if mirror(b) != b {
        return None;
    }
    let mut r = Reflection {
        cell: [0; MAX_CELLS],
        tile: [0; MAX_CELLS],
    };
    for c in 0..shape.cells() {
        r.cell[c] = mirror(c) as u8;
        r.tile[c] = goal.layout().tile(mirror(goal.cell_of(c))) as u8;
    }
    Some(r)
}
