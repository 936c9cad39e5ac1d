//! Tile-only additive pattern databases for boards of 33–64 cells (6×6, 7×7, 5×8, ...), where
//! the blank-aware builder ([`crate::build_table`]) does not reach: its per-pattern BFS word
//! holds 2 bits per free cell, 90 bits for 4 tiles on 7×7.
//!
//! ## The abstraction
//! A group's abstract state is the cells of its `k` tiles only: the blank and every other tile
//! are abstracted away, and a group tile may slide onto any orthogonally adjacent cell that
//! holds no group tile, at cost 1. A table entry is the abstract distance of the pattern from
//! the goal pattern: the minimum number of moves of the group's tiles, ignoring where the blank
//! must be. Every real move slides one tile onto the blank's cell, which holds no group tile, so
//! it is an abstract move of at most one group: the sum over disjoint groups is **admissible**
//! (Korf & Felner 2002's additivity argument), and since a move changes one group's value by at
//! most 1 it is also **consistent**. A value has the parity of its group's Manhattan distance.
//!
//! Against the blank-aware tables (the minimum over the blank's region, [`crate::PatternDb`])
//! the relaxation loses only where the group's tiles cut the free cells into several regions (a
//! corner cell closed by two group tiles, say): rare with 4 or 5 tiles on 36–49 cells, and the
//! price of a builder that needs one byte per entry instead of 1 + 8 or more.
//!
//! ## Building
//! A layered breadth-first search from the goal pattern over the table itself: entry 255 is
//! unvisited; layer `d` scans every entry equal to `d` (rayon, chunks of 32,768 entries) and
//! sets each unvisited neighbour pattern to `d + 1` with a relaxed load and store. Two workers
//! that reach one entry in the same layer both write `d + 1`, so the race is benign; a
//! compare-and-swap, a locked instruction that lets no other memory access overlap it, made the
//! build 1.14× slower (a 6-tile 5×5 table, 127,512,000 entries: 25.2–25.7 s against 22.1–22.4 s
//! on 2 cores; BENCHMARKS.md, "7-tile tables on 5×5"). Abstract moves are reversible, so the
//! distance from the goal is the distance to it. Memory: the table,
//! one byte per entry ([`tile_only_build_memory`]); time: O(entries · (layers + 4k)) rank
//! computations of O(k) each, spread over the cores: on 7×7 about 2.5 s for a 4-tile table
//! (5,085,024 entries), on 6×6 26–50 s for a 5-tile one (45,239,040), on 2 cores shared with
//! other builds (BENCHMARKS.md, "Pattern databases on 6×6 and 7×7").

use std::sync::atomic::{AtomicBool, Ordering};

use npuzzle_core::{Board, Goal, Heuristic, HeuristicProperties, LinearConflict, Move};

use crate::build::{Stop, home, layered_in_place, reach};
use crate::index::{Indexer, MAX_CELLS, MAX_INDEX_CELLS};
use crate::set::{IndexKind, Sealed, TableBuilder, TableSet};
use crate::{BuildProgress, PdbError, TableKind};

/// Entries scanned per rayon task.
const CHUNK: usize = 1 << 15;

/// Peak memory of building the tile-only table of `k` tiles on `n` cells, in bytes: the table,
/// one byte per entry (`n!/(n-k)!`).
///
/// # Errors
/// As [`Indexer::new`].
pub fn tile_only_build_memory(n: usize, k: usize) -> Result<u64, PdbError> {
    Ok(Indexer::new(n, k)?.size())
}

/// The orthogonal neighbours of each cell of a `width` × `height` board, as `u64` masks.
fn neighbours(width: usize, height: usize) -> Vec<u64> {
    (0..width * height)
        .map(|c| {
            let (r, col) = (c / width, c % width);
            let mut m = 0u64;
            if r > 0 {
                m |= 1 << (c - width);
            }
            if r + 1 < height {
                m |= 1 << (c + width);
            }
            if col > 0 {
                m |= 1 << (c - 1);
            }
            if col + 1 < width {
                m |= 1 << (c + 1);
            }
            m
        })
        .collect()
}

/// Builds the tile-only table of the group `tiles` for `goal` (see the module docs): entry
/// `rank(cells)` ([`Indexer::rank`], tiles in the order given) is the minimum number of moves of
/// the group's tiles that bring them home when any tile may slide onto any adjacent cell free of
/// group tiles. Works on any board of at most 64 cells (also on small ones, where the tests
/// compare it with a brute-force search). `progress` is called from worker threads after every
/// chunk that valued entries; `cancel` is read before the memory is allocated and before every
/// chunk, so a build stops within milliseconds of it.
///
/// Time and memory: see the module docs and [`tile_only_build_memory`].
///
/// # Errors
/// [`PdbError::TableTooLarge`] as in [`Indexer::new`]; [`PdbError::BadGroup`] for a tile 0, off
/// the board or repeated; [`PdbError::ValueOverflow`] for a value above 254;
/// [`PdbError::Cancelled`] when `cancel` was set.
pub fn build_tile_only_table(
    goal: &Goal,
    tiles: &[u8],
    progress: &(dyn Fn(&BuildProgress) + Sync),
    cancel: Option<&AtomicBool>,
) -> Result<Vec<u8>, PdbError> {
    let shape = goal.shape();
    let n = shape.cells();
    crate::partition::check_group(tiles, n)?;
    let ix = Indexer::new(n, tiles.len())?;
    let stop = Stop { cancel, tiles };
    stop.check()?;
    let adj = neighbours(shape.width(), shape.height());
    let k = tiles.len();
    let size = ix.size() as usize;
    let start = ix.rank(&home(goal, tiles));
    layered_in_place(
        size,
        start,
        size.div_ceil(CHUNK),
        progress,
        &stop,
        |ci, layer, table| {
            let mut cells = [0u8; MAX_INDEX_CELLS];
            let mut new = 0u64;
            let chunk = &table[ci * CHUNK..size.min((ci + 1) * CHUNK)];
            for (off, e) in chunk.iter().enumerate() {
                if e.load(Ordering::Relaxed) != layer {
                    continue;
                }
                let cells = &mut cells[..k];
                ix.unrank(ci * CHUNK + off, cells);
                let occupied = cells.iter().fold(0u64, |m, &c| m | (1 << c));
                for (i, &c) in cells.iter().enumerate() {
                    let mut to = adj[usize::from(c)] & !occupied;
                    while to != 0 {
                        let q = to.trailing_zeros() as u8;
                        to &= to - 1;
                        new += reach(&table[ix.rank_moved(cells, i, q)], layer + 1);
                    }
                }
            }
            new
        },
    )
}

/// An additive disjoint pattern database of tile-only tables (see the module docs), maxed with
/// linear conflict: the heuristic is the larger of the sum over the groups of each group's table
/// value and the board's linear-conflict value (Hansson, Mayer & Yung 1992). Both are
/// admissible and consistent, so the maximum is too. The maximum because small groups on large
/// boards see few of the conflicts linear conflict counts across whole rows and columns: on the
/// first five 7×7 `DeepCubeA` states a width-2,000 beam ranked by the 4-tile tables alone
/// wandered without reaching the goal on one state, by linear conflict alone it averaged 1.38×
/// `DeepCubeA`'s lengths, by the maximum 1.32× (BENCHMARKS.md, "Pattern databases on 6×6 and
/// 7×7").
///
/// Evaluation: [`Heuristic::estimate`] is O(N + Σk) with one lookup per group, plus linear
/// conflict from scratch (O(N · (W + H))); with the memo ([`TileOnlyMemo`]: both values),
/// [`Heuristic::update_memo`] is O(N + k) with two lookups (one pass over the cells finds the
/// moved tile's group's cells, since a board answers only "which tile is on this cell") plus
/// linear conflict's incremental update. Without the memo, [`Heuristic::update`] evaluates the
/// child from scratch. Memory: the tables, one byte per entry (7×7's default 4-tile groups:
/// 12 × 5,085,024 = 61 MB; 6×6's 5-tile groups: 7 × 45,239,040 = 317 MB), mapped from the
/// cache and shared by clones.
pub type TileOnlyDb = TableSet<TileOnlyKind>;

/// The index kind of [`TileOnlyDb`]: tile-only tables ([`build_tile_only_table`]), ranked by
/// [`Indexer`], on boards of at most [`MAX_INDEX_CELLS`] cells (opened only on boards of more
/// than [`MAX_CELLS`]); stored as [`TableKind::Plain`] under tile-only file names. Never
/// reflected; a set holds the goal's [`LinearConflict`] besides its groups.
#[derive(Clone, Copy, Debug)]
pub struct TileOnlyKind;

impl Sealed for TileOnlyKind {}

impl IndexKind for TileOnlyKind {
    type Indexer = Indexer;
    type Extra = LinearConflict;
    const TABLE: TableKind = TableKind::Plain;
    const ADJECTIVE: &'static str = "tile-only ";
    const BUILD: TableBuilder = build_tile_only_table;
    const MAX_BOARD_CELLS: usize = MAX_INDEX_CELLS;
    const REFLECTS: bool = false;

    fn build_memory(goal: &Goal, tiles: &[u8]) -> Result<u64, PdbError> {
        tile_only_build_memory(goal.shape().cells(), tiles.len())
    }

    /// [`PdbError::BadPartition`] on a board of at most [`MAX_CELLS`] cells, whose plain
    /// tables are blank-aware ([`crate::PatternDb`]).
    fn check_open(goal: &Goal) -> Result<(), PdbError> {
        let shape = goal.shape();
        if shape.cells() <= MAX_CELLS {
            return Err(PdbError::BadPartition(format!(
                "tile-only tables are for boards of more than {MAX_CELLS} cells, not {shape}"
            )));
        }
        Ok(())
    }

    fn extra(goal: &Goal) -> LinearConflict {
        LinearConflict::new(goal)
    }
}

/// Most groups whose table indices a [`TileOnlyMemo`] keeps (7×7's default has 12); with more,
/// a move's group is re-ranked from the board's cells.
pub const TILE_ONLY_MEMO_GROUPS: usize = 16;

/// A [`TileOnlyDb`]'s per-state memo: the tables' sum, the linear-conflict value, and each
/// group's table index and value, so that a move updates its group's index incrementally
/// ([`Indexer::rerank`]: O(1) for a horizontal move, a look at the `W - 1` cells in between for
/// a vertical one) with one lookup. 88 bytes, `Copy`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileOnlyMemo {
    /// Sum of the groups' table values.
    pub sum: u32,
    /// Linear conflict.
    pub lc: u32,
    /// The table index of each of the first `TILE_ONLY_MEMO_GROUPS` groups.
    rank: [u32; TILE_ONLY_MEMO_GROUPS],
    /// The value of each of those groups.
    value: [u8; TILE_ONLY_MEMO_GROUPS],
}

impl TileOnlyDb {
    /// The sum after `m` from `board`, given the sum before. O(N + k), two lookups.
    #[inline]
    fn sum_after<B: Board>(&self, board: &B, sum: u32, m: Move) -> u32 {
        let from = board.tile_cell(m);
        let tile = board.tile(from);
        let gi = self.group_of[tile % MAX_INDEX_CELLS];
        let Some(g) = self.groups.get(usize::from(gi)) else {
            return sum;
        };
        let pos: [u8; MAX_INDEX_CELLS] = self.positions(board);
        let before = g.value_by(|t| pos[usize::from(t) % MAX_INDEX_CELLS]);
        let blank = board.blank() as u8;
        let after = g.value_by(|t| {
            if usize::from(t) == tile {
                blank
            } else {
                pos[usize::from(t) % MAX_INDEX_CELLS]
            }
        });
        sum + after - before
    }
}

impl<B: Board> Heuristic<B> for TileOnlyDb {
    type Memo = TileOnlyMemo;

    fn name(&self) -> &'static str {
        "pdb"
    }

    /// Admissible and consistent (see the module docs).
    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    /// O(N + Σk) with one lookup per group, and linear conflict from scratch.
    fn estimate(&self, board: &B) -> u32 {
        self.estimate_memo(board).0
    }

    fn estimate_memo(&self, board: &B) -> (u32, TileOnlyMemo) {
        let pos: [u8; MAX_INDEX_CELLS] = self.positions(board);
        let mut memo = TileOnlyMemo {
            lc: self.extra.estimate(board),
            ..TileOnlyMemo::default()
        };
        for (gi, g) in self.groups.iter().enumerate() {
            let rank = g.rank_by(|t| pos[usize::from(t) % MAX_INDEX_CELLS]);
            let v = g.table[rank];
            if gi < TILE_ONLY_MEMO_GROUPS {
                memo.rank[gi] = rank as u32;
                memo.value[gi] = v;
            }
            memo.sum += u32::from(v);
        }
        (memo.sum.max(memo.lc), memo)
    }

    /// O(1) for a horizontal move and O(W) for a vertical one (the moved tile's group's index
    /// updated by [`Indexer::rerank`], one lookup; groups of more than
    /// [`crate::RERANK_TILES`] tiles or past the first `TILE_ONLY_MEMO_GROUPS` groups are re-ranked
    /// in O(N + k)), plus linear conflict's update.
    #[inline]
    fn update_memo(&self, board: &B, _h: u32, memo: &TileOnlyMemo, m: Move) -> (u32, TileOnlyMemo) {
        let mut next = *memo;
        next.lc = self.extra.update(board, memo.lc, m);
        let from = board.tile_cell(m);
        let tile = board.tile(from) % MAX_INDEX_CELLS;
        let gi = usize::from(self.group_of[tile]);
        if let Some(g) = self.groups.get(gi) {
            if gi < TILE_ONLY_MEMO_GROUPS && g.tiles.len() <= crate::RERANK_TILES {
                let slot_at = |c: u8| {
                    let t = board.tile(usize::from(c)) % MAX_INDEX_CELLS;
                    (usize::from(self.group_of[t]) == gi).then(|| usize::from(self.slot_of[t]))
                };
                let i = usize::from(self.slot_of[tile]);
                let blank = board.blank() as u8;
                let r =
                    g.ix.rerank(memo.rank[gi] as usize, i, from as u8, blank, slot_at);
                let v = g.table[r];
                next.rank[gi] = r as u32;
                next.value[gi] = v;
                next.sum = memo.sum + u32::from(v) - u32::from(memo.value[gi]);
            } else {
                next.sum = self.sum_after(board, memo.sum, m);
            }
        }
        (next.sum.max(next.lc), next)
    }

    /// From scratch on the child (the maximum cannot be updated from `h` alone): use
    /// [`Heuristic::update_memo`] where possible.
    fn update(&self, board: &B, _h: u32, m: Move) -> u32 {
        self.estimate(&board.neighbor(m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BuildPolicy, Cache, PartitionSpec};
    use npuzzle_core::Shape;
    use std::collections::VecDeque;

    /// The abstract distances by a plain BFS over explicit patterns (a map from the cells of the
    /// group's tiles to moves), independent of the ranking and the layered scan.
    fn brute_force(goal: &Goal, tiles: &[u8]) -> std::collections::HashMap<Vec<u8>, u32> {
        let shape = goal.shape();
        let adj = neighbours(shape.width(), shape.height());
        let home = home(goal, tiles);
        let mut dist = std::collections::HashMap::new();
        dist.insert(home.clone(), 0);
        let mut queue = VecDeque::from([home]);
        while let Some(p) = queue.pop_front() {
            let d = dist[&p];
            for i in 0..p.len() {
                let next = adj[usize::from(p[i])];
                for q in (0..64u8).filter(|&q| next & (1 << q) != 0) {
                    if p.contains(&q) {
                        continue;
                    }
                    let mut p2 = p.clone();
                    p2[i] = q;
                    if !dist.contains_key(&p2) {
                        dist.insert(p2.clone(), d + 1);
                        queue.push_back(p2);
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn tables_equal_a_brute_force_search() {
        for (w, h, tiles) in [
            (3, 3, vec![1u8, 2, 3]),
            (4, 3, vec![5, 6, 9, 11]),
            (6, 6, vec![1, 2]),
            (7, 7, vec![8, 48]),
            (7, 7, vec![1, 2, 3]),
            (6, 7, vec![40, 3, 17]),
        ] {
            let goal = Goal::blank_last(Shape::new(w, h).unwrap());
            let table = build_tile_only_table(&goal, &tiles, &|_| {}, None).unwrap();
            let reference = brute_force(&goal, &tiles);
            let ix = Indexer::new(w * h, tiles.len()).unwrap();
            assert_eq!(reference.len() as u64, ix.size(), "{w}x{h} {tiles:?}");
            for (cells, d) in &reference {
                assert_eq!(
                    u32::from(table[ix.rank(cells)]),
                    *d,
                    "{w}x{h} {tiles:?} {cells:?}"
                );
            }
        }
    }

    #[test]
    fn one_tile_tables_are_manhattan_distances() {
        let goal = Goal::blank_first(Shape::new(7, 7).unwrap());
        let t = build_tile_only_table(&goal, &[24], &|_| {}, None).unwrap();
        for c in 0..49u8 {
            let (r, col) = (usize::from(c) / 7, usize::from(c) % 7);
            assert_eq!(
                usize::from(t[usize::from(c)]),
                r.abs_diff(3) + col.abs_diff(3)
            );
        }
    }

    /// Stored and opened through the cache on 7×7 (headers with a 49-cell goal): the same
    /// entries, a tile-only file name, and a database equal to the one built in memory.
    #[test]
    fn cached_round_trip_on_7x7() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let goal = Goal::blank_last(Shape::square(7).unwrap());
        let groups: Vec<Vec<u8>> = (1..49u8)
            .collect::<Vec<_>>()
            .chunks(2)
            .map(<[u8]>::to_vec)
            .collect();
        let spec = PartitionSpec::Custom(groups);
        let open = |goal: &Goal, spec: &PartitionSpec, policy| {
            TileOnlyDb::open(goal, spec, false, &cache, policy, &mut |_| {}, &|_| {})
        };
        let db = open(&goal, &spec, BuildPolicy::Always).unwrap();
        assert_eq!(cache.list().unwrap().len(), 24);
        for e in cache.list().unwrap() {
            let name = e.path.file_name().unwrap().to_string_lossy().into_owned();
            assert!(name.starts_with("7x7-g") && name.contains("-t-"), "{name}");
            let h = e.header.as_ref().unwrap();
            assert!(h.key.tile_only() && h.key.goal.len() == 49, "{h:?}");
            cache.verify(&e).unwrap();
        }
        let again = open(&goal, &spec, BuildPolicy::Never).unwrap();
        let built = TileOnlyDb::build(&goal, &spec, false, &|_| {}).unwrap();
        let board = npuzzle_nxn::VecBoard::from_layout(
            &npuzzle_core::parse_board(
                "1 33 44 16 13 47 18 5 4 41 37 2 46 31 38 12 8 9 19 10 14 42 43 28 35 29 0 26 7 17 45 25 30 48 20 22 27 3 32 40 11 24 6 34 39 15 36 23 21",
                None,
            )
            .unwrap(),
        )
        .unwrap();
        let h = Heuristic::<npuzzle_nxn::VecBoard>::estimate_memo(&db, &board);
        assert_eq!(h, again.estimate_memo(&board));
        assert_eq!(h, built.estimate_memo(&board));
        assert!(h.1.sum > 0 && h.1.lc > 0);
        // A 3×3 board's plain tables are blank-aware: refused here.
        let small = Goal::blank_last(Shape::square(3).unwrap());
        assert!(matches!(
            open(&small, &PartitionSpec::Default, BuildPolicy::Always),
            Err(PdbError::BadPartition(_))
        ));
    }

    /// Random walks from the goal on 6×6 and 7×7 with 2- and 3-tile groups covering every
    /// tile: the estimate is admissible against the walk's length (an upper bound on the
    /// distance), consistent along the walk, and `update` equals `estimate`.
    #[test]
    fn admissible_consistent_and_incremental_on_random_walks() {
        use npuzzle_core::Manhattan;
        use npuzzle_nxn::VecBoard;
        for side in [6usize, 7] {
            let goal = Goal::blank_last(Shape::square(side).unwrap());
            let n = side * side;
            let tiles: Vec<u8> = (1..n as u8).collect();
            let groups: Vec<Vec<u8>> = tiles.chunks(3).map(<[u8]>::to_vec).collect();
            let db =
                TileOnlyDb::build(&goal, &PartitionSpec::Custom(groups), false, &|_| {}).unwrap();
            let manhattan = Manhattan::new(&goal);
            let mut board = VecBoard::from_layout(goal.layout()).unwrap();
            let (mut h, mut memo) = Heuristic::<VecBoard>::estimate_memo(&db, &board);
            assert_eq!(h, 0);
            let mut x = 0x2545_F491_4F6C_DD1Du64;
            let mut last: Option<Move> = None;
            for step in 1..=400u32 {
                let legal: Vec<Move> = board
                    .legal()
                    .into_iter()
                    .filter(|&m| Some(m.inverse()) != last)
                    .collect();
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let m = legal[(x % legal.len() as u64) as usize];
                let (h2, memo2) = db.update_memo(&board, h, &memo, m);
                assert_eq!(h2, db.update(&board, h, m));
                board.apply(m);
                last = Some(m);
                assert_eq!((h2, memo2), db.estimate_memo(&board), "step {step}");
                assert!(memo2.sum <= h2 && memo2.lc <= h2);
                memo = memo2;
                assert!(h2.abs_diff(h) == 1, "consistent and of Manhattan parity");
                assert!(h2 <= step, "admissible: {h2} > {step}");
                assert!(
                    h2 >= manhattan.estimate(&board),
                    "at least Manhattan distance"
                );
                assert!(
                    memo.sum >= manhattan.estimate(&board),
                    "tables at least Manhattan"
                );
                h = h2;
            }
        }
    }
}
