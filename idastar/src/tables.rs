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
//! Monomorphised like [`crate::fused`]: per board width `W` (4 and 5; other widths read it at
//! run time), per move that entered the node (`LAST`, so that parent pruning is free), per use
//! of the duplicate-pruning automaton (`FSM`) and of the reflection (`REFLECT`).

use npuzzle_core::{AdditiveTables, Board, Move};

use crate::dfs::{Checkpoint, Counters, End};

/// Most cells of a board the kernel searches (cells are kept in `u8`-per-cell arrays of this
/// length; the index masks use it).
const CELLS: usize = 32;

/// Most groups the kernel takes; the group slot after them is the one-entry table of zeros of
/// the tiles in no group.
const MAX_GROUPS: usize = 7;

/// Group slots: the groups and the no-group slot (a power of two, for index masks).
const SLOTS: usize = MAX_GROUPS + 1;

/// The table of the tiles in no group: one entry, 0.
static NO_GROUP: [u8; 1] = [0];

/// A database's tables prepared for the kernel, once per solve: O(cells²) time, about 8.5 KB.
pub(crate) struct Prepared<'t> {
    /// Board width in cells (the kernel needs `width == height` with a reflection).
    width: usize,
    /// Each group's table; slot [`MAX_GROUPS`] (and any slot past the groups) is [`NO_GROUP`].
    entries: [&'t [u8]; SLOTS],
    /// Each group's tiles, ascending (to rank a start board).
    tiles: Vec<Vec<u8>>,
    /// The group slot of each tile (the blank's and an ungrouped tile's: [`MAX_GROUPS`]).
    group: [u8; CELLS],
    /// What a tile's group index changes by when it moves one cell: its multiplier
    /// `(cells−1−i)!/(cells−k)!` for the `i`-th of `k` tiles (0 outside groups).
    mult: [i64; CELLS],
    /// `weight[t][u]`: what tile `u` lying strictly between the two cells of a move of tile `t`
    /// adds to the change of `t`'s group index: `-mult[t]` if `u` comes before `t` in their
    /// group, `mult[u]` if after, 0 for `u = t` and for tiles of other groups.
    weight: Box<[[i64; CELLS]; CELLS]>,
    /// With the reflection: the image of each cell and the tile standing for each tile.
    reflection: Option<([u8; CELLS], [u8; CELLS])>,
    /// Legal moves of each blank cell (a 4-bit set of [`Move::index`]).
    legal: [u8; CELLS],
    /// The goal's tile on each cell (0 past the board).
    goal: [u8; CELLS],
}

impl<'t> Prepared<'t> {
    /// The kernel's tables for `view` on boards of the shape of `goal` (the goal board);
    /// `None` when the kernel does not apply: more than [`CELLS`] cells or [`MAX_GROUPS`]
    /// groups, a table whose length is not its group's count of patterns, a group holding the
    /// blank, or a reflection that is not the transposition of a square board's cells with an
    /// involution of its tiles fixing the blank (the kernel's move directions rely on it).
    /// O(cells²).
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
        let mut tiles = Vec::with_capacity(view.groups.len());
        for (gi, g) in view.groups.iter().enumerate() {
            let k = g.tiles.len();
            if k == 0 || k >= n {
                return None;
            }
            let mut size = 1u64;
            for (i, &t) in g.tiles.iter().enumerate().rev() {
                let t = usize::from(t);
                if t == 0 || t >= n || group[t] != MAX_GROUPS as u8 {
                    return None;
                }
                group[t] = gi as u8;
                mult[t] = size as i64;
                slot[t] = i;
                size = size.checked_mul((n - i) as u64)?;
            }
            if g.entries.len() as u64 != size || !g.tiles.is_sorted() {
                return None;
            }
            entries[gi] = g.entries;
            tiles.push(g.tiles.to_vec());
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
            Some(r)
                if width == height
                    && r.cell.len() >= n
                    && r.tile.len() >= n
                    && r.tile[0] == 0
                    && (0..n).all(|c| {
                        usize::from(r.cell[c]) == (c % width) * width + c / width
                            && usize::from(r.tile[c]) < n
                            && usize::from(r.tile[usize::from(r.tile[c])]) == c
                    }) =>
            {
                let (mut cell, mut tile) = ([0u8; CELLS], [0u8; CELLS]);
                cell[..n].copy_from_slice(&r.cell[..n]);
                tile[..n].copy_from_slice(&r.tile[..n]);
                Some((cell, tile))
            }
            Some(_) => return None,
        };
        let mut legal = [0u8; CELLS];
        let mut goal_cells = [0u8; CELLS];
        for c in 0..n {
            let (row, col) = (c / width, c % width);
            legal[c] = u8::from(row > 0)
                | u8::from(col > 0) << 1
                | u8::from(col + 1 < width) << 2
                | u8::from(row + 1 < height) << 3;
            goal_cells[c] = goal.tile(c) as u8;
        }
        Some(Prepared {
            width,
            entries,
            tiles,
            group,
            mult,
            weight,
            reflection,
            legal,
            goal: goal_cells,
        })
    }

    /// The group indices and values of the board with tile `cells[c]` on each cell `c`. O(Σk²).
    fn ranks(&self, cells: &[u8; CELLS]) -> ([usize; SLOTS], [u32; SLOTS]) {
        let mut pos = [0u8; CELLS];
        for (c, &t) in cells.iter().enumerate() {
            pos[usize::from(t) % CELLS] = c as u8;
        }
        let (mut ranks, mut values) = ([0usize; SLOTS], [0u32; SLOTS]);
        for (gi, tiles) in self.tiles.iter().enumerate() {
            let mut rank = 0i64;
            for (i, &t) in tiles.iter().enumerate() {
                let p = pos[usize::from(t)];
                let below = tiles[..i]
                    .iter()
                    .filter(|&&u| pos[usize::from(u)] < p)
                    .count();
                rank += (i64::from(p) - below as i64) * self.mult[usize::from(t)];
            }
            ranks[gi] = rank as usize;
            values[gi] = u32::from(self.entries[gi][rank as usize]);
        }
        (ranks, values)
    }
}

/// Where one search starts: a node already entered, goal-tested and counted as expanded.
pub(crate) struct Start<'b, B> {
    /// The node's board.
    pub(crate) board: &'b B,
    /// Its children still to search, as a 4-bit set of [`Move::index`] (parent excluded).
    pub(crate) todo: u8,
    /// Its depth g, in moves from the iteration's root.
    pub(crate) g: u32,
    /// Its h, in moves (checked against the tables in debug builds).
    pub(crate) h: u32,
    /// Its state in the duplicate-pruning automaton (read only when one is given).
    pub(crate) fsm: u32,
}

/// The search state the recursion shares and changes in place.
struct Kernel<'k, 't, 'c, C> {
    p: &'k Prepared<'t>,
    /// The tile on each cell.
    cells: [u8; CELLS],
    /// The tile on each cell of the reflected board (with the reflection).
    mcells: [u8; CELLS],
    blank: usize,
    /// Each group's table index and value on the board.
    rank: [usize; SLOTS],
    value: [u32; SLOTS],
    /// The same on the reflected board (with the reflection).
    mrank: [usize; SLOTS],
    mvalue: [u32; SLOTS],
    threshold: u32,
    next_threshold: u32,
    expanded: u64,
    generated: u64,
    next_check: u64,
    /// The duplicate-pruning automaton's transitions ([`crate::Fsm::table`]); empty without.
    fsm: &'k [u32],
    checkpoint: &'c mut C,
    stopped: bool,
    /// On a goal, the moves from the goal back to the start (pushed while unwinding).
    path: Vec<Move>,
}

/// One depth-first search bounded by `threshold` on f = g + h below `start`, with the tables
/// `p`, and `fsm` the duplicate-pruning automaton's transitions (if any); `counters` are
/// updated in place. Time O(nodes generated); memory O(threshold) stack frames.
pub(crate) fn search<B: Board, C: Checkpoint>(
    start: &Start<'_, B>,
    threshold: u32,
    p: &Prepared<'_>,
    fsm: Option<&[u32]>,
    counters: &mut Counters,
    checkpoint: &mut C,
) -> End {
    let n = start.board.shape().cells();
    let mut cells = [0u8; CELLS];
    for (c, cell) in cells.iter_mut().enumerate().take(n) {
        *cell = start.board.tile(c) as u8;
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
        None => ([0; SLOTS], [0; SLOTS], 0),
    };
    debug_assert_eq!(start.h, sum.max(msum), "the start's h is the tables' value");
    let mut k = Kernel {
        p,
        cells,
        mcells,
        blank: start.board.blank(),
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
    let found = match (fsm.is_some(), p.reflection.is_some()) {
        (true, true) => by_width::<true, true, C>(&mut k, args),
        (true, false) => by_width::<true, false, C>(&mut k, args),
        (false, true) => by_width::<false, true, C>(&mut k, args),
        (false, false) => by_width::<false, false, C>(&mut k, args),
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

/// [`children`] of the start node (`(todo, g, sum, msum, fsm state)`), monomorphised for the
/// board's width.
fn by_width<const FSM: bool, const REFLECT: bool, C: Checkpoint>(
    k: &mut Kernel<'_, '_, '_, C>,
    (todo, g, sum, msum, s): (u8, u32, u32, u32, u32),
) -> bool {
    match k.p.width {
        4 => children::<4, FSM, REFLECT, C>(k, todo, g, sum, msum, s),
        5 => children::<5, FSM, REFLECT, C>(k, todo, g, sum, msum, s),
        _ => children::<0, FSM, REFLECT, C>(k, todo, g, sum, msum, s),
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
fn children<const W: usize, const FSM: bool, const REFLECT: bool, C: Checkpoint>(
    k: &mut Kernel<'_, '_, '_, C>,
    todo: u8,
    g: u32,
    sum: u32,
    msum: u32,
    s: u32,
) -> bool {
    let blank = k.blank;
    (todo & 1 != 0 && child::<W, 0, FSM, REFLECT, C>(k, g, sum, msum, blank, s))
        || (todo & 2 != 0 && child::<W, 1, FSM, REFLECT, C>(k, g, sum, msum, blank, s))
        || (todo & 4 != 0 && child::<W, 2, FSM, REFLECT, C>(k, g, sum, msum, blank, s))
        || (todo & 8 != 0 && child::<W, 3, FSM, REFLECT, C>(k, g, sum, msum, blank, s))
}

/// A node entered by move index `LAST` (automaton state `s`): its children but the one undoing
/// `LAST`.
#[inline(never)]
fn node<const W: usize, const LAST: usize, const FSM: bool, const REFLECT: bool, C: Checkpoint>(
    k: &mut Kernel<'_, '_, '_, C>,
    g: u32,
    sum: u32,
    msum: u32,
    s: u32,
) -> bool {
    let todo = k.p.legal[k.blank % CELLS] & !(1 << (LAST ^ 3));
    crate::dfs::prefetch_rows::<FSM>(k.fsm, s, todo);
    children::<W, FSM, REFLECT, C>(k, todo, g, sum, msum, s)
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
/// and its group `group` gets table index `rank` and value `value`.
#[derive(Clone, Copy, Default)]
struct Slide {
    from: usize,
    to: usize,
    tile: usize,
    group: usize,
    rank: usize,
    value: u32,
}

impl Slide {
    /// Makes the slide on `cells` and the group state `(rank, value)`; returns the group's
    /// previous index and value, for [`Slide::undo`].
    #[expect(
        clippy::inline_always,
        reason = "the hot loop, twice per entered child"
    )]
    #[inline(always)]
    fn make(
        &self,
        cells: &mut [u8; CELLS],
        rank: &mut [usize; SLOTS],
        value: &mut [u32; SLOTS],
    ) -> (usize, u32) {
        let old = (rank[self.group], value[self.group]);
        rank[self.group] = self.rank;
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
    fn undo(
        &self,
        cells: &mut [u8; CELLS],
        rank: &mut [usize; SLOTS],
        value: &mut [u32; SLOTS],
        (old_rank, old_value): (usize, u32),
    ) {
        rank[self.group] = old_rank;
        value[self.group] = old_value;
        cells[self.from] = self.tile as u8;
        cells[self.to] = 0;
    }
}

/// The slide of the tile on cell `from` to the blank's cell `to` on `cells` (a board or its
/// reflection) with group indices `rank`: `vertical` if it crosses a row, `up` if to a higher
/// cell; its group's new index and value.
#[expect(clippy::inline_always, reason = "the hot loop, twice per child")]
#[inline(always)]
fn slide<const W: usize>(
    p: &Prepared<'_>,
    cells: &[u8; CELLS],
    rank: &[usize; SLOTS],
    (from, to): (usize, usize),
    vertical: bool,
    up: bool,
) -> Slide {
    let tile = usize::from(cells[from]) % CELLS;
    let group = usize::from(p.group[tile]) % SLOTS;
    let rank = next_rank::<W>(p, cells, tile, rank[group], vertical, up, from.min(to));
    Slide {
        from,
        to,
        tile,
        group,
        rank,
        value: u32::from(p.entries[group][rank]),
    }
}

/// Child `MI` (a move index) of the node at depth `g` with sums `sum` and `msum` and the blank
/// on `blank`: generated, pruned on f, or entered, goal-tested, expanded and searched. With
/// `FSM`, a move that completes a forbidden string of the automaton (state `s`) is not
/// generated at all.
#[expect(
    clippy::inline_always,
    reason = "the hot loop: inlined into each monomorphised node function"
)]
#[inline(always)]
fn child<const W: usize, const MI: usize, const FSM: bool, const REFLECT: bool, C: Checkpoint>(
    k: &mut Kernel<'_, '_, '_, C>,
    g: u32,
    sum: u32,
    msum: u32,
    blank: usize,
    s: u32,
) -> bool {
    let s2 = if FSM {
        let s2 = k.fsm[4 * s as usize + MI];
        if s2 == crate::fsm::DEAD {
            return false;
        }
        s2
    } else {
        0
    };
    k.generated += 1;
    let p = k.p;
    let width = if W == 0 { p.width } else { W };
    // The cell of the tile that slides into the blank; moves 0 and 1 slide it to a higher cell.
    let tc = match MI {
        0 => blank.wrapping_sub(width),
        1 => blank.wrapping_sub(1),
        2 => blank + 1,
        _ => blank + width,
    } % CELLS;
    let direct = slide::<W>(
        p,
        &k.cells,
        &k.rank,
        (tc, blank),
        MI == 0 || MI == 3,
        MI < 2,
    );
    let sum2 = sum - k.value[direct.group] + direct.value;
    // As the generic loop: pruned on the direct sum when it exceeds `threshold − (g + 1)`.
    if sum2 > k.threshold.saturating_sub(g + 1) {
        k.next_threshold = k.next_threshold.min(g + 1 + sum2);
        return false;
    }
    // On the reflected board the image of the tile slides from the image of `tc` to the image
    // of `blank`: vertically there for a horizontal move here, and the other way round.
    let (mut mirror, mut h2, mut msum2) = (Slide::default(), sum2, 0);
    if REFLECT && let Some((rcell, _)) = &p.reflection {
        let cells = (
            usize::from(rcell[tc]) % CELLS,
            usize::from(rcell[blank]) % CELLS,
        );
        mirror = slide::<W>(p, &k.mcells, &k.mrank, cells, MI == 1 || MI == 2, MI < 2);
        msum2 = msum - k.mvalue[mirror.group] + mirror.value;
        h2 = sum2.max(msum2);
    }
    let f2 = g + 1 + h2;
    if f2 > k.threshold {
        k.next_threshold = k.next_threshold.min(f2);
        return false;
    }
    // Enter the child: the state changes in place, undone below.
    let old = direct.make(&mut k.cells, &mut k.rank, &mut k.value);
    let mold = if REFLECT {
        mirror.make(&mut k.mcells, &mut k.mrank, &mut k.mvalue)
    } else {
        (0, 0)
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
    if node::<W, MI, FSM, REFLECT, C>(k, g + 1, sum2, msum2, s2) {
        k.path.push(Move::from_index(MI));
        return true;
    }
    direct.undo(&mut k.cells, &mut k.rank, &mut k.value, old);
    if REFLECT {
        mirror.undo(&mut k.mcells, &mut k.mrank, &mut k.mvalue, mold);
    }
    k.blank = blank;
    false
}
