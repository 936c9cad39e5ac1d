//! A\*+IDA\* ([`AStarIdaStar`]) against exact oracles: exhaustive BFS distances on the 8-puzzle
//! and small boards, the known optimal lengths of seed15 and Korf's 100, every answer replayed;
//! node, time and cancel limits in both phases.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use npuzzle_core::{
    BitBoard, Board, Goal, Limit, Limits, LinearConflict, Manhattan, Outcome, PackedBoard,
    SearchError, Shape, Solver,
};
use npuzzle_idastar::{AStarIdaStar, IdaStar};
use npuzzle_testsuite::{BfsOracle, eight31, korf100, korf100_nodes, seed15};

use crate::solve;

/// Budgets from "A\* stores a handful of states" (the IDA\* phase does nearly everything) to
/// "A\* alone solves it".
const BUDGETS: [u64; 3] = [2_000, 200_000, 64 << 20];

#[test]
fn eight_puzzle_bfs_oracle_every_budget_threads_and_pruning() {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        let md = Manhattan::new(&goal);
        for budget in BUDGETS {
            for (threads, fsm) in [(1, false), (2, false), (1, true), (2, true)] {
                let mut e = AStarIdaStar::new()
                    .memory(budget)
                    .threads(threads)
                    .duplicate_pruning(fsm)
                    .fsm_depth(12);
                for (board, d) in oracle.sample(97) {
                    let s = solve::<BitBoard, _, _>(&mut e, &board, &goal, &md);
                    assert_eq!(
                        s.moves.len() as u32,
                        d,
                        "{board} budget {budget} threads {threads} fsm {fsm}"
                    );
                }
            }
        }
    }
    for inst in eight31() {
        let s = solve::<BitBoard, _, _>(
            &mut AStarIdaStar::new().memory(2_000),
            &inst.board,
            &inst.goal,
            &LinearConflict::new(&inst.goal),
        );
        assert_eq!(s.moves.len() as u32, inst.optimal);
    }
}

#[test]
fn small_boards_match_bfs() {
    for (w, h) in [(3, 2), (2, 3), (4, 2), (2, 4), (5, 2)] {
        let shape = Shape::new(w, h).unwrap();
        let goal = Goal::blank_first(shape);
        let oracle = BfsOracle::new(&goal);
        let md = Manhattan::new(&goal);
        let mut e = AStarIdaStar::new().memory(5_000).threads(2);
        let step = (oracle.len() / 150).max(1);
        for (board, d) in oracle.sample(step) {
            let s = solve::<PackedBoard, _, _>(&mut e, &board, &goal, &md);
            assert_eq!(s.moves.len() as u32, d, "{shape} {board}");
        }
    }
}

/// Korf's 100 (the cheap ones) and seed15: the lengths of the IDA\* engine, on the bitboard
/// (fused kernel below the frontier) and the packed board (generic loop).
#[test]
fn fifteen_puzzle_lengths_equal_idastar() {
    let nodes = korf100_nodes();
    let mut checked = 0;
    for (inst, &(_, _, _, published)) in korf100().iter().zip(&nodes) {
        if published > 3_000_000 {
            continue;
        }
        let md = Manhattan::new(&inst.goal);
        let b = BitBoard::from_layout(&inst.board).unwrap();
        let Outcome::Solved(ida) = IdaStar::new()
            .solve(&b, &inst.goal, &md, &Limits::default())
            .unwrap()
        else {
            panic!("solvable")
        };
        for (budget, threads, fsm) in [(1 << 20, 1, false), (8 << 20, 2, true)] {
            let mut e = AStarIdaStar::new()
                .memory(budget)
                .threads(threads)
                .duplicate_pruning(fsm)
                .fsm_depth(14);
            let s = solve::<BitBoard, _, _>(&mut e, &inst.board, &inst.goal, &md);
            assert_eq!(s.moves.len(), ida.moves.len(), "#{}", inst.id);
            assert_eq!(s.moves.len() as u32, inst.optimal, "#{}", inst.id);
        }
        let s = solve::<PackedBoard, _, _>(
            &mut AStarIdaStar::new().memory(1 << 20),
            &inst.board,
            &inst.goal,
            &md,
        );
        assert_eq!(s.moves.len() as u32, inst.optimal, "#{} packed", inst.id);
        checked += 1;
    }
    assert!(checked >= 5, "{checked}");
    for inst in seed15().iter().filter(|i| i.optimal <= 40) {
        let lc = LinearConflict::new(&inst.goal);
        let s = solve::<BitBoard, _, _>(
            &mut AStarIdaStar::new().memory(4 << 20).threads(2),
            &inst.board,
            &inst.goal,
            &lc,
        );
        assert_eq!(s.moves.len() as u32, inst.optimal, "seed15 {}", inst.id);
    }
}

#[test]
fn goal_and_unsolvable_boards() {
    let s = Shape::square(4).unwrap();
    let goal = Goal::blank_last(s);
    let b = BitBoard::from_layout(goal.layout()).unwrap();
    let Outcome::Solved(sol) = AStarIdaStar::new()
        .solve(&b, &goal, &Manhattan::new(&goal), &Limits::default())
        .unwrap()
    else {
        panic!("the goal is solved")
    };
    assert!(sol.moves.is_empty());
    let board = npuzzle_core::parse_board("123456789abcdfe0", None).unwrap();
    let b = BitBoard::from_layout(&board).unwrap();
    let out = AStarIdaStar::new()
        .solve(&b, &goal, &Manhattan::new(&goal), &Limits::default())
        .unwrap();
    assert!(matches!(out, Outcome::Unsolvable(_)));
}

fn limit_of(e: &mut AStarIdaStar, limits: &Limits) -> (Limit, npuzzle_core::Progress) {
    let inst = &seed15()[8];
    let b = BitBoard::from_layout(&inst.board).unwrap();
    match e
        .solve(&b, &inst.goal, &Manhattan::new(&inst.goal), limits)
        .unwrap_err()
    {
        SearchError::LimitReached { limit, progress } => (limit, progress),
        other => panic!("unexpected {other}"),
    }
}

#[test]
fn limits_and_cancel_in_both_phases() {
    // A budget large enough that 1 M nodes end in the A* phase, and one so small that they end
    // in the IDA* phase.
    for budget in [256 << 20, 4_000] {
        for threads in [1, 2] {
            let mut e = AStarIdaStar::new().memory(budget).threads(threads);
            let limits = Limits {
                max_nodes: Some(1_000_000),
                ..Limits::default()
            };
            let (limit, progress) = limit_of(&mut e, &limits);
            assert_eq!(limit, Limit::Nodes(1_000_000));
            assert!(
                (1_000_000..1_000_000 + 8 * threads as u64).contains(&progress.generated),
                "{} generated, budget {budget}",
                progress.generated
            );
            assert!(progress.bound >= 41, "bound {}", progress.bound);
            let limits = Limits {
                cancel: Some(Arc::new(AtomicBool::new(true))),
                ..Limits::default()
            };
            assert_eq!(limit_of(&mut e, &limits).0, Limit::Cancelled);
            let limits = Limits {
                timeout: Some(Duration::from_millis(30)),
                ..Limits::default()
            };
            assert!(matches!(limit_of(&mut e, &limits).0, Limit::Time(_)));
        }
    }
}

/// `Limits::memory_bytes` caps the budget: A\* stores at most what it allows.
#[test]
fn memory_limit_caps_the_astar_phase() {
    let inst = &korf100()[1];
    let md = Manhattan::new(&inst.goal);
    let b = BitBoard::from_layout(&inst.board).unwrap();
    let limits = Limits {
        memory_bytes: Some(1 << 20),
        ..Limits::default()
    };
    let Outcome::Solved(s) = AStarIdaStar::new()
        .solve(&b, &inst.goal, &md, &limits)
        .unwrap()
    else {
        panic!("solvable")
    };
    assert_eq!(s.moves.len() as u32, inst.optimal);
    let per_state = AStarIdaStar::bytes_per_state::<BitBoard, Manhattan>(
        &BitBoard::from_layout(&npuzzle_core::Layout::blank_last(
            npuzzle_core::Shape::new(4, 4).unwrap(),
        ))
        .unwrap(),
    );
    assert!(s.stats.stored_states <= (1 << 20) / per_state + 4);
    assert!(s.stats.peak_memory_bytes <= 1 << 20);
    assert!(!s.stats.iterations.is_empty(), "the IDA* phase ran");
}

/// The budget is the memory limit when the engine sets none, above the default as well as
/// below it, and the smaller of the two when both are set (`AStarIdaStar::budget`): a board
/// whose A\* phase fills 2 MiB stores more than 1 MiB allows under a 2 MiB limit alone, and no
/// more than 1 MiB allows when the engine's own budget is 1 MiB.
#[test]
fn memory_limit_is_the_budget_unless_the_engine_sets_a_smaller_one() {
    let limits = |bytes: u64| Limits {
        memory_bytes: Some(bytes),
        ..Limits::default()
    };
    let none = Limits::default();
    let e = AStarIdaStar::new();
    assert_eq!(e.budget(&none), AStarIdaStar::DEFAULT_MEMORY);
    assert_eq!(e.budget(&limits(8 << 30)), 8 << 30);
    assert_eq!(e.budget(&limits(1 << 20)), 1 << 20);
    let e = AStarIdaStar::new().memory(1 << 20);
    assert_eq!(e.budget(&none), 1 << 20);
    assert_eq!(e.budget(&limits(8 << 30)), 1 << 20);
    assert_eq!(e.budget(&limits(1 << 10)), 1 << 10);

    let inst = &korf100()[1];
    let md = Manhattan::new(&inst.goal);
    let b = BitBoard::from_layout(&inst.board).unwrap();
    let per_state = AStarIdaStar::bytes_per_state::<BitBoard, Manhattan>(
        &BitBoard::from_layout(&npuzzle_core::Layout::blank_last(
            npuzzle_core::Shape::new(4, 4).unwrap(),
        ))
        .unwrap(),
    );
    let stored = |e: &mut AStarIdaStar, l: &Limits| {
        let Outcome::Solved(s) = e.solve(&b, &inst.goal, &md, l).unwrap() else {
            panic!("solvable")
        };
        assert_eq!(s.moves.len() as u32, inst.optimal);
        s.stats.stored_states
    };
    let big = stored(&mut AStarIdaStar::new(), &limits(2 << 20));
    assert!(
        big > (1 << 20) / per_state + 4,
        "{big} states: the 2 MiB limit is the budget"
    );
    assert!(big <= (2 << 20) / per_state + 4);
    let small = stored(&mut AStarIdaStar::new().memory(1 << 20), &limits(2 << 20));
    assert!(small <= (1 << 20) / per_state + 4, "{small} states");
}
