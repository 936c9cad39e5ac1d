//! What the two packed boards ([`BitBoard`](crate::BitBoard): 4 bits a cell in a `u64`;
//! [`PackedBoard`](crate::PackedBoard): 5 bits a cell in a `u128`) share outside their hot
//! methods: the shape's tables, packing a layout, unpacking and the
//! `Debug` text. Words are handled as `u128` here; the bitboard narrows them (16 cells × 4 bits
//! fill a `u64` exactly). All O(W·H), run once per board built, never per move.

use std::fmt;

use crate::board::{Board, BoardError};
use crate::layout::{Layout, Shape};
use crate::moves::legal_moves;

/// The blank's displacement, in cells, for each move, one `i8` a byte in [`Move::index`]
/// order: `-W, -1, +1, +W`.
///
/// [`Move::index`]: crate::Move::index
pub(crate) fn blank_offsets(width: usize) -> u32 {
    let w = width as i8;
    u32::from_le_bytes([(-w) as u8, (-1i8) as u8, 1, w as u8])
}

/// The 4-bit legal-move mask of every blank cell of `shape`, cell `c` in bits `4c..4c+4`
/// (shapes of at most 32 cells).
pub(crate) fn legal_table(shape: Shape) -> u128 {
    let (w, h) = (shape.width(), shape.height());
    (0..w * h).fold(0u128, |t, c| {
        t | (u128::from(legal_moves(c, w, h).bits()) << (4 * c))
    })
}

/// The layout's tiles packed `bits` bits a cell (cell `i` in bits `bits·i..bits·(i+1)`), after
/// checking that the shape has at most `max` cells.
///
/// # Errors
/// [`BoardError::TooLarge`] for more than `max` cells.
pub(crate) fn pack(layout: &Layout, bits: u32, max: usize) -> Result<u128, BoardError> {
    let shape = layout.shape();
    if shape.cells() > max {
        return Err(BoardError::TooLarge {
            shape,
            cells: shape.cells(),
            max,
        });
    }
    Ok(layout
        .cells()
        .iter()
        .enumerate()
        .fold(0u128, |acc, (i, &t)| {
            acc | (u128::from(t) << (bits as usize * i))
        }))
}

/// The board's layout, read cell by cell through [`Board::tile`].
pub(crate) fn unpack<B: Board>(board: &B) -> Layout {
    let n = board.shape().cells();
    let v: Vec<usize> = (0..n).map(|c| board.tile(c)).collect();
    Layout::new(board.shape(), &v).expect("a packed board always holds a permutation")
}

/// `Name(WxH layout, blank c)`.
pub(crate) fn debug<B: Board>(board: &B, name: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write!(
        f,
        "{name}({} {}, blank {})",
        board.shape(),
        board.to_layout(),
        board.blank()
    )
}
