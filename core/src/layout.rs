//! Board shapes and validated layouts (a permutation of the tiles `0..W*H` over the cells).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Largest supported width or height, in cells.
pub const MAX_SIDE: usize = 127;

/// A board shape: `width` columns by `height` rows, each in `2..=127`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    pub(crate) width: u8,
    pub(crate) height: u8,
}

/// Error for a shape outside `2..=127` × `2..=127` or a malformed `WxH` string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A side is smaller than 2 or larger than 127.
    #[error("board size {width}x{height} is out of range: width and height must each be 2..=127")]
    OutOfRange {
        /// Requested width (columns).
        width: usize,
        /// Requested height (rows).
        height: usize,
    },
    /// The text is not of the form `WxH`.
    #[error("bad board size {0:?}: expected WxH (W columns, H rows), e.g. 4x4 or 4x3")]
    Syntax(String),
}

impl Shape {
    /// A `width`×`height` shape.
    ///
    /// # Errors
    /// [`ShapeError::OutOfRange`] unless both sides are in `2..=127`.
    pub fn new(width: usize, height: usize) -> Result<Shape, ShapeError> {
        if !(2..=MAX_SIDE).contains(&width) || !(2..=MAX_SIDE).contains(&height) {
            return Err(ShapeError::OutOfRange { width, height });
        }
        Ok(Shape {
            width: width as u8,
            height: height as u8,
        })
    }

    /// The square `n`×`n` shape.
    ///
    /// # Errors
    /// As [`Shape::new`].
    pub fn square(n: usize) -> Result<Shape, ShapeError> {
        Shape::new(n, n)
    }

    /// Number of columns.
    #[inline]
    pub const fn width(self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[inline]
    pub const fn height(self) -> usize {
        self.height as usize
    }

    /// Number of cells, `W*H` (tiles `1..W*H` plus the blank).
    #[inline]
    pub const fn cells(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// `(row, column)` of a cell.
    #[inline]
    pub const fn coords(self, cell: usize) -> (usize, usize) {
        (cell / self.width as usize, cell % self.width as usize)
    }

    /// Manhattan distance between two cells, in moves.
    #[inline]
    pub const fn distance(self, a: usize, b: usize) -> usize {
        let (ra, ca) = self.coords(a);
        let (rb, cb) = self.coords(b);
        ra.abs_diff(rb) + ca.abs_diff(cb)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Parses `WxH` (`x`, `X` or `×`), W columns by H rows.
    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let t = s.trim();
        let (w, h) = t
            .split_once(['x', 'X', '×'])
            .ok_or_else(|| ShapeError::Syntax(s.to_string()))?;
        let w: usize = w
            .trim()
            .parse()
            .map_err(|_| ShapeError::Syntax(s.to_string()))?;
        let h: usize = h
            .trim()
            .parse()
            .map_err(|_| ShapeError::Syntax(s.to_string()))?;
        Shape::new(w, h)
    }
}

/// Error for a cell list that is not a permutation of `0..W*H`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The number of cells does not match the shape.
    #[error("{given} cells given, {expected} expected for a {shape} board")]
    WrongCount {
        /// Cells given.
        given: usize,
        /// `W*H`.
        expected: usize,
        /// The shape.
        shape: Shape,
    },
    /// A tile number is not in `0..W*H`.
    #[error(
        "tile {tile} at cell {cell} is out of range: a {shape} board has tiles 0..={max} (0 = blank)"
    )]
    OutOfRange {
        /// The tile number.
        tile: usize,
        /// Its 0-based row-major cell.
        cell: usize,
        /// Largest valid tile, `W*H - 1`.
        max: usize,
        /// The shape.
        shape: Shape,
    },
    /// A tile appears twice (so another is missing).
    #[error("duplicate tile {tile} at cells {first} and {second} (tile {missing} is missing)")]
    Duplicate {
        /// The duplicated tile.
        tile: usize,
        /// First 0-based cell holding it.
        first: usize,
        /// Second 0-based cell holding it.
        second: usize,
        /// Smallest tile that does not appear.
        missing: usize,
    },
}

/// A validated board layout: `cells[i]` is the tile in row-major cell `i`, `0` the blank, and the
/// cells hold each of `0..W*H` exactly once.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Layout {
    shape: Shape,
    cells: Vec<u16>,
}

impl Layout {
    /// Validates `cells` (row-major, tile numbers) for `shape`. O(W·H).
    ///
    /// # Errors
    /// [`LayoutError`] naming the wrong count, the out-of-range tile, or the duplicated tile.
    pub fn new(shape: Shape, cells: &[usize]) -> Result<Layout, LayoutError> {
        let n = shape.cells();
        if cells.len() != n {
            return Err(LayoutError::WrongCount {
                given: cells.len(),
                expected: n,
                shape,
            });
        }
        let mut seen = vec![usize::MAX; n];
        for (cell, &tile) in cells.iter().enumerate() {
            if tile >= n {
                return Err(LayoutError::OutOfRange {
                    tile,
                    cell,
                    max: n - 1,
                    shape,
                });
            }
            if seen[tile] != usize::MAX {
                let mut present = vec![false; n];
                for &t in cells.iter().filter(|&&t| t < n) {
                    present[t] = true;
                }
                let missing = present.iter().position(|p| !p).unwrap_or(0);
                return Err(LayoutError::Duplicate {
                    tile,
                    first: seen[tile],
                    second: cell,
                    missing,
                });
            }
            seen[tile] = cell;
        }
        Ok(Layout {
            shape,
            cells: cells.iter().map(|&t| t as u16).collect(),
        })
    }

    /// The goal with tiles `1..N-1` in order and the blank last.
    pub fn blank_last(shape: Shape) -> Layout {
        let n = shape.cells();
        Layout {
            shape,
            cells: (1..n).chain(std::iter::once(0)).map(|t| t as u16).collect(),
        }
    }

    /// The goal `0 1 .. N-1` with the blank first (Korf's convention).
    pub fn blank_first(shape: Shape) -> Layout {
        Layout {
            shape,
            cells: (0..shape.cells()).map(|t| t as u16).collect(),
        }
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The tiles in row-major order.
    #[inline]
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The tile in `cell`.
    ///
    /// # Panics
    /// If `cell >= W*H`.
    #[inline]
    pub fn tile(&self, cell: usize) -> usize {
        self.cells[cell] as usize
    }

    /// The blank's cell. O(W·H).
    pub fn blank(&self) -> usize {
        self.cells.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// `positions()[t]` = the cell holding tile `t`. O(W·H).
    pub fn positions(&self) -> Vec<u16> {
        let mut pos = vec![0u16; self.cells.len()];
        for (c, &t) in self.cells.iter().enumerate() {
            pos[t as usize] = c as u16;
        }
        pos
    }

    /// Swaps the blank with the tile that `m` slides, if legal; returns whether it was.
    pub fn apply(&mut self, m: crate::Move) -> bool {
        let b = self.blank();
        let (w, h) = (self.shape.width(), self.shape.height());
        if !crate::legal_moves(b, w, h).contains(m) {
            return false;
        }
        let t = m.blank_target(b, w);
        self.cells.swap(b, t);
        true
    }

    /// The layout as a hex string, one digit a cell (boards of at most 16 cells), e.g.
    /// `123456789abcdef0`; `None` for larger boards.
    pub fn to_hex(&self) -> Option<String> {
        if self.cells.len() > 16 {
            return None;
        }
        Some(
            self.cells
                .iter()
                .map(|&t| char::from_digit(u32::from(t), 16).unwrap_or('?'))
                .collect(),
        )
    }

    /// The layout as one line of space-separated numbers.
    pub fn to_line(&self) -> String {
        let v: Vec<String> = self.cells.iter().map(ToString::to_string).collect();
        v.join(" ")
    }

    /// The layout in **slash rows**, the speedsolving community's notation (the `slidy` crate):
    /// rows separated by `/`, numbers by spaces, e.g. `8 2 0/4 6 1/3 7 5`. O(cells).
    pub fn to_slash(&self) -> String {
        let w = self.shape.width();
        let rows: Vec<String> = self
            .cells
            .chunks(w)
            .map(|row| {
                let r: Vec<String> = row.iter().map(ToString::to_string).collect();
                r.join(" ")
            })
            .collect();
        rows.join("/")
    }

    /// A compact text form: hex for boards of at most 16 cells, a number list otherwise.
    pub fn to_compact(&self) -> String {
        self.to_hex().unwrap_or_else(|| self.to_line())
    }

    /// The layout as a grid, one row per line, right-aligned numbers, blank shown as `0`.
    pub fn to_grid(&self) -> String {
        let w = self.shape.width();
        let digits = (self.cells.len() - 1).to_string().len();
        let mut s = String::new();
        for row in self.cells.chunks(w) {
            let r: Vec<String> = row.iter().map(|t| format!("{t:>digits$}")).collect();
            s.push_str(&r.join(" "));
            s.push('\n');
        }
        s
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_compact())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_parse() {
        assert_eq!("4x3".parse::<Shape>().unwrap(), Shape::new(4, 3).unwrap());
        assert!(matches!(
            "1x3".parse::<Shape>(),
            Err(ShapeError::OutOfRange { .. })
        ));
        assert!(matches!(
            "128x3".parse::<Shape>(),
            Err(ShapeError::OutOfRange { .. })
        ));
        assert!(matches!(
            "4by3".parse::<Shape>(),
            Err(ShapeError::Syntax(_))
        ));
    }

    #[test]
    fn layout_errors_carry_data() {
        let s = Shape::square(3).unwrap();
        assert_eq!(
            Layout::new(s, &[1, 2, 3]).unwrap_err(),
            LayoutError::WrongCount {
                given: 3,
                expected: 9,
                shape: s
            }
        );
        assert_eq!(
            Layout::new(s, &[1, 2, 3, 4, 5, 6, 7, 9, 0]).unwrap_err(),
            LayoutError::OutOfRange {
                tile: 9,
                cell: 7,
                max: 8,
                shape: s
            }
        );
        assert_eq!(
            Layout::new(s, &[1, 2, 3, 4, 5, 6, 7, 7, 0]).unwrap_err(),
            LayoutError::Duplicate {
                tile: 7,
                first: 6,
                second: 7,
                missing: 8
            }
        );
        let l = Layout::new(s, &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        assert_eq!(l, Layout::blank_last(s));
        assert_eq!(l.to_hex().unwrap(), "123456780");
        assert_eq!(l.blank(), 8);
    }
}
