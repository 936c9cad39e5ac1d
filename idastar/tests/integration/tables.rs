//! The loop specialised for additive pattern databases (`tables.rs`, found through
//! `Heuristic::as_additive_tables`) against the generic loop with the database's memo: the same
//! moves and the same per-iteration counts, with and without reflection and the
//! duplicate-pruning automaton, on square and non-square boards (widths 3, 4 and 5, so both the
//! compile-time and the run-time width), both goals, the bitboard and the packed board; the
//! same node limit reached at the same count; lengths against BFS distances on the 8-puzzle;
//! A\*+IDA\*, whose IDA\* phase runs the kernel too, against the generic loop.

use npuzzle_core::{
    AdditiveTables, BitBoard, Board, Goal, Heuristic, HeuristicProperties, Layout, Limit, Limits,
    Move, Outcome, PackedBoard, SearchError, Shape, Solver, verify,
};
use npuzzle_idastar::{AStarIdaStar, CycleCheck, IdaStar};
use npuzzle_nxn::VecBoard;
use npuzzle_pdb::{PartitionSpec, PatternDb, ZeroAwareDb};
use npuzzle_testsuite::{BfsOracle, seed15};

/// A pattern database that does not show its tables (`as_additive_tables` is `None`), so IDA*
/// runs its generic loop with the database's memo.
struct Hidden<'a, H>(&'a H);

impl<B: Board, H: Heuristic<B>> Heuristic<B> for Hidden<'_, H> {
    type Memo = H::Memo;

    fn name(&self) -> &'static str {
        "pdb-generic"
    }

    fn properties(&self) -> HeuristicProperties {
        self.0.properties()
    }

    fn estimate(&self, board: &B) -> u32 {
        self.0.estimate(board)
    }

    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        self.0.update(board, h, m)
    }

    fn estimate_memo(&self, board: &B) -> (u32, H::Memo) {
        self.0.estimate_memo(board)
    }

    fn update_memo(&self, board: &B, h: u32, memo: &H::Memo, m: Move) -> (u32, H::Memo) {
        self.0.update_memo(board, h, memo, m)
    }

    fn update_memo_bounded(
        &self,
        board: &B,
        h: u32,
        memo: &H::Memo,
        m: Move,
        bound: u32,
    ) -> (u32, H::Memo) {
        self.0.update_memo_bounded(board, h, memo, m, bound)
    }
}

/// The 15-puzzle's rows as groups of 4, 4, 4 and 3 tiles.
const ROWS_4443: [&[u8]; 4] = [
    &[1, 2, 3, 4],
    &[5, 6, 7, 8],
    &[9, 10, 11, 12],
    &[13, 14, 15],
];

/// A 5-5-5 partition of the 15-puzzle (rows and a half, by tile number).
const GROUPS_555: [&[u8]; 3] = [&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10], &[11, 12, 13, 14, 15]];

fn build(goal: &Goal, groups: &[&[u8]], reflect: bool) -> PatternDb {
    let spec = PartitionSpec::Custom(groups.iter().map(|g| g.to_vec()).collect());
    PatternDb::build(goal, &spec, reflect, &|_| {}).unwrap()
}

/// The zero-aware tables of `groups` (Clausecker & Reinefeld's blank-region index).
fn build_za(goal: &Goal, groups: &[&[u8]], reflect: bool) -> ZeroAwareDb {
    let spec = PartitionSpec::Custom(groups.iter().map(|g| g.to_vec()).collect());
    ZeroAwareDb::build(goal, &spec, reflect, &|_| {}).unwrap()
}

/// [`build_za`] with the region-coded tables derived (`ZeroAwareDb::with_region_codes`): the
/// kernel then reads the plain-indexed coded tables and decodes them.
fn build_za_coded(goal: &Goal, groups: &[&[u8]], reflect: bool) -> ZeroAwareDb {
    let za = build_za(goal, groups, reflect).with_region_codes().unwrap();
    assert!(za.has_region_codes());
    za
}

use crate::solve;

/// The kernel and the generic loop on `start`, sequentially with parent pruning and with the
/// automaton, and on two threads: same moves and counts (the parallel engine: same length).
/// Returns the length.
fn same<B: Board, H: Heuristic<B>>(start: &Layout, goal: &Goal, pdb: &H) -> usize {
    assert!(pdb.as_additive_tables().is_some());
    let mut length = None;
    for cycle in [CycleCheck::Parent, CycleCheck::Fsm] {
        let engine = || IdaStar::new().cycle_check(cycle);
        let kernel = solve::<B, _, _>(&mut engine(), start, goal, pdb);
        let generic = solve::<B, _, _>(&mut engine(), start, goal, &Hidden(pdb));
        assert_eq!(kernel.moves, generic.moves, "{start} {cycle:?}");
        assert_eq!(kernel.stats.iterations, generic.stats.iterations, "{start}");
        assert_eq!(kernel.stats.generated, generic.stats.generated, "{start}");
        let parallel = solve::<B, _, _>(
            &mut engine().threads(2).parallel_cutoff(0),
            start,
            goal,
            pdb,
        );
        assert_eq!(parallel.moves.len(), kernel.moves.len(), "{start}");
        assert_eq!(
            *length.get_or_insert(kernel.moves.len()),
            kernel.moves.len()
        );
    }
    length.unwrap()
}

/// A board `steps` pseudo-random moves from the goal (a fixed linear congruential sequence,
/// parent moves skipped), walked on a `B`.
fn walk<B: Board>(goal: &Goal, steps: usize, seed: u64) -> Layout {
    let mut b = B::from_layout(goal.layout()).unwrap();
    let mut x = seed;
    let mut last: Option<Move> = None;
    for _ in 0..steps {
        let moves: Vec<Move> = b
            .legal()
            .into_iter()
            .filter(|&m| Some(m.inverse()) != last)
            .collect();
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let m = moves[(x >> 33) as usize % moves.len()];
        b.apply(m);
        last = Some(m);
    }
    b.to_layout()
}

/// The kernel against the generic loop on 1,500 sampled 8-puzzle boards per goal, with and
/// without reflection, the tables of groups 1-4 and 5-8 made by `make`: same moves and counts,
/// lengths equal to the BFS distances.
fn eight_puzzle_against_bfs<H: Heuristic<BitBoard>>(make: fn(&Goal, &[&[u8]], bool) -> H) {
    let s3 = Shape::square(3).unwrap();
    for goal in [Goal::blank_last(s3), Goal::blank_first(s3)] {
        let oracle = BfsOracle::new(&goal);
        for reflect in [false, true] {
            let tables = make(&goal, &[&[1, 2, 3, 4], &[5, 6, 7, 8]], reflect);
            for (layout, distance) in oracle.sample(1_500) {
                let length = same::<BitBoard, _>(&layout, &goal, &tables);
                assert_eq!(length as u32, distance, "{layout}");
            }
        }
    }
}

#[test]
fn eight_puzzle_lengths_equal_bfs_distances() {
    eight_puzzle_against_bfs(build);
}

#[test]
fn fifteen_puzzle_with_and_without_reflection() {
    for inst in seed15().iter().filter(|i| i.optimal <= 40) {
        for reflect in [false, true] {
            let pdb = build(&inst.goal, &ROWS_4443, reflect);
            let length = same::<BitBoard, _>(&inst.board, &inst.goal, &pdb);
            assert_eq!(length as u32, inst.optimal, "seed15 {}", inst.id);
            // The packed board runs the same kernel.
            assert_eq!(
                same::<PackedBoard, _>(&inst.board, &inst.goal, &pdb),
                length
            );
        }
    }
}

#[test]
fn non_square_boards_and_partial_partitions() {
    // Width 3 (the run-time width) and 4, 6 and 5 wide on the packed board; a partition that
    // leaves tiles out (they weigh nothing).
    let cases: [(usize, usize, &[&[u8]]); 4] = [
        (3, 4, &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]]),
        (4, 3, &[&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11]]),
        (6, 3, &[&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12]]),
        (
            5,
            4,
            &[
                &[1, 2, 3, 4],
                &[5, 6, 7, 8],
                &[9, 10, 11, 12],
                &[13, 14, 15, 16],
            ],
        ),
    ];
    for (w, h, groups) in cases {
        let shape = Shape::new(w, h).unwrap();
        for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
            let pdb = build(&goal, groups, false);
            for seed in 0..4 {
                let start = walk::<PackedBoard>(&goal, 36, seed);
                same::<PackedBoard, _>(&start, &goal, &pdb);
            }
        }
    }
}

/// Boards past the packed board's 25 cells run on the Vec board; the kernel serves any board of
/// at most 32 cells (here 6×5, the run-time width, a partial partition), and the Vec board on
/// the 15-puzzle too.
#[test]
fn vec_boards() {
    let shape = Shape::new(6, 5).unwrap();
    let goal = Goal::blank_last(shape);
    let pdb = build(
        &goal,
        &[&[1, 2, 3, 4], &[5, 6, 7, 8], &[9, 10, 11, 12]],
        false,
    );
    for seed in 0..3 {
        same::<VecBoard, _>(&walk::<VecBoard>(&goal, 24, seed), &goal, &pdb);
    }
    let inst = seed15()
        .into_iter()
        .find(|i| i.optimal <= 40)
        .expect("seed15 has easy boards");
    let pdb = build(&inst.goal, &ROWS_4443, true);
    assert_eq!(
        same::<VecBoard, _>(&inst.board, &inst.goal, &pdb) as u32,
        inst.optimal
    );
}

#[test]
fn twenty_four_puzzle_with_reflection() {
    let s5 = Shape::square(5).unwrap();
    let goal = Goal::blank_first(s5);
    let groups: [&[u8]; 6] = [
        &[1, 2, 5, 6],
        &[3, 4, 8, 9],
        &[7, 10, 11, 12],
        &[13, 14, 18, 19],
        &[15, 16, 20, 21],
        &[17, 22, 23, 24],
    ];
    let pdb = build(&goal, &groups, true);
    for seed in 0..3 {
        let start = walk::<PackedBoard>(&goal, 40, seed);
        same::<PackedBoard, _>(&start, &goal, &pdb);
    }
}

/// A node limit stops the kernel where it stops the generic loop, and says so.
#[test]
fn node_limit_reached_at_the_same_count() {
    let inst = seed15()
        .into_iter()
        .max_by_key(|i| i.optimal)
        .expect("seed15 is not empty");
    let pdb = build(&inst.goal, &GROUPS_555, true);
    let b = BitBoard::from_layout(&inst.board).unwrap();
    let limits = Limits {
        max_nodes: Some(200_000),
        ..Limits::default()
    };
    let stop = |h: &dyn Fn() -> Result<Outcome, SearchError>| match h() {
        Err(SearchError::LimitReached {
            limit: Limit::Nodes(200_000),
            progress,
        }) => (progress.generated, progress.expanded, progress.bound),
        other => panic!("expected the node limit, got {other:?}"),
    };
    let kernel = stop(&|| IdaStar::new().solve(&b, &inst.goal, &pdb, &limits));
    let generic = stop(&|| IdaStar::new().solve(&b, &inst.goal, &Hidden(&pdb), &limits));
    assert_eq!(kernel, generic);
    assert!(kernel.0 >= 200_000 && kernel.0 <= 200_004, "{kernel:?}");
}

/// The view describes the database exactly: its sum (and reflected sum) recomputed from the
/// view's tables and ranking equals the database's estimate.
#[test]
fn the_view_evaluates_to_the_estimate() {
    let s4 = Shape::square(4).unwrap();
    let goal = Goal::blank_first(s4);
    let pdb = build(&goal, &GROUPS_555, true);
    let view: AdditiveTables<'_> = Heuristic::<BitBoard>::as_additive_tables(&pdb).unwrap();
    let n = view.cells;
    let rank = |pos: &[u8]| -> u32 {
        view.groups
            .iter()
            .map(|g| {
                let k = g.tiles.len();
                let mut r = 0u64;
                for (i, &t) in g.tiles.iter().enumerate() {
                    let p = pos[usize::from(t)];
                    let below = g.tiles[..i]
                        .iter()
                        .filter(|&&u| pos[usize::from(u)] < p)
                        .count() as u64;
                    let mult: u64 = (n - k + 1..n - i).map(|x| x as u64).product();
                    r += (u64::from(p) - below) * mult;
                }
                u32::from(g.entries[r as usize])
            })
            .sum()
    };
    let reflection = view.reflection.expect("blank-first 4×4 reflects");
    for seed in 0..20 {
        let layout = walk::<PackedBoard>(&goal, 60, seed);
        let mut pos = vec![0u8; n];
        let mut mpos = vec![0u8; n];
        for c in 0..n {
            let t = layout.tile(c);
            pos[t] = c as u8;
            mpos[usize::from(reflection.tile[t])] = reflection.cell[c];
        }
        let b = BitBoard::from_layout(&layout).unwrap();
        assert_eq!(rank(&pos).max(rank(&mpos)), pdb.estimate(&b), "{layout}");
    }
}

/// A\*+IDA\* runs its IDA\* phase on the parallel engine's workers, so on the kernel too: the
/// same lengths as with the generic loop, equal to the known optimum, from a budget where the
/// IDA\* phase does nearly everything to one where A\* does much of it, with and without the
/// automaton, on one and two threads.
#[test]
fn astar_idastar_with_the_kernel() {
    for inst in seed15().iter().filter(|i| i.optimal <= 40).take(6) {
        let pdb = build(&inst.goal, &GROUPS_555, true);
        let b = BitBoard::from_layout(&inst.board).unwrap();
        for (budget, threads, fsm) in [(2_000, 1, false), (200_000, 2, true), (2_000, 2, true)] {
            let engine = || {
                AStarIdaStar::new()
                    .memory(budget)
                    .threads(threads)
                    .duplicate_pruning(fsm)
            };
            let run = |h: &dyn Fn(&mut AStarIdaStar) -> Outcome| match h(&mut engine()) {
                Outcome::Solved(s) => {
                    verify(&inst.board, &s.moves, inst.goal.layout()).unwrap();
                    s.moves.len() as u32
                }
                Outcome::Unsolvable(_) => panic!("seed15 {} is solvable", inst.id),
            };
            let limits = Limits::default();
            let kernel = run(&|e| e.solve(&b, &inst.goal, &pdb, &limits).unwrap());
            let generic = run(&|e| e.solve(&b, &inst.goal, &Hidden(&pdb), &limits).unwrap());
            assert_eq!(
                (kernel, generic),
                (inst.optimal, inst.optimal),
                "seed15 {}",
                inst.id
            );
        }
    }
}

/// Zero-aware tables (their index holds the blank's region, so the kernel updates a moved
/// group's cell-set and permutation ranks and reads the blank's region): the kernel against
/// the generic loop with the zero-aware memo, same moves and counts, lengths against BFS on
/// the 8-puzzle (both goals, with and without reflection).
#[test]
fn zero_aware_eight_puzzle_lengths_equal_bfs_distances() {
    eight_puzzle_against_bfs(build_za);
}

/// Zero-aware tables read through their region codes: the kernel (plain indices, each entry
/// decoded, code 3 read from the zero-aware table) against the generic loop with the
/// zero-aware memo: same moves and counts, lengths against BFS on the 8-puzzle.
#[test]
fn region_coded_eight_puzzle_lengths_equal_bfs_distances() {
    eight_puzzle_against_bfs(build_za_coded);
}

/// Zero-aware 5-5-5 with and without reflection on the 15-puzzle (bitboard and packed board),
/// a non-square board (the run-time width), and the 24-puzzle with reflection.
#[test]
fn zero_aware_tables_on_15_24_and_non_square_boards() {
    zero_aware_15_24_and_non_square(build_za);
}

/// [`zero_aware_tables_on_15_24_and_non_square_boards`] through the region codes.
#[test]
fn region_coded_tables_on_15_24_and_non_square_boards() {
    zero_aware_15_24_and_non_square(build_za_coded);
}

fn zero_aware_15_24_and_non_square(make: fn(&Goal, &[&[u8]], bool) -> ZeroAwareDb) {
    for inst in seed15().iter().filter(|i| i.optimal <= 40) {
        for reflect in [false, true] {
            let za = make(&inst.goal, &GROUPS_555, reflect);
            let length = same::<BitBoard, _>(&inst.board, &inst.goal, &za);
            assert_eq!(length as u32, inst.optimal, "seed15 {}", inst.id);
            assert_eq!(same::<PackedBoard, _>(&inst.board, &inst.goal, &za), length);
        }
    }
    let shape = Shape::new(3, 4).unwrap();
    for goal in [Goal::blank_last(shape), Goal::blank_first(shape)] {
        let za = make(&goal, &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10, 11]], false);
        for seed in 0..4 {
            same::<PackedBoard, _>(&walk::<PackedBoard>(&goal, 36, seed), &goal, &za);
        }
    }
    let goal = Goal::blank_first(Shape::square(5).unwrap());
    let groups: [&[u8]; 6] = [
        &[1, 2, 5, 6],
        &[3, 4, 8, 9],
        &[7, 10, 11, 12],
        &[13, 14, 18, 19],
        &[15, 16, 20, 21],
        &[17, 22, 23, 24],
    ];
    let za = make(&goal, &groups, true);
    for seed in 0..3 {
        same::<PackedBoard, _>(&walk::<PackedBoard>(&goal, 40, seed), &goal, &za);
    }
}

/// A zero-aware partition that leaves tiles out is not the kernel's (it needs every tile's
/// group to find the blank's region), so the generic loop runs it: still optimal.
#[test]
fn zero_aware_partial_partition_runs_the_generic_loop() {
    let inst = seed15()
        .into_iter()
        .find(|i| i.optimal <= 40)
        .expect("seed15 has easy boards");
    let za = build_za(&inst.goal, &[&[1, 2, 3, 4, 5], &[6, 7, 8, 9, 10]], true);
    let s = solve::<BitBoard, _, _>(&mut IdaStar::new(), &inst.board, &inst.goal, &za);
    let generic =
        solve::<BitBoard, _, _>(&mut IdaStar::new(), &inst.board, &inst.goal, &Hidden(&za));
    assert_eq!(s.moves.len() as u32, inst.optimal);
    assert_eq!(s.stats.generated, generic.stats.generated);
}
