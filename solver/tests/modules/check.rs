use npuzzle::check::*;
use npuzzle::*;
use npuzzle_core::{Shape, parse_board};

#[test]
fn bounds() {
    let l = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let c = check(&l, &Goal::blank_last(l.shape())).unwrap();
    assert!(c.parity.solvable);
    assert_eq!((c.manhattan, c.linear_conflict), (21, 23));
    // Boards above 16 cells get both bounds too.
    let big = Layout::blank_first(Shape::square(5).unwrap());
    let c = check(&big, &Goal::blank_last(big.shape())).unwrap();
    assert!(c.manhattan > 0 && c.linear_conflict >= c.manhattan);
    let u = parse_board("1 2 3 4 5 6 8 7 0", None).unwrap();
    let c = check(&u, &Goal::blank_last(u.shape())).unwrap();
    assert!(!c.parity.solvable);
    assert_eq!(c.linear_conflict, 0);
}

#[test]
fn judges_solutions() {
    let l = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let solver = check_config("blank-last")
        .unwrap()
        .threads(1)
        .build()
        .unwrap();
    let best = solver.solve(&l).unwrap();
    let moves = best.move_list().to_vec();
    let c = solver
        .check_solution(&l, &moves, &solver.settings())
        .unwrap();
    assert!(c.solves && c.legal && c.wrong_cells.is_empty());
    assert_eq!((c.optimal, c.extra_moves), (Some(true), Some(0)));
    assert!(matches!(c.optimum, Optimum::Known { length: 31, .. }));
    // A detour of two moves: legal, solves, 2 more than the optimum.
    let first = moves[0];
    let mut longer = vec![first, first.inverse()];
    longer.extend(&moves);
    let c = solver
        .check_solution(&l, &longer, &solver.settings())
        .unwrap();
    assert_eq!(
        (c.solves, c.optimal, c.extra_moves),
        (true, Some(false), Some(2))
    );
    assert!(
        c.verdict().contains("2 more than the optimum (31)"),
        "{}",
        c.verdict()
    );
    // One move short: the wrong cells are named.
    let c = solver
        .check_solution(&l, &moves[..30], &solver.settings())
        .unwrap();
    assert!(!c.solves && c.legal);
    assert_eq!(c.wrong_cells.len(), 2);
    assert!(c.wrong_cells.iter().any(|w| w.expected == 0));
    // An illegal move: its index and why.
    let c = solver
        .check_solution(
            &l,
            &npuzzle_core::parse_moves("DDD").unwrap(),
            &solver.settings(),
        )
        .unwrap();
    let i = c.illegal.clone().unwrap();
    assert_eq!((i.index, i.mv, i.blank_cell), (2, 'D', 1));
    assert!(i.reason.contains("top row"), "{}", i.reason);
    assert_eq!(c.optimal, Some(false));
}

#[test]
fn out_of_budget_judges_against_the_lower_bound() {
    // A 15-puzzle of 58 moves with a budget of 1,000 nodes: only a bound.
    let l = parse_board("38abfe7951024c6d", None).unwrap();
    let solver = check_config("blank-last")
        .unwrap()
        .threads(1)
        .max_nodes(1_000)
        .build()
        .unwrap();
    let c = solver
        .check_solution(
            &l,
            &npuzzle_core::parse_moves("L").unwrap(),
            &solver.settings(),
        )
        .unwrap();
    assert!(!c.solves);
    let Optimum::AtLeast { lower_bound, how } = &c.optimum else {
        panic!("{:?}", c.optimum)
    };
    assert!(*lower_bound >= 40 && *lower_bound <= 58, "{lower_bound}");
    assert!(how.contains("node limit"), "{how}");
    // Unsolvable boards: no optimum.
    let u = parse_board("1 2 3 4 5 6 8 7 0", None).unwrap();
    let c = solver.check_solution(&u, &[], &solver.settings()).unwrap();
    assert_eq!(
        (c.solvable, c.solves, &c.optimum),
        (false, false, &Optimum::Unsolvable)
    );
    assert!(read_moves("UDX").unwrap_err().to_string().contains("'X'"));
}

/// `check --metric mtm`: the moves counted in MTM (a run of one letter is one move) and judged
/// against the MTM optimum; in STM the same moves are judged as before.
#[test]
fn solutions_are_judged_in_the_multi_tile_metric() {
    let dir = std::env::temp_dir().join(format!("npuzzle-check-mtm-{}", std::process::id()));
    let board = npuzzle::parse_board("1 2 3 4 5 6 0 7 8", None).unwrap();
    let judge = |metric, moves: &str| {
        let solver = check_config_in("blank-last", metric)
            .unwrap()
            .pdb_dir(&dir)
            .build()
            .unwrap();
        let moves = npuzzle::check::read_moves(moves).unwrap();
        solver
            .check_solution(&board, &moves, &solver.settings())
            .unwrap()
    };
    // LL: one MTM move, two STM moves; optimal in both.
    let c = judge(Metric::Mtm, "LL");
    assert_eq!(
        (c.metric, c.length, c.optimal),
        (Metric::Mtm, 1, Some(true))
    );
    assert_eq!(c.verdict(), "solves the board in 1 MTM move: optimal");
    let c = judge(Metric::Stm, "LL");
    assert_eq!(
        (c.metric, c.length, c.optimal),
        (Metric::Stm, 2, Some(true))
    );
    // L D U L: four runs, four MTM moves, three more than the optimum.
    let c = judge(Metric::Mtm, "LDUL");
    assert_eq!(
        (c.length, c.optimal, c.extra_moves),
        (4, Some(false), Some(3))
    );
    // The 8-puzzle's hardest in MTM: 20 moves; its STM-optimal 31-move solution has more.
    let hard = npuzzle::parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let stm = npuzzle::solve("8 6 7 2 5 4 3 0 1").unwrap();
    let solver = check_config_in("blank-last", Metric::Mtm)
        .unwrap()
        .pdb_dir(&dir)
        .build()
        .unwrap();
    let moves = &stm.solution.as_ref().unwrap().moves;
    let c = solver
        .check_solution(&hard, moves, &solver.settings())
        .unwrap();
    assert!(c.solves);
    assert_eq!(c.length, npuzzle::mtm_length(moves));
    match &c.optimum {
        Optimum::Known { length, .. } => assert_eq!(*length, 20),
        other => panic!("{other:?}"),
    }
    assert_eq!(c.extra_moves, Some(c.length as u32 - 20));
    std::fs::remove_dir_all(&dir).ok();
}

/// A long move string with one bad letter: the error quotes the characters around it and the
/// position, not the whole string (issue 52, case 8: a 120,000-move string was echoed whole).
#[test]
fn a_bad_letter_in_a_long_move_string_is_quoted_short() {
    let mut text = "UD".repeat(60_000);
    text.replace_range(70_000..70_001, "X");
    let e = read_moves(&text).unwrap_err().to_string();
    assert!(e.len() < 400, "{} bytes: {}", e.len(), &e[..200]);
    assert!(e.contains("position 70000"), "{e}");
    assert!(e.contains("120000 characters"), "{e}");
    assert!(e.contains('X'), "{e}");
    // A short one is quoted whole.
    let e = read_moves("UDXL").unwrap_err().to_string();
    assert!(e.contains("\"UDXL\""), "{e}");
    // `R2 3` is R23: spaces are ignored inside a count too (case 7).
    assert_eq!(read_moves("R2 3").unwrap().len(), 23);
}
