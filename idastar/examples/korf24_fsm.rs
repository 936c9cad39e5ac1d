//! Compares the IDA\* configurations of issue 23 on Korf's 24-puzzle instances
//! (`testdata/korf24_50.txt`, blank-first goal, 6-6-6-6 pattern databases with the reflected
//! lookup, packed board): plain IDA\*, IDA\* + FSM duplicate pruning at several depths, A\*+IDA\*,
//! and A\*+IDA\* + FSM, interleaved (A B A B …) so that load changes hit every configuration
//! alike. Automata are built before any timing (their build cost is printed once); each line
//! gives the length (checked against the file and replayed), generated nodes, wall seconds and
//! process CPU seconds of the search alone.
//!
//! ```text
//! NPUZZLE_PDB_DIR=/tmp/pdb24 cargo run --profile heavy -p npuzzle-idastar --example korf24_fsm -- \
//!     --threads 1 --repeat 2 --config parent,fsm12,fsm14,ai,ai-fsm14 40 38
//! ```
//! Configurations: `parent`, `fsmD` (IDA\* + automaton of depth D), `ai` (A\*+IDA\*, 1 GiB),
//! `ai-fsmD`, and `aiM-...` for a budget of M MiB (e.g. `ai256`, `ai256-fsm12`).

use std::process::ExitCode;
use std::time::Instant;

use npuzzle_core::{Board, Goal, Limits, Outcome, PackedBoard, Shape, Solver, verify};
use npuzzle_idastar::{AStarIdaStar, CycleCheck, Fsm, IdaStar};
use npuzzle_pdb::{BuildPolicy, Cache, PartitionSpec, PatternDb};

/// CPU seconds (user + system) of this process so far, from `/proc/self/stat` (Linux; 0 else).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of the whole line (utime, stime) are 11 and 12 after the ')'.
    (ticks(11) + ticks(12)) / 100.0
}

#[expect(
    clippy::too_many_lines,
    reason = "a measurement script: options, automata, then the interleaved runs"
)]
fn main() -> ExitCode {
    let mut threads = 1usize;
    let mut repeat = 1usize;
    let mut configs: Vec<String> = vec!["parent".into(), "fsm14".into()];
    let mut ids: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => threads = args.next().and_then(|v| v.parse().ok()).unwrap_or(1),
            "--repeat" => repeat = args.next().and_then(|v| v.parse().ok()).unwrap_or(1),
            "--config" => {
                configs = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .map(str::to_string)
                    .collect();
            }
            _ => ids.push(a),
        }
    }
    let shape = Shape::square(5).expect("5x5");
    let goal = Goal::blank_first(shape);
    let pdb = match Cache::locate(None).and_then(|cache| {
        PatternDb::open(
            &goal,
            &PartitionSpec::P6666,
            true,
            &cache,
            BuildPolicy::Always,
            &mut |_| {},
            &|_| {},
        )
    }) {
        Ok(p) => p.with_huge_pages().unwrap_or_else(|_| panic!("huge pages")),
        Err(e) => {
            eprintln!("korf24_fsm: {e}");
            return ExitCode::from(2);
        }
    };
    let parse_depth = |s: &str| s.parse::<u32>().ok();
    for c in &configs {
        if let Some(d) = c
            .rsplit("fsm")
            .next()
            .and_then(parse_depth)
            .filter(|_| c.contains("fsm"))
        {
            let (t, cpu) = (Instant::now(), cpu_seconds());
            let fsm = Fsm::cached(shape, d).expect("5x5 automaton");
            println!(
                "automaton depth {d}: {} patterns, {} states, {} bytes, built in {:.2} s wall {:.2} s CPU",
                fsm.patterns(),
                fsm.states(),
                fsm.bytes(),
                t.elapsed().as_secs_f64(),
                cpu_seconds() - cpu
            );
        }
    }
    let instances = npuzzle_testsuite::korf24();
    let mut ok = true;
    for id in &ids {
        let Some(inst) = instances.iter().find(|i| &i.id == id) else {
            eprintln!("korf24_fsm: no instance {id}");
            return ExitCode::from(2);
        };
        let board = PackedBoard::from_layout(&inst.board).expect("5x5");
        for _ in 0..repeat {
            for c in &configs {
                let fsm_depth = c
                    .rsplit("fsm")
                    .next()
                    .and_then(parse_depth)
                    .filter(|_| c.contains("fsm"));
                let (t, cpu) = (Instant::now(), cpu_seconds());
                let out = if let Some(rest) = c.strip_prefix("ai") {
                    let mib: u64 = rest
                        .split('-')
                        .next()
                        .and_then(|m| m.parse().ok())
                        .unwrap_or(1024);
                    AStarIdaStar::new()
                        .threads(threads)
                        .memory(mib << 20)
                        .duplicate_pruning(fsm_depth.is_some())
                        .fsm_depth(fsm_depth.unwrap_or(2))
                        .solve(&board, &goal, &pdb, &Limits::default())
                } else {
                    let mut e = IdaStar::new().threads(threads);
                    if let Some(d) = fsm_depth {
                        e = e.cycle_check(CycleCheck::Fsm).fsm_depth(d);
                    }
                    e.solve(&board, &goal, &pdb, &Limits::default())
                };
                let (wall, cpu) = (t.elapsed().as_secs_f64(), cpu_seconds() - cpu);
                match out {
                    Ok(Outcome::Solved(s)) => {
                        let good = verify(&inst.board, &s.moves, goal.layout()).is_ok()
                            && s.moves.len() as u32 == inst.optimal;
                        ok &= good;
                        println!(
                            "#{id} {c} threads {threads}: {} moves{}, {} generated, {} stored, {wall:.2} s wall, {cpu:.2} s CPU",
                            s.moves.len(),
                            if good { "" } else { " WRONG" },
                            s.stats.generated,
                            s.stats.stored_states
                        );
                    }
                    Ok(Outcome::Unsolvable(_)) => {
                        ok = false;
                        println!("#{id} {c}: called unsolvable");
                    }
                    Err(e) => {
                        ok = false;
                        println!("#{id} {c}: {e}");
                    }
                }
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
