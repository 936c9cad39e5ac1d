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

/// Error from [`parse_moves`] and [`parse_move_groups`]: a character that is not a move letter,
/// or a count that is not one (a count with no letter before it, `0`, or more than
/// [`MAX_COUNT`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad move character {ch:?} at position {position} (moves are U, D, L, R, each optionally followed by a count of 1 to 126 tiles, e.g. R2U2LDLD)"
)]
pub struct MoveParseError {
    /// The offending character (for a bad count, its first digit).
    pub ch: char,
    /// Its 0-based character position.
    pub position: usize,
}

/// The largest count a move letter may carry (`R126`): a multi-tile move slides at most the
/// 126 other tiles of a row or column of the largest board (127×127).
pub const MAX_COUNT: usize = 126;

/// One move as written with a count, the speedsolving community's notation (the `slidy`
/// crate): `count` tiles of the blank's row or column slide one cell in direction `dir`, i.e.
/// `count` single-tile moves `dir` in a row. In the multi-tile metric (MTM) it is **one**
/// move; in the single-tile metric (STM) it is `count` moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveGroup {
    /// The direction the tiles slide.
    pub dir: Move,
    /// How many tiles slide, `1..=`[`MAX_COUNT`].
    pub count: usize,
}

/// Parses a move string as written, one [`MoveGroup`] a letter: plain letters (`"ULDR"`) and
/// letters with counts (`"R2U2LDLD"`: a number after a letter is that many tiles in that
/// direction) mixed freely; whitespace and commas are ignored wherever they stand, so that
/// `"R2 3"` is `R23` and `"u 2"` is `U2`; letters are case-insensitive. `"R2R"` is two groups
/// (two moves in MTM), as written. O(length of `s`).
///
/// # Errors
/// [`MoveParseError`] for a character that is neither a move letter, a digit, whitespace nor a
/// comma, and for a count with no letter before it, a count of `0`, or one above
/// [`MAX_COUNT`] (located at the count's first digit).
pub fn parse_move_groups(s: &str) -> Result<Vec<MoveGroup>, MoveParseError> {
    let mut out: Vec<MoveGroup> = Vec::new();
    // The count being read: its first digit's position and character, and its value so far.
    let mut count: Option<(usize, char, usize)> = None;
    let close = |out: &mut Vec<MoveGroup>, count: Option<(usize, char, usize)>| {
        if let Some((position, ch, n)) = count {
            // A count is only started after a letter, so `out` has a last group.
            match out.last_mut() {
                Some(g) if (1..=MAX_COUNT).contains(&n) => g.count = n,
                _ => return Err(MoveParseError { ch, position }),
            }
        }
        Ok(())
    };
    for (position, ch) in s.chars().enumerate() {
        if let Some(d) = ch.to_digit(10) {
            match &mut count {
                Some((_, _, n)) => *n = (*n * 10 + d as usize).min(MAX_COUNT + 1),
                None if out.is_empty() => return Err(MoveParseError { ch, position }),
                None => count = Some((position, ch, d as usize)),
            }
            continue;
        }
        if ch.is_whitespace() || ch == ',' {
            // Ignored, even inside a count.
            continue;
        }
        close(&mut out, count.take())?;
        let dir = Move::from_letter(ch).ok_or(MoveParseError { ch, position })?;
        out.push(MoveGroup { dir, count: 1 });
    }
    close(&mut out, count)?;
    Ok(out)
}

/// Parses a move string into single-tile moves: plain letters (`"ULDR"`) or letters with
/// counts (`"R2U2LDLD"` = `RRUULDLD`: a number after a letter is that many tiles, that many
/// single-tile moves, in that direction); whitespace and commas are ignored. See
/// [`parse_move_groups`] for the groups as written (the multi-tile metric's moves).
/// O(length of the result).
///
/// # Errors
/// [`MoveParseError`] as for [`parse_move_groups`].
pub fn parse_moves(s: &str) -> Result<Vec<Move>, MoveParseError> {
    Ok(parse_move_groups(s)?
        .into_iter()
        .flat_map(|g| std::iter::repeat_n(g.dir, g.count))
        .collect())
}

/// The single-tile moves grouped into maximal runs of one direction: the fewest multi-tile
/// moves (MTM) that make the same path. O(moves).
pub fn group_moves(moves: &[Move]) -> Vec<MoveGroup> {
    let mut out: Vec<MoveGroup> = Vec::new();
    for &m in moves {
        match out.last_mut() {
            Some(g) if g.dir == m => g.count += 1,
            _ => out.push(MoveGroup { dir: m, count: 1 }),
        }
    }
    out
}

/// The length of a single-tile move list in the **multi-tile metric** (MTM): its number of
/// maximal runs of one direction (`RRUULDLD` is 6: `R2 U2 L D L D`). O(moves).
pub fn mtm_length(moves: &[Move]) -> usize {
    moves
        .iter()
        .enumerate()
        .filter(|&(i, m)| i == 0 || moves[i - 1] != *m)
        .count()
}

/// Formats a move list with counts, the speedsolving notation: each maximal run of one
/// direction as its letter and, when longer than one, its length (`RRUULDLD` → `"R2U2LDLD"`).
/// [`parse_moves`] reads it back to the same moves. O(moves).
pub fn moves_to_counts(moves: &[Move]) -> String {
    use fmt::Write as _;
    let mut s = String::new();
    for g in group_moves(moves) {
        s.push(g.dir.letter());
        if g.count > 1 {
            write!(s, "{}", g.count).expect("writing to a String cannot fail");
        }
    }
    s
}

/// How moves are counted: the **single-tile metric** (STM: every tile slid one cell is a move,
/// the field's usual metric) or the **multi-tile metric** (MTM: sliding 1 to k tiles of the
/// blank's row or column one cell each, in one motion, is one move — the speedsolving
/// community's metric).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Single-tile metric (the default).
    #[default]
    Stm,
    /// Multi-tile metric.
    Mtm,
}

impl Metric {
    /// Both metrics, in the order front ends list them.
    pub const ALL: [Metric; 2] = [Metric::Stm, Metric::Mtm];

    /// The metric's name: `stm` or `mtm`.
    pub const fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }

    /// The metric of a name (`stm`, `mtm`), if any.
    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The length of a single-tile move list in this metric: its length in STM,
    /// [`mtm_length`] in MTM. O(moves).
    pub fn length(self, moves: &[Move]) -> usize {
        match self {
            Metric::Stm => moves.len(),
            Metric::Mtm => mtm_length(moves),
        }
    }
}

/// How move lists are written: plain letters, one a tile (`RRUULDLD`), or with counts, one
/// letter a run (`R2U2LDLD`, the speedsolving notation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Notation {
    /// One letter a single-tile move: `RRUULDLD` (the default).
    #[default]
    Letters,
    /// One letter a run of one direction, its length after it when above 1: `R2U2LDLD`.
    Counts,
}

impl Notation {
    /// Both notations, in the order front ends list them.
    pub const ALL: [Notation; 2] = [Notation::Letters, Notation::Counts];

    /// The notation's name: `letters` or `counts`.
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Letters => "letters",
            Notation::Counts => "counts",
        }
    }

    /// The notation of a name (`letters`, `counts`), if any.
    pub fn from_name(name: &str) -> Option<Notation> {
        Notation::ALL.into_iter().find(|n| n.name() == name)
    }

    /// `moves` written in this notation. O(moves).
    pub fn format(self, moves: &[Move]) -> String {
        match self {
            Notation::Letters => moves_to_string(moves),
            Notation::Counts => moves_to_counts(moves),
        }
    }
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
        assert!(
            e.to_string()
                .starts_with("bad move character 'X' at position 1")
        );
        assert_eq!(
            e,
            MoveParseError {
                ch: 'X',
                position: 1
            }
        );
    }

    #[test]
    fn counts() {
        let ms = parse_moves("R2U2LDLD").unwrap();
        assert_eq!(moves_to_string(&ms), "RRUULDLD");
        assert_eq!(moves_to_counts(&ms), "R2U2LDLD");
        assert_eq!(mtm_length(&ms), 6);
        assert_eq!(mtm_length(&[]), 0);
        assert_eq!(
            parse_moves("r2, u 2l").unwrap(),
            parse_moves("RRUUL").unwrap()
        );
        assert_eq!(
            moves_to_string(&parse_moves("L12").unwrap()),
            "L".repeat(12)
        );
        // As written: R2R is two groups (two MTM moves) though the same path as R3.
        let g = parse_move_groups("R2RU").unwrap();
        assert_eq!(
            g.iter().map(|g| (g.dir, g.count)).collect::<Vec<_>>(),
            [(Move::Right, 2), (Move::Right, 1), (Move::Up, 1)]
        );
        assert_eq!(group_moves(&parse_moves("R2RU").unwrap()).len(), 2);
        // Spaces and commas are ignored inside a count too: `R2 3` is R23, never R3 (it was
        // read as RRR, the 2 silently dropped).
        for text in ["R2 3", "R2,3", "R 2 3", "r23"] {
            let g = parse_move_groups(text).unwrap();
            assert_eq!(
                g.iter().map(|g| (g.dir, g.count)).collect::<Vec<_>>(),
                [(Move::Right, 23)],
                "{text}"
            );
        }
        // Bad counts: before any letter, zero, too large; located at the first digit.
        for (text, ch, position) in [
            ("2R", '2', 0),
            ("R0", '0', 1),
            ("UR127", '1', 2),
            ("U 99999999999999999999", '9', 2),
        ] {
            assert_eq!(
                parse_move_groups(text),
                Err(MoveParseError { ch, position }),
                "{text}"
            );
        }
        assert_eq!(parse_moves("R126").unwrap().len(), 126);
        // Every string of letters round-trips through the counts notation.
        for text in ["", "U", "UU", "ULDRRRD", "LLLLLLLLLLLLUUUR"] {
            let ms = parse_moves(text).unwrap();
            assert_eq!(parse_moves(&moves_to_counts(&ms)).unwrap(), ms);
            assert_eq!(Notation::Counts.format(&ms), moves_to_counts(&ms));
            assert_eq!(Notation::Letters.format(&ms), text);
        }
        assert_eq!(Notation::from_name("counts"), Some(Notation::Counts));
        assert_eq!(Notation::from_name("x"), None);
    }
}
