//! A read-only view of an additive disjoint pattern database's tables, for engines with a loop
//! specialised to them.

/// One group of an [`AdditiveTables`] view: its tiles and its table.
#[derive(Clone, Copy, Debug)]
pub struct TableGroup<'a> {
    /// The group's tiles, ascending (the ranking's tile order); never the blank (tile 0).
    pub tiles: &'a [u8],
    /// The table: one entry per pattern, in moves, indexed by the pattern's lexicographic rank
    /// (see [`AdditiveTables`]); `cells!/(cells − k)!` entries for `k` tiles.
    pub entries: &'a [u8],
}

/// The tables of an additive disjoint pattern database (Korf & Felner, "Disjoint pattern
/// database heuristics", Artificial Intelligence 134, 2002), as an engine with a loop
/// specialised to them needs them: IDA\* (`npuzzle-idastar`) updates each child's table index
/// in place and looks up at most two entries a child.
///
/// The heuristic it describes, for a board with tile `t` on cell `pos[t]`:
/// `h = Σ_groups entries[rank(pos of the group's tiles)]`, and with a reflection
/// `max(h, the same sum on the reflected board)`, where the reflected board has tile
/// `reflection.tile[t]` on cell `reflection.cell[pos[t]]`.
///
/// The rank of a group of `k` tiles on cells `p[0..k]` (its tiles in ascending order) is the
/// lexicographic rank of that partial permutation of `cells` cells:
/// `Σᵢ dᵢ · (cells−1−i)!/(cells−k)!`, where `dᵢ` is `p[i]` minus the number of `p[j]`, `j < i`,
/// below it (Korf & Schultze, AAAI 2005). Tiles in no group add nothing.
///
/// A heuristic returns this view from [`crate::Heuristic::as_additive_tables`] only when it
/// equals that formula exactly, so that an engine may evaluate it instead of calling the
/// heuristic (and count the same nodes).
#[derive(Clone, Debug)]
pub struct AdditiveTables<'a> {
    /// Cells of the board (the ranks' `cells`).
    pub cells: usize,
    /// The groups, pairwise disjoint.
    pub groups: Vec<TableGroup<'a>>,
    /// The reflection whose sum is maxed with the direct one, if any.
    pub reflection: Option<TableReflection<'a>>,
}

/// The reflection of an [`AdditiveTables`] view (about the main diagonal of a square board).
#[derive(Clone, Copy, Debug)]
pub struct TableReflection<'a> {
    /// The image of each cell, `cells` entries at least; an involution.
    pub cell: &'a [u8],
    /// The tile that stands, on the reflected board, for each tile; `cells` entries at least,
    /// `tile[0] = 0`; an involution.
    pub tile: &'a [u8],
}
