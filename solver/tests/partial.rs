//! Partial goals (cells that do not matter) through the facade, checked against
//! `npuzzle_testsuite::PartialOracle`, a breadth-first search over the abstract states (cells
//! of the tiles that matter and of the blank) written apart from the engine and its tables:
//! exact optimal lengths in STM and MTM, solvability (parity with one don't-care tile), the
//! moves replayed to the partial goal; the grouped tables and Manhattan distance alone as
//! well as the exact table; the refusals.

use npuzzle::npuzzle_idastar::partial::solve_partial;
use npuzzle::npuzzle_pdb::PartialDb;
use npuzzle::{
    Config, Engine, Error, HeuristicKind, Layout, Limits, Metric, PartialGoal, PartialKind, Record,
    Setting, Shape, parse_board, parse_partial,
};
use npuzzle_core::{Outcome, PartialManhattan, verify_partial};
use npuzzle_testsuite::PartialOracle;

/// The permutation of `0..n` of rank `r` (factorial number system).
fn permutation(mut r: usize, n: usize) -> Vec<usize> {
    let mut left: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(n);
    let fact = |k: usize| (1..=k).product::<usize>();
    for i in (0..n).rev() {
        let f = fact(i);
        out.push(left.remove(r / f));
        r %= f;
    }
    out
}

/// Every `step`-th board of `shape` (solvable or not for any goal).
fn boards(shape: Shape, step: usize) -> Vec<Layout> {
    let n = shape.cells();
    let total: usize = (1..=n).product();
    (0..total)
        .step_by(step)
        .map(|r| Layout::new(shape, &permutation(r, n)).unwrap())
        .collect()
}

fn kind(text: &str, shape: Shape) -> PartialKind {
    parse_partial(text, Some(shape)).unwrap().unwrap()
}

/// Solves every board with `config` and checks each answer against the oracle: solvable iff
/// the oracle reaches it, then the exact optimal length in the metric, a proven optimum, and
/// moves that replay to the partial goal. Returns how many boards were solvable.
fn check_facade(config: Config, goal: &PartialGoal, metric: Metric, boards: &[Layout]) -> usize {
    let oracle = PartialOracle::new(goal, metric);
    let solver = config.metric(metric).build().unwrap();
    let mut solvable = 0;
    for b in boards {
        let answer = solver.solve(b).unwrap();
        let expected = oracle.distance(b);
        assert_eq!(
            answer.is_solvable(),
            expected.is_some(),
            "{b} {goal} {metric:?}"
        );
        let Some(d) = expected else { continue };
        solvable += 1;
        assert_eq!(answer.length(), d as usize, "{b} to {goal} in {metric:?}");
        assert!(answer.is_optimal());
        assert_eq!(answer.lower_bound, d);
        let moves = &answer.solution.as_ref().unwrap().moves;
        let reached = verify_partial(b, moves, goal).unwrap();
        assert_eq!(&reached, answer.goal.layout());
        assert_eq!(answer.partial.as_ref(), Some(goal));
    }
    solvable
}

/// The engine alone with `PartialDb` tables of at most `max_entries` entries (groups), against
/// the oracle.
fn check_grouped(goal: &PartialGoal, metric: Metric, max_entries: usize, boards: &[Layout]) {
    let oracle = PartialOracle::new(goal, metric);
    let db = PartialDb::build(goal, metric, max_entries);
    assert!(!db.is_exact(), "{goal}: the tables are meant to be groups");
    for b in boards {
        match (
            solve_partial(b, goal, &db, &Limits::default(), |_| {}).unwrap(),
            oracle.distance(b),
        ) {
            (Outcome::Solved(s), Some(d)) => {
                assert_eq!(
                    metric.length(&s.moves),
                    d as usize,
                    "{b} to {goal} {metric:?}"
                );
                verify_partial(b, &s.moves, goal).unwrap();
            }
            (Outcome::Unsolvable(_), None) => {}
            (o, d) => panic!("{b} to {goal}: {o:?} but the oracle says {d:?}"),
        }
    }
}

/// The 3×3 goals of the oracle tests: first row (blank a wildcard), first row and first column
/// (the fringe), one tile, the first row with the blank fixed, one don't-care tile with the
/// blank a wildcard on adjacent free cells (parity decides) and on free cells two apart
/// (always solvable), and one don't-care tile with the blank fixed.
const GOALS_3X3: [&str; 7] = [
    "1 2 3 x x x x x x",
    "1 2 3 4 x x 7 x x",
    "x x x x 5 x x x x",
    "1 2 3 x x x x x 0",
    "1 2 3 4 5 6 7 x x",
    "1 2 3 4 5 6 x 7 x",
    "1 2 3 4 5 6 x 8 0",
];

#[test]
fn oracle_3x3_sample_every_goal_both_metrics() {
    let shape = Shape::square(3).unwrap();
    // 2,161 of the 362,880 boards, solvable and not.
    let sample = boards(shape, 167);
    for text in GOALS_3X3 {
        let goal = PartialGoal::new(&kind(text, shape), shape).unwrap();
        for metric in Metric::ALL {
            let solvable = check_facade(Config::new().goal(text).unwrap(), &goal, metric, &sample);
            if goal.free_tiles() >= 2 {
                assert_eq!(solvable, sample.len(), "{text}: every board can reach it");
            } else if text != "1 2 3 4 5 6 x 7 x" {
                assert!(solvable < sample.len(), "{text}: parity decides");
            }
        }
    }
}

#[test]
fn oracle_3x3_every_board_first_row() {
    // Every one of the 362,880 boards, every 7th in MTM.
    let shape = Shape::square(3).unwrap();
    let goal = PartialGoal::new(&kind("123xxxxxx", shape), shape).unwrap();
    let all = boards(shape, 1);
    let config = Config::new().goal("123xxxxxx").unwrap();
    assert_eq!(
        check_facade(config.clone(), &goal, Metric::Stm, &all),
        all.len()
    );
    let some: Vec<Layout> = all.iter().step_by(7).cloned().collect();
    assert_eq!(check_facade(config, &goal, Metric::Mtm, &some), some.len());
}

#[test]
fn oracle_3x3_manhattan_alone_and_grouped_tables() {
    let shape = Shape::square(3).unwrap();
    let sample = boards(shape, 997);
    for text in GOALS_3X3 {
        let goal = PartialGoal::new(&kind(text, shape), shape).unwrap();
        for (metric, h) in [
            (Metric::Stm, HeuristicKind::LinearConflict),
            (Metric::Mtm, HeuristicKind::MtmManhattan),
        ] {
            let config = Config::new().goal(text).unwrap().heuristic(h);
            check_facade(config, &goal, metric, &sample);
            if goal.tiles().len() >= 2 {
                // Groups of one or two tiles + blank (72 or 504 placements).
                check_grouped(&goal, metric, 600, &sample);
            }
        }
    }
}

#[test]
fn oracle_2x4_and_4x2() {
    for (shape, goals) in [
        (
            Shape::new(4, 2).unwrap(),
            ["1 2 3 4 x x x x", "1 2 x x 5 x x x", "x x x x x x 7 0"],
        ),
        (
            Shape::new(2, 4).unwrap(),
            ["1 2 x x x x x x", "1 2 3 x 5 x x x", "x 2 x x x x x 0"],
        ),
    ] {
        // 1,091 of the 40,320 boards.
        let sample = boards(shape, 37);
        for text in goals {
            let goal = PartialGoal::new(&kind(text, shape), shape).unwrap();
            for metric in Metric::ALL {
                let config = Config::new().size(shape).goal(text).unwrap();
                check_facade(config, &goal, metric, &sample);
                if goal.tiles().len() >= 2 {
                    check_grouped(&goal, metric, 60, &sample);
                }
            }
        }
    }
}

/// The nine boards of seed15.txt.
fn seed15() -> Vec<Layout> {
    npuzzle_testsuite::seed15()
        .into_iter()
        .map(|i| i.board)
        .collect()
}

#[test]
fn oracle_4x4_first_row_seed15() {
    // The abstract space of the 15-puzzle's first row: 16·15·14·13·12 = 524,160 states.
    let shape = Shape::square(4).unwrap();
    let goal = PartialGoal::new(&PartialKind::FirstRows(1), shape).unwrap();
    for metric in Metric::ALL {
        let oracle = PartialOracle::new(&goal, metric);
        assert_eq!(oracle.len(), 524_160);
        let config = Config::new().goal("first-row").unwrap();
        assert_eq!(check_facade(config, &goal, metric, &seed15()), 9);
    }
}

/// The first two rows of seed15's boards, optimal lengths in STM and MTM found with the
/// tables (BENCHMARKS.md, "Partial goals"); the four shortest searched again with Manhattan
/// distance alone, a search that shares nothing with the tables.
#[test]
fn first_two_rows_of_seed15() {
    let shape = Shape::square(4).unwrap();
    let goal = PartialGoal::new(&PartialKind::FirstRows(2), shape).unwrap();
    let boards = seed15();
    let stm = Config::new().goal("first-rows:2").unwrap().build().unwrap();
    let mtm = Config::new()
        .goal("12345678xxxxxxxx")
        .unwrap()
        .metric(Metric::Mtm)
        .build()
        .unwrap();
    for (b, (s, m)) in boards.iter().zip(FIRST_TWO_ROWS) {
        for (solver, metric, expected) in [(&stm, Metric::Stm, s), (&mtm, Metric::Mtm, m)] {
            let answer = solver.solve(b).unwrap();
            assert_eq!(answer.length(), expected, "{b} {metric:?}");
            assert!(answer.is_optimal());
            verify_partial(b, &answer.solution.unwrap().moves, &goal).unwrap();
        }
    }
    for (b, (s, m)) in boards.iter().zip(FIRST_TWO_ROWS).take(4) {
        for (metric, expected) in [(Metric::Stm, s), (Metric::Mtm, m)] {
            let h = PartialManhattan::new(&goal, metric);
            let Outcome::Solved(sol) =
                solve_partial(b, &goal, &h, &Limits::default(), |_| {}).unwrap()
            else {
                panic!("solvable")
            };
            assert_eq!(metric.length(&sol.moves), expected, "{b} {metric:?}");
        }
    }
}

/// (STM, MTM) optimal lengths to the first two rows of seed15's first six boards.
const FIRST_TWO_ROWS: [(usize, usize); 6] =
    [(11, 6), (22, 13), (19, 12), (15, 11), (29, 19), (37, 22)];

#[test]
fn json_says_the_goal_is_partial() {
    let solver = Config::new()
        .goal("1 2 3 x x x x x x")
        .unwrap()
        .build()
        .unwrap();
    let answer = solver.solve_str("8 6 7 2 5 4 3 0 1").unwrap();
    let record = Record::from(&answer);
    assert_eq!(record.partial_goal.as_deref(), Some("123xxxxxx"));
    assert!(record.goal.starts_with("123"));
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains(r#""partial_goal":"123xxxxxx""#));
    // A full goal's record has no such key.
    let full = Record::from(&npuzzle::solve("1 2 3 4 5 6 0 7 8").unwrap());
    assert!(
        !serde_json::to_string(&full)
            .unwrap()
            .contains("partial_goal")
    );
}

#[test]
fn engines_without_a_partial_goal_refuse() {
    for e in [
        Engine::AStar,
        Engine::Bidirectional,
        Engine::WeightedAStar,
        Engine::Constructive,
        Engine::Greedy,
        Engine::AStarIdaStar,
        Engine::Beam,
        Engine::HillClimbing,
    ] {
        let err = Config::new().goal("123xxxxxx").unwrap().engine(e).build();
        assert!(
            matches!(
                err,
                Err(Error::NotApplicable {
                    setting: Setting::PartialGoal,
                    ..
                })
            ),
            "{e:?}: {err:?}"
        );
    }
    let refused = |c: Config| c.build().map(|_| ()).unwrap_err();
    let base = || Config::new().goal("123xxxxxx").unwrap();
    assert!(matches!(
        refused(base().heuristic(HeuristicKind::Hamming)),
        Error::NotApplicable {
            setting: Setting::Heuristic,
            ..
        }
    ));
    assert!(matches!(
        refused(base().weight(2.0)),
        Error::NotApplicable { .. }
    ));
    assert!(matches!(
        refused(base().cycle_check(npuzzle::CycleCheck::Path)),
        Error::NotApplicable { .. }
    ));
    assert!(matches!(
        refused(base().pdb("default").unwrap()),
        Error::NotApplicable {
            setting: Setting::Pdb,
            ..
        }
    ));
    // Every optimal solution and a depth limit need one goal board.
    let solver = base().build().unwrap();
    let layout = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    assert!(matches!(
        solver.all_optimal(&layout, 10, &solver.settings()),
        Err(Error::NotApplicable {
            setting: Setting::PartialGoal,
            ..
        })
    ));
    assert!(matches!(
        solver.solve_with(&layout, &solver.settings().max_depth(30)),
        Err(Error::NotApplicable {
            setting: Setting::MaxDepth,
            ..
        })
    ));
    // The shape must be the board's; first-rows:K needs K below the height.
    assert!(matches!(
        solver.solve_str("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"),
        Err(Error::Goal(_))
    ));
    let rows = Config::new().goal("first-rows:3").unwrap().build().unwrap();
    assert!(matches!(
        rows.solve(&layout),
        Err(Error::BadValue {
            setting: Setting::Goal,
            ..
        })
    ));
}

#[test]
fn bad_partial_goals_are_clear_errors() {
    for (text, says) in [
        ("1 1 x x", "tile 1 is given twice"),
        ("x x x x", "every cell is a wildcard"),
        ("1 9 x x", "tile 9 does not exist"),
        ("1 2 x y", "bad token"),
        ("first-rows:x", "unknown partial goal"),
    ] {
        let err = Config::new().goal(text).unwrap_err();
        assert!(
            matches!(
                err,
                Error::BadValue {
                    setting: Setting::Goal,
                    ..
                }
            ),
            "{text}"
        );
        assert!(err.to_string().contains(says), "{text}: {err}");
    }
    // parse_goal (pdb, generate, check) takes full goals only, and says so.
    let err = npuzzle::parse_goal("123xxxxxx", None).unwrap_err();
    assert!(err.to_string().contains("partial goal"), "{err}");
}

#[test]
fn a_goal_already_reached_and_an_unsolvable_board() {
    let solver = Config::new()
        .goal("1 2 3 4 5 6 7 x x")
        .unwrap()
        .build()
        .unwrap();
    let done = parse_board("1 2 3 4 5 6 7 0 8", None).unwrap();
    assert!(solver.answers_without_search(&done));
    let a = solver.solve(&done).unwrap();
    assert_eq!((a.length(), a.is_optimal()), (0, true));
    // 2 and 1 exchanged: the two completions (8 and blank on cells 7, 8, a move apart) both
    // have the other parity.
    let swapped = parse_board("2 1 3 4 5 6 7 8 0", None).unwrap();
    assert!(solver.answers_without_search(&swapped));
    let a = solver.solve(&swapped).unwrap();
    assert!(!a.is_solvable());
    assert!(a.solution.is_none());
    assert!(!a.parity.solvable);
    // With two don't-care tiles the same board can.
    let two = Config::new()
        .goal("1 2 3 4 5 6 x x x")
        .unwrap()
        .build()
        .unwrap();
    assert!(two.solve(&swapped).unwrap().is_solvable());
}

/// `npuzzle check --moves` for a partial goal, in both metrics: the optimum against the
/// breadth-first oracle, an optimal solution judged optimal, a longer one judged longer by
/// exactly its extra moves, a prefix judged by the cells that matter only, and an
/// unreachable goal (one don't-care tile, the other parity) judged unsolvable without search.
#[test]
fn checking_a_solution_for_a_partial_goal() {
    use npuzzle::check::{Optimum, SolutionCheck, check_config_in, check_partial};
    let shape = Shape::square(3).unwrap();
    for text in ["123xxxxxx", "1x3x5x7x0"] {
        let goal = PartialGoal::new(&kind(text, shape), shape).unwrap();
        for metric in Metric::ALL {
            let oracle = PartialOracle::new(&goal, metric);
            let solver = check_config_in(text, metric).unwrap().build().unwrap();
            for b in boards(shape, 9_973).iter().take(12) {
                let d = oracle.distance(b).expect("two don't-care tiles: reachable");
                let best = solver.solve(b).unwrap();
                let moves = best.solution.unwrap().moves;
                let c = solver
                    .check_solution(b, &moves, &solver.settings())
                    .unwrap();
                assert!(c.solves && c.solvable, "{b} {text} {metric:?}: {c:?}");
                assert_eq!(c.optimal, Some(true), "{b} {text}: {}", c.verdict());
                assert_eq!(c.extra_moves, Some(0));
                assert!(matches!(c.optimum, Optimum::Known { length, .. } if length == d));
                assert_eq!(c.goal, goal.board_text());
                assert_eq!(c.partial_goal, Some(goal.name()));
                // Two more moves (one and its inverse, at the end): the same board reached,
                // in MTM possibly one move more only when the last moves merge.
                let Some(&last) = moves.last() else { continue };
                let mut longer = moves.clone();
                let back = [
                    npuzzle::Move::Up,
                    npuzzle::Move::Down,
                    npuzzle::Move::Left,
                    npuzzle::Move::Right,
                ]
                .into_iter()
                .find(|&m| {
                    m != last.inverse() && {
                        let mut l = b.clone();
                        moves.iter().all(|&x| l.apply(x)) && l.apply(m)
                    }
                })
                .unwrap();
                longer.extend([back, back.inverse()]);
                let c = solver
                    .check_solution(b, &longer, &solver.settings())
                    .unwrap();
                let given = metric.length(&longer) as u32;
                assert!(c.solves && c.optimal == Some(false), "{}", c.verdict());
                assert_eq!(c.extra_moves, Some(given - d));
                // A prefix: the wrong cells are cells that matter.
                let c = solver
                    .check_solution(b, &moves[..moves.len() - 1], &solver.settings())
                    .unwrap();
                assert!(!c.solves && !c.wrong_cells.is_empty(), "{}", c.verdict());
                for w in &c.wrong_cells {
                    assert_eq!(goal.cells()[w.cell], Some(w.expected as u16));
                }
                // Without moves: the bounds never exceed the oracle's distance.
                let k = check_partial(b, &goal).unwrap();
                assert!(k.parity.solvable && k.manhattan <= k.linear_conflict);
                if metric == Metric::Stm {
                    assert!(
                        k.linear_conflict <= d,
                        "{b} {text}: {} > {d}",
                        k.linear_conflict
                    );
                }
            }
        }
    }
    // One don't-care tile (8) and the blank free on two adjacent cells: the board with tiles 1
    // and 2 exchanged has the other parity against both completions.
    let text = "1234567xx";
    let goal = PartialGoal::new(&kind(text, shape), shape).unwrap();
    let swapped = parse_board("2 1 3 4 5 6 7 8 0", None).unwrap();
    let k = check_partial(&swapped, &goal).unwrap();
    assert!(!k.parity.solvable);
    let c = SolutionCheck::replay_partial(&swapped, &goal, &[]).unwrap();
    assert!(!c.solvable && !c.solves && c.optimum == Optimum::Unsolvable);
    let solver = check_config_in(text, Metric::Stm).unwrap().build().unwrap();
    let c = solver
        .check_solution(&swapped, &[], &solver.settings())
        .unwrap();
    assert_eq!(c.optimum, Optimum::Unsolvable);
    // A board that reaches the goal as it is: zero moves, optimal.
    let home = parse_board("1 2 3 4 5 6 7 0 8", None).unwrap();
    let c = solver
        .check_solution(&home, &[], &solver.settings())
        .unwrap();
    assert!(
        c.solves && c.optimal == Some(true) && c.extra_moves == Some(0),
        "{}",
        c.verdict()
    );
}
