//! The facade end to end: the one-call snippet, every engine × heuristic's claim against the
//! exhaustive 8-puzzle oracle, `optimal` refusals, the auto policy above 16 cells (anytime
//! answers with their bound), limits, unsolvable boards, and sharing one solver between threads.

use std::sync::Arc;
use std::time::Duration;

use npuzzle::generate::{Method, generate};
use npuzzle::{Config, Engine, Error, Goal, Guarantee, HeuristicKind, Limit, Npuzzle, Shape};
use npuzzle_testsuite::BfsOracle;

fn pdb_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn the_one_call_snippet() {
    let dir = pdb_dir();
    // `npuzzle::solve` itself uses the platform cache directory; point it at a temporary one.
    let answer = Config::new()
        .pdb_dir(dir.path())
        .build()
        .unwrap()
        .solve_str("8 6 7 2 5 4 3 0 1")
        .unwrap();
    assert_eq!(answer.len(), 31);
    assert!(answer.is_optimal());
    assert_eq!(answer.lower_bound, 31);
    assert_eq!(answer.engine, Engine::IdaStar);
    assert_eq!(answer.heuristic, HeuristicKind::Pdb);
    let boards = answer.boards();
    assert_eq!(boards.len(), 32);
    assert_eq!(&boards[31], answer.goal.layout());
    npuzzle::verify(&answer.layout, answer.move_list(), answer.goal.layout()).unwrap();
}

/// Every engine × heuristic on a sample of the 8-puzzle: the guarantee each answer carries is
/// the engine's declared one, and every answer claimed optimal has the oracle's length (the
/// others are never shorter, and weighted A*'s at most W times longer).
#[test]
fn every_combination_keeps_its_claim() {
    let dir = pdb_dir();
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let oracle = BfsOracle::new(&goal);
    let sample = oracle.sample(9973);
    for engine in Engine::ALL {
        for heuristic in HeuristicKind::ALL {
            if heuristic == HeuristicKind::Zero && engine == Engine::IdaStar {
                continue; // brute-force IDA* on 31-move boards: minutes, no new information
            }
            let npz = Config::new()
                .engine(engine)
                .heuristic(heuristic)
                .pdb_dir(dir.path())
                .build()
                .unwrap();
            let expected = engine.guarantee(2.0, heuristic.properties()).unwrap();
            for (layout, optimum) in &sample {
                let a = npz.solve(layout).unwrap();
                let g = a.guarantee().unwrap();
                // The goal itself needs no search: no moves are optimal for every engine.
                let claim = if *optimum == 0 {
                    Guarantee::Optimal
                } else {
                    expected
                };
                assert_eq!(g, claim, "{engine:?} {heuristic:?}");
                let n = a.len() as u32;
                assert!(
                    n >= *optimum,
                    "{engine:?} {heuristic:?} shorter than optimal"
                );
                match g {
                    Guarantee::Optimal => assert_eq!(n, *optimum, "{engine:?} {heuristic:?}"),
                    Guarantee::WithinFactor(w) => assert!(f64::from(n) <= w * f64::from(*optimum)),
                    Guarantee::Unproven => {}
                }
                assert!(
                    a.lower_bound <= *optimum,
                    "{engine:?} {heuristic:?} lower bound"
                );
            }
        }
    }
}

#[test]
fn optimal_refuses_what_is_not_proven() {
    let refused = |c: Config| match c.optimal(true).build() {
        Err(e @ Error::NotOptimal { .. }) => {
            // The library's words, and a front end's through `describe`.
            let m = e.to_string();
            assert!(m.starts_with("optimal: the "), "{m}");
            let flags = e.describe(&|s| format!("--{}", s.name()));
            assert!(flags.starts_with("--optimal: the "), "{flags}");
            m
        }
        other => panic!("accepted: {other:?}"),
    };
    let m = refused(
        Config::new()
            .engine(Engine::WeightedAStar)
            .weight(1.0)
            .heuristic(HeuristicKind::Pdb),
    );
    assert!(m.contains("never reopens states"), "{m}");
    let m = refused(Config::new().engine(Engine::WeightedAStar).weight(1.5));
    assert!(m.contains("at most 1.5 times"), "{m}");
    let m = refused(Config::new().engine(Engine::Constructive));
    assert!(m.contains("constructive"), "{m}");
    // Weighted A* with weight 1 and a consistent heuristic is optimal, and accepted.
    let npz = Config::new()
        .engine(Engine::WeightedAStar)
        .weight(1.0)
        .optimal(true)
        .build()
        .unwrap();
    let a = npz.solve_str("8 6 7 2 5 4 3 0 1").unwrap();
    assert_eq!((a.len(), a.is_optimal()), (31, true));
}

/// A random 5×5 board is beyond optimal search: auto returns the anytime answer, shorter than
/// the constructive solver's, with its lower bound (beam search proves no factor).
#[test]
fn anytime_answers_above_sixteen_cells() {
    let shape = Shape::square(5).unwrap();
    let goal = Goal::blank_last(shape);
    let board = generate(&goal, Method::Uniform, 3, 1).next().unwrap();
    // A cache of its own: the 5x5 tables, if the user has built them, would change the path.
    let dir = pdb_dir();
    let npz = Config::new().pdb_dir(dir.path()).build().unwrap();
    let a = npz.solve(&board).unwrap();
    let constructive = Config::new()
        .pdb_dir(dir.path())
        .engine(Engine::Constructive)
        .build()
        .unwrap()
        .solve(&board)
        .unwrap();
    assert_eq!(a.engine, Engine::Beam, "{:?}", a.notes);
    assert!(
        a.len() < constructive.len(),
        "{} vs {}",
        a.len(),
        constructive.len()
    );
    assert_eq!(a.guarantee(), Some(Guarantee::Unproven));
    npuzzle::verify(&board, a.move_list(), goal.layout()).unwrap();
    assert!(!a.is_optimal());
    let lc = npuzzle::check::check(&board, &goal)
        .unwrap()
        .linear_conflict;
    assert!(a.lower_bound >= lc && lc > 50, "{} {lc}", a.lower_bound);
    assert!(
        a.notes[0].contains("out of reach of optimal search"),
        "{:?}",
        a.notes
    );
    // A zero budget leaves the constructive answer.
    let quick = Config::new()
        .pdb_dir(dir.path())
        .anytime_budget(Duration::ZERO)
        .build()
        .unwrap()
        .solve(&board)
        .unwrap();
    assert_eq!(quick.engine, Engine::Constructive);
    assert_eq!(quick.len(), constructive.len());
    // With `optimal`, no fallback: a limit is an error naming it, never a worse answer.
    let e = Config::new()
        .pdb_dir(dir.path())
        .heuristic(HeuristicKind::LinearConflict)
        .optimal(true)
        .max_nodes(10_000)
        .build()
        .unwrap()
        .solve(&board)
        .unwrap_err();
    assert!(matches!(e.limit(), Some((Limit::Nodes(10_000), _))), "{e}");
}

/// Near-solved large boards are still solved optimally by auto.
#[test]
fn close_large_boards_are_optimal() {
    let goal = Goal::blank_last(Shape::new(6, 5).unwrap());
    let dir = pdb_dir();
    let npz = Config::new().pdb_dir(dir.path()).build().unwrap();
    for board in generate(&goal, Method::Walk(30), 11, 3) {
        let a = npz.solve(&board).unwrap();
        assert!(a.is_optimal(), "{board}");
        assert_eq!(a.engine, Engine::IdaStar);
        assert!(a.len() <= 30);
    }
}

#[test]
fn unsolvable_boards_are_answers() {
    let npz = Config::new()
        .heuristic(HeuristicKind::Manhattan)
        .build()
        .unwrap();
    let a = npz.solve_str("1 2 3 4 5 6 8 7 0").unwrap();
    assert!(!a.is_solvable());
    assert_eq!((a.len(), a.is_optimal(), a.guarantee()), (0, false, None));
    assert!(matches!(npz.solve_str("1 2 3"), Err(Error::Parse(_))));
}

#[test]
fn one_solver_many_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Npuzzle>();
    let dir = pdb_dir();
    let npz = Arc::new(
        Config::new()
            .goal("blank-first")
            .unwrap()
            .pdb_dir(dir.path())
            .build()
            .unwrap(),
    );
    let boards = npuzzle_testsuite::korf100();
    std::thread::scope(|s| {
        for chunk in boards[..8].chunks(2) {
            let npz = Arc::clone(&npz);
            s.spawn(move || {
                for inst in chunk {
                    let a = npz.solve(&inst.board).unwrap();
                    assert_eq!(a.len() as u32, inst.optimal);
                    assert!(a.is_optimal());
                }
            });
        }
    });
}

/// Settings a configuration does not apply to are typed errors naming the setting in the
/// library's words.
#[test]
fn settings_that_do_not_apply_are_typed() {
    let e = Config::new()
        .engine(Engine::IdaStar)
        .weight(2.0)
        .build()
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::NotApplicable {
                setting: npuzzle::Setting::Weight,
                chosen: "idastar",
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "weight applies to the weighted-astar engine only, not to idastar"
    );
    let e = Config::new()
        .heuristic(HeuristicKind::Manhattan)
        .reflect(false)
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "reflect(false) applies to the pdb, zpdb and mtm-pdb heuristics only, not to manhattan"
    );
    let e = Config::new().pdb("7x8").unwrap_err();
    assert!(
        matches!(&e, Error::BadValue { setting: npuzzle::Setting::Pdb, value, .. } if value == "7x8"),
        "{e:?}"
    );
}

/// One solver, many searches: each search brings its own limits; the default settings stay.
#[test]
fn settings_are_passed_per_search() {
    let npz = Config::new()
        .engine(Engine::IdaStar)
        .heuristic(HeuristicKind::Manhattan)
        .threads(1)
        .build()
        .unwrap();
    let board = "8 6 7 2 5 4 3 0 1";
    let tight = npz.settings().max_nodes(1000);
    let e = npz.solve_str_with(board, &tight).unwrap_err();
    assert!(
        matches!(e.limit(), Some((npuzzle::Limit::Nodes(1000), _))),
        "{e:?}"
    );
    // The same solver, its own (unlimited) settings: solved.
    assert_eq!(npz.solve_str(board).unwrap().len(), 31);
    // A time limit for one search only: the solver's own settings have none.
    assert!(npz.settings().limits_ref().timeout.is_none());
    assert!(npz.proves_bound_when_stopped());
}

/// Solvers sharing a `Tables` open each database once; unsolvable and solved boards are
/// answered before any table is opened.
#[test]
fn tables_are_opened_once_and_shared() {
    let dir = pdb_dir();
    let tables = npuzzle::Tables::new();
    let config = || {
        Config::new()
            .pdb_dir(dir.path())
            .heuristic(HeuristicKind::Pdb)
            .tables(tables.clone())
    };
    // Parity first: no table is opened (nor built) for an unsolvable or a solved board.
    let npz = config().build().unwrap();
    let a = npz.solve_str("1 2 3 4 5 6 8 7 0").unwrap();
    assert!(!a.is_solvable());
    let a = npz.solve_str("1 2 3 4 5 6 7 8 0").unwrap();
    assert_eq!((a.len(), a.is_optimal()), (0, true));
    assert!(tables.is_empty());
    assert_eq!(std::fs::read_dir(dir.path()).map_or(0, Iterator::count), 0);
    // The first search opens (here: builds) the 3x3 tables, once.
    assert_eq!(npz.solve_str("8 6 7 2 5 4 3 0 1").unwrap().len(), 31);
    assert_eq!(tables.len(), 1);
    let bytes = tables.bytes();
    assert!(bytes > 0);
    // A second solver (another engine, same tables) does not open them again.
    let other = config().engine(Engine::AStar).build().unwrap();
    assert_eq!(other.solve_str("8 6 7 2 5 4 3 0 1").unwrap().len(), 31);
    assert_eq!((tables.len(), tables.bytes()), (1, bytes));
    // Another shape opens its own.
    let a = config()
        .size(Shape::new(4, 2).unwrap())
        .build()
        .unwrap()
        .solve_str("1 2 3 4 5 6 0 7")
        .unwrap();
    assert_eq!(a.len(), 1);
    assert_eq!(tables.len(), 2);
}

/// 6×6 and 7×7 under auto: the beams rank by the learned ranking (linear conflict plus learned costs),
/// with no note on building the default tables (they lose to it on both shapes); with named
/// tables (here a cheap 2-tile partition, built on request) the beams rank by them, the note says so, the answer replays
/// to the goal, is never claimed optimal, and its lower bound is at least linear conflict's.
#[test]
fn anytime_beam_with_tile_only_tables_on_6x6_and_7x7() {
    for side in [6usize, 7] {
        let shape = Shape::square(side).unwrap();
        let goal = Goal::blank_last(shape);
        let board = generate(&goal, Method::Uniform, 1, 7).next().unwrap();
        let dir = pdb_dir();
        let lc = npuzzle::check::check(&board, &goal)
            .unwrap()
            .linear_conflict;
        let budget = Duration::from_millis(300);
        let notes = Arc::new(Notes::default());
        let plain = Config::new()
            .pdb_dir(dir.path())
            .anytime_budget(budget)
            .observer(Arc::clone(&notes) as Arc<dyn npuzzle::Observer>)
            .build()
            .unwrap()
            .solve(&board)
            .unwrap();
        assert_eq!(plain.engine, Engine::Beam);
        let note = plain.notes.join("\n");
        // Both rank by their shipped learned rankings (linear conflict and learned costs).
        assert!(
            note.contains("beam search with the learned ranking"),
            "{note}"
        );
        let said = notes.0.lock().unwrap().join("\n");
        // The default tables (4-tile groups on 7×7, 5-tile on 6×6) lose to linear conflict
        // with squared-distance ties: no note on them.
        assert!(
            !said.contains(&format!("npuzzle pdb build --size {shape}"))
                && !said.contains("12 tables")
                && !said.contains("7 tables"),
            "{said}"
        );
        let tiles: Vec<String> = (1..side * side)
            .collect::<Vec<_>>()
            .chunks(2)
            .map(|g| {
                g.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        let npz = Config::new()
            .pdb_dir(dir.path())
            .pdb(&tiles.join("/"))
            .unwrap()
            .anytime_budget(budget)
            .build()
            .unwrap();
        let a = npz.solve(&board).unwrap();
        assert_eq!(a.engine, Engine::Beam, "{:?}", a.notes);
        assert_eq!(a.heuristic, HeuristicKind::Pdb, "{:?}", a.notes);
        assert!(
            a.notes
                .iter()
                .any(|n| n.contains("beam search with pattern databases")),
            "{:?}",
            a.notes
        );
        npuzzle::verify(&board, a.move_list(), goal.layout()).unwrap();
        assert_eq!(a.guarantee(), Some(Guarantee::Unproven));
        assert!(!a.is_optimal());
        assert!(a.lower_bound >= lc, "{} {lc}", a.lower_bound);
        // The explicit engine: beam with the tables.
        let b = Config::new()
            .pdb_dir(dir.path())
            .pdb(&tiles.join("/"))
            .unwrap()
            .engine(Engine::Beam)
            .timeout(budget)
            .build()
            .unwrap()
            .solve(&board)
            .unwrap();
        npuzzle::verify(&board, b.move_list(), goal.layout()).unwrap();
        assert!(!b.is_optimal() && b.lower_bound >= lc);
    }
}

/// An observer that keeps the notes.
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl npuzzle::Observer for Notes {
    fn note(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
}

/// Auto on 5×5 (neither engine nor heuristic named) uses the zero-aware tables of the partition
/// when they are cached (with their region-coded forms, cached on first use), the plain ones
/// when they are not; a named heuristic keeps the plain ones. Every answer is optimal and the
/// same length. Groups of 3 tiles keep the tables small (8 groups).
#[test]
fn auto_prefers_cached_zero_aware_tables_on_5x5() {
    use npuzzle::databases::build_into_cache;
    use npuzzle::npuzzle_pdb::{Cache, PartitionSpec, TableKey, TableKind, ZeroAwareKind};

    let dir = pdb_dir();
    let goal = Goal::blank_first(Shape::square(5).unwrap());
    let partition = "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15/16,17,18/19,20,21/22,23,24";
    let board = generate(&goal, Method::Walk(40), 5, 1).next().unwrap();
    let solve = |heuristic: Option<HeuristicKind>| {
        let mut config = Config::new()
            .goal("blank-first")
            .unwrap()
            .pdb(partition)
            .unwrap()
            .optimal(true)
            .pdb_dir(dir.path());
        if let Some(h) = heuristic {
            config = config.heuristic(h);
        }
        let a = config.build().unwrap().solve(&board).unwrap();
        assert!(a.is_optimal());
        npuzzle::verify(&a.layout, a.move_list(), a.goal.layout()).unwrap();
        (a.heuristic, a.len())
    };
    // Nothing cached: auto builds and uses the plain tables.
    let (h, plain_len) = solve(None);
    assert_eq!(h, HeuristicKind::Pdb);
    // One solver that lives through the build below (a server's or the Python module's).
    let kept = Config::new()
        .goal("blank-first")
        .unwrap()
        .pdb(partition)
        .unwrap()
        .optimal(true)
        .pdb_dir(dir.path())
        .build()
        .unwrap();
    let kept_solve = |layout| {
        let a = kept.solve(layout).unwrap();
        npuzzle::verify(&a.layout, a.move_list(), a.goal.layout()).unwrap();
        (a.heuristic, a.len())
    };
    assert_eq!(kept_solve(&board), (HeuristicKind::Pdb, plain_len));
    assert_eq!(kept_solve(goal.layout()), (HeuristicKind::Pdb, 0));
    assert_eq!(kept.tables().len(), 1);
    let plain_bytes = kept.tables().bytes();
    let cache = Cache::new(dir.path());
    let spec: PartitionSpec = partition.parse().unwrap();
    build_into_cache::<ZeroAwareKind>(&goal, &spec, &cache, &npuzzle::Quiet).unwrap();
    // The build derived and stored the region-coded forms too.
    let coded = TableKey::region_coded(&goal, &[1, 2, 3]);
    assert_eq!(coded.kind, TableKind::RegionCoded);
    assert!(cache.path(&coded).is_file());
    // Zero-aware cached: auto uses them; a named heuristic keeps its own.
    assert_eq!(solve(None), (HeuristicKind::Zpdb, plain_len));
    // The solver that decided before the build sees the new tables too, and a board that
    // needs no search names the heuristic a search now uses.
    assert_eq!(kept_solve(goal.layout()), (HeuristicKind::Zpdb, 0));
    assert_eq!(kept_solve(&board), (HeuristicKind::Zpdb, plain_len));
    // The plain tables it left are closed: only the zero-aware ones stay open.
    assert_eq!(kept.tables().len(), 1);
    assert!(kept.tables().bytes() > 2 * plain_bytes);
    assert_eq!(
        solve(Some(HeuristicKind::Pdb)),
        (HeuristicKind::Pdb, plain_len)
    );
    // An explicit engine is not auto's pick either: the plain tables.
    let a = Config::new()
        .goal("blank-first")
        .unwrap()
        .engine(Engine::IdaStar)
        .pdb(partition)
        .unwrap()
        .pdb_dir(dir.path())
        .build()
        .unwrap()
        .solve(&board)
        .unwrap();
    assert_eq!((a.heuristic, a.len()), (HeuristicKind::Pdb, plain_len));
}

/// A solver that decided to search a 4×5 board without pattern databases (none cached, no
/// `optimal`) uses them once `npuzzle pdb build` has cached them, without a restart; a board
/// equal to the goal names the heuristic a search would use, before and after.
#[test]
fn a_long_lived_solver_uses_tables_cached_after_it_decided() {
    use npuzzle::databases::build_into_cache;
    use npuzzle::npuzzle_pdb::{Cache, PartitionSpec, PlainKind};

    let dir = pdb_dir();
    let shape = Shape::new(4, 5).unwrap();
    let goal = Goal::blank_first(shape);
    let board = generate(&goal, Method::Walk(40), 7, 1).next().unwrap();
    let solver = Config::new()
        .goal("blank-first")
        .unwrap()
        .pdb_dir(dir.path())
        .build()
        .unwrap();
    let before = solver.solve(&board).unwrap();
    assert_eq!(before.heuristic, HeuristicKind::LinearConflict);
    npuzzle::verify(&before.layout, before.move_list(), before.goal.layout()).unwrap();
    let trivial = solver.solve(goal.layout()).unwrap();
    assert_eq!(
        (trivial.heuristic, trivial.len()),
        (HeuristicKind::LinearConflict, 0)
    );
    assert!(solver.tables().is_empty());

    let cache = Cache::new(dir.path());
    build_into_cache::<PlainKind>(&goal, &PartitionSpec::Default, &cache, &npuzzle::Quiet).unwrap();
    let after = solver.solve(&board).unwrap();
    assert_eq!(after.heuristic, HeuristicKind::Pdb);
    assert!(after.is_optimal());
    npuzzle::verify(&after.layout, after.move_list(), after.goal.layout()).unwrap();
    assert_eq!(solver.tables().len(), 1);
    let trivial = solver.solve(goal.layout()).unwrap();
    assert_eq!((trivial.heuristic, trivial.len()), (HeuristicKind::Pdb, 0));
    // The same length as a search told to use the tables.
    let named = Config::new()
        .goal("blank-first")
        .unwrap()
        .engine(Engine::IdaStar)
        .heuristic(HeuristicKind::Pdb)
        .pdb_dir(dir.path())
        .build()
        .unwrap()
        .solve(&board)
        .unwrap();
    assert!(named.is_optimal());
    assert_eq!(after.len(), named.len());
}

/// The duplicate-pruning automaton is one more kind of cache entry
/// ([`npuzzle::databases::automaton`]): built and stored, and what stands at its path when it
/// is not a good file (damaged bytes, bytes of another payload version under a good checksum,
/// a FIFO) is built again and replaced, never blocked on. Each case uses a shape and depth of
/// its own: the automaton of one is in this process's memory after its first use.
#[test]
fn automata_are_cache_entries_healed_like_tables() {
    use npuzzle::databases::automaton;
    use npuzzle::npuzzle_idastar::Fsm;
    use npuzzle::npuzzle_pdb::{Cache, TableKey};
    let dir = pdb_dir();
    let cache = Cache::new(dir.path());
    let shape = Shape::new(2, 6).unwrap();
    let stored = |depth: u8| {
        let table = cache
            .load(&TableKey::automaton(shape, depth))
            .unwrap()
            .unwrap();
        Fsm::from_payload(&table, shape, u32::from(depth)).unwrap()
    };
    let (fsm, unstored) = automaton(shape, 7, &cache).unwrap();
    assert!(unstored.is_none());
    assert_eq!(stored(7).table(), fsm.table());
    assert_eq!(stored(7).patterns(), fsm.patterns());
    assert_eq!(
        cache.path(&TableKey::automaton(shape, 7)),
        dir.path().join("2x6-fsm-7.pdb")
    );
    // Damaged bytes, and bytes with a good checksum that are no automaton.
    std::fs::write(cache.path(&TableKey::automaton(shape, 8)), b"damaged").unwrap();
    cache
        .store(&TableKey::automaton(shape, 9), &[7; 100])
        .unwrap();
    for depth in [8, 9] {
        let (fsm, unstored) = automaton(shape, u32::from(depth), &cache).unwrap();
        assert!(unstored.is_none());
        assert_eq!(stored(depth).table(), fsm.table(), "depth {depth}");
    }
    // A FIFO at the automaton's path: neither opened (which would block) nor kept.
    #[cfg(unix)]
    {
        let fifo = cache.path(&TableKey::automaton(shape, 10));
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let (tx, rx) = std::sync::mpsc::channel();
        let in_thread = cache.clone();
        std::thread::spawn(move || tx.send(automaton(shape, 10, &in_thread)));
        let (fsm, unstored) = rx
            .recv_timeout(Duration::from_mins(1))
            .expect("blocked on the FIFO")
            .unwrap();
        assert!(unstored.is_none());
        assert!(std::fs::symlink_metadata(&fifo).unwrap().is_file());
        assert_eq!(stored(10).table(), fsm.table());
    }
    let list = cache.list().unwrap();
    assert_eq!(list.len(), 4);
    assert!(list.iter().all(|e| cache.verify(e).is_ok()));
    assert_eq!(
        automaton(shape, 40, &cache).unwrap_err().to_string(),
        Fsm::build(shape, 40).unwrap_err().to_string()
    );
}

/// Auto adds FSM duplicate pruning to IDA\* on a 4×4 board whose table estimate is at least
/// [`npuzzle::AUTO_FSM_MIN_ESTIMATE_4X4`] (60) and not on shallower ones, nor when a cycle
/// check is named: the automaton is loaded (here built and stored in the cache) for the first
/// only. The deep board is a position 80 moves from the goal, estimated at 62 by 4-4-4-3 with
/// reflection; a depth limit below that ends its search at once.
#[test]
fn auto_prunes_duplicates_on_deep_4x4_boards_only() {
    let groups = "1,2,3,4/5,6,7,8/9,10,11,12/13,14,15";
    let (dir, named) = (pdb_dir(), pdb_dir());
    let automaton = |d: &tempfile::TempDir| d.path().join("4x4-fsm-14.pdb");
    let solver = Config::new()
        .pdb(groups)
        .unwrap()
        .pdb_dir(dir.path())
        .build()
        .unwrap();
    let shallow = solver.solve_str("2348170c56ab9def").unwrap();
    assert_eq!((shallow.len(), shallow.lower_bound), (15, 15));
    assert!(!automaton(&dir).exists());
    let deep = &npuzzle_testsuite::antipodes80()[2];
    assert_eq!((deep.id.as_str(), deep.optimal), ("3", 80));
    let err = solver
        .solve_with(&deep.board, &solver.settings().max_depth(61))
        .unwrap_err();
    assert!(err.to_string().contains("at least 62"), "{err}");
    assert!(automaton(&dir).is_file());
    // A cycle check named: as asked, no automaton.
    let parent = Config::new()
        .pdb(groups)
        .unwrap()
        .pdb_dir(named.path())
        .cycle_check(npuzzle::CycleCheck::Parent)
        .build()
        .unwrap();
    let err = parent
        .solve_with(&deep.board, &parent.settings().max_depth(61))
        .unwrap_err();
    assert!(err.to_string().contains("at least 62"), "{err}");
    assert!(!automaton(&named).exists());
}

/// `max_nodes` is kept by every engine that counts nodes: a search that needs more stops with
/// `Limit::Nodes`, having generated at most the limit and one expansion's children (4 in STM;
/// in MTM, whose walk checks at each node it enters, the pruned siblings generated before the
/// next one: a few); an answer found comes within the limit too. Before, A\*, greedy, GBFHS,
/// weighted A\*, hill climbing, MTM IDA\*, every-optimal search and the partial-goal search
/// checked the limit only every 4,096 expansions (MTM and partial goals: generated nodes):
/// `max_nodes(10)` let greedy answer after 6,550 generated nodes.
#[test]
fn every_engine_keeps_the_node_limit() {
    use npuzzle::Metric;
    let board = "8 6 7 2 5 4 3 0 1"; // 31 moves, 28 in MTM
    let engines = [
        Engine::IdaStar,
        Engine::AStar,
        Engine::Bidirectional,
        Engine::WeightedAStar,
        Engine::Greedy,
        Engine::AStarIdaStar,
        Engine::HillClimbing,
    ];
    let judge = |what: &str, max: u64, slack: u64, r: Result<npuzzle::Answer, npuzzle::Error>| {
        match r {
            Ok(a) => {
                let generated = a.solution.as_ref().map_or(0, |s| s.stats.generated);
                assert!(
                    generated <= max + slack,
                    "{what}, {max}: answered after {generated}"
                );
            }
            Err(e) => {
                let Some((Limit::Nodes(m), progress)) = e.limit() else {
                    panic!("{what}, {max}: {e}");
                };
                assert_eq!(*m, max, "{what}");
                // Greedy search and hill climbing order by h alone: no f-bound to report.
                let start_estimate = matches!(what, "greedy" | "hill-climbing");
                assert_eq!(
                    progress.bound_kind == npuzzle::BoundKind::StartEstimate,
                    start_estimate,
                    "{what}: {e}"
                );
                assert_eq!(e.to_string().contains("f-bound"), !start_estimate, "{e}");
                assert!(
                    progress.generated <= max + slack,
                    "{what}, {max}: stopped after {} generated",
                    progress.generated
                );
            }
        }
    };
    for max in [10, 100, 1000] {
        for engine in engines {
            let npz = Config::new()
                .engine(engine)
                .heuristic(HeuristicKind::Manhattan)
                .threads(1)
                .max_nodes(max)
                .build()
                .unwrap();
            judge(engine.name(), max, 4, npz.solve_str(board));
        }
        let mtm = Config::new()
            .metric(Metric::Mtm)
            .heuristic(HeuristicKind::MtmManhattan)
            .threads(1)
            .max_nodes(max)
            .build()
            .unwrap();
        judge("mtm", max, 16, mtm.solve_str(board));
        let npz = Config::new()
            .heuristic(HeuristicKind::Manhattan)
            .threads(1)
            .build()
            .unwrap();
        let layout = npuzzle::parse_board(board, None).unwrap();
        let tight = npz.settings().max_nodes(max);
        let all = npz
            .all_optimal(&layout, 10, &tight)
            .map(|all| all.answer.clone());
        judge("all-optimal", max, 4, all);
        // A partial goal (the first row only): its own depth-first search, checked at the
        // first node it enters at the limit (before, every 4,096 nodes).
        let partial = Config::new()
            .goal("first-row")
            .unwrap()
            .threads(1)
            .max_nodes(max)
            .build()
            .unwrap();
        judge("partial", max, 4, partial.solve_str(board));
    }
}
