//! Pattern databases in the CLI: `npuzzle pdb build|list|verify|clear`, and loading (or
//! building) the tables that `solve --heuristic pdb` and `--engine auto` use.
//!
//! Tables live in the cache directory: `--pdb-dir`, else `$NPUZZLE_PDB_DIR`, else the platform
//! cache directory (`~/.cache/npuzzle/pdb` on Linux). Every build states its size and peak
//! memory on stderr first, and shows a progress bar when stderr is a terminal.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle_core::{BitBoard, Board, Goal, GoalKind, Heuristic, Layout, Move, Shape, human_bytes};
use npuzzle_pdb::{
    BuildPolicy, BuildProgress, Cache, Event, PartitionSpec, PatternDb, TableKey, format_groups,
};

use crate::Status;
use crate::plan::parse_goal;

/// Tables of at most this many entries are built without being asked for (`--engine auto`):
/// a 6-tile table of the 15-puzzle (5.8 M entries) takes seconds.
pub const CHEAP_ENTRIES: u64 = 16_000_000;

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
    },
    /// List the cached tables.
    List,
    /// Fully check every cached table (header, length, checksum); exit 2 if any is bad.
    Verify,
    /// Delete every cached table.
    Clear,
}

/// What `solve` needs to open pattern databases.
#[derive(Clone, Debug)]
pub struct PdbPlan {
    /// The partition asked for; `None` = pick (auto: 7-8 if cached, else 6-6-3 on 4×4).
    pub spec: Option<PartitionSpec>,
    /// `--pdb-dir`.
    pub dir: Option<PathBuf>,
    /// Use the reflected lookup where valid.
    pub reflect: bool,
    /// Build missing tables of any size (an explicit `--heuristic pdb`), or only cheap ones.
    pub build_any: bool,
}

/// A pattern database shared between the boards of one run.
#[derive(Clone, Debug)]
pub struct SharedPdb(Arc<PatternDb>);

impl<B: Board> Heuristic<B> for SharedPdb {
    fn name(&self) -> &'static str {
        Heuristic::<B>::name(&*self.0)
    }

    fn estimate(&self, board: &B) -> u32 {
        self.0.estimate(board)
    }

    #[inline]
    fn update(&self, board: &B, h: u32, m: Move) -> u32 {
        self.0.update(board, h, m)
    }

    type Memo = <PatternDb as Heuristic<B>>::Memo;

    fn estimate_memo(&self, board: &B) -> (u32, Self::Memo) {
        self.0.estimate_memo(board)
    }

    #[inline]
    fn update_memo(&self, board: &B, h: u32, memo: &Self::Memo, m: Move) -> (u32, Self::Memo) {
        self.0.update_memo(board, h, memo, m)
    }
}

/// The databases of one run, one per board shape.
#[derive(Debug, Default)]
pub struct Databases {
    by_shape: HashMap<Shape, SharedPdb>,
}

impl Databases {
    /// The database for `shape`, if [`open_for`] opened one.
    pub fn get(&self, shape: Shape) -> Option<SharedPdb> {
        self.by_shape.get(&shape).cloned()
    }
}

/// Opens the databases for every shape among `boards`: every shape when the pattern databases
/// were asked for (`--heuristic pdb` or `--pdb`), else (auto's choice) only shapes of at most 16
/// cells, the others being searched with linear conflict.
///
/// # Errors
/// A bad partition for some shape, an unusable cache directory, a table that may not be built
/// implicitly, or a build failure.
pub fn open_for(plan: &PdbPlan, goal: &GoalKind, boards: &[Layout]) -> Result<Databases> {
    let cache = Cache::locate(plan.dir.as_deref())?;
    let mut dbs = Databases::default();
    for layout in boards {
        let shape = layout.shape();
        let implicit_and_large = !plan.build_any && shape.cells() > BitBoard::MAX_CELLS;
        if implicit_and_large || dbs.by_shape.contains_key(&shape) {
            continue;
        }
        // A board whose shape does not fit the goal fails on its own, later, with that error.
        let Ok(goal) = Goal::new(goal, shape) else {
            continue;
        };
        let spec = match &plan.spec {
            Some(s) => s.clone(),
            None => best_cached(&goal, &cache),
        };
        let policy = if plan.build_any {
            BuildPolicy::Always
        } else {
            BuildPolicy::UpTo(CHEAP_ENTRIES)
        };
        let start = Instant::now();
        let db = open(&goal, &spec, plan.reflect, &cache, policy)?;
        if start.elapsed().as_secs_f64() > 1.0 {
            eprintln!(
                "pdb: {} ({}) for {shape} {goal} ready in {:.1} s",
                spec,
                db.partition(),
                start.elapsed().as_secs_f64()
            );
        }
        dbs.by_shape.insert(shape, SharedPdb(Arc::new(db)));
    }
    Ok(dbs)
}

/// `--engine auto`'s choice on a 4×4 board: 7-8 if both its tables are cached, else 6-6-3;
/// the default partition elsewhere.
fn best_cached(goal: &Goal, cache: &Cache) -> PartitionSpec {
    let is_cached = |spec: &PartitionSpec| {
        spec.resolve(goal).is_ok_and(|groups| {
            groups
                .iter()
                .all(|g| cache.path(&TableKey::new(goal, g)).is_file())
        })
    };
    let four = goal.shape().width() == 4 && goal.shape().height() == 4;
    if four && is_cached(&PartitionSpec::P78) {
        PartitionSpec::P78
    } else {
        PartitionSpec::Default
    }
}

/// Opens one database, reporting builds on stderr (and a progress bar on a terminal).
fn open(
    goal: &Goal,
    spec: &PartitionSpec,
    reflect: bool,
    cache: &Cache,
    policy: BuildPolicy,
) -> Result<PatternDb> {
    let tty = std::io::stderr().is_terminal();
    let bar: std::sync::Mutex<Option<ProgressBar>> = std::sync::Mutex::new(None);
    let mut events = |e: Event<'_>| match e {
        Event::Loaded { .. } => {}
        Event::Upgraded {
            path,
            from_version,
            store_error,
            ..
        } => match store_error {
            None => eprintln!(
                "pdb: rewrote {} from format {from_version} to format {} (same entries, faster loading)",
                path.display(),
                npuzzle_pdb::FORMAT_VERSION
            ),
            Some(e) => eprintln!(
                "pdb: warning: {} is in format {from_version} and could not be rewritten: {e}",
                path.display()
            ),
        },
        Event::Rejected { error } => eprintln!("warning: {error}; rebuilding it"),
        Event::Building {
            tiles,
            entries,
            memory,
        } => {
            eprintln!(
                "pdb: building the table of tiles {} for {} {}: {entries} entries ({} on disk), {} peak memory",
                format_groups(&[tiles.to_vec()]),
                goal.shape(),
                goal,
                human_bytes(entries + 128),
                human_bytes(memory)
            );
            if tty {
                let b = ProgressBar::with_draw_target(Some(entries), ProgressDrawTarget::stderr());
                b.set_style(
                    ProgressStyle::with_template(
                        "{bar:40} {percent:>3}% {msg} [{elapsed_precise}, eta {eta}]",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                *bar.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(b);
            }
        }
        Event::Built {
            seconds,
            path,
            store_error,
            ..
        } => {
            if let Some(b) = bar
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
            {
                b.finish_and_clear();
            }
            match (path, store_error) {
                (Some(p), _) => {
                    eprintln!("pdb: built in {seconds:.1} s, stored in {}", p.display());
                }
                (None, Some(e)) => {
                    eprintln!("pdb: built in {seconds:.1} s; warning: not stored: {e}");
                }
                (None, None) => eprintln!("pdb: built in {seconds:.1} s"),
            }
        }
    };
    let progress = |p: &BuildProgress| {
        if let Some(b) = bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .as_ref()
        {
            b.set_position(p.reached);
            b.set_message(format!("layer {}", p.layer));
        }
    };
    PatternDb::open(goal, spec, reflect, cache, policy, &mut events, &progress)
        .with_context(|| format!("pattern database {spec} for {} {goal}", goal.shape()))
}

/// Runs `npuzzle pdb`.
///
/// # Errors
/// Bad options, an unusable cache directory, or a failed build; `verify` returns
/// [`Status::Failed`] (exit 2) if any file is bad.
pub fn run(args: &PdbArgs) -> Result<Status> {
    let cache = Cache::locate(args.pdb_dir.as_deref())?;
    match &args.command {
        PdbCommand::Build { pdb, size, goal } => {
            let spec: PartitionSpec = pdb.parse()?;
            let goal = Goal::new(&parse_goal(goal, Some(*size))?, *size)?;
            let start = Instant::now();
            let db = open(&goal, &spec, false, &cache, BuildPolicy::Always)?;
            println!(
                "{spec} ({}) for {size} {goal}: {} of tables in {}, ready after {:.1} s",
                db.partition(),
                human_bytes(db.table_bytes()),
                cache.dir().display(),
                start.elapsed().as_secs_f64()
            );
            Ok(Status::Success)
        }
        PdbCommand::List => {
            let entries = cache.list()?;
            if entries.is_empty() {
                println!("no tables in {}", cache.dir().display());
            }
            for e in &entries {
                let name = file_name(&e.path);
                match &e.header {
                    Ok(h) => println!(
                        "{name}  {}  tiles {}  {} entries  {}  format {}{}",
                        h.key.shape,
                        format_groups(std::slice::from_ref(&h.key.tiles)),
                        h.entries,
                        human_bytes(e.bytes),
                        h.version,
                        if h.version < npuzzle_pdb::FORMAT_VERSION {
                            " (rewritten in the current format on next use)"
                        } else {
                            ""
                        }
                    ),
                    Err(why) => println!("{name}  unreadable: {}", why.reason()),
                }
            }
            Ok(Status::Success)
        }
        PdbCommand::Verify => {
            let mut bad = 0;
            let entries = cache.list()?;
            for e in &entries {
                match cache.verify(e) {
                    Ok(()) => println!("ok   {}", file_name(&e.path)),
                    Err(why) => {
                        bad += 1;
                        println!("BAD  {}: {}", file_name(&e.path), why.reason());
                    }
                }
            }
            println!(
                "{} of {} tables in {} are good",
                entries.len() - bad,
                entries.len(),
                cache.dir().display()
            );
            Ok(if bad > 0 {
                Status::Failed
            } else {
                Status::Success
            })
        }
        PdbCommand::Clear => {
            let (files, bytes) = cache.clear()?;
            println!(
                "removed {files} files ({}) from {}",
                human_bytes(bytes),
                cache.dir().display()
            );
            Ok(Status::Success)
        }
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Parses `--pdb`.
///
/// # Errors
/// An unknown name or malformed groups.
pub fn parse_spec(text: &str) -> Result<PartitionSpec> {
    match text.parse() {
        Ok(s) => Ok(s),
        Err(e) => bail!("bad --pdb: {e}"),
    }
}
