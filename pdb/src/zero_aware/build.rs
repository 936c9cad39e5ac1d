//! Building one zero-aware table: a layered breadth-first search over (pattern, blank region),
//! frontier-parallel with rayon.
//!
//! The abstract space is the one of the plain tables (`crate::build`): the cells of the group's
//! tiles and the blank's region; a move of a group tile into the blank's region costs 1, the
//! blank wandering inside its region costs 0. The plain table keeps, per pattern, the minimum
//! over the blank's regions; a zero-aware table keeps every (pattern, region) value. Because a
//! region is a whole 0-cost class, the search is a plain unit-cost BFS over those classes: layer
//! `d` is every class at distance `d`. The space is undirected (every move is reversible), so
//! the distance from the goal class equals the distance to it.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use npuzzle_core::Goal;
use rayon::prelude::*;

use super::ZERO_AWARE_MAX_TILES;
use super::index::ZeroAwareIndexer;
use crate::build::{Grid, Reached, Stop, home};
use crate::{BuildProgress, PdbError};

/// Not reached yet.
const UNSEEN: u8 = u8::MAX;
/// Cell sets scanned per rayon task.
const SETS_PER_TASK: usize = 64;

/// Peak memory of building the zero-aware table of `k` tiles on a `width`×`height` board, in
/// bytes: one byte per entry, plus the indexer's per-set tables.
///
/// # Errors
/// As [`ZeroAwareIndexer::new`].
pub fn zero_aware_build_memory(width: usize, height: usize, k: usize) -> Result<u64, PdbError> {
    let ix = ZeroAwareIndexer::shared(width, height, k)?;
    Ok(ix.size() + ix.cell_sets() as u64 * 40)
}

/// Builds the zero-aware table of the group `tiles` for `goal`: entry
/// [`ZeroAwareIndexer::rank`]`(cells, blank)` is the minimum number of moves of group tiles
/// that bring them to their goal cells with the blank in the goal blank's region, starting with
/// the group's tiles on `cells` and the blank in `blank`'s region, the other tiles being
/// indistinguishable (their moves are free). Unreachable states (none on boards at least 2×2)
/// get 0.
///
/// Time: O(entries · k²) plus one scan of the table per layer, spread over rayon's threads;
/// memory: [`zero_aware_build_memory`] (the 24-puzzle's 6-tile tables: about 181 MB, a sixth
/// of the plain build's peak). `progress` is called from worker threads.
///
/// # Errors
/// [`PdbError::TableTooLarge`] as in [`ZeroAwareIndexer::new`]; [`PdbError::BadGroup`] for a
/// bad group (tile 0, off the board, repeated); [`PdbError::ValueOverflow`] past 254 moves.
pub fn build_zero_aware_table(
    goal: &Goal,
    tiles: &[u8],
    progress: &(dyn Fn(&BuildProgress) + Sync),
) -> Result<Vec<u8>, PdbError> {
    build_zero_aware_table_cancellable(goal, tiles, progress, None)
}

/// [`build_zero_aware_table`] that stops when `cancel` becomes true, as
/// [`crate::build_table_cancellable`] does for the plain tables: the flag is read before the
/// memory is allocated and before every task of 64 cell sets (5×5, 6 tiles: about 66,000
/// entries, milliseconds of work), so a build stops within milliseconds of the flag (SIGINT,
/// a server's time limit) and frees its memory; nothing is written anywhere.
///
/// # Errors
/// As [`build_zero_aware_table`]; [`PdbError::Cancelled`] when `cancel` was set.
pub fn build_zero_aware_table_cancellable(
    goal: &Goal,
    tiles: &[u8],
    progress: &(dyn Fn(&BuildProgress) + Sync),
    cancel: Option<&AtomicBool>,
) -> Result<Vec<u8>, PdbError> {
    let stop = Stop { cancel, tiles };
    stop.check()?;
    let shape = goal.shape();
    let n = shape.cells();
    crate::partition::check_group(tiles, n)?;
    let ix = ZeroAwareIndexer::shared(shape.width(), shape.height(), tiles.len())?;
    let grid = Grid::new(shape.width(), shape.height());
    let size = ix.size() as usize;
    let table: Vec<AtomicU8> = (0..size)
        .into_par_iter()
        .map(|_| AtomicU8::new(UNSEEN))
        .collect();
    table[ix.rank(&home(goal, tiles), goal.cell_of(0) as u8)].store(0, Ordering::Relaxed);
    let reached = Reached::new(1, size as u64, progress);
    let sets = ix.cell_sets();
    for layer in 0u32.. {
        if layer >= u32::from(UNSEEN) - 1 {
            return Err(PdbError::ValueOverflow);
        }
        let found: u64 = (0..sets.div_ceil(SETS_PER_TASK))
            .into_par_iter()
            .map(|task| {
                if stop.is_set() {
                    return 0;
                }
                let end = ((task + 1) * SETS_PER_TASK).min(sets);
                let mut found = 0u64;
                for comb in task * SETS_PER_TASK..end {
                    found += expand_set(&ix, &grid, &table, comb, layer as u8);
                }
                reached.add(layer + 1, found);
                found
            })
            .sum();
        stop.check()?;
        if found == 0 {
            break;
        }
    }
    Ok(table
        .into_iter()
        .map(|v| match v.into_inner() {
            UNSEEN => 0,
            v => v,
        })
        .collect())
}

/// Expands every state of cell set `comb` at distance `layer`: marks each unseen successor with
/// `layer + 1`. Returns how many it marked.
fn expand_set(
    ix: &ZeroAwareIndexer,
    grid: &Grid,
    table: &[AtomicU8],
    comb: usize,
    layer: u8,
) -> u64 {
    let (mask, first, regions) = ix.cell_set(comb);
    let perms = ix.perms();
    let k = ix.tiles();
    let mut found = 0u64;
    let mut cells = [0u8; ZERO_AWARE_MAX_TILES];
    for r in 0..regions {
        let row = first + usize::from(r) * perms;
        let slice = &table[row..row + perms];
        if !slice.iter().any(|v| v.load(Ordering::Relaxed) == layer) {
            continue;
        }
        let region = ix.region_mask(comb, r);
        // The set's cells next to the region: the tiles there can move into it.
        let movable = grid.grow(region) & mask;
        for (p, v) in slice.iter().enumerate() {
            if v.load(Ordering::Relaxed) != layer {
                continue;
            }
            ix.unrank_perm(mask, p as u32, &mut cells);
            for i in 0..k {
                let from = cells[i];
                if movable & (1 << from) == 0 {
                    continue;
                }
                let mut dests = grid.adj(usize::from(from)) & region;
                while dests != 0 {
                    let to = dests.trailing_zeros() as u8;
                    dests &= dests - 1;
                    cells[i] = to;
                    // The blank ends on the tile's old cell.
                    let t = &table[ix.rank(&cells[..k], from)];
                    if t.load(Ordering::Relaxed) == UNSEEN
                        && t.compare_exchange(
                            UNSEEN,
                            layer + 1,
                            Ordering::Relaxed,
                            Ordering::Relaxed,
                        )
                        .is_ok()
                    {
                        found += 1;
                    }
                }
                cells[i] = from;
            }
        }
    }
    found
}
