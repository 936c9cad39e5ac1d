//! Lengths of the large-board engines on a `DeepCubeA` dev set (`testdata/deepcubea35_dev.txt`,
//! `deepcubea48_dev.txt`; lines `ID LENGTH GPU_SECONDS T0 .. T(N-1)`), against `DeepCubeA`'s.
//!
//! ```text
//! cargo run --profile heavy -p npuzzle-benches --example deepcubea -- FILE COUNT MODE
//! ```
//! MODE: `beam:W1,W2,..` (one beam search of each width, bounded by the constructive answer's
//! length, then shortening; `W@T` runs it on T threads; `rbeam:W1,..` the same on the
//! reversed instance, from the goal to the state, its answer reversed, ranked by the
//! heuristic for that goal (`Heuristic::for_goal`; linear conflict where it has none);
//! `DEEPCUBEA_CUBES=1`
//! breaks the beams' ties by cubed distances), `wastar:W1,W2,..`
//! (weighted A* at each weight, 60 s and 3 GiB each, then shortening) or
//! `anytime:SECONDS[:THREADS]` (the anytime beam search from the constructive answer). Prints
//! one line a state and the sum of the last mode's lengths against `DeepCubeA`'s. The heuristic
//! is linear conflict, or with `DEEPCUBEA_H=pdb` the cached default pattern databases of the
//! shape (tile-only tables maxed with linear conflict, `npuzzle_pdb::TileOnlyDb`; build them
//! with `npuzzle pdb build --size 7x7`). With `DEEPCUBEA_CORNER=N`, `anytime` runs the whole
//! engine (`AnytimeBeam`) with boards beyond N×N reduced to an N×N corner first. With
//! `DEEPCUBEA_SHORTEN=W:N,W:N,..` each answer gets further shortening passes after the usual one
//! (windows of W moves, N generated nodes a window), each pass's length and seconds printed;
//! `DEEPCUBEA_LEARNED=0` turns the learned ranking of the `anytime` mode off; with
//! `DEEPCUBEA_NODES` set, the `beam` and `rbeam` modes print the children each beam
//! generated (stderr).

use std::fmt::Write as _;
use std::sync::atomic::AtomicU32;
use std::time::{Duration, Instant};

use npuzzle_core::{
    Board, Goal, Heuristic, Layout, Limits, LinearConflict, Outcome, Shape, Solver, StopAt, verify,
};
use npuzzle_nxn::{Constructive, VecBoard, WeightedAStar};
use npuzzle_suboptimal::{AnytimeBeam, AnytimeOptions, BeamCounts, anytime, shorten};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    assert!(
        args.len() == 4,
        "usage: deepcubea FILE COUNT MODE (see the source)"
    );
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let count: usize = args[2].parse().expect("a count");
    let (mode, spec) = args[3].split_once(':').expect("MODE:VALUES");
    let (mut sum, mut theirs) = (0usize, 0usize);
    for line in text.lines().filter(|l| !l.starts_with('#')).take(count) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let cells: Vec<usize> = f[3..].iter().map(|t| t.parse().expect("a tile")).collect();
        let side = cells.len().isqrt();
        let shape = Shape::new(side, side).expect("a square board");
        let layout = Layout::new(shape, &cells).expect("a board");
        let goal = Goal::blank_last(shape);
        theirs += f[1].parse::<usize>().expect("a length");
        let mut out = format!("{} deepcubea={}", f[0], f[1]);
        let pdb = std::env::var("DEEPCUBEA_H").is_ok_and(|v| v == "pdb");
        let learned = std::env::var("DEEPCUBEA_H")
            .ok()
            .and_then(|v| v.strip_prefix("learned:").map(str::to_owned));
        let last = if let Some(file) = learned {
            let text = std::fs::read_to_string(&file).expect("a model file");
            let weights = npuzzle_suboptimal::RankingWeights::parse(&text).expect("a model");
            let ranking = npuzzle_suboptimal::LearnedRanking::new(&weights, &goal)
                .expect("the model's shape");
            one(&ranking, &layout, &goal, mode, spec, &mut out)
        } else if pdb {
            let cache = npuzzle_pdb::Cache::locate(None).expect("a cache directory");
            let db = npuzzle_pdb::TileOnlyDb::open(
                &goal,
                &npuzzle_pdb::PartitionSpec::Default,
                false,
                &cache,
                npuzzle_pdb::BuildPolicy::Never,
                &mut |_| {},
                &|_| {},
            )
            .expect("cached tables (npuzzle pdb build --size WxH)");
            one(&db, &layout, &goal, mode, spec, &mut out)
        } else {
            one(
                &LinearConflict::new(&goal),
                &layout,
                &goal,
                mode,
                spec,
                &mut out,
            )
        };
        sum += last;
        println!("{out}");
    }
    println!(
        "sum {sum}, DeepCubeA {theirs}: ratio {:.3}",
        sum as f64 / theirs as f64
    );
}

/// Runs every value of `mode` on one state with heuristic `h`, appending to `out`; returns the
/// last length.
fn one<H: Heuristic<VecBoard>>(
    h: &H,
    layout: &Layout,
    goal: &Goal,
    mode: &str,
    spec: &str,
    out: &mut String,
) -> usize {
    let b = VecBoard::from_layout(layout).expect("fits");
    {
        let mut last = 0;
        for value in spec.split(',') {
            let t = Instant::now();
            let moves = match mode {
                "beam" => beam_mode(h, layout, goal, value, false),
                "rbeam" => beam_mode(h, layout, goal, value, true),
                "wastar" => {
                    let limits = Limits {
                        memory_bytes: Some(3 << 30),
                        timeout: Some(Duration::from_mins(1)),
                        ..Limits::default()
                    };
                    match WeightedAStar::new(value.parse().expect("a weight"))
                        .expect("a weight")
                        .solve(&b, goal, h, &limits)
                    {
                        Ok(Outcome::Solved(s)) => Some(s.moves),
                        _ => None,
                    }
                }
                "anytime" => {
                    let (secs, threads) = value.split_once(':').unwrap_or((value, "2"));
                    let mut options = AnytimeOptions {
                        threads: threads.parse().expect("threads"),
                        ..AnytimeOptions::default()
                    };
                    if std::env::var("DEEPCUBEA_LEARNED").is_ok_and(|v| v == "0") {
                        options.learned = false;
                    }
                    if let Ok(w) = std::env::var("DEEPCUBEA_PORTFOLIO_WIDTH") {
                        options.portfolio_max_width = w.parse().expect("a width");
                    }
                    let limits = Limits {
                        timeout: Some(Duration::from_secs_f64(secs.parse().expect("seconds"))),
                        ..Limits::default()
                    };
                    if let Ok(c) = std::env::var("DEEPCUBEA_CORNER") {
                        // The whole engine, with boards beyond `c` reduced to a corner first.
                        options.corner = c.parse().expect("a corner side");
                        match (AnytimeBeam { options }).solve(&b, goal, h, &limits) {
                            Ok(Outcome::Solved(s)) => Some(s.moves),
                            _ => None,
                        }
                    } else {
                        let first = Constructive::solve_layout(layout, goal);
                        anytime(&b, goal, h, &first, &options, &limits)
                            .ok()
                            .map(|a| {
                                if std::env::var_os("DEEPCUBEA_LOG").is_some() {
                                    eprintln!("{}", a.log.join("\n"));
                                }
                                a.moves
                            })
                    }
                }
                _ => panic!("unknown mode {mode}"),
            };
            let searched = t.elapsed().as_secs_f64();
            let found = moves.as_ref().map_or(0, Vec::len);
            let short = moves.map(|m| shorten(&b, &m, 24, 50_000, &StopAt::never()));
            // DEEPCUBEA_SHORTEN=W:N,W:N,..: further shortening passes, windows of W moves with N
            // nodes each, applied in turn (their lengths and seconds printed).
            let short = short.map(|mut m| {
                if let Ok(spec) = std::env::var("DEEPCUBEA_SHORTEN") {
                    for pass in spec.split(',') {
                        let (w, nodes) = pass.split_once(':').expect("W:N");
                        let t = Instant::now();
                        m = shorten(
                            &b,
                            &m,
                            w.parse().expect("a window"),
                            nodes.parse().expect("nodes"),
                            &StopAt::never(),
                        );
                        let _ = write!(
                            out,
                            " [{pass}]={} ({:.2} s)",
                            m.len(),
                            t.elapsed().as_secs_f64()
                        );
                    }
                }
                m
            });
            if let Some(s) = &short {
                verify(layout, s, goal.layout()).expect("a solution");
            }
            last = short.as_ref().map_or(0, Vec::len);
            let _ = write!(
                out,
                " {mode}:{value}={found}->{last} ({:.2} s, search {searched:.2} s)",
                t.elapsed().as_secs_f64()
            );
        }
        last
    }
}

/// One beam search of `value` (`W` or `W@THREADS`) on `layout`, bounded by the constructive
/// answer's length (an unbounded narrow beam can wander without reaching the goal); with
/// `reversed`, on the reversed instance (from the goal to `layout`, linear conflict to
/// `layout`), its path reversed and each move inverted. Ties by squared distances, or cubed
/// ones with `DEEPCUBEA_CUBES` set.
fn beam_mode<H: Heuristic<VecBoard>>(
    h: &H,
    layout: &Layout,
    goal: &Goal,
    value: &str,
    reversed: bool,
) -> Option<Vec<npuzzle_core::Move>> {
    let (width, threads) = value.split_once('@').unwrap_or((value, "1"));
    let width = width.parse().expect("a width");
    let threads = threads.parse().expect("a thread count");
    let upper = AtomicU32::new(Constructive::solve_layout(layout, goal).len() as u32);
    let ties = if std::env::var_os("DEEPCUBEA_CUBES").is_some() {
        npuzzle_suboptimal::Ties::Cubes
    } else {
        npuzzle_suboptimal::Ties::Squares
    };
    let b = VecBoard::from_layout(layout).expect("fits");
    let g = VecBoard::from_layout(goal.layout()).expect("fits");
    let counts = BeamCounts::default();
    let reverse = |m: Vec<npuzzle_core::Move>| m.iter().rev().map(|x| x.inverse()).collect();
    let beam = (width, threads, ties);
    let start = Goal::custom(layout.clone());
    let found = if !reversed {
        run_beam((&b, &g, h), beam, &upper, &counts)
    } else if let Some(back) = h.for_goal(&start) {
        run_beam((&g, &b, &back), beam, &upper, &counts).map(reverse)
    } else {
        let back = LinearConflict::new(&start);
        run_beam((&g, &b, &back), beam, &upper, &counts).map(reverse)
    };
    if std::env::var_os("DEEPCUBEA_NODES").is_some() {
        eprintln!(
            "generated {}",
            counts.generated.load(std::sync::atomic::Ordering::Relaxed)
        );
    }
    found
}

/// One beam from `from` to `to`, ranked by `h` (widths, threads and ties in `beam`); `None`
/// when it ends without an answer.
fn run_beam<K: Heuristic<VecBoard>>(
    (from, to, h): (&VecBoard, &VecBoard, &K),
    (width, threads, ties): (usize, usize, npuzzle_suboptimal::Ties),
    upper: &AtomicU32,
    counts: &BeamCounts,
) -> Option<Vec<npuzzle_core::Move>> {
    npuzzle_suboptimal::beam_ties(
        from,
        &to.key(),
        h,
        width,
        threads,
        ties,
        upper,
        &|| false,
        counts,
    )
    .ok()
}
