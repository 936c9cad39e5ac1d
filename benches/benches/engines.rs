//! Engines × heuristics on the seed15 instances that take under a few seconds, and on the
//! hardest 8-puzzle positions. IDs: `instance/engine/heuristic`.
//!
//! `cargo bench -p npuzzle-benches` runs everything; `cargo bench -p npuzzle-benches -- idastar`
//! one engine.

#![expect(
    missing_docs,
    reason = "criterion_group! and criterion_main! generate undocumented items"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle_astar::AStar;
use npuzzle_benches::solve_exact;
use npuzzle_core::{BitBoard, Hamming, Heuristic, LinearConflict, Manhattan};
use npuzzle_idastar::IdaStar;
use npuzzle_testsuite::{Instance, eight31, seed15};

fn bench_one<H: Heuristic<BitBoard>>(
    c: &mut Criterion,
    inst: &Instance,
    name: &str,
    h: &H,
    astar: bool,
) {
    let id = &inst.id;
    c.bench_function(&format!("{id}/idastar/{name}"), |b| {
        let mut e = IdaStar::new();
        b.iter(|| solve_exact(&mut e, inst, h));
    });
    if astar {
        c.bench_function(&format!("{id}/astar/{name}"), |b| {
            let mut e = AStar::new();
            b.iter(|| solve_exact(&mut e, inst, h));
        });
    }
}

fn engines(c: &mut Criterion) {
    for inst in eight31().iter().take(2) {
        bench_one(c, inst, "manhattan", &Manhattan::new(&inst.goal), true);
        bench_one(
            c,
            inst,
            "linear-conflict",
            &LinearConflict::new(&inst.goal),
            true,
        );
    }
    for inst in seed15().iter().filter(|i| i.optimal <= 44) {
        let md = Manhattan::new(&inst.goal);
        let lc = LinearConflict::new(&inst.goal);
        // Manhattan distance on the 44-move instance takes too long for a bench loop.
        if inst.optimal <= 33 {
            bench_one(c, inst, "manhattan", &md, true);
        }
        bench_one(c, inst, "linear-conflict", &lc, true);
        if inst.optimal <= 15 {
            bench_one(c, inst, "hamming", &Hamming::new(&inst.goal), true);
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = engines
}
criterion_main!(benches);
