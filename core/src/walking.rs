//! The **walking distance** heuristic (Ken'ichiro Takahashi, about 2002), in the single-tile
//! and the multi-tile metric: a pattern database over row occupancy.
//!
//! # The abstraction
//! Give each tile the class of its goal **row**. The vertical abstract state of a board is the
//! H×H count matrix "how many tiles of class g stand in row r", together with the blank's row.
//! A vertical move changes it; a horizontal move leaves it as it is (the tile stays in its
//! row). In the abstraction, a single-tile vertical move takes a tile of any class present in
//! the row next to the blank into the blank's row, and the blank the other way; a multi-tile
//! (MTM) vertical move that slides k tiles is k such steps in the same direction (the blank
//! passes k rows, and from each row one tile — of any class present there — moves one row the
//! other way). Breadth-first search from the goal's abstract state, at cost 1 per abstract move
//! (one single-tile step in STM, one chain of 1..H−1 steps in one direction in MTM), gives
//! the exact number of vertical moves the abstraction needs: the **vertical walking
//! distance**. The horizontal walking distance is the same on columns (the tiles' classes are
//! their goal columns): the table of the transposed board. h = vertical + horizontal.
//!
//! The tables depend only on the number of lines, the line length, the blank's goal line and
//! the metric (the classes come from the [`Goal`], so blank-last, blank-first and any explicit
//! goal are served alike); they are built by breadth-first search in milliseconds (at most
//! 367,560 abstract states on the boards served) and kept once per process, shared by every
//! [`WalkingDistance`] that needs the same table.
//!
//! # Admissible and consistent
//! In either metric every move is vertical or horizontal. A vertical move maps the vertical
//! abstract state by exactly one abstract move of cost 1 (its k single-tile steps are the k
//! abstract steps) and leaves the horizontal abstract state unchanged; a horizontal move the
//! other way round. So along any solution the vertical moves form a path of the vertical
//! abstract graph from the board's abstract state to the goal's, at least as long as the
//! shortest: their number is at least the vertical walking distance, the horizontal moves'
//! at least the horizontal one, and the two sets of moves are disjoint: h never exceeds the
//! number of moves (**admissible**). A move changes one of the two terms, by at most 1 (the
//! distances of two abstract states one abstract move apart differ by at most 1), and the
//! other not at all, so `h(parent) ≤ 1 + h(child)` (**consistent**). Both hold in STM and in
//! MTM (each with its own tables).
//!
//! It dominates [`crate::MtmManhattan`] in MTM (and [`crate::Manhattan`] in STM): the vertical
//! part of those bounds is a function of the vertical abstract state that falls by at most 1
//! per abstract move and is 0 at the goal, so it is at most the vertical walking distance
//! (tests check it on every 3×3 state and random 4×4 states).
//!
//! # Boards
//! [`WalkingDistance::supports`]: boards of at most [`WalkingDistance::MAX_CELLS`] cells whose
//! sides are at most [`WalkingDistance::MAX_SIDE`] (every 2×2–4×4 shape, 3×5 and 2×6; not 2×7
//! or 2×8, whose tables would have 16.9 M and 1 G states, nor 5×4, whose
//! transposed table has 6.0 M): the largest table, 6×2's vertical one, has 367,560 states.
//!
//! # Cost
//! Per IDA\* node (through [`Heuristic::update_memo`]): one lookup in a transition table and
//! two in the distance tables, O(1). [`Heuristic::estimate`] and [`Heuristic::update`]
//! (which computes the child from scratch) are O(N) plus one hash lookup per table.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rustc_hash::FxHashMap;

use crate::board::Board;
use crate::goal::Goal;
use crate::heuristic::{Heuristic, HeuristicProperties};
use crate::layout::Shape;
use crate::moves::{Metric, Move};

/// A shape [`WalkingDistance`] does not serve (see [`WalkingDistance::supports`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "walking distance serves boards of at most {max_cells} cells with sides of at most {max_side} (its tables would be too large otherwise), not {shape} boards"
)]
pub struct WalkingShapeError {
    /// The shape asked for.
    pub shape: Shape,
    /// [`WalkingDistance::MAX_CELLS`].
    pub max_cells: usize,
    /// [`WalkingDistance::MAX_SIDE`].
    pub max_side: usize,
}

/// One walking-distance table: the abstract states of `lines` lines of `width` cells, the blank's
/// goal on line `blank_goal`, with their distances to the goal's abstract state in one metric.
#[derive(Debug)]
struct Table {
    lines: usize,
    /// Bits per count in a packed key.
    bits: u32,
    /// Packed key (see [`Table::pack`]) → state index.
    index: FxHashMap<u128, u32>,
    /// Distance of each state to the goal's, in abstract moves of the table's metric.
    dist: Vec<u8>,
    /// Single-tile steps: `next[(s * 2 + d) * lines + c]` is the state after the blank of state
    /// `s` moves one line down (`d = 0`) or up (`d = 1`) and a tile of class `c` moves the other
    /// way into its line; `u32::MAX` when there is no such tile or line.
    next: Vec<u32>,
}

/// One abstract state while building: counts `[line][class]`, and the blank's line.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    counts: Vec<u8>,
    blank: usize,
}

impl Table {
    /// Packs a state: the blank's line in the low 8 bits, then each count in `bits` bits.
    fn pack(&self, counts: &[u8], blank: usize) -> u128 {
        pack(self.bits, counts, blank)
    }

    /// Builds the table by breadth-first search from the goal's abstract state. O(states ×
    /// lines²) time in STM, O(states × lines^lines) in MTM (chains of steps); small for the
    /// boards served.
    fn build(lines: usize, width: usize, blank_goal: usize, metric: Metric) -> Table {
        let bits = usize::BITS - width.leading_zeros();
        let mut goal = vec![0u8; lines * lines];
        for l in 0..lines {
            goal[l * lines + l] = (width - usize::from(l == blank_goal)) as u8;
        }
        // Enumerate the states reachable by single-tile steps (the same set as by MTM moves,
        // which are chains of steps), assigning indices in that order.
        let mut states: Vec<State> = vec![State {
            counts: goal,
            blank: blank_goal,
        }];
        let mut index: FxHashMap<u128, u32> = FxHashMap::default();
        index.insert(pack(bits, &states[0].counts, blank_goal), 0);
        let mut next: Vec<u32> = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let s = states[i].clone();
            for d in 0..2 {
                for c in 0..lines {
                    let to = step(&s, lines, d, c);
                    let id = match to {
                        None => u32::MAX,
                        Some(t) => {
                            let key = pack(bits, &t.counts, t.blank);
                            *index.entry(key).or_insert_with(|| {
                                states.push(t);
                                (states.len() - 1) as u32
                            })
                        }
                    };
                    next.push(id);
                }
            }
            i += 1;
        }
        let n = states.len();
        let mut dist = vec![u8::MAX; n];
        dist[0] = 0;
        let mut frontier = vec![0u32];
        let mut depth = 0u8;
        let mut chain = Vec::new();
        while !frontier.is_empty() {
            depth += 1;
            let mut new = Vec::new();
            for &s in &frontier {
                for d in 0..2 {
                    // Chains of 1..k steps in direction d (k = 1 in STM).
                    chain.clear();
                    chain.push(s);
                    let mut level = 0;
                    while level < chain.len() {
                        let end = chain.len();
                        for j in level..end {
                            let from = chain[j] as usize;
                            for c in 0..lines {
                                let t = next[(from * 2 + d) * lines + c];
                                if t == u32::MAX {
                                    continue;
                                }
                                if metric == Metric::Mtm {
                                    chain.push(t);
                                }
                                if dist[t as usize] == u8::MAX {
                                    dist[t as usize] = depth;
                                    new.push(t);
                                }
                            }
                        }
                        level = end;
                    }
                }
            }
            frontier = new;
        }
        Table {
            lines,
            bits,
            index,
            dist,
            next,
        }
    }
}

/// Packs counts and the blank's line into a key (see [`Table::pack`]).
fn pack(bits: u32, counts: &[u8], blank: usize) -> u128 {
    let mut key = blank as u128;
    for (i, &c) in counts.iter().enumerate() {
        key |= u128::from(c) << (8 + i as u32 * bits);
    }
    key
}

/// The state after the blank of `s` moves one line down (`d = 0`) or up (`d = 1`) and a tile
/// of class `c` from the line it enters moves into the blank's line; `None` when there is no
/// such line or tile.
fn step(s: &State, lines: usize, d: usize, c: usize) -> Option<State> {
    let to = if d == 0 {
        (s.blank + 1 < lines).then_some(s.blank + 1)?
    } else {
        s.blank.checked_sub(1)?
    };
    if s.counts[to * lines + c] == 0 {
        return None;
    }
    let mut t = s.clone();
    t.counts[to * lines + c] -= 1;
    t.counts[s.blank * lines + c] += 1;
    t.blank = to;
    Some(t)
}

/// The tables built so far in this process, by (lines, width, blank's goal line, metric).
type Cache = Mutex<HashMap<(usize, usize, usize, Metric), Arc<Table>>>;

/// The table for these parameters, built on first use and shared.
fn table(lines: usize, width: usize, blank_goal: usize, metric: Metric) -> Arc<Table> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let key = (lines, width, blank_goal, metric);
    if let Some(t) = cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(&key)
    {
        return Arc::clone(t);
    }
    // Built outside the lock; two threads may both build the same table, the first one kept.
    let built = Arc::new(Table::build(lines, width, blank_goal, metric));
    Arc::clone(
        cache
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_insert(built),
    )
}

/// The walking-distance heuristic (see the [module docs](self)): the vertical plus the
/// horizontal walking distance, in the single-tile metric ([`Metric::Stm`]) or the multi-tile
/// metric ([`Metric::Mtm`]), relative to a [`Goal`]. Admissible and consistent in the metric
/// it was built for.
///
/// Its [`Heuristic::Memo`] is the pair of abstract state indices, so that IDA\* updates it in
/// O(1) per single-tile move.
///
/// ```
/// use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Metric, WalkingDistance, parse_board};
/// let layout = parse_board("1 2 3 4 5 6 0 7 8", None)?;
/// let goal = Goal::blank_last(layout.shape());
/// let board = BitBoard::from_layout(&layout)?;
/// // Two tiles to slide left: two single-tile moves, one multi-tile move.
/// assert_eq!(WalkingDistance::new(&goal, Metric::Stm)?.estimate(&board), 2);
/// assert_eq!(WalkingDistance::new(&goal, Metric::Mtm)?.estimate(&board), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct WalkingDistance {
    metric: Metric,
    shape: Shape,
    /// Rows: lines = H, width W, classes = goal rows.
    vertical: Arc<Table>,
    /// Columns: lines = W, width H, classes = goal columns.
    horizontal: Arc<Table>,
    /// Goal row of each tile.
    goal_row: Vec<u8>,
    /// Goal column of each tile.
    goal_col: Vec<u8>,
}

impl WalkingDistance {
    /// The most cells of a board served.
    pub const MAX_CELLS: usize = 16;
    /// The longest side of a board served.
    pub const MAX_SIDE: usize = 6;

    /// Whether boards of `shape` are served: at most [`WalkingDistance::MAX_CELLS`] cells and
    /// sides of at most [`WalkingDistance::MAX_SIDE`], so that each table has at most 367,560
    /// abstract states.
    pub fn supports(shape: Shape) -> bool {
        shape.cells() <= Self::MAX_CELLS
            && shape.width() <= Self::MAX_SIDE
            && shape.height() <= Self::MAX_SIDE
    }

    /// Builds the heuristic for `goal` in `metric`, building its two tables on their first use
    /// in this process (about 50 ms each on 4×4, under a second for the
    /// largest, 6×2's and 5×3's; then shared).
    ///
    /// # Errors
    /// [`WalkingShapeError`] for a shape not [supported](WalkingDistance::supports).
    pub fn new(goal: &Goal, metric: Metric) -> Result<WalkingDistance, WalkingShapeError> {
        let shape = goal.shape();
        if !Self::supports(shape) {
            return Err(WalkingShapeError {
                shape,
                max_cells: Self::MAX_CELLS,
                max_side: Self::MAX_SIDE,
            });
        }
        let (w, h) = (shape.width(), shape.height());
        let (br, bc) = shape.coords(goal.cell_of(0));
        let n = shape.cells();
        Ok(WalkingDistance {
            metric,
            shape,
            vertical: table(h, w, br, metric),
            horizontal: table(w, h, bc, metric),
            goal_row: (0..n)
                .map(|t| shape.coords(goal.cell_of(t)).0 as u8)
                .collect(),
            goal_col: (0..n)
                .map(|t| shape.coords(goal.cell_of(t)).1 as u8)
                .collect(),
        })
    }

    /// The metric the heuristic counts moves in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The two abstract state indices `(vertical, horizontal)` of a board given cell by cell.
    /// O(N) plus two hash lookups.
    fn indices(&self, tile_at: impl Fn(usize) -> usize) -> (u32, u32) {
        let (w, h) = (self.shape.width(), self.shape.height());
        // At most 6×6 counts per table.
        let mut rows = [0u8; 36];
        let mut cols = [0u8; 36];
        let (mut blank_row, mut blank_col) = (0, 0);
        for c in 0..self.shape.cells() {
            let (r, col) = (c / w, c % w);
            let t = tile_at(c);
            if t == 0 {
                (blank_row, blank_col) = (r, col);
                continue;
            }
            rows[r * h + usize::from(self.goal_row[t])] += 1;
            cols[col * w + usize::from(self.goal_col[t])] += 1;
        }
        let find = |table: &Table, counts: &[u8], blank: usize| {
            *table
                .index
                .get(&table.pack(counts, blank))
                .expect("every abstract state of a board is in its table (each is reachable)")
        };
        (
            find(&self.vertical, &rows[..h * h], blank_row),
            find(&self.horizontal, &cols[..w * w], blank_col),
        )
    }

    /// The estimate of a pair of abstract state indices.
    #[inline]
    fn value(&self, (v, h): (u32, u32)) -> u32 {
        u32::from(self.vertical.dist[v as usize]) + u32::from(self.horizontal.dist[h as usize])
    }

    /// The estimate of a layout (the same value as [`Heuristic::estimate`] on any board type).
    /// O(N).
    pub fn estimate_layout(&self, layout: &crate::Layout) -> u32 {
        self.value(self.indices(|c| layout.tile(c)))
    }

    /// The vertical and horizontal walking distances of a layout, in moves of the metric.
    /// O(N).
    pub fn parts(&self, layout: &crate::Layout) -> (u32, u32) {
        let (v, h) = self.indices(|c| layout.tile(c));
        (
            u32::from(self.vertical.dist[v as usize]),
            u32::from(self.horizontal.dist[h as usize]),
        )
    }
}

impl<B: Board> Heuristic<B> for WalkingDistance {
    /// The abstract state indices (vertical, horizontal).
    type Memo = (u32, u32);

    fn for_goal(&self, goal: &Goal) -> Option<Self> {
        WalkingDistance::new(goal, self.metric).ok()
    }

    fn name(&self) -> &'static str {
        "walking-distance"
    }

    fn properties(&self) -> HeuristicProperties {
        HeuristicProperties::CONSISTENT
    }

    fn estimate(&self, board: &B) -> u32 {
        self.value(self.indices(|c| board.tile(c)))
    }

    fn update(&self, board: &B, _h: u32, m: Move) -> u32 {
        self.estimate(&board.neighbor(m))
    }

    fn estimate_memo(&self, board: &B) -> (u32, Self::Memo) {
        let memo = self.indices(|c| board.tile(c));
        (self.value(memo), memo)
    }

    /// One single-tile step: the moving tile's class picks the transition of the table of the
    /// move's axis. O(1).
    #[inline]
    fn update_memo(&self, board: &B, _h: u32, memo: &Self::Memo, m: Move) -> (u32, Self::Memo) {
        let tile = board.tile(board.tile_cell(m));
        // `Up` and `Left` slide the tile toward the blank from below / from the right: the
        // blank moves down (right), direction 0 of the table.
        let d = usize::from(matches!(m, Move::Down | Move::Right));
        let (v, h) = *memo;
        let memo = if m.is_vertical() {
            let t = &self.vertical;
            let c = usize::from(self.goal_row[tile]);
            (t.next[(v as usize * 2 + d) * t.lines + c], h)
        } else {
            let t = &self.horizontal;
            let c = usize::from(self.goal_col[tile]);
            (v, t.next[(h as usize * 2 + d) * t.lines + c])
        };
        (self.value(memo), memo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BitBoard, Layout, MtmManhattan, PackedBoard};

    /// A goal unlike blank-last and blank-first: tiles in reverse order, the blank on a
    /// middle cell.
    fn custom_goal(shape: Shape) -> Layout {
        let n = shape.cells();
        let mut cells: Vec<usize> = (1..n).rev().collect();
        cells.insert(n / 2, 0);
        Layout::new(shape, &cells).unwrap()
    }

    /// The number of abstract states: Takahashi's 24,964 for the 15-puzzle's rows, and the
    /// largest table served.
    #[test]
    fn table_sizes() {
        assert_eq!(table(4, 4, 3, Metric::Stm).dist.len(), 24_964);
        assert_eq!(table(3, 3, 2, Metric::Mtm).dist.len(), 105);
        assert_eq!(table(6, 2, 5, Metric::Mtm).dist.len(), 367_560);
        assert_eq!(table(5, 3, 0, Metric::Stm).dist.len(), 352_560);
        // Every state is reached, in both metrics.
        for t in [table(4, 4, 3, Metric::Stm), table(4, 4, 3, Metric::Mtm)] {
            assert!(t.dist.iter().all(|&d| d != u8::MAX));
        }
    }

    #[test]
    fn refuses_large_shapes() {
        for (w, h) in [(2, 7), (8, 2), (5, 4), (5, 5)] {
            let goal = Goal::blank_last(Shape::new(w, h).unwrap());
            let e = WalkingDistance::new(&goal, Metric::Mtm).unwrap_err();
            assert!(e.to_string().contains("walking distance serves"), "{e}");
        }
        assert!(WalkingDistance::supports(Shape::new(6, 2).unwrap()));
        assert!(WalkingDistance::supports(Shape::new(3, 5).unwrap()));
    }

    /// Incremental (memo) = from scratch after random walks, on several shapes and goals, and
    /// on two board types; WD dominates the MTM bound in MTM and Manhattan in STM.
    #[test]
    fn incremental_matches_from_scratch() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for (w, h) in [(3, 3), (4, 4), (4, 3), (3, 4), (2, 6), (5, 3), (2, 2)] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [
                Goal::blank_last(shape),
                Goal::blank_first(shape),
                // An explicit goal: the cells in reverse order, the blank in the middle.
                Goal::custom(custom_goal(shape)),
            ] {
                for metric in [Metric::Stm, Metric::Mtm] {
                    let wd = WalkingDistance::new(&goal, metric).unwrap();
                    let mtm = MtmManhattan::new(&goal);
                    let md = crate::Manhattan::new(&goal);
                    let mut b = BitBoard::from_layout(goal.layout()).unwrap();
                    let mut p = PackedBoard::from_layout(goal.layout()).unwrap();
                    let (mut hv, mut memo) = wd.estimate_memo(&b);
                    assert_eq!(hv, 0);
                    for _ in 0..400 {
                        let legal: Vec<Move> = Move::ALL
                            .into_iter()
                            .filter(|&m| b.legal().contains(m))
                            .collect();
                        let m = legal[(rnd() % legal.len() as u64) as usize];
                        let (h2, memo2) = wd.update_memo(&b, hv, &memo, m);
                        assert_eq!(h2, Heuristic::<BitBoard>::update(&wd, &b, hv, m));
                        b.apply(m);
                        p.apply(m);
                        (hv, memo) = (h2, memo2);
                        assert_eq!(hv, Heuristic::<BitBoard>::estimate(&wd, &b));
                        assert_eq!(hv, Heuristic::<PackedBoard>::estimate(&wd, &p));
                        assert_eq!(hv, wd.estimate_layout(&b.to_layout()));
                        let lower = match metric {
                            Metric::Mtm => Heuristic::<BitBoard>::estimate(&mtm, &b),
                            Metric::Stm => Heuristic::<BitBoard>::estimate(&md, &b),
                        };
                        assert!(hv >= lower, "{w}x{h} {metric:?}: {hv} < {lower}");
                    }
                }
            }
        }
    }
}
