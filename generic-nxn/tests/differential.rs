//! Differential tests: for every shape of at most 16 cells, the Vec board and the `u64` bitboard
//! agree after the same random walks (layouts, blank, legal moves, key equality, heuristics from
//! scratch and incrementally, solvability, optimal solution lengths); optimal and weighted
//! engines on the Vec board agree with the exhaustive BFS oracle on the 8-puzzle; 5×5 boards a
//! few dozen moves from the goal are solved optimally, IDA* and A* agreeing.

use npuzzle_astar::AStar;
use npuzzle_core::{
    BitBoard, Board, Goal, GoalKind, Hamming, Heuristic, Layout, Limits, LinearConflict, Manhattan,
    Move, Outcome, Shape, Solver, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_nxn::{VecBoard, WeightedAStar};
use npuzzle_testsuite::BfsOracle;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every W×H with 2 ≤ W, H and W·H ≤ 16.
fn small_shapes() -> Vec<Shape> {
    let mut v = Vec::new();
    for w in 2..=8 {
        for h in 2..=8 {
            if w * h <= 16 {
                v.push(Shape::new(w, h).unwrap());
            }
        }
    }
    v
}

/// The move picked by `choice` among the legal ones.
fn pick(legal: npuzzle_core::Moves, choice: u8) -> Move {
    let v: Vec<Move> = legal.collect();
    v[choice as usize % v.len()]
}

/// The optimal length by an engine on board type `B` (must be solvable).
fn optimal_len<B: Board, S: Solver<B>, H: Heuristic<B>>(
    solver: &mut S,
    layout: &Layout,
    goal: &Goal,
    h: &H,
) -> usize {
    let b = B::from_layout(layout).unwrap();
    let Outcome::Solved(s) = solver.solve(&b, goal, h, &Limits::default()).unwrap() else {
        panic!("solvable board {layout} called unsolvable")
    };
    verify(layout, &s.moves, goal.layout()).unwrap();
    s.moves.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn vec_board_matches_bitboard(
        shape_index in 0usize..32,
        blank_first in any::<bool>(),
        walk in proptest::collection::vec(any::<u8>(), 0..60),
    ) {
        let shapes = small_shapes();
        let shape = shapes[shape_index % shapes.len()];
        let kind = if blank_first { GoalKind::BlankFirst } else { GoalKind::BlankLast };
        let goal = Goal::new(&kind, shape).unwrap();
        let (md, lc, hm) = (Manhattan::new(&goal), LinearConflict::new(&goal), Hamming::new(&goal));
        let mut v = VecBoard::from_layout(goal.layout()).unwrap();
        let mut b = BitBoard::from_layout(goal.layout()).unwrap();
        let mut hv = [
            Heuristic::<VecBoard>::estimate(&md, &v),
            Heuristic::<VecBoard>::estimate(&lc, &v),
            Heuristic::<VecBoard>::estimate(&hm, &v),
        ];
        let mut keys: Vec<(npuzzle_nxn::NxnKey, u64)> = vec![(v.key(), b.key())];
        for &c in &walk {
            prop_assert_eq!(v.legal(), b.legal());
            let m = pick(v.legal(), c);
            prop_assert_eq!(v.tile_cell(m), b.tile_cell(m));
            hv = [md.update(&v, hv[0], m), lc.update(&v, hv[1], m), hm.update(&v, hv[2], m)];
            v.apply(m);
            b.apply(m);
            prop_assert_eq!(v.blank(), b.blank());
            prop_assert_eq!(v.to_layout(), b.to_layout());
            // Incremental = from scratch on the Vec board = the bitboard's values.
            let scratch = [
                Heuristic::<VecBoard>::estimate(&md, &v),
                Heuristic::<VecBoard>::estimate(&lc, &v),
                Heuristic::<VecBoard>::estimate(&hm, &v),
            ];
            prop_assert_eq!(hv, scratch);
            prop_assert_eq!(scratch, [
                Heuristic::<BitBoard>::estimate(&md, &b),
                Heuristic::<BitBoard>::estimate(&lc, &b),
                Heuristic::<BitBoard>::estimate(&hm, &b),
            ]);
            let (kv, kb) = (v.key(), b.key());
            prop_assert_eq!(v.with_key(&kv).to_layout(), v.to_layout());
            for (pv, pb) in &keys {
                prop_assert_eq!(*pv == kv, *pb == kb);
            }
            keys.push((kv, kb));
        }
        let layout = v.to_layout();
        prop_assert!(goal.parity(&layout).unwrap().solvable);
        // Apply then inverse restores.
        for m in v.legal() {
            let mut w = v.clone();
            w.apply(m);
            w.apply(m.inverse());
            prop_assert_eq!(&w, &v);
        }
        // Optimal lengths: IDA* on both boards, A* on the Vec board.
        if walk.len() <= 30 || shape.cells() <= 9 {
            let on_bits = optimal_len::<BitBoard, _, _>(&mut IdaStar::new(), &layout, &goal, &lc);
            let on_vec = optimal_len::<VecBoard, _, _>(&mut IdaStar::new(), &layout, &goal, &lc);
            let astar = optimal_len::<VecBoard, _, _>(&mut AStar::new(), &layout, &goal, &md);
            prop_assert_eq!(on_bits, on_vec);
            prop_assert_eq!(on_vec, astar);
            prop_assert!(on_vec <= walk.len());
        }
    }
}

#[test]
fn unsolvable_agrees() {
    for shape in small_shapes() {
        let goal = Goal::blank_last(shape);
        let mut cells: Vec<usize> = goal.layout().cells().iter().map(|&t| t as usize).collect();
        cells.swap(0, 1);
        let l = Layout::new(shape, &cells).unwrap();
        let v = VecBoard::from_layout(&l).unwrap();
        let b = BitBoard::from_layout(&l).unwrap();
        let lc = LinearConflict::new(&goal);
        let ov = IdaStar::new()
            .solve(&v, &goal, &lc, &Limits::default())
            .unwrap();
        let ob = IdaStar::new()
            .solve(&b, &goal, &lc, &Limits::default())
            .unwrap();
        assert!(matches!(ov, Outcome::Unsolvable(_)));
        assert_eq!(ov, ob);
    }
}

/// IDA* and weighted A* (w = 1) on the Vec board against the exhaustive 8-puzzle oracle, and
/// weighted A* with w = 2 within twice the optimum.
#[test]
fn eight_puzzle_oracle() {
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let oracle = BfsOracle::new(&goal);
    let md = Manhattan::new(&goal);
    let lc = LinearConflict::new(&goal);
    let mut ida = IdaStar::new();
    let mut w1 = WeightedAStar::new(1.0).unwrap();
    let mut w2 = WeightedAStar::new(2.0).unwrap();
    for (layout, d) in oracle.sample(997) {
        let d = d as usize;
        assert_eq!(
            optimal_len::<VecBoard, _, _>(&mut ida, &layout, &goal, &lc),
            d
        );
        assert_eq!(
            optimal_len::<VecBoard, _, _>(&mut w1, &layout, &goal, &md),
            d
        );
        assert_eq!(
            optimal_len::<BitBoard, _, _>(&mut w1, &layout, &goal, &lc),
            d
        );
        let l2 = optimal_len::<VecBoard, _, _>(&mut w2, &layout, &goal, &lc);
        assert!(l2 >= d && l2 <= 2 * d, "{layout}: {l2} vs optimal {d}");
    }
}

/// A board `k` random moves (no immediate undo) from `goal`.
fn walk_from(goal: &Goal, k: usize, rng: &mut ChaCha8Rng) -> Layout {
    let mut b = VecBoard::from_layout(goal.layout()).unwrap();
    let mut last: Option<Move> = None;
    for _ in 0..k {
        let legal: Vec<Move> = b.legal().filter(|&m| Some(m.inverse()) != last).collect();
        let m = legal[rng.random_range(0..legal.len())];
        b.apply(m);
        last = Some(m);
    }
    b.to_layout()
}

/// 5×5 boards a few dozen random moves from the goal: IDA* (linear conflict) and A* (Manhattan)
/// on the Vec board prove the same optimal length; weighted A* stays within its bound.
#[test]
fn five_by_five_optimal_by_agreement() {
    let shape = Shape::square(5).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    for kind in [GoalKind::BlankLast, GoalKind::BlankFirst] {
        let goal = Goal::new(&kind, shape).unwrap();
        let (md, lc) = (Manhattan::new(&goal), LinearConflict::new(&goal));
        for k in [20, 30, 40, 50, 60] {
            let layout = walk_from(&goal, k, &mut rng);
            let ida = optimal_len::<VecBoard, _, _>(&mut IdaStar::new(), &layout, &goal, &lc);
            let astar = optimal_len::<VecBoard, _, _>(&mut AStar::new(), &layout, &goal, &lc);
            assert_eq!(ida, astar, "{layout}");
            assert!(ida <= k);
            let mut w = WeightedAStar::new(1.5).unwrap();
            let wl = optimal_len::<VecBoard, _, _>(&mut w, &layout, &goal, &md);
            assert!(
                wl >= ida && 2 * wl <= 3 * ida,
                "{layout}: {wl} vs optimal {ida}"
            );
        }
    }
}

/// IDA* with linear conflict on the Vec board generates exactly the nodes it generates on the
/// bitboard for the shorter seed15 instances (release mode; the heavy tier). Prints both node
/// rates; the rate target (the Vec board within 2x of the bitboard) is measured, not asserted
/// (shared machines are noisy): see BENCHMARKS.md.
#[test]
#[ignore = "release mode; run with --profile heavy -- --ignored"]
fn vec_board_generates_the_bitboard_nodes() {
    let mut total = [(0u64, 0f64); 2];
    for inst in npuzzle_testsuite::seed15()
        .into_iter()
        .filter(|i| i.optimal <= 50)
    {
        let lc = LinearConflict::new(&inst.goal);
        let run = |solution: Outcome| match solution {
            Outcome::Solved(s) => s,
            Outcome::Unsolvable(_) => panic!("solvable"),
        };
        // Best of three for each board type.
        let mut best = [f64::MAX; 2];
        let mut nodes = [0u64; 2];
        for _ in 0..3 {
            let b = BitBoard::from_layout(&inst.board).unwrap();
            let s = run(IdaStar::new()
                .solve(&b, &inst.goal, &lc, &Limits::default())
                .unwrap());
            assert_eq!(s.moves.len() as u32, inst.optimal);
            best[0] = best[0].min(s.stats.seconds);
            nodes[0] = s.stats.generated;
            let v = VecBoard::from_layout(&inst.board).unwrap();
            let s = run(IdaStar::new()
                .solve(&v, &inst.goal, &lc, &Limits::default())
                .unwrap());
            assert_eq!(s.moves.len() as u32, inst.optimal);
            best[1] = best[1].min(s.stats.seconds);
            nodes[1] = s.stats.generated;
        }
        assert_eq!(nodes[0], nodes[1], "{}: node counts differ", inst.id);
        for i in 0..2 {
            total[i].0 += nodes[i];
            total[i].1 += best[i];
        }
        println!(
            "{} ({} moves): {} nodes; bitboard {:.1} M nodes/s, Vec board {:.1} M nodes/s",
            inst.id,
            inst.optimal,
            nodes[0],
            nodes[0] as f64 / best[0] / 1e6,
            nodes[1] as f64 / best[1] / 1e6
        );
    }
    let rate = |(n, s): (u64, f64)| n as f64 / s;
    let ratio = rate(total[0]) / rate(total[1]);
    println!(
        "total: bitboard {:.1} M nodes/s, Vec board {:.1} M nodes/s, ratio {ratio:.2}",
        rate(total[0]) / 1e6,
        rate(total[1]) / 1e6
    );
}

/// Linear conflict's incremental update (one pass over the changed line, lines of up to 16
/// cells and longer ones) equals its from-scratch value on large boards, along random walks
/// from a shuffled start (many tiles in and out of their goal lines).
#[test]
fn linear_conflict_updates_on_large_boards() {
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for (w, h) in [(7, 7), (6, 6), (9, 5), (20, 3), (3, 20), (17, 17)] {
        let shape = Shape::new(w, h).unwrap();
        for kind in [GoalKind::BlankLast, GoalKind::BlankFirst] {
            let goal = Goal::new(&kind, shape).unwrap();
            let lc = LinearConflict::new(&goal);
            let mut v = VecBoard::from_layout(goal.layout()).unwrap();
            let mut hv = Heuristic::<VecBoard>::estimate(&lc, &v);
            for step in 0..3_000 {
                let m = pick(v.legal(), rng.random());
                hv = lc.update(&v, hv, m);
                v.apply(m);
                assert_eq!(
                    hv,
                    Heuristic::<VecBoard>::estimate(&lc, &v),
                    "{w}x{h} {kind:?}, step {step}"
                );
            }
        }
    }
}
