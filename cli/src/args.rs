//! Command-line arguments, as clap derive types: the bottom layer of the CLI, importing nothing
//! from the rest of it. Nothing here validates more than one option at a time: combining options
//! into something runnable is [`crate::plan`]'s job.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
pub use npuzzle::{Engine, EngineChoice, HeuristicKind};
use npuzzle_core::Shape;

/// The move notation, repeated wherever moves are explained (a macro so that `concat!` can use it).
macro_rules! move_notation {
    () => {
        "Moves are printed as letters U, D, L, R naming the direction in which the TILE slides into \
the blank: U = the tile below the blank moves up (so the blank moves down), D = the tile above \
the blank moves down, L = the tile right of the blank moves left, R = the tile left of the blank \
moves right."
    };
}

/// Top-level help shown after the list of subcommands.
const AFTER_HELP: &str = concat!(
    "Boards: a hex string, one digit a cell (2348170c56ab9def), or numbers separated by spaces \
or commas (\"8 6 7 2 5 4 3 0 1\"), row-major, 0 = the blank. Non-square boards need --size WxH \
unless given as rows.\n\n",
    move_notation!(),
    "\n\nExit status: 0 solved (or solvable), 1 proven unsolvable, 2 error (bad input, usage, \
limit reached), 130 interrupted by SIGINT (Ctrl-C) or SIGTERM (what was proven is on stderr)."
);

/// Optimal solver toolkit for sliding-tile puzzles (8-, 15-puzzle and any W×H board).
#[derive(Debug, Parser)]
#[command(name = "npuzzle", version, about, after_help = AFTER_HELP)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find optimal (shortest) solutions.
    #[command(after_help = SOLVE_AFTER_HELP)]
    Solve(SolveArgs),
    /// Say whether a board is solvable, with the parity argument and lower bounds.
    Check(CheckArgs),
    /// Print random solvable boards (uniform, or a random walk from the goal).
    Generate(GenerateArgs),
    /// Manage the pattern-database cache: build, list, verify, clear.
    Pdb(PdbArgs),
    /// Solve every instance of a benchmark file (Korf's 100, seed15, ...) with each engine ×
    /// heuristic, check every length against the file's, and summarise.
    #[command(after_help = BENCH_AFTER_HELP)]
    Bench(BenchArgs),
    /// Solve one board, then play the solution back on the terminal (plain frames when piped).
    #[command(after_help = PLAY_AFTER_HELP)]
    Play(PlayArgs),
    /// Serve the local web app: solve, animate, compare engines in a browser (JSON API included).
    #[command(after_help = SERVE_AFTER_HELP)]
    Serve(ServeArgs),
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell (install
    /// lines in the README, "Shell completions and the man page").
    Completions(CompletionsArgs),
    /// Print the man page (roff), e.g. `npuzzle man > ~/.local/share/man/man1/npuzzle.1`.
    Man,
}

/// Arguments of `npuzzle completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Help text after `npuzzle play --help`'s options.
const PLAY_AFTER_HELP: &str = concat!(
    "On a terminal the board is redrawn in place after each move, the moved tile highlighted, \
with the move counter and the move letters (the current one in brackets). Keys: space \
pause/resume (at the end: play again), left/right arrow one move back/forward, + / - faster / \
slower, q or Esc quit. When standard output is not a terminal, every board is printed instead, \
one grid per move after a caption line (`Move 3 of 31: L (tile 5 slides left)`), the blank as \
0. A board too large for the terminal is an error (exit status 2).\n\n\
With --metric mtm the solution is MTM-optimal and every step is one multi-tile move: a run of \
one direction sliding 1 to k tiles at once (`Move 4 of 20: L2 (tiles 5, 1 slide left)`), counted \
in MTM, written R2 (--notation counts, the default there) or RR (--notation letters).\n\n",
    move_notation!(),
    "\n\nExit status: 0 solved and played, 1 proven unsolvable, 2 error (bad input, usage, limit \
reached, board too large for the terminal)."
);

/// Arguments of `npuzzle play`: one board, the search options of `solve`, and the speed.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The board to solve and play back: hex (2348170c56ab9def) or a quoted number list
    /// ("8 6 7 2 5 4 3 0 1").
    #[arg(value_name = "BOARD")]
    pub board_text: String,

    /// Goal, shape, engine, heuristic, pattern databases and limits, as for solve.
    #[command(flatten)]
    pub search: SearchOptions,

    /// How moves are written: letters (RRUULDLD) or counts (R2U2LDLD, the speedsolving
    /// notation) [default: letters, counts with --metric mtm]. With --metric mtm each step of
    /// the playback is one MTM move (a run of one direction, R2 or RR).
    #[arg(long, value_enum)]
    pub notation: Option<NotationChoice>,

    /// Milliseconds between two moves at the start (+ and - change it while playing;
    /// 10 to 10000).
    #[arg(long, value_name = "MS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(10..=10_000))]
    pub delay: u64,
}

/// Help text after `npuzzle serve --help`'s options.
const SERVE_AFTER_HELP: &str = "\
Open http://127.0.0.1:8080/ (or the printed address) in a browser. The page and its API: POST \
/api/solve (the same JSON record as `npuzzle solve --format json`), GET /api/generate?size=4x4&seed=7 \
(or &walk=40), GET /api/engines, GET /api/status. Every asset is in the binary: no network needed. \
Every search has a time limit (the request's, default 10 s, at most --max-timeout); at most one \
search per core runs at a time; a client that disconnects cancels its search. Ctrl-C stops the \
server.";

/// Arguments of `npuzzle serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// TCP port (0: any free port; the address is printed).
    #[arg(long, short = 'p', default_value_t = 8080)]
    pub port: u16,

    /// Address to listen on. The default is reachable from this machine only; any other
    /// address lets anyone who can reach it run searches (a warning is printed).
    #[arg(long, value_name = "IP", default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,

    /// The largest time limit a request may ask for, in seconds (decimals allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = "60")]
    pub max_timeout: Duration,

    /// Pattern-database cache directory [default: `$NPUZZLE_PDB_DIR`, else the platform cache
    /// directory].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
}

/// Help text after `npuzzle bench --help`'s options.
const BENCH_AFTER_HELP: &str = "\
Instance files: one instance a line, `ID T0 .. T(N-1) LENGTH` (testdata/korf100.txt, \
korf24_50.txt, eight31.txt), `HEX LENGTH` (seed15.txt) or `ID HEX LENGTH`; `#` starts a comment \
line. LENGTH is the known optimal solution length for the goal given with --goal (the file's \
header says which: Korf's files use blank-first) in the metric given with --metric (the files in \
testdata/ give single-tile lengths; with --metric mtm give multi-tile-metric optima).

Every configuration (each --engine × each --heuristic) solves every instance; instances run in \
parallel on --jobs threads (--jobs 1 for clean timings). Every answer is replayed to the goal \
before it counts. Output: one JSON object per instance and configuration (its `length` and \
`known_optimal` in the record's `metric`), on standard output or in the --json file; then a \
Markdown summary table per configuration, its metric in a column (on standard error, or on \
standard output when --json names a file). A length that differs from the file's is printed on \
standard error as MISMATCH. Limits apply to each board; a limit reached is a failure, never \
'no solution'. --engine auto never falls back to the constructive solver here.

Exit status: 0 every instance solved with the file's length; 2 any mismatch, any failure (limit \
reached) or an error (bad file, bad options); 130 interrupted by SIGINT (Ctrl-C) or SIGTERM: the \
JSON lines written are complete, and the summary covers the finished boards.";

/// Arguments of `npuzzle bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// The instance file (see below for its forms).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Goal and board shape.
    #[command(flatten)]
    pub board: BoardOptions,

    /// Engine to run; repeat for several (each runs every instance) [default: auto].
    #[arg(long = "engine", short = 'e', value_parser = engine_parser(), value_name = "ENGINE")]
    pub engines: Vec<EngineChoice>,

    /// Heuristic; repeat for several [default: linear-conflict; mtm-pdb with --metric mtm].
    #[arg(long = "heuristic", short = 'H', value_parser = heuristic_parser(), value_name = "HEURISTIC")]
    pub heuristics: Vec<HeuristicKind>,

    /// Metric every board is solved and every length counted in: stm (every tile slid one
    /// cell is a move) or mtm (multi-tile metric: sliding 1..k tiles of the blank's row or
    /// column at once is one move; idastar and auto search MTM moves and prove the MTM
    /// optimum). The file's LENGTHs must be optima in this metric.
    #[arg(long, value_enum, default_value_t = MetricChoice::Stm)]
    pub metric: MetricChoice,

    /// Instances solved at the same time [default: the number of available cores]. A* and
    /// bidirectional search may use up to N times their memory limit.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub jobs: Option<u32>,

    /// Stop each board's search after this many seconds (decimals allowed): a failure.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout_per_board: Option<Duration>,

    /// Stop each board's search after generating this many nodes: a failure.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,

    /// Memory limit of each A* or bidirectional search, in bytes; binary K, M, G, T suffixes.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub memory_limit: Option<u64>,

    /// Weight W ≥ 1 of the weighted-astar engine (f = g + W·h) [default: 2].
    #[arg(long, value_name = "W")]
    pub weight: Option<f64>,

    /// IDA*'s threads per instance (0 = one per available core). --jobs instances run at the
    /// same time, each with --threads threads: keep jobs × threads at most the core count, e.g.
    /// --jobs N --threads 1 (the default: many instances side by side) or --jobs 1 --threads N
    /// (one instance at a time on all cores, for per-instance times). At most 1024.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Write the JSON lines to this file instead of standard output (the summary then goes to
    /// standard output).
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
}

/// Help text after `npuzzle solve --help`'s options.
const SOLVE_AFTER_HELP: &str = concat!(
    move_notation!(),
    "

Input: each BOARD argument is one board. With no arguments and no --file, boards are read from \
standard input: one board per line, or a board's rows on consecutive lines with a blank line \
between boards, or textbook files (a line with n, then n rows of n numbers).

Engines: idastar (IDA*: memory O(solution length); --cycle-check applies to it) and astar (A*: \
stores every state it meets; --memory-limit applies to it) and bidirectional (GBFHS: searches \
from the board and from the goal at once, stores every state like A*; --memory-limit applies to \
it; with --heuristic zero it is bidirectional breadth-first search) and astar-idastar (A* until \
--memory-limit, default 1 GiB, is nearly full, then IDA* below each open node; --threads and \
--cycle-check fsm apply to it) are optimal. --cycle-check fsm prunes duplicate paths with a \
finite-state machine over the moves (Taylor & Korf 1993). Boards of up to 127x127 \
are accepted; 17-25 cells run on the packed u128 board, larger ones on the generic Vec board. weighted-astar (--weight W) \
returns solutions at most W times the optimum; constructive (alias nxn) places tiles row by row \
and column by column and finishes on any board up to 127x127 in under a second, far from optimal. \
greedy (greedy best-first search: always expands the stored state of least h, never reopens; \
--memory-limit applies to it) is fast and long, never proven optimal. hill-climbing (the \
teaching notes' local search: the best unvisited neighbour by h, a random move from --seed \
when every neighbour is worse or already seen; capped by --max-steps and --memory-limit) is \
never proven optimal. --max-depth D stops idastar (and auto) once every solution is proven \
longer than D moves (exit 2, with the bound). --all-optimal [--limit K] lists every optimal \
solution and --count counts them (idastar or auto); --within K lists (or counts) every solution \
within K moves of the optimum; in both metrics (with --metric mtm, distinct sequences of MTM moves \
alternating axes, counted in MTM moves). \
auto picks idastar for boards of at most 16 cells, idastar for larger boards that are close to \
solved (linear-conflict bound at most 50, within a budget of 50 million generated nodes), and \
otherwise an anytime answer, saying so on stderr: the constructive solver, then beam searches of \
growing widths (64, 128, ...) with linear conflict on --threads threads for --anytime seconds \
(default 1; boards of at most 400 cells), each answer shortened by optimal windows, keeping the \
shortest answer and the heuristic's lower bound (engine beam, also --engine beam with \
--timeout); --optimal forbids answers that are not proven optimal \
(and refuses engine and heuristic pairs that do not prove it). Without --heuristic, auto searches with pattern databases on boards of at most \
16 cells (7-8 on 4x4 boards if its tables are cached by npuzzle pdb build --pdb 78, else the \
default partition, 7-6-2 on 4x4, built once on first use in about 30 s and cached) and with linear \
conflict on larger boards, except 17-25 cells (5x5, 4x6, ...), where it uses the default \
pattern databases (6-6-6-6 on 5x5) when they are cached (npuzzle pdb build --size 5x5; with \
--optimal they are built first), IDA* within 200 million generated nodes unless --optimal; an \
explicit engine defaults to linear-conflict. Every answer says \
whether it is proven optimal. Limits apply to each board \
separately; a limit reached is an error (exit 2), never 'no solution'.

Boards from standard input or --file are read as they come: each answer is written as soon as its \
board has arrived (a board of numbers on one line once the next line has, and the first answer once \
the second board has, to know whether there are several), in input order, in constant memory.

Exit status: 0 solved, 1 proven unsolvable, 2 error. With several boards: 2 if any board failed \
(bad board or limit reached), else 1 if any board is unsolvable, else 0. 130: interrupted by SIGINT \
(Ctrl-C) or SIGTERM; the search stops and stderr says what it proved (the f-bound reached, a lower \
bound on the optimal length for idastar, astar and bidirectional; nodes; seconds). A second signal, \
or one while waiting for input, ends the program at once (also 130)."
);

/// `--engine`'s values, from the library's registry (`npuzzle::registry`): `auto`, then every
/// engine with its aliases (`nxn` for `constructive`), each with the registry's summary as
/// its help; the names equal the engines' own `name()` strings and the bench IDs.
pub fn engine_parser() -> impl TypedValueParser<Value = EngineChoice> {
    let values = std::iter::once(PossibleValue::new("auto").help(EngineChoice::AUTO_SUMMARY))
        .chain(Engine::ALL.iter().map(|e| {
            let info = e.info();
            PossibleValue::new(info.name)
                .aliases(info.aliases.iter().copied())
                .help(info.summary)
        }));
    PossibleValuesParser::new(values)
        .map(|name| EngineChoice::from_name(&name).expect("the parser accepts registry names only"))
}

/// `--heuristic`'s values, from the library's registry: every heuristic with its summary and
/// declared properties.
pub fn heuristic_parser() -> impl TypedValueParser<Value = HeuristicKind> {
    let values = HeuristicKind::ALL.iter().map(|h| {
        let info = h.info();
        let props = if info.properties.consistent {
            "consistent"
        } else if info.properties.admissible {
            "admissible"
        } else {
            "not admissible"
        };
        PossibleValue::new(info.name).help(format!("{} ({props})", info.summary))
    });
    PossibleValuesParser::new(values).map(|name| {
        HeuristicKind::from_name(&name).expect("the parser accepts registry names only")
    })
}

/// How `solve` prints its answers (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SolveFormat {
    /// Human-readable: the moves and one line of search statistics.
    Text,
    /// One JSON object per board per line.
    Json,
    /// Textbook: `Minimum number of moves = N`, then every board of the solution as a grid.
    Boards,
}

/// How `solve` writes moves (`--notation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NotationChoice {
    /// One letter a single-tile move: RRUULDLD.
    Letters,
    /// The speedsolving notation, one letter a run with its length: R2U2LDLD.
    Counts,
}

impl NotationChoice {
    /// The notation of `--notation` (`chosen`), or its default in `metric`: letters in STM,
    /// counts (the speedsolvers' notation) in MTM.
    pub fn or_default(chosen: Option<NotationChoice>, metric: MetricChoice) -> npuzzle::Notation {
        chosen.map_or(
            match metric {
                MetricChoice::Stm => npuzzle::Notation::Letters,
                MetricChoice::Mtm => npuzzle::Notation::Counts,
            },
            Into::into,
        )
    }
}

impl From<NotationChoice> for npuzzle::Notation {
    fn from(n: NotationChoice) -> Self {
        match n {
            NotationChoice::Letters => npuzzle::Notation::Letters,
            NotationChoice::Counts => npuzzle::Notation::Counts,
        }
    }
}

/// The metric moves are counted in (`--metric`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MetricChoice {
    /// Single-tile metric: every tile slid one cell is a move.
    Stm,
    /// Multi-tile metric: sliding 1..k tiles of the blank's row or column at once is one move
    /// (the speedsolvers' metric).
    Mtm,
}

impl From<MetricChoice> for npuzzle::Metric {
    fn from(m: MetricChoice) -> Self {
        match m {
            MetricChoice::Stm => npuzzle::Metric::Stm,
            MetricChoice::Mtm => npuzzle::Metric::Mtm,
        }
    }
}

/// IDA*'s cycle check (`--cycle-check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CycleCheckChoice {
    /// Never undo the previous move (the default; fastest).
    Parent,
    /// Also refuse any state already on the current path (slower; for experiments).
    Path,
    /// Duplicate pruning with a finite-state machine over the moves (Taylor & Korf 1993):
    /// refuses every move string that a shorter or equally long one replaces.
    Fsm,
}

/// How `generate` prints boards (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenerateFormat {
    /// A hex string, one digit a cell (boards of at most 16 cells).
    Hex,
    /// One line of space-separated numbers.
    Line,
    /// One row per line, a blank line between boards.
    Grid,
    /// Slash rows, one board a line: `8 2 0/4 6 1/3 7 5` (the speedsolving notation).
    Slash,
}

/// Options shared by every subcommand that reads boards.
#[derive(Debug, Args)]
pub struct BoardOptions {
    /// Goal: blank-last (1 2 .. N-1 0), blank-first (0 1 .. N-1, Korf's convention) or an
    /// explicit goal board. `solve` and `check` also take a partial goal: a goal board with x
    /// (or ?, *, _) for each cell that does not matter, the blank fixed if 0 is written, else
    /// anywhere (`123xxxxxx`, "1 2 3 4 x x x x x x x x x x x x"), or first-row, first-rows:K,
    /// fringe.
    #[arg(long, value_name = "GOAL", default_value = "blank-last")]
    pub goal: String,

    /// Board shape, W columns by H rows (e.g. 4x3); needed for non-square boards given on one
    /// line.
    #[arg(long, value_name = "WxH")]
    pub size: Option<Shape>,
}

/// Arguments of `npuzzle solve`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("listing").args(["all_optimal", "within"]).multiple(true)))]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent command-line switches"
)]
pub struct SolveArgs {
    /// Boards to solve, one per argument: hex (2348170c56ab9def) or a quoted number list
    /// ("8 6 7 2 5 4 3 0 1") or slash rows ("8 6 7/2 5 4/3 0 1"). Without boards and --file,
    /// read standard input.
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,

    /// Read boards from this file instead (same formats as standard input).
    #[arg(long, short = 'f', value_name = "PATH", conflicts_with = "boards")]
    pub file: Option<PathBuf>,

    /// Goal, shape, engine, heuristic, pattern databases and limits.
    #[command(flatten)]
    pub search: SearchOptions,

    /// Do not use the pattern database's reflected lookup (about the main diagonal).
    #[arg(long)]
    pub no_reflect: bool,

    /// Output format.
    #[arg(long, value_enum, default_value_t = SolveFormat::Text)]
    pub format: SolveFormat,

    /// How text output writes the moves: letters (RRUULDLD) or counts (R2U2LDLD, the
    /// speedsolving notation: a run of one direction as its letter and length) [default:
    /// letters, counts with --metric mtm]. JSON output always has both strings.
    #[arg(long, value_enum)]
    pub notation: Option<NotationChoice>,

    /// IDA*'s cycle check [default: parent].
    #[arg(long, value_enum)]
    pub cycle_check: Option<CycleCheckChoice>,

    /// IDA*'s threads: 0 = one per available core (the default), 1 = the sequential engine
    /// (identical node counts run to run), at most 1024. Parallel IDA* returns an optimal answer
    /// of the same length; which one, when several exist, depends on timing unless
    /// --deterministic.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// With threads: return the same moves every run and for any thread count (the sequential
    /// engine's), at a small cost in the last iteration.
    #[arg(long)]
    pub deterministic: bool,
    /// List every optimal solution (distinct move sequences of the optimal length, from IDA*'s
    /// last iteration searched to the end with parent pruning), the first --limit of them,
    /// with their number. --engine idastar or auto only. With --metric mtm: distinct sequences
    /// of MTM moves (a direction and a count of tiles each), no two in a row along one axis,
    /// lengths in MTM moves.
    #[arg(long)]
    pub all_optimal: bool,
    /// With --all-optimal or --within: list at most K solutions (at least 1) [default: 1000];
    /// all are counted.
    #[arg(long, value_name = "K", requires = "listing",
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub limit: Option<u64>,
    /// Count the optimal solutions without listing them (JSON: `optimal_count`); with
    /// --within, count the solutions within K moves of the optimum. Slower than one solution:
    /// the whole last IDA* iteration, parent pruning only, one thread (11-24x the time of a
    /// plain solve on 4x4 boards of 65-80 moves).
    #[arg(long, conflicts_with = "limit")]
    pub count: bool,
    /// List every solution of at most the optimum + K moves (no move followed by its inverse;
    /// the goal reached at the end only), shortest first, the first --limit of them, with
    /// their number by length (JSON: `within_count`, `counts_by_length`, `solutions`). One
    /// more IDA* iteration, at threshold optimum + K, searched to the end: each 2 moves of K cost
    /// 3-4.6x the nodes (BENCHMARKS.md). --engine idastar or auto; not with --max-depth. In STM
    /// every solution has the optimum's parity (L, L+2, ...). With --metric mtm: MTM moves
    /// alternating axes (R2 R1 is the one move R3), the goal reached after the last move only,
    /// every length L, L+1, ... possible.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub within: Option<u32>,
    /// Time budget of auto's anytime answers on boards beyond optimal search (more than 16
    /// cells, far from solved): the constructive solver, then beam searches of growing widths
    /// on --threads threads for this long (boards of at most 400 cells), keeping the shortest
    /// answer; a longer budget runs the same beams and more, so it never answers longer
    /// [default: 1].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub anytime: Option<Duration>,
}

/// The search options `solve` and `play` share: the board's goal and shape, the engine, the
/// heuristic and its pattern databases, the limits, `--optimal` and weighted A\*'s weight.
#[derive(Debug, Args)]
pub struct SearchOptions {
    /// Goal and board shape.
    #[command(flatten)]
    pub board: BoardOptions,

    /// Search engine (see `npuzzle solve --help` for auto's rule).
    #[arg(long, short = 'e', value_parser = engine_parser(), default_value = "auto", value_name = "ENGINE")]
    pub engine: EngineChoice,

    /// Admissible heuristic [default: pdb with --engine auto, else linear-conflict].
    #[arg(long = "heuristic", short = 'H', value_parser = heuristic_parser(), value_name = "HEURISTIC")]
    pub heuristic: Option<HeuristicKind>,

    /// Pattern-database partition: 663, 555 or 78 (4x4 boards), default, or groups of tiles
    /// such as 1,2,3,4,5,6,7/8,9,10,11,12,13,14,15 [default: 663 on 4x4; with --engine auto,
    /// 78 if cached]. Implies --heuristic pdb.
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,

    /// Pattern-database cache directory [default: `$NPUZZLE_PDB_DIR`, else the platform cache
    /// directory, e.g. ~/.cache/npuzzle/pdb].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,

    /// Stop each search after generating this many nodes.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,

    /// Stop each search after this many seconds (decimals allowed, e.g. 0.5).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,

    /// Stop A*, bidirectional, weighted A* or greedy search when its stored states would use
    /// more than this many bytes; binary K, M, G, T suffixes (512M, 4G). IDA* stores no states.
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub memory_limit: Option<u64>,

    /// Accept only proven-optimal answers: auto never falls back to the constructive solver,
    /// and the non-optimal engines are refused.
    #[arg(long)]
    pub optimal: bool,

    /// Weight W ≥ 1 of weighted A* (f = g + W·h; answers at most W times the optimum); selects
    /// the weighted-astar engine when --engine is auto.
    #[arg(long, value_name = "W")]
    pub weight: Option<f64>,

    /// Metric: stm (every tile slid one cell is a move) or mtm (sliding 1..k tiles of the
    /// blank's row or column at once is one move). With mtm, idastar (and auto) search MTM
    /// moves with walking distance built in MTM (mtm-manhattan on boards above 16 cells or
    /// with a side above 6) and prove MTM optimality; other engines answer without that proof
    /// (--optimal refuses them).
    #[arg(long, value_enum, default_value_t = MetricChoice::Stm)]
    pub metric: MetricChoice,
    /// Depth limit of IDA* (--engine idastar, or auto, which then runs IDA*), in moves: a
    /// search that would need a threshold above D stops with exit status 2 and says so — no
    /// solution of at most D moves exists (proven), with the lower bound it proved.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,

    /// Seed of hill climbing's random moves (--engine hill-climbing) [default: 0].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Hill climbing's cap on steps, random moves included (--engine hill-climbing; at least
    /// 1) [default: 1000000]. Its visited record is capped by --memory-limit (default 1G).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

/// Arguments of `npuzzle check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The board: hex or a quoted number list. Without it, every board of --file or of standard
    /// input is checked, each answer written as soon as its board has been read.
    #[arg(value_name = "BOARD")]
    pub board: Option<String>,

    /// Read boards from this file instead (same formats as standard input).
    #[arg(long, short = 'f', value_name = "PATH", conflicts_with = "board")]
    pub file: Option<PathBuf>,

    /// Goal and board shape.
    #[command(flatten)]
    pub options: BoardOptions,

    /// Check this solution of BOARD instead: move letters U D L R (the direction the tile
    /// slides; case, spaces and commas ignored). Says whether every move is legal (else the
    /// first illegal one and why), whether it reaches the goal (else which cells are wrong),
    /// and its length against the optimum (computed by IDA* with linear conflict within
    /// --max-nodes, else against the proven lower bound, saying which). Exit status 0 if it
    /// solves the board, 1 if it does not, 2 on bad input.
    #[arg(long, value_name = "MOVES", requires = "board")]
    pub moves: Option<String>,

    /// With --moves: the node budget of the optimal search [default: 20000000].
    #[arg(long, value_name = "N", requires = "moves")]
    pub max_nodes: Option<u64>,

    /// With --moves: the metric the moves are counted and judged in: stm (every letter is a
    /// move) or mtm (multi-tile metric: a run of one letter, RRR, is one move; judged against
    /// the MTM optimum, found with the multi-tile pattern databases, built once when missing).
    #[arg(long, value_enum, default_value_t = MetricChoice::Stm, requires = "moves")]
    pub metric: MetricChoice,

    /// With --moves: output format.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text, requires = "moves")]
    pub format: CheckFormat,
}

/// How `check --moves` prints its judgement (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object (`npuzzle::check::SolutionCheck`).
    Json,
}

/// Arguments of `npuzzle generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Board shape, W columns by H rows (2..=127 each), e.g. 4x4.
    #[arg(long, value_name = "WxH")]
    pub size: Shape,

    /// How many boards (at most 10,000,000).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1)]
    pub count: u64,

    /// Seed of the random generator (ChaCha8): the same seed gives the same boards. Default: a
    /// fresh random seed.
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Instead of uniformly random solvable boards, walk K random moves from the goal (never
    /// undoing the previous move): the board is at most K moves from the goal. K is at most
    /// 10,000,000.
    #[arg(long, value_name = "K")]
    pub walk: Option<u64>,

    /// Goal the boards must be solvable for: blank-last, blank-first or an explicit board.
    #[arg(long, value_name = "GOAL", default_value = "blank-last")]
    pub goal: String,

    /// Output format [default: slash for boards that are not square, which solve and check
    /// read without --size; else hex for boards of at most 16 cells, line above].
    #[arg(long, value_enum)]
    pub format: Option<GenerateFormat>,
}

/// Arguments of `npuzzle pdb`.
#[derive(Debug, Args)]
pub struct PdbArgs {
    /// What to do with the cache.
    #[command(subcommand)]
    pub command: PdbCommand,

    /// Cache directory [default: `$NPUZZLE_PDB_DIR`, else the platform cache directory].
    #[arg(long, value_name = "DIR", global = true)]
    pub pdb_dir: Option<PathBuf>,
}

/// `npuzzle pdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdbCommand {
    /// Build (or check and keep) the tables of a partition for a shape and goal.
    Build {
        /// Partition: 663, 555, 78 (4x4), default, or groups of tiles (1,2,3/4,5,6).
        #[arg(long, value_name = "PARTITION", default_value = "default")]
        pdb: String,
        /// Board shape, W columns by H rows.
        #[arg(long, value_name = "WxH", default_value = "4x4")]
        size: Shape,
        /// Goal: blank-last, blank-first or an explicit goal board.
        #[arg(long, value_name = "GOAL", default_value = "blank-last")]
        goal: String,
        /// Build the zero-aware tables (for --heuristic zpdb; auto uses them on 5x5 when
        /// cached) and their region-coded forms instead of the plain ones.
        #[arg(long, conflicts_with = "metric")]
        zero_aware: bool,
        /// Metric of the tables: stm (additive pattern databases) or mtm (the multi-tile
        /// tables of --heuristic mtm-pdb, auto's pick with --metric mtm; --pdb default groups
        /// the goal rows farthest from the blank's: on 4x4 tiles 1-8 and 9-15, 247 MiB, ~40 s).
        #[arg(long, value_enum, default_value_t = MetricChoice::Stm)]
        metric: MetricChoice,
    },
    /// List the cached tables and duplicate-pruning automata.
    List,
    /// Fully check every cached table (header, length, checksum) and automaton (header,
    /// checksum, transitions); exit 2 if any is bad.
    Verify,
    /// Delete every cached table and automaton.
    Clear,
}

/// Parses a positive, finite number of seconds (`--timeout`).
fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds (e.g. 10 or 0.5)"))?;
    if !(v.is_finite() && v > 0.0) {
        return Err(format!(
            "{s:?}: the timeout must be a positive number of seconds"
        ));
    }
    Duration::try_from_secs_f64(v).map_err(|_| {
        format!(
            "{s:?}: the timeout is too long: at most {} seconds (about 585 billion years)",
            u64::MAX
        )
    })
}

/// Parses a byte count with an optional binary suffix: `4096`, `64K`, `512M`, `1.5G`, `2GiB`
/// (`--memory-limit`). K = 1024 bytes, M = 1024 K, and so on.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let bad = || {
        format!(
            "bad memory size {s:?}: expected a number of bytes with an optional binary suffix K, M, G or T (1K = 1024 bytes), e.g. 512M or 4G"
        )
    };
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let body = lower
        .strip_suffix("ib")
        .or_else(|| lower.strip_suffix('b'))
        .unwrap_or(&lower);
    let (number, shift) = match body.chars().last() {
        Some('k') => (&body[..body.len() - 1], 10),
        Some('m') => (&body[..body.len() - 1], 20),
        Some('g') => (&body[..body.len() - 1], 30),
        Some('t') => (&body[..body.len() - 1], 40),
        _ => (body, 0),
    };
    let number = number.trim();
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(bad());
    }
    if let Ok(n) = number.parse::<u64>() {
        return n.checked_mul(1 << shift).ok_or_else(bad);
    }
    let v: f64 = number.parse().map_err(|_| bad())?;
    let bytes = v * f64::from(1u32 << (shift / 2)) * f64::from(1u32 << (shift - shift / 2));
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bytes() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64K"), Ok(64 << 10));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("4G"), Ok(4 << 30));
        assert_eq!(parse_bytes("2GiB"), Ok(2 << 30));
        assert_eq!(parse_bytes("1.5g"), Ok(3 << 29));
        assert_eq!(parse_bytes("1T"), Ok(1 << 40));
        assert!(parse_bytes("").is_err());
        assert!(parse_bytes("M").is_err());
        assert!(parse_bytes("12X").is_err());
        assert!(parse_bytes("-5M").is_err());
        assert!(parse_bytes("99999999999999999999T").is_err());
    }

    #[test]
    fn seconds() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("inf").is_err());
        assert!(parse_seconds("soon").is_err());
        // Issue 26: not Rust's "cannot convert float seconds to Duration".
        assert_eq!(
            parse_seconds("1e308"),
            Err("\"1e308\": the timeout is too long: at most 18446744073709551615 seconds (about 585 billion years)".to_string())
        );
    }

    #[test]
    fn move_notation_is_in_help() {
        assert!(SOLVE_AFTER_HELP.contains("the TILE slides"));
        assert!(AFTER_HELP.contains("U = the tile below the blank moves up"));
    }
}
