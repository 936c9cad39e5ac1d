use npuzzle::npuzzle_idastar::FrontierError;
use npuzzle::*;
use npuzzle_idastar::SubtreeEnd;

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
            let paths: Vec<_> = packet.iter().map(|n| n.moves.clone()).collect();
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
