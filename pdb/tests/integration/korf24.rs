//! Korf's 24-puzzle instances with the 6-6-6-6 pattern databases and the reflected lookup on
//! core's `PackedBoard` (heavy tier: release mode, `cargo test --profile heavy -- --ignored`).
//!
//! The four tables (4 × 121.6 MiB) are built into `$NPUZZLE_PDB_DIR` when it is set, so that
//! repeated runs load them in a fraction of a second, else into a temporary directory (about
//! 4 minutes on the 2-core CI machine, 1.1 GiB peak memory).

use npuzzle_core::{
    Board, Goal, Heuristic, Limits, LinearConflict, Manhattan, Move, Outcome, PackedBoard, Shape,
    Solver, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_pdb::{BuildPolicy, PartitionSpec, PatternDb};
use npuzzle_testsuite::korf24;

/// Korf & Felner's (2002) published node count for instance #40 with 6-6-6-6 and the
/// reflected lookup.
const KORF40_GENERATED: u64 = 65_099_578;
/// The count for #38 measured with this IDA* (Korf's child order, every child counted as
/// generated), pinned as a regression value.
const KORF38_GENERATED: u64 = 38_173_507;

#[test]
#[ignore = "heavy: builds the 6-6-6-6 tables (minutes, 1.1 GiB peak) unless NPUZZLE_PDB_DIR holds them"]
fn korf24_40_and_38_with_6666() {
    let goal = Goal::blank_first(Shape::square(5).unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let cache = crate::env_or_temp_cache(tmp.path());
    let pdb = PatternDb::open(
        &goal,
        &PartitionSpec::P6666,
        true,
        &cache,
        BuildPolicy::Always,
        &mut |_| {},
        &|_| {},
    )
    .unwrap();
    assert!(pdb.reflects());
    assert_eq!(pdb.table_bytes(), 4 * 127_512_000);
    // Admissible and exact-length on boards 20-50 random moves from the goal: h never exceeds
    // the optimal length that IDA* + linear conflict proves, and IDA* + 6-6-6-6 finds it too.
    let (lc, md) = (LinearConflict::new(&goal), Manhattan::new(&goal));
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    for k in [20, 30, 40, 50, 50] {
        let mut b = PackedBoard::from_layout(goal.layout()).unwrap();
        let mut last = None;
        for _ in 0..k {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let legal: Vec<Move> = b.legal().filter(|&m| Some(m.inverse()) != last).collect();
            let m = legal[(x % legal.len() as u64) as usize];
            b.apply(m);
            last = Some(m);
        }
        let solve = |h: &dyn Fn(&PackedBoard) -> Outcome| match h(&b) {
            Outcome::Solved(s) => {
                verify(&b.to_layout(), &s.moves, goal.layout()).unwrap();
                s.moves.len() as u32
            }
            Outcome::Unsolvable(_) => panic!("a walk from the goal is solvable"),
        };
        let by_lc = solve(&|b| {
            IdaStar::new()
                .solve(b, &goal, &lc, &Limits::default())
                .unwrap()
        });
        let by_pdb = solve(&|b| {
            IdaStar::new()
                .solve(b, &goal, &pdb, &Limits::default())
                .unwrap()
        });
        assert_eq!(by_lc, by_pdb, "{:?}", b.to_layout());
        assert!(pdb.estimate(&b) <= by_lc);
        // Each group's value is at least its tiles' Manhattan distance.
        assert!(pdb.estimate(&b) >= Heuristic::<PackedBoard>::estimate(&md, &b));
    }
    let instances = korf24();
    for (id, optimal, generated) in [("40", 82, KORF40_GENERATED), ("38", 96, KORF38_GENERATED)] {
        let inst = instances.iter().find(|i| i.id == id).unwrap();
        assert_eq!(inst.optimal, optimal);
        let board = PackedBoard::from_layout(&inst.board).unwrap();
        let Outcome::Solved(s) = IdaStar::new()
            .solve(&board, &goal, &pdb, &Limits::default())
            .unwrap()
        else {
            panic!("#{id} is solvable")
        };
        verify(&inst.board, &s.moves, goal.layout()).unwrap();
        assert_eq!(s.moves.len() as u32, optimal, "#{id}");
        assert_eq!(s.stats.generated, generated, "#{id}");
        println!(
            "#{id}: {} moves, {} generated, {:.2} s",
            s.moves.len(),
            s.stats.generated,
            s.stats.seconds
        );
    }
}
