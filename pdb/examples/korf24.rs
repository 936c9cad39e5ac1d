//! Solves instances of Korf's 24-puzzle set (`testdata/korf24_50.txt`, blank-first goal; an
//! argument that is not an ID is read as a 5×5 board) with
//! IDA* and additive pattern databases (6-6-6-6 with the reflected lookup by default), on core's
//! `PackedBoard` (or the Vec board of `npuzzle-nxn` with `--vec`), and prints one line per
//! instance: length, generated nodes, search seconds and nodes per second.
//!
//! ```text
//! NPUZZLE_PDB_DIR=/tmp/pdb24 cargo run --profile heavy -p npuzzle-pdb --example korf24 -- 40 38
//! options: --pdb SPEC (default 6666), --no-reflect, --vec, --dir DIR (else $NPUZZLE_PDB_DIR,
//!          else the platform cache), --repeat N (solve each instance N times),
//!          --no-bounded (always compute the reflected sum, to measure what the bounded
//!          update brings), --no-huge-pages (search the file mappings instead of copies in
//!          transparent huge pages)
//! ```
//!
//! Missing tables are built and stored in the cache directory first (6-6-6-6: four tables of
//! 121.6 MiB, about a minute each on one core, 1.1 GiB peak). Every solution is replayed with
//! `verify` and its length compared with the file's; a mismatch exits with status 1.

use std::path::PathBuf;
use std::process::ExitCode;

use npuzzle_core::{
    Board, Goal, Heuristic, Limits, Move, Outcome, PackedBoard, Shape, Solver, moves_to_string,
    verify,
};
use npuzzle_idastar::IdaStar;
use npuzzle_nxn::VecBoard;
use npuzzle_pdb::{BuildPolicy, Cache, Event, PartitionSpec, PatternDb, PdbMemo};

/// Which board type the search runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BoardKind {
    /// Core's `PackedBoard`.
    Packed,
    /// The Vec board of `npuzzle-nxn` (`--vec`).
    Vec,
}

/// Command-line options.
struct Options {
    dir: Option<PathBuf>,
    spec: PartitionSpec,
    reflect: bool,
    board: BoardKind,
    bounded: bool,
    huge_pages: bool,
    repeat: usize,
    ids: Vec<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        dir: None,
        spec: PartitionSpec::P6666,
        reflect: true,
        board: BoardKind::Packed,
        bounded: true,
        huge_pages: true,
        repeat: 1,
        ids: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--dir" => o.dir = Some(value()?.into()),
            "--pdb" => o.spec = value()?.parse().map_err(|e| format!("{e}"))?,
            "--no-reflect" => o.reflect = false,
            "--vec" => o.board = BoardKind::Vec,
            "--no-bounded" => o.bounded = false,
            "--no-huge-pages" => o.huge_pages = false,
            "--repeat" => o.repeat = value()?.parse().map_err(|e| format!("--repeat: {e}"))?,
            _ if a.starts_with('-') => return Err(format!("unknown option {a}")),
            _ => o.ids.push(a),
        }
    }
    if o.ids.is_empty() {
        o.ids.push("40".into());
    }
    Ok(o)
}

/// The pattern database with the bounded update switched off: every child's reflected sum is
/// computed (`--no-bounded`).
struct Unbounded<'a>(&'a PatternDb);

impl<B: Board> Heuristic<B> for Unbounded<'_> {
    type Memo = PdbMemo;

    fn name(&self) -> &'static str {
        "pdb"
    }

    fn properties(&self) -> npuzzle_core::HeuristicProperties {
        Heuristic::<B>::properties(self.0)
    }

    fn estimate(&self, board: &B) -> u32 {
        self.0.estimate(board)
    }

    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        self.0.update(board, h, m)
    }

    fn estimate_memo(&self, board: &B) -> (u32, PdbMemo) {
        self.0.estimate_memo(board)
    }

    #[inline]
    fn update_memo(&self, board: &B, h: u32, memo: &PdbMemo, m: Move) -> (u32, PdbMemo) {
        self.0.update_memo(board, h, memo, m)
    }

    // `update_memo_bounded`: the default, which calls `update_memo`.
}

/// Solves `start` on board type `B`; returns (length, generated, seconds).
fn run<B: Board, H: Heuristic<B>>(
    start: &npuzzle_core::Layout,
    goal: &Goal,
    h: &H,
) -> Result<(usize, u64, f64, String), String> {
    let board = B::from_layout(start).map_err(|e| e.to_string())?;
    match IdaStar::new()
        .solve(&board, goal, h, &Limits::default())
        .map_err(|e| e.to_string())?
    {
        Outcome::Solved(s) => {
            verify(start, &s.moves, goal.layout()).map_err(|e| e.to_string())?;
            Ok((
                s.moves.len(),
                s.stats.generated,
                s.stats.seconds,
                moves_to_string(&s.moves),
            ))
        }
        Outcome::Unsolvable(_) => Err("called unsolvable".into()),
    }
}

/// Locates the cache, opens (or builds) the tables and copies them into huge pages if asked.
fn open_pdb(o: &Options, goal: &Goal) -> Result<PatternDb, String> {
    let cache = Cache::locate(o.dir.as_deref()).map_err(|e| e.to_string())?;
    let start = std::time::Instant::now();
    let pdb = PatternDb::open(
        goal,
        &o.spec,
        o.reflect,
        &cache,
        BuildPolicy::Always,
        &mut |e| match e {
            Event::Building { tiles, entries, .. } => {
                eprintln!("building tiles {tiles:?}: {entries} entries");
            }
            Event::Built { tiles, seconds, .. } => {
                eprintln!("built tiles {tiles:?} in {seconds:.1} s");
            }
            _ => {}
        },
        &|_| {},
    )
    .map_err(|e| e.to_string())?;
    let pdb = if o.huge_pages {
        pdb.with_huge_pages().map_err(|e| e.to_string())?
    } else {
        pdb
    };
    eprintln!(
        "pdb {} ({} MiB, reflect: {}, huge pages: {}) ready in {:.2} s from {}",
        pdb.partition(),
        pdb.table_bytes() >> 20,
        pdb.reflects(),
        o.huge_pages,
        start.elapsed().as_secs_f64(),
        cache.dir().display()
    );
    Ok(pdb)
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("korf24: {e}");
            return ExitCode::from(2);
        }
    };
    let goal = Goal::blank_first(Shape::square(5).expect("5x5"));
    let pdb = match open_pdb(&o, &goal) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("korf24: {e}");
            return ExitCode::from(2);
        }
    };
    let instances = npuzzle_testsuite::korf24();
    let mut ok = true;
    for id in &o.ids {
        // An instance ID, or a whole board (25 numbers), whose optimal length is not known.
        let (board, optimal) = match instances.iter().find(|i| &i.id == id) {
            Some(inst) => (inst.board.clone(), Some(inst.optimal as usize)),
            None => match npuzzle_core::parse_board(id, Some(goal.shape())) {
                Ok(b) => (b, None),
                Err(e) => {
                    eprintln!("korf24: {id:?} is neither an instance ID (1..50) nor a board: {e}");
                    return ExitCode::from(2);
                }
            },
        };
        let unbounded = Unbounded(&pdb);
        for _ in 0..o.repeat {
            let r = match (o.board, o.bounded) {
                (BoardKind::Packed, true) => run::<PackedBoard, _>(&board, &goal, &pdb),
                (BoardKind::Packed, false) => run::<PackedBoard, _>(&board, &goal, &unbounded),
                (BoardKind::Vec, true) => run::<VecBoard, _>(&board, &goal, &pdb),
                (BoardKind::Vec, false) => run::<VecBoard, _>(&board, &goal, &unbounded),
            };
            match r {
                Ok((len, generated, seconds, moves)) => {
                    let matches = optimal.is_none_or(|o| o == len);
                    ok &= matches;
                    println!(
                        "#{id}: {len} moves ({}), {generated} generated, {seconds:.3} s, {:.2} M nodes/s, board {}, bounded {}, huge pages {}: {moves}",
                        match (optimal, matches) {
                            (None, _) => "optimal",
                            (Some(_), true) => "= optimal",
                            (Some(_), false) => "MISMATCH",
                        },
                        generated as f64 / seconds / 1e6,
                        if o.board == BoardKind::Vec {
                            "vec"
                        } else {
                            "packed"
                        },
                        o.bounded,
                        o.huge_pages,
                    );
                }
                Err(e) => {
                    eprintln!("korf24: #{id}: {e}");
                    return ExitCode::from(2);
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
