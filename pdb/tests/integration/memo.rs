//! The memo form of the pattern-database heuristic (`estimate_memo` / `update_memo`, used by
//! IDA*) against evaluation from scratch, along random walks: with and without reflection, on
//! square and non-square boards, custom goals, and a partition with more groups than the memo
//! holds; the bounded form (`update_memo_bounded`) against the memo form; 5×5 boards on core's
//! `PackedBoard` against the Vec board.

use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Layout, Move, PackedBoard, Shape};
use npuzzle_nxn::VecBoard;
use npuzzle_pdb::{MEMO_GROUPS, MEMO_RANK_GROUPS, PartitionSpec, PatternDb, PdbMemo};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Walks `steps` random moves from the goal, checking at every step that the memo's `h`
/// equals `estimate` of the new board and of a fresh `estimate_memo`, and that the bounded
/// form returns the same value when it is within the bound, else a value above the bound and
/// at most the true one.
fn check_walks<B: Board>(pdb: &PatternDb, goal: &Goal, walks: usize, steps: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..walks {
        let mut b = B::from_layout(goal.layout()).unwrap();
        let (mut h, mut memo) = pdb.estimate_memo(&b);
        assert_eq!(h, 0);
        for step in 0..steps {
            let moves: Vec<Move> = b.legal().into_iter().collect();
            let m = moves[rng.random_range(0..moves.len())];
            let (h2, memo2) = pdb.update_memo(&b, h, &memo, m);
            assert_eq!(h2, pdb.update(&b, h, m), "step {step}");
            for bound in [
                0,
                h2.saturating_sub(2),
                h2.saturating_sub(1),
                h2,
                h2 + 1,
                u32::MAX,
            ] {
                let (hb, _) = pdb.update_memo_bounded(&b, h, &memo, m, bound);
                if h2 <= bound {
                    assert_eq!(hb, h2, "step {step}, bound {bound}");
                } else {
                    assert!(
                        hb > bound && hb <= h2,
                        "step {step}: {hb} for bound {bound}, h {h2}"
                    );
                }
            }
            b.apply(m);
            assert_eq!(h2, pdb.estimate(&b), "step {step}: {:?}", b.to_layout());
            assert_eq!(pdb.estimate_memo(&b).0, h2);
            (h, memo) = (h2, memo2);
        }
    }
}

fn build(goal: &Goal, spec: &PartitionSpec, reflect: bool) -> PatternDb {
    PatternDb::build(goal, spec, reflect, &|_| {}).unwrap()
}

#[test]
fn memo_equals_scratch_on_small_boards() {
    let s3 = Shape::square(3).unwrap();
    for goal in [
        Goal::blank_last(s3),
        Goal::blank_first(s3),
        // Blank in the centre, on the diagonal: reflection is valid.
        Goal::custom(Layout::new(s3, &[1, 2, 3, 4, 0, 5, 6, 7, 8]).unwrap()),
        // Blank off the diagonal: no reflection.
        Goal::custom(Layout::new(s3, &[1, 0, 2, 3, 4, 5, 6, 7, 8]).unwrap()),
    ] {
        for reflect in [true, false] {
            for spec in [
                PartitionSpec::Default,
                PartitionSpec::Custom(vec![vec![1, 5, 8], vec![2, 3], vec![4, 6, 7]]),
                // Tile 8 in no group.
                PartitionSpec::Custom(vec![vec![1, 2, 3, 4], vec![5, 6, 7]]),
            ] {
                let pdb = build(&goal, &spec, reflect);
                check_walks::<BitBoard>(&pdb, &goal, 20, 60, 1);
                check_walks::<VecBoard>(&pdb, &goal, 5, 60, 2);
            }
        }
    }
    for (w, h) in [(2, 4), (4, 2), (2, 3)] {
        let goal = Goal::blank_last(Shape::new(w, h).unwrap());
        let pdb = build(&goal, &PartitionSpec::Default, true);
        assert!(!pdb.reflects());
        check_walks::<BitBoard>(&pdb, &goal, 20, 60, 3);
    }
}

#[test]
fn memo_equals_scratch_on_the_15_puzzle_555() {
    let goal = Goal::blank_first(Shape::square(4).unwrap());
    for reflect in [true, false] {
        let pdb = build(&goal, &PartitionSpec::P555, reflect);
        assert_eq!(pdb.reflects(), reflect);
        check_walks::<BitBoard>(&pdb, &goal, 30, 200, 4);
    }
}

/// More groups than the memo holds: the memo is unused and updates evaluate from scratch.
#[test]
fn more_groups_than_the_memo_holds() {
    let goal = Goal::blank_last(Shape::square(5).unwrap());
    let groups: Vec<Vec<u8>> = (1..=24).map(|t| vec![t]).collect();
    assert!(groups.len() > MEMO_GROUPS);
    let pdb = build(&goal, &PartitionSpec::Custom(groups), true);
    check_walks::<VecBoard>(&pdb, &goal, 5, 100, 5);
    assert_eq!(std::mem::size_of::<PdbMemo>(), 104);
}

/// 5×5 with reflection and six 4-tile groups: the first [`MEMO_RANK_GROUPS`] keep their table
/// indices in the memo and are updated incrementally (`Indexer::rerank_array`), the others are
/// re-ranked from scratch; both against evaluation from scratch.
#[test]
fn incremental_ranks_on_5x5_packed_board() {
    let s5 = Shape::square(5).unwrap();
    let groups: Vec<Vec<u8>> = (0..6).map(|g| (4 * g + 1..=4 * g + 4).collect()).collect();
    assert!(groups.len() > MEMO_RANK_GROUPS);
    for goal in [Goal::blank_first(s5), Goal::blank_last(s5)] {
        let pdb = build(&goal, &PartitionSpec::Custom(groups.clone()), true);
        assert!(pdb.reflects());
        check_walks::<PackedBoard>(&pdb, &goal, 4, 400, 8);
        check_walks::<VecBoard>(&pdb, &goal, 2, 200, 9);
    }
}

/// 5×5 with reflection, blank-first and blank-last, on the packed board and the Vec board:
/// small groups (3 tiles, 13,800 entries a table) so that the tables build in milliseconds.
#[test]
fn memo_equals_scratch_on_5x5_packed_board() {
    let s5 = Shape::square(5).unwrap();
    let groups: Vec<Vec<u8>> = (0..8).map(|g| (3 * g + 1..=3 * g + 3).collect()).collect();
    for goal in [Goal::blank_first(s5), Goal::blank_last(s5)] {
        let pdb = build(&goal, &PartitionSpec::Custom(groups.clone()), true);
        assert!(pdb.reflects());
        // The copy in (transparent) huge pages holds the same entries.
        let huge = pdb.clone().with_huge_pages().unwrap();
        assert_eq!(huge.table_bytes(), pdb.table_bytes());
        check_walks::<PackedBoard>(&huge, &goal, 3, 300, 6);
        check_walks::<PackedBoard>(&pdb, &goal, 10, 300, 6);
        check_walks::<VecBoard>(&pdb, &goal, 3, 300, 6);
        // The same values on both boards along one walk.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut p = PackedBoard::from_layout(goal.layout()).unwrap();
        let mut v = VecBoard::from_layout(goal.layout()).unwrap();
        for _ in 0..300 {
            let moves: Vec<Move> = p.legal().into_iter().collect();
            let m = moves[rng.random_range(0..moves.len())];
            p.apply(m);
            v.apply(m);
            assert_eq!(pdb.estimate(&p), pdb.estimate(&v));
            assert_eq!(pdb.estimate(&p), huge.estimate(&p));
        }
    }
}
