//! The depth-first iteration specialised for additive disjoint pattern databases
//! ([`npuzzle_core::AdditiveTables`]: the 15-puzzle's 6-6-3, the 24-puzzle's 6-6-6-6 with
//! reflection): one kernel for the sequential engine ([`crate::Run::iterate`]) and the parallel
//! engine's subtrees (`parallel::Ctx::work`), on any board of at most 32 cells.
//!
//! Same nodes, same order and same counts as the generic loop ([`crate::dfs::search`]) with the
//! database's memo ([`Heuristic::update_memo_bounded`](npuzzle_core::Heuristic)); what changes
//! is how a child's estimate is computed. The generic loop copies a 104-byte memo per child and
//! asks the board which tile moves and which tiles lie between a vertical move's cells. Here the
//! search keeps one state for the whole path and changes it in place, undoing each change on the
//! way back (as a C implementation does):
//! - the tile on each cell, for the board and for its reflection (a byte a cell);
//! - each group's table index and value, on the board and on its reflection.
//!
//! A child's index changes by a constant for a move to a horizontal neighbour and, for a
//! vertical one, by a constant plus one precomputed weight per cell in between, looked up by
//! the tile on that cell (`W − 1` independent loads and adds; tiles of other groups weigh 0) —
//! the same formula as `npuzzle_pdb::Indexer::rerank`. Tiles in no group belong to a last,
//! one-entry table of zeros, so that no child branches on its tile's group. The reflected
//! lookup is made only when the direct sum does not already prune the child (Korf & Felner
//! 2002).
//!
//! Zero-aware tables (Clausecker & Reinefeld, `SoCS` 2019; [`ZeroAwareLayout`]) index a group
//! by its cell set's colex rank, the blank's region and its permutation's Lehmer rank: the
//! kernel keeps the two ranks and the cell set per group and side, and only the moved tile's
//! group changes (for every other group the blank moved to a neighbouring free cell, in the
//! same region). Their lookups are chains of two cache misses (the cell set's record, then the
//! entry), so a node's children are located ahead ([`locate_children`]) with prefetches.
//! Plain tables of hundreds of MB (the 4×4's 8-tile table) have their children's entries
//! prefetched too ([`prefetch_children`], [`PREFETCH_MIN_ENTRIES`]); smaller ones are read
//! without.
//!
//! Zero-aware tables with their region-coded form (`npuzzle_core::CodedTable`, from
//! `npuzzle_pdb::ZeroAwareDb::with_region_codes`) run the plain path instead: the coded tables
//! are indexed like plain ones, and a corrected entry (about a sixth of the lookups) is
//! decoded out of line ([`Prepared::decode`]): the group's cells as a bit mask, from the board
//! in eight-cell words (the kernel labels the tiles so that each group's are consecutive,
//! [`Prepared::label`]), then a flood fill of the blank's region among the group's free cells,
//! in registers; same values, same nodes. Nothing is kept on the path for them, so the coded
//! copy's nodes cost what the plain tables' do until an entry needs decoding (BENCHMARKS.md,
//! "Zero-aware codes decoded out of line").
//!
//! Monomorphised like [`crate::fused`]: per board width `W` (4 and 5 for plain tables, 5 for
//! coded ones; other widths and zero-aware tables read it at run time), per move that entered
//! the node (`LAST`, so that parent pruning is free), per kind of table (`ZA`, `CODED`), per use
//! of the duplicate-pruning automaton (`FSM`) and of the reflection (`REFLECT`). Not per
//! board type, heuristic or observer: [`search`] takes the start's tiles ([`Tiles`]) and the
//! limit checks as a trait object, so these copies are compiled once, in this crate, whatever
//! runs IDA\* (BENCHMARKS.md, "CI time": they were 76 % of the `npuzzle` facade's code).

use npuzzle_core::{
    AdditiveTables, Board, CodedTable, Move, ZERO_AWARE_MAX_TILES, ZeroAwareLayout,
};

use crate::dfs::{Checkpoint, Counters, End};

/// Most cells of a board the kernel searches (cells are kept in `u8`-per-cell arrays of this
/// length; the index masks use it).
const CELLS: usize = 32;

/// Most groups the kernel takes; the group slot after them is the one-entry table of zeros of
/// the tiles in no group.
const MAX_GROUPS: usize = 7;

/// Group slots: the groups and the no-group slot (a power of two, for index masks).
const SLOTS: usize = MAX_GROUPS + 1;

/// Plain tables with a group table of at least this many entries (256 Mi: the 4×4's 8-tile
/// table, 518,918,400) have their children's entries prefetched ([`prefetch_children`]):
/// lookups spread over hundreds of MB miss the caches, and on the 15-puzzle's antipodes with
/// 7-8 + reflection the prefetches took about **0.95×** the wall time (the median of seven
/// runs' medians of interleaved pairs, 0.90–1.02×; prefetching only the direct entry: 1.06×
/// both). With smaller tables they cost more than they save: 7-6-2 (largest 57,657,600
/// entries) took 1.21×, and the 24-puzzle's 6-6-6-6 (127,512,000 a table) 1.05–1.22×
/// (BENCHMARKS.md, "Prefetching the children's entries of large tables").
const PREFETCH_MIN_ENTRIES: usize = 1 << 28;

/// The table of the tiles in no group: one entry, 0.
static NO_GROUP: [u8; 1] = [0];

/// What a coded group's entries of code 3 read: its pocket table, its zero-aware table and that
/// table's ranking.
type CodeLookup<'t> = (&'t [u8], &'t [u8], ZeroAwareLayout<'t>);

/// The reflection `r` as the kernel keeps it (each cell's image, each tile's stand-in, by the
/// tiles' kernel labels `label`), if it is the transposition of a square board's `n` cells
/// with an involution of its tiles fixing the blank (the kernel's move directions rely on
/// it); `None` otherwise.
fn transposition(
    r: npuzzle_core::TableReflection<'_>,
    n: usize,
    (width, height): (usize, usize),
    label: &[u8; CELLS],
) -> Option<([u8; CELLS], [u8; CELLS])> {
    let ok = width == height
        && r.cell.len() >= n
        && r.tile.len() >= n
        && r.tile[0] == 0
        && (0..n).all(|c| {
            usize::from(r.cell[c]) == (c % width) * width + c / width
                && usize::from(r.tile[c]) < n
                && usize::from(r.tile[usize::from(r.tile[c])]) == c
        });
    if !ok {
        return None;
    }
    let (mut cell, mut tile) = ([0u8; CELLS], [0u8; CELLS]);
    cell[..n].copy_from_slice(&r.cell[..n]);
    for t in 0..n {
        tile[usize::from(label[t])] = label[usize::from(r.tile[t]) % CELLS];
    }
    Some((cell, tile))
}

/// The kernel's label of each tile of a board of `n` cells ([`Prepared::label`]): the groups'
/// tiles first, in their order, then the tiles in no group, ascending; the blank 0. Tiles
/// out of range or repeated are skipped (`Prepared::new` refuses such groups). O(cells).
fn labels(view: &AdditiveTables<'_>, n: usize) -> [u8; CELLS] {
    let mut label = [0u8; CELLS];
    let mut next = 1u8;
    let grouped = view.groups.iter().flat_map(|g| g.tiles.iter().copied());
    for t in grouped.chain(1..n.min(CELLS) as u8) {
        let t = usize::from(t);
        if t != 0 && t < n.min(CELLS) && label[t] == 0 {
            label[t] = next;
            next += 1;
        }
    }
    label
}

/// The legal moves of the blank on each cell of `goal`'s shape (a 4-bit set of
/// [`Move::index`]) and the goal's tile (kernel label, `label`) on each cell. O(cells).
fn cell_tables<B: Board>(goal: &B, label: &[u8; CELLS]) -> ([u8; CELLS], [u8; CELLS]) {
    let shape = goal.shape();
    let (width, height) = (shape.width(), shape.height());
    let (mut legal, mut goal_cells) = ([0u8; CELLS], [0u8; CELLS]);
    for c in 0..shape.cells().min(CELLS) {
        let (row, col) = (c / width, c % width);
        legal[c] = u8::from(row > 0)
            | u8::from(col > 0) << 1
            | u8::from(col + 1 < width) << 2
            | u8::from(row + 1 < height) << 3;
        goal_cells[c] = label[goal.tile(c) % CELLS];
    }
    (legal, goal_cells)
}

/// The cells of a board of `n` cells and width `width` as bit masks: all of them, those not in
/// the first column, those not in the last column.
fn column_masks(n: usize, width: usize) -> (u32, u32, u32) {
    let full = ((1u64 << n) - 1) as u32;
    let (mut not_col0, mut not_last) = (full, full);
    for c in 0..n {
        if c % width == 0 {
            not_col0 &= !(1 << c);
        }
        if c % width == width - 1 {
            not_last &= !(1 << c);
        }
    }
    (full, not_col0, not_last)
}

/// The cells `c` of `cells` whose byte lies in `first ..= first + span` (labels: every byte
/// below 128, `first + span` below 127), as a bit mask; eight cells at a time in a `u64`
/// (SWAR): per byte, `(b | 0x80) − first` keeps its high bit where `b ≥ first` and
/// `(b | 0x80) − (first + span + 1)` where `b > first + span`, with no borrow between bytes;
/// the high bits are gathered by a multiplication. O(1): about 40 instructions.
#[inline]
fn range_mask(cells: &[u8; CELLS], first: u8, span: u8) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let lo = u64::from(first) * ONES;
    let hi = (u64::from(first) + u64::from(span) + 1) * ONES;
    let mut m = 0u32;
    for (i, chunk) in cells.chunks_exact(8).enumerate() {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        let w = u64::from_le_bytes(b) | HIGH;
        let inside = (w - lo) & !(w - hi) & HIGH;
        // Bit 7 of byte j moves to bit 56 + j.
        let bits = ((inside >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        m |= bits << (8 * i);
    }
    m
}

/// A database's tables prepared for the kernel, once per solve: O(cells²) time, about 8.5 KB.
pub(crate) struct Prepared<'t> {
    /// Board width in cells (the kernel needs `width == height` with a reflection).
    width: usize,
    /// Cells of the board.
    n: usize,
    /// Each group's table; slot [`MAX_GROUPS`] (and any slot past the groups) is [`NO_GROUP`].
    entries: [&'t [u8]; SLOTS],
    /// The kernel's label of each tile (`label[t]`, 0 for the blank): each group's tiles get
    /// consecutive labels in ascending order (group 0 first), the tiles in no group the labels
    /// after them, so that a group's cells are those whose label lies in its range
    /// ([`Prepared::group_mask`]). Every other per-tile array here is indexed by label.
    label: [u8; CELLS],
    /// Each group's labels as `(first, count − 1)` (`(u8::MAX, 0)` past the groups): its tiles
    /// are the labels `first ..= first + count − 1`, ascending.
    range: [(u8, u8); SLOTS],
    /// The number of groups.
    groups: usize,
    /// Zero-aware tables: each group's ranking (`Some` for every group, and every tile is in
    /// a group); `None` for plain tables.
    zero_aware: Option<[Option<ZeroAwareLayout<'t>>; SLOTS]>,
    /// Each tile's index within its group's ascending tiles (0 outside groups).
    slot: [u8; CELLS],
    /// The group slot of each tile (the blank's and an ungrouped tile's: [`MAX_GROUPS`]).
    group: [u8; CELLS],
    /// What a tile's group index changes by when it moves one cell: its multiplier
    /// `(cells−1−i)!/(cells−k)!` for the `i`-th of `k` tiles (0 outside groups).
    mult: [i64; CELLS],
    /// `weight[t][u]`: what tile `u` lying strictly between the two cells of a move of tile `t`
    /// adds to the change of `t`'s group index: `-mult[t]` if `u` comes before `t` in their
    /// group, `mult[u]` if after, 0 for `u = t` and for tiles of other groups.
    weight: Box<[[i64; CELLS]; CELLS]>,
    /// With the reflection: the image of each cell and the tile (label) standing for each tile
    /// (label).
    reflection: Option<([u8; CELLS], [u8; CELLS])>,
    /// Legal moves of each blank cell (a 4-bit set of [`Move::index`]).
    legal: [u8; CELLS],
    /// The goal's tile (label) on each cell (0 past the board).
    goal: [u8; CELLS],
    /// Zero-aware tables read through their region-coded form (`TableGroup::coded`): `entries`
    /// are the coded tables (plain ranks) and the kernel runs its plain path, decoding each
    /// entry ([`Prepared::value_at`]); `zero_aware` is then `None`.
    coded: bool,
    /// With `coded`: each group's pocket table, zero-aware table and ranking, read for entries
    /// of code 3.
    lookup: [Option<CodeLookup<'t>>; SLOTS],
    /// The board's cells as a bit mask, and the cells not in its first, or last, column: for
    /// the flood fill of the blank's region ([`Prepared::blank_region`]).
    full: u32,
    not_col0: u32,
    not_last: u32,
    /// Plain tables with a group of at least [`PREFETCH_MIN_ENTRIES`] entries: every child's
    /// entries are prefetched when a node is entered ([`prefetch_children`]).
    prefetch: bool,
}

impl<'t> Prepared<'t> {
    /// The kernel's tables for `view` on boards of the shape of `goal` (the goal board);
    /// `None` when the kernel does not apply: more than [`CELLS`] cells or [`MAX_GROUPS`]
    /// groups, a table whose length is not its group's count of patterns, a group holding the
    /// blank, zero-aware tables mixed with plain ones or leaving a tile out, or a reflection
    /// that is not the transposition of a square board's cells with an involution of its tiles
    /// fixing the blank (the kernel's move directions rely on it). O(cells²).
    pub(crate) fn new<B: Board>(view: &AdditiveTables<'t>, goal: &B) -> Option<Prepared<'t>> {
        let shape = goal.shape();
        let (n, width, height) = (shape.cells(), shape.width(), shape.height());
        if n != view.cells || n > CELLS || view.groups.len() > MAX_GROUPS {
            return None;
        }
        let mut entries: [&'t [u8]; SLOTS] = [&NO_GROUP; SLOTS];
        let mut group = [MAX_GROUPS as u8; CELLS];
        let mut mult = [0i64; CELLS];
        let mut slot = [0usize; CELLS];
        let za = view.groups.first().is_some_and(|g| g.zero_aware.is_some());
        let mut layouts = [None; SLOTS];
        let mut coded_entries: [&'t [u8]; SLOTS] = [&NO_GROUP; SLOTS];
        let mut lookup = [None; SLOTS];
        let label = labels(view, n);
        let mut range = [(u8::MAX, 0u8); SLOTS];
        for (gi, g) in view.groups.iter().enumerate() {
            let k = g.tiles.len();
            if k == 0 || k >= n || g.zero_aware.is_some() != za {
                return None;
            }
            let mut size = 1u64;
            for (i, &t) in g.tiles.iter().enumerate().rev() {
                let t = usize::from(t);
                if t == 0 || t >= n || group[usize::from(label[t])] != MAX_GROUPS as u8 {
                    return None;
                }
                let t = usize::from(label[t]);
                group[t] = gi as u8;
                mult[t] = size as i64;
                slot[t] = i;
                size = size.checked_mul((n - i) as u64)?;
            }
            let patterns = match g.zero_aware {
                Some(l) if l.tiles == k => l.entries() as u64,
                Some(_) => return None,
                None => size,
            };
            if g.entries.len() as u64 != patterns || !g.tiles.is_sorted() {
                return None;
            }
            layouts[gi] = g.zero_aware;
            entries[gi] = g.entries;
            if let (Some(c), Some(l)) = (g.coded, g.zero_aware)
                && c.entries.len() as u64 == size
                && c.pockets.len() as u64 == size
            {
                coded_entries[gi] = c.entries;
                lookup[gi] = Some((c.pockets, g.entries, l));
            }
            range[gi] = (label[usize::from(g.tiles[0])], (k - 1) as u8);
        }
        if za && (1..n).any(|t| group[t] == MAX_GROUPS as u8) {
            return None;
        }
        let mut weight = Box::new([[0i64; CELLS]; CELLS]);
        for t in 1..n {
            for u in 1..n {
                if u != t && group[t] != MAX_GROUPS as u8 && group[u] == group[t] {
                    weight[t][u] = if slot[u] < slot[t] { -mult[t] } else { mult[u] };
                }
            }
        }
        let reflection = match view.reflection {
            None => None,
            Some(r) => Some(transposition(r, n, (width, height), &label)?),
        };
        let (legal, goal_cells) = cell_tables(goal, &label);
        // Zero-aware tables whose every group has its coded form run the plain path.
        let coded = za && lookup[..view.groups.len()].iter().all(Option::is_some);
        if coded {
            entries = coded_entries;
        }
        let (full, not_col0, not_last) = column_masks(n, width);
        Some(Prepared {
            coded,
            lookup,
            full,
            not_col0,
            not_last,
            width,
            n,
            entries,
            label,
            range,
            groups: view.groups.len(),
            zero_aware: (za && !coded).then_some(layouts),
            slot: slot.map(|i| i as u8),
            group,
            mult,
            weight,
            reflection,
            legal,
            goal: goal_cells,
            prefetch: !za && entries.iter().any(|e| e.len() >= PREFETCH_MIN_ENTRIES),
        })
    }

    /// The region of `blank` among the cells outside `mask` (a group's cells), `free` of them:
    /// `None` if it holds more than half of those cells (the majority region), else its lowest
    /// cell. A flood fill in registers, two rings of cells around the blank a step (the
    /// region's size is counted once a step: without the `popcnt` instruction, which x86-64's
    /// baseline lacks, a count costs about 15 instructions), stopped as soon as the answer is
    /// known. O(cells).
    #[expect(clippy::inline_always, reason = "the hot loop")]
    #[inline(always)]
    fn blank_region<const W: usize>(&self, mask: u32, free: u32, blank: usize) -> Option<u32> {
        let width = if W == 0 { self.width } else { W };
        let cells = self.full & !mask;
        let ring = |r: u32| {
            (r | ((r << 1) & self.not_col0)
                | ((r >> 1) & self.not_last)
                | (r << width)
                | (r >> width))
                & cells
        };
        let mut r = 1u32 << (blank % CELLS);
        loop {
            let g1 = ring(r);
            let g = ring(g1);
            if 2 * g.count_ones() > free {
                return None;
            }
            if g == g1 {
                return Some(g.trailing_zeros());
            }
            r = g;
        }
    }

    /// Group `group`'s value at table index `index` on the board with the tile (label)
    /// `cells[c]` on each cell `c` after the tile on cell `from` slides to cell `to` (the
    /// blank's; `from == to` for the board as it is, the blank then on `from`): the entry
    /// itself, or with coded tables its decoded value ([`Prepared::decode`]).
    #[expect(clippy::inline_always, reason = "the hot loop")]
    #[inline(always)]
    fn value_at<const W: usize, const CODED: bool>(
        &self,
        group: usize,
        index: usize,
        cells: &[u8; CELLS],
        (from, to): (usize, usize),
    ) -> u32 {
        let e = self.entries[group % SLOTS][index];
        if !CODED || !self.coded || e < 64 {
            return u32::from(e);
        }
        self.decode::<W>(e, group, index, cells, (from, to))
    }

    /// [`Prepared::value_at`] of a coded entry `e` (code 1–3, see `npuzzle_core::CodedTable`):
    /// the group's cells are computed from `cells` ([`Prepared::group_mask`]), the blank's
    /// region is flood-filled ([`Prepared::blank_region`]), and for code 3 without a pocket the
    /// zero-aware table is read. Out of line: about a sixth of the lookups decode, and inlined
    /// its set-up was hoisted into every lookup. O(cells).
    #[inline(never)]
    fn decode<const W: usize>(
        &self,
        e: u8,
        group: usize,
        index: usize,
        cells: &[u8; CELLS],
        (from, to): (usize, usize),
    ) -> u32 {
        let blank = from;
        // The group's cells after the slide (`from == to`: as they are), and the free cells'
        // count.
        let mask = self.group_mask(cells, group) ^ (1 << (from % 32)) ^ (1 << (to % 32));
        let free = self.n as u32 - (u32::from(self.range[group % SLOTS].1) + 1);
        let v = u32::from(e & 63);
        match e >> 6 {
            1 => {
                v + if self.blank_region::<W>(mask, free, blank).is_none() {
                    0
                } else {
                    2
                }
            }
            2 => {
                v + if self.blank_region::<W>(mask, free, blank).is_none() {
                    2
                } else {
                    0
                }
            }
            _ => match &self.lookup[group % SLOTS] {
                Some((pockets, _, _)) if pockets[index] != CodedTable::NO_POCKET => {
                    let pocket = pockets[index];
                    let named =
                        self.blank_region::<W>(mask, free, blank) == Some(u32::from(pocket & 63));
                    v + CodedTable::pocket_correction(pocket, named)
                }
                Some((_, table, l)) => {
                    // The group's cells in its tiles' order: the tile on `from` is on `to`.
                    let mut at = [0u8; ZERO_AWARE_MAX_TILES];
                    let mut rest = mask;
                    while rest != 0 {
                        let c = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let t = usize::from(cells[if c == to { from } else { c % CELLS }]);
                        at[usize::from(self.slot[t % CELLS]) % ZERO_AWARE_MAX_TILES] = c as u8;
                    }
                    let (comb, perm) = l.parts(&at[..l.tiles]);
                    u32::from(table[l.index(comb, perm, blank as u8)])
                }
                None => v,
            },
        }
    }

    /// Group `group`'s cells as a bit mask, the board having the tile labelled `cells[c]` on
    /// cell `c`: the cells whose label is in the group's range ([`range_mask`]). O(1).
    #[expect(clippy::inline_always, reason = "the hot loop")]
    #[inline(always)]
    fn group_mask(&self, cells: &[u8; CELLS], group: usize) -> u32 {
        let (first, span) = self.range[group % SLOTS];
        range_mask(cells, first, span)
    }

    /// The group index parts and values of the board with tile `cells[c]` on each cell `c`.
    /// O(Σk²).
    fn ranks(&self, cells: &[u8; CELLS]) -> (Parts, [u32; SLOTS]) {
        let mut pos = [0u8; CELLS];
        for (c, &t) in cells.iter().enumerate().take(self.n) {
            pos[usize::from(t) % CELLS] = c as u8;
        }
        let (mut parts, mut values) = (Parts::default(), [0u32; SLOTS]);
        for (gi, &(first, span)) in self.range[..self.groups].iter().enumerate() {
            let tiles: Vec<u8> = (first..=first + span).collect();
            let at: Vec<u8> = tiles.iter().map(|&t| pos[usize::from(t)]).collect();
            let (part, index) = if let Some(l) = self.zero_aware.as_ref().and_then(|l| l[gi]) {
                let (comb, perm) = l.parts(&at);
                let mask = at.iter().fold(0u32, |m, &c| m | 1 << (c % 32));
                let part = Part {
                    rank: comb as usize,
                    perm,
                    mask,
                };
                (part, l.index(comb, perm, pos[0]))
            } else {
                let mut rank = 0i64;
                for (i, (&t, &p)) in tiles.iter().zip(&at).enumerate() {
                    let below = at[..i].iter().filter(|&&q| q < p).count();
                    rank += (i64::from(p) - below as i64) * self.mult[usize::from(t)];
                }
                let part = Part {
                    rank: rank as usize,
                    ..Part::default()
                };
                (part, rank as usize)
            };
            parts.set::<true>(gi, part);
            let blank = usize::from(pos[0]);
            values[gi] = self.value_at::<0, true>(gi, index, cells, (blank, blank));
        }
        (parts, values)
    }
}

/// One group's table index on a board, in the parts the kernel updates: for a plain table
/// the index itself (`rank`); for a zero-aware one the colex rank of the group's cell set
/// (`rank`), the Lehmer rank of its permutation (`perm`) and the cell set as a bit mask
/// (`mask`), the index depending on the blank's cell too ([`ZeroAwareLayout`]).
#[derive(Clone, Copy, Default)]
struct Part {
    rank: usize,
    perm: u32,
    mask: u32,
}

/// Every group's [`Part`], as separate arrays: the plain tables' hot path reads and writes
/// `rank` only (an 8-byte stride; a 16-byte `Part` array cost 2.4 % more instructions a node).
#[derive(Clone, Copy, Default)]
struct Parts {
    rank: [usize; SLOTS],
    /// `(perm, mask)` of each group (zero-aware tables only).
    zero_aware: [(u32, u32); SLOTS],
}

impl Parts {
    /// Group `g`'s parts.
    #[expect(clippy::inline_always, reason = "the hot loop")]
    #[inline(always)]
    fn get(&self, g: usize) -> Part {
        let (perm, mask) = self.zero_aware[g % SLOTS];
        Part {
            rank: self.rank[g % SLOTS],
            perm,
            mask,
        }
    }

    /// Sets group `g`'s parts (with `ZA`; else only its rank).
    #[expect(clippy::inline_always, reason = "the hot loop")]
    #[inline(always)]
    fn set<const ZA: bool>(&mut self, g: usize, part: Part) {
        self.rank[g % SLOTS] = part.rank;
        if ZA {
            self.zero_aware[g % SLOTS] = (part.perm, part.mask);
        }
    }
}

/// Where one search starts: a node already entered, goal-tested and counted as expanded.
pub(crate) struct Start {
    /// The node's board ([`Tiles::of`]).
    pub(crate) tiles: Tiles,
    /// Its children still to search, as a 4-bit set of [`Move::index`] (parent excluded).
    pub(crate) todo: u8,
    /// Its depth g, in moves from the iteration's root.
    pub(crate) g: u32,
    /// Its h, in moves (checked against the tables in debug builds).
    pub(crate) h: u32,
    /// Its state in the duplicate-pruning automaton (read only when one is given).
    pub(crate) fsm: u32,
}

/// A board as the kernel reads it: the only part of a search's start that depends on the
/// board type, so that [`search`] itself is not generic.
pub(crate) struct Tiles {
    /// The board's number of cells.
    n: usize,
    /// The tile on each cell.
    cells: [u8; CELLS],
    /// The blank's cell.
    blank: usize,
}

impl Tiles {
    /// The tiles of `board` (at most 32 cells, as [`Prepared`] requires). O(cells).
    pub(crate) fn of<B: Board>(board: &B) -> Tiles {
        let n = board.shape().cells();
        let mut cells = [0u8; CELLS];
        for (c, cell) in cells.iter_mut().enumerate().take(n) {
            *cell = board.tile(c) as u8;
        }
        Tiles {
            n,
            cells,
            blank: board.blank(),
        }
    }
}

/// The search state the recursion shares and changes in place.
struct Kernel<'k, 't, 'c> {
    p: &'k Prepared<'t>,
    /// The tile on each cell.
    cells: [u8; CELLS],
    /// The tile on each cell of the reflected board (with the reflection).
    mcells: [u8; CELLS],
    blank: usize,
    /// Each group's table index parts and value on the board.
    rank: Parts,
    value: [u32; SLOTS],
    /// The same on the reflected board (with the reflection).
    mrank: Parts,
    mvalue: [u32; SLOTS],
    threshold: u32,
    next_threshold: u32,
    expanded: u64,
    generated: u64,
    next_check: u64,
    /// The duplicate-pruning automaton's transitions ([`crate::Fsm::table`]); empty without.
    fsm: &'k [u32],
    checkpoint: &'c mut dyn Checkpoint,
    stopped: bool,
    /// On a goal, the moves from the goal back to the start (pushed while unwinding).
    path: Vec<Move>,
}

/// One depth-first search bounded by `threshold` on f = g + h below `start`, with the tables
/// `p`, and `fsm` the duplicate-pruning automaton's transitions (if any); `counters` are
/// updated in place. Time O(nodes generated); memory O(threshold) stack frames.
///
/// Not generic: the board comes as [`Tiles`] and the checkpoint (called every 2^16
/// expansions, more often only near a node limit) as a trait object, so the kernel's copies
/// (per width, kind of table, automaton and reflection) are compiled once, in this crate, and
/// not once per board type, heuristic, observer and crate that runs IDA\* (BENCHMARKS.md, "CI
/// time").
pub(crate) fn search(
    start: &Start,
    threshold: u32,
    p: &Prepared<'_>,
    fsm: Option<&[u32]>,
    counters: &mut Counters,
    checkpoint: &mut dyn Checkpoint,
) -> End {
    let Tiles {
        n,
        mut cells,
        blank,
    } = start.tiles;
    for t in cells.iter_mut().take(n) {
        *t = p.label[usize::from(*t) % CELLS];
    }
    let (rank, value) = p.ranks(&cells);
    let sum: u32 = value.iter().sum();
    let mut mcells = [0u8; CELLS];
    let (mrank, mvalue, msum) = match &p.reflection {
        Some((rcell, rtile)) => {
            for c in 0..n {
                mcells[usize::from(rcell[c]) % CELLS] = rtile[usize::from(cells[c]) % CELLS];
            }
            let (r, v) = p.ranks(&mcells);
            (r, v, v.iter().sum())
        }
        None => (Parts::default(), [0; SLOTS], 0),
    };
    debug_assert_eq!(start.h, sum.max(msum), "the start's h is the tables' value");
    let mut k = Kernel {
        p,
        cells,
        mcells,
        blank,
        rank,
        value,
        mrank,
        mvalue,
        threshold,
        next_threshold: u32::MAX,
        expanded: counters.expanded,
        generated: counters.generated,
        next_check: counters.next_check,
        fsm: fsm.unwrap_or(&[]),
        checkpoint,
        stopped: false,
        path: Vec::new(),
    };
    let args = (start.todo, start.g, sum, msum, start.fsm);
    // Zero-aware tables read the width at run time (`W = 0`): their search waits on the
    // tables, not on the width's arithmetic, and one copy per width would add two thirds to
    // the kernel's compile time.
    let (todo, g, sum, msum, s) = args;
    let found = match (
        p.zero_aware.is_some(),
        fsm.is_some(),
        p.reflection.is_some(),
    ) {
        (true, true, true) => expand::<0, true, false, true, true>(&mut k, todo, (g, sum, msum), s),
        (true, true, false) => {
            expand::<0, true, false, true, false>(&mut k, todo, (g, sum, msum), s)
        }
        (true, false, true) => {
            expand::<0, true, false, false, true>(&mut k, todo, (g, sum, msum), s)
        }
        (true, false, false) => {
            expand::<0, true, false, false, false>(&mut k, todo, (g, sum, msum), s)
        }
        (false, true, true) => by_width::<true, true>(&mut k, args),
        (false, true, false) => by_width::<true, false>(&mut k, args),
        (false, false, true) => by_width::<false, true>(&mut k, args),
        (false, false, false) => by_width::<false, false>(&mut k, args),
    };
    counters.expanded = k.expanded;
    counters.generated = k.generated;
    counters.next_check = k.next_check;
    if !found {
        End::Exceeded(k.next_threshold)
    } else if k.stopped {
        End::Stopped
    } else {
        k.path.reverse();
        End::Found(k.path)
    }
}

/// [`children`] of the start node (`(todo, g, sum, msum, fsm state)`) with plain tables,
/// monomorphised for the board's width.
fn by_width<const FSM: bool, const REFLECT: bool>(
    k: &mut Kernel<'_, '_, '_>,
    (todo, g, sum, msum, s): (u8, u32, u32, u32, u32),
) -> bool {
    // Coded zero-aware tables: their own copy (the plain tables' path decodes nothing).
    match (k.p.coded, k.p.width) {
        (false, 4) => expand::<4, false, false, FSM, REFLECT>(k, todo, (g, sum, msum), s),
        (false, 5) => expand::<5, false, false, FSM, REFLECT>(k, todo, (g, sum, msum), s),
        (false, _) => expand::<0, false, false, FSM, REFLECT>(k, todo, (g, sum, msum), s),
        // 5×5, where the coded tables pay (BENCHMARKS), has a copy of its own; every other
        // width shares one (compile time).
        (true, 5) => expand::<5, false, true, FSM, REFLECT>(k, todo, (g, sum, msum), s),
        (true, _) => expand::<0, false, true, FSM, REFLECT>(k, todo, (g, sum, msum), s),
    }
}

/// The children of the current node (`todo`, a 4-bit set of move indices) at depth `g` with
/// direct sum `sum` and reflected sum `msum` (h is their maximum), in index order; `true` =
/// unwind (a goal was found, or the search must stop).
#[expect(
    clippy::inline_always,
    reason = "the hot loop: inlined into each monomorphised node function"
)]
#[inline(always)]
fn children<
    const W: usize,
    const ZA: bool,
    const CODED: bool,
    const FSM: bool,
    const REFLECT: bool,
>(
    k: &mut Kernel<'_, '_, '_>,
    todo: u8,
    gs: (u32, u32, u32),
    s: u32,
    locs: &Locs,
) -> bool {
    let blank = k.blank;
    // The largest direct sum a child may have without being pruned, once per node (the
    // recursion between siblings would make the compiler reload the threshold per child).
    let bound = k.threshold.saturating_sub(gs.0 + 1);
    // The node's row of the automaton's transitions, read once for its children.
    let row: [u32; 4] = if FSM {
        let r = &k.fsm[4 * s as usize..4 * s as usize + 4];
        [r[0], r[1], r[2], r[3]]
    } else {
        [0; 4]
    };
    let a = (bound, blank, row);
    (todo & 1 != 0 && child::<W, 0, ZA, CODED, FSM, REFLECT>(k, gs, a, locs))
        || (todo & 2 != 0 && child::<W, 1, ZA, CODED, FSM, REFLECT>(k, gs, a, locs))
        || (todo & 4 != 0 && child::<W, 2, ZA, CODED, FSM, REFLECT>(k, gs, a, locs))
        || (todo & 8 != 0 && child::<W, 3, ZA, CODED, FSM, REFLECT>(k, gs, a, locs))
}

/// A node entered by move index `LAST` (automaton state `s`): its children but the one undoing
/// `LAST`.
#[inline(never)]
fn node<
    const W: usize,
    const LAST: usize,
    const ZA: bool,
    const CODED: bool,
    const FSM: bool,
    const REFLECT: bool,
>(
    k: &mut Kernel<'_, '_, '_>,
    g: u32,
    sum: u32,
    msum: u32,
    s: u32,
) -> bool {
    let todo = k.p.legal[k.blank % CELLS] & !(1 << (LAST ^ 3));
    expand::<W, ZA, CODED, FSM, REFLECT>(k, todo, (g, sum, msum), s)
}

/// [`children`], the zero-aware children located ahead first ([`locate_children`]).
#[expect(
    clippy::inline_always,
    reason = "the hot loop: inlined into each monomorphised node function"
)]
#[inline(always)]
fn expand<
    const W: usize,
    const ZA: bool,
    const CODED: bool,
    const FSM: bool,
    const REFLECT: bool,
>(
    k: &mut Kernel<'_, '_, '_>,
    todo: u8,
    gs: (u32, u32, u32),
    s: u32,
) -> bool {
    if ZA {
        let mut locs = [[NO_LOC; 2]; 4];
        locate_children::<W, FSM, REFLECT>(k, todo, s, &mut locs);
        children::<W, ZA, CODED, FSM, REFLECT>(k, todo, gs, s, &locs)
    } else {
        if k.p.prefetch {
            prefetch_children::<W, FSM, REFLECT>(k, todo, s);
        }
        children::<W, ZA, CODED, FSM, REFLECT>(k, todo, gs, s, &NO_LOCS)
    }
}

/// With plain tables, prefetches the entries that the children in `todo` (those the automaton
/// forbids skipped) will read, on the board and with `REFLECT` on its reflection, so that their
/// cache misses overlap instead of stalling one child after the other.
#[expect(clippy::inline_always, reason = "once per node, inlined into it")]
#[inline(always)]
fn prefetch_children<const W: usize, const FSM: bool, const REFLECT: bool>(
    k: &Kernel<'_, '_, '_>,
    todo: u8,
    s: u32,
) {
    let p = k.p;
    let width = if W == 0 { p.width } else { W };
    let blank = k.blank;
    let mut rest = todo;
    while rest != 0 {
        let mi = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if FSM && k.fsm[4 * s as usize + mi] == crate::fsm::DEAD {
            continue;
        }
        let tc = tile_cell(mi, blank, width);
        let vertical = mi == 0 || mi == 3;
        let side = (&k.cells, &k.rank);
        let (_, group, r) = moved_rank::<W>(p, side, (tc, blank), vertical, mi < 2);
        if let Some(e) = p.entries[group].get(r) {
            npuzzle_core::prefetch(e);
        }
        if REFLECT && let Some((rcell, _)) = &p.reflection {
            let side = (&k.mcells, &k.mrank);
            let cells = mirrored(rcell, (tc, blank));
            let (_, group, r) = moved_rank::<W>(p, side, cells, !vertical, mi < 2);
            if let Some(e) = p.entries[group].get(r) {
                npuzzle_core::prefetch(e);
            }
        }
    }
}

/// The cell of the tile that move index `mi` slides into the blank on cell `blank`, on a board
/// `width` cells wide; moves 0 and 1 slide it to a higher cell.
#[expect(clippy::inline_always, reason = "the hot loop, once per child")]
#[inline(always)]
fn tile_cell(mi: usize, blank: usize, width: usize) -> usize {
    (match mi {
        0 => blank.wrapping_sub(width),
        1 => blank.wrapping_sub(1),
        2 => blank + 1,
        _ => blank + width,
    }) % CELLS
}

/// A slide from cell `tc` to the blank's cell `blank` seen on the reflected board: from the
/// image of `tc` to the image of `blank` (`rcell`: each cell's image).
#[expect(clippy::inline_always, reason = "the hot loop, once per child")]
#[inline(always)]
fn mirrored(rcell: &[u8; CELLS], (tc, blank): (usize, usize)) -> (usize, usize) {
    (
        usize::from(rcell[tc % CELLS]) % CELLS,
        usize::from(rcell[blank % CELLS]) % CELLS,
    )
}

/// The tile on cell `from` of `cells` (a board or its reflection, with plain group indices
/// `rank`), its group, and the group's table index after the tile slides to the blank's cell
/// `to`: `vertical` if it crosses a row, `up` if to a higher cell.
#[expect(clippy::inline_always, reason = "the hot loop, twice per child")]
#[inline(always)]
fn moved_rank<const W: usize>(
    p: &Prepared<'_>,
    (cells, rank): (&[u8; CELLS], &Parts),
    (from, to): (usize, usize),
    vertical: bool,
    up: bool,
) -> (usize, usize, usize) {
    let tile = usize::from(cells[from]) % CELLS;
    let group = usize::from(p.group[tile]) % SLOTS;
    let r = next_rank::<W>(p, cells, tile, rank.rank[group], vertical, up, from.min(to));
    (tile, group, r)
}

/// The table index of tile `t`'s group, `rank` before the move, after `t` slides to a
/// neighbouring cell of `cells`: a `vertical` move over the cells `lo + 1 .. lo + width`, to a
/// higher cell if `up`.
#[expect(clippy::inline_always, reason = "the hot loop, twice per child")]
#[inline(always)]
fn next_rank<const W: usize>(
    p: &Prepared<'_>,
    cells: &[u8; CELLS],
    t: usize,
    rank: usize,
    vertical: bool,
    up: bool,
    lo: usize,
) -> usize {
    let step = if vertical {
        vertical_step::<W>(p, cells, t, lo)
    } else {
        p.mult[t % CELLS]
    };
    (rank as i64 + if up { step } else { -step }) as usize
}

/// The change of tile `t`'s group index when it moves `width` cells (a vertical move) over the
/// cells `lo + 1 .. lo + width` of `cells`: its multiplier times `width` plus the weights of
/// the tiles in between.
#[expect(clippy::inline_always, reason = "the hot loop, twice per child")]
#[inline(always)]
fn vertical_step<const W: usize>(
    p: &Prepared<'_>,
    cells: &[u8; CELLS],
    t: usize,
    lo: usize,
) -> i64 {
    let width = if W == 0 { p.width } else { W };
    let weights = &p.weight[t % CELLS];
    let mut step = p.mult[t % CELLS] * width as i64;
    for d in 1..width {
        step += weights[usize::from(cells[(lo + d) % CELLS]) % CELLS];
    }
    step
}

/// One board's side of a move: tile `tile` slides from cell `from` to the blank's cell `to`,
/// and its group `group` gets table index parts `part` and value `value`.
#[derive(Clone, Copy, Default)]
struct Slide {
    from: usize,
    to: usize,
    tile: usize,
    group: usize,
    part: Part,
    value: u32,
}

impl Slide {
    /// Makes the slide on `cells` and the group state `(rank, value)`; returns the group's
    /// previous index parts and value, for [`Slide::undo`].
    #[expect(
        clippy::inline_always,
        reason = "the hot loop, twice per entered child"
    )]
    #[inline(always)]
    fn make<const ZA: bool>(
        &self,
        cells: &mut [u8; CELLS],
        rank: &mut Parts,
        value: &mut [u32; SLOTS],
    ) -> (Part, u32) {
        let old = (rank.get(self.group), value[self.group]);
        rank.set::<ZA>(self.group, self.part);
        value[self.group] = self.value;
        cells[self.to] = self.tile as u8;
        cells[self.from] = 0;
        old
    }

    /// Undoes [`Slide::make`], given what it returned.
    #[expect(
        clippy::inline_always,
        reason = "the hot loop, twice per entered child"
    )]
    #[inline(always)]
    fn undo<const ZA: bool>(
        &self,
        cells: &mut [u8; CELLS],
        rank: &mut Parts,
        value: &mut [u32; SLOTS],
        (old_rank, old_value): (Part, u32),
    ) {
        rank.set::<ZA>(self.group, old_rank);
        value[self.group] = old_value;
        cells[self.from] = self.tile as u8;
        cells[self.to] = 0;
    }
}

/// The slide of the tile on cell `from` to the blank's cell `to` on `cells` (a board or its
/// reflection) with plain group indices `rank`: `vertical` if it crosses a row, `up` if to a
/// higher cell; its group's new index and value.
#[expect(clippy::inline_always, reason = "the hot loop, twice per child")]
#[inline(always)]
fn slide<const W: usize, const CODED: bool>(
    p: &Prepared<'_>,
    (cells, rank): (&[u8; CELLS], &Parts),
    (from, to): (usize, usize),
    vertical: bool,
    up: bool,
) -> Slide {
    let (tile, group, r) = moved_rank::<W>(p, (cells, rank), (from, to), vertical, up);
    let value = p.value_at::<W, CODED>(group, r, cells, (from, to));
    Slide {
        from,
        to,
        tile,
        group,
        part: Part {
            rank: r,
            ..Part::default()
        },
        value,
    }
}

/// A child's lookup on one side (the board or its reflection) with zero-aware tables, located
/// before the children are searched: the tile that moves from cell `from`, its group, the
/// group's new index parts and its table index.
#[derive(Clone, Copy)]
struct Loc {
    from: usize,
    tile: usize,
    group: usize,
    part: Part,
    index: usize,
}

/// A [`Loc`] not in use (plain tables locate nothing ahead).
const NO_LOC: Loc = Loc {
    from: 0,
    tile: 0,
    group: 0,
    part: Part {
        rank: 0,
        perm: 0,
        mask: 0,
    },
    index: 0,
};

/// The [`Loc`]s of a node's children: `[move index][board, reflection]`.
type Locs = [[Loc; 2]; 4];

/// What plain tables pass for [`Locs`].
static NO_LOCS: Locs = [[NO_LOC; 2]; 4];

/// With zero-aware tables, the lookups of the children in `todo` (a 4-bit set of move
/// indices; those the automaton forbids are skipped) on the board and with `REFLECT` on its
/// reflection, in two passes so that their cache misses overlap instead of stalling one child
/// after the other: first each moved group's new cell-set and permutation ranks
/// ([`ZeroAwareLayout::reparts`]), prefetching the cell set's record (5.7 MB of records for
/// the 24-puzzle's 6-tile groups, read at random); then each index (the record gives the blank
/// region's block), prefetching the entry (a zero-aware index puts the cell set's rank on
/// top, so nearly every child's entry is a miss). The other groups keep their index: the
/// blank moved to a neighbouring free cell of theirs, in the same region.
#[expect(clippy::inline_always, reason = "once per node, inlined into it")]
#[inline(always)]
fn locate_children<const W: usize, const FSM: bool, const REFLECT: bool>(
    k: &Kernel<'_, '_, '_>,
    todo: u8,
    s: u32,
    locs: &mut Locs,
) {
    let p = k.p;
    let Some(layouts) = &p.zero_aware else {
        return;
    };
    let width = if W == 0 { p.width } else { W };
    let blank = k.blank;
    let mut todo = todo;
    let mut rest = todo;
    while rest != 0 {
        let mi = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if FSM && k.fsm[4 * s as usize + mi] == crate::fsm::DEAD {
            todo &= !(1 << mi);
            continue;
        }
        let tc = tile_cell(mi, blank, width);
        let side = &mut locs[mi % 4];
        side[0] = za_parts(p, layouts, &k.cells, &k.rank, (tc, blank));
        if REFLECT && let Some((rcell, _)) = &p.reflection {
            let cells = mirrored(rcell, (tc, blank));
            side[1] = za_parts(p, layouts, &k.mcells, &k.mrank, cells);
        }
    }
    while todo != 0 {
        let mi = todo.trailing_zeros() as usize;
        todo &= todo - 1;
        for loc in locs[mi % 4].iter_mut().take(if REFLECT { 2 } else { 1 }) {
            if let Some(l) = &layouts[loc.group % SLOTS] {
                loc.index = l.index(loc.part.rank as u32, loc.part.perm, loc.from as u8);
                if let Some(e) = p.entries[loc.group % SLOTS].get(loc.index) {
                    npuzzle_core::prefetch(e);
                }
            }
        }
    }
}

/// The first pass of [`locate_children`] for one side: the tile on cell `from` slides to the
/// blank's cell `to`; its group's new parts, its record prefetched.
#[expect(clippy::inline_always, reason = "the hot loop, twice per child")]
#[inline(always)]
fn za_parts(
    p: &Prepared<'_>,
    layouts: &[Option<ZeroAwareLayout<'_>>; SLOTS],
    cells: &[u8; CELLS],
    rank: &Parts,
    (from, to): (usize, usize),
) -> Loc {
    let tile = usize::from(cells[from]) % CELLS;
    let group = usize::from(p.group[tile]) % SLOTS;
    let old = rank.get(group);
    let mut loc = Loc {
        from,
        tile,
        group,
        part: old,
        index: 0,
    };
    if let Some(l) = &layouts[group] {
        let (comb, perm) = l.reparts(
            (old.rank as u32, old.perm),
            old.mask,
            usize::from(p.slot[tile]),
            from as u8,
            to as u8,
            |c| usize::from(p.slot[usize::from(cells[usize::from(c) % CELLS]) % CELLS]),
        );
        loc.part = Part {
            rank: comb as usize,
            perm,
            mask: old.mask ^ (1 << (from % 32)) ^ (1 << (to % 32)),
        };
        if let Some(r) = l
            .records
            .get(comb as usize * npuzzle_core::ZERO_AWARE_RECORD_BYTES)
        {
            npuzzle_core::prefetch(r);
        }
    }
    loc
}

/// The [`Slide`] of a child located ahead ([`locate_children`]): its entry is read now.
#[expect(clippy::inline_always, reason = "the hot loop, twice per child")]
#[inline(always)]
fn located(p: &Prepared<'_>, loc: &Loc, to: usize) -> Slide {
    Slide {
        from: loc.from,
        to,
        tile: loc.tile,
        group: loc.group,
        part: loc.part,
        value: u32::from(p.entries[loc.group % SLOTS][loc.index]),
    }
}

/// Child `MI` (a move index) of the node at depth `g` with sums `sum` and `msum` and the blank
/// on `blank` (`bound` = threshold − (g + 1), saturating: the largest direct sum kept):
/// generated, pruned on f, or entered, goal-tested, expanded and searched. With
/// `FSM`, a move that completes a forbidden string of the automaton (`row`: the node's
/// transitions, by move index) is not generated at all.
#[expect(
    clippy::inline_always,
    reason = "the hot loop: inlined into each monomorphised node function"
)]
#[inline(always)]
fn child<
    const W: usize,
    const MI: usize,
    const ZA: bool,
    const CODED: bool,
    const FSM: bool,
    const REFLECT: bool,
>(
    k: &mut Kernel<'_, '_, '_>,
    (g, sum, msum): (u32, u32, u32),
    (bound, blank, row): (u32, usize, [u32; 4]),
    locs: &Locs,
) -> bool {
    let s2 = if FSM {
        let s2 = row[MI];
        if s2 == crate::fsm::DEAD {
            return false;
        }
        // The child's automaton row, read if it is entered: prefetched now, while its
        // estimate is looked up.
        if let Some(row) = k.fsm.get(4 * s2 as usize) {
            npuzzle_core::prefetch(row);
        }
        s2
    } else {
        0
    };
    k.generated += 1;
    let p = k.p;
    let width = if W == 0 { p.width } else { W };
    let tc = tile_cell(MI, blank, width);
    let direct = if ZA {
        located(p, &locs[MI][0], blank)
    } else {
        let side = (&k.cells, &k.rank);
        slide::<W, CODED>(p, side, (tc, blank), MI == 0 || MI == 3, MI < 2)
    };
    let sum2 = sum - k.value[direct.group] + direct.value;
    // As the generic loop: pruned on the direct sum when it exceeds `threshold − (g + 1)`.
    if sum2 > bound {
        k.next_threshold = k.next_threshold.min(g + 1 + sum2);
        return false;
    }
    // On the reflected board the image of the tile slides from the image of `tc` to the image
    // of `blank`: vertically there for a horizontal move here, and the other way round.
    let (mut mirror, mut h2, mut msum2) = (Slide::default(), sum2, 0);
    if REFLECT && let Some((rcell, _)) = &p.reflection {
        let cells = mirrored(rcell, (tc, blank));
        mirror = if ZA {
            located(p, &locs[MI][1], cells.1)
        } else {
            let side = (&k.mcells, &k.mrank);
            slide::<W, CODED>(p, side, cells, MI == 1 || MI == 2, MI < 2)
        };
        msum2 = msum - k.mvalue[mirror.group] + mirror.value;
        h2 = sum2.max(msum2);
    }
    let f2 = g + 1 + h2;
    if f2 > k.threshold {
        k.next_threshold = k.next_threshold.min(f2);
        return false;
    }
    // Enter the child: the state changes in place, undone below.
    let old = direct.make::<ZA>(&mut k.cells, &mut k.rank, &mut k.value);
    let mold = if REFLECT {
        mirror.make::<ZA>(&mut k.mcells, &mut k.mrank, &mut k.mvalue)
    } else {
        (Part::default(), 0)
    };
    k.blank = tc;
    if h2 == 0 && k.cells == p.goal {
        k.path.push(Move::from_index(MI));
        return true;
    }
    k.expanded += 1;
    if k.expanded >= k.next_check {
        if let Some(next) = k.checkpoint.checkpoint(k.expanded, k.generated) {
            k.next_check = next;
        } else {
            k.stopped = true;
            return true;
        }
    }
    if node::<W, MI, ZA, CODED, FSM, REFLECT>(k, g + 1, sum2, msum2, s2) {
        k.path.push(Move::from_index(MI));
        return true;
    }
    direct.undo::<ZA>(&mut k.cells, &mut k.rank, &mut k.value, old);
    if REFLECT {
        mirror.undo::<ZA>(&mut k.mcells, &mut k.mrank, &mut k.mvalue, mold);
    }
    k.blank = blank;
    false
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Shape};
    use npuzzle_pdb::{PartitionSpec, ZeroAwareDb};

    use super::{CELLS, Prepared, range_mask};

    /// `range_mask` against a loop over the cells, for every range of labels on boards of
    /// random labels below 32 (a 32-cell board's).
    #[test]
    fn range_mask_is_the_cells_in_range() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            let mut cells = [0u8; CELLS];
            for c in &mut cells {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *c = (x % 32) as u8;
            }
            for first in 1..32u8 {
                for span in 0..(32 - first) {
                    let want = (0..CELLS).fold(0u32, |m, c| {
                        m | u32::from((first..=first + span).contains(&cells[c])) << c
                    });
                    assert_eq!(
                        range_mask(&cells, first, span),
                        want,
                        "{cells:?} {first} {span}"
                    );
                }
            }
        }
    }

    /// The children's prefetches ([`super::prefetch_children`], on for tables of at least
    /// [`super::PREFETCH_MIN_ENTRIES`] entries, too large to build in a test) change no node:
    /// the same counts, the same end and the same moves with them forced on as off, on 4×4
    /// boards 20–44 random moves from the goal, with and without the reflection and the
    /// automaton, at thresholds up to the start's h + 6.
    #[test]
    fn prefetching_the_children_changes_no_node() {
        use npuzzle_core::Move;
        use npuzzle_pdb::PatternDb;

        use super::{Start, Tiles, search};
        use crate::dfs::{Checkpoint, Counters, End};

        struct Never;
        impl Checkpoint for Never {
            fn checkpoint(&mut self, _expanded: u64, _generated: u64) -> Option<u64> {
                Some(u64::MAX)
            }
        }
        let goal = Goal::blank_last(Shape::square(4).unwrap());
        let spec = PartitionSpec::Custom(vec![
            vec![1, 2, 3, 4, 5],
            vec![6, 7, 8, 9, 10],
            vec![11, 12, 13, 14, 15],
        ]);
        let fsm = crate::Fsm::build(Shape::square(4).unwrap(), 10).unwrap();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for reflect in [false, true] {
            let db = PatternDb::build(&goal, &spec, reflect, &|_| {}).unwrap();
            let view = Heuristic::<BitBoard>::as_additive_tables(&db).unwrap();
            let goal_board = BitBoard::from_layout(goal.layout()).unwrap();
            let mut p = Prepared::new(&view, &goal_board).unwrap();
            assert!(!p.prefetch, "small tables are not prefetched");
            for walk in [20, 28, 36, 44] {
                let mut b = goal_board;
                let mut last: Option<Move> = None;
                for _ in 0..walk {
                    let legal: Vec<Move> = b
                        .legal()
                        .filter(|m| last.is_none_or(|l| *m != l.inverse()))
                        .collect();
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let m = legal[(x % legal.len() as u64) as usize];
                    b.apply(m);
                    last = Some(m);
                }
                let h = Heuristic::<BitBoard>::estimate(&db, &b);
                for with_fsm in [false, true] {
                    let table = with_fsm.then(|| fsm.table());
                    for threshold in h..=h + 6 {
                        let run = |p: &Prepared<'_>| {
                            let start = Start {
                                tiles: Tiles::of(&b),
                                todo: b.legal().bits(),
                                g: 0,
                                h,
                                fsm: fsm.start(b.blank()),
                            };
                            let mut counters = Counters {
                                expanded: 0,
                                generated: 0,
                                next_check: u64::MAX,
                            };
                            let end =
                                search(&start, threshold, p, table, &mut counters, &mut Never);
                            let end = match end {
                                End::Found(moves) => format!("found {moves:?}"),
                                End::Exceeded(t) => format!("exceeded {t}"),
                                End::Stopped => "stopped".to_owned(),
                            };
                            (counters.expanded, counters.generated, end)
                        };
                        p.prefetch = false;
                        let off = run(&p);
                        p.prefetch = true;
                        let on = run(&p);
                        assert_eq!(
                            on, off,
                            "walk {walk}, reflect {reflect}, threshold {threshold}"
                        );
                    }
                }
            }
        }
    }

    /// Zero-aware tables run the kernel's zero-aware path; with their region codes
    /// (`ZeroAwareDb::with_region_codes`) its plain path, decoding the coded entries (the
    /// integration tests check that both count the generic loop's nodes).
    #[test]
    fn region_coded_tables_run_the_plain_path() {
        let goal = Goal::blank_first(Shape::square(3).unwrap());
        let spec = PartitionSpec::Custom(vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]]);
        let board = BitBoard::from_layout(goal.layout()).unwrap();
        let za = ZeroAwareDb::build(&goal, &spec, true, &|_| {}).unwrap();
        let view = Heuristic::<BitBoard>::as_additive_tables(&za).unwrap();
        let p = Prepared::new(&view, &board).unwrap();
        assert!(!p.coded && p.zero_aware.is_some());
        let za = za.with_region_codes().unwrap();
        let view = Heuristic::<BitBoard>::as_additive_tables(&za).unwrap();
        let p = Prepared::new(&view, &board).unwrap();
        assert!(p.coded && p.zero_aware.is_none());
        assert!(p.lookup[..2].iter().all(Option::is_some));
    }
}
