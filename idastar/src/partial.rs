//! IDA\* to a **partial goal** (`npuzzle_core::partial`): a board in which some cells do not
//! matter, in the single-tile or the multi-tile metric.
//!
//! [`solve_partial`] is IDA\* (Korf 1985) over a plain array of cells (any W×H up to
//! 127×127): the goal test is "every tile that matters is on its cell" (and the blank, if
//! fixed), made only where the estimate is 0. In STM the children are the blank's moves but the
//! one undoing the last; in MTM (as [`crate::mtm::MtmIdaStar`]) the boards after 1..k
//! single-tile moves in each direction, the axes alternating. Each child's estimate is computed
//! from scratch (O(groups × k²) with `npuzzle_pdb::PartialDb`, O(W·H) with
//! `npuzzle_core::PartialManhattan`'s conflicts). Optimal in the heuristic's metric
//! ([`PartialHeuristic::metric`]) since partial-goal heuristics are admissible by contract.
//!
//! Solvability is decided first ([`PartialGoal::solvability`]): an unsolvable board is
//! [`Outcome::Unsolvable`], never searched. Returned moves are single-tile moves, as every
//! engine's; their MTM length is `npuzzle_core::mtm_length`.

use npuzzle_core::{
    BoundKind, Guarantee, Iteration, Layout, Limit, LimitClock, Limits, Metric, Move, Outcome,
    PartialGoal, PartialHeuristic, Progress, SearchError, Solution, Stats, legal_moves,
};

/// Checks limits every this many generated nodes.
const CHECK_INTERVAL: u64 = 1 << 12;
/// Reports progress about every this many generated nodes.
const REPORT_INTERVAL: u64 = 1 << 20;

/// How one depth-first walk ended.
enum End {
    Found,
    Exceeded(u32),
    Stopped(Limit),
}

struct Walk<'a, H, O> {
    heuristic: &'a H,
    goal: &'a PartialGoal,
    metric: Metric,
    width: usize,
    height: usize,
    cells: Vec<u16>,
    pos: Vec<u16>,
    blank: usize,
    path: Vec<Move>,
    expanded: u64,
    generated: u64,
    next_check: u64,
    next_report: u64,
    clock: &'a LimitClock,
    observer: O,
}

impl<H: PartialHeuristic, O: FnMut(&Progress)> Walk<'_, H, O> {
    #[inline]
    fn legal(&self, dir: Move) -> bool {
        legal_moves(self.blank, self.width, self.height).contains(dir)
    }

    #[inline]
    fn apply(&mut self, dir: Move) {
        let t = dir.blank_target(self.blank, self.width);
        let tile = self.cells[t];
        self.cells[self.blank] = tile;
        self.pos[tile as usize] = self.blank as u16;
        self.cells[t] = 0;
        self.pos[0] = t as u16;
        self.blank = t;
    }

    fn progress(&self, threshold: u32) -> Progress {
        Progress {
            expanded: self.expanded,
            generated: self.generated,
            seconds: self.clock.seconds(),
            bound: threshold,
            stored_states: 0,
            bound_kind: BoundKind::FBound,
        }
    }

    fn check(&mut self, threshold: u32) -> Option<Limit> {
        if self.generated < self.next_check {
            return None;
        }
        self.next_check = self.clock.next_node_check(self.generated, CHECK_INTERVAL);
        if self.generated >= self.next_report {
            self.next_report = self.generated + REPORT_INTERVAL;
            let p = self.progress(threshold);
            (self.observer)(&p);
        }
        self.clock.check(self.generated)
    }

    /// Depth-first search at depth `g`, estimate `h`; `last` is the last move (STM: its
    /// inverse is skipped; MTM: its axis is).
    fn dfs(&mut self, g: u32, h: u32, last: Option<Move>, threshold: u32) -> End {
        if h == 0 && self.goal.is_reached(&self.cells) {
            return End::Found;
        }
        if let Some(limit) = self.check(threshold) {
            return End::Stopped(limit);
        }
        self.expanded += 1;
        let mut least = u32::MAX;
        for dir in Move::ALL {
            match (self.metric, last) {
                (Metric::Stm, Some(l)) if l == dir.inverse() => continue,
                (Metric::Mtm, Some(l)) if l.is_vertical() == dir.is_vertical() => continue,
                _ => {}
            }
            let mut k = 0;
            while self.legal(dir) {
                self.apply(dir);
                self.path.push(dir);
                k += 1;
                self.generated += 1;
                let hc = self.heuristic.estimate(&self.cells, &self.pos);
                let f = g + 1 + hc;
                if f <= threshold {
                    match self.dfs(g + 1, hc, Some(dir), threshold) {
                        End::Found => return End::Found,
                        End::Stopped(l) => return End::Stopped(l),
                        End::Exceeded(next) => least = least.min(next),
                    }
                } else {
                    least = least.min(f);
                }
                if self.metric == Metric::Stm {
                    break;
                }
            }
            for _ in 0..k {
                self.apply(dir.inverse());
                self.path.pop();
            }
        }
        End::Exceeded(least)
    }
}

/// Finds a shortest solution from `start` to the partial `goal` in `heuristic`'s metric
/// (see the [module docs](crate::partial)), or proves by parity that none exists. `observer`
/// is called once per iteration and about every 2^20 generated nodes. Time: that of IDA\*
/// with this heuristic; memory O(depth + W·H).
///
/// # Errors
/// [`SearchError::LimitReached`] when a node, time or cancel limit stops the search (its
/// progress bound is a proven lower bound on the optimum); [`SearchError::Goal`] when the
/// shapes differ.
///
/// # Panics
/// If the heuristic, contrary to its contract, makes a solvable board's search run out of
/// children (an estimate of `u32::MAX - 1` or more).
pub fn solve_partial<H: PartialHeuristic, O: FnMut(&Progress)>(
    start: &Layout,
    goal: &PartialGoal,
    heuristic: &H,
    limits: &Limits,
    observer: O,
) -> Result<Outcome, SearchError> {
    let parity = goal.solvability(start)?;
    if !parity.solvable {
        return Ok(Outcome::Unsolvable(parity));
    }
    let clock = LimitClock::new(limits);
    let shape = start.shape();
    let cells = start.cells().to_vec();
    let pos = start.positions();
    let h0 = heuristic.estimate(&cells, &pos);
    let mut walk = Walk {
        heuristic,
        goal,
        metric: heuristic.metric(),
        width: shape.width(),
        height: shape.height(),
        blank: start.blank(),
        cells,
        pos,
        path: Vec::new(),
        expanded: 0,
        generated: 0,
        next_check: clock.next_node_check(0, CHECK_INTERVAL),
        next_report: REPORT_INTERVAL,
        clock: &clock,
        observer,
    };
    let mut iterations = Vec::new();
    let mut threshold = h0;
    loop {
        let (e0, g0) = (walk.expanded, walk.generated);
        let end = walk.dfs(0, h0, None, threshold);
        iterations.push(Iteration {
            threshold,
            expanded: walk.expanded - e0,
            generated: walk.generated - g0,
        });
        let p = walk.progress(threshold);
        (walk.observer)(&p);
        match end {
            End::Found => {
                return Ok(Outcome::Solved(Solution {
                    moves: std::mem::take(&mut walk.path),
                    guarantee: Guarantee::Optimal,
                    stats: Stats {
                        expanded: walk.expanded,
                        generated: walk.generated,
                        seconds: clock.seconds(),
                        initial_h: h0,
                        iterations,
                        ..Stats::default()
                    },
                }));
            }
            End::Stopped(limit) => {
                return Err(SearchError::LimitReached {
                    limit,
                    progress: walk.progress(threshold),
                });
            }
            End::Exceeded(next) => {
                // A solvable board always has a next threshold; u32::MAX would mean the
                // heuristic claims every child unreachable, which no admissible one does.
                assert!(next != u32::MAX, "partial-goal search ran out of children");
                threshold = next;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{PartialManhattan, Shape, parse_board, parse_partial, verify_partial};

    #[test]
    fn first_row_of_the_8_puzzle() {
        let s = Shape::square(3).unwrap();
        let goal =
            PartialGoal::new(&parse_partial("123xxxxxx", None).unwrap().unwrap(), s).unwrap();
        let board = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
        for metric in Metric::ALL {
            let h = PartialManhattan::new(&goal, metric);
            let Outcome::Solved(sol) =
                solve_partial(&board, &goal, &h, &Limits::default(), |_| {}).unwrap()
            else {
                panic!("solvable");
            };
            assert!(verify_partial(&board, &sol.moves, &goal).is_ok());
            assert!(sol.moves.len() >= h.estimate(board.cells(), &board.positions()) as usize);
        }
    }

    #[test]
    fn a_node_limit_stops_it() {
        let s = Shape::square(4).unwrap();
        let goal = PartialGoal::new(&npuzzle_core::PartialKind::FirstRows(2), s).unwrap();
        let board = parse_board("fedcba9876543210", None).unwrap();
        let h = PartialManhattan::new(&goal, Metric::Stm);
        let limits = Limits {
            max_nodes: Some(1000),
            ..Limits::default()
        };
        assert!(matches!(
            solve_partial(&board, &goal, &h, &limits, |_| {}),
            Err(SearchError::LimitReached {
                limit: Limit::Nodes(1000),
                ..
            })
        ));
    }
}
