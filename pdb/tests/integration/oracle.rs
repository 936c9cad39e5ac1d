//! Pattern databases against exact distances: every 8-puzzle state (BFS oracle), sampled
//! 15-puzzle states near the goal (IDA* + Manhattan), and IDA* + PDB solving benchmark instances
//! to their known optimal lengths, every move list replayed.

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Manhattan, Move, Outcome, Shape, Solver,
    verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_pdb::{BuildPolicy, Cache, Event, PartitionSpec, PatternDb};
use npuzzle_testsuite::{BfsOracle, antipodes80, korf100, seed15};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn solve<H: Heuristic<BitBoard>>(start: &Layout, goal: &Goal, h: &H) -> (usize, u64) {
    let b = BitBoard::from_layout(start).unwrap();
    let Outcome::Solved(s) = IdaStar::new()
        .solve(&b, goal, h, &Limits::default())
        .unwrap()
    else {
        panic!("solvable")
    };
    verify(start, &s.moves, goal.layout()).unwrap();
    (s.moves.len(), s.stats.generated)
}

/// Random walk of `len` moves from `b`, never undoing the previous move.
fn walk(b: &mut BitBoard, len: usize, rng: &mut ChaCha8Rng) {
    let mut last: Option<Move> = None;
    for _ in 0..len {
        let moves: Vec<Move> = b
            .legal()
            .into_iter()
            .filter(|&m| Some(m.inverse()) != last)
            .collect();
        let m = moves[rng.random_range(0..moves.len())];
        b.apply(m);
        last = Some(m);
    }
}

#[test]
fn every_eight_puzzle_state_is_admissible() {
    let s = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s), Goal::blank_first(s)] {
        let oracle = BfsOracle::new(&goal);
        let states = oracle.sample(1);
        assert_eq!(states.len(), 181_441); // every state, the last one twice
        let md = Manhattan::new(&goal);
        for spec in [
            "default",
            "1,2,3/4,5,6/7,8",
            "1,3,5,7/2,4,6,8",
            "1,2,3,4,5,6,7,8",
        ] {
            let spec: PartitionSpec = spec.parse().unwrap();
            for reflect in [false, true] {
                let pdb = PatternDb::build(&goal, &spec, reflect, &|_| {}).unwrap();
                assert_eq!(
                    pdb.reflects(),
                    reflect,
                    "both goals' blanks are on the diagonal"
                );
                let mut sum = 0u64;
                for (layout, d) in &states {
                    let b = BitBoard::from_layout(layout).unwrap();
                    let h = pdb.estimate(&b);
                    assert!(h <= *d, "{spec} {goal}: h {h} > {d} for {layout}");
                    assert!(h >= md.estimate(&b), "{spec}: below Manhattan for {layout}");
                    assert_eq!(h % 2, *d % 2, "parity for {layout}");
                    for m in b.legal() {
                        let h2 = pdb.update(&b, h, m);
                        assert_eq!(h2, pdb.estimate(&b.neighbor(m)), "update {layout} {m}");
                        // Not consistent in general (values are minimised over the blank's
                        // region, see the crate docs), but the parity always flips.
                        assert!(h2.abs_diff(h) % 2 == 1, "parity {layout} {m}");
                    }
                    sum += u64::from(h);
                }
                // The whole 8-tile group minimised over the blank is nearly exact.
                if spec == PartitionSpec::Custom(vec![(1..9).collect()]) {
                    assert!(sum * 100 > 95 * states.iter().map(|s| u64::from(s.1)).sum::<u64>());
                }
            }
        }
    }
}

#[test]
fn eight_puzzle_hardest_positions_solve_exactly() {
    for inst in npuzzle_testsuite::eight31() {
        let pdb = PatternDb::build(&inst.goal, &PartitionSpec::Default, true, &|_| {}).unwrap();
        assert_eq!(solve(&inst.board, &inst.goal, &pdb).0, 31, "{}", inst.id);
    }
}

#[test]
fn non_square_boards_match_bfs() {
    for (w, h) in [(3, 2), (4, 2), (2, 4), (5, 2)] {
        let shape = Shape::new(w, h).unwrap();
        let goal = Goal::blank_first(shape);
        let pdb = PatternDb::build(&goal, &PartitionSpec::Default, true, &|_| {}).unwrap();
        assert!(!pdb.reflects());
        let oracle = BfsOracle::new(&goal);
        let step = (oracle.len() / 3000).max(1);
        for (layout, d) in oracle.sample(step) {
            let b = BitBoard::from_layout(&layout).unwrap();
            assert!(pdb.estimate(&b) <= d, "{shape} {layout}");
        }
        for (layout, d) in oracle.sample(oracle.len() / 20) {
            assert_eq!(solve(&layout, &goal, &pdb).0 as u32, d, "{shape} {layout}");
        }
    }
}

/// A custom goal with the blank on the diagonal reflects; one with the blank off it does not.
#[test]
fn reflection_only_for_goals_symmetric_under_it() {
    let s = Shape::square(3).unwrap();
    let on = Goal::custom(npuzzle_core::parse_board("1 2 3 4 0 5 6 7 8", None).unwrap());
    let off = Goal::custom(npuzzle_core::parse_board("1 0 2 3 4 5 6 7 8", None).unwrap());
    for (goal, reflects) in [(on, true), (off, false)] {
        let pdb = PatternDb::build(&goal, &PartitionSpec::Default, true, &|_| {}).unwrap();
        assert_eq!(pdb.reflects(), reflects);
        let oracle = BfsOracle::new(&goal);
        for (layout, d) in oracle.sample(1) {
            assert!(pdb.estimate(&BitBoard::from_layout(&layout).unwrap()) <= d);
        }
    }
    let _ = s;
}

/// 6-6-3 on the 15-puzzle, both goals: admissible on states near the goal (exact distances by
/// IDA* + Manhattan), incremental = from scratch along random walks.
#[test]
fn fifteen_puzzle_663_near_the_goal() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let s = Shape::square(4).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for goal in [Goal::blank_first(s), Goal::blank_last(s)] {
        let pdb = open(
            &goal,
            &PartitionSpec::P663,
            false,
            &cache,
            BuildPolicy::Always,
        );
        let refl = open(
            &goal,
            &PartitionSpec::P663,
            true,
            &cache,
            BuildPolicy::Never,
        );
        assert!(refl.reflects());
        let md = Manhattan::new(&goal);
        for _ in 0..60 {
            let mut b = BitBoard::from_layout(goal.layout()).unwrap();
            walk(&mut b, rng.random_range(10..36), &mut rng);
            let layout = b.to_layout();
            let (d, _) = solve(&layout, &goal, &md);
            for p in [&pdb, &refl] {
                let h = p.estimate(&b);
                assert!(h <= d as u32, "{layout}: h {h} > {d}");
                assert!(h >= md.estimate(&b));
            }
            assert!(refl.estimate(&b) >= pdb.estimate(&b));
            // Incremental updates along a walk.
            for p in [&pdb, &refl] {
                let mut c = b;
                let mut h = p.estimate(&c);
                for _ in 0..40 {
                    let moves: Vec<Move> = c.legal().into_iter().collect();
                    let m = moves[rng.random_range(0..moves.len())];
                    h = p.update(&c, h, m);
                    c.apply(m);
                    assert_eq!(h, p.estimate(&c));
                }
            }
        }
    }
}

/// `PatternDb::open` with no event or progress reporting.
fn open(
    goal: &Goal,
    spec: &PartitionSpec,
    reflect: bool,
    cache: &Cache,
    policy: BuildPolicy,
) -> PatternDb {
    PatternDb::open(goal, spec, reflect, cache, policy, &mut |_| {}, &|_| {}).unwrap()
}

/// `spec` with reflection for `goal`, built in a fresh temporary cache (returned with it).
fn built(goal: &Goal, spec: &PartitionSpec) -> (tempfile::TempDir, PatternDb) {
    let dir = tempfile::tempdir().unwrap();
    let pdb = open(
        goal,
        spec,
        true,
        &Cache::new(dir.path()),
        BuildPolicy::Always,
    );
    (dir, pdb)
}

fn korf_663(cache: &Cache, reflect: bool) -> PatternDb {
    let goal = Goal::blank_first(Shape::square(4).unwrap());
    open(
        &goal,
        &PartitionSpec::P663,
        reflect,
        cache,
        BuildPolicy::Always,
    )
}

/// A tier of Korf's 100 (every 10th instance) solved exactly by IDA* + 6-6-3 with reflection;
/// also checks that the cache is used the second time and rebuilds a corrupted file.
#[test]
fn korf100_tier_with_663() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let pdb = korf_663(&cache, true);
    assert_eq!(pdb.table_bytes(), 2 * 5_765_760 + 3_360);
    for inst in korf100().iter().step_by(10) {
        let (len, _) = solve(&inst.board, &inst.goal, &pdb);
        assert_eq!(len as u32, inst.optimal, "instance {}", inst.id);
    }
    // Second open: everything loaded. Corrupt one file: rejected and rebuilt, never used.
    let goal = Goal::blank_first(Shape::square(4).unwrap());
    let mut loaded = 0;
    PatternDb::open(
        &goal,
        &PartitionSpec::P663,
        true,
        &cache,
        BuildPolicy::Never,
        &mut |e| loaded += usize::from(matches!(e, Event::Loaded { .. })),
        &|_| {},
    )
    .unwrap();
    assert_eq!(loaded, 3);
    let small = cache.path(&npuzzle_pdb::TableKey::new(&goal, &[1, 2, 3]));
    let mut bytes = std::fs::read(&small).unwrap();
    bytes[500] ^= 1;
    std::fs::write(&small, &bytes).unwrap();
    let mut rejected = 0;
    let mut built = 0;
    let again = PatternDb::open(
        &goal,
        &PartitionSpec::P663,
        true,
        &cache,
        BuildPolicy::UpTo(10_000),
        &mut |e| match e {
            Event::Rejected { .. } => rejected += 1,
            Event::Built { .. } => built += 1,
            _ => {}
        },
        &|_| {},
    )
    .unwrap();
    assert_eq!((rejected, built), (1, 1));
    let inst = &korf100()[0];
    assert_eq!(
        solve(&inst.board, &inst.goal, &again).0 as u32,
        inst.optimal
    );
    // A missing large table with a policy that forbids building it is an error.
    let other = tempfile::tempdir().unwrap();
    let err = PatternDb::open(
        &goal,
        &PartitionSpec::P663,
        true,
        &Cache::new(other.path()),
        BuildPolicy::UpTo(10_000),
        &mut |_| {},
        &|_| {},
    )
    .unwrap_err();
    assert!(err.to_string().contains("not cached"), "{err}");
}

/// All nine seed15 instances (blank-last goal) exactly with 6-6-3 + reflection.
#[test]
fn seed15_with_663() {
    let goal = Goal::blank_last(Shape::square(4).unwrap());
    let (_dir, pdb) = built(&goal, &PartitionSpec::P663);
    for inst in seed15() {
        assert_eq!(inst.goal, goal);
        let (len, _) = solve(&inst.board, &inst.goal, &pdb);
        assert_eq!(len as u32, inst.optimal, "{}", inst.id);
    }
}

/// All nine seed15 instances exactly with the 4×4 default (7-6-2 + reflection; 61 MB of tables,
/// about half a minute to build on two cores), and the generated-node counts of
/// BENCHMARKS.md's "15-puzzle out of the box" (the 64-move board: 592,692 against 6-6-3's
/// 6,677,904).
#[test]
#[ignore = "heavy: builds the 7-6-2 tables (about 30 s on two cores in release mode)"]
fn seed15_with_the_default_762() {
    let goal = Goal::blank_last(Shape::square(4).unwrap());
    let (_dir, pdb) = built(&goal, &PartitionSpec::Default);
    assert_eq!(pdb.partition(), "9,10,11,12,13,14,15/1,2,3,4,5,6/7,8");
    let mut nodes = Vec::new();
    for inst in seed15() {
        let (len, generated) = solve(&inst.board, &inst.goal, &pdb);
        assert_eq!(len as u32, inst.optimal, "{}", inst.id);
        nodes.push(generated);
    }
    assert_eq!(
        nodes,
        [24, 66, 2979, 10201, 40183, 31188, 12094, 217_420, 592_692]
    );
}

/// All of Korf's 100 with 6-6-3, with and without reflection (release-mode heavy tier).
#[test]
#[ignore = "heavy: all of Korf's 100 twice (about a minute in release mode)"]
fn korf100_all_with_663() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    for reflect in [true, false] {
        let pdb = korf_663(&cache, reflect);
        for inst in korf100() {
            let (len, _) = solve(&inst.board, &inst.goal, &pdb);
            assert_eq!(len as u32, inst.optimal, "instance {}", inst.id);
        }
    }
}

/// 7-8 with reflection on all of Korf's 100 and on the 17 positions 80 moves from the goal
/// (`testdata/antipodes80.txt`, blank-last goal, solved turned by 180 degrees: see
/// [`turned`]): builds 577 MB of tables (1.6 GB peak) in a temporary cache, minutes on two
/// cores.
#[test]
#[ignore = "heavy: builds the 7-8 tables (minutes, 1.6 GB peak memory)"]
fn korf100_all_with_78() {
    let goal = Goal::blank_first(Shape::square(4).unwrap());
    let (_dir, pdb) = built(&goal, &PartitionSpec::P78);
    for inst in korf100() {
        let (len, _) = solve(&inst.board, &inst.goal, &pdb);
        assert_eq!(len as u32, inst.optimal, "instance {}", inst.id);
    }
    let antipodes = antipodes80();
    assert_eq!(antipodes.len(), 17);
    for inst in antipodes {
        assert_eq!(inst.goal, Goal::blank_last(Shape::square(4).unwrap()));
        let board = turned(&inst.board);
        let Outcome::Solved(s) = IdaStar::new()
            .solve(
                &BitBoard::from_layout(&board).unwrap(),
                &goal,
                &pdb,
                &Limits::default(),
            )
            .unwrap()
        else {
            panic!("antipode {} reported unsolvable", inst.id)
        };
        assert_eq!(s.moves.len(), 80, "antipode {}", inst.id);
        assert_eq!(inst.optimal, 80);
        verify(&board, &s.moves, goal.layout()).unwrap();
        // The same moves turned back solve the board as given, for its own goal.
        let back: Vec<Move> = s.moves.iter().map(|m| m.inverse()).collect();
        verify(&inst.board, &back, inst.goal.layout()).unwrap();
    }
}

/// [`turned`] maps the blank-last goal onto the blank-first one and keeps distances: random
/// boards near the goal have optimal solutions of the same length either way, and the reversed
/// moves of the turned board's solution solve the board as given.
#[test]
fn turning_by_180_degrees_maps_the_goals() {
    let shape = Shape::square(4).unwrap();
    let (last, first) = (Goal::blank_last(shape), Goal::blank_first(shape));
    assert_eq!(turned(last.layout()), *first.layout());
    let md = (Manhattan::new(&last), Manhattan::new(&first));
    let mut rng = ChaCha8Rng::seed_from_u64(80);
    for _ in 0..20 {
        let mut b = BitBoard::from_layout(last.layout()).unwrap();
        walk(&mut b, rng.random_range(10..40), &mut rng);
        let board = b.to_layout();
        let (len, _) = solve(&board, &last, &md.0);
        let Outcome::Solved(s) = IdaStar::new()
            .solve(
                &BitBoard::from_layout(&turned(&board)).unwrap(),
                &first,
                &md.1,
                &Limits::default(),
            )
            .unwrap()
        else {
            panic!("solvable")
        };
        assert_eq!(s.moves.len(), len, "{board}");
        let back: Vec<Move> = s.moves.iter().map(|m| m.inverse()).collect();
        verify(&board, &back, last.layout()).unwrap();
    }
}

/// A 15-puzzle board for the blank-last goal turned by 180 degrees and relabelled (tile `t` as
/// `16 - t`, the blank kept): a board for the blank-first goal at the same distance, whose
/// solutions are the original's with every move reversed (a tile sliding up slides down once
/// the board is turned). The turn maps the blank-last goal onto the blank-first one, so the
/// 7-8 tables of one goal serve both.
fn turned(board: &Layout) -> Layout {
    let cells: Vec<usize> = (0..16)
        .map(|c| match board.tile(15 - c) {
            0 => 0,
            t => 16 - t,
        })
        .collect();
    Layout::new(board.shape(), &cells).unwrap()
}
