//! The constructive solver: places tiles line by line, for boards too big to solve optimally.

use npuzzle_core::{
    BitBoard, Board, Goal, Guarantee, Heuristic, HeuristicProperties, Layout, Limits, Manhattan,
    Move, Outcome, Progress, SearchError, SearchStart, Solution, Solver, Stats, StopAt,
    start_search,
};

use crate::line_beam::{LineProblem, line_beam};
use crate::weighted::WeightedAStar;

/// Marks "no cell" in routing arguments.
const NONE: usize = usize::MAX;

/// The constructive (human-style) solver for any board up to 127×127: it always finishes, in
/// time about linear in the solution length, and its answers are **not** optimal.
///
/// The method is the standard reduction (e.g. Parberry, "A real-time algorithm for the
/// (n²−1)-puzzle", Information Processing Letters 56, 1995), generalised to W×H boards and to any
/// goal: while the unsolved rectangle is more than 3 cells high (wide), it places the tiles of
/// its top or bottom row (left or right column: whichever side does not hold the goal cell of
/// the blank) one by one — each tile walked step by step, the blank routed around it without
/// touching placed tiles. The last two tiles of a line use the classic trick: tile `a` goes to the
/// line's end cell, tile `b` just inside it, and two moves rotate them into place; when `b` is
/// caught in `a`'s goal cell, a breadth-first search over the three-deep 2-wide window at the line's
/// end (positions of `a`, `b` and the blank only) frees it. The remaining part of at most 3×3 is
/// solved optimally by A* with Manhattan distance. Finally, adjacent moves that cancel (a move
/// followed by its inverse) are removed.
///
/// Cost: O(solution length) moves, each O(1) amortised (the blank's routes are found greedily
/// and by breadth-first search in small windows), plus O(W·H) memory. On a random 127×127 board
/// the solution is a few million moves long, a small constant times the Manhattan lower bound.
///
/// ```
/// use npuzzle_core::{Board, Goal, Limits, Outcome, Solver, Zero, parse_board, verify};
/// use npuzzle_nxn::{Constructive, VecBoard};
/// let start = parse_board("5 1 2 3 4 6 0 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24", None)?;
/// let goal = Goal::blank_last(start.shape());
/// let b = VecBoard::from_layout(&start)?;
/// let Outcome::Solved(s) = Constructive::new().solve(&b, &goal, &Zero, &Limits::default())?
/// else { panic!("solvable") };
/// verify(&start, &s.moves, goal.layout())?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Constructive;

impl Constructive {
    /// The solver.
    pub fn new() -> Constructive {
        Constructive
    }

    /// Solves `start` (solvable for `goal`, same shape) and returns the moves, cancelling pairs
    /// included. O(W·H + moves) time.
    ///
    /// # Panics
    /// If `start` is not solvable for `goal` or has another shape (check parity first); never
    /// otherwise (a route that cannot be found would be a bug, reported by the panic).
    pub fn solve_layout(start: &Layout, goal: &Goal) -> Vec<Move> {
        assert_eq!(start.shape(), goal.shape(), "start and goal shapes differ");
        let mut w = Work::new(start, goal);
        w.run();
        cancel_inverse_pairs(&mut w.moves);
        w.moves
    }

    /// Reduces `start` to a corner of at most `width` × `height` cells: the same line-by-line
    /// placement as [`Constructive::solve_layout`], stopped as soon as the unsolved rectangle
    /// fits (it is the rectangle around the goal cell of the blank). Every tile outside it is
    /// then on its goal cell, so solving the corner as a puzzle of its own ([`Reduction`])
    /// solves the board: `reduction.moves` followed by the corner's moves. Sides below 3 are
    /// taken as 3 (the constructive rule needs 3 lines to manoeuvre in). When the board fits
    /// already, no move is made and the corner is the whole board.
    ///
    /// O(W·H + moves) time, like [`Constructive::solve_layout`].
    ///
    /// # Panics
    /// As [`Constructive::solve_layout`]: if `start` is not solvable for `goal` or has another
    /// shape.
    pub fn reduce(start: &Layout, goal: &Goal, width: usize, height: usize) -> Reduction {
        Constructive::reduce_with_beams(start, goal, width, height, 0, &StopAt::never())
    }

    /// [`Constructive::reduce`], each line placed by a beam search of `beam_width` states a
    /// layer over the cells of the blank and the line's tiles only (the other tiles do not
    /// matter for placing a line), ranked by the line tiles' Manhattan distance; a line the beam
    /// does not place within 64 + 48·k steps (k tiles), or once `stop` is reached (its deadline
    /// passed or its cancel flag set), is placed by the rules. `beam_width` 0: the rules only,
    /// as [`Constructive::reduce`].
    ///
    /// Time: O(k² · steps · `beam_width`) a line at most; the answer is usually much shorter
    /// than the rules' (BENCHMARKS.md, "Beyond 7×7").
    ///
    /// # Panics
    /// As [`Constructive::reduce`].
    pub fn reduce_with_beams(
        start: &Layout,
        goal: &Goal,
        width: usize,
        height: usize,
        beam_width: usize,
        stop: &StopAt,
    ) -> Reduction {
        assert_eq!(start.shape(), goal.shape(), "start and goal shapes differ");
        let mut w = Work::new(start, goal);
        w.line_beam = beam_width;
        w.line_stop = stop.clone();
        let rect = w.place_lines(width.max(3), height.max(3));
        cancel_inverse_pairs(&mut w.moves);
        let (start, goal) = w.corner(rect);
        Reduction {
            moves: w.moves,
            row: rect.r0,
            column: rect.c0,
            start,
            goal,
        }
    }
}

/// A board reduced to a corner ([`Constructive::reduce`]): the moves made so far, and the
/// unsolved rectangle as a puzzle of its own — its tiles renumbered 1, 2, … in the order of
/// their goal cells (row by row), the blank 0, with a custom goal. A move of the corner puzzle
/// is the same move on the board (moves name the direction a tile slides), so the board's
/// solution is `moves` followed by any solution of the corner.
#[derive(Clone, Debug)]
pub struct Reduction {
    /// The moves that placed every tile outside the corner.
    pub moves: Vec<Move>,
    /// The corner's top row on the board (0-based).
    pub row: usize,
    /// The corner's left column on the board (0-based).
    pub column: usize,
    /// The corner after `moves`, renumbered: solvable for `goal`.
    pub start: Layout,
    /// The corner's goal, renumbered (the goal cell of the blank holds 0).
    pub goal: Goal,
}

impl<B: Board> Solver<B> for Constructive {
    fn name(&self) -> &'static str {
        "constructive"
    }

    /// Nothing: the constructive solver places tiles by rule and proves no bound on its length
    /// (the heuristic only gives [`Stats::initial_h`], a lower bound when admissible).
    fn guarantee(&self, _heuristic: HeuristicProperties) -> Guarantee {
        Guarantee::Unproven
    }

    /// Solves `start`; the heuristic serves only for [`Stats::initial_h`]. Unsolvable boards are
    /// answered by parity and the goal itself with no moves and all-zero stats
    /// ([`start_search`]). Limits are not checked (the solver finishes in O(W·H·(W+H)) moves).
    ///
    /// # Errors
    /// [`SearchError::Goal`] when the goal's shape differs from the board's.
    fn solve_observed<H: Heuristic<B>, O: FnMut(&Progress)>(
        &mut self,
        start: &B,
        goal: &Goal,
        heuristic: &H,
        _limits: &Limits,
        _observer: O,
    ) -> Result<Outcome, SearchError> {
        let clock = std::time::Instant::now();
        let layout = match start_search(start, goal)? {
            SearchStart::Answered(outcome) => return Ok(outcome),
            SearchStart::Search { start_layout, .. } => start_layout,
        };
        let moves = Constructive::solve_layout(&layout, goal);
        Ok(Outcome::Solved(Solution {
            moves,
            guarantee: Guarantee::Unproven,
            stats: Stats {
                seconds: clock.elapsed().as_secs_f64(),
                initial_h: heuristic.estimate(start),
                ..Stats::default()
            },
        }))
    }
}

/// Removes every move directly followed by its inverse, repeatedly (a stack pass), in place.
/// O(moves). The result reaches the same board.
pub fn cancel_inverse_pairs(moves: &mut Vec<Move>) {
    let mut kept = 0;
    for i in 0..moves.len() {
        let m = moves[i];
        if kept > 0 && moves[kept - 1] == m.inverse() {
            kept -= 1;
        } else {
            moves[kept] = m;
            kept += 1;
        }
    }
    moves.truncate(kept);
}

/// The unsolved rectangle: rows `r0..=r1`, columns `c0..=c1`.
#[derive(Clone, Copy, Debug)]
struct Rect {
    r0: usize,
    r1: usize,
    c0: usize,
    c1: usize,
}

impl Rect {
    fn height(self) -> usize {
        self.r1 + 1 - self.r0
    }
    fn width(self) -> usize {
        self.c1 + 1 - self.c0
    }
}

/// The working state of one constructive solve.
struct Work {
    w: usize,
    h: usize,
    /// Tile on each cell.
    cells: Vec<u16>,
    /// Cell of each tile.
    pos: Vec<u32>,
    /// Goal tile of each cell.
    goal_tile: Vec<u16>,
    blank: usize,
    /// Cells the blank must not enter (placed tiles, and tiles held for a manoeuvre).
    locked: Vec<bool>,
    moves: Vec<Move>,
    // Breadth-first search scratch, reused by every route.
    stamp: Vec<u32>,
    generation: u32,
    prev: Vec<u32>,
    queue: Vec<u32>,
    path: Vec<usize>,
    /// Beam width of [`Work::beam_line`]; 0: lines are placed by the rules only.
    line_beam: usize,
    /// When [`Work::beam_line`] stops trying.
    line_stop: StopAt,
}

impl Work {
    fn new(start: &Layout, goal: &Goal) -> Work {
        let shape = start.shape();
        let n = shape.cells();
        let cells: Vec<u16> = start.cells().to_vec();
        let mut pos = vec![0u32; n];
        for (c, &t) in cells.iter().enumerate() {
            pos[t as usize] = c as u32;
        }
        Work {
            w: shape.width(),
            h: shape.height(),
            cells,
            pos,
            goal_tile: goal.layout().cells().to_vec(),
            blank: start.blank(),
            locked: vec![false; n],
            moves: Vec::new(),
            stamp: vec![0; n],
            generation: 0,
            prev: vec![0; n],
            queue: Vec::new(),
            path: Vec::new(),
            line_beam: 0,
            line_stop: StopAt::never(),
        }
    }

    fn run(&mut self) {
        let rect = self.place_lines(3, 3);
        self.finish(rect);
    }

    /// Places whole lines until the unsolved rectangle is at most `max_w` × `max_h` (both at
    /// least 3), and returns it.
    fn place_lines(&mut self, max_w: usize, max_h: usize) -> Rect {
        let goal_blank = self.goal_tile.iter().position(|&t| t == 0).unwrap_or(0);
        let (gr, gc) = (goal_blank / self.w, goal_blank % self.w);
        let mut rect = Rect {
            r0: 0,
            r1: self.h - 1,
            c0: 0,
            c1: self.w - 1,
        };
        while rect.height() > max_h || rect.width() > max_w {
            // The longer side first, while it is too long; else the other one.
            if rect.height() > max_h && (rect.height() >= rect.width() || rect.width() <= max_w) {
                let (row, inward) = if gr > rect.r0 {
                    (rect.r0, self.w as isize)
                } else {
                    (rect.r1, -(self.w as isize))
                };
                let line: Vec<usize> = (rect.c0..=rect.c1).map(|c| row * self.w + c).collect();
                if !self.beam_line(&line) {
                    self.place_line(&line, inward, true);
                }
                if row == rect.r0 {
                    rect.r0 += 1;
                } else {
                    rect.r1 -= 1;
                }
            } else {
                let (col, inward) = if gc > rect.c0 {
                    (rect.c0, 1)
                } else {
                    (rect.c1, -1)
                };
                let line: Vec<usize> = (rect.r0..=rect.r1).map(|r| r * self.w + col).collect();
                if !self.beam_line(&line) {
                    self.place_line(&line, inward, false);
                }
                if col == rect.c0 {
                    rect.c0 += 1;
                } else {
                    rect.c1 -= 1;
                }
            }
        }
        rect
    }

    /// Places `line`'s tiles by [`line_beam`] when [`Work::line_beam`] is set, and locks the
    /// line; false (nothing moved) when it is not set or the beam finds no placement.
    fn beam_line(&mut self, line: &[usize]) -> bool {
        if self.line_beam == 0 {
            return false;
        }
        let goals: Vec<u32> = line.iter().map(|&c| c as u32).collect();
        let tiles: Vec<u32> = line
            .iter()
            .map(|&c| self.pos[self.goal_tile[c] as usize])
            .collect();
        let problem = LineProblem {
            w: self.w,
            h: self.h,
            locked: &self.locked,
            goals: &goals,
        };
        let max_depth = 64 + 48 * line.len();
        let Some(steps) = line_beam(
            &problem,
            self.blank as u32,
            &tiles,
            self.line_beam,
            max_depth,
            &self.line_stop,
        ) else {
            return false;
        };
        for c in steps {
            self.step_blank(c as usize);
        }
        for &c in line {
            debug_assert_eq!(self.cells[c], self.goal_tile[c]);
            self.locked[c] = true;
        }
        true
    }

    /// Slides the tile on the blank's neighbour `to` into the blank.
    #[inline]
    fn step_blank(&mut self, to: usize) {
        let b = self.blank;
        let m = if to + self.w == b {
            Move::Down
        } else if to == b + self.w {
            Move::Up
        } else if to + 1 == b {
            Move::Right
        } else {
            debug_assert_eq!(to, b + 1, "not a neighbour of the blank");
            Move::Left
        };
        debug_assert!(!self.locked[to], "moving a locked tile");
        let t = self.cells[to];
        self.cells[b] = t;
        self.pos[t as usize] = b as u32;
        self.cells[to] = 0;
        self.pos[0] = to as u32;
        self.blank = to;
        self.moves.push(m);
    }

    /// Manhattan distance between two cells.
    #[inline]
    fn distance(&self, a: usize, b: usize) -> usize {
        (a / self.w).abs_diff(b / self.w) + (a % self.w).abs_diff(b % self.w)
    }

    /// Moves the blank needs to reach `next`, a neighbour of the tile on `cur`, without
    /// moving that tile, in open space: the Manhattan distance, plus 2 when the tile stands
    /// between them.
    #[inline]
    fn detour(&self, cur: usize, next: usize) -> usize {
        let d = self.distance(self.blank, next);
        if self.blank.wrapping_add(next) == 2 * cur && self.distance(self.blank, cur) == 1 {
            d + 2
        } else {
            d
        }
    }

    #[inline]
    fn free(&self, cell: usize, avoid: usize) -> bool {
        cell != avoid && !self.locked[cell]
    }

    /// Routes the blank to `target` without entering locked cells or `avoid`. Greedy steps while
    /// far away, then breadth-first search in a window around the blank and the target, then
    /// over the whole board. Returns false when no route exists.
    fn route_blank(&mut self, target: usize, avoid: usize) -> bool {
        let w = self.w;
        loop {
            let (br, bc) = (self.blank / w, self.blank % w);
            let (tr, tc) = (target / w, target % w);
            let (dr, dc) = (br.abs_diff(tr), bc.abs_diff(tc));
            if dr + dc <= 3 {
                break;
            }
            let vertical = (dr > 0).then(|| {
                if tr > br {
                    self.blank + w
                } else {
                    self.blank - w
                }
            });
            let horizontal = (dc > 0).then(|| {
                if tc > bc {
                    self.blank + 1
                } else {
                    self.blank - 1
                }
            });
            let order = if dr >= dc {
                [vertical, horizontal]
            } else {
                [horizontal, vertical]
            };
            match order.into_iter().flatten().find(|&c| self.free(c, avoid)) {
                Some(c) => self.step_blank(c),
                None => break,
            }
        }
        if self.blank == target {
            return true;
        }
        let (br, bc) = (self.blank / w, self.blank % w);
        let (tr, tc) = (target / w, target % w);
        let window = |margin: usize| Rect {
            r0: br.min(tr).saturating_sub(margin),
            r1: (br.max(tr) + margin).min(self.h - 1),
            c0: bc.min(tc).saturating_sub(margin),
            c1: (bc.max(tc) + margin).min(w - 1),
        };
        // Small windows first (around a tile, 3×3 is almost always enough), the board last.
        let (small, medium, full) = (window(1), window(3), window(usize::MAX / 2));
        if !(self.bfs(target, avoid, small)
            || self.bfs(target, avoid, medium)
            || self.bfs(target, avoid, full))
        {
            return false;
        }
        let path = std::mem::take(&mut self.path);
        for &c in path.iter().rev() {
            self.step_blank(c);
        }
        self.path = path;
        true
    }

    /// Breadth-first search for the blank from its cell to `target` inside `win`; on success
    /// leaves the route in `self.path` (target first, the blank's cell excluded).
    fn bfs(&mut self, target: usize, avoid: usize, win: Rect) -> bool {
        let w = self.w;
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        self.queue.clear();
        self.queue.push(self.blank as u32);
        self.stamp[self.blank] = g;
        let mut head = 0;
        let mut found = false;
        while head < self.queue.len() {
            let c = self.queue[head] as usize;
            head += 1;
            if c == target {
                found = true;
                break;
            }
            let (r, col) = (c / w, c % w);
            let neighbours = [
                (r > win.r0).then(|| c - w),
                (col > win.c0).then(|| c - 1),
                (col < win.c1).then(|| c + 1),
                (r < win.r1).then(|| c + w),
            ];
            for n in neighbours.into_iter().flatten() {
                if self.stamp[n] != g && self.free(n, avoid) {
                    self.stamp[n] = g;
                    self.prev[n] = c as u32;
                    self.queue.push(n as u32);
                }
            }
        }
        if !found {
            return false;
        }
        self.path.clear();
        let mut c = target;
        while c != self.blank {
            self.path.push(c);
            c = self.prev[c] as usize;
        }
        true
    }

    /// Walks `tile` to `dest` one cell at a time, each step by routing the blank to the next
    /// cell (around the tile) and sliding the tile into it. Steps along the line's direction
    /// (`rows`: horizontal) come first.
    fn move_tile(&mut self, tile: usize, dest: usize, rows: bool) {
        let w = self.w;
        loop {
            let cur = self.pos[tile] as usize;
            if cur == dest {
                return;
            }
            let (r, c) = (cur / w, cur % w);
            let (dr, dc) = (dest / w, dest % w);
            let vertical = (r != dr).then(|| if dr > r { cur + w } else { cur - w });
            let horizontal = (c != dc).then(|| if dc > c { cur + 1 } else { cur - 1 });
            let mut order = if rows {
                [horizontal, vertical]
            } else {
                [vertical, horizontal]
            };
            // Prefer the step whose cell the blank reaches soonest: a tile moving diagonally
            // then zig-zags at 3 moves a step instead of 5 for a straight run.
            if let [Some(x), Some(y)] = order
                && self.detour(cur, y) < self.detour(cur, x)
            {
                order.swap(0, 1);
            }
            let mut moved = false;
            for next in order.into_iter().flatten() {
                if !self.locked[next] && self.route_blank(next, cur) {
                    self.step_blank(cur);
                    moved = true;
                    break;
                }
            }
            assert!(
                moved,
                "internal error: the constructive solver found no way to move tile {tile} from cell {cur} towards cell {dest}"
            );
        }
    }

    /// Places the goal tiles of the cells of `line` (an edge of the unsolved rectangle, in
    /// order); `inward` is the cell offset from the line into the rectangle.
    fn place_line(&mut self, line: &[usize], inward: isize, rows: bool) {
        let k = line.len();
        for &cell in &line[..k - 2] {
            let tile = self.goal_tile[cell] as usize;
            self.move_tile(tile, cell, rows);
            self.locked[cell] = true;
        }
        let (p, l) = (line[k - 2], line[k - 1]);
        let (a, b) = (self.goal_tile[p] as usize, self.goal_tile[l] as usize);
        let inner = |c: usize, d: isize| c.wrapping_add_signed(inward * d);
        if self.cells[p] as usize == a && self.cells[l] as usize == b {
            self.locked[p] = true;
            self.locked[l] = true;
            return;
        }
        self.move_tile(a, l, rows);
        self.locked[l] = true;
        if self.blank == p {
            // The blank is in a dead end (a's goal cell): step out; this may pull b into it.
            self.step_blank(inner(p, 1));
        }
        if self.pos[b] as usize == p {
            // b is caught in a's goal cell, a dead end: rearrange the 2×3 window at the line's
            // end by breadth-first search over the positions of a, b and the blank.
            let ok = self.route_blank(inner(p, 1), p);
            assert!(ok, "internal error: the blank cannot reach the line's end");
            self.locked[l] = false;
            let window = [p, l, inner(p, 1), inner(l, 1), inner(p, 2), inner(l, 2)];
            self.solve_window(&window, a, b);
        } else {
            self.move_tile(b, inner(l, 1), rows);
        }
        self.locked[l] = true;
        self.locked[inner(l, 1)] = true;
        let ok = self.route_blank(p, NONE);
        assert!(ok, "internal error: the blank cannot reach the line's end");
        self.locked[l] = false;
        self.locked[inner(l, 1)] = false;
        self.step_blank(l);
        self.step_blank(inner(l, 1));
        self.locked[p] = true;
        self.locked[l] = true;
    }

    /// Breadth-first search over the positions (indices into `window`, a 2-wide, 3-deep block
    /// listed row by row) of tiles `a`, `b` and the blank, which must all be inside it, to the
    /// state with `a` on `window[1]` and `b` on `window[3]`; applies the moves found.
    fn solve_window(&mut self, window: &[usize; 6], a: usize, b: usize) {
        let index = |cell: usize| window.iter().position(|&c| c == cell);
        let (Some(ia), Some(ib), Some(iz)) = (
            index(self.pos[a] as usize),
            index(self.pos[b] as usize),
            index(self.blank),
        ) else {
            panic!("internal error: tiles outside the end-of-line window");
        };
        // Window index i is at (i / 2, i % 2); neighbours differ by 1 in one coordinate.
        let adjacent = |i: usize, j: usize| {
            let (ri, ci, rj, cj) = (i / 2, i % 2, j / 2, j % 2);
            ri.abs_diff(rj) + ci.abs_diff(cj) == 1
        };
        let code = |a: usize, b: usize, z: usize| a * 36 + b * 6 + z;
        let mut prev = [usize::MAX; 216];
        let start = code(ia, ib, iz);
        prev[start] = start;
        let mut queue = std::collections::VecDeque::from([start]);
        let mut goal = None;
        while let Some(s) = queue.pop_front() {
            let (pa, pb, pz) = (s / 36, s / 6 % 6, s % 6);
            if pa == 1 && pb == 3 {
                goal = Some(s);
                break;
            }
            for nz in (0..6).filter(|&j| adjacent(pz, j)) {
                let na = if nz == pa { pz } else { pa };
                let nb = if nz == pb { pz } else { pb };
                let t = code(na, nb, nz);
                if prev[t] == usize::MAX {
                    prev[t] = s;
                    queue.push_back(t);
                }
            }
        }
        let mut s = goal.expect("every arrangement of a 2x3 window with free tiles is reachable");
        let mut blanks = Vec::new();
        while s != start {
            blanks.push(window[s % 6]);
            s = prev[s];
        }
        for &c in blanks.iter().rev() {
            self.step_blank(c);
        }
    }

    /// Solves the last part (at most 3×3, holding the blank and exactly its goal tiles)
    /// optimally with A* and Manhattan distance on a bitboard.
    /// The rectangle `rect` as a puzzle of its own: its tiles renumbered 1, 2, … in the order
    /// of their goal cells, the blank 0; its start (the tiles now on its cells) and its goal.
    /// Every tile outside `rect` must be placed.
    fn corner(&self, rect: Rect) -> (Layout, Goal) {
        let w = self.w;
        let cells: Vec<usize> = (rect.r0..=rect.r1)
            .flat_map(|r| (rect.c0..=rect.c1).map(move |c| r * w + c))
            .collect();
        // Local tile numbers: 0 for the blank, then the goal tiles in cell order.
        let mut local = std::collections::HashMap::new();
        let mut next = 1;
        for &c in &cells {
            let t = self.goal_tile[c];
            if t == 0 {
                local.insert(0u16, 0usize);
            } else {
                local.insert(t, next);
                next += 1;
            }
        }
        let shape = npuzzle_core::Shape::new(rect.width(), rect.height())
            .expect("a rectangle of the board is a valid shape");
        let to_local =
            |tiles: &[u16]| -> Vec<usize> { cells.iter().map(|&c| local[&tiles[c]]).collect() };
        let start = Layout::new(shape, &to_local(&self.cells))
            .expect("the rectangle holds exactly its goal tiles");
        let goal = Goal::custom(
            Layout::new(shape, &to_local(&self.goal_tile)).expect("a goal is a permutation"),
        );
        (start, goal)
    }

    fn finish(&mut self, rect: Rect) {
        let w = self.w;
        let (start, goal) = self.corner(rect);
        let board = BitBoard::from_layout(&start).expect("at most 9 cells");
        let mut astar = WeightedAStar::new(1.0).expect("1 is a valid weight");
        let outcome = astar
            .solve(&board, &goal, &Manhattan::new(&goal), &Limits::default())
            .expect("A* on at most 9 cells needs no limit");
        let Outcome::Solved(s) = outcome else {
            panic!("internal error: the last part of a solvable board is unsolvable");
        };
        for m in s.moves {
            let to = m.blank_target(self.blank, w);
            self.step_blank(to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancel_pairs() {
        let mut v = vec![Move::Up, Move::Left, Move::Right, Move::Down, Move::Left];
        cancel_inverse_pairs(&mut v);
        assert_eq!(v, vec![Move::Left]);
    }
}
