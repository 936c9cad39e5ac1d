//! **Partial goals**: goal boards in which some cells do not matter, as speedsolvers practise
//! them ("the first row", "the first two rows", "the fringe" of a 4×4).
//!
//! A partial goal gives some tiles their goal cells and leaves the others out (**don't-care**
//! tiles). The blank is either **fixed** (the goal board names tile `0`) or a **wildcard** (the
//! goal board does not name it: it may end on any cell no tile that matters must be on). A
//! board **reaches** the partial goal when every tile that matters is on its goal cell, and the
//! blank on its cell if it is fixed.
//!
//! ## Syntax ([`parse_partial`])
//! - A goal board in any row-major format [`crate::parse_board`] reads (the compact hex string,
//!   numbers on one line, rows over lines, slash rows) in which the cells that do not matter are
//!   written with a wildcard, one of [`WILDCARDS`] (`x`, `X`, `?`, `*`, `_`): `"1 2 3 4 x x x x
//!   x x x x x x x x"`, `1234xxxxxxxxxxxx`, `123/xxx/xxx`. Tiles not written are the don't-care
//!   tiles; the blank is fixed when `0` is written, else a wildcard. In the compact form (one hex
//!   digit a cell) a partial goal has at most 16 cells. The textbook format is not read here.
//! - Named goals, for any shape: `first-rows:K` (`first-row` = `first-rows:1`): the tiles of
//!   the first K rows of the blank-last goal, blank a wildcard; `fringe`: the first row and the
//!   first column, blank a wildcard.
//!
//! ## Solvability ([`PartialGoal::solvability`])
//! The boards that reach a partial goal are its **completions**: every way to put the
//! don't-care tiles (and a wildcard blank) on the cells left free. A board can reach the partial
//! goal iff one completion has the board's parity (see [`crate::Parity`]). With two or more
//! don't-care tiles every board can (exchanging two of them flips the parity); with one, the
//! completions are at most two (tile and wildcard blank exchanged on the two free cells), and
//! parity decides: both have the same verdict when the two free cells are an odd distance apart
//! (one is a move away from the other's parity class), so such a goal can be out of reach; a
//! partial goal with no don't-care tile is a full goal.

use std::fmt;

use crate::goal::{Goal, GoalShapeError, Parity};
use crate::layout::{Layout, Shape};
use crate::moves::{Metric, Move};
use crate::parse::{ParseError, parse_board};
use crate::verify::VerifyError;

/// The characters that mark a cell that does not matter in a partial goal board.
pub const WILDCARDS: [char; 5] = ['x', 'X', '?', '*', '_'];

/// A partial goal before it is resolved for a shape (like [`crate::GoalKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PartialKind {
    /// `first-rows:K`: the tiles of the blank-last goal's first K rows on their cells, blank a
    /// wildcard (needs 1 ≤ K < H).
    FirstRows(usize),
    /// `fringe`: the tiles of the blank-last goal's first row and first column, blank a
    /// wildcard.
    Fringe,
    /// An explicit partial goal board: for each cell (row-major) the tile that must be there
    /// (`Some(0)`: the blank is fixed there) or `None` (a wildcard cell).
    Board {
        /// The board's shape.
        shape: Shape,
        /// The tile each cell must hold, if any.
        cells: Vec<Option<u16>>,
    },
}

/// Why a partial goal is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PartialGoalError {
    /// The board text (wildcards aside) could not be read.
    #[error("partial goal {text:?}: {error}")]
    Parse {
        /// The goal text.
        text: String,
        /// What the board parser said.
        error: ParseError,
    },
    /// A character that is neither a hex digit nor a wildcard in the compact form, or a token
    /// that is neither a number nor a wildcard.
    #[error(
        "partial goal: bad token {token:?}: expected tile numbers, or one of x ? * _ for a cell that does not matter"
    )]
    BadToken {
        /// The token.
        token: String,
    },
    /// A compact (one hex digit a cell) partial goal of more than 16 cells.
    #[error(
        "partial goal: the compact form (one hex digit a cell) has at most 16 cells, {cells} given; separate the cells with spaces"
    )]
    CompactTooLong {
        /// Cells given.
        cells: usize,
    },
    /// A tile given twice.
    #[error("partial goal: tile {tile} is given twice, in cells {first} and {second}")]
    Duplicate {
        /// The tile.
        tile: usize,
        /// Its first cell.
        first: usize,
        /// Its second cell.
        second: usize,
    },
    /// A tile number the board does not have.
    #[error(
        "partial goal: tile {tile} does not exist: the goal has {cells} cells, so its tiles are 0 to {}", cells - 1
    )]
    OutOfRange {
        /// The tile.
        tile: usize,
        /// Cells of the goal (and of the board it is for).
        cells: usize,
    },
    /// The goal's cell count is not the board's (given by the `size` of [`parse_partial`]).
    #[error("partial goal: it has {cells} cells, but the board is {shape} ({} cells)", shape.cells())]
    Cells {
        /// Cells of the goal.
        cells: usize,
        /// The board's shape.
        shape: Shape,
    },
    /// Every cell is a wildcard.
    #[error(
        "partial goal: every cell is a wildcard; give at least one tile (or the blank, 0) its goal cell"
    )]
    NothingSpecified,
    /// The goal's shape is not the board's.
    #[error(transparent)]
    Shape(#[from] GoalShapeError),
    /// `first-rows:K` with K outside `1..H`.
    #[error(
        "partial goal first-rows:{rows} needs 1 to {} rows on a board of {height} rows (all {height} rows is the full goal)", height - 1
    )]
    Rows {
        /// K.
        rows: usize,
        /// The board's height.
        height: usize,
    },
    /// A named partial goal that does not exist, or a malformed `first-rows:K`.
    #[error("unknown partial goal {0:?}: expected first-row, first-rows:K or fringe")]
    Name(String),
}

/// Without a shape only a square board is read: a partial goal of `n` cells, `n` no square, gets
/// the error a full goal of `n` cells gets, before any tile is judged by `n` (`solve --goal
/// 12x45` meant a 3x3 goal: "tile 5 does not exist" would mislead).
fn square_cells(text: &str, n: usize) -> Result<(), PartialGoalError> {
    if n.isqrt() * n.isqrt() == n {
        return Ok(());
    }
    let probe = (0..n).map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
    parse_board(&probe, None)
        .map(|_| ())
        .map_err(|error| PartialGoalError::Parse {
            text: text.to_string(),
            error,
        })
}

/// Parses a partial goal: `first-row`, `first-rows:K`, `fringe`, or a goal board with wildcard
/// cells (see the [module docs](self)); `Ok(None)` when `text` is neither (no wildcard: a full
/// goal, for [`crate::parse_board`]). `size` gives the shape when the text does not (a
/// non-square board on one line). O(text).
///
/// # Errors
/// [`PartialGoalError`]: a bad token, a tile twice or out of range, a cell count other than
/// `size`'s, no cell specified, or the board parser's error for the board's shape.
///
/// # Panics
/// Never: each wildcard gets one of the tiles not written, which are exactly as many.
pub fn parse_partial(
    text: &str,
    size: Option<Shape>,
) -> Result<Option<PartialKind>, PartialGoalError> {
    let t = text.trim();
    match t {
        "fringe" => return Ok(Some(PartialKind::Fringe)),
        "first-row" => return Ok(Some(PartialKind::FirstRows(1))),
        _ => {}
    }
    if let Some(k) = t.strip_prefix("first-rows:") {
        return k
            .parse::<usize>()
            .map(|k| Some(PartialKind::FirstRows(k)))
            .map_err(|_| PartialGoalError::Name(t.to_string()));
    }
    if t.starts_with("first-") {
        return Err(PartialGoalError::Name(t.to_string()));
    }
    let is_wild = |c: char| WILDCARDS.contains(&c);
    let board_lines = || {
        t.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(|l| l.split(|c: char| c.is_whitespace() || c == ',' || c == '/'))
            .filter(|tok| !tok.is_empty())
    };
    if !board_lines().any(|tok| tok.chars().any(is_wild)) {
        return Ok(None);
    }
    // The compact form: a token of several characters with a wildcard is one cell a character.
    let compact = board_lines().any(|tok| tok.len() > 1 && tok.chars().any(is_wild));
    let mut cells: Vec<Option<usize>> = Vec::new();
    for tok in board_lines() {
        if compact {
            for c in tok.chars() {
                if is_wild(c) {
                    cells.push(None);
                } else if let Some(d) = c.to_digit(16) {
                    cells.push(Some(d as usize));
                } else {
                    return Err(PartialGoalError::BadToken {
                        token: tok.to_string(),
                    });
                }
            }
        } else if tok.len() == 1 && tok.chars().all(is_wild) {
            cells.push(None);
        } else {
            let v = tok
                .parse::<usize>()
                .ok()
                .filter(|_| tok.chars().all(|c| c.is_ascii_digit()))
                .ok_or_else(|| PartialGoalError::BadToken {
                    token: tok.to_string(),
                })?;
            cells.push(Some(v));
        }
    }
    let n = cells.len();
    if compact && n > 16 {
        return Err(PartialGoalError::CompactTooLong { cells: n });
    }
    if let Some(shape) = size
        && shape.cells() != n
    {
        return Err(PartialGoalError::Cells { cells: n, shape });
    }
    if size.is_none() {
        square_cells(text, n)?;
    }
    let mut seen = vec![usize::MAX; n];
    for (cell, &tile) in cells.iter().enumerate() {
        let Some(tile) = tile else { continue };
        if tile >= n {
            return Err(PartialGoalError::OutOfRange { tile, cells: n });
        }
        if seen[tile] != usize::MAX {
            return Err(PartialGoalError::Duplicate {
                tile,
                first: seen[tile],
                second: cell,
            });
        }
        seen[tile] = cell;
    }
    if cells.iter().all(Option::is_none) {
        return Err(PartialGoalError::NothingSpecified);
    }
    let filled = fill_wildcards(t, &seen, compact);
    let layout = parse_board(&filled, size).map_err(|error| PartialGoalError::Parse {
        text: text.to_string(),
        error,
    })?;
    let written: Vec<bool> = seen.iter().map(|&c| c != usize::MAX).collect();
    Ok(Some(PartialKind::Board {
        shape: layout.shape(),
        cells: layout
            .cells()
            .iter()
            .map(|&tile| written[tile as usize].then_some(tile))
            .collect(),
    }))
}

/// `text` with the tiles not written (`seen[tile] == usize::MAX`), in increasing order, on its
/// wildcard cells (hex digits in the compact form), so that the board parser finds the shape
/// from the text's rows. Comment lines are kept as they are.
fn fill_wildcards(text: &str, seen: &[usize], compact: bool) -> String {
    let is_wild = |c: char| WILDCARDS.contains(&c);
    let mut missing = (0..seen.len()).filter(|&tile| seen[tile] == usize::MAX);
    let mut filled = String::with_capacity(text.len() + seen.len());
    for line in text.lines() {
        if line.trim_start().starts_with('#') {
            filled.push_str(line);
        } else {
            for c in line.chars() {
                if is_wild(c) {
                    let tile = missing.next().expect("one tile not written per wildcard");
                    if compact {
                        filled.push(char::from_digit(tile as u32, 16).expect("at most 16 cells"));
                    } else {
                        filled.push_str(&tile.to_string());
                    }
                } else {
                    filled.push(c);
                }
            }
        }
        filled.push('\n');
    }
    filled
}

/// A partial goal resolved for one shape: for each cell the tile that must be there, if any.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PartialGoal {
    kind: PartialKind,
    shape: Shape,
    /// Per cell: the tile that must be there (`Some(0)`: the fixed blank).
    cells: Vec<Option<u16>>,
    /// Per tile: its goal cell, if it matters.
    cell_of: Vec<Option<u16>>,
    /// The tiles that matter, blank excluded, increasing.
    tiles: Vec<u16>,
}

impl PartialGoal {
    /// Resolves `kind` for boards of `shape`. O(W·H).
    ///
    /// # Errors
    /// [`PartialGoalError::Shape`] when a [`PartialKind::Board`] has another shape;
    /// [`PartialGoalError::Rows`] for `first-rows:K` outside `1..H`.
    pub fn new(kind: &PartialKind, shape: Shape) -> Result<PartialGoal, PartialGoalError> {
        let n = shape.cells();
        let (w, h) = (shape.width(), shape.height());
        let full = Layout::blank_last(shape);
        let cells: Vec<Option<u16>> = match kind {
            PartialKind::FirstRows(k) => {
                if *k == 0 || *k >= h {
                    return Err(PartialGoalError::Rows {
                        rows: *k,
                        height: h,
                    });
                }
                (0..n)
                    .map(|c| (c < k * w).then(|| full.cells()[c]))
                    .collect()
            }
            PartialKind::Fringe => (0..n)
                .map(|c| (c < w || c % w == 0).then(|| full.cells()[c]))
                .collect(),
            PartialKind::Board { shape: s, cells } => {
                if *s != shape {
                    return Err(GoalShapeError {
                        goal: *s,
                        board: shape,
                    }
                    .into());
                }
                cells.clone()
            }
        };
        let mut cell_of = vec![None; n];
        for (c, t) in cells.iter().enumerate() {
            if let Some(t) = t {
                cell_of[*t as usize] = Some(c as u16);
            }
        }
        let tiles = (1..n as u16)
            .filter(|&t| cell_of[t as usize].is_some())
            .collect();
        Ok(PartialGoal {
            kind: kind.clone(),
            shape,
            cells,
            cell_of,
            tiles,
        })
    }

    /// What this goal was resolved from.
    pub fn kind(&self) -> &PartialKind {
        &self.kind
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The tiles that matter, blank excluded, in increasing order.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The goal cell of `tile` if it matters (`0`: the blank's cell if it is fixed).
    ///
    /// # Panics
    /// If `tile >= W*H`.
    pub fn cell_of(&self, tile: usize) -> Option<usize> {
        self.cell_of[tile].map(usize::from)
    }

    /// The blank's goal cell, `None` when the blank is a wildcard.
    pub fn blank_cell(&self) -> Option<usize> {
        self.cell_of(0)
    }

    /// For each cell (row-major) the tile that must be there, if any.
    pub fn cells(&self) -> &[Option<u16>] {
        &self.cells
    }

    /// How many tiles (blank excluded) do not matter.
    pub fn free_tiles(&self) -> usize {
        self.shape.cells() - 1 - self.tiles.len()
    }

    /// Whether the board whose tile in cell `c` is `cells[c]` reaches this goal. O(tiles that
    /// matter).
    pub fn is_reached(&self, cells: &[u16]) -> bool {
        cells.len() == self.cells.len()
            && self
                .cells
                .iter()
                .zip(cells)
                .all(|(want, &have)| want.is_none_or(|t| t == have))
    }

    /// A short name: `first-rows:K`, `fringe`, or the goal board with `x` for the cells that
    /// do not matter (compact hex when it has at most 16 cells, else numbers separated by
    /// spaces).
    pub fn name(&self) -> String {
        match &self.kind {
            PartialKind::FirstRows(k) => format!("first-rows:{k}"),
            PartialKind::Fringe => "fringe".into(),
            PartialKind::Board { .. } => self.board_text(),
        }
    }

    /// The goal board with `x` for the cells that do not matter: compact hex when it has at
    /// most 16 cells, else numbers separated by spaces.
    ///
    /// # Panics
    /// Never: hex is used for tiles below 16 only.
    pub fn board_text(&self) -> String {
        let hex = self.cells.len() <= 16;
        let cell = |t: &Option<u16>| match t {
            None => "x".to_string(),
            Some(t) if hex => char::from_digit(u32::from(*t), 16)
                .expect("a hex digit")
                .to_string(),
            Some(t) => t.to_string(),
        };
        let v: Vec<String> = self.cells.iter().map(cell).collect();
        v.join(if hex { "" } else { " " })
    }

    /// The goal board as a grid, one row per line, `x` for the cells that do not matter.
    pub fn to_grid(&self) -> String {
        let w = self.shape.width();
        let digits = (self.cells.len() - 1).to_string().len();
        let mut s = String::new();
        for row in self.cells.chunks(w) {
            let r: Vec<String> = row
                .iter()
                .map(|t| match t {
                    Some(t) => format!("{t:>digits$}"),
                    None => format!("{:>digits$}", "x"),
                })
                .collect();
            s.push_str(&r.join(" "));
            s.push('\n');
        }
        s
    }

    /// The completions of this goal when it has at most one don't-care tile (at most two):
    /// every full goal board that reaches it. `None` with two or more don't-care tiles. O(W·H).
    ///
    /// # Panics
    /// Never: each completion is a permutation.
    pub fn completions(&self) -> Option<Vec<Layout>> {
        let n = self.shape.cells();
        let free_cells: Vec<usize> = (0..n).filter(|&c| self.cells[c].is_none()).collect();
        let mut free_tiles: Vec<usize> = (0..n).filter(|&t| self.cell_of[t].is_none()).collect();
        if free_tiles.len() > 2 || (free_tiles.len() == 2 && !free_tiles.contains(&0)) {
            return None;
        }
        let base: Vec<usize> = self
            .cells
            .iter()
            .map(|t| t.map_or(0, usize::from))
            .collect();
        let mut out = Vec::new();
        for _ in 0..free_tiles.len().max(1) {
            let mut cells = base.clone();
            for (&c, &t) in free_cells.iter().zip(&free_tiles) {
                cells[c] = t;
            }
            out.push(Layout::new(self.shape, &cells).expect("a permutation"));
            free_tiles.rotate_left(1);
        }
        Some(out)
    }

    /// A full goal that reaches this one: the don't-care tiles in increasing order on the
    /// free cells in row-major order, a wildcard blank on the last free cell. O(W·H).
    ///
    /// # Panics
    /// Never: there are as many free cells as don't-care tiles (and wildcard blank).
    pub fn canonical(&self) -> Layout {
        let n = self.shape.cells();
        let mut free_tiles = (1..n).filter(|&t| self.cell_of[t].is_none());
        let free_cells: Vec<usize> = (0..n).filter(|&c| self.cells[c].is_none()).collect();
        let mut cells: Vec<usize> = self
            .cells
            .iter()
            .map(|t| t.map_or(0, usize::from))
            .collect();
        let blank_free = self.cell_of[0].is_none();
        let placed = free_cells.len() - usize::from(blank_free);
        for &c in &free_cells[..placed] {
            cells[c] = free_tiles.next().expect("one free tile a free cell");
        }
        Layout::new(self.shape, &cells).expect("a permutation")
    }

    /// Decides whether `board` can reach this goal (see the [module docs](self)): with two
    /// or more don't-care tiles always; otherwise by parity against each completion. The
    /// returned [`Parity`] is that against the completion that decides (the first solvable
    /// one, else the canonical one); with two or more don't-care tiles it is the canonical
    /// completion's, its verdict replaced by "solvable" when it disagrees (another completion
    /// agrees). O(W·H).
    ///
    /// # Errors
    /// [`GoalShapeError`] when the shapes differ.
    ///
    /// # Panics
    /// Never: a partial goal has at least one completion.
    pub fn solvability(&self, board: &Layout) -> Result<Parity, GoalShapeError> {
        self.deciding_completion(board).map(|(_, p)| p)
    }

    /// [`PartialGoal::solvability`] with the completion that decides it: the first solvable
    /// one, else the first (with two or more don't-care tiles, the canonical one). O(W·H).
    ///
    /// # Errors
    /// [`GoalShapeError`] when the shapes differ.
    ///
    /// # Panics
    /// Never: a partial goal has at least one completion.
    pub fn deciding_completion(&self, board: &Layout) -> Result<(Layout, Parity), GoalShapeError> {
        if board.shape() != self.shape {
            return Err(GoalShapeError {
                goal: self.shape,
                board: board.shape(),
            });
        }
        match self.completions() {
            None => {
                let canonical = self.canonical();
                let mut p = Goal::custom(canonical.clone()).parity(board)?;
                p.solvable = true;
                Ok((canonical, p))
            }
            Some(all) => {
                let mut first = None;
                for l in all {
                    let p = Goal::custom(l.clone()).parity(board)?;
                    if p.solvable {
                        return Ok((l, p));
                    }
                    first.get_or_insert((l, p));
                }
                Ok(first.expect("at least one completion"))
            }
        }
    }
}

impl fmt::Display for PartialGoal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Replays `moves` from `start` on a plain `Layout` (independent of any engine) and checks
/// that they reach the partial goal; returns the board reached. O(W·H + moves).
///
/// # Errors
/// [`VerifyError`] naming the first illegal move, or the board reached instead of the goal
/// (its `goal` field is [`PartialGoal::board_text`]).
pub fn verify_partial(
    start: &Layout,
    moves: &[Move],
    goal: &PartialGoal,
) -> Result<Layout, VerifyError> {
    if start.shape() != goal.shape() {
        return Err(VerifyError::ShapeMismatch {
            start: start.shape(),
            goal: goal.shape(),
        });
    }
    let reached = crate::verify::replay(start, moves)?;
    if !goal.is_reached(reached.cells()) {
        return Err(VerifyError::NotGoal {
            moves: moves.len(),
            reached: reached.to_compact(),
            goal: goal.board_text(),
        });
    }
    Ok(reached)
}

/// An admissible estimate of the moves from a board to a partial goal, for the partial-goal
/// IDA\* (`npuzzle_idastar::partial`). Implementations see the board as `cells` (the tile in
/// each cell) and `pos` (the cell of each tile), and must return 0 on every board that
/// reaches the goal.
pub trait PartialHeuristic: Send + Sync {
    /// The name, for answers (`partial-manhattan`, `partial-pdb`).
    fn name(&self) -> &'static str;
    /// The metric in which the estimate is admissible (it is admissible in STM too: an MTM
    /// bound never exceeds the STM distance).
    fn metric(&self) -> Metric;
    /// The estimate, in moves of [`PartialHeuristic::metric`].
    fn estimate(&self, cells: &[u16], pos: &[u16]) -> u32;
}

/// Manhattan distance over the tiles that matter, plus their linear conflicts (STM), or the
/// multi-tile metric's bound: each direction's total distance divided by the most tiles one
/// move slides that way, rounded up (MTM, as `MtmManhattan`). Admissible for the partial goal
/// in its metric: tiles that do not matter add nothing. O(W·H) an estimate (the conflicts).
#[derive(Clone, Debug)]
pub struct PartialManhattan {
    metric: Metric,
    shape: Shape,
    /// (tile, goal cell) of each tile that matters.
    targets: Vec<(u16, u16)>,
    cell_of: Vec<Option<u16>>,
}

impl PartialManhattan {
    /// The estimate for `goal` in `metric`. O(W·H).
    ///
    /// # Panics
    /// Never: every tile of [`PartialGoal::tiles`] has a goal cell.
    pub fn new(goal: &PartialGoal, metric: Metric) -> PartialManhattan {
        PartialManhattan {
            metric,
            shape: goal.shape,
            targets: goal
                .tiles
                .iter()
                .map(|&t| (t, goal.cell_of[t as usize].expect("a tile that matters")))
                .collect(),
            cell_of: goal.cell_of.clone(),
        }
    }

    /// Linear conflicts along rows (`rows`) or columns: in each line, the tiles that matter
    /// whose goal cell is in that line must leave it, all but a longest subsequence already
    /// in goal order, each at two extra moves (Hansson et al. 1992). O(W·H).
    fn conflicts(&self, cells: &[u16], rows: bool) -> u32 {
        let (w, h) = (self.shape.width(), self.shape.height());
        let (lines, len) = if rows { (h, w) } else { (w, h) };
        let mut extra = 0;
        // No allocation per estimate: a line has at most 127 cells.
        let mut order = [0u8; crate::layout::MAX_SIDE];
        for line in 0..lines {
            let mut k = 0;
            for i in 0..len {
                let cell = if rows { line * w + i } else { i * w + line };
                let t = cells[cell] as usize;
                if t == 0 {
                    continue;
                }
                if let Some(g) = self.cell_of[t] {
                    let g = g as usize;
                    let (gl, gi) = if rows { (g / w, g % w) } else { (g % w, g / w) };
                    if gl == line {
                        order[k] = gi as u8;
                        k += 1;
                    }
                }
            }
            extra += 2 * (k - longest_increasing(&order[..k])) as u32;
        }
        extra
    }
}

/// The length of a longest strictly increasing subsequence. O(n²), n ≤ 127.
fn longest_increasing(v: &[u8]) -> usize {
    let mut best = [1u8; crate::layout::MAX_SIDE];
    for i in 0..v.len() {
        for j in 0..i {
            if v[j] < v[i] {
                best[i] = best[i].max(best[j] + 1);
            }
        }
    }
    best[..v.len()].iter().max().map_or(0, |&b| usize::from(b))
}

impl PartialHeuristic for PartialManhattan {
    fn name(&self) -> &'static str {
        "partial-manhattan"
    }

    fn metric(&self) -> Metric {
        self.metric
    }

    fn estimate(&self, cells: &[u16], pos: &[u16]) -> u32 {
        let w = self.shape.width();
        let (mut up, mut down, mut left, mut right) = (0usize, 0usize, 0usize, 0usize);
        for &(t, g) in &self.targets {
            let (p, g) = (pos[t as usize] as usize, g as usize);
            let (pr, pc, gr, gc) = (p / w, p % w, g / w, g % w);
            if gr < pr {
                up += pr - gr;
            } else {
                down += gr - pr;
            }
            if gc < pc {
                left += pc - gc;
            } else {
                right += gc - pc;
            }
        }
        match self.metric {
            Metric::Stm => {
                (up + down + left + right) as u32
                    + self.conflicts(cells, true)
                    + self.conflicts(cells, false)
            }
            Metric::Mtm => {
                let (hk, vk) = (w - 1, self.shape.height() - 1);
                (left.div_ceil(hk) + right.div_ceil(hk) + up.div_ceil(vk) + down.div_ceil(vk))
                    as u32
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> PartialKind {
        parse_partial(text, None).unwrap().unwrap()
    }

    #[test]
    fn forms_agree() {
        let s = Shape::square(3).unwrap();
        let a = PartialGoal::new(&kind("1 2 3 x x x x x x"), s).unwrap();
        for text in [
            "123xxxxxx",
            "123/xxx/xxx",
            "1 2 3\n? ? ?\n* * _",
            "1,2,3,x,x,x,x,x,x",
        ] {
            assert_eq!(
                PartialGoal::new(&kind(text), s).unwrap().cells(),
                a.cells(),
                "{text}"
            );
        }
        assert_eq!(a.tiles(), &[1, 2, 3]);
        assert_eq!(a.blank_cell(), None);
        assert_eq!(a.free_tiles(), 5);
        assert_eq!(a.board_text(), "123xxxxxx");
        assert_eq!(
            PartialGoal::new(&PartialKind::FirstRows(1), s)
                .unwrap()
                .cells(),
            a.cells()
        );
        let f = PartialGoal::new(&PartialKind::Fringe, Shape::square(4).unwrap()).unwrap();
        assert_eq!(f.board_text(), "12345xxx9xxxdxxx");
        assert_eq!(parse_partial("1 2 3 4 5 6 7 8 0", None), Ok(None));
        assert_eq!(parse_partial("blank-last", None), Ok(None));
        let fixed = PartialGoal::new(&kind("1 x x x x x x x 0"), s).unwrap();
        assert_eq!(fixed.blank_cell(), Some(8));
        assert!(matches!(
            parse_partial("1234xxxx", Some(Shape::new(4, 2).unwrap())),
            Ok(Some(_))
        ));
    }

    #[test]
    fn errors_name_the_data() {
        use PartialGoalError as E;
        assert!(matches!(
            parse_partial("1 1 x x", None),
            Err(E::Duplicate {
                tile: 1,
                first: 0,
                second: 1
            })
        ));
        assert!(matches!(
            parse_partial("1 9 x x", None),
            Err(E::OutOfRange { tile: 9, cells: 4 })
        ));
        // The goal's own cells bound its tiles; with the board's shape, its cell count must
        // match first (`check --goal 12x45` on a 3x3 board); without one, a count that is no
        // square is said to be so (`solve --goal 12x45`: before, "tile 5 does not exist").
        let e = parse_partial("12x45", None).unwrap_err();
        assert!(matches!(e, E::Parse { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "partial goal \"12x45\": 5 cells on line 1 do not form a square board; give the \
             shape with --size WxH (W columns, H rows)"
        );
        let e = parse_partial("1 2 x 4 0 5 6 7 9", None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "partial goal: tile 9 does not exist: the goal has 9 cells, so its tiles are 0 to 8"
        );
        let e = parse_partial("12x45", Some(Shape::square(3).unwrap())).unwrap_err();
        assert_eq!(
            e.to_string(),
            "partial goal: it has 5 cells, but the board is 3x3 (9 cells)"
        );
        assert!(matches!(
            parse_partial("x x x x", None),
            Err(E::NothingSpecified)
        ));
        assert!(matches!(
            parse_partial("1 y x x", None),
            Err(E::BadToken { .. })
        ));
        assert!(matches!(
            parse_partial("1g2x", None),
            Err(E::BadToken { .. })
        ));
        assert!(matches!(
            parse_partial("1 2 x x x", None),
            Err(E::Parse { .. })
        ));
        assert!(matches!(
            parse_partial(&"x".repeat(24).replacen('x', "1", 1), None),
            Err(E::CompactTooLong { cells: 24 })
        ));
        assert!(matches!(
            parse_partial("first-rows:two", None),
            Err(E::Name(_))
        ));
        let s = Shape::square(3).unwrap();
        assert!(matches!(
            PartialGoal::new(&PartialKind::FirstRows(3), s),
            Err(E::Rows { rows: 3, height: 3 })
        ));
        assert!(matches!(
            PartialGoal::new(&kind("1xxx"), s),
            Err(E::Shape(_))
        ));
        for e in [E::NothingSpecified, E::Rows { rows: 0, height: 4 }] {
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn solvability_by_completions() {
        let s = Shape::square(3).unwrap();
        let board = crate::parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        // Two or more don't-care tiles: always.
        assert!(
            PartialGoal::new(&kind("1 2 3 4 5 6 x x 0"), s)
                .unwrap()
                .solvability(&board)
                .unwrap()
                .solvable
        );
        // One don't-care tile, blank fixed: one completion, parity decides.
        let one = PartialGoal::new(&kind("1 2 3 4 5 6 7 x 0"), s).unwrap();
        assert_eq!(one.completions().unwrap().len(), 1);
        let goal = Goal::blank_last(s);
        assert_eq!(
            one.solvability(&board).unwrap().solvable,
            goal.parity(&board).unwrap().solvable
        );
        // One don't-care tile, blank a wildcard, free cells 7 and 8 (adjacent): two
        // completions a move apart, so parity still decides.
        let two = PartialGoal::new(&kind("1 2 3 4 5 6 7 x x"), s).unwrap();
        assert_eq!(two.completions().unwrap().len(), 2);
        let mut swapped: Vec<usize> = goal.layout().cells().iter().map(|&t| t as usize).collect();
        swapped.swap(0, 1);
        let odd = Layout::new(s, &swapped).unwrap();
        assert!(!two.solvability(&odd).unwrap().solvable);
        // Free cells 6 and 8 (an even distance apart): one completion always agrees.
        let even = PartialGoal::new(&kind("1 2 3 4 5 6 x 7 x"), s).unwrap();
        assert!(even.solvability(&odd).unwrap().solvable);
        assert!(even.solvability(goal.layout()).unwrap().solvable);
    }

    #[test]
    fn manhattan_counts_only_tiles_that_matter() {
        let s = Shape::square(3).unwrap();
        let g = PartialGoal::new(&kind("1 2 3 x x x x x x"), s).unwrap();
        let b = crate::parse_board("2 1 0 3 4 5 6 7 8", None).unwrap();
        let pos = b.positions();
        // 2 and 1 swapped in row 0 (1 + 1 + a conflict of 2), 3 one row down and two
        // columns right (3); the tiles that do not matter add nothing.
        assert_eq!(
            PartialManhattan::new(&g, Metric::Stm).estimate(b.cells(), &pos),
            7
        );
        // MTM: left 1, right 1 + 2, up 1, at most 2 tiles a move: 1 + 2 + 1.
        assert_eq!(
            PartialManhattan::new(&g, Metric::Mtm).estimate(b.cells(), &pos),
            4
        );
        let done = crate::parse_board("1 2 3 8 7 6 5 4 0", None).unwrap();
        assert!(g.is_reached(done.cells()));
        assert_eq!(
            PartialManhattan::new(&g, Metric::Stm).estimate(done.cells(), &done.positions()),
            0
        );
    }

    #[test]
    fn verify_partial_replays() {
        let s = Shape::square(3).unwrap();
        let g = PartialGoal::new(&kind("1 2 3 x x x x x x"), s).unwrap();
        let b = crate::parse_board("1 2 0 4 5 3 6 7 8", None).unwrap();
        assert!(verify_partial(&b, &crate::parse_moves("").unwrap(), &g).is_err());
        assert!(verify_partial(&b, &crate::parse_moves("D").unwrap(), &g).is_err());
        let reached = verify_partial(&b, &crate::parse_moves("U").unwrap(), &g).unwrap();
        assert_eq!(reached.cells()[5], 0);
        let g2 = PartialGoal::new(&kind("1 2 3 x x x x x x"), s).unwrap();
        let b2 = crate::parse_board("1 2 3 4 5 0 6 7 8", None).unwrap();
        assert_eq!(verify_partial(&b2, &[], &g2).unwrap(), b2);
    }
}
