//! The `u64` bitboard: 4 bits a cell, for every W×H board with at most 16 cells.

use std::fmt;

use crate::board::{Board, BoardError};
use crate::layout::{Layout, Shape};
use crate::moves::{Move, Moves};
use crate::word;

/// A board of at most 16 cells packed in a `u64`, 4 bits a cell (cell `i` in bits `4i..4i+4`),
/// with the blank's cell cached and a per-shape table of legal moves.
///
/// 16 bytes, `Copy`. [`Board::apply`] is a few shifts and one XOR. The key is the packed cells.
///
/// ```
/// use npuzzle_core::{BitBoard, Board, Move, parse_board};
/// let mut b = BitBoard::from_layout(&parse_board("123456708", None)?)?;
/// b.apply(Move::Left); // tile 8 slides left into the blank
/// assert_eq!(b.to_layout().to_hex().unwrap(), "123456780");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BitBoard {
    cells: u64,
    /// 4-bit legal-move mask for each blank cell.
    legal_table: u64,
    blank: u8,
    width: u8,
    height: u8,
    /// Blank displacement of each move, one `i8` per byte: `-W, -1, +1, +W`.
    offsets: u32,
}

impl BitBoard {
    /// The packed cells (cell `i` in bits `4i..4i+4`).
    #[inline]
    pub fn cells(&self) -> u64 {
        self.cells
    }

    /// The legal moves of every blank cell: bits `4c..4c+4` hold the [`Moves`] bits when the
    /// blank is in cell `c`. Depends only on the shape.
    #[inline]
    pub fn legal_moves_table(&self) -> u64 {
        self.legal_table
    }

    /// The blank's displacement, in cells, for each move: byte `i` is the `i8` offset for the
    /// move of [`Move::index`] `i` (`-W, -1, +1, +W`), so the tile that move `m` slides sits in
    /// cell `blank + offset(m)`. Depends only on the shape.
    #[inline]
    pub fn blank_offsets(&self) -> u32 {
        self.offsets
    }
}

impl Board for BitBoard {
    type Key = u64;
    const MAX_CELLS: usize = 16;

    fn from_layout(layout: &Layout) -> Result<BitBoard, BoardError> {
        let shape = layout.shape();
        // 16 cells × 4 bits: the packed word fits a u64.
        let cells = word::pack(layout, 4, BitBoard::MAX_CELLS)? as u64;
        Ok(BitBoard {
            cells,
            legal_table: word::legal_table(shape) as u64,
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
        ((self.cells >> (4 * cell)) & 15) as usize
    }

    #[inline]
    fn legal(&self) -> Moves {
        Moves::from_bits((self.legal_table >> (4 * self.blank)) as u8)
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
        let tile = (self.cells >> (4 * t)) & 15;
        // The blank's nibble is 0: move the tile there and clear its old nibble in one XOR.
        self.cells ^= (tile << (4 * t)) | (tile << (4 * b));
        self.blank = t as u8;
    }

    #[inline]
    fn key(&self) -> u64 {
        self.cells
    }

    fn bitboard_cells(&self) -> Option<u64> {
        Some(self.cells)
    }

    fn with_key(&self, key: &u64) -> BitBoard {
        // Per expanded node in the engines that store keys: a u64 scan, not the u128 one.
        let n = self.width as usize * self.height as usize;
        let blank = (0..n)
            .find(|&c| (key >> (4 * c)).trailing_zeros() >= 4)
            .unwrap_or(0);
        BitBoard {
            cells: *key,
            blank: blank as u8,
            ..*self
        }
    }
}

impl fmt::Debug for BitBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        word::debug(self, "BitBoard", f)
    }
}
