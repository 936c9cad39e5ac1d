//! Every engine × heuristic × board type on fixed tiers of the repository's instance files (via
//! `npuzzle-testsuite`, which embeds them), plus 5×5 random walks and the constructive solver on
//! large random boards, and greedy best-first search (no bound: its own deterministic length).
//!
//! IDs are `instance/engine/heuristic`; a `/vec-board` suffix marks the generic Vec board
//! (`npuzzle_nxn::VecBoard`) on an instance the `u64` bitboard also runs. Every timed solve
//! asserts the known optimal length (engines that do not prove optimality: the bounds they
//! promise), so a fast wrong engine fails instead of winning.
//!
//! Tiers (each a criterion group per instance, sized so that the whole default run takes about
//! 10 minutes on a 2-core machine):
//! - `A31_1`, `K31_1`: the hardest 8-puzzle positions (31 moves; blank-last and blank-first goal);
//! - seed15: the instances of at most 44 moves (blank-last goal);
//! - `korf-N`: the five easiest of Korf's 100 (by Korf's 1985 IDA* node counts) and instance 2;
//! - `5x5-walkK-sS`: random walks on the 5×5 board (Vec board only), optimum found before timing;
//! - `random-WxH`: the constructive solver on random 50×50 and 127×127 boards.
//!
//! `cargo bench -p npuzzle-benches` runs everything; `cargo bench -p npuzzle-benches -- astar`
//! runs one engine (an argument that is exactly an engine name selects the IDs whose engine part
//! is that name, so `astar` leaves out `idastar`); any other filter is criterion's usual regex.

use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode};
use npuzzle_astar::{AStar, Greedy};
use npuzzle_benches::{
    Case, random_solvable, random_walk, solution_moves, solve_bounded, solve_exact_case,
};
use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{
    BitBoard, Board, Goal, Hamming, Heuristic, LinearConflict, Manhattan, Shape, Zero, verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_nxn::{Constructive, VecBoard, WeightedAStar};
use npuzzle_testsuite::{Instance, eight31, korf100, seed15};
// Heuristic names in bench IDs come from the facade's registry.
use npuzzle::HeuristicKind as Kind;

/// The engine names, from the facade's registry (`--engine`, the engines' `name()`).
fn engine_names() -> impl Iterator<Item = &'static str> {
    npuzzle::Engine::ALL.into_iter().map(npuzzle::Engine::name)
}

/// The optimal engines.
#[derive(Clone, Copy, Debug)]
enum Engine {
    Ida,
    AStar,
    Bidir,
}

impl Engine {
    /// The registry's name of the engine.
    fn name(self) -> &'static str {
        match self {
            Engine::Ida => npuzzle::Engine::IdaStar,
            Engine::AStar => npuzzle::Engine::AStar,
            Engine::Bidir => npuzzle::Engine::Bidirectional,
        }
        .name()
    }
}

/// The admissible heuristics.
#[derive(Clone, Copy, Debug)]
enum H {
    Md,
    Lc,
    Ham,
    Zero,
}

use Engine::{AStar as A, Bidir as B, Ida as I};
use H::{Ham, Lc, Md, Zero as Z};

/// How long a group measures.
#[derive(Clone, Copy, Debug)]
enum Speed {
    /// Milliseconds per solve: criterion's linear sampling, short warm-up and measurement.
    Fast,
    /// A tenth of a second or more per solve: flat sampling, 10 samples of one solve or a few.
    Slow,
}

fn group<'a>(c: &'a mut Criterion, id: &str, speed: Speed) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(id);
    g.sample_size(10);
    match speed {
        Speed::Fast => {
            g.warm_up_time(Duration::from_millis(300));
            g.measurement_time(Duration::from_millis(700));
        }
        Speed::Slow => {
            g.sampling_mode(SamplingMode::Flat);
            g.warm_up_time(Duration::from_millis(100));
            g.measurement_time(Duration::from_secs(1));
        }
    }
    g
}

/// Benches `case` with each (engine, heuristic) of `set`; `suffix` is appended to the IDs.
fn run_set<Bd: Board>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    case: &Case<Bd>,
    suffix: &str,
    set: &[(Engine, H)],
) {
    for &(e, h) in set {
        match h {
            Md => run(
                g,
                case,
                suffix,
                e,
                Kind::Manhattan.name(),
                &Manhattan::new(&case.goal),
            ),
            Lc => run(
                g,
                case,
                suffix,
                e,
                Kind::LinearConflict.name(),
                &LinearConflict::new(&case.goal),
            ),
            Ham => run(
                g,
                case,
                suffix,
                e,
                Kind::Hamming.name(),
                &Hamming::new(&case.goal),
            ),
            Z => run(g, case, suffix, e, Kind::Zero.name(), &Zero),
        }
    }
}

fn run<Bd: Board, Hr: Heuristic<Bd>>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    case: &Case<Bd>,
    suffix: &str,
    e: Engine,
    h_name: &str,
    h: &Hr,
) {
    let id = format!("{}/{h_name}{suffix}", e.name());
    match e {
        Engine::Ida => {
            let mut s = IdaStar::new();
            g.bench_function(id, |b| b.iter(|| solve_exact_case(&mut s, case, h)));
        }
        Engine::AStar => {
            let mut s = AStar::new();
            g.bench_function(id, |b| b.iter(|| solve_exact_case(&mut s, case, h)));
        }
        Engine::Bidir => {
            let mut s = Bidirectional::new();
            g.bench_function(id, |b| b.iter(|| solve_exact_case(&mut s, case, h)));
        }
    }
}

/// Greedy best-first search on `case` with Manhattan distance and linear conflict (IDs
/// `greedy/HEURISTIC{suffix}`). It proves no bound, but it is deterministic: its answer is found
/// and replayed once before timing, and every timed solve asserts `optimum <= length <= that
/// length`.
fn greedy_set<Bd: Board>(g: &mut BenchmarkGroup<'_, WallTime>, case: &Case<Bd>, suffix: &str) {
    let md = Manhattan::new(&case.goal);
    let lc = LinearConflict::new(&case.goal);
    greedy_one(g, case, suffix, Kind::Manhattan.name(), &md);
    greedy_one(g, case, suffix, Kind::LinearConflict.name(), &lc);
}

fn greedy_one<Bd: Board, Hr: Heuristic<Bd>>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    case: &Case<Bd>,
    suffix: &str,
    h_name: &str,
    h: &Hr,
) {
    let mut s = Greedy::new();
    let moves = solution_moves(&mut s, case, h);
    let start = case.board.to_layout();
    verify(&start, &moves, case.goal.layout()).expect("greedy's answer replays");
    let bound = moves.len() as u32;
    g.bench_function(format!("greedy/{h_name}{suffix}"), |b| {
        b.iter(|| solve_bounded(&mut s, case, h, bound));
    });
}

/// The bitboard case and the Vec board case of a test-suite instance.
fn cases(inst: &Instance) -> (Case<BitBoard>, Case<VecBoard>) {
    (Case::from_instance(inst), Case::from_instance(inst))
}

/// The hardest 8-puzzle positions, one per goal convention: every engine × heuristic (IDA*
/// without a heuristic would take seconds), and the Vec board with linear conflict.
fn eight_puzzle(c: &mut Criterion) {
    for inst in eight31()
        .iter()
        .filter(|i| i.id == "A31_1" || i.id == "K31_1")
    {
        let (bit, vec) = cases(inst);
        let mut g = group(c, &inst.id, Speed::Fast);
        let set = [
            (I, Md),
            (I, Lc),
            (I, Ham),
            (A, Md),
            (A, Lc),
            (A, Ham),
            (A, Z),
            (B, Md),
            (B, Lc),
            (B, Ham),
            (B, Z),
        ];
        run_set(&mut g, &bit, "", &set);
        run_set(&mut g, &vec, "/vec-board", &[(I, Lc), (A, Lc), (B, Lc)]);
        greedy_set(&mut g, &bit, "");
        greedy_set(&mut g, &vec, "/vec-board");
        g.finish();
    }
}

/// The seed15 instances of at most 44 moves. Manhattan distance up to 33 moves, Hamming up to
/// 15, brute force (bidirectional breadth-first search) up to 25; the Vec board with IDA*.
fn seed15_tier(c: &mut Criterion) {
    for inst in seed15().iter().filter(|i| i.optimal <= 44) {
        let (bit, vec) = cases(inst);
        let mut set = vec![(I, Lc), (A, Lc), (B, Lc)];
        if inst.optimal <= 33 {
            set.extend([(I, Md), (A, Md), (B, Md)]);
        }
        if inst.optimal <= 15 {
            set.extend([(I, Ham), (A, Ham), (B, Ham)]);
        }
        if inst.optimal <= 25 {
            set.push((B, Z));
        }
        let speed = if inst.optimal >= 44 {
            Speed::Slow
        } else {
            Speed::Fast
        };
        let mut g = group(c, &inst.id, speed);
        run_set(&mut g, &bit, "", &set);
        run_set(&mut g, &vec, "/vec-board", &[(I, Lc)]);
        g.finish();
    }
}

/// The five easiest of Korf's 100 (fewest IDA* + Manhattan nodes in Korf 1985: instances 79,
/// 12, 42, 55, 97; 41 to 45 moves) with every optimal engine, and instance 2 (55 moves) with
/// IDA* and linear conflict.
fn korf_tier(c: &mut Criterion) {
    let all = korf100();
    for id in ["79", "12", "42", "55", "97"] {
        let inst = all.iter().find(|i| i.id == id).expect("in Korf's 100");
        let (bit, vec) = cases(inst);
        let mut g = group(c, &format!("korf-{id}"), Speed::Fast);
        run_set(
            &mut g,
            &bit,
            "",
            &[(I, Md), (I, Lc), (A, Md), (A, Lc), (B, Md), (B, Lc)],
        );
        run_set(&mut g, &vec, "/vec-board", &[(I, Lc)]);
        greedy_set(&mut g, &bit, "");
        g.finish();
    }
    let inst = all.iter().find(|i| i.id == "2").expect("in Korf's 100");
    let bit: Case<BitBoard> = Case::from_instance(inst);
    let mut g = group(c, "korf-2", Speed::Slow);
    run_set(&mut g, &bit, "", &[(I, Lc)]);
    g.finish();
}

/// Additive pattern databases (6-6-3 with the reflected lookup, built once into a temporary
/// cache before timing, seconds): one evaluation from scratch (`pdb-lookup/estimate`), and IDA*,
/// A* and the bidirectional engine on the five easiest of Korf's 100 plus IDA* on Korf's #2
/// and the seed15 instances of 44 to 58 moves. IDs `instance/engine/pdb-663`.
fn pdb_tier(c: &mut Criterion) {
    use npuzzle_pdb::{BuildPolicy, Cache, PartitionSpec, PatternDb};
    let dir = tempfile::tempdir().expect("a temporary directory");
    let cache = Cache::new(dir.path());
    let open = |goal: &Goal| {
        PatternDb::open(
            goal,
            &PartitionSpec::P663,
            true,
            &cache,
            BuildPolicy::Always,
            &mut |_| {},
            &|_| {},
        )
        .expect("6-6-3 builds")
    };
    let all = korf100();
    let korf_goal = all[0].goal.clone();
    let pdb = open(&korf_goal);
    let board = BitBoard::from_layout(&all[1].board).expect("4x4");
    let mut g = group(c, "pdb-lookup", Speed::Fast);
    g.bench_function("estimate", |b| {
        b.iter(|| Heuristic::<BitBoard>::estimate(&pdb, std::hint::black_box(&board)));
    });
    g.finish();
    for id in ["79", "12", "42", "55", "97", "2"] {
        let inst = all.iter().find(|i| i.id == id).expect("in Korf's 100");
        let bit: Case<BitBoard> = Case::from_instance(inst);
        let mut g = group(c, &format!("korf-{id}"), Speed::Fast);
        run(&mut g, &bit, "", I, "pdb-663", &pdb);
        if id != "2" {
            run(&mut g, &bit, "", A, "pdb-663", &pdb);
            run(&mut g, &bit, "", B, "pdb-663", &pdb);
        }
        g.finish();
    }
    let seeds = seed15();
    let seed_pdb = open(&seeds[0].goal);
    for inst in seeds.iter().filter(|i| (44..=58).contains(&i.optimal)) {
        let bit: Case<BitBoard> = Case::from_instance(inst);
        let mut g = group(c, &inst.id, Speed::Slow);
        run(&mut g, &bit, "", I, "pdb-663", &seed_pdb);
        g.finish();
    }
}

/// 5×5 boards a random walk away from the goal (Vec board only: 25 cells do not fit the
/// bitboard). The optimum is found once before timing by IDA* and checked by A*; weighted A*
/// (weight 2) is timed against its promise, at most twice the optimum.
fn walks_5x5(c: &mut Criterion) {
    let goal = Goal::blank_last(Shape::square(5).expect("5x5"));
    // Walks whose optimum every engine finds in well under a second (A* + Manhattan on the
    // 50-move walk is the slowest, about 0.1 s).
    for (k, seed, speed) in [
        (30, 1, Speed::Fast),
        (40, 1, Speed::Fast),
        (50, 2, Speed::Slow),
    ] {
        let layout = random_walk(&goal, k, seed);
        let lc = LinearConflict::new(&goal);
        let mut case: Case<VecBoard> = Case::new("", &layout, goal.clone(), 0);
        let moves = solution_moves(&mut IdaStar::new(), &case, &lc);
        verify(&layout, &moves, goal.layout()).expect("IDA*'s answer replays");
        case.optimal = moves.len() as u32;
        case.id = format!("5x5-walk{k}-s{seed}-{}", case.optimal);
        assert_eq!(
            solution_moves(&mut AStar::new(), &case, &lc).len(),
            moves.len(),
            "A* and IDA* disagree on {}",
            case.id
        );
        let mut g = group(c, &case.id, speed);
        run_set(
            &mut g,
            &case,
            "",
            &[(I, Md), (I, Lc), (A, Md), (A, Lc), (B, Md), (B, Lc)],
        );
        let mut w = WeightedAStar::new(2.0).expect("weight 2 is valid");
        g.bench_function("weighted-astar/linear-conflict", |b| {
            b.iter(|| solve_bounded(&mut w, &case, &lc, 2 * case.optimal));
        });
        greedy_set(&mut g, &case, "");
        g.finish();
    }
}

/// The constructive solver on random solvable 50×50 and 127×127 boards: its length is at least
/// the Manhattan bound (and, as a sanity bound, at most 10 times it); every answer is replayed
/// once before timing.
fn constructive(c: &mut Criterion) {
    for side in [50, 127] {
        let goal = Goal::blank_last(Shape::square(side).expect("square"));
        let layout = random_solvable(&goal, side as u64);
        let mut case: Case<VecBoard> = Case::new("", &layout, goal.clone(), 0);
        case.optimal = Manhattan::new(&goal).estimate(&case.board);
        case.id = format!("random-{side}x{side}");
        let moves = solution_moves(&mut Constructive::new(), &case, &Zero);
        verify(&layout, &moves, goal.layout()).expect("the constructive answer replays");
        let mut g = group(c, &case.id, Speed::Slow);
        let mut s = Constructive::new();
        g.bench_function("constructive/zero", |b| {
            b.iter(|| solve_bounded(&mut s, &case, &Zero, 10 * case.optimal));
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    // `cargo bench -- astar`: exactly an engine's name selects that engine's IDs only.
    if let Some(engine) = std::env::args()
        .skip(1)
        .find(|a| engine_names().any(|e| e == a.as_str()))
    {
        c = c.with_filter(format!("/{}/", regex_escape(&engine)));
    }
    eight_puzzle(&mut c);
    seed15_tier(&mut c);
    korf_tier(&mut c);
    pdb_tier(&mut c);
    walks_5x5(&mut c);
    constructive(&mut c);
    c.final_summary();
}

/// Engine names hold only letters and `-`, which need no escaping; kept explicit for safety.
fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|ch| {
            let special = !(ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
            special
                .then_some('\\')
                .into_iter()
                .chain(std::iter::once(ch))
        })
        .collect()
}
