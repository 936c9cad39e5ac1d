//! The oracle of partial goals: breadth-first search over the abstract state space.

use std::collections::HashMap;
use std::collections::VecDeque;

use npuzzle_core::{Layout, Metric, PartialGoal};

/// Exact distances to a partial goal of every abstract state — the cells of the tiles that
/// matter and of the blank — reachable from the goal's, by breadth-first search from all of
/// the goal's abstract states (the tiles that matter on their cells, the blank on its cell or
/// on any cell no tile that matters must be on), in the single-tile or the multi-tile metric.
/// Written apart from the engines and from `npuzzle_pdb::PartialDb` (a hash map of
/// position vectors, moves by row and column arithmetic), so that it can check them.
/// O(P(N, k+1)) states: 3,024 for the 8-puzzle's first row, 524,160 for the 15-puzzle's.
pub struct PartialOracle {
    /// The tiles that matter, then the blank (0).
    items: Vec<u16>,
    dist: HashMap<Vec<u8>, u32>,
}

impl PartialOracle {
    /// Runs the BFS. O(states × moves of a state) time and memory.
    ///
    /// # Panics
    /// If the board has more than 256 cells.
    pub fn new(goal: &PartialGoal, metric: Metric) -> PartialOracle {
        let shape = goal.shape();
        let (w, h) = (shape.width() as i64, shape.height() as i64);
        let n = shape.cells();
        assert!(n <= 256, "cells fit a byte");
        let mut items: Vec<u16> = goal.tiles().to_vec();
        items.push(0);
        let home: Vec<u8> = goal
            .tiles()
            .iter()
            .map(|&t| goal.cell_of(usize::from(t)).expect("matters") as u8)
            .collect();
        let mut dist = HashMap::new();
        let mut queue = VecDeque::new();
        for blank in 0..n {
            let ok = match goal.blank_cell() {
                Some(c) => c == blank,
                None => goal.cells()[blank].is_none(),
            };
            if ok {
                let mut s = home.clone();
                s.push(blank as u8);
                dist.insert(s.clone(), 0);
                queue.push_back(s);
            }
        }
        let blank_i = items.len() - 1;
        while let Some(s) = queue.pop_front() {
            let d = dist[&s];
            let (br, bc) = (i64::from(s[blank_i]) / w, i64::from(s[blank_i]) % w);
            for (dr, dc) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
                let mut t = s.clone();
                let (mut r, mut c) = (br, bc);
                loop {
                    let (nr, nc) = (r + dr, c + dc);
                    if nr < 0 || nr >= h || nc < 0 || nc >= w {
                        break;
                    }
                    let (from, to) = ((r * w + c) as u8, (nr * w + nc) as u8);
                    // The tile that was on the blank's next cell slides into its cell.
                    if let Some(i) = t[..blank_i].iter().position(|&p| p == to) {
                        t[i] = from;
                    }
                    t[blank_i] = to;
                    (r, c) = (nr, nc);
                    if !dist.contains_key(&t) {
                        dist.insert(t.clone(), d + 1);
                        queue.push_back(t.clone());
                    }
                    if metric == Metric::Stm {
                        break;
                    }
                }
            }
        }
        PartialOracle { items, dist }
    }

    /// Abstract states reached.
    pub fn len(&self) -> usize {
        self.dist.len()
    }

    /// Whether no state was reached (never: the goal's are).
    pub fn is_empty(&self) -> bool {
        self.dist.is_empty()
    }

    /// The optimal number of moves from `layout` to the partial goal, `None` if it cannot
    /// reach it.
    pub fn distance(&self, layout: &Layout) -> Option<u32> {
        let pos = layout.positions();
        let key: Vec<u8> = self
            .items
            .iter()
            .map(|&t| pos[usize::from(t)] as u8)
            .collect();
        self.dist.get(&key).copied()
    }
}
