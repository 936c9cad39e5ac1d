//! The Vec-based board: one `u16` a cell, for every W×H board with 2 ≤ W, H ≤ 127.

use std::fmt;

use npuzzle_core::{Board, BoardError, Layout, MAX_SIDE, Move, Moves, Shape};

/// Words of a [`NxnKey`] kept inline (no heap allocation): 256 bits, enough for every board of
/// at most 40 cells (6 bits a cell; the 5×5 and 6×6 boards among them).
pub const INLINE_WORDS: usize = 4;

/// A compact, hashable identity of a [`VecBoard`] position: the cells packed `b` bits each,
/// `b = ⌈log2(W·H)⌉`, `⌊64 / b⌋` cells a `u64` word (no cell straddles two words).
///
/// Boards of at most [`INLINE_WORDS`] words (every board of at most 40 cells) keep the words
/// inline, so keys of the 24-puzzle cost no allocation; larger boards box them. Two keys of
/// boards of the same shape are equal iff the boards are. The [`Hash`] implementation feeds the
/// words to the hasher, so a map's hasher (`ahash`, `FxHasher`) sees every bit.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum NxnKey {
    /// The packed words of a board of at most `64 · INLINE_WORDS` bits (unused words are 0).
    Inline([u64; INLINE_WORDS]),
    /// The packed words of a larger board.
    Heap(Box<[u64]>),
}

impl NxnKey {
    /// The packed words.
    pub fn words(&self) -> &[u64] {
        match self {
            NxnKey::Inline(w) => w,
            NxnKey::Heap(w) => w,
        }
    }
}

/// A sliding-tile board of any shape from 2×2 to 127×127: the tiles as a boxed `u16` slice in
/// row-major order, with the blank's cell, row and column cached.
///
/// [`Board::apply`] is O(1) (one swap); [`Board::legal`] is four comparisons on the cached row
/// and column; [`Board::key`] packs the cells into a [`NxnKey`] in O(W·H) (IDA* asks for it only
/// when h = 0). Cloning allocates (one `2·W·H`-byte slice); search engines mutate one board in
/// place and undo, so they clone only per stored state (A*) or per solve (IDA*).
///
/// `u16` cells throughout: tiles of boards above 256 cells need them, and on the 15-puzzle `u8`
/// cells were not faster (IDA* + linear conflict, BENCHMARKS.md "Generic board").
///
/// ```
/// use npuzzle_core::{Board, Move, parse_board};
/// use npuzzle_nxn::VecBoard;
/// let mut b = VecBoard::from_layout(&parse_board("123456708", None)?)?;
/// b.apply(Move::Left); // tile 8 slides left into the blank
/// assert_eq!(b.to_layout().to_hex().unwrap(), "123456780");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(PartialEq, Eq, Hash)]
pub struct VecBoard {
    cells: Box<[u16]>,
    blank: u16,
    blank_row: u8,
    blank_col: u8,
    width: u8,
    height: u8,
    shape: Shape,
    /// Bits a cell in the key.
    key_bits: u8,
}

impl Clone for VecBoard {
    #[inline]
    fn clone(&self) -> VecBoard {
        VecBoard {
            cells: self.cells.clone(),
            ..*self
        }
    }

    /// Copies `source` into `self` without allocating when both have the same number of
    /// cells (beam search rewrites a layer's boards in place this way).
    #[inline]
    fn clone_from(&mut self, source: &VecBoard) {
        if self.cells.len() == source.cells.len() {
            self.cells.copy_from_slice(&source.cells);
        } else {
            self.cells.clone_from(&source.cells);
        }
        self.blank = source.blank;
        self.blank_row = source.blank_row;
        self.blank_col = source.blank_col;
        self.width = source.width;
        self.height = source.height;
        self.shape = source.shape;
        self.key_bits = source.key_bits;
    }
}

impl VecBoard {
    /// The cells, row-major (tile 0 = the blank).
    #[inline]
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// Bits a cell in the key: the bit length of the largest tile, `W·H − 1`.
    fn key_bits_for(cells: usize) -> u8 {
        (usize::BITS - (cells - 1).leading_zeros()).max(1) as u8
    }

    /// Words a key of this board holds.
    fn key_words(&self) -> usize {
        let per_word = 64 / self.key_bits as usize;
        self.cells.len().div_ceil(per_word)
    }

    /// Packs the cells into `words` (which must hold `key_words()` zeroed words).
    fn pack(&self, words: &mut [u64]) {
        let b = self.key_bits as usize;
        let per_word = 64 / b;
        for (chunk, w) in self.cells.chunks(per_word).zip(words.iter_mut()) {
            *w = chunk
                .iter()
                .enumerate()
                .fold(0u64, |acc, (i, &t)| acc | (u64::from(t) << (b * i)));
        }
    }
}

impl Board for VecBoard {
    type Key = NxnKey;
    const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

    /// Builds the board. O(W·H). Never fails: every valid layout fits (sides are at most 127).
    fn from_layout(layout: &Layout) -> Result<VecBoard, BoardError> {
        let shape = layout.shape();
        let blank = layout.blank();
        let (r, c) = shape.coords(blank);
        Ok(VecBoard {
            cells: layout.cells().into(),
            blank: blank as u16,
            blank_row: r as u8,
            blank_col: c as u8,
            width: shape.width() as u8,
            height: shape.height() as u8,
            shape,
            key_bits: VecBoard::key_bits_for(shape.cells()),
        })
    }

    fn to_layout(&self) -> Layout {
        let v: Vec<usize> = self.cells.iter().map(|&t| t as usize).collect();
        Layout::new(self.shape(), &v).expect("a VecBoard always holds a permutation")
    }

    #[inline]
    fn shape(&self) -> Shape {
        self.shape
    }

    #[inline]
    fn blank(&self) -> usize {
        self.blank as usize
    }

    #[inline]
    fn tile(&self, cell: usize) -> usize {
        self.cells[cell] as usize
    }

    #[inline]
    fn legal(&self) -> Moves {
        let (r, c) = (self.blank_row, self.blank_col);
        // Bit i = Move::from_index(i): Down (tile above), Right (tile left), Left, Up.
        let bits = u8::from(r > 0)
            | (u8::from(c > 0) << 1)
            | (u8::from(c + 1 < self.width) << 2)
            | (u8::from(r + 1 < self.height) << 3);
        Moves::from_bits(bits)
    }

    #[inline]
    fn tile_cell(&self, m: Move) -> usize {
        m.blank_target(self.blank as usize, self.width as usize)
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
        self.cells[b] = self.cells[t];
        self.cells[t] = 0;
        self.blank = t as u16;
        match m {
            Move::Down => self.blank_row -= 1,
            Move::Up => self.blank_row += 1,
            Move::Right => self.blank_col -= 1,
            Move::Left => self.blank_col += 1,
        }
    }

    /// The packed cells. O(W·H); allocates only for boards of more than [`INLINE_WORDS`] words.
    fn key(&self) -> NxnKey {
        let n = self.key_words();
        if n <= INLINE_WORDS {
            let mut w = [0u64; INLINE_WORDS];
            self.pack(&mut w[..n]);
            NxnKey::Inline(w)
        } else {
            let mut w = vec![0u64; n].into_boxed_slice();
            self.pack(&mut w);
            NxnKey::Heap(w)
        }
    }

    /// The boxed words of a key above [`INLINE_WORDS`] words (8 bytes each), rounded up to
    /// glibc malloc's 16-byte granule, plus its 8-byte chunk header (rounded: 16): 32,288
    /// bytes on 127×127 (4,033 words of 14-bit cells), 2,576 on 40×40, 64 on 7×7; 0 for
    /// boards of at most 40 cells (inline keys).
    fn key_heap_bytes(&self) -> u64 {
        let n = self.key_words();
        if n <= INLINE_WORDS {
            0
        } else {
            ((n * 8).next_multiple_of(16) + 16) as u64
        }
    }

    fn with_key(&self, key: &NxnKey) -> VecBoard {
        let b = self.key_bits as usize;
        let per_word = 64 / b;
        let mask = (1u64 << b) - 1;
        let words = key.words();
        let mut board = self.clone();
        let mut blank = 0;
        // Word by word, without a division a cell (a third of beam search's time on 7×7).
        for (j, (chunk, &w)) in board.cells.chunks_mut(per_word).zip(words).enumerate() {
            let mut x = w;
            for (i, cell) in chunk.iter_mut().enumerate() {
                *cell = (x & mask) as u16;
                if *cell == 0 {
                    blank = j * per_word + i;
                }
                x >>= b;
            }
        }
        board.blank = blank as u16;
        board.blank_row = (blank / self.width as usize) as u8;
        board.blank_col = (blank % self.width as usize) as u8;
        board
    }
}

impl fmt::Debug for VecBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "VecBoard({} {}, blank {})",
            self.shape(),
            self.to_layout(),
            self.blank
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::parse_board;

    /// The heap bytes of a stored key (issue 52, case 4): the boxed words, rounded to 16
    /// bytes, plus the allocator's 16; none for inline keys.
    #[test]
    fn key_heap_bytes_are_the_boxed_words() {
        for (w, h, words, bytes) in [
            (4, 4, 1, 0),
            (5, 5, 3, 0),
            (6, 6, 4, 0),
            (7, 7, 5, 64),
            (40, 40, 320, 2576),
            (127, 127, 4033, 32_288),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let b = VecBoard::from_layout(&Layout::blank_last(shape)).unwrap();
            assert_eq!(b.key_words(), words, "{w}x{h}");
            assert_eq!(b.key_heap_bytes(), bytes, "{w}x{h}");
        }
    }

    #[test]
    fn key_roundtrip_and_sizes() {
        for (w, h) in [(2, 2), (4, 4), (5, 5), (6, 6), (7, 7), (127, 127), (127, 2)] {
            let shape = Shape::new(w, h).unwrap();
            let mut b = VecBoard::from_layout(&Layout::blank_last(shape)).unwrap();
            b.apply(Move::Left.inverse());
            b.apply(Move::Up.inverse());
            let k = b.key();
            assert_eq!(
                matches!(k, NxnKey::Inline(_)),
                w * h <= 40,
                "{w}x{h}: inline iff at most 40 cells"
            );
            let back = b.with_key(&k);
            assert_eq!(back, b);
            assert_eq!(back.key(), k);
        }
    }

    #[test]
    fn legal_and_apply() {
        let mut b =
            VecBoard::from_layout(&parse_board("1 2 3\n4 0 5\n6 7 8", None).unwrap()).unwrap();
        assert_eq!(b.legal().len(), 4);
        b.apply(Move::Down); // tile 2 slides down
        assert_eq!(b.blank(), 1);
        assert_eq!(b.tile(4), 2);
        assert_eq!(b.legal().len(), 3);
        assert!(!b.legal().contains(Move::Down));
        b.apply(Move::Up);
        assert_eq!(b.blank(), 4);
        assert_eq!(b.to_layout().to_hex().unwrap(), "123405678");
    }
}
