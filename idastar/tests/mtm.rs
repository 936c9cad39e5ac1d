//! The multi-tile metric against an exhaustive oracle: breadth-first search over **every**
//! state of the 8-puzzle (181,440) and of the 4×2 board (20,160) with MTM moves (1..k tiles of
//! the blank's row or column, cost 1) gives each state's exact MTM distance. Checked:
//! `MtmManhattan` is admissible and consistent in MTM on every state; `MtmIdaStar` returns
//! solutions of exactly the optimal MTM length on many boards (the deepest included), each
//! replayed to the goal.

use std::collections::VecDeque;

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Manhattan, Move, MtmManhattan, Outcome,
    Shape, Solver, mtm_length, verify,
};
use npuzzle_idastar::MtmIdaStar;
use rustc_hash::FxHashMap;

/// The MTM successors of `b`: for each direction, the boards after 1..k single-tile moves.
fn mtm_neighbors(b: &BitBoard) -> Vec<BitBoard> {
    let mut out = Vec::new();
    for dir in Move::ALL {
        let mut c = *b;
        while c.legal().contains(dir) {
            c.apply(dir);
            out.push(c);
        }
    }
    out
}

/// Every state reachable from `goal`, with its MTM distance (moves are reversible, so the
/// distance from the goal is the distance to it), in BFS order.
fn bfs(goal: &Goal) -> (FxHashMap<u64, u32>, Vec<BitBoard>) {
    let start = BitBoard::from_layout(goal.layout()).unwrap();
    let mut dist = FxHashMap::default();
    let mut order = Vec::new();
    dist.insert(start.key(), 0u32);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b.key()];
        for n in mtm_neighbors(&b) {
            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n.key()) {
                e.insert(d + 1);
                queue.push_back(n);
            }
        }
        order.push(b);
    }
    (dist, order)
}

fn check_shape(width: usize, height: usize, expected_states: usize, sample_every: usize) {
    let shape = Shape::new(width, height).unwrap();
    for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
        let (dist, order) = bfs(&goal);
        assert_eq!(dist.len(), expected_states);
        let h = MtmManhattan::new(&goal);
        let manhattan = Manhattan::new(&goal);
        let (mut sum_h, mut sum_d, mut manhattan_over) = (0u64, 0u64, 0usize);
        // Admissible and consistent in MTM on every state.
        for b in &order {
            let hb = h.estimate(b);
            let d = dist[&b.key()];
            sum_h += u64::from(hb);
            sum_d += u64::from(d);
            manhattan_over += usize::from(manhattan.estimate(b) > d);
            assert!(hb <= d, "{}: h {hb} > MTM distance {d}", b.to_layout());
            assert_eq!(hb, h.estimate_layout(&b.to_layout()));
            for n in mtm_neighbors(b) {
                assert!(
                    hb <= 1 + h.estimate(&n),
                    "inconsistent at {}",
                    b.to_layout()
                );
            }
        }
        // Exact optimal MTM lengths on a sample spread over all depths, and every one of the
        // deepest states.
        let deepest = dist.values().copied().max().unwrap();
        let sample = order
            .iter()
            .step_by(sample_every)
            .chain(order.iter().filter(|b| dist[&b.key()] == deepest));
        let mut solved = 0;
        for b in sample {
            let layout: Layout = b.to_layout();
            let Outcome::Solved(s) = MtmIdaStar::new()
                .solve(b, &goal, &h, &Limits::default())
                .unwrap()
            else {
                panic!("{layout} is reachable from the goal")
            };
            verify(&layout, &s.moves, goal.layout()).unwrap();
            assert_eq!(
                mtm_length(&s.moves) as u32,
                dist[&b.key()],
                "{layout}: MTM length"
            );
            solved += 1;
        }
        assert!(solved > 100, "{solved}");
        // Plain Manhattan distance is not admissible in MTM.
        assert!(manhattan_over > 0);
        eprintln!(
            "{width}x{height} {:?}: {} states, deepest {deepest} MTM moves, {solved} boards solved; mean MTM distance {:.3}, mean mtm-manhattan {:.3}; Manhattan above the MTM distance on {manhattan_over} states",
            goal.layout().to_compact(),
            dist.len(),
            sum_d as f64 / dist.len() as f64,
            sum_h as f64 / dist.len() as f64,
        );
    }
}

#[test]
fn eight_puzzle_mtm_against_bfs() {
    check_shape(3, 3, 181_440, 601);
}

#[test]
fn four_by_two_mtm_against_bfs() {
    check_shape(4, 2, 20_160, 41);
    check_shape(2, 4, 20_160, 41);
}
