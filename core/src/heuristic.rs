//! Admissible heuristics, each with a from-scratch and an incremental form.
//!
//! | heuristic | value | incremental update |
//! |---|---|---|
//! | [`Hamming`] | tiles not on their goal cell | O(1) |
//! | [`Manhattan`] | sum over tiles of the Manhattan distance to the goal cell | O(1), one table lookup |
//! | [`LinearConflict`] | Manhattan + 2 × (tiles to remove from each row/column so the rest are in goal order) | O(1), or O(W) / O(H) when the tile enters or leaves its goal line: one pass over that line and two lookups in a shared table for lines of at most 7 cells (patience sorting above) |
//!
//! All are admissible (never overestimate the number of moves) and consistent (change by at most
//! one per move, in the right parity for Manhattan), relative to the [`Goal`] they were built for.
//! Linear conflict follows Hansson, Mayer & Yung (1992), counting for each line the tiles outside
//! a longest subsequence already in goal order, which is the admissible form.

use crate::board::Board;
use crate::goal::Goal;
use crate::layout::Shape;
use crate::moves::Move;

/// A heuristic estimate of the number of moves to the goal.
///
/// `update(b, h, m)` must equal `estimate(&b.neighbor(m))` whenever `h == estimate(b)`, and so
/// must the `h` of [`Heuristic::update_memo`] along any path started with
/// [`Heuristic::estimate_memo`]; property tests in this crate check that after random walks on
/// every board shape.
pub trait Heuristic<B: Board>: Send + Sync {
    /// The heuristic's CLI and bench name (`manhattan`, `linear-conflict`, `hamming`, ...).
    fn name(&self) -> &'static str;

    /// What the heuristic is proven to be: admissible (never above the true distance) and
    /// consistent (`h(parent) <= 1 + h(child)` for every move). Engines decide what their answers
    /// prove from it (see [`crate::Solver::guarantee`]), so a heuristic must claim only what is
    /// proven: say `false` when in doubt.
    fn properties(&self) -> HeuristicProperties;

    /// The estimate computed from scratch, in moves.
    fn estimate(&self, board: &B) -> u32;

    /// The estimate after applying the legal move `m` to `board` (the board **before** the
    /// move), given `h = estimate(board)`. O(1) for Manhattan and Hamming.
    fn update(&self, board: &B, h: u32, m: Move) -> u32;

    /// Per-node state the heuristic carries down a depth-first search path, so that a child's
    /// estimate can reuse the parent's work (a pattern database keeps its per-group values
    /// there). `()` for heuristics whose [`Heuristic::update`] needs nothing but `h`.
    ///
    /// `Send + Sync` so that parallel IDA* (`npuzzle-idastar`'s `IdaStar::threads`) can hand
    /// the nodes of its frontier, memo included, to worker threads; plain data always is.
    type Memo: Copy + Default + Send + Sync;

    /// [`Heuristic::estimate`] together with the board's memo. The default returns
    /// `Memo::default()`.
    fn estimate_memo(&self, board: &B) -> (u32, Self::Memo) {
        (self.estimate(board), Self::Memo::default())
    }

    /// [`Heuristic::update`] with the parent's memo: given `(h, memo)` from
    /// [`Heuristic::estimate_memo`] of `board` (or from the `update_memo` that produced
    /// `board`), returns the estimate of the child after `m` — the same value
    /// [`Heuristic::update`] returns — and the child's memo. IDA* uses this form; engines that
    /// store states use [`Heuristic::update`]. The default calls `update` and copies the memo.
    #[inline]
    fn update_memo(&self, board: &B, h: u32, memo: &Self::Memo, m: Move) -> (u32, Self::Memo) {
        (self.update(board, h, m), *memo)
    }

    /// [`Heuristic::update_memo`] for a search that prunes every child whose estimate exceeds
    /// `bound` (IDA* passes `threshold − g(child)`): returns the same value and memo as
    /// `update_memo` when that value is at most `bound`; otherwise it may stop as soon as it
    /// knows the child is pruned and return any value `v` with `bound < v ≤ update_memo`'s value
    /// — still an admissible estimate — and a memo that must not be used.
    ///
    /// A pattern database with the reflected lookup computes the reflected sum only when the
    /// direct sum does not already exceed the bound (Korf & Felner 2002 do the same). The
    /// smaller value can only lower the next IDA* threshold, never raise it, so IDA* stays
    /// optimal; when every estimate has the parity of the distance (Manhattan distance, pattern
    /// databases) every value above `bound` is at least `bound + 2` and the thresholds, and so
    /// the node counts, are unchanged. The default calls `update_memo`.
    #[inline]
    fn update_memo_bounded(
        &self,
        board: &B,
        h: u32,
        memo: &Self::Memo,
        m: Move,
        bound: u32,
    ) -> (u32, Self::Memo) {
        let _ = bound;
        self.update_memo(board, h, memo, m)
    }

    /// An admissible lower bound on the distance of a node to the goal, from the `h` and memo
    /// that [`Heuristic::estimate_memo`] or [`Heuristic::update_memo`] gave it: `h` itself when
    /// the heuristic is admissible (the default), `None` when nothing is known. A ranking that
    /// is not admissible but carries an admissible value in its memo returns that value, so
    /// that a search ranking by it still prunes with a bound (beam search does). O(1).
    #[inline]
    fn lower_bound(&self, h: u32, memo: &Self::Memo) -> Option<u32> {
        let _ = memo;
        self.properties().admissible.then_some(h)
    }

    /// The same heuristic built for another goal, or `None` when it cannot be rebuilt (the
    /// default: for example a table computed for one goal only).
    ///
    /// Bidirectional search uses it to estimate distances **to the start board**, by building
    /// the heuristic with the start board as its goal ([`Goal::custom`]); a heuristic that
    /// returns `None` guides the forward search only. Costs what the heuristic's constructor
    /// costs (O(N²) for [`Manhattan`] and [`LinearConflict`], O(N) for [`Hamming`]).
    fn for_goal(&self, goal: &Goal) -> Option<Self>
    where
        Self: Sized,
    {
        let _ = goal;
        None
    }

    /// Whether [`Heuristic::slide_estimates`] is faster than estimating the children one at a
    /// time (it overlaps table lookups): a search calls it only then. `false`, the default:
    /// the default `slide_estimates` slides the tiles twice and copies every memo.
    #[inline]
    fn batches_slides(&self) -> bool {
        false
    }

    /// The estimates of the children of a multi-tile slide in direction `m` from `board`
    /// (estimate `h`, memo `memo`): `out[i]` for the board after `i + 1` tiles of the blank's
    /// line slid, for a search that prunes every child above `bound`; the slide must be legal
    /// for `out.len()` tiles. Each entry is what [`Heuristic::update_memo_bounded`] gives that
    /// child from the board before it (with `bound`) when the memo has no bytes — a value above
    /// `bound` may then be any admissible one above it, with a memo that must not be used —
    /// and what [`Heuristic::update_memo`] gives otherwise (the next tile's estimate starts
    /// from the memo). The default computes them in that order, one tile at a time; a table
    /// heuristic may compute every child's indices first so that the lookups overlap. `board`
    /// is the same board on return (the default slides the tiles and slides them back).
    /// O(`out.len()` · the cost of an update).
    #[inline]
    fn slide_estimates(
        &self,
        board: &mut B,
        parent: (u32, &Self::Memo),
        m: Move,
        bound: u32,
        out: &mut [(u32, Self::Memo)],
    ) {
        slide_estimates_in_turn(self, board, parent, m, bound, out);
    }

    /// This heuristic as plain [`Manhattan`] distance, when it is exactly that: lets an engine
    /// run a loop specialised for it (IDA* on the bitboard does). `None`, the default, for
    /// every other heuristic, including those built on Manhattan distance.
    fn as_manhattan(&self) -> Option<&Manhattan> {
        None
    }

    /// This heuristic as the tables of an additive disjoint pattern database, when it is
    /// exactly the sum (or maximum of the direct and reflected sums) that
    /// [`crate::AdditiveTables`] describes: lets an engine run a loop specialised for it
    /// (IDA\* does, on boards of at most 32 cells). `None`, the default, for every other
    /// heuristic. O(groups) time (the view borrows the tables).
    fn as_additive_tables(&self) -> Option<crate::AdditiveTables<'_>> {
        None
    }
}

/// The estimate after one more tile of a multi-tile slide `m` from `board` (estimate `h`,
/// memo `memo`), for a child that is pruned above `bound`: [`Heuristic::update_memo_bounded`]
/// when the memo has no bytes (a bounded estimate leaves a memo that must not be used; a memo
/// of no bytes carries nothing, so the next tile of the slide may start from it, and the
/// multi-tile tables stop at their first lookup above the bound), [`Heuristic::update_memo`]
/// otherwise. The step of [`slide_estimates_in_turn`], and of the multi-tile searches for
/// slides they do not batch. O(the cost of an update).
#[inline]
pub fn slide_step_estimate<B: Board, H: Heuristic<B> + ?Sized>(
    heuristic: &H,
    board: &B,
    (h, memo): (u32, &H::Memo),
    m: Move,
    bound: u32,
) -> (u32, H::Memo) {
    if size_of::<H::Memo>() == 0 {
        heuristic.update_memo_bounded(board, h, memo, m, bound)
    } else {
        heuristic.update_memo(board, h, memo, m)
    }
}

/// [`Heuristic::slide_estimates`] one child at a time (its default): each tile of the slide
/// `m` estimated by [`slide_step_estimate`] from the one before and slid, then every tile slid
/// back, so that `board` is the same on return. O(`out.len()` · the cost of an update).
#[inline]
pub fn slide_estimates_in_turn<B: Board, H: Heuristic<B> + ?Sized>(
    heuristic: &H,
    board: &mut B,
    (h, memo): (u32, &H::Memo),
    m: Move,
    bound: u32,
    out: &mut [(u32, H::Memo)],
) {
    let (mut h, mut memo) = (h, *memo);
    for slot in out.iter_mut() {
        (h, memo) = slide_step_estimate(heuristic, board, (h, &memo), m, bound);
        board.apply(m);
        *slot = (h, memo);
    }
    for _ in 0..out.len() {
        board.apply(m.inverse());
    }
}

/// The declared properties of a heuristic, from which an engine decides what its answer
/// proves (see [`crate::Guarantee`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct HeuristicProperties {
    /// Never overestimates the number of moves to the goal: IDA\*, A\* (which reopens states)
    /// and bidirectional search return optimal solutions with it.
    pub admissible: bool,
    /// Admissible, and changes by at most one per move (`h(parent) <= 1 + h(child)`), so that
    /// an engine that never reopens a state (weighted A\*) keeps its bound.
    pub consistent: bool,
}

impl HeuristicProperties {
    /// Admissible and consistent: Manhattan distance, linear conflict, Hamming, zero.
    pub const CONSISTENT: HeuristicProperties = HeuristicProperties {
        admissible: true,
        consistent: true,
    };
    /// Admissible but not proven consistent: additive pattern databases minimised over the
    /// blank's region (see `npuzzle-pdb`).
    pub const ADMISSIBLE: HeuristicProperties = HeuristicProperties {
        admissible: true,
        consistent: false,
    };
    /// Neither: an estimate that may overestimate, for guidance only.
    pub const NONE: HeuristicProperties = HeuristicProperties {
        admissible: false,
        consistent: false,
    };
}

/// The tile's destination cell when it slides by `m`, from `from`.
#[inline]
fn tile_dest(m: Move, from: usize, width: usize) -> usize {
    match m {
        Move::Down => from + width,
        Move::Right => from + 1,
        Move::Left => from - 1,
        Move::Up => from - width,
    }
}

/// The Manhattan-distance heuristic: the sum, over all tiles except the blank, of the row and
/// column distance between the tile's cell and its goal cell.
///
/// Memory: for boards of at most 1024 cells a table of at most `8·N²` bytes of per-move deltas
/// (1 KiB for the 15-puzzle, plus a fixed-size 1 KiB copy without bounds checks for boards of at
/// most 16 cells), so an update is one lookup; larger boards compute from coordinates.
#[derive(Clone, Debug)]
pub struct Manhattan {
    shape: Shape,
    tile_shift: u32,
    /// The delta table again, fixed-size, for boards of at most 16 cells (where `tile_shift` is
    /// at most 6).
    small: Option<Box<[i8; 1024]>>,
    goal_row: Vec<u16>,
    goal_col: Vec<u16>,
    /// `delta[tile << tile_shift | from << 2 | m]`: change of distance when `tile` slides by `m`
    /// from `from`.
    delta: Vec<i8>,
}

impl Manhattan {
    /// Largest board (in cells) for which the delta table is built.
    pub const TABLE_CELLS: usize = 1024;

    /// Builds the heuristic for `goal`. O(N²) time and memory for N ≤ 1024 cells, else O(N).
    pub fn new(goal: &Goal) -> Manhattan {
        let shape = goal.shape();
        let n = shape.cells();
        let w = shape.width();
        let goal_row: Vec<u16> = (0..n)
            .map(|t| shape.coords(goal.cell_of(t)).0 as u16)
            .collect();
        let goal_col: Vec<u16> = (0..n)
            .map(|t| shape.coords(goal.cell_of(t)).1 as u16)
            .collect();
        let mut delta = Vec::new();
        // Index = tile << tile_shift | from << 2 | move: shifts, no multiplication.
        let tile_shift = n.next_power_of_two().trailing_zeros() + 2;
        if n <= Self::TABLE_CELLS {
            delta = vec![0i8; n << tile_shift];
            for tile in 1..n {
                let g = goal.cell_of(tile);
                for from in 0..n {
                    let (r, c) = shape.coords(from);
                    for m in Move::ALL {
                        let ok = match m {
                            Move::Down => r + 1 < shape.height(),
                            Move::Right => c + 1 < w,
                            Move::Left => c > 0,
                            Move::Up => r > 0,
                        };
                        if ok {
                            let to = tile_dest(m, from, w);
                            let d = shape.distance(to, g) as i32 - shape.distance(from, g) as i32;
                            delta[(tile << tile_shift) | (from << 2) | m.index()] = d as i8;
                        }
                    }
                }
            }
        }
        Manhattan {
            shape,
            tile_shift,
            small: (n <= 16).then(|| {
                let mut t = Box::new([0i8; 1024]);
                for tile in 0..n {
                    for from in 0..n {
                        for m in 0..4 {
                            t[(tile << 6) | (from << 2) | m] =
                                delta[(tile << tile_shift) | (from << 2) | m];
                        }
                    }
                }
                t
            }),
            goal_row,
            goal_col,
            delta,
        }
    }

    /// The per-move delta table of boards of at most 16 cells, `None` on larger boards: entry
    /// `tile << 6 | from << 2 | m` is the change of the distance when `tile` slides from cell
    /// `from` by the move of [`Move::index`] `m` (0 where that move is impossible).
    #[inline]
    pub fn small_delta_table(&self) -> Option<&[i8; 1024]> {
        self.small.as_deref()
    }

    /// Manhattan distance of `tile` standing on `cell` to its goal cell.
    #[inline]
    pub fn tile_distance(&self, tile: usize, cell: usize) -> u32 {
        let (r, c) = self.shape.coords(cell);
        (r.abs_diff(self.goal_row[tile] as usize) + c.abs_diff(self.goal_col[tile] as usize)) as u32
    }

    /// Change of the distance when the tile next to the blank slides by `m`.
    #[expect(
        clippy::inline_always,
        reason = "hot path of every engine; measured faster than #[inline]"
    )]
    #[inline(always)]
    fn delta<B: Board>(&self, board: &B, m: Move) -> i32 {
        let blank = board.blank();
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        if let Some(small) = &self.small {
            // Boards of at most 16 cells: constant shifts, no bounds check.
            return i32::from(small[((tile << 6) | (from << 2) | m.index()) & 1023]);
        }
        // One bounds check doubles as the test for the table (empty above TABLE_CELLS).
        match self
            .delta
            .get((tile << self.tile_shift) | (from << 2) | m.index())
        {
            Some(&d) => i32::from(d),
            None => self.delta_slow(tile, from, blank),
        }
    }

    #[cold]
    #[inline(never)]
    fn delta_slow(&self, tile: usize, from: usize, to: usize) -> i32 {
        self.tile_distance(tile, to) as i32 - self.tile_distance(tile, from) as i32
    }
}

impl<B: Board> Heuristic<B> for Manhattan {
    type Memo = ();

    fn as_manhattan(&self) -> Option<&Manhattan> {
        Some(self)
    }

    fn for_goal(&self, goal: &Goal) -> Option<Self> {
        Some(Manhattan::new(goal))
    }

    fn name(&self) -> &'static str {
        "manhattan"
    }

    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, board: &B) -> u32 {
        (0..self.shape.cells())
            .filter_map(|c| {
                let t = board.tile(c);
                (t != 0).then(|| self.tile_distance(t, c))
            })
            .sum()
    }

    #[inline]
    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        (h as i32 + self.delta(board, m)) as u32
    }
}

/// A lower bound on the **multi-tile metric** (MTM) distance, where one move slides 1 to k
/// tiles of the blank's row or column one cell each (cost 1): Manhattan distance split by
/// direction, each part divided by the most tiles one move can slide, rounded up:
///
/// `h = ⌈D/(H−1)⌉ + ⌈U/(H−1)⌉ + ⌈R/(W−1)⌉ + ⌈L/(W−1)⌉`,
///
/// where D (U) sums how many rows each tile lies above (below) its goal row, and R (L) how many
/// columns each tile lies left (right) of its goal column, on a W×H board.
///
/// **Admissible in MTM**: a move that slides tiles down moves at most H−1 tiles (those between
/// the blank and the edge of its column) one row each, all down, so it lowers D by at most
/// H−1 and cannot lower U, R or L (a tile that moves down away from its goal row raises U); the
/// same holds for each direction. So the moves down number at least ⌈D/(H−1)⌉, and so on; the
/// four kinds of moves are distinct moves. **Consistent** in MTM for the same reason (a move
/// lowers only one of the four terms, by at most 1), and admissible and consistent in the
/// single-tile metric too (an STM move is an MTM move). Plain Manhattan distance is **not**
/// admissible in MTM: `R2` alone has Manhattan distance 2.
///
/// It is weak (about Manhattan/(W−1)): [`crate::WalkingDistance`] built in MTM dominates it.
/// O(N) per estimate; `update` computes the child's estimate from scratch, O(N);
/// `update_memo` (IDA\*) keeps the four sums in its memo and updates the one the moving tile
/// changes, O(1).
#[derive(Clone, Debug)]
pub struct MtmManhattan {
    shape: Shape,
    goal_row: Vec<u16>,
    goal_col: Vec<u16>,
}

impl MtmManhattan {
    /// Builds the bound for `goal`. O(N).
    pub fn new(goal: &Goal) -> MtmManhattan {
        let shape = goal.shape();
        let n = shape.cells();
        MtmManhattan {
            shape,
            goal_row: (0..n)
                .map(|t| shape.coords(goal.cell_of(t)).0 as u16)
                .collect(),
            goal_col: (0..n)
                .map(|t| shape.coords(goal.cell_of(t)).1 as u16)
                .collect(),
        }
    }

    /// The four directional sums `[D, U, R, L]` (see the type's docs) of the tiles in `tile_at`
    /// order (cell by cell). O(N).
    fn sums(&self, tile_at: impl Fn(usize) -> usize) -> [u32; 4] {
        let w = self.shape.width();
        let mut s = [0u32; 4];
        for c in 0..self.shape.cells() {
            let t = tile_at(c);
            if t == 0 {
                continue;
            }
            let (r, col) = (c / w, c % w);
            let (gr, gc) = (usize::from(self.goal_row[t]), usize::from(self.goal_col[t]));
            if r < gr {
                s[0] += (gr - r) as u32;
            } else {
                s[1] += (r - gr) as u32;
            }
            if col < gc {
                s[2] += (gc - col) as u32;
            } else {
                s[3] += (col - gc) as u32;
            }
        }
        s
    }

    /// The bound of a layout (the same value as [`Heuristic::estimate`] on any board type).
    /// O(N).
    pub fn estimate_layout(&self, layout: &crate::Layout) -> u32 {
        self.bound_of_sums(self.sums(|c| layout.tile(c)))
    }

    fn bound_of_sums(&self, s: [u32; 4]) -> u32 {
        let v = (self.shape.height() - 1) as u32;
        let h = (self.shape.width() - 1) as u32;
        s[0].div_ceil(v) + s[1].div_ceil(v) + s[2].div_ceil(h) + s[3].div_ceil(h)
    }
}

impl<B: Board> Heuristic<B> for MtmManhattan {
    fn for_goal(&self, goal: &Goal) -> Option<Self> {
        Some(MtmManhattan::new(goal))
    }

    fn name(&self) -> &'static str {
        "mtm-manhattan"
    }

    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, board: &B) -> u32 {
        self.bound_of_sums(self.sums(|c| board.tile(c)))
    }

    fn update(&self, board: &B, _h: u32, m: Move) -> u32 {
        self.estimate(&board.neighbor(m))
    }

    /// The four sums `[D, U, R, L]`.
    type Memo = [u32; 4];

    fn estimate_memo(&self, board: &B) -> (u32, [u32; 4]) {
        let s = self.sums(|c| board.tile(c));
        (self.bound_of_sums(s), s)
    }

    /// O(1): the moving tile changes one row (column) distance by one, so one of the four sums.
    #[inline]
    fn update_memo(&self, board: &B, _h: u32, memo: &[u32; 4], m: Move) -> (u32, [u32; 4]) {
        let w = self.shape.width();
        let from = board.tile_cell(m);
        let to = board.blank();
        let t = board.tile(from);
        let mut s = *memo;
        // Remove the tile's part at `from`, add it at `to`: D/U for rows, R/L for columns.
        let (a, b, goal, i) = if m.is_vertical() {
            (from / w, to / w, usize::from(self.goal_row[t]), 0)
        } else {
            (from % w, to % w, usize::from(self.goal_col[t]), 2)
        };
        for (pos, add) in [(a, false), (b, true)] {
            let (k, d) = if pos < goal {
                (i, goal - pos)
            } else {
                (i + 1, pos - goal)
            };
            if add {
                s[k] += d as u32;
            } else {
                s[k] -= d as u32;
            }
        }
        (self.bound_of_sums(s), s)
    }
}

/// Manhattan distance plus linear conflicts (Hansson, Mayer & Yung 1992).
///
/// For each row (column), take the tiles whose goal cell is in that row (column); the tiles outside
/// a longest subsequence already in goal order must each leave the line and come back, two extra
/// moves each. Admissible and consistent; dominates [`Manhattan`].
#[derive(Clone)]
pub struct LinearConflict {
    md: Manhattan,
    /// Row of each cell.
    row_of: Vec<u16>,
    /// Column of each cell.
    col_of: Vec<u16>,
    /// The conflict tables of the rows (W cells) and of the columns (H cells), where the lines
    /// are short enough to have one.
    rows: Option<LineTables>,
    cols: Option<LineTables>,
}

/// What [`LinearConflict::update`] reads for the lines of one orientation (rows or columns)
/// of at most [`TABLE_MAX_LINE`] cells.
#[derive(Clone)]
struct LineTables {
    /// The shared [`conflict_table`] of the lines' length.
    conflicts: &'static [u8],
    /// `codes[l · N + t]`: tile `t`'s 3-bit code in line `l` (its goal position within the
    /// line if line `l` is its goal line, else 7; 7 for the blank).
    codes: Vec<u8>,
}

impl LineTables {
    /// The tables of lines of `len` cells, `lines` of them, where `coords` gives a cell's
    /// (line, position within the line); `None` above [`TABLE_MAX_LINE`] cells.
    fn new(
        goal: &Goal,
        len: usize,
        lines: usize,
        coords: impl Fn(usize) -> (usize, usize),
    ) -> Option<LineTables> {
        let conflicts = conflict_table(len)?;
        let n = goal.shape().cells();
        let mut codes = vec![7u8; lines * n];
        for t in 1..n {
            let (line, pos) = coords(goal.cell_of(t));
            codes[line * n + t] = pos as u8;
        }
        Some(LineTables { conflicts, codes })
    }
}

impl std::fmt::Debug for LinearConflict {
    /// The goal's shape and whether rows and columns use a conflict table (the tables
    /// themselves, up to 2 MiB, are left out).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinearConflict")
            .field("shape", &self.md.shape)
            .field("row_table", &self.rows.is_some())
            .field("col_table", &self.cols.is_some())
            .finish_non_exhaustive()
    }
}

impl LinearConflict {
    /// Builds the heuristic for `goal`. Same cost as [`Manhattan::new`], plus, the first time
    /// in the process that lines of a length of at most 7 cells are seen, building their
    /// shared conflict table (8^len bytes; about 2 MiB and 10 ms for 7 cells).
    pub fn new(goal: &Goal) -> LinearConflict {
        let shape = goal.shape();
        let n = shape.cells();
        LinearConflict {
            md: Manhattan::new(goal),
            row_of: (0..n).map(|c| shape.coords(c).0 as u16).collect(),
            col_of: (0..n).map(|c| shape.coords(c).1 as u16).collect(),
            rows: LineTables::new(goal, shape.width(), shape.height(), |c| shape.coords(c)),
            cols: LineTables::new(goal, shape.height(), shape.width(), |c| {
                let (r, col) = shape.coords(c);
                (col, r)
            }),
        }
    }

    /// Number of tiles to remove from the line so the rest are in goal order (k − LIS).
    /// `tile_at` gives the tile on each cell; `row` selects rows (true) or columns.
    #[inline]
    fn line_conflicts(&self, line: usize, row: bool, tile_at: impl Fn(usize) -> usize) -> u32 {
        let len = if row {
            self.md.shape.width()
        } else {
            self.md.shape.height()
        };
        if len <= 16 {
            self.line_conflicts_in::<16>(line, row, tile_at)
        } else {
            self.line_conflicts_in::<{ crate::layout::MAX_SIDE }>(line, row, tile_at)
        }
    }

    /// [`LinearConflict::line_conflicts`] for lines of at most `CAP` cells (patience sorting
    /// for the longest strictly increasing subsequence of goal positions, O(len · log len)).
    #[inline]
    fn line_conflicts_in<const CAP: usize>(
        &self,
        line: usize,
        row: bool,
        tile_at: impl Fn(usize) -> usize,
    ) -> u32 {
        let w = self.md.shape.width();
        let len = if row { w } else { self.md.shape.height() };
        let mut tails = [0u16; CAP];
        let mut lis = 0usize;
        let mut k = 0u32;
        for i in 0..len {
            let cell = if row { line * w + i } else { i * w + line };
            let t = tile_at(cell);
            if t == 0 {
                continue;
            }
            let (goal_line, goal_pos) = if row {
                (self.md.goal_row[t], self.md.goal_col[t])
            } else {
                (self.md.goal_col[t], self.md.goal_row[t])
            };
            if goal_line as usize != line {
                continue;
            }
            k += 1;
            let pos = tails[..lis].partition_point(|&x| x < goal_pos);
            tails[pos] = goal_pos;
            if pos == lis {
                lis += 1;
            }
        }
        k - lis as u32
    }
}

impl<B: Board> Heuristic<B> for LinearConflict {
    type Memo = ();

    fn for_goal(&self, goal: &Goal) -> Option<Self> {
        Some(LinearConflict::new(goal))
    }

    fn name(&self) -> &'static str {
        "linear-conflict"
    }

    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, board: &B) -> u32 {
        let (w, h) = (self.md.shape.width(), self.md.shape.height());
        let md: u32 = Heuristic::<B>::estimate(&self.md, board);
        let rows: u32 = (0..h)
            .map(|r| self.line_conflicts(r, true, |c| board.tile(c)))
            .sum();
        let cols: u32 = (0..w)
            .map(|c| self.line_conflicts(c, false, |x| board.tile(x)))
            .sum();
        md + 2 * (rows + cols)
    }

    /// O(1) unless the moving tile enters or leaves its goal row (vertical move) or goal column
    /// (horizontal move); then that one line is scanned once, O(W) or O(H): its conflicts
    /// before and after the move are two lookups in the shared table of its length (lines of
    /// at most 7 cells; 1.9× faster beams on 7×7, BENCHMARKS.md "Linear conflict by table"),
    /// or patience sorting on longer lines.
    #[inline]
    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        let blank = board.blank();
        let from = board.tile_cell(m);
        let h = (h as i32 + self.md.delta(board, m)) as u32;
        let tile = board.tile(from);
        // A vertical move changes the tile's row and keeps the order within its column (the
        // blank is not a tile); a horizontal move the reverse. Only the line that is the tile's
        // goal line can change its conflicts, and only if the tile enters or leaves it.
        let row = m.is_vertical();
        let (a, b, goal_line) = if row {
            (
                self.row_of[from],
                self.row_of[blank],
                self.md.goal_row[tile],
            )
        } else {
            (
                self.col_of[from],
                self.col_of[blank],
                self.md.goal_col[tile],
            )
        };
        if goal_line != a && goal_line != b {
            return h;
        }
        let tables = if row { &self.rows } else { &self.cols };
        let change = if let Some(tables) = tables {
            self.conflict_change_table(board, tables, goal_line, row, blank, from, tile)
        } else {
            self.conflict_change_long(board, goal_line, row, blank, from, tile)
        };
        (h as i32 + 2 * change) as u32
    }
}

/// One step of patience sorting: `tails[i]` is the least tail of an increasing run of length
/// i + 1 among the first `lis` entries; `x` replaces the first tail not below it, or extends
/// the runs. O(lis), a linear scan (lines are short).
#[inline]
fn patience_push(tails: &mut [u16], lis: &mut usize, x: u16) {
    let mut p = 0;
    while p < *lis && tails[p] < x {
        p += 1;
    }
    tails[p] = x;
    if p == *lis {
        *lis += 1;
    }
}

/// Longest line (cells) whose conflicts are read from a table ([`conflict_table`]): 8^7 =
/// 2,097,152 one-byte entries (2 MiB) for 7-cell lines.
const TABLE_MAX_LINE: usize = 7;

/// The conflict table of lines of `len` cells, built on first use and shared by every
/// [`LinearConflict`] of the process; `None` above [`TABLE_MAX_LINE`] cells.
///
/// A line is coded in 3 bits a cell (cell `i` at bits `3i..3i + 3`): the goal position within
/// the line of a tile whose goal line it is, else 7 (the blank, and tiles of other lines).
/// Entry `code` is the number of tiles to remove so that the rest are in goal order (k − the
/// longest strictly increasing subsequence). Building it is O(8^len) once (a depth-first
/// walk over the cells, one patience-sorting step a node: about 10 ms for 7 cells); a lookup
/// is O(1).
fn conflict_table(len: usize) -> Option<&'static [u8]> {
    static TABLES: [std::sync::OnceLock<Box<[u8]>>; TABLE_MAX_LINE + 1] =
        [const { std::sync::OnceLock::new() }; TABLE_MAX_LINE + 1];
    let cell = TABLES.get(len)?;
    Some(cell.get_or_init(|| {
        let mut out = vec![0u8; 1 << (3 * len)].into_boxed_slice();
        fill_conflicts(&mut out, len, 0, 0, &[0; TABLE_MAX_LINE], 0, 0);
        out
    }))
}

/// Fills `out[code]` for every code of lines of `len` cells whose cells `0..i` are already
/// coded in `code`, with the patience-sorting state `tails`, `lis` and the tile count `k` of
/// those cells (see [`conflict_table`]). O(8^(len − i)) leaves, one push a node.
fn fill_conflicts(
    out: &mut [u8],
    len: usize,
    i: usize,
    code: usize,
    tails: &[u16; TABLE_MAX_LINE],
    lis: usize,
    k: u8,
) {
    if i == len {
        out[code] = k - lis as u8;
        return;
    }
    // 7: no tile of this line on cell i.
    fill_conflicts(out, len, i + 1, code | 7 << (3 * i), tails, lis, k);
    for x in 0..7u16 {
        let (mut t, mut l) = (*tails, lis);
        patience_push(&mut t, &mut l, x);
        fill_conflicts(
            out,
            len,
            i + 1,
            code | usize::from(x) << (3 * i),
            &t,
            l,
            k + 1,
        );
    }
}

impl LinearConflict {
    /// The conflict change of a line too long for a [`conflict_table`]: patience sorting
    /// ([`LinearConflict::conflict_change`]). Kept out of line so that the table path of
    /// [`Heuristic::update`] stays small.
    #[inline(never)]
    fn conflict_change_long<B: Board>(
        &self,
        board: &B,
        line: u16,
        row: bool,
        blank: usize,
        from: usize,
        tile: usize,
    ) -> i32 {
        if self.line_span(line, row).2 <= 16 {
            self.conflict_change::<B, 16>(board, line, row, blank, from, tile)
        } else {
            self.conflict_change::<B, { crate::layout::MAX_SIDE }>(
                board, line, row, blank, from, tile,
            )
        }
    }

    /// [`LinearConflict::conflict_change`] by two lookups in the line's [`conflict_table`]:
    /// one pass over the line builds its code before the move, and the code after it differs
    /// in one cell (`from` empties, or the blank's cell receives `tile`). O(W) or O(H), with
    /// no sorting.
    #[expect(
        clippy::too_many_arguments,
        reason = "conflict_change's arguments and the tables"
    )]
    #[inline]
    fn conflict_change_table<B: Board>(
        &self,
        board: &B,
        tables: &LineTables,
        line: u16,
        row: bool,
        blank: usize,
        from: usize,
        tile: usize,
    ) -> i32 {
        let (first, step, len) = self.line_span(line, row);
        let (goal_pos, pos_of) = if row {
            (&self.md.goal_col, &self.col_of)
        } else {
            (&self.md.goal_row, &self.row_of)
        };
        let n = self.md.shape.cells();
        let codes = &tables.codes[line as usize * n..][..n];
        let mut before = 0u32;
        let mut cell = first;
        for i in 0..len {
            before |= u32::from(codes[board.tile(cell)]) << (3 * i);
            cell += step;
        }
        // The line holds `from` (the tile leaves it) or the blank's cell (the tile enters it).
        let on_line = |c: usize| if row { self.row_of[c] } else { self.col_of[c] } == line;
        let after = if on_line(from) {
            before | 7 << (3 * u32::from(pos_of[from]))
        } else {
            let shift = 3 * u32::from(pos_of[blank]);
            (before & !(7 << shift)) | u32::from(goal_pos[tile]) << shift
        };
        i32::from(tables.conflicts[after as usize]) - i32::from(tables.conflicts[before as usize])
    }

    /// Line `line`'s first cell, the step between its cells and its length: a row if `row`
    /// (step 1, W cells), else a column (step W, H cells).
    #[inline]
    fn line_span(&self, line: u16, row: bool) -> (usize, usize, usize) {
        let w = self.md.shape.width();
        if row {
            (line as usize * w, 1, w)
        } else {
            (line as usize, w, self.md.shape.height())
        }
    }

    /// The change of line `line`'s conflicts (a row if `row`, else a column) when `tile` slides
    /// from `from` into the blank at `blank`: both counts in one pass over the line, the
    /// longest increasing subsequences by patience sorting with a linear scan (lines of at
    /// most `CAP` cells; short lines, so the scan beats a binary search). O(W) or O(H).
    #[inline]
    fn conflict_change<B: Board, const CAP: usize>(
        &self,
        board: &B,
        line: u16,
        row: bool,
        blank: usize,
        from: usize,
        tile: usize,
    ) -> i32 {
        let (first, step, len) = self.line_span(line, row);
        let (goal_line, goal_pos) = if row {
            (&self.md.goal_row, &self.md.goal_col)
        } else {
            (&self.md.goal_col, &self.md.goal_row)
        };
        let mut before = [0u16; CAP];
        let mut after = [0u16; CAP];
        let (mut lis_before, mut lis_after) = (0usize, 0usize);
        let (mut k_before, mut k_after) = (0i32, 0i32);
        let mut cell = first;
        for _ in 0..len {
            let t = board.tile(cell);
            if cell == blank {
                // Empty before; `tile` after, if this is its goal line.
                if goal_line[tile] == line {
                    k_after += 1;
                    patience_push(&mut after, &mut lis_after, goal_pos[tile]);
                }
            } else if cell == from {
                // `tile` before; empty after.
                if goal_line[tile] == line {
                    k_before += 1;
                    patience_push(&mut before, &mut lis_before, goal_pos[tile]);
                }
            } else if t != 0 && goal_line[t] == line {
                let x = goal_pos[t];
                k_before += 1;
                k_after += 1;
                patience_push(&mut before, &mut lis_before, x);
                patience_push(&mut after, &mut lis_after, x);
            }
            cell += step;
        }
        (k_after - lis_after as i32) - (k_before - lis_before as i32)
    }
}

/// The Hamming heuristic: the number of tiles (blank excluded) not on their goal cell. Weak but
/// admissible; mainly for teaching and comparison.
#[derive(Clone, Debug)]
pub struct Hamming {
    goal_cell: Vec<u16>,
    width: usize,
}

impl Hamming {
    /// Builds the heuristic for `goal`. O(N).
    pub fn new(goal: &Goal) -> Hamming {
        let n = goal.shape().cells();
        Hamming {
            goal_cell: (0..n).map(|t| goal.cell_of(t) as u16).collect(),
            width: goal.shape().width(),
        }
    }
}

impl<B: Board> Heuristic<B> for Hamming {
    type Memo = ();

    fn for_goal(&self, goal: &Goal) -> Option<Self> {
        Some(Hamming::new(goal))
    }

    fn name(&self) -> &'static str {
        "hamming"
    }

    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, board: &B) -> u32 {
        (0..self.goal_cell.len())
            .filter(|&c| {
                let t = board.tile(c);
                t != 0 && self.goal_cell[t] as usize != c
            })
            .count() as u32
    }

    #[inline]
    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        let blank = board.blank();
        let from = m.blank_target(blank, self.width);
        let g = self.goal_cell[board.tile(from)] as usize;
        h + u32::from(g == from) - u32::from(g == blank)
    }
}

/// The zero heuristic (h = 0): turns A* into uniform-cost search and IDA* into depth-first
/// iterative deepening. Admissible; useful as a brute-force oracle.
#[derive(Clone, Copy, Debug, Default)]
pub struct Zero;

impl<B: Board> Heuristic<B> for Zero {
    type Memo = ();

    fn for_goal(&self, _: &Goal) -> Option<Self> {
        Some(Zero)
    }

    fn name(&self) -> &'static str {
        "zero"
    }

    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, _: &B) -> u32 {
        0
    }

    fn update(&self, _: &B, _: u32, _: Move) -> u32 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::{TABLE_MAX_LINE, conflict_table, patience_push};

    /// k − LIS of the goal positions in a code, by patience sorting, as the table claims.
    fn direct(code: usize, len: usize) -> u8 {
        let mut tails = [0u16; TABLE_MAX_LINE];
        let (mut lis, mut k) = (0usize, 0u8);
        for i in 0..len {
            let x = (code >> (3 * i) & 7) as u16;
            if x != 7 {
                k += 1;
                patience_push(&mut tails, &mut lis, x);
            }
        }
        k - lis as u8
    }

    #[test]
    fn conflict_tables_match_patience_sorting_on_every_code() {
        for len in 0..=TABLE_MAX_LINE {
            let table = conflict_table(len).expect("a table up to 7 cells");
            assert_eq!(table.len(), 1 << (3 * len));
            for (code, &v) in table.iter().enumerate() {
                assert_eq!(v, direct(code, len), "len {len}, code {code:o}");
            }
        }
        assert!(conflict_table(TABLE_MAX_LINE + 1).is_none());
        // Two known lines: goal positions 2 1 0 in a row need two tiles out; 0 _ 2 none.
        let code = |xs: &[usize]| {
            xs.iter()
                .enumerate()
                .map(|(i, x)| x << (3 * i))
                .sum::<usize>()
        };
        assert_eq!(conflict_table(3).unwrap()[code(&[2, 1, 0])], 2);
        assert_eq!(conflict_table(3).unwrap()[code(&[0, 7, 2])], 0);
    }
}
