//! The board trait that every engine is generic over.

use std::fmt::Debug;
use std::hash::Hash;

use crate::layout::{Layout, Shape};
use crate::moves::{Move, Moves};

/// A sliding-tile board that engines can search over.
///
/// Implemented by [`BitBoard`](crate::BitBoard) (boards of at most 16 cells, packed in a `u64`),
/// [`PackedBoard`](crate::PackedBoard) (at most 25 cells, packed in a `u128`) and by the Vec-based
/// board of `npuzzle-nxn` (up to 127×127). Engines use only this trait, so they run unchanged
/// on any of them.
///
/// Contract: [`blank`](Board::blank) and [`legal`](Board::legal) are O(1) and allocation-free;
/// [`apply`](Board::apply) is O(1), in place, and is undone by applying [`Move::inverse`];
/// two boards of the same shape have equal keys iff they have equal layouts.
pub trait Board: Clone + Debug + Send + Sync + Sized {
    /// Compact identity of a position, used by visited maps: `u64` for the bitboard.
    type Key: Clone + Eq + Hash + Debug + Send + Sync;

    /// Largest number of cells this board type can hold.
    const MAX_CELLS: usize;

    /// Builds the board from a validated layout.
    ///
    /// # Errors
    /// [`BoardError::TooLarge`] if the layout has more than [`Board::MAX_CELLS`] cells.
    fn from_layout(layout: &Layout) -> Result<Self, BoardError>;

    /// The board's layout. O(W·H), allocates.
    fn to_layout(&self) -> Layout;

    /// The board's shape.
    fn shape(&self) -> Shape;

    /// The blank's cell (cached).
    fn blank(&self) -> usize;

    /// The tile in `cell` (0 = blank).
    fn tile(&self, cell: usize) -> usize;

    /// The moves legal in this position (depends only on the blank's cell).
    fn legal(&self) -> Moves;

    /// The cell of the tile that the legal move `m` slides into the blank (the blank's cell
    /// after the move). O(1); override it when the board can do better than the default.
    #[inline]
    fn tile_cell(&self, m: Move) -> usize {
        m.blank_target(self.blank(), self.shape().width())
    }

    /// Applies a legal move in place. Debug-asserts legality.
    fn apply(&mut self, m: Move);

    /// The position's key.
    fn key(&self) -> Self::Key;

    /// Rebuilds a board of this board's shape from a key produced by [`Board::key`] on a board of
    /// the same shape.
    #[must_use]
    fn with_key(&self, key: &Self::Key) -> Self;

    /// The board after `m`, leaving `self` unchanged.
    #[must_use]
    fn neighbor(&self, m: Move) -> Self {
        let mut b = self.clone();
        b.apply(m);
        b
    }

    /// Bytes that a key of this board ([`Board::key`]) holds on the heap besides its
    /// `size_of::<Self::Key>()`, the allocator's rounding and bookkeeping included: what each
    /// stored key really costs on top of its slot, for the engines that bound their memory
    /// ([`crate::NodeStore::begin_keys`]). The same for every board of a shape. 0, the default,
    /// for keys that own no heap memory (the bitboard's `u64`). O(1).
    fn key_heap_bytes(&self) -> u64 {
        0
    }

    /// This board's cells packed as [`BitBoard`](crate::BitBoard) packs them (cell `i` in bits
    /// `4i..4i+4` of a `u64`, the blank 0), when the board is a bitboard: lets an engine run a
    /// loop written for that representation (IDA\* with Manhattan distance does) while staying
    /// generic. `None`, the default, for every other board type. O(1).
    fn bitboard_cells(&self) -> Option<u64> {
        None
    }
}

/// A layout that this board type cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// Too many cells for the board type.
    #[error(
        "a {shape} board has {cells} cells, more than the {max} this engine's board type holds; boards with more cells need the generic board (npuzzle-nxn)"
    )]
    TooLarge {
        /// The shape.
        shape: Shape,
        /// Its cell count.
        cells: usize,
        /// The limit.
        max: usize,
    },
}
