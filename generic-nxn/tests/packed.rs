//! Differential tests of core's `u128` [`PackedBoard`] against the Vec board (and, on boards of
//! at most 16 cells, the `u64` bitboard): after the same random walks on every shape of at most
//! 25 cells they agree on layouts, blank, legal moves, key equality and every heuristic (from
//! scratch and incrementally); IDA* generates exactly the same nodes on both and proves the same
//! optimal length as A*; every solution is replayed with `verify`.

use npuzzle_astar::AStar;
use npuzzle_core::{
    BitBoard, Board, Goal, GoalKind, Hamming, Heuristic, Layout, Limits, LinearConflict, Manhattan,
    Move, Outcome, PackedBoard, Shape, Solution, Solver, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_nxn::VecBoard;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every W×H with 2 ≤ W, H and W·H ≤ 25, the shapes of 17 or more cells first.
fn packed_shapes() -> Vec<Shape> {
    let mut v = Vec::new();
    for w in 2..=12 {
        for h in 2..=12 {
            if w * h <= 25 {
                v.push(Shape::new(w, h).unwrap());
            }
        }
    }
    v.sort_by_key(|s| std::cmp::Reverse(s.cells() > 16));
    v
}

/// The move picked by `choice` among the legal ones.
fn pick(legal: npuzzle_core::Moves, choice: u8) -> Move {
    let v: Vec<Move> = legal.collect();
    v[choice as usize % v.len()]
}

/// The solution by an engine on board type `B` (must be solvable), replayed with `verify`.
fn solve<B: Board, S: Solver<B>, H: Heuristic<B>>(
    solver: &mut S,
    layout: &Layout,
    goal: &Goal,
    h: &H,
) -> Solution {
    let b = B::from_layout(layout).unwrap();
    let Outcome::Solved(s) = solver.solve(&b, goal, h, &Limits::default()).unwrap() else {
        panic!("solvable board {layout} called unsolvable")
    };
    verify(layout, &s.moves, goal.layout()).unwrap();
    s
}

/// The three heuristics' values on `b`, from scratch.
fn scratch<B: Board>(md: &Manhattan, lc: &LinearConflict, hm: &Hamming, b: &B) -> [u32; 3] {
    [
        Heuristic::<B>::estimate(md, b),
        Heuristic::<B>::estimate(lc, b),
        Heuristic::<B>::estimate(hm, b),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn packed_board_matches_vec_board(
        shape_index in 0usize..64,
        blank_first in any::<bool>(),
        walk in proptest::collection::vec(any::<u8>(), 0..80),
    ) {
        let shapes = packed_shapes();
        // Three cases in four on a shape of 17-25 cells.
        let big = shapes.iter().filter(|s| s.cells() > 16).count();
        let shape = if shape_index % 4 == 0 {
            shapes[shape_index / 4 % shapes.len()]
        } else {
            shapes[shape_index % big]
        };
        let kind = if blank_first { GoalKind::BlankFirst } else { GoalKind::BlankLast };
        let goal = Goal::new(&kind, shape).unwrap();
        let (md, lc, hm) = (Manhattan::new(&goal), LinearConflict::new(&goal), Hamming::new(&goal));
        let mut v = VecBoard::from_layout(goal.layout()).unwrap();
        let mut p = PackedBoard::from_layout(goal.layout()).unwrap();
        let mut bits = BitBoard::from_layout(goal.layout()).ok();
        let mut hp = scratch(&md, &lc, &hm, &p);
        let mut keys: Vec<(npuzzle_nxn::NxnKey, u128)> = vec![(v.key(), p.key())];
        for &c in &walk {
            prop_assert_eq!(v.legal(), p.legal());
            let m = pick(v.legal(), c);
            prop_assert_eq!(v.tile_cell(m), p.tile_cell(m));
            hp = [md.update(&p, hp[0], m), lc.update(&p, hp[1], m), hm.update(&p, hp[2], m)];
            v.apply(m);
            p.apply(m);
            // Cached blank = from scratch = the Vec board's.
            prop_assert_eq!(p.blank(), p.to_layout().blank());
            prop_assert_eq!(v.blank(), p.blank());
            prop_assert_eq!(v.to_layout(), p.to_layout());
            // Incremental on the packed board = from scratch on it = the Vec board's values.
            let sp = scratch(&md, &lc, &hm, &p);
            prop_assert_eq!(hp, sp);
            prop_assert_eq!(sp, scratch(&md, &lc, &hm, &v));
            if let Some(b) = bits.as_mut() {
                b.apply(m);
                prop_assert_eq!(b.to_layout(), p.to_layout());
                prop_assert_eq!(sp, scratch(&md, &lc, &hm, b));
            }
            let (kv, kp) = (v.key(), p.key());
            prop_assert_eq!(p.with_key(&kp), p);
            for (pv, pp) in &keys {
                prop_assert_eq!(*pv == kv, *pp == kp);
            }
            keys.push((kv, kp));
        }
        // Apply then inverse restores.
        for m in p.legal() {
            let mut w = p;
            w.apply(m);
            prop_assert_ne!(w, p);
            w.apply(m.inverse());
            prop_assert_eq!(w, p);
        }
        let layout = p.to_layout();
        prop_assert!(goal.parity(&layout).unwrap().solvable);
        // Optimal lengths: IDA* on both boards (same nodes), A* on the packed board.
        if walk.len() <= 40 {
            let on_packed = solve::<PackedBoard, _, _>(&mut IdaStar::new(), &layout, &goal, &lc);
            let on_vec = solve::<VecBoard, _, _>(&mut IdaStar::new(), &layout, &goal, &lc);
            let astar = solve::<PackedBoard, _, _>(&mut AStar::new(), &layout, &goal, &md);
            prop_assert_eq!(on_packed.moves.len(), on_vec.moves.len());
            prop_assert_eq!(on_packed.stats.generated, on_vec.stats.generated);
            prop_assert_eq!(on_packed.moves.len(), astar.moves.len());
            prop_assert!(on_packed.moves.len() <= walk.len());
        }
    }
}

/// A board `k` random moves (no immediate undo) from `goal`.
fn walk_from(goal: &Goal, k: usize, rng: &mut ChaCha8Rng) -> Layout {
    let mut b = PackedBoard::from_layout(goal.layout()).unwrap();
    let mut last: Option<Move> = None;
    for _ in 0..k {
        let legal: Vec<Move> = b.legal().filter(|&m| Some(m.inverse()) != last).collect();
        let m = legal[rng.random_range(0..legal.len())];
        b.apply(m);
        last = Some(m);
    }
    b.to_layout()
}

/// 5×5, 4×6, 6×4, 3×8 and 8×3 boards up to 60 random moves from the goal: IDA* generates the
/// same nodes on the packed and the Vec board, and A* on the packed board proves the same
/// optimal length; unsolvable boards are refused the same way.
#[test]
fn larger_boards_optimal_by_agreement() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for (w, h) in [(5, 5), (4, 6), (6, 4), (3, 8), (8, 3)] {
        let shape = Shape::new(w, h).unwrap();
        for kind in [GoalKind::BlankLast, GoalKind::BlankFirst] {
            let goal = Goal::new(&kind, shape).unwrap();
            let lc = LinearConflict::new(&goal);
            for k in [10, 25, 40, 60] {
                let layout = walk_from(&goal, k, &mut rng);
                let p = solve::<PackedBoard, _, _>(&mut IdaStar::new(), &layout, &goal, &lc);
                let v = solve::<VecBoard, _, _>(&mut IdaStar::new(), &layout, &goal, &lc);
                let a = solve::<PackedBoard, _, _>(&mut AStar::new(), &layout, &goal, &lc);
                assert_eq!(p.moves.len(), v.moves.len(), "{layout}");
                assert_eq!(p.stats.generated, v.stats.generated, "{layout}");
                assert_eq!(p.moves.len(), a.moves.len(), "{layout}");
                assert!(p.moves.len() <= k);
            }
            let mut cells: Vec<usize> = goal.layout().cells().iter().map(|&t| t as usize).collect();
            let (a, b) = if cells[0] == 0 { (1, 2) } else { (0, 1) };
            cells.swap(a, b);
            let l = Layout::new(shape, &cells).unwrap();
            let op = IdaStar::new()
                .solve(
                    &PackedBoard::from_layout(&l).unwrap(),
                    &goal,
                    &lc,
                    &Limits::default(),
                )
                .unwrap();
            let ov = IdaStar::new()
                .solve(
                    &VecBoard::from_layout(&l).unwrap(),
                    &goal,
                    &lc,
                    &Limits::default(),
                )
                .unwrap();
            assert!(matches!(op, Outcome::Unsolvable(_)));
            assert_eq!(op, ov);
        }
    }
}
