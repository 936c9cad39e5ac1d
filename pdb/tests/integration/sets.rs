//! Every index kind through the one table set (`TableSet`) on the 8-puzzle.

use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Shape, parse_board};
use npuzzle_pdb::{
    BuildPolicy, Cache, IndexKind, PartitionSpec, PatternDb, Table, TableSet, TileOnlyDb,
    ZeroAwareDb,
};

/// `set` stored in and opened from a cache, and copied into huge pages: the same partition,
/// bytes, reflection and estimates on `boards`.
fn same_when_opened_and_copied<K: IndexKind>(set: &TableSet<K>, goal: &Goal, boards: &[BitBoard])
where
    TableSet<K>: Heuristic<BitBoard>,
{
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let spec = PartitionSpec::Default;
    let open = |policy| {
        let reflect = set.reflects();
        TableSet::<K>::open(goal, &spec, reflect, &cache, policy, &mut |_| {}, &|_| {}).unwrap()
    };
    let stored = open(BuildPolicy::Always);
    let loaded = open(BuildPolicy::Never);
    let huge = set.clone().with_huge_pages().unwrap();
    for other in [&stored, &loaded, &huge] {
        assert_eq!(other.partition(), set.partition());
        assert_eq!(other.table_bytes(), set.table_bytes());
        assert_eq!(other.reflects(), set.reflects());
        for b in boards {
            assert_eq!(other.estimate(b), set.estimate(b), "{}", K::ADJECTIVE);
        }
    }
}

/// Built, stored, opened and copied into huge pages alike whatever the kind; plain and
/// zero-aware sets reflect where asked, tile-only ones never (opened only above 32 cells);
/// a table of the wrong length and a tile in two groups are refused whatever the kind.
#[test]
fn every_kind_builds_opens_and_copies_alike() {
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let boards: Vec<BitBoard> = [
        "8 6 7 2 5 4 3 0 1",
        "1 2 3 4 5 6 7 0 8",
        "0 1 2 3 4 5 6 7 8",
    ]
    .iter()
    .map(|s| BitBoard::from_layout(&parse_board(s, None).unwrap()).unwrap())
    .collect();
    let spec = PartitionSpec::Default;
    let plain = PatternDb::build(&goal, &spec, true, &|_| {}).unwrap();
    let zero_aware = ZeroAwareDb::build(&goal, &spec, true, &|_| {}).unwrap();
    let tile_only = TileOnlyDb::build(&goal, &spec, true, &|_| {}).unwrap();
    assert!(plain.reflects() && zero_aware.reflects() && !tile_only.reflects());
    assert_eq!(plain.partition(), tile_only.partition());
    assert_eq!(plain.table_bytes(), tile_only.table_bytes());
    assert!(zero_aware.table_bytes() > plain.table_bytes());
    same_when_opened_and_copied(&plain, &goal, &boards);
    same_when_opened_and_copied(&zero_aware, &goal, &boards);
    let huge = tile_only.clone().with_huge_pages().unwrap();
    assert!(
        boards
            .iter()
            .all(|b| huge.estimate(b) == tile_only.estimate(b))
    );
    let short = || vec![(vec![1u8, 2], Table::from(vec![0u8; 3]))];
    assert!(PatternDb::from_tables(&goal, short(), false).is_err());
    assert!(ZeroAwareDb::from_tables(&goal, short(), false).is_err());
    assert!(TileOnlyDb::from_tables(&goal, short(), false).is_err());
    let one = || (vec![1u8], Table::from(vec![0u8; 9]));
    assert!(TileOnlyDb::from_tables(&goal, vec![one(), one()], false).is_err());
}
