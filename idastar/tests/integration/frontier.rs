//! The distributed-IDA* pieces (`IdaStar::frontier`, `IdaStar::search_subtrees`) against the
//! sequential engine and the BFS oracle: a driver that runs the thresholds in order over the
//! frontier's subtrees, one packet at a time, finds the optimal length with the sequential
//! thresholds, and every non-final iteration's counts add up to the sequential iteration's.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Iteration, Layout, Limit, Limits, LinearConflict, Manhattan,
    Move, Outcome, SearchError, Solver, verify,
};
use npuzzle_idastar::{CycleCheck, FrontierError, IdaStar, SubtreeEnd};
use npuzzle_testsuite::{BfsOracle, korf100, seed15};

/// What the driver found: the solution and the per-threshold counts.
struct Driven {
    moves: Vec<Move>,
    iterations: Vec<Iteration>,
}

/// IDA* run the distributed way: per threshold, a frontier of about `target` nodes, its nodes
/// searched in packets of `packet` (in f, h order), each packet by its own `search_subtrees`
/// call on a fresh engine (as on another machine); with `split` > 0, every `split`-th packet
/// is first split into a deeper frontier (`IdaStar::split`, as the Python driver splits a
/// packet it expects to be large) whose nodes are searched instead.
fn drive<B: Board, H: Heuristic<B>>(
    engine: &IdaStar,
    start: &B,
    goal: &Goal,
    h: &H,
    (target, packet, split): (usize, usize, usize),
) -> Driven {
    let limits = Limits::default();
    let first = engine.frontier(start, goal, h, 0, 1, &limits).unwrap();
    let mut threshold = first.initial_h;
    let mut iterations = Vec::new();
    loop {
        let frontier = engine
            .frontier(start, goal, h, threshold, target, &limits)
            .unwrap();
        let mut it = Iteration {
            threshold,
            expanded: frontier.expanded,
            generated: frontier.generated,
        };
        if let Some(moves) = frontier.solution {
            iterations.push(it);
            return Driven { moves, iterations };
        }
        let mut nodes = frontier.nodes.clone();
        nodes.sort_by_key(|n| (n.f(), n.h));
        for n in &nodes {
            assert!(n.f() <= threshold && n.g as usize == n.moves.len());
        }
        let mut next = frontier.next_threshold;
        let mut found = None;
        for (index, chunk) in nodes.chunks(packet).enumerate() {
            let mut paths: Vec<Vec<Move>> = chunk.iter().map(|n| n.moves.clone()).collect();
            let mut worker = engine.clone();
            if split > 0 && index % split == 0 {
                let deeper = worker
                    .split(start, goal, h, threshold, &paths, 4 * paths.len(), &limits)
                    .unwrap();
                assert_eq!(deeper.initial_h, first.initial_h);
                it.expanded += deeper.expanded;
                it.generated += deeper.generated;
                next = next.min(deeper.next_threshold);
                if let Some(moves) = deeper.solution {
                    found = Some(moves);
                    break;
                }
                for n in &deeper.nodes {
                    assert!(n.f() <= threshold && n.g as usize == n.moves.len());
                    assert!(
                        paths.iter().any(|p| n.moves.starts_with(p)),
                        "below a given node"
                    );
                }
                paths = deeper.nodes.iter().map(|n| n.moves.clone()).collect();
            }
            let s = worker
                .search_subtrees(start, goal, h, threshold, &paths, &limits)
                .unwrap();
            assert_eq!(s.subtree_generated.len(), paths.len());
            if !matches!(s.end, SubtreeEnd::Found(_)) {
                assert_eq!(s.subtree_generated.iter().sum::<u64>(), s.generated);
            }
            it.expanded += s.expanded;
            it.generated += s.generated;
            match s.end {
                SubtreeEnd::Found(moves) => {
                    found = Some(moves);
                    break;
                }
                SubtreeEnd::Exceeded(t) => next = next.min(t),
            }
        }
        iterations.push(it);
        if let Some(moves) = found {
            return Driven { moves, iterations };
        }
        assert!(next > threshold && next < u32::MAX);
        threshold = next;
    }
}

/// Checks a driven search against the sequential engine: same length and thresholds, and the
/// counts of every iteration but the last are equal.
fn check<B: Board, H: Heuristic<B>>(
    engine: &IdaStar,
    layout: &Layout,
    goal: &Goal,
    h: &H,
    sizes: (usize, usize, usize),
) -> usize {
    let start = B::from_layout(layout).unwrap();
    let driven = drive(engine, &start, goal, h, sizes);
    verify(layout, &driven.moves, goal.layout()).unwrap();
    let Outcome::Solved(seq) = engine
        .clone()
        .solve(&start, goal, h, &Limits::default())
        .unwrap()
    else {
        panic!("{layout} solvable");
    };
    assert_eq!(driven.moves.len(), seq.moves.len(), "{layout}: length");
    let n = seq.stats.iterations.len();
    assert_eq!(driven.iterations.len(), n.max(1), "{layout}: iterations");
    if n > 1 {
        assert_eq!(
            driven.iterations[..n - 1],
            seq.stats.iterations[..n - 1],
            "{layout}: non-final iterations, sizes {sizes:?}"
        );
    }
    driven.moves.len()
}

/// A sample of 8-puzzle positions, both goals, every cycle check, several frontier and packet
/// sizes: BFS distances and the sequential counts.
#[test]
fn eight_puzzle_against_bfs_and_sequential() {
    for goal in [
        Goal::blank_last(npuzzle_core::Shape::new(3, 3).unwrap()),
        Goal::blank_first(npuzzle_core::Shape::new(3, 3).unwrap()),
    ] {
        let oracle = BfsOracle::new(&goal);
        let h = Manhattan::new(&goal);
        for (i, (layout, d)) in oracle.sample(1201).into_iter().enumerate() {
            let cycle = [CycleCheck::Parent, CycleCheck::Path, CycleCheck::Fsm][i % 3];
            let sizes = [(1, 1, 0), (16, 3, 2), (200, 7, 1), (40, 2, 3)][i % 4];
            let engine = IdaStar::new().cycle_check(cycle);
            let n = check::<BitBoard, _>(&engine, &layout, &goal, &h, sizes);
            assert_eq!(n as u32, d, "{layout}: BFS distance");
        }
    }
}

/// seed15 and Korf's easiest 15-puzzles, linear conflict (with a memo-free update) and
/// Manhattan with the automaton: known optimal lengths, sequential counts.
#[test]
fn fifteen_puzzle_known_optima() {
    let h_lc = |g: &Goal| LinearConflict::new(g);
    for inst in seed15().iter().take(6) {
        let engine = IdaStar::new();
        let n = check::<BitBoard, _>(
            &engine,
            &inst.board,
            &inst.goal,
            &h_lc(&inst.goal),
            (64, 8, 2),
        );
        assert_eq!(n as u32, inst.optimal, "seed15 {}", inst.id);
    }
    let mut korf = korf100();
    korf.sort_by_key(|i| i.optimal);
    for inst in korf.iter().take(3) {
        let engine = IdaStar::new().cycle_check(CycleCheck::Fsm);
        let n = check::<BitBoard, _>(
            &engine,
            &inst.board,
            &inst.goal,
            &Manhattan::new(&inst.goal),
            (256, 16, 3),
        );
        assert_eq!(n as u32, inst.optimal, "korf {}", inst.id);
    }
}

/// Threads inside one subtree search give the same answer length and non-final counts.
#[test]
fn threaded_subtree_search() {
    let inst = &seed15()[0];
    let engine = IdaStar::new().threads(2);
    let n = check::<BitBoard, _>(
        &engine,
        &inst.board,
        &inst.goal,
        &Manhattan::new(&inst.goal),
        (32, 32, 1),
    );
    assert_eq!(n as u32, inst.optimal);
}

/// Paths that are not in the tree are refused before any search; the goal and unsolvable
/// boards are answered without a tree; nodes beyond the threshold are not searched.
#[test]
fn bad_paths_goal_and_unsolvable() {
    let layout = npuzzle_core::parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let goal = Goal::blank_last(layout.shape());
    let board = BitBoard::from_layout(&layout).unwrap();
    let h = Manhattan::new(&goal);
    let mut e = IdaStar::new();
    let lim = Limits::default();
    // The blank is at the bottom row: `U` (the tile below moves up) is illegal.
    let bad = e.search_subtrees(
        &board,
        &goal,
        &h,
        40,
        &[vec![Move::Down], vec![Move::Up]],
        &lim,
    );
    assert!(
        matches!(bad, Err(FrontierError::NotInTree { node: 1, at: 0 })),
        "{bad:?}"
    );
    let undo = e.search_subtrees(&board, &goal, &h, 40, &[vec![Move::Down, Move::Up]], &lim);
    assert!(
        matches!(undo, Err(FrontierError::NotInTree { node: 0, at: 1 })),
        "{undo:?}"
    );
    // Threshold below the start's h: nothing searched, the start's f is the next threshold.
    let h0 = h.estimate(&board);
    let low = e
        .search_subtrees(&board, &goal, &h, h0 - 1, &[vec![]], &lim)
        .unwrap();
    assert_eq!(
        (low.end, low.expanded, low.generated),
        (SubtreeEnd::Exceeded(h0), 0, 0)
    );
    let g = BitBoard::from_layout(goal.layout()).unwrap();
    let at_goal = e.frontier(&g, &goal, &h, 0, 10, &lim).unwrap();
    assert_eq!(at_goal.solution, Some(vec![]));
    let unsolvable =
        BitBoard::from_layout(&npuzzle_core::parse_board("1 2 3 4 5 6 8 7 0", None).unwrap())
            .unwrap();
    assert!(matches!(
        e.frontier(&unsolvable, &goal, &h, 30, 10, &lim),
        Err(FrontierError::Unsolvable)
    ));
}

/// The node limit and the cancel flag stop a subtree search with a limit error whose bound is
/// the threshold.
#[test]
fn limits_and_cancel() {
    let mut korf = korf100();
    korf.sort_by_key(|i| i.optimal);
    let inst = &korf[0];
    let goal = &inst.goal;
    let board = BitBoard::from_layout(&inst.board).unwrap();
    let h = Manhattan::new(goal);
    let mut e = IdaStar::new();
    let t = inst.optimal;
    let f = e
        .frontier(&board, goal, &h, t, 8, &Limits::default())
        .unwrap();
    assert!(f.solution.is_none() && f.nodes.len() >= 8);
    let paths: Vec<_> = f.nodes.iter().map(|n| n.moves.clone()).collect();
    let limits = Limits {
        max_nodes: Some(1000),
        ..Limits::default()
    };
    match e.search_subtrees(&board, goal, &h, t, &paths, &limits) {
        Err(FrontierError::Search(SearchError::LimitReached {
            limit: Limit::Nodes(1000),
            progress,
        })) => {
            assert_eq!(progress.bound, t);
            assert!(progress.generated <= 1004);
        }
        other => panic!("{other:?}"),
    }
    let cancel = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let r = e.search_subtrees(&board, goal, &h, t + 20, &paths, &limits);
    assert!(
        matches!(
            r,
            Err(FrontierError::Search(SearchError::LimitReached {
                limit: Limit::Cancelled,
                ..
            }))
        ),
        "{r:?}"
    );
}
