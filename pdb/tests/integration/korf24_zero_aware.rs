//! Korf's 24-puzzle instances with the zero-aware 6-6-6-6 pattern databases and the reflected
//! lookup on core's `PackedBoard` (heavy tier: release mode, `cargo test --profile heavy --
//! --ignored`).
//!
//! The four zero-aware tables (4 × 172.6 MiB) are built into `$NPUZZLE_PDB_DIR` when it is
//! set (once; loading then takes under a second), else into a temporary directory (about 3
//! minutes of CPU each on this 2-core machine, 180 MiB peak memory per build), and so are
//! their region-coded forms (4 × 243 MiB, derived in about 13 s).

use npuzzle_core::{
    Board, Goal, Heuristic, Limits, Move, Outcome, PackedBoard, Shape, Solver, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_pdb::{BuildPolicy, PartitionSpec, ZeroAwareDb};
use npuzzle_testsuite::korf24;

/// Generated nodes of IDA* (Korf's child order, every child counted) with zero-aware
/// 6-6-6-6 + reflection on #40 and #38, measured with this implementation and pinned as
/// regression values (the plain tables need 65,099,578 and 38,173,507: `korf24.rs`).
const ZERO_AWARE_GENERATED: [(&str, u32, u64); 2] =
    [("40", 82, 44_183_698), ("38", 96, 28_795_650)];

#[test]
#[ignore = "heavy: builds the zero-aware 6-6-6-6 tables (minutes) unless NPUZZLE_PDB_DIR holds them"]
fn korf24_40_and_38_with_zero_aware_6666() {
    let goal = Goal::blank_first(Shape::square(5).unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let cache = crate::env_or_temp_cache(tmp.path());
    let z = ZeroAwareDb::open(
        &goal,
        &PartitionSpec::P6666,
        true,
        &cache,
        BuildPolicy::Always,
        &mut |_| {},
        &|_| {},
    )
    .unwrap();
    assert!(z.reflects());
    assert_eq!(z.table_bytes(), 4 * 181_008_000);
    // Consistent along random walks: |h(parent) - h(child)| <= 1, memo updates exact.
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let mut b = PackedBoard::from_layout(goal.layout()).unwrap();
    let (mut h, mut memo) = z.estimate_memo(&b);
    let mut last: Option<Move> = None;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let legal: Vec<Move> = b.legal().filter(|&m| Some(m.inverse()) != last).collect();
        let m = legal[(x % legal.len() as u64) as usize];
        let (h2, memo2) = z.update_memo(&b, h, &memo, m);
        b.apply(m);
        assert_eq!(h2, z.estimate(&b));
        assert!(h.abs_diff(h2) <= 1, "{h} -> {h2}");
        (h, memo, last) = (h2, memo2, Some(m));
    }
    let instances = korf24();
    // The same counts read through the region-coded tables (the kernel's plain path), loaded
    // from the cache (derived and stored there on the first run).
    let coded = z
        .clone()
        .with_cached_region_codes(&cache, &mut |_| {})
        .unwrap();
    assert!(coded.has_region_codes());
    for (id, optimal, generated) in ZERO_AWARE_GENERATED {
        let inst = instances.iter().find(|i| i.id == id).unwrap();
        assert_eq!(inst.optimal, optimal);
        let board = PackedBoard::from_layout(&inst.board).unwrap();
        for (db, how) in [(&z, "ranked"), (&coded, "coded")] {
            let Outcome::Solved(s) = IdaStar::new()
                .solve(&board, &goal, db, &Limits::default())
                .unwrap()
            else {
                panic!("#{id} is solvable")
            };
            verify(&inst.board, &s.moves, goal.layout()).unwrap();
            assert_eq!(s.moves.len() as u32, optimal, "#{id}");
            println!(
                "#{id} ({how}): {} moves, {} generated, {:.2} s",
                s.moves.len(),
                s.stats.generated,
                s.stats.seconds
            );
            assert_eq!(s.stats.generated, generated, "#{id} {how}");
        }
    }
}
