use npuzzle::npuzzle_idastar::{FrontierError, FrontierNode};
use npuzzle::*;
use npuzzle_idastar::SubtreeEnd;

/// The move paths of frontier nodes, as `search_subtrees` and `split_frontier` take them.
fn paths_of(nodes: &[FrontierNode]) -> Vec<Vec<Move>> {
    nodes.iter().map(|n| n.moves.clone()).collect()
}

/// The distributed driver loop through the facade, packets of 5 nodes in (f, h) order.
fn drive(solver: &Npuzzle, layout: &Layout) -> (Answer, u64) {
    let settings = solver.settings();
    let first = solver.frontier(layout, 0, 1, &settings).unwrap();
    let mut threshold = first.frontier.initial_h;
    let mut generated = 0;
    loop {
        let plan = solver.frontier(layout, threshold, 50, &settings).unwrap();
        generated += plan.frontier.generated;
        let stats = |generated| Stats {
            generated,
            initial_h: first.frontier.initial_h,
            ..Stats::default()
        };
        if let Some(moves) = plan.frontier.solution {
            let a = solver.frontier_answer(layout, plan.heuristic, moves, stats(generated));
            return (a.unwrap(), generated);
        }
        let mut nodes = plan.frontier.nodes;
        nodes.sort_by_key(|n| (n.f(), n.h));
        let mut next = plan.frontier.next_threshold;
        for packet in nodes.chunks(5) {
            let paths = paths_of(packet);
            let s = solver
                .search_subtrees(layout, threshold, &paths, &settings)
                .unwrap();
            generated += s.generated;
            match s.end {
                SubtreeEnd::Found(moves) => {
                    let a = solver.frontier_answer(layout, plan.heuristic, moves, stats(generated));
                    return (a.unwrap(), generated);
                }
                SubtreeEnd::Exceeded(t) => next = next.min(t),
            }
        }
        threshold = next;
    }
}

/// Same lengths and guarantees as `Npuzzle::solve`, with Manhattan distance and linear
/// conflict, on the 8-puzzle and seed15 boards.
#[test]
fn driver_matches_solve() {
    for heuristic in [HeuristicKind::Manhattan, HeuristicKind::LinearConflict] {
        let solver = Config::new()
            .engine(Engine::IdaStar)
            .heuristic(heuristic)
            .threads(1)
            .build()
            .unwrap();
        for board in [
            "8 6 7 2 5 4 3 0 1",
            "6 4 7 8 5 0 3 2 1",
            "1 2 3 4 5 6 7 0 8",
            "2 7 10 4 6 12 3 1 14 15 13 5 11 0 9 8",
        ] {
            let layout = npuzzle::parse_board(board, None).unwrap();
            let local = solver.solve(&layout).unwrap();
            let (dist, _) = drive(&solver, &layout);
            assert_eq!(dist.len(), local.len(), "{board}");
            assert_eq!(dist.guarantee(), local.guarantee(), "{board}");
            assert_eq!(dist.lower_bound, local.lower_bound, "{board}");
            assert_eq!(dist.heuristic, heuristic);
        }
    }
}

/// Another engine is refused by name; a limit reports the threshold.
#[test]
fn errors() {
    let astar = Config::new().engine(Engine::AStar).build().unwrap();
    let layout = npuzzle::parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let e = astar
        .frontier(&layout, 20, 10, &astar.settings())
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotApplicable {
                setting: Setting::Engine,
                ..
            }
        ),
        "{e}"
    );
    let ida = Config::new()
        .engine(Engine::IdaStar)
        .heuristic(HeuristicKind::Manhattan)
        .max_nodes(100)
        .build()
        .unwrap();
    let e = ida
        .search_subtrees(&layout, 30, &[vec![]], &ida.settings())
        .unwrap_err();
    match e {
        Error::Search(SearchError::LimitReached { progress, .. }) => {
            assert_eq!(progress.bound, 30);
        }
        other => panic!("{other}"),
    }
    let bad = ida.search_subtrees(&layout, 30, &[vec![Move::Up]], &ida.settings());
    assert!(matches!(
        bad,
        Err(Error::Frontier(FrontierError::NotInTree { .. }))
    ));
}

/// Splitting packets into deeper frontiers (`Npuzzle::split_frontier`) neither loses nor
/// repeats work: for a complete iteration, the split's counts plus the searches of the split
/// nodes equal the searches of the nodes themselves, with the same next threshold; the nodes
/// generated below each node add up to the search's count. With the pattern databases (the
/// tables kernel, 8-puzzle 4-4 built in a temporary directory) and Manhattan distance (its
/// kernel, a seed15 board).
#[test]
fn split_loses_and_repeats_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let goal3 = Goal::blank_last(Shape::new(3, 3).unwrap());
    // Uniformly random 8-puzzles (seed 11; two of the 40) whose last complete iteration under the
    // 4-4 tables has a frontier of 12 nodes (most boards' tables are within 2 moves).
    let eights: Vec<String> =
        npuzzle::generate::generate(&goal3, npuzzle::generate::Method::Uniform, 11, 40)
            .map(|l| l.to_string())
            .collect();
    let mut cases: Vec<(HeuristicKind, String)> = eights
        .into_iter()
        .map(|b| (HeuristicKind::Pdb, b))
        .collect();
    cases.push((
        HeuristicKind::Manhattan,
        "2 7 10 4 6 12 3 1 14 15 13 5 11 0 9 8".to_string(),
    ));
    let mut tried = [0, 0];
    for (heuristic, board) in &cases {
        let (heuristic, board) = (*heuristic, board.as_str());
        let solver = Config::new()
            .engine(Engine::IdaStar)
            .heuristic(heuristic)
            .pdb_dir(dir.path())
            .threads(1)
            .build()
            .unwrap();
        let layout = npuzzle::parse_board(board, None).unwrap();
        let settings = solver.settings();
        let optimal = solver.solve(&layout).unwrap().len() as u32;
        let threshold = optimal - 2;
        let plan = solver.frontier(&layout, threshold, 12, &settings).unwrap();
        assert!(plan.frontier.solution.is_none(), "{board}");
        if heuristic == HeuristicKind::Pdb && plan.frontier.nodes.len() < 12 {
            continue;
        }
        assert!(
            plan.frontier.nodes.len() >= 12,
            "{board}: {}",
            plan.frontier.nodes.len()
        );
        tried[usize::from(heuristic == HeuristicKind::Manhattan)] += 1;
        let paths = paths_of(&plan.frontier.nodes);
        let whole = solver
            .search_subtrees(&layout, threshold, &paths, &settings)
            .unwrap();
        assert_eq!(whole.subtree_generated.len(), paths.len());
        assert_eq!(whole.subtree_generated.iter().sum::<u64>(), whole.generated);
        assert!(whole.subtree_generated.iter().filter(|&&n| n > 0).count() > 1);
        let mut generated = 0;
        let mut next = u32::MAX;
        for packet in paths.chunks(3) {
            let deeper = solver
                .split_frontier(&layout, threshold, packet, 8, &settings)
                .unwrap();
            assert!(deeper.solution.is_none());
            assert!(
                deeper
                    .nodes
                    .iter()
                    .all(|n| packet.iter().any(|p| n.moves.starts_with(p)))
            );
            generated += deeper.generated;
            next = next.min(deeper.next_threshold);
            let paths = paths_of(&deeper.nodes);
            let s = solver
                .search_subtrees(&layout, threshold, &paths, &settings)
                .unwrap();
            generated += s.generated;
            if let SubtreeEnd::Exceeded(t) = s.end {
                next = next.min(t);
            } else {
                panic!("{board}: a solution below the optimum");
            }
        }
        assert_eq!(generated, whole.generated, "{board} {heuristic:?}");
        let SubtreeEnd::Exceeded(whole_next) = whole.end else {
            panic!("{board}: a solution below the optimum");
        };
        assert_eq!(next, whole_next, "{board}");
        solution_below_a_split(&solver, &layout, optimal);
    }
    assert!(tried[0] >= 2 && tried[1] == 1, "boards tried: {tried:?}");
}

/// At the optimum, the split of the whole frontier, or the search of the split's nodes, finds a
/// solution of the optimal length that replays to the goal.
fn solution_below_a_split(solver: &Npuzzle, layout: &Layout, optimal: u32) {
    let settings = solver.settings();
    let plan = solver.frontier(layout, optimal, 12, &settings).unwrap();
    let paths = paths_of(&plan.frontier.nodes);
    let deeper = solver
        .split_frontier(layout, optimal, &paths, 4 * paths.len(), &settings)
        .unwrap();
    let found = if let Some(moves) = deeper.solution {
        moves
    } else {
        let paths = paths_of(&deeper.nodes);
        match solver
            .search_subtrees(layout, optimal, &paths, &settings)
            .unwrap()
            .end
        {
            SubtreeEnd::Found(moves) => moves,
            SubtreeEnd::Exceeded(t) => panic!("{layout}: none at {optimal}, next {t}"),
        }
    };
    assert_eq!(found.len() as u32, optimal);
    npuzzle::verify(layout, &found, Goal::blank_last(layout.shape()).layout()).unwrap();
}
