//! Zero-aware pattern databases against exhaustive oracles: every table entry equals an
//! independent 0-1 breadth-first search over (group tiles' cells, blank cell) on small boards;
//! the heuristic is admissible, consistent and at least the plain tables' value on every
//! 8-puzzle state (BFS distances); memo updates equal fresh estimates along random walks;
//! IDA* with it returns the optimal lengths; tables survive the cache.

use std::collections::VecDeque;

use npuzzle_core::{
    BitBoard, Board, Goal, Heuristic, Limits, Move, Outcome, Shape, Solver, parse_board, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_pdb::{
    BuildPolicy, Cache, Event, Indexer, PartitionSpec, PatternDb, TableKey, TableKind, ZeroAwareDb,
    ZeroAwareIndexer, build_zero_aware_table,
};

/// The exact cost of every (group cells, blank cell) state: moving a group tile costs 1, any
/// other tile 0; the goal is the group's tiles home with the blank on its goal cell. Indexed
/// by `Indexer::rank` of (group cells..., blank cell) as a k+1-tile pattern. 0-1 BFS.
fn oracle(goal: &Goal, tiles: &[u8]) -> (Indexer, Vec<u8>) {
    let shape = goal.shape();
    let (w, h) = (shape.width(), shape.height());
    let n = w * h;
    let k = tiles.len();
    let ix = Indexer::new(n, k + 1).unwrap();
    let mut dist = vec![u8::MAX; ix.size() as usize];
    let mut start: Vec<u8> = tiles
        .iter()
        .map(|&t| goal.cell_of(usize::from(t)) as u8)
        .collect();
    start.push(goal.cell_of(0) as u8);
    let mut dq = VecDeque::new();
    dist[ix.rank(&start)] = 0;
    dq.push_back(start);
    let mut cells = vec![0u8; k + 1];
    while let Some(s) = dq.pop_front() {
        let d = dist[ix.rank(&s)];
        let b = usize::from(s[k]);
        let (r, c) = (b / w, b % w);
        let mut nbrs = Vec::new();
        if r > 0 {
            nbrs.push(b - w);
        }
        if r + 1 < h {
            nbrs.push(b + w);
        }
        if c > 0 {
            nbrs.push(b - 1);
        }
        if c + 1 < w {
            nbrs.push(b + 1);
        }
        for q in nbrs {
            cells.copy_from_slice(&s);
            cells[k] = q as u8;
            let mut cost = 0;
            if let Some(i) = s[..k].iter().position(|&p| usize::from(p) == q) {
                cells[i] = b as u8;
                cost = 1;
            }
            let r = ix.rank(&cells);
            if dist[r] <= d + cost {
                continue;
            }
            dist[r] = d + cost;
            if cost == 0 {
                dq.push_front(cells.clone());
            } else {
                dq.push_back(cells.clone());
            }
        }
    }
    (ix, dist)
}

#[test]
fn every_entry_equals_a_0_1_bfs_on_small_boards() {
    let cases: [(usize, usize, bool, &[u8]); 9] = [
        (3, 3, false, &[1, 2]),
        (3, 3, true, &[3, 6, 7]),
        (3, 3, false, &[1, 2, 3, 4]),
        (3, 3, true, &[5, 6, 7, 8]),
        (4, 2, false, &[1, 5, 6]),
        (4, 2, true, &[2, 3, 4, 7]),
        (4, 3, false, &[1, 2, 5]),
        (4, 3, true, &[6, 9, 10, 11]),
        (4, 4, false, &[1, 2, 3, 4]),
    ];
    for (w, h, first, tiles) in cases {
        let shape = Shape::new(w, h).unwrap();
        let goal = if first {
            Goal::blank_first(shape)
        } else {
            Goal::blank_last(shape)
        };
        let table = build_zero_aware_table(&goal, tiles, &|_| {}).unwrap();
        let zx = ZeroAwareIndexer::new(w, h, tiles.len()).unwrap();
        assert_eq!(table.len() as u64, zx.size());
        let (ox, dist) = oracle(&goal, tiles);
        let mut cells = vec![0u8; tiles.len() + 1];
        let mut checked = 0u64;
        for (r, &d) in dist.iter().enumerate() {
            ox.unrank(r, &mut cells);
            let (pattern, blank) = cells.split_at(tiles.len());
            assert_ne!(d, u8::MAX, "{w}x{h} {tiles:?}: unreachable state {cells:?}");
            assert_eq!(
                table[zx.rank(pattern, blank[0])],
                d,
                "{w}x{h} {tiles:?}, cells {pattern:?}, blank {}",
                blank[0]
            );
            checked += 1;
        }
        assert_eq!(checked, ox.size());
    }
}

/// Every solvable state of the 3×3 board with `goal` and its BFS distance.
fn eight_puzzle(goal: &Goal) -> Vec<(BitBoard, u32)> {
    let start = BitBoard::from_layout(goal.layout()).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut q = VecDeque::new();
    seen.insert(start);
    q.push_back((start, 0u32));
    while let Some((b, d)) = q.pop_front() {
        out.push((b, d));
        for m in b.legal() {
            let mut c = b;
            c.apply(m);
            if seen.insert(c) {
                q.push_back((c, d + 1));
            }
        }
    }
    assert_eq!(out.len(), 181_440);
    out
}

#[test]
fn admissible_consistent_and_dominating_on_every_8_puzzle_state() {
    for (goal, spec, reflect) in [
        (
            Goal::blank_last(Shape::square(3).unwrap()),
            PartitionSpec::Default,
            true,
        ),
        (
            Goal::blank_first(Shape::square(3).unwrap()),
            PartitionSpec::Default,
            true,
        ),
        (
            Goal::blank_first(Shape::square(3).unwrap()),
            "1,2,3/4,5,6/7,8".parse::<PartitionSpec>().unwrap(),
            false,
        ),
    ] {
        let z = ZeroAwareDb::build(&goal, &spec, reflect, &|_| {}).unwrap();
        let plain = PatternDb::build(&goal, &spec, reflect, &|_| {}).unwrap();
        assert_eq!(z.reflects(), reflect);
        assert_eq!(
            Heuristic::<BitBoard>::properties(&z),
            npuzzle_core::HeuristicProperties::CONSISTENT
        );
        let mut stronger = 0u64;
        for (b, d) in eight_puzzle(&goal) {
            let h = z.estimate(&b);
            assert!(h <= d, "{:?}: h {h} above the distance {d}", b.to_layout());
            let p = plain.estimate(&b);
            assert!(
                h >= p,
                "{:?}: zero-aware {h} below plain {p}",
                b.to_layout()
            );
            stronger += u64::from(h > p);
            if d == 0 {
                assert_eq!(h, 0);
            }
            let (hm, memo) = z.estimate_memo(&b);
            assert_eq!(hm, h);
            for m in b.legal() {
                let mut c = b;
                c.apply(m);
                let hc = z.estimate(&c);
                assert!(
                    h.abs_diff(hc) <= 1,
                    "{:?} -> {:?}: {h} -> {hc}",
                    b.to_layout(),
                    c.to_layout()
                );
                assert_eq!(z.update(&b, h, m), hc);
                let (hu, _) = z.update_memo(&b, h, &memo, m);
                assert_eq!(hu, hc);
            }
        }
        // The region matters on some states (else this test would not tell the tables apart).
        assert!(
            stronger > 1000,
            "only {stronger} states above the plain value"
        );
    }
}

fn walk(b: &mut impl Board, steps: usize, x: &mut u64) {
    let mut last: Option<Move> = None;
    for _ in 0..steps {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        let legal: Vec<Move> = b.legal().filter(|&m| Some(m.inverse()) != last).collect();
        let m = legal[(*x % legal.len() as u64) as usize];
        b.apply(m);
        last = Some(m);
    }
}

#[test]
fn memo_updates_equal_estimates_and_steps_are_at_most_one_on_15_puzzle_walks() {
    let goal = Goal::blank_first(Shape::square(4).unwrap());
    let z = ZeroAwareDb::build(&goal, &PartitionSpec::P555, true, &|_| {}).unwrap();
    assert!(z.reflects());
    let mut x = 0x853c_49e6_748f_ea9b_u64;
    for _ in 0..20 {
        let mut b = BitBoard::from_layout(goal.layout()).unwrap();
        walk(&mut b, 60, &mut x);
        let (mut h, mut memo) = z.estimate_memo(&b);
        let mut last: Option<Move> = None;
        for _ in 0..300 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let legal: Vec<Move> = b.legal().filter(|&m| Some(m.inverse()) != last).collect();
            let m = legal[(x % legal.len() as u64) as usize];
            let (h2, memo2) = z.update_memo(&b, h, &memo, m);
            // The bounded form: exact when within the bound, above it otherwise.
            let (hb, _) = z.update_memo_bounded(&b, h, &memo, m, h2.saturating_sub(1));
            assert!(hb > h2.saturating_sub(1) && hb <= h2);
            b.apply(m);
            assert_eq!(h2, z.estimate(&b));
            assert!(h.abs_diff(h2) <= 1);
            (h, memo, last) = (h2, memo2, Some(m));
        }
    }
}

#[test]
fn ida_star_with_zero_aware_tables_is_optimal_and_expands_fewer_nodes() {
    // The 15-puzzle with 5-5-5 and reflection: same lengths as the plain tables, never more
    // nodes (the zero-aware values dominate the plain ones).
    let goal = Goal::blank_first(Shape::square(4).unwrap());
    let z = ZeroAwareDb::build(&goal, &PartitionSpec::P555, true, &|_| {}).unwrap();
    let plain = PatternDb::build(&goal, &PartitionSpec::P555, true, &|_| {}).unwrap();
    let mut x = 0x2545_f491_4f6c_dd1d_u64;
    let (mut zn, mut pn) = (0u64, 0u64);
    for _ in 0..6 {
        let mut b = BitBoard::from_layout(goal.layout()).unwrap();
        walk(&mut b, 120, &mut x);
        let solve = |h: &dyn Fn(&BitBoard) -> Outcome| match h(&b) {
            Outcome::Solved(s) => {
                verify(&b.to_layout(), &s.moves, goal.layout()).unwrap();
                (s.moves.len(), s.stats.generated)
            }
            Outcome::Unsolvable(_) => panic!("a walk from the goal is solvable"),
        };
        let (lz, nz) = solve(&|b| {
            IdaStar::new()
                .solve(b, &goal, &z, &Limits::default())
                .unwrap()
        });
        let (lp, np) = solve(&|b| {
            IdaStar::new()
                .solve(b, &goal, &plain, &Limits::default())
                .unwrap()
        });
        assert_eq!(lz, lp, "{:?}", b.to_layout());
        zn += nz;
        pn += np;
    }
    assert!(zn < pn, "zero-aware {zn} nodes, plain {pn}");
    // A known 8-puzzle instance: 31 moves (the farthest from blank-last).
    let g3 = Goal::blank_last(Shape::square(3).unwrap());
    let z3 = ZeroAwareDb::build(&g3, &PartitionSpec::Default, true, &|_| {}).unwrap();
    let layout = parse_board("8 6 7 2 5 4 3 0 1", None).unwrap();
    let b = BitBoard::from_layout(&layout).unwrap();
    match IdaStar::new()
        .solve(&b, &g3, &z3, &Limits::default())
        .unwrap()
    {
        Outcome::Solved(s) => {
            assert_eq!(s.moves.len(), 31);
            verify(&layout, &s.moves, g3.layout()).unwrap();
        }
        Outcome::Unsolvable(_) => panic!("solvable"),
    }
}

#[test]
fn zero_aware_tables_are_cached_apart_from_plain_ones_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let open = |policy| {
        let mut events = Vec::new();
        let db = ZeroAwareDb::open(
            &goal,
            &PartitionSpec::Default,
            true,
            &cache,
            policy,
            &mut |e| match e {
                Event::Loaded { .. } => events.push("loaded"),
                Event::Built { .. } => events.push("built"),
                Event::Rejected { .. } => events.push("rejected"),
                _ => {}
            },
            &|_| {},
        );
        (db, events)
    };
    let (db, events) = open(BuildPolicy::Never);
    assert!(db.is_err(), "nothing cached yet");
    assert!(events.is_empty());
    let (db, events) = open(BuildPolicy::Always);
    let built = db.unwrap();
    assert!(events.iter().filter(|&&e| e == "built").count() == 2);
    let (db, events) = open(BuildPolicy::Never);
    let loaded = db.unwrap();
    assert_eq!(events, ["loaded", "loaded"]);
    for (b, _) in eight_puzzle(&goal).into_iter().step_by(97) {
        assert_eq!(built.estimate(&b), loaded.estimate(&b));
    }
    // Apart from the plain tables: a plain open finds nothing.
    let key = TableKey::zero_aware(&goal, &[1, 2, 3, 4]);
    assert!(key.file_name().contains("-z-"));
    assert_ne!(
        key.file_name(),
        TableKey::new(&goal, &[1, 2, 3, 4]).file_name()
    );
    assert!(
        PatternDb::open(
            &goal,
            &PartitionSpec::Default,
            true,
            &cache,
            BuildPolicy::Never,
            &mut |_| {},
            &|_| {}
        )
        .is_err()
    );
    // Listed and verified with the rest; a flipped byte is caught and rebuilt.
    let list = cache.list().unwrap();
    assert_eq!(list.len(), 2);
    for e in &list {
        assert_eq!(e.header.as_ref().unwrap().key.kind, TableKind::ZeroAware);
        cache.verify(e).unwrap();
    }
    flip_last_byte(&cache.path(&key));
    assert!(cache.load(&key).is_err());
    let (db, events) = open(BuildPolicy::Always);
    db.unwrap();
    assert_eq!(events, ["rejected", "built", "loaded"]);
}

/// Replaces the file at `path` by a copy with its last byte flipped (a new file: a mapping of
/// the old one stays as it was).
fn flip_last_byte(path: &std::path::Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::remove_file(path).unwrap();
    std::fs::write(path, &bytes).unwrap();
}

/// A zero-aware 3×4 database (blank-first, groups 1–5 and 6–11, reflected) opened through
/// `cache`, built there first.
fn small_zero_aware(cache: &Cache) -> (Goal, ZeroAwareDb) {
    let goal = Goal::blank_first(Shape::new(3, 4).unwrap());
    let spec = PartitionSpec::Custom(vec![vec![1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10, 11]]);
    let za = ZeroAwareDb::open(
        &goal,
        &spec,
        true,
        cache,
        BuildPolicy::Always,
        &mut |_| {},
        &|_| {},
    )
    .unwrap();
    (goal, za)
}

/// `db` with its region-coded forms through `cache`, and the events seen on the way.
fn coded_through(cache: &Cache, db: ZeroAwareDb) -> (ZeroAwareDb, Vec<&'static str>) {
    let mut events = Vec::new();
    let db = db
        .with_cached_region_codes(cache, &mut |e| match e {
            Event::Loaded { .. } => events.push("loaded"),
            Event::Building {
                kind: TableKind::RegionCoded,
                ..
            } => events.push("building"),
            Event::Built { path: Some(_), .. } => events.push("built"),
            Event::Rejected { .. } => events.push("rejected"),
            other => panic!("unexpected event {other:?}"),
        })
        .unwrap();
    assert!(db.has_region_codes());
    (db, events)
}

/// Each group's coded entries and pockets, as the search kernel sees them.
fn coded_bytes(db: &ZeroAwareDb) -> Vec<(Vec<u8>, Vec<u8>)> {
    let view = <ZeroAwareDb as Heuristic<BitBoard>>::as_additive_tables(db).unwrap();
    view.groups
        .iter()
        .map(|g| {
            let c = g.coded.expect("coded");
            (c.entries.to_vec(), c.pockets.to_vec())
        })
        .collect()
}

/// The region-coded forms are derived and stored once (`-c-` files of twice the plain size),
/// then loaded, byte for byte what `with_region_codes` derives; listed, verified, and a
/// corrupted one is rejected and derived again.
#[test]
fn region_coded_tables_are_cached_checked_and_equal_the_derived_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let (goal, za) = small_zero_aware(&cache);
    let derived = coded_bytes(&za.clone().with_region_codes().unwrap());
    let plain_entries = Indexer::new(12, 5).unwrap().size() as usize;
    assert_eq!(derived[0].0.len(), plain_entries);
    assert_eq!(derived[0].1.len(), plain_entries);

    let (first, events) = coded_through(&cache, za.clone());
    assert_eq!(events, ["building", "built", "building", "built"]);
    assert_eq!(coded_bytes(&first), derived);
    let key = TableKey::region_coded(&goal, &[1, 2, 3, 4, 5]);
    assert!(key.file_name().contains("-c-"), "{}", key.file_name());
    assert_eq!(
        std::fs::metadata(cache.path(&key)).unwrap().len(),
        128 + 2 * plain_entries as u64
    );

    let (second, events) = coded_through(&cache, za.clone());
    assert_eq!(events, ["loaded", "loaded"]);
    assert_eq!(coded_bytes(&second), derived);
    // Copied into huge pages: the entries are copied, the pockets stay mapped, same bytes.
    let huge = second.clone().with_huge_pages().unwrap();
    assert_eq!(coded_bytes(&huge), derived);
    assert_eq!(huge.table_bytes(), second.table_bytes());
    // Derived in memory (no file behind them): copied whole, the same bytes.
    let in_memory = za.clone().with_region_codes().unwrap();
    assert_eq!(coded_bytes(&in_memory.with_huge_pages().unwrap()), derived);
    // Same values through the heuristic as well.
    let mut b = BitBoard::from_layout(goal.layout()).unwrap();
    let mut x = 7;
    for _ in 0..200 {
        walk(&mut b, 3, &mut x);
        assert_eq!(second.estimate(&b), za.estimate(&b));
    }

    // Listed (two zero-aware, two region-coded) and verified.
    let list = cache.list().unwrap();
    let kinds: Vec<TableKind> = list
        .iter()
        .map(|e| e.header.as_ref().unwrap().key.kind)
        .collect();
    assert_eq!(
        kinds
            .iter()
            .filter(|&&k| k == TableKind::RegionCoded)
            .count(),
        2
    );
    assert_eq!(
        kinds.iter().filter(|&&k| k == TableKind::ZeroAware).count(),
        2
    );
    for e in &list {
        cache.verify(e).unwrap();
    }

    // A flipped pocket byte is caught, and that group's form derived and stored again.
    flip_last_byte(&cache.path(&key));
    let (third, events) = coded_through(&cache, za);
    assert_eq!(events, ["rejected", "building", "built", "loaded"]);
    assert_eq!(coded_bytes(&third), derived);
}

/// A cached region-coded file records its source (the zero-aware table's checksum and the
/// coding's version): loading it as a table of its own fails, and a file that records another
/// source (other zero-aware tables, an older coding) is rejected and derived again, although
/// its checksums are valid.
#[test]
fn region_coded_files_from_another_source_are_derived_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let (goal, za) = small_zero_aware(&cache);
    let derived = coded_bytes(&za.clone().with_region_codes().unwrap());
    let (_, events) = coded_through(&cache, za.clone());
    assert_eq!(events, ["building", "built", "building", "built"]);
    let key = TableKey::region_coded(&goal, &[1, 2, 3, 4, 5]);
    let path = cache.path(&key);
    let recorded = cache
        .list()
        .unwrap()
        .into_iter()
        .find(|e| e.path == path)
        .and_then(|e| e.header.ok())
        .unwrap()
        .source;
    assert_ne!(recorded, 0);
    assert!(cache.load(&key).is_err());
    let good = cache
        .load_derived(&key, recorded)
        .unwrap()
        .unwrap()
        .to_vec();
    cache.store_derived(&key, &good, recorded ^ 1).unwrap();
    assert!(cache.load_derived(&key, recorded).is_err());
    let (again, events) = coded_through(&cache, za);
    assert_eq!(events, ["rejected", "building", "built", "loaded"]);
    assert_eq!(coded_bytes(&again), derived);
    assert!(cache.load_derived(&key, recorded).unwrap().is_some());
}
