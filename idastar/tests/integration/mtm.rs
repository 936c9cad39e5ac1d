//! The multi-tile metric against an exhaustive oracle: breadth-first search over **every**
//! state of the 8-puzzle (181,440) and of the 4×2 board (20,160) with MTM moves (1..k tiles of
//! the blank's row or column, cost 1) gives each state's exact MTM distance. Checked:
//! `MtmManhattan` and `WalkingDistance` (built for MTM) are admissible and consistent in MTM on
//! every state, and walking distance dominates `MtmManhattan`; `MtmIdaStar` returns solutions
//! of exactly the optimal MTM length with either on many boards (the deepest included), each
//! replayed to the goal. The same breadth-first search in single-tile moves checks
//! `WalkingDistance` built for STM (admissible, consistent, at least Manhattan distance) on
//! every state, and the blank-last, blank-first and an explicit goal.

use std::collections::VecDeque;

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Manhattan, Metric, Move, MtmManhattan,
    Outcome, Shape, Solver, WalkingDistance, mtm_length, verify,
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

/// The STM successors of `b`: one per legal single-tile move.
fn stm_neighbors(b: &BitBoard) -> Vec<BitBoard> {
    Move::ALL
        .into_iter()
        .filter(|&m| b.legal().contains(m))
        .map(|m| b.neighbor(m))
        .collect()
}

/// The successors of `b` in `metric`.
fn neighbors(b: &BitBoard, metric: Metric) -> Vec<BitBoard> {
    match metric {
        Metric::Mtm => mtm_neighbors(b),
        Metric::Stm => stm_neighbors(b),
    }
}

/// Every state reachable from `goal`, with its MTM distance (moves are reversible, so the
/// distance from the goal is the distance to it), in BFS order.
fn bfs(goal: &Goal) -> (FxHashMap<u64, u32>, Vec<BitBoard>) {
    bfs_in(goal, Metric::Mtm)
}

/// Every state reachable from `goal`, with its distance in `metric`, in BFS order.
fn bfs_in(goal: &Goal, metric: Metric) -> (FxHashMap<u64, u32>, Vec<BitBoard>) {
    let start = BitBoard::from_layout(goal.layout()).unwrap();
    let mut dist = FxHashMap::default();
    let mut order = Vec::new();
    dist.insert(start.key(), 0u32);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b.key()];
        for n in neighbors(&b, metric) {
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
        let wd = WalkingDistance::new(&goal, Metric::Mtm).unwrap();
        let manhattan = Manhattan::new(&goal);
        let (mut sum_h, mut sum_wd, mut sum_d, mut manhattan_over) = (0u64, 0u64, 0u64, 0usize);
        let mut wd_exact = 0usize;
        // Admissible and consistent in MTM on every state.
        for b in &order {
            let hb = h.estimate(b);
            let wb = wd.estimate(b);
            let d = dist[&b.key()];
            sum_h += u64::from(hb);
            sum_wd += u64::from(wb);
            sum_d += u64::from(d);
            wd_exact += usize::from(wb == d);
            manhattan_over += usize::from(manhattan.estimate(b) > d);
            assert!(hb <= d, "{}: h {hb} > MTM distance {d}", b.to_layout());
            assert!(wb <= d, "{}: WD {wb} > MTM distance {d}", b.to_layout());
            assert!(wb >= hb, "{}: WD {wb} < mtm-manhattan {hb}", b.to_layout());
            assert_eq!(hb, h.estimate_layout(&b.to_layout()));
            assert_eq!(wb, wd.estimate_layout(&b.to_layout()));
            for n in mtm_neighbors(b) {
                assert!(
                    hb <= 1 + h.estimate(&n),
                    "inconsistent at {}",
                    b.to_layout()
                );
                assert!(
                    wb <= 1 + wd.estimate(&n),
                    "WD inconsistent at {}",
                    b.to_layout()
                );
            }
        }
        // Not a trivial bound: exact on some states, and above mtm-manhattan on average.
        assert!(wd_exact > 0 && sum_wd > sum_h);
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
            // The same optimum with walking distance, in no more nodes.
            let Outcome::Solved(s2) = MtmIdaStar::new()
                .solve(b, &goal, &wd, &Limits::default())
                .unwrap()
            else {
                panic!("{layout} is reachable from the goal")
            };
            verify(&layout, &s2.moves, goal.layout()).unwrap();
            assert_eq!(
                mtm_length(&s2.moves) as u32,
                dist[&b.key()],
                "{layout}: MTM length with walking distance"
            );
            assert!(s2.stats.generated <= s.stats.generated, "{layout}");
            solved += 1;
        }
        assert!(solved > 100, "{solved}");
        // Plain Manhattan distance is not admissible in MTM.
        assert!(manhattan_over > 0);
        eprintln!(
            "{width}x{height} {:?}: {} states, deepest {deepest} MTM moves, {solved} boards solved; mean MTM distance {:.3}, mean mtm-manhattan {:.3}, mean walking distance {:.3} (exact on {wd_exact}); Manhattan above the MTM distance on {manhattan_over} states",
            goal.layout().to_compact(),
            dist.len(),
            sum_d as f64 / dist.len() as f64,
            sum_h as f64 / dist.len() as f64,
            sum_wd as f64 / dist.len() as f64,
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

/// A goal unlike blank-last and blank-first: the tiles in reverse order, the blank on a middle
/// cell.
fn custom_goal(shape: Shape) -> Goal {
    let n = shape.cells();
    let mut cells: Vec<usize> = (1..n).rev().collect();
    cells.insert(n / 2, 0);
    Goal::custom(Layout::new(shape, &cells).unwrap())
}

/// Walking distance built for each metric against that metric's breadth-first oracle on every
/// state: admissible, consistent, and at least the metric's simple bound (Manhattan distance in
/// STM, `MtmManhattan` in MTM); the MTM tables are never above the STM ones.
fn check_walking_distance(width: usize, height: usize, expected_states: usize) {
    let shape = Shape::new(width, height).unwrap();
    for goal in [
        Goal::blank_last(shape),
        Goal::blank_first(shape),
        custom_goal(shape),
    ] {
        let stm_wd = WalkingDistance::new(&goal, Metric::Stm).unwrap();
        let mtm_wd = WalkingDistance::new(&goal, Metric::Mtm).unwrap();
        let manhattan = Manhattan::new(&goal);
        let mtm_manhattan = MtmManhattan::new(&goal);
        for metric in [Metric::Stm, Metric::Mtm] {
            let (dist, order) = bfs_in(&goal, metric);
            assert_eq!(dist.len(), expected_states);
            let (wd, simple): (&WalkingDistance, &dyn Fn(&BitBoard) -> u32) = match metric {
                Metric::Stm => (&stm_wd, &|b| manhattan.estimate(b)),
                Metric::Mtm => (&mtm_wd, &|b| mtm_manhattan.estimate(b)),
            };
            let (mut above, mut exact) = (0usize, 0usize);
            for b in &order {
                let d = dist[&b.key()];
                let h = wd.estimate(b);
                assert!(
                    h <= d,
                    "{metric:?} {}: WD {h} > distance {d}",
                    b.to_layout()
                );
                let s = simple(b);
                assert!(h >= s, "{metric:?} {}: WD {h} < {s}", b.to_layout());
                above += usize::from(h > s);
                exact += usize::from(h == d);
                assert!(mtm_wd.estimate(b) <= stm_wd.estimate(b));
                for n in neighbors(b, metric) {
                    assert!(
                        h <= 1 + wd.estimate(&n),
                        "{metric:?}: WD inconsistent at {} -> {}",
                        b.to_layout(),
                        n.to_layout()
                    );
                }
            }
            assert!(above > 0 && exact > 0, "{metric:?}: {above} {exact}");
            eprintln!(
                "{width}x{height} {:?} {metric:?}: {} states, WD above the simple bound on {above}, exact on {exact}",
                goal.layout().to_compact(),
                dist.len()
            );
        }
    }
}

#[test]
fn walking_distance_against_bfs_eight_puzzle() {
    check_walking_distance(3, 3, 181_440);
}

#[test]
fn walking_distance_against_bfs_four_by_two() {
    check_walking_distance(4, 2, 20_160);
    check_walking_distance(2, 4, 20_160);
}

/// Multi-tile pattern databases (`npuzzle_pdb::MtmDb`: blank-aware abstractions told apart by
/// goal row, maxed over groups and the mirrored board) against the MTM breadth-first oracle on
/// every state: admissible and consistent in MTM, at least walking distance somewhere and
/// exact somewhere; `MtmIdaStar` with them returns exactly optimal MTM lengths (replayed) on a
/// sample of boards and on every deepest one.
fn check_mtm_tables(width: usize, height: usize, expected_states: usize, sample_every: usize) {
    use npuzzle_pdb::{MtmDb, PartitionSpec, mtm_default_groups};
    let shape = Shape::new(width, height).unwrap();
    for goal in [
        Goal::blank_last(shape),
        Goal::blank_first(shape),
        custom_goal(shape),
    ] {
        let (dist, order) = bfs(&goal);
        assert_eq!(dist.len(), expected_states);
        let wd = WalkingDistance::new(&goal, Metric::Mtm).unwrap();
        let n = shape.cells() as u8;
        for groups in [
            mtm_default_groups(&goal, u64::MAX).unwrap(),
            // Every tile, and two groups maxed.
            vec![(1..n).collect::<Vec<u8>>()],
            vec![(1..n / 2).collect(), (n / 2..n).collect()],
        ] {
            for reflect in [false, true] {
                let db = MtmDb::build(
                    &goal,
                    &PartitionSpec::Custom(groups.clone()),
                    reflect,
                    &|_| {},
                )
                .unwrap();
                let (mut above_wd, mut exact, mut sum_h) = (0usize, 0usize, 0u64);
                for b in &order {
                    let d = dist[&b.key()];
                    let h = db.estimate(b);
                    sum_h += u64::from(h);
                    assert!(
                        h <= d,
                        "{groups:?} {}: MTM tables {h} > MTM distance {d}",
                        b.to_layout()
                    );
                    above_wd += usize::from(h > wd.estimate(b));
                    exact += usize::from(h == d);
                    for dir in Move::ALL {
                        let mut c = *b;
                        let mut hc = h;
                        while c.legal().contains(dir) {
                            // The update from the parent equals the estimate from scratch.
                            hc = db.update(&c, hc, dir);
                            c.apply(dir);
                            assert_eq!(hc, db.estimate(&c));
                            assert!(
                                h <= 1 + hc && hc <= 1 + h,
                                "{groups:?}: inconsistent at {} -> {}",
                                b.to_layout(),
                                c.to_layout()
                            );
                        }
                    }
                }
                assert!(exact > 0, "{groups:?}");
                eprintln!(
                    "{width}x{height} {} {groups:?} reflect {reflect} ({}): mean {:.3}, above walking distance on {above_wd}, exact on {exact} of {} states",
                    goal.layout().to_compact(),
                    db.reflects(),
                    sum_h as f64 / dist.len() as f64,
                    dist.len()
                );
                let deepest = dist.values().copied().max().unwrap();
                let sample = order
                    .iter()
                    .step_by(sample_every)
                    .chain(order.iter().filter(|b| dist[&b.key()] == deepest));
                for b in sample {
                    let layout: Layout = b.to_layout();
                    let Outcome::Solved(s) = MtmIdaStar::new()
                        .solve(b, &goal, &db, &Limits::default())
                        .unwrap()
                    else {
                        panic!("{layout} is reachable from the goal")
                    };
                    verify(&layout, &s.moves, goal.layout()).unwrap();
                    assert_eq!(mtm_length(&s.moves) as u32, dist[&b.key()], "{layout}");
                    // On two threads: as short, replayed.
                    let Outcome::Solved(p) = MtmIdaStar::new()
                        .threads(2)
                        .solve(b, &goal, &db, &Limits::default())
                        .unwrap()
                    else {
                        panic!("{layout} is reachable from the goal")
                    };
                    verify(&layout, &p.moves, goal.layout()).unwrap();
                    assert_eq!(
                        mtm_length(&p.moves) as u32,
                        dist[&b.key()],
                        "{layout} threads"
                    );
                }
            }
        }
    }
}

#[test]
fn mtm_tables_against_bfs_eight_puzzle() {
    check_mtm_tables(3, 3, 181_440, 997);
}

#[test]
fn mtm_tables_against_bfs_four_by_two() {
    check_mtm_tables(4, 2, 20_160, 97);
    check_mtm_tables(2, 4, 20_160, 97);
}

/// The parallel MTM search stops at a node limit like the sequential one: the limit named, the
/// threshold reached a lower bound, never "no solution"; without the limit both find the same
/// MTM optimum.
#[test]
fn parallel_mtm_search_stops_at_a_node_limit() {
    use npuzzle_core::{Limit, SearchError, parse_board};
    let goal = Goal::blank_last(Shape::square(4).unwrap());
    let wd = WalkingDistance::new(&goal, Metric::Mtm).unwrap();
    let layout = parse_board("1f345dc8796eab20", None).unwrap();
    let board = BitBoard::from_layout(&layout).unwrap();
    for threads in [1, 2] {
        let limits = Limits {
            max_nodes: Some(20_000),
            ..Limits::default()
        };
        match MtmIdaStar::new()
            .threads(threads)
            .solve(&board, &goal, &wd, &limits)
        {
            Err(SearchError::LimitReached { limit, progress }) => {
                assert_eq!(limit, Limit::Nodes(20_000), "{threads}");
                assert!(progress.bound > 0 && progress.bound <= 26, "{threads}");
            }
            other => panic!("{threads} threads: {other:?}"),
        }
        let Outcome::Solved(s) = MtmIdaStar::new()
            .threads(threads)
            .solve(&board, &goal, &wd, &Limits::default())
            .unwrap()
        else {
            panic!("solvable")
        };
        verify(&layout, &s.moves, goal.layout()).unwrap();
        assert_eq!(mtm_length(&s.moves), 26, "{threads}");
    }
}

/// `AllOptimal` in MTM at the engine level: with `MtmManhattan` and walking distance (MTM),
/// on a sample of 8-puzzle boards, the counts by MTM length for k = 0, 1, 2 equal the
/// enumeration's (`npuzzle_testsuite::mtm_solutions_by_length`); the count is their sum and
/// every kept solution replays to the goal; a node limit stops it with no count kept.
#[test]
fn all_optimal_in_mtm_counts_every_solution() {
    use npuzzle_idastar::AllOptimal;
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let (dist, order) = bfs_in(&goal, Metric::Mtm);
    let wd = WalkingDistance::new(&goal, Metric::Mtm).unwrap();
    let mm = MtmManhattan::new(&goal);
    for b in order.iter().step_by(7_001) {
        let layout = b.to_layout();
        let d = dist[&b.key()] as usize;
        let expected = npuzzle_testsuite::mtm_solutions_by_length(&layout, &goal, d + 2);
        for k in 0..=2u32 {
            let mut counts = Vec::new();
            for h in [0, 1] {
                let mut all = AllOptimal::new(usize::MAX).within(k).metric(Metric::Mtm);
                let outcome = if h == 0 {
                    all.solve(b, &goal, &wd, &Limits::default())
                } else {
                    all.solve(b, &goal, &mm, &Limits::default())
                };
                let Outcome::Solved(s) = outcome.unwrap() else {
                    panic!("solvable")
                };
                assert_eq!(mtm_length(&s.moves), d, "{layout}");
                assert_eq!(all.count(), all.solutions().len() as u64);
                for m in all.solutions() {
                    verify(&layout, m, goal.layout()).unwrap();
                }
                counts.push(all.counts_by_length().to_vec());
            }
            let want = &expected[d..=d + k as usize];
            assert_eq!(counts, [want, want], "{layout} within {k}");
        }
    }
    let far = order.last().unwrap();
    let mut all = AllOptimal::new(10).metric(Metric::Mtm);
    let limits = Limits {
        max_nodes: Some(1_000),
        ..Limits::default()
    };
    assert!(all.solve(far, &goal, &mm, &limits).is_err());
    assert_eq!((all.count(), all.solutions().len()), (0, 0));
}
