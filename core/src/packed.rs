//! The `u128` packed board: 5 bits a cell, for every W×H board with at most 25 cells (the
//! 24-puzzle and every smaller shape).

use std::fmt;

use crate::board::{Board, BoardError};
use crate::layout::{Layout, Shape};
use crate::moves::{Move, Moves};
use crate::word;

/// Bits a cell in [`PackedBoard`].
const BITS: u32 = 5;
/// Mask of one cell.
const MASK: u128 = (1 << BITS) - 1;

/// A board of at most 25 cells packed in a `u128`, 5 bits a cell (cell `i` in bits
/// `5i..5i+5`), with the blank's cell cached and a per-shape table of legal moves.
///
/// Made for the boards between the [`BitBoard`](crate::BitBoard) (at most 16 cells) and the
/// Vec board of `npuzzle-nxn`: the 24-puzzle (5×5) and every W×H with 17 ≤ W·H ≤ 25 (4×5,
/// 5×4, 4×6, 6×4, 3×6, 3×7, 3×8, 8×3, 2×9 … 2×12, …). It also holds the boards of at most 16
/// cells, so that it can be tested against the bitboard; the bitboard is the faster choice
/// there. Boards of more than 25 cells are refused with [`BoardError::TooLarge`].
///
/// 48 bytes, `Copy`. [`Board::apply`] is O(1): a few shifts and one XOR on the `u128`, as on the
/// bitboard. The key is the packed cells (a `u128`; two boards of the same shape have equal keys
/// iff they have equal layouts).
///
/// ```
/// use npuzzle_core::{Board, Move, PackedBoard, parse_board};
/// let start = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 0 24";
/// let mut b = PackedBoard::from_layout(&parse_board(start, None)?)?;
/// b.apply(Move::Left); // tile 24 slides left into the blank
/// assert_eq!(b.blank(), 24);
/// assert_eq!(b.tile(23), 24);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedBoard {
    cells: u128,
    /// 4-bit legal-move mask for each blank cell (cell `i` in bits `4i..4i+4`).
    legal_table: u128,
    blank: u8,
    width: u8,
    height: u8,
    /// Blank displacement of each move, one `i8` per byte: `-W, -1, +1, +W`.
    offsets: u32,
}

impl PackedBoard {
    /// Largest number of cells a packed board holds (25 × 5 bits = 125 of the 128 bits).
    pub const CELLS: usize = 25;

    /// The packed cells (cell `i` in bits `5i..5i+5`).
    #[inline]
    pub fn cells(&self) -> u128 {
        self.cells
    }
}

impl Board for PackedBoard {
    type Key = u128;
    const MAX_CELLS: usize = PackedBoard::CELLS;

    /// Builds the board. O(W·H).
    ///
    /// # Errors
    /// [`BoardError::TooLarge`] for boards of more than 25 cells.
    fn from_layout(layout: &Layout) -> Result<PackedBoard, BoardError> {
        let shape = layout.shape();
        Ok(PackedBoard {
            cells: word::pack(layout, BITS, PackedBoard::CELLS)?,
            legal_table: word::legal_table(shape),
            blank: layout.blank() as u8,
            width: shape.width() as u8,
            height: shape.height() as u8,
            offsets: word::blank_offsets(shape.width()),
        })
    }

    fn to_layout(&self) -> Layout {
        word::unpack(self)
    }

    #[inline]
    fn shape(&self) -> Shape {
        Shape {
            width: self.width,
            height: self.height,
        }
    }

    #[inline]
    fn blank(&self) -> usize {
        self.blank as usize
    }

    #[inline]
    fn tile(&self, cell: usize) -> usize {
        ((self.cells >> (BITS as usize * cell)) & MASK) as usize
    }

    #[inline]
    fn legal(&self) -> Moves {
        Moves::from_bits(((self.legal_table >> (4 * self.blank)) & 15) as u8)
    }

    #[inline]
    fn tile_cell(&self, m: Move) -> usize {
        let off = (self.offsets >> (8 * m.index())) as u8 as i8;
        (self.blank as usize).wrapping_add(off as usize)
    }

    #[inline]
    fn apply(&mut self, m: Move) {
        debug_assert!(
            self.legal().contains(m),
            "illegal move {m} with blank at {}",
            self.blank
        );
        let b = self.blank as usize;
        let t = self.tile_cell(m);
        let tile = (self.cells >> (BITS as usize * t)) & MASK;
        // The blank's cell is 0: move the tile there and clear its old cell in one XOR.
        self.cells ^= (tile << (BITS as usize * t)) | (tile << (BITS as usize * b));
        self.blank = t as u8;
    }

    #[inline]
    fn key(&self) -> u128 {
        self.cells
    }

    fn with_key(&self, key: &u128) -> PackedBoard {
        let cells = self.width as usize * self.height as usize;
        PackedBoard {
            cells: *key,
            blank: blank_in(*key, cells),
            ..*self
        }
    }
}

/// The cell of the blank (the cell holding 0) in a key of `cells` cells; 0 if there is none.
fn blank_in(key: u128, cells: usize) -> u8 {
    (0..cells)
        .find(|&c| (key >> (BITS as usize * c)) & MASK == 0)
        .unwrap_or(0) as u8
}

impl fmt::Debug for PackedBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        word::debug(self, "PackedBoard", f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_board;

    #[test]
    fn sizes_and_errors() {
        for (w, h) in [
            (5, 5),
            (4, 6),
            (6, 4),
            (3, 8),
            (8, 3),
            (3, 7),
            (2, 12),
            (2, 2),
            (4, 4),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let b = PackedBoard::from_layout(&Layout::blank_last(shape)).unwrap();
            assert_eq!(b.to_layout(), Layout::blank_last(shape));
            assert_eq!(b.blank(), w * h - 1);
            assert_eq!(b.with_key(&b.key()), b);
        }
        for (w, h) in [(2, 13), (13, 2), (6, 5), (9, 3)] {
            let shape = Shape::new(w, h).unwrap();
            let err = PackedBoard::from_layout(&Layout::blank_last(shape)).unwrap_err();
            assert_eq!(
                err,
                BoardError::TooLarge {
                    shape,
                    cells: w * h,
                    max: 25
                }
            );
        }
        assert_eq!(std::mem::size_of::<PackedBoard>(), 48);
    }

    #[test]
    fn legal_and_apply_on_5x5() {
        let start = "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15 16 17 18 19 20 21 22 23 24";
        let mut b = PackedBoard::from_layout(&parse_board(start, None).unwrap()).unwrap();
        assert_eq!(b.blank(), 12);
        assert_eq!(b.legal().len(), 4);
        b.apply(Move::Down); // tile 8 (above) slides down
        assert_eq!(b.blank(), 7);
        assert_eq!(b.tile(12), 8);
        b.apply(Move::Right); // tile 7 (left) slides right
        assert_eq!((b.blank(), b.tile(7)), (6, 7));
        b.apply(Move::Left);
        b.apply(Move::Up);
        assert_eq!(b.to_layout(), parse_board(start, None).unwrap());
        // The last cell's tile (bits 120..125) moves too.
        let corner = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 0 21 22 23 24 20";
        let mut c = PackedBoard::from_layout(&parse_board(corner, None).unwrap()).unwrap();
        assert_eq!(c.legal().len(), 3);
        c.apply(Move::Up); // tile 20 slides up from cell 24
        assert_eq!((c.blank(), c.tile(19)), (24, 20));
        assert_eq!(c.legal().len(), 2);
    }
}
