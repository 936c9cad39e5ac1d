//! Pattern databases for partial goals: [`PartialDb`].

use npuzzle_core::{Metric, Move, PartialGoal, PartialHeuristic, PartialManhattan, legal_moves};

/// The most entries (bytes) one partial-goal table may have: 2^24 (16 MiB).
pub const PARTIAL_MAX_ENTRIES: usize = 1 << 24;
/// The most entries the tables of one partial goal may have together: 2^26 (64 MiB).
pub const PARTIAL_MAX_TOTAL: usize = 1 << 26;

/// An entry no breadth-first search reached.
const UNSEEN: u8 = u8::MAX;

/// One table: the distance from each placement of `tiles` (and the blank, when blank-aware)
/// to the goal's abstract states.
#[derive(Clone, Debug)]
struct Table {
    /// The tiles, then the blank (tile 0).
    items: Vec<u16>,
    dist: Vec<u8>,
}

/// Pattern databases for **partial goals** (`npuzzle_core::partial`), built in memory on the
/// fly.
///
/// A partial goal is a pattern-database abstraction: the tiles that do not matter are
/// indistinguishable. [`PartialDb::build`] builds, by breadth-first search from the goal's
/// abstract states in the search's metric, tables over the positions of the tiles that matter:
/// - **exact**: when the tiles that matter and the blank have at most `max_entries`
///   placements (P(N, k+1) = N!/(N−k−1)!, N cells, k tiles), one table over them all: the
///   optimal distance to the partial goal itself (the abstraction loses nothing: every
///   abstract path lifts to a real one, the tiles that do not matter being interchangeable).
///   The first row of the 4×4 (4 tiles + blank, 524,160 entries) and every 3×3 partial goal
///   are exact.
/// - otherwise the tiles that matter are cut into groups (in increasing order) of at most
///   `max_entries` placements (group + blank) each, a table for each counting every move (each
///   admissible: a move of the real board is one abstract move, in either metric), and the
///   estimate is their **maximum**. The first two rows of the 4×4: tiles 1–5 + blank
///   (5,765,760 entries) and 6–8 + blank (43,680). (Tables counting only their own tiles'
///   moves, which add up over the groups, were tried for STM: on seed15's first two rows they
///   generated 30–55× more nodes than the maximum of these.)
///
/// Each estimate is also maxed with [`PartialManhattan`] (Manhattan distance + linear
/// conflicts in STM, the multi-tile bound in MTM). One byte an entry; with the default
/// [`PARTIAL_MAX_ENTRIES`] (2^24) a table takes at most 16 MiB, and the tables of one goal at
/// most [`PARTIAL_MAX_TOTAL`] entries (further groups are left to Manhattan distance). Time:
/// O(entries × successors × k²) — the 4×4 first row 0.14 s, the first two rows 1.6–2.3 s in
/// release mode on a loaded two-core machine (BENCHMARKS.md, "Partial goals").
#[derive(Clone, Debug)]
pub struct PartialDb {
    metric: Metric,
    cells: usize,
    manhattan: PartialManhattan,
    tables: Vec<Table>,
    exact: bool,
}

/// P(n, m) = n!/(n−m)!, saturating.
fn placements(n: usize, m: usize) -> usize {
    (0..m).fold(1usize, |acc, i| acc.saturating_mul(n - i))
}

/// The rank of `pos` (distinct cells below `n`) among the P(n, len) placements. O(len²).
fn rank(pos: &[u16], n: usize) -> usize {
    let mut r = 0;
    for (i, &p) in pos.iter().enumerate() {
        let below = pos[..i].iter().filter(|&&q| q < p).count();
        r = r * (n - i) + (p as usize - below);
    }
    r
}

/// The placement of rank `r` (inverse of [`rank`]), into `pos`. O(len × n).
fn unrank(mut r: usize, n: usize, pos: &mut [u16], used: &mut [bool]) {
    let m = pos.len();
    let mut digits = [0usize; 64];
    for i in (0..m).rev() {
        digits[i] = r % (n - i);
        r /= n - i;
    }
    used.fill(false);
    for i in 0..m {
        let mut left = digits[i];
        let mut c = 0;
        loop {
            if !used[c] {
                if left == 0 {
                    break;
                }
                left -= 1;
            }
            c += 1;
        }
        used[c] = true;
        pos[i] = c as u16;
    }
}

impl Table {
    /// Breadth-first search from the goal's abstract states over placements of `items`: the
    /// group's tiles, then the blank; every move (STM: one cell; MTM: 1..k cells of a line)
    /// costs 1.
    fn build(goal: &PartialGoal, metric: Metric, tiles: &[u16]) -> Table {
        let shape = goal.shape();
        let n = shape.cells();
        let mut items = tiles.to_vec();
        items.push(0);
        let m = items.len();
        let mut dist = vec![UNSEEN; placements(n, m)];
        let mut queue: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
        let mut pos: Vec<u16> = tiles
            .iter()
            .map(|&t| goal.cell_of(t as usize).expect("a tile that matters") as u16)
            .collect();
        // The blank on its cell, or on every cell no tile that matters must be on.
        let blank_cells: Vec<usize> = match goal.blank_cell() {
            Some(c) => vec![c],
            None => (0..n).filter(|&c| goal.cells()[c].is_none()).collect(),
        };
        for c in blank_cells {
            pos.push(c as u16);
            queue.push_back(rank(&pos, n) as u32);
            pos.pop();
        }
        for &r in &queue {
            dist[r as usize] = 0;
        }
        pos.resize(m, 0);
        let mut used = vec![false; n];
        let mut occupant = vec![u8::MAX; n];
        let mut child = pos.clone();
        let mut deepest = 0u8;
        while let Some(r) = queue.pop_front() {
            let d = dist[r as usize];
            deepest = deepest.max(d);
            if d >= UNSEEN - 1 {
                continue;
            }
            unrank(r as usize, n, &mut pos, &mut used);
            for (i, &p) in pos.iter().enumerate() {
                occupant[p as usize] = i as u8;
            }
            // Visits `child`, one move farther than `d`.
            let mut relax = |child: &[u16], dist: &mut [u8]| {
                let k = rank(child, n);
                if dist[k] == UNSEEN {
                    dist[k] = d + 1;
                    queue.push_back(k as u32);
                }
            };
            {
                let blank = pos[m - 1] as usize;
                for dir in Move::ALL {
                    // Slide 1 (STM) or 1..k (MTM) cells towards `dir`: each tile of the
                    // group passed steps back into the blank's cell.
                    child.copy_from_slice(&pos);
                    let mut b = blank;
                    while legal_moves(b, shape.width(), shape.height()).contains(dir) {
                        let t = dir.blank_target(b, shape.width());
                        let o = occupant[t];
                        if o != u8::MAX {
                            child[o as usize] = b as u16;
                        }
                        b = t;
                        child[m - 1] = b as u16;
                        relax(&child, &mut dist);
                        if metric == Metric::Stm {
                            break;
                        }
                    }
                }
            }
            for &p in &pos {
                occupant[p as usize] = u8::MAX;
            }
        }
        // Placements never reached are unreachable (or, past the deepest level a byte holds,
        // farther): the deepest distance + 1 is a bound.
        let fill = deepest.saturating_add(1).min(UNSEEN - 1);
        for d in &mut dist {
            if *d == UNSEEN {
                *d = fill;
            }
        }
        Table { items, dist }
    }

    #[inline]
    fn lookup(&self, pos: &[u16], n: usize) -> u32 {
        let mut p = [0u16; 64];
        for (i, &t) in self.items.iter().enumerate() {
            p[i] = pos[t as usize];
        }
        u32::from(self.dist[rank(&p[..self.items.len()], n)])
    }
}

impl PartialDb {
    /// Builds the tables for `goal` in `metric` (see [`PartialDb`]), each of at most
    /// `max_entries` entries ([`PARTIAL_MAX_ENTRIES`] unless a test wants smaller groups).
    /// Time O(entries × successors × k²); memory one byte an entry.
    pub fn build(goal: &PartialGoal, metric: Metric, max_entries: usize) -> PartialDb {
        let n = goal.shape().cells();
        let tiles = goal.tiles();
        let manhattan = PartialManhattan::new(goal, metric);
        let mut db = PartialDb {
            metric,
            cells: n,
            manhattan,
            tables: Vec::new(),
            exact: false,
        };
        if placements(n, tiles.len() + 1) <= max_entries {
            db.tables.push(Table::build(goal, metric, tiles));
            db.exact = true;
            return db;
        }
        // Groups of tiles + blank, maxed.
        let extra = 1;
        let mut total = 0usize;
        let mut rest = tiles;
        while !rest.is_empty() {
            let mut g = rest.len();
            while g > 0 && placements(n, g + extra) > max_entries {
                g -= 1;
            }
            if g == 0 || total + placements(n, g + extra) > PARTIAL_MAX_TOTAL {
                break;
            }
            total += placements(n, g + extra);
            db.tables.push(Table::build(goal, metric, &rest[..g]));
            rest = &rest[g..];
        }
        db
    }

    /// Whether the one table is the exact distance to the goal (the tiles that matter and the
    /// blank fit one table).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Entries (bytes) of all tables.
    pub fn entries(&self) -> usize {
        self.tables.iter().map(|t| t.dist.len()).sum()
    }

    /// What was built, for answers' notes: `an exact table of the tiles that matter {1,2,3} +
    /// blank (3024 entries, stm)`, ...
    pub fn description(&self) -> String {
        let groups: Vec<String> = self
            .tables
            .iter()
            .map(|t| {
                let tiles: Vec<String> = t
                    .items
                    .iter()
                    .filter(|&&i| i != 0)
                    .map(ToString::to_string)
                    .collect();
                format!("{{{}}}", tiles.join(","))
            })
            .collect();
        let what = if self.exact {
            "an exact table of the tiles that matter"
        } else if self.tables.is_empty() {
            "no table (too many cells)"
        } else {
            "tables (maxed)"
        };
        let maxed = match (self.exact, self.metric) {
            (true, _) => "",
            (false, Metric::Stm) => ", maxed with Manhattan distance + linear conflicts",
            (false, Metric::Mtm) => ", maxed with the multi-tile Manhattan bound",
        };
        format!(
            "{what} {} + blank ({} entries, {}){maxed}",
            groups.join(" "),
            self.entries(),
            self.metric.name(),
        )
    }

    /// The shape's cells this database serves.
    pub fn cells(&self) -> usize {
        self.cells
    }
}

impl PartialHeuristic for PartialDb {
    fn name(&self) -> &'static str {
        "partial-pdb"
    }

    fn metric(&self) -> Metric {
        self.metric
    }

    #[inline]
    fn estimate(&self, cells: &[u16], pos: &[u16]) -> u32 {
        let n = self.cells;
        let mut h = 0;
        for t in &self.tables {
            let v = t.lookup(pos, n);
            h = h.max(v);
        }
        if self.exact {
            return h;
        }
        h.max(self.manhattan.estimate(cells, pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{PartialKind, Shape, parse_partial};

    #[test]
    fn rank_round_trips() {
        let n = 9;
        let mut pos = [0u16; 4];
        let mut used = vec![false; n];
        for r in 0..placements(n, 4) {
            unrank(r, n, &mut pos, &mut used);
            assert_eq!(rank(&pos, n), r);
        }
    }

    #[test]
    fn exact_and_grouped_tables() {
        let s = Shape::square(3).unwrap();
        let k: PartialKind = parse_partial("1 2 3 x x x x x x", None).unwrap().unwrap();
        let g = PartialGoal::new(&k, s).unwrap();
        let db = PartialDb::build(&g, Metric::Stm, PARTIAL_MAX_ENTRIES);
        assert!(db.is_exact());
        assert_eq!(db.entries(), 9 * 8 * 7 * 6);
        // One tile + blank a table (72 placements each), three tables.
        let small = PartialDb::build(&g, Metric::Stm, 100);
        assert!(!small.is_exact());
        assert_eq!(small.entries(), 72 * 3);
        let mtm = PartialDb::build(&g, Metric::Mtm, 100);
        assert_eq!(mtm.entries(), 72 * 3);
        assert!(!mtm.description().is_empty());
    }
}
