//! Moves in the sliding-puzzle community's notation: the letter names the direction in which
//! **the tile slides** into the blank.
//!
//! `U` means the tile below the blank slides up, so the blank moves down one row. The four moves
//! are numbered so that increasing [`Move::index`] is Korf's (1985) blank move order
//! *up, left, right, down* — i.e. tile moves `D, R, L, U` — and `m.inverse()` is `3 - m`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One move: the direction in which a tile slides into the blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Move {
    /// The tile above the blank slides down (the blank moves up one row, `-W` cells).
    Down = 0,
    /// The tile left of the blank slides right (the blank moves left, `-1` cell).
    Right = 1,
    /// The tile right of the blank slides left (the blank moves right, `+1` cell).
    Left = 2,
    /// The tile below the blank slides up (the blank moves down one row, `+W` cells).
    Up = 3,
}

impl Move {
    /// All four moves in index order (Korf's blank order up, left, right, down).
    pub const ALL: [Move; 4] = [Move::Down, Move::Right, Move::Left, Move::Up];

    /// The move's index, `0..4`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The move with index `i & 3`.
    #[inline]
    pub const fn from_index(i: usize) -> Move {
        match i & 3 {
            0 => Move::Down,
            1 => Move::Right,
            2 => Move::Left,
            _ => Move::Up,
        }
    }

    /// The move that undoes this one (`Up` ↔ `Down`, `Left` ↔ `Right`).
    #[inline]
    #[must_use]
    pub const fn inverse(self) -> Move {
        Move::from_index(3 - self as usize)
    }

    /// The move's letter: `U`, `D`, `L` or `R`.
    pub const fn letter(self) -> char {
        match self {
            Move::Down => 'D',
            Move::Right => 'R',
            Move::Left => 'L',
            Move::Up => 'U',
        }
    }

    /// Parses a move letter (`U D L R`, case-insensitive).
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The blank's new cell after this move on a board `width` cells wide, assuming the move is
    /// legal (see [`legal_moves`]).
    #[inline]
    pub const fn blank_target(self, blank: usize, width: usize) -> usize {
        // Branch-free (this is on the hot path of every engine): Down/Up step a row, Right/Left
        // a cell; Down/Right subtract, Left/Up add.
        let i = self as usize;
        let vertical_mask = ((i ^ (i >> 1)) & 1).wrapping_sub(1); // all ones for Down/Up
        let step = 1 + ((width - 1) & vertical_mask);
        let negate = (i >> 1).wrapping_sub(1); // all ones for Down/Right
        blank.wrapping_add((step ^ negate).wrapping_sub(negate))
    }

    /// Whether the move is a vertical one (the tile changes row).
    #[inline]
    pub const fn is_vertical(self) -> bool {
        matches!(self, Move::Down | Move::Up)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A set of moves, one bit per [`Move::index`]. Allocation-free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Moves(u8);

impl Moves {
    /// The empty set.
    pub const EMPTY: Moves = Moves(0);

    /// The set from its 4-bit mask (bit `i` = [`Move::from_index`]`(i)`); higher bits are ignored.
    #[inline]
    pub const fn from_bits(bits: u8) -> Moves {
        Moves(bits & 15)
    }

    /// The 4-bit mask.
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `m` is in the set.
    #[inline]
    pub const fn contains(self, m: Move) -> bool {
        self.0 & (1 << m as u8) != 0
    }

    /// The set without `m`.
    #[inline]
    #[must_use]
    pub const fn without(self, m: Move) -> Moves {
        Moves(self.0 & !(1 << m as u8))
    }

    /// Number of moves in the set.
    #[inline]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[expect(
    clippy::copy_iterator,
    reason = "a 4-bit set is cheapest iterated by value"
)]
impl Iterator for Moves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Move::from_index(i))
    }
}

/// The legal moves when the blank is at `blank` on a `width`×`height` board.
///
/// # Panics
/// Debug-asserts `blank < width * height`.
#[inline]
pub const fn legal_moves(blank: usize, width: usize, height: usize) -> Moves {
    debug_assert!(blank < width * height);
    let (r, c) = (blank / width, blank % width);
    let mut bits = 0u8;
    if r > 0 {
        bits |= 1 << Move::Down as u8;
    }
    if c > 0 {
        bits |= 1 << Move::Right as u8;
    }
    if c + 1 < width {
        bits |= 1 << Move::Left as u8;
    }
    if r + 1 < height {
        bits |= 1 << Move::Up as u8;
    }
    Moves(bits)
}

/// Formats a move list as a string of letters, e.g. `"ULDR"`.
pub fn moves_to_string(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Error from [`parse_moves`]: a character that is not a move letter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad move character {ch:?} at position {position} (moves are U, D, L, R)")]
pub struct MoveParseError {
    /// The offending character.
    pub ch: char,
    /// Its 0-based character position.
    pub position: usize,
}

/// Parses a move string such as `"ULDR"`; whitespace and commas are ignored.
///
/// # Errors
/// [`MoveParseError`] for any other character.
pub fn parse_moves(s: &str) -> Result<Vec<Move>, MoveParseError> {
    s.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace() && *c != ',')
        .map(|(position, ch)| Move::from_letter(ch).ok_or(MoveParseError { ch, position }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_and_order() {
        for m in Move::ALL {
            assert_eq!(m.inverse().inverse(), m);
            assert_ne!(m.inverse(), m);
            assert_eq!(Move::from_index(m.index()), m);
        }
        assert_eq!(Move::Up.inverse(), Move::Down);
        assert_eq!(Move::Left.inverse(), Move::Right);
    }

    #[test]
    fn legal_corners() {
        // 3x3, blank top-left: tile below can slide up, tile right can slide left.
        let l = legal_moves(0, 3, 3);
        assert_eq!(l.collect::<Vec<_>>(), vec![Move::Left, Move::Up]);
        assert_eq!(legal_moves(4, 3, 3).len(), 4);
        let l = legal_moves(8, 3, 3);
        assert_eq!(l.collect::<Vec<_>>(), vec![Move::Down, Move::Right]);
    }

    #[test]
    fn parse_roundtrip() {
        let ms = parse_moves("uldr, UL").unwrap();
        assert_eq!(moves_to_string(&ms), "ULDRUL");
        let e = parse_moves("UX").unwrap_err();
        assert_eq!(
            e,
            MoveParseError {
                ch: 'X',
                position: 1
            }
        );
    }
}
