//! Side by side: A* and the bidirectional engine (GBFHS) with the same heuristic on the same
//! instances, one run; prints a Markdown table row per instance and totals.
//!
//! `cargo run --release -p npuzzle-benches --example bidir_vs_astar -- SET HEURISTIC [MAX_IDA_NODES] [MEMORY_MIB]`
//!
//! - `SET`: `seed15` (blank-last goal) or `korf100` (blank-first goal).
//! - `HEURISTIC`: `manhattan`, `linear-conflict` or `zero`.
//! - `MAX_IDA_NODES`: with `korf100`, only the instances whose IDA* + Manhattan node count in
//!   Korf (1985) is at most this (the easier ones, which A* can hold in memory); default all.
//! - `MEMORY_MIB`: the memory limit of both engines (default: theirs, 4 GiB).
//!
//! Every solution is replayed with `npuzzle_core::verify` and its length checked against the
//! known optimum; a run stopped by a limit prints the limit instead.

use npuzzle_astar::AStar;
use npuzzle_bidirectional::Bidirectional;
use npuzzle_core::{
    BitBoard, Board, Heuristic, Limits, LinearConflict, Manhattan, Outcome, SearchError, Solver,
    Zero, verify,
};
use npuzzle_testsuite::{Instance, korf100, korf100_nodes, seed15};

/// One engine's figures on one instance, or the limit that stopped it.
struct Row {
    expanded: u64,
    seconds: f64,
    stored: u64,
    note: String,
}

fn run<S: Solver<BitBoard>, H: Heuristic<BitBoard>>(
    engine: &mut S,
    inst: &Instance,
    h: &H,
    limits: &Limits,
) -> Result<Row, String> {
    let b = BitBoard::from_layout(&inst.board).map_err(|e| e.to_string())?;
    match engine.solve(&b, &inst.goal, h, limits) {
        Ok(Outcome::Solved(s)) => {
            verify(&inst.board, &s.moves, inst.goal.layout()).map_err(|e| e.to_string())?;
            assert_eq!(s.moves.len() as u32, inst.optimal, "{}", inst.id);
            let note = s.stats.bidirectional.map_or(String::new(), |bi| {
                format!(
                    "{}/{} exp. F/B, meet {}+{}",
                    bi.forward_expanded,
                    bi.backward_expanded,
                    bi.meeting_g_forward,
                    bi.meeting_g_backward
                )
            });
            Ok(Row {
                expanded: s.stats.expanded,
                seconds: s.stats.seconds,
                stored: s.stats.stored_states,
                note,
            })
        }
        Ok(Outcome::Unsolvable(_)) => Err(format!("{} reported unsolvable", inst.id)),
        Err(SearchError::LimitReached { limit, progress }) => Err(format!(
            "stopped by the {limit} at bound {} with {} states",
            progress.bound, progress.stored_states
        )),
        Err(e) => Err(e.to_string()),
    }
}

fn table<H: Heuristic<BitBoard>>(
    instances: &[Instance],
    make: impl Fn(&npuzzle_core::Goal) -> H,
    limits: &Limits,
) {
    let mut astar = AStar::<BitBoard>::new();
    let mut bidir = Bidirectional::<BitBoard>::new();
    println!(
        "| instance | length | A* expanded | A* s | A* stored | bidir expanded | bidir s | bidir stored | bidir/A* expanded | bidir bytes/state | bidir detail |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let (mut ta, mut tb, mut sa, mut sb, mut fewer, mut n) = (0u64, 0u64, 0.0, 0.0, 0, 0);
    for inst in instances {
        let h = make(&inst.goal);
        let a = run(&mut astar, inst, &h, limits);
        astar.release_memory();
        let b = run(&mut bidir, inst, &h, limits);
        let bps = bidir.last_report().bytes_per_state();
        bidir.release_memory();
        match (a, b) {
            (Ok(a), Ok(b)) => {
                n += 1;
                ta += a.expanded;
                tb += b.expanded;
                sa += a.seconds;
                sb += b.seconds;
                fewer += usize::from(b.expanded < a.expanded);
                println!(
                    "| {} | {} | {} | {:.2} | {} | {} | {:.2} | {} | {:.2} | {:.1} | {} |",
                    inst.id,
                    inst.optimal,
                    a.expanded,
                    a.seconds,
                    a.stored,
                    b.expanded,
                    b.seconds,
                    b.stored,
                    b.expanded as f64 / a.expanded as f64,
                    bps,
                    b.note
                );
            }
            (a, b) => println!(
                "| {} | {} | {} | | | {} | | | | | |",
                inst.id,
                inst.optimal,
                a.map_or_else(|e| e, |a| a.expanded.to_string()),
                b.map_or_else(|e| e, |b| b.expanded.to_string()),
            ),
        }
    }
    println!(
        "\nBoth solved: {n}; bidirectional expanded fewer on {fewer}; total expanded A* {ta}, bidirectional {tb} (ratio {:.3}); total seconds A* {sa:.2}, bidirectional {sb:.2}",
        tb as f64 / ta.max(1) as f64
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bidir_vs_astar seed15|korf100 manhattan|linear-conflict|zero [MAX_IDA_NODES] [MEMORY_MIB]";
    let set = args.first().ok_or(usage)?;
    let heuristic = args.get(1).ok_or(usage)?;
    let max_nodes: u64 = args.get(2).map_or(Ok(u64::MAX), |s| s.parse())?;
    let limits = Limits {
        memory_bytes: args
            .get(3)
            .map(|m| m.parse::<u64>().map(|m| m << 20))
            .transpose()?,
        ..Limits::default()
    };
    let instances: Vec<Instance> = match set.as_str() {
        "seed15" => seed15(),
        "korf100" => {
            let nodes = korf100_nodes();
            korf100()
                .into_iter()
                .filter(|i| {
                    nodes
                        .iter()
                        .any(|&(id, _, _, n)| id.to_string() == i.id && n <= max_nodes)
                })
                .collect()
        }
        _ => return Err(usage.into()),
    };
    match heuristic.as_str() {
        "manhattan" => table(&instances, Manhattan::new, &limits),
        "linear-conflict" => table(&instances, LinearConflict::new, &limits),
        "zero" => table(&instances, |_| Zero, &limits),
        _ => return Err(usage.into()),
    }
    Ok(())
}
