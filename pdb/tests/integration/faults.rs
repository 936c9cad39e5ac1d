//! The cache under faults and concurrency, at the library level: tables mapped by a database
//! that are deleted or replaced meanwhile, builders racing for the same tables (one build per
//! table, the others wait and load), leftovers of killed builds removed, and a cache directory
//! that cannot hold files (tables built in memory). The same faults across processes are in
//! the CLI's `tests/faults.rs`.

use std::fs;
use std::path::Path;
use std::sync::Barrier;

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Layout, Limits, Outcome, Shape, Solver, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_pdb::{BuildPolicy, Cache, Event, PartitionSpec, PatternDb, TableKey};
use npuzzle_testsuite::BfsOracle;

/// What one [`PatternDb::open`] reported.
#[derive(Debug, Default)]
struct Report {
    loaded: usize,
    built: usize,
    waited: usize,
    cleaned: usize,
    store_errors: Vec<String>,
}

fn goal3() -> Goal {
    Goal::blank_last(Shape::square(3).unwrap())
}

fn open(cache: &Cache, spec: &str) -> (PatternDb, Report) {
    let mut r = Report::default();
    let mut events = |e: Event<'_>| match e {
        Event::Loaded { .. } => r.loaded += 1,
        Event::Built { store_error, .. } => {
            r.built += 1;
            if let Some(e) = store_error {
                r.store_errors.push(e.to_string());
            }
        }
        Event::Waiting { .. } => r.waited += 1,
        Event::Cleaned { files, .. } => r.cleaned += files,
        Event::Rejected { error } => panic!("rejected: {error}"),
        Event::Building { .. } | Event::Upgraded { .. } => {}
    };
    let db = PatternDb::open(
        &goal3(),
        &spec.parse::<PartitionSpec>().unwrap(),
        false,
        cache,
        BuildPolicy::Always,
        &mut events,
        &|_| {},
    )
    .unwrap();
    (db, r)
}

/// The database's estimate of every 8-puzzle state equals that of the same partition built
/// in memory, and IDA* with it solves the hardest state in 31 moves (replayed).
fn assert_exact(db: &PatternDb, spec: &str) {
    let goal = goal3();
    let fresh = PatternDb::build(&goal, &spec.parse().unwrap(), false, &|_| {}).unwrap();
    for (layout, _) in BfsOracle::new(&goal).sample(97) {
        let b = BitBoard::from_layout(&layout).unwrap();
        assert_eq!(db.estimate(&b), fresh.estimate(&b), "{layout}");
    }
    let start = Layout::new(Shape::square(3).unwrap(), &[8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    let b = BitBoard::from_layout(&start).unwrap();
    let Outcome::Solved(s) = IdaStar::new()
        .solve(&b, &goal, db, &Limits::default())
        .unwrap()
    else {
        panic!("solvable")
    };
    assert_eq!(s.moves.len(), 31);
    verify(&start, &s.moves, goal.layout()).unwrap();
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const SPEC: &str = "1,2,3,4/5,6,7,8";

/// A database mapping its tables keeps answering exactly after its files are deleted, and
/// after other files are renamed over their names (what a rebuild by another process does).
#[test]
fn mapped_tables_survive_deletion_and_replacement() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let (built, r) = open(&cache, SPEC);
    assert_eq!((r.built, r.loaded), (2, 0));
    drop(built);
    let (db, r) = open(&cache, SPEC);
    assert_eq!((r.built, r.loaded), (0, 2));
    assert_exact(&db, SPEC);
    // Deleted: the mapping keeps the old file's pages.
    assert_eq!(cache.clear().unwrap().0, 2);
    assert!(names(dir.path()).is_empty(), "the lock files go too");
    assert_exact(&db, SPEC);
    // Replaced by valid tables of other contents (all zero) under the same names, renamed over
    // them as `Cache::store` does.
    let goal = goal3();
    for tiles in [[1u8, 2, 3, 4], [5, 6, 7, 8]] {
        let key = TableKey::new(&goal, &tiles);
        let zeros = vec![0u8; key.entries().unwrap() as usize];
        cache.store(&key, &zeros).unwrap();
        assert!(cache.load(&key).unwrap().unwrap().iter().all(|&v| v == 0));
    }
    assert_exact(&db, SPEC);
}

/// Threads opening the same missing tables at once (each lock is its own open file, so they
/// exclude each other as processes do): every table is built exactly once, the others wait
/// and load it, every database is exact, and no temporary file is left.
#[test]
fn racing_builders_build_each_table_once() {
    const N: usize = 4;
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let spec = "1,2,3,4,5/6,7,8";
    let barrier = Barrier::new(N);
    let reports: Vec<Report> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..N)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    let (db, r) = open(&cache, spec);
                    assert_exact(&db, spec);
                    r
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let built: usize = reports.iter().map(|r| r.built).sum();
    let loaded: usize = reports.iter().map(|r| r.loaded).sum();
    assert_eq!(built, 2, "{reports:?}");
    assert_eq!(loaded, 2 * N - 2, "{reports:?}");
    assert!(reports.iter().all(|r| r.store_errors.is_empty()));
    assert_eq!(
        names(dir.path()),
        [
            ".npuzzle-pdb-3x3-123456780-1.2.3.4.5.pdb.lock",
            ".npuzzle-pdb-3x3-123456780-6.7.8.pdb.lock",
            "3x3-123456780-1.2.3.4.5.pdb",
            "3x3-123456780-6.7.8.pdb",
        ]
    );
    for e in cache.list().unwrap() {
        cache.verify(&e).unwrap();
    }
}

/// While one builder holds a table's lock, another waits (reported once) and then loads what
/// the first stored instead of building it again.
#[test]
fn a_waiting_builder_loads_what_the_lock_holder_stored() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let goal = goal3();
    let all = [1, 2, 3, 4, 5, 6, 7, 8];
    let key = TableKey::new(&goal, &all);
    let lock = cache
        .lock(&key, &mut |_| panic!("nobody holds it"))
        .unwrap();
    let table = npuzzle_pdb::build_table(&goal, &all, &|_| {}).unwrap();
    std::thread::scope(|s| {
        let waiter = s.spawn(|| open(&cache, "1,2,3,4,5,6,7,8"));
        // Time for the waiter to find no table and block on the lock (it needs microseconds).
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert!(!waiter.is_finished());
        cache.store(&key, &table).unwrap();
        drop(lock);
        let (db, r) = waiter.join().unwrap();
        assert_eq!((r.waited, r.built, r.loaded), (1, 0, 1), "{r:?}");
        assert_exact(&db, "1,2,3,4,5,6,7,8");
    });
}

/// Temporary files left by killed builds of a table are removed when the table is next
/// built; those of other tables and other files are left alone.
#[test]
fn leftovers_of_killed_builds_are_removed() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let stale = [
        ".npuzzle-pdb-3x3-123456780-1.2.3.4.pdb.a1B2c3.tmp",
        ".npuzzle-pdb-3x3-123456780-1.2.3.4.pdb.zzzzzz.tmp",
    ];
    let other = ".npuzzle-pdb-4x4-123456789abcdef0-1.2.3.pdb.qqqqqq.tmp";
    for name in stale.iter().chain([&other, &"notes.txt"]) {
        fs::write(dir.path().join(name), b"NPZPDB\r\npartial").unwrap();
    }
    let (db, r) = open(&cache, SPEC);
    assert_eq!((r.built, r.cleaned), (2, 2), "{r:?}");
    assert_exact(&db, SPEC);
    let left = names(dir.path());
    assert!(
        left.iter().all(|n| !stale.contains(&n.as_str())),
        "{left:?}"
    );
    assert!(left.contains(&other.to_string()) && left.contains(&"notes.txt".to_string()));
    // `clear` removes every temporary and lock file of ours, not other files.
    cache.clear().unwrap();
    assert_eq!(names(dir.path()), ["notes.txt"]);
}

/// A cache "directory" under a regular file can hold nothing (root ignores permission bits,
/// this cannot be bypassed): the tables are built in memory, each build reports why it was not
/// stored, and the database is exact.
#[test]
fn an_unusable_cache_directory_builds_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, b"not a directory").unwrap();
    let cache = Cache::new(file.join("sub"));
    let (db, r) = open(&cache, SPEC);
    assert_eq!((r.built, r.loaded), (2, 0));
    assert_eq!(r.store_errors.len(), 2, "{r:?}");
    assert!(r.store_errors[0].contains("file/sub"), "{r:?}");
    assert_exact(&db, SPEC);
    assert_eq!(names(dir.path()), ["file"]);
    assert!(
        cache
            .list()
            .is_err_and(|e| e.to_string().contains("file/sub"))
    );
}
