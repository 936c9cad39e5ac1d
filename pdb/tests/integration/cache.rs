//! The cache through `PatternDb::open`: files of the older format version 1 are used, and
//! rewritten in the current format unless the policy forbids writing.

use std::fs;
use std::path::PathBuf;

use npuzzle_core::{BitBoard, Board, Goal, Heuristic, Shape, parse_board};
use npuzzle_pdb::{BuildPolicy, Cache, Event, FORMAT_VERSION, PartitionSpec, PatternDb};
use xxhash_rust::xxh3::xxh3_64;

const HEADER_LEN: usize = 128;

/// Opens the 3×3 default partition (4-4) for blank-last; returns it with (loaded, upgraded
/// from version, built) event counts.
fn open(cache: &Cache, policy: BuildPolicy) -> (PatternDb, usize, Vec<u32>, usize) {
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let (mut loaded, mut upgraded, mut built) = (0, Vec::new(), 0);
    let mut events = |e: Event<'_>| match e {
        Event::Loaded { .. } => loaded += 1,
        Event::Upgraded {
            from_version,
            store_error,
            ..
        } => {
            assert!(store_error.is_none(), "{store_error:?}");
            upgraded.push(from_version);
        }
        Event::Built { .. } => built += 1,
        Event::Rejected { error } => panic!("rejected: {error}"),
        Event::Building { .. } => {}
        other @ (Event::Waiting { .. } | Event::Cleaned { .. }) => {
            panic!("no other process: {other:?}")
        }
    };
    let pdb = PatternDb::open(
        &goal,
        &PartitionSpec::Default,
        true,
        cache,
        policy,
        &mut events,
        &|_| {},
    )
    .unwrap();
    (pdb, loaded, upgraded, built)
}

fn files(cache: &Cache) -> Vec<PathBuf> {
    cache.list().unwrap().into_iter().map(|e| e.path).collect()
}

fn version(path: &PathBuf) -> u32 {
    u32::from_le_bytes(fs::read(path).unwrap()[8..12].try_into().unwrap())
}

/// Rewrites a current-format file as format version 1 (whole-table XXH3), headers consistent.
fn downgrade(path: &PathBuf) {
    let mut f = fs::read(path).unwrap();
    f[8..12].copy_from_slice(&1u32.to_le_bytes());
    let sum = xxh3_64(&f[HEADER_LEN..]);
    f[32..40].copy_from_slice(&sum.to_le_bytes());
    let sum = xxh3_64(&f[..120]);
    f[120..128].copy_from_slice(&sum.to_le_bytes());
    fs::write(path, f).unwrap();
}

#[test]
fn version_1_files_are_used_and_upgraded() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let (fresh, loaded, upgraded, built) = open(&cache, BuildPolicy::Always);
    assert_eq!((loaded, upgraded.len(), built), (0, 0, 2));
    let paths = files(&cache);
    assert_eq!(paths.len(), 2);
    assert!(paths.iter().all(|p| version(p) == FORMAT_VERSION));
    for p in &paths {
        downgrade(p);
    }
    // Never: used as they are, not rewritten.
    let (_, loaded, upgraded, built) = open(&cache, BuildPolicy::Never);
    assert_eq!((loaded, upgraded.len(), built), (2, 0, 0));
    assert!(paths.iter().all(|p| version(p) == 1));
    // Otherwise: used and rewritten in the current format, with the same entries.
    let (old, loaded, upgraded, built) = open(&cache, BuildPolicy::UpTo(0));
    assert_eq!((loaded, upgraded, built), (2, vec![1, 1], 0));
    assert!(paths.iter().all(|p| version(p) == FORMAT_VERSION));
    let (new, loaded, upgraded, built) = open(&cache, BuildPolicy::Always);
    assert_eq!((loaded, upgraded.len(), built), (2, 0, 0));
    for board in [
        "8 6 7 2 5 4 3 0 1",
        "1 2 3 4 5 6 0 7 8",
        "0 8 7 6 5 4 3 2 1",
    ] {
        let b = BitBoard::from_layout(&parse_board(board, None).unwrap()).unwrap();
        let h = Heuristic::<BitBoard>::estimate(&fresh, &b);
        assert_eq!(Heuristic::<BitBoard>::estimate(&old, &b), h, "{board}");
        assert_eq!(Heuristic::<BitBoard>::estimate(&new, &b), h, "{board}");
    }
}
