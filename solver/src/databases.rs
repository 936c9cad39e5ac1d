//! The pattern databases of a [`crate::Npuzzle`]: which partition for which shape, opened (or
//! built) once per shape and shared by every board of that shape.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use npuzzle_core::{Goal, GoalKind, Shape};
use npuzzle_idastar::{Fsm, FsmError};
use npuzzle_pdb::{
    BuildPolicy, Cache, Event, IndexKind, MtmDb, MtmKind, PartitionSpec, PatternDb, PdbError,
    PlainKind, TableKey, TableSet, TileOnlyDb, TileOnlyKind, ZeroAwareDb, ZeroAwareKind,
};

use crate::{Error, Observer};

/// Tables of at most this many entries are built without being asked for (auto): the 7-tile
/// table of the 15-puzzle's default 7-6-2 partition (57.7 M entries) takes about 20–30 s once
/// (see BENCHMARKS.md, "15-puzzle out of the box"); the 8-tile table of 7-8 (519 M) and the
/// 24-puzzle's 6-tile tables (127 M each) are never built implicitly.
pub const CHEAP_ENTRIES: u64 = 64_000_000;

/// Under a time limit, auto builds missing tables only up to this many entries in all (4 Mi:
/// well under a second, e.g. the 8-puzzle's); larger builds would overrun the limit (the 15-puzzle's
/// 7-6-2 tables take 20–80 s), so auto searches with linear conflict instead.
pub const QUICK_ENTRIES: u64 = 1 << 22;

/// The largest board (cells) auto searches with pattern databases it builds itself when they
/// are cheap ([`CHEAP_ENTRIES`]).
pub const AUTO_PDB_MAX_CELLS: usize = 16;

/// The most entries of one multi-tile table auto opens for the MTM search (the goal rows
/// farthest from the blank's first, [`npuzzle_pdb::mtm_default_groups`]): on the 15-puzzle two
/// tables of 172,972,800 and 86,486,400 entries (247 MiB), built once in about 40 s on 2
/// cores, as 7-6-2 is built for STM (BENCHMARKS.md, "The multi-tile metric").
pub const MTM_DEFAULT_ENTRIES: u64 = 300_000_000;

/// Which index kind of tables a plan opens ([`with_kind!`] turns it into the type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Plain blank-aware tables ([`PatternDb`]; tile-only, [`TileOnlyDb`], above 32 cells).
    Plain,
    /// Zero-aware tables ([`ZeroAwareDb`]).
    ZeroAware,
    /// Multi-tile-metric tables ([`MtmDb`]).
    Mtm,
}

impl Kind {
    /// The kind of tables `heuristic` reads (`pdb`, `zpdb`, `mtm-pdb`); `None` for heuristics
    /// without pattern databases.
    pub(crate) fn of(heuristic: crate::HeuristicKind) -> Option<Kind> {
        match heuristic {
            crate::HeuristicKind::Pdb => Some(Kind::Plain),
            crate::HeuristicKind::Zpdb => Some(Kind::ZeroAware),
            crate::HeuristicKind::MtmPdb => Some(Kind::Mtm),
            _ => None,
        }
    }
}
/// Above [`AUTO_PDB_MAX_CELLS`] and up to this many cells (the packed board: 5×5, 4×6, 3×8,
/// ...), auto uses the default partition's tables when they are cached, and builds them only
/// for `optimal` (saying so and what it costs first); larger boards get linear conflict.
pub const AUTO_LARGE_PDB_MAX_CELLS: usize = 25;

/// On boards of [`AUTO_LARGE_PDB_MAX_CELLS`] + 1 to this many cells whose sides are at most 7
/// (6×6, 7×7, 5×7, 6×7, 4×7, 5×6, ...: the boards auto's beam search searches whole), auto's
/// anytime beam search ranks states by named tables (`--pdb`), and by the default partition's
/// when they are cached up to [`AUTO_BEAM_DEFAULT_PDB_MAX_CELLS`] cells (none at present),
/// else by linear conflict.
pub const AUTO_BEAM_PDB_MAX_CELLS: usize = 49;

/// The largest board (cells) whose cached default tables auto's beam search uses unasked:
/// [`AUTO_LARGE_PDB_MAX_CELLS`], so none of the beam's boards. Every board of the beam search
/// ranks by linear conflict unless tables are named (`--pdb`): the 7×7 default (twelve 4-tile
/// groups) gave longer answers than linear conflict alone on `DeepCubeA`'s 48-puzzles
/// (BENCHMARKS.md, "Beams on every thread"), and since the beams break ties by squared
/// distances, the 6×6 default (seven 5-tile groups) does too: 1.081× against 1.049–1.066×
/// `DeepCubeA`'s lengths at 1 s, 1.046× against 1.041× at 10 s (BENCHMARKS.md, "Ties broken by
/// squared distances").
pub const AUTO_BEAM_DEFAULT_PDB_MAX_CELLS: usize = AUTO_LARGE_PDB_MAX_CELLS;

/// The longest side of a board whose cached tables auto's beam search uses: larger boards are
/// reduced to a 7×7 corner first ([`npuzzle_suboptimal::DEFAULT_CORNER`]), whose goal the tables do not
/// serve.
pub const AUTO_BEAM_PDB_MAX_SIDE: usize = npuzzle_suboptimal::DEFAULT_CORNER;

/// Whether auto's anytime search uses cached tables on `shape` (see [`AUTO_BEAM_PDB_MAX_CELLS`]).
pub fn beam_tables_serve(shape: Shape) -> bool {
    let cells = shape.cells();
    cells > AUTO_LARGE_PDB_MAX_CELLS
        && cells <= AUTO_BEAM_PDB_MAX_CELLS
        && shape.width() <= AUTO_BEAM_PDB_MAX_SIDE
        && shape.height() <= AUTO_BEAM_PDB_MAX_SIDE
}

/// How the databases are chosen and opened: what a [`crate::Npuzzle`] was configured with.
#[derive(Clone, Debug, PartialEq, Eq)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches of the plan, each set from one option"
)]
pub(crate) struct PdbPlan {
    /// The partition asked for; `None` = auto's pick ([`best_cached`]).
    pub spec: Option<PartitionSpec>,
    /// The cache directory asked for.
    pub dir: Option<PathBuf>,
    /// Use the reflected lookup where valid.
    pub reflect: bool,
    /// The kind of tables: plain (`pdb`), zero-aware ([`ZeroAwareDb`], `zpdb`) or multi-tile
    /// ([`MtmDb`], `mtm-pdb`).
    pub kind: Kind,
    /// Auto's pick of engine and heuristic (neither named): on 5×5 boards the zero-aware
    /// tables of the partition are used instead of the plain ones when they are cached
    /// ([`uses_zero_aware`]).
    pub prefer_zero_aware: bool,
    /// Build missing tables of any size (asked for explicitly), or only cheap ones (auto).
    pub build_any: bool,
    /// Auto with `optimal`: build the default tables of boards of 17–25 cells when missing.
    pub build_large: bool,
}

/// What one search adds to the [`PdbPlan`].
#[derive(Clone, Debug)]
pub(crate) struct PerSearch {
    /// A time limit is set: auto builds no table (a build takes 20 s to minutes, which the
    /// limit, meant for the search, would not cover); it searches with linear conflict instead
    /// and says so. That decision is not remembered: the next search may have no limit.
    pub time_limited: bool,
    /// The search's cancel flag ([`crate::SearchSettings::cancel`]): it stops table builds
    /// too.
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Tables opened ahead of the searches ([`crate::Npuzzle::prepare`]): a decision for one
    /// search only (no table under a time limit) is not noted here, since each search makes it
    /// again and notes it then (a single board was told twice before).
    pub preparing: bool,
}

/// The pattern databases opened so far, shared: one entry per plan, goal and board shape
/// (`None`: auto decided not to use any there). A [`PatternDb`] clone shares its tables, so
/// every board, thread and solver holding the same `Tables` uses the same memory, and a table
/// is opened (read, checksummed, copied into huge pages on 17–25-cell boards) once per process
/// however many searches and solvers use it.
///
/// Every [`crate::Npuzzle`] has one ([`crate::Npuzzle::tables`]); give the same one to other
/// configurations with [`crate::Config::tables`] (the web server and the Python module keep
/// one for their lifetime). Cloning is cheap (an `Arc`); `Send + Sync`.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    store: Arc<Mutex<Store>>,
}

/// What a [`Tables`] holds.
#[derive(Debug, Default)]
struct Store {
    /// The decision for each plan, goal and shape (`None`: no tables there; else which of
    /// `opened` it uses), with the view of the cache it was made on ([`cache_view`]).
    decided: Vec<Decided>,
    /// Every database opened, by what it is: the same tables asked for by two plans (auto's
    /// pick and an explicit partition, say) are opened once.
    opened: Vec<(Opened, Db)>,
}

/// One remembered decision of [`Tables::get`].
#[derive(Debug)]
struct Decided {
    slot: Slot,
    /// The cache as it was when the decision was made.
    view: CacheView,
    /// The database used, and what it is; `None`: no tables.
    used: Option<(Opened, Db)>,
}

/// One opened database, of the index kind the plan and the board call for ([`with_kind!`]):
/// each kind's entry in the facade, with its heuristic's in `registry.rs`.
#[derive(Clone, Debug)]
pub(crate) enum Db {
    /// [`PatternDb`] (the `pdb` heuristic).
    Plain(PatternDb),
    /// [`ZeroAwareDb`] (the `zpdb` heuristic).
    ZeroAware(ZeroAwareDb),
    /// [`TileOnlyDb`] (the `pdb` heuristic on boards of more than 32 cells).
    TileOnly(TileOnlyDb),
    /// [`MtmDb`] (the `mtm-pdb` heuristic).
    Mtm(MtmDb),
}

/// `$body` with `$k` the [`IndexKind`] of the tables a plan opens (the [`Kind`] `$kind`;
/// plain tables are tile-only on boards of more than 32 cells) and `$wrap` its [`Db`] variant.
macro_rules! with_kind {
    ($kind:expr, $shape:expr, |$k:ident, $wrap:ident| $body:expr) => {
        if $kind == Kind::ZeroAware {
            type $k = ZeroAwareKind;
            let $wrap = Db::ZeroAware;
            $body
        } else if $kind == Kind::Mtm {
            type $k = MtmKind;
            let $wrap = Db::Mtm;
            $body
        } else if $shape.cells() > npuzzle_pdb::MAX_CELLS {
            type $k = TileOnlyKind;
            let $wrap = Db::TileOnly;
            $body
        } else {
            type $k = PlainKind;
            let $wrap = Db::Plain;
            $body
        }
    };
}

impl Db {
    pub(crate) fn partition(&self) -> &str {
        match self {
            Db::Plain(db) => db.partition(),
            Db::ZeroAware(db) => db.partition(),
            Db::TileOnly(db) => db.partition(),
            Db::Mtm(db) => db.partition(),
        }
    }

    fn table_bytes(&self) -> u64 {
        match self {
            Db::Plain(db) => db.table_bytes(),
            Db::ZeroAware(db) => db.table_bytes(),
            Db::TileOnly(db) => db.table_bytes(),
            Db::Mtm(db) => db.table_bytes(),
        }
    }
}

/// What an opened database is: partition, cache directory, reflection, goal and shape.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Opened {
    spec: PartitionSpec,
    kind: Kind,
    dir: PathBuf,
    reflect: bool,
    goal: GoalKind,
    shape: Shape,
}

/// What a decision is keyed by.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Slot {
    plan: PdbPlan,
    /// `$NPUZZLE_PDB_DIR` when the plan names no directory (it may change between searches).
    env_dir: Option<std::ffi::OsString>,
    goal: GoalKind,
    shape: Shape,
}

impl Slot {
    fn new(plan: &PdbPlan, goal: &GoalKind, shape: Shape) -> Slot {
        Slot {
            plan: plan.clone(),
            env_dir: if plan.dir.is_none() {
                std::env::var_os(npuzzle_pdb::ENV_DIR)
            } else {
                None
            },
            goal: goal.clone(),
            shape,
        }
    }
}

impl Opened {
    fn new(choice: &Choice, plan: &PdbPlan, cache: &Cache, goal: &Goal) -> Opened {
        Opened {
            spec: choice.spec.clone(),
            kind: choice.kind,
            dir: cache.dir().to_path_buf(),
            reflect: plan.reflect,
            goal: goal.kind().clone(),
            shape: goal.shape(),
        }
    }
}

impl Tables {
    /// A new, empty store.
    pub fn new() -> Tables {
        Tables::default()
    }

    /// How many databases (one per partition, cache directory, reflection, goal and shape;
    /// each several tables) are open.
    pub fn len(&self) -> usize {
        self.lock().opened.len()
    }

    /// Whether no database is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes of table entries held open (shared memory counted once per database).
    pub fn bytes(&self) -> u64 {
        self.lock()
            .opened
            .iter()
            .map(|(_, db)| db.table_bytes())
            .sum()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The database for boards of `shape`, opened (or built) on first use. `Ok(None)` when the
    /// plan leaves this shape to another heuristic (auto above [`AUTO_PDB_MAX_CELLS`] cells,
    /// or no tables cached).
    ///
    /// The decision is remembered, but on boards of more than [`AUTO_PDB_MAX_CELLS`] cells
    /// only for as long as the cache holds the same tables that it was made on
    /// ([`cache_view`]: whether each table auto could pick is cached, a few `stat` calls a
    /// search): a long-lived store (`npuzzle serve`, the Python module) starts using tables
    /// that `npuzzle pdb build` caches after it decided without them, or the zero-aware tables
    /// auto prefers on 5×5 once they are cached. Tables that no decision uses any more are
    /// then closed ([`Tables::len`] counts them no longer; a search that holds them keeps them
    /// until it finishes). On smaller boards auto builds its tables itself, and the
    /// decision lasts the store's lifetime (a 4×4 store that chose 7-6-2 keeps it when 7-8 is
    /// cached later).
    ///
    /// # Errors
    /// A goal of another shape, a bad partition for the shape, an unusable cache directory, a
    /// table that may not be built implicitly, or a build failure.
    pub(crate) fn get(
        &self,
        plan: &PdbPlan,
        search: &PerSearch,
        goal: &GoalKind,
        shape: Shape,
        observer: &dyn Observer,
    ) -> Result<Option<Db>, Error> {
        let slot = Slot::new(plan, goal, shape);
        let view = cache_view(plan, goal, shape);
        let mut store = self.lock();
        let mut replaced = false;
        if let Some(i) = store.decided.iter().position(|d| d.slot == slot) {
            if store.decided[i].view == view {
                return Ok(store.decided[i].used.as_ref().map(|(_, db)| db.clone()));
            }
            // The cache changed under the decision: decide again.
            store.decided.swap_remove(i);
            replaced = true;
        }
        let decision = open_for_shape(plan, search, goal, shape, observer, &mut store);
        // The cache as the decision left it: a table it built is cached now, one it found
        // corrupt is not (seen before it, the next search would decide, and note, again).
        let view = cache_view(plan, goal, shape);
        let result = match decision {
            Ok(Decision::Use(used)) => {
                let (what, db) = *used;
                store.decided.push(Decided {
                    slot,
                    view,
                    used: Some((what, db.clone())),
                });
                Ok(Some(db))
            }
            Ok(Decision::Skip) => {
                store.decided.push(Decided {
                    slot,
                    view,
                    used: None,
                });
                Ok(None)
            }
            Ok(Decision::SkipThisSearch) => Ok(None),
            Err(e) => Err(e),
        };
        if replaced {
            store.close_unused();
        }
        result
    }
}

impl Store {
    /// Drops the opened databases that no decision uses any more (the plain tables auto left
    /// for the zero-aware ones when those were cached, say); searches that hold one keep it
    /// until they finish. O(opened × decided).
    fn close_unused(&mut self) {
        let Store { decided, opened } = self;
        opened.retain(|(o, _)| {
            decided
                .iter()
                .any(|d| d.used.as_ref().is_some_and(|(used, _)| used == o))
        });
    }
}

/// Which of the tables a decision on boards of more than [`AUTO_PDB_MAX_CELLS`] cells may
/// depend on are cached: whether the plain and the zero-aware tables of the partition (the
/// plan's, else auto's pick, [`best_cached`]) are all in the cache. Always `[false, false]` on
/// smaller boards (decisions there do not look again) and where the goal or the cache
/// directory is unusable (the decision reports that).
type CacheView = [bool; 2];

/// The [`CacheView`] of `plan` for `goal` on `shape` now: the partition's tables `stat`ed,
/// O(groups) system calls.
fn cache_view(plan: &PdbPlan, goal: &GoalKind, shape: Shape) -> CacheView {
    if shape.cells() <= AUTO_PDB_MAX_CELLS {
        return [false; 2];
    }
    let (Ok(goal), Ok(cache)) = (Goal::new(goal, shape), Cache::locate(plan.dir.as_deref())) else {
        return [false; 2];
    };
    let spec = plan
        .spec
        .clone()
        .unwrap_or_else(|| best_cached(&goal, &cache));
    [Kind::Plain, Kind::ZeroAware].map(|k| is_cached(&spec, &goal, &cache, k))
}

impl Tables {
    /// Whether a search on `shape` under `plan` would use pattern databases now, and which
    /// kind (`Some(true)`: zero-aware), without opening, building or reporting anything: the
    /// decision [`Tables::get`] holds, or the one it would make on the cache as it is. `None`
    /// when it would use none (or cannot tell: an unusable goal or cache directory, which the
    /// search would report). O(groups) `stat` calls.
    pub(crate) fn planned(
        &self,
        plan: &PdbPlan,
        search: &PerSearch,
        goal: &GoalKind,
        shape: Shape,
    ) -> Option<bool> {
        let zero_aware = |db: &Db| matches!(db, Db::ZeroAware(_));
        let zero_aware_kind = |k: Kind| k == Kind::ZeroAware;
        let slot = Slot::new(plan, goal, shape);
        let view = cache_view(plan, goal, shape);
        let store = self.lock();
        if let Some(d) = store
            .decided
            .iter()
            .find(|d| d.slot == slot && d.view == view)
        {
            return d.used.as_ref().map(|(_, db)| zero_aware(db));
        }
        let goal = Goal::new(goal, shape).ok()?;
        let cache = Cache::locate(plan.dir.as_deref()).ok()?;
        let choice = choose(plan, search, &goal, &cache)?;
        let opened = || {
            let what = Opened::new(&choice, plan, &cache, &goal);
            store.opened.iter().any(|(o, _)| *o == what)
        };
        match choice.verdict {
            Verdict::Open { .. } => Some(zero_aware_kind(choice.kind)),
            Verdict::Skip(_) | Verdict::SkipThisSearch(_) => {
                opened().then_some(zero_aware_kind(choice.kind))
            }
        }
    }
}

/// What [`open_for_shape`] decided.
enum Decision {
    /// These tables (opened now or before).
    Use(Box<(Opened, Db)>),
    /// No tables for this shape under this plan (remembered).
    Skip,
    /// No tables for this search (its time limit; not remembered).
    SkipThisSearch,
}

/// Whether `plan` opens no tables on `shape` because only auto's beam search would use them
/// there (`beam_only`) and it does not: boards above [`AUTO_LARGE_PDB_MAX_CELLS`] cells (unless tables are
/// to be built) that [`beam_tables_serve`] excludes, zero-aware plans, and the default
/// partition above [`AUTO_BEAM_DEFAULT_PDB_MAX_CELLS`] cells.
fn not_for_beams(plan: &PdbPlan, shape: Shape, beam_only: bool) -> bool {
    beam_only
        && (plan.kind != Kind::Plain
            || !beam_tables_serve(shape)
            || (plan.spec.is_none() && shape.cells() > AUTO_BEAM_DEFAULT_PDB_MAX_CELLS))
}

/// What auto (or the plan) chooses for one shape before anything is opened: see [`choose`].
struct Choice {
    /// The partition.
    spec: PartitionSpec,
    /// The kind of its tables.
    kind: Kind,
    /// Whether to open them, unless they are open already.
    verdict: Verdict,
}

/// Whether [`Choice`]'s tables are opened when they are not open already.
enum Verdict {
    /// No tables (remembered); the note says why.
    Skip(String),
    /// No tables for this search (its time limit), with the note that says so.
    SkipThisSearch(String),
    /// Open them, building what the policy allows, after the note if any.
    Open {
        policy: BuildPolicy,
        note: Option<String>,
    },
}

/// The decision of [`open_for_shape`] without its side effects (nothing opened, built or
/// reported): which partition and table kind, and whether to open them under which
/// [`BuildPolicy`] or why not; `None` when the plan uses no tables on this shape
/// ([`not_for_beams`]). O(groups) `stat` calls.
fn choose(plan: &PdbPlan, search: &PerSearch, goal: &Goal, cache: &Cache) -> Option<Choice> {
    let shape = goal.shape();
    let cells = shape.cells();
    let beam_only = !plan.build_any && cells > AUTO_LARGE_PDB_MAX_CELLS;
    if not_for_beams(plan, shape, beam_only) {
        return None;
    }
    if plan.kind == Kind::Mtm {
        return choose_mtm(plan, search, goal, cache);
    }
    let spec = plan
        .spec
        .clone()
        .unwrap_or_else(|| best_cached(goal, cache));
    let kind = if uses_zero_aware(plan, &spec, goal, cache) {
        Kind::ZeroAware
    } else {
        Kind::Plain
    };
    let cached = || is_cached(&spec, goal, cache, kind);
    let verdict = if plan.build_any {
        Verdict::Open {
            policy: BuildPolicy::Always,
            note: None,
        }
    } else if beam_only {
        if cached() {
            Verdict::Open {
                policy: BuildPolicy::Never,
                note: None,
            }
        } else {
            Verdict::Skip(format!(
                "auto: no pattern databases cached for {shape} {goal}; `npuzzle pdb build --size {shape} --goal {}` builds the {spec} tables once ({}), after which the beam search ranks states by them when they are named with `--pdb`",
                goal_arg(goal),
                cost(&spec, goal, Kind::Plain)
            ))
        }
    } else if search.time_limited && entries(&spec, goal, kind) > QUICK_ENTRIES && !cached() {
        Verdict::SkipThisSearch(format!(
            "auto: no pattern databases cached for {shape} {goal} and a time limit is set: searching with linear conflict rather than building the {spec} tables first ({}); `npuzzle pdb build --size {shape} --goal {}` builds them once",
            cost(&spec, goal, kind),
            goal_arg(goal)
        ))
    } else if cells <= AUTO_PDB_MAX_CELLS {
        Verdict::Open {
            policy: BuildPolicy::UpTo(CHEAP_ENTRIES),
            note: None,
        }
    } else if cached() {
        Verdict::Open {
            policy: BuildPolicy::Never,
            note: None,
        }
    } else if plan.build_large {
        Verdict::Open {
            policy: BuildPolicy::Always,
            note: Some(format!(
                "auto: --optimal on a {shape} board: building the {spec} pattern databases for {goal} first ({}; cached for later runs)",
                cost(&spec, goal, kind)
            )),
        }
    } else {
        Verdict::Skip(format!(
            "auto: no pattern databases cached for {shape} {goal}; `npuzzle pdb build --size {shape} --goal {}` builds the {spec} tables once ({}), after which auto solves such boards optimally when it can",
            goal_arg(goal),
            cost(&spec, goal, kind)
        ))
    };
    Some(Choice {
        spec,
        kind,
        verdict,
    })
}

/// [`choose`] for the multi-tile tables of the MTM search: the plan's groups, else (no
/// partition or the default) [`npuzzle_pdb::mtm_default_groups`] within
/// [`MTM_DEFAULT_ENTRIES`]; opened when cached,
/// built when named (`-H mtm-pdb`, `--pdb`) or, by auto, when no time limit is set (saying so
/// and what it costs first); `None` on boards the kind does not serve (more than 16 cells),
/// where the search uses walking distance or `mtm-manhattan`.
fn choose_mtm(plan: &PdbPlan, search: &PerSearch, goal: &Goal, cache: &Cache) -> Option<Choice> {
    let shape = goal.shape();
    let kind = Kind::Mtm;
    let spec = match &plan.spec {
        Some(spec) if *spec != PartitionSpec::Default => spec.clone(),
        _ if shape.cells() > npuzzle_pdb::MTM_MAX_CELLS => return None,
        _ => {
            PartitionSpec::Custom(npuzzle_pdb::mtm_default_groups(goal, MTM_DEFAULT_ENTRIES).ok()?)
        }
    };
    let verdict = if plan.build_any || is_cached(&spec, goal, cache, kind) {
        Verdict::Open {
            policy: BuildPolicy::Always,
            note: None,
        }
    } else if search.time_limited && entries(&spec, goal, kind) > QUICK_ENTRIES {
        Verdict::SkipThisSearch(format!(
            "auto: no multi-tile pattern databases cached for {shape} {goal} and a time limit is set: searching with walking distance rather than building the {spec} tables first ({}); `npuzzle pdb build --metric mtm --size {shape} --goal {}` builds them once",
            cost(&spec, goal, kind),
            goal_arg(goal)
        ))
    } else {
        let note = (entries(&spec, goal, kind) > QUICK_ENTRIES).then(|| {
            format!(
                "auto: building the multi-tile pattern databases {spec} for {shape} {goal} first ({}; cached for later runs)",
                cost(&spec, goal, kind)
            )
        });
        Verdict::Open {
            policy: BuildPolicy::Always,
            note,
        }
    };
    Some(Choice {
        spec,
        kind,
        verdict,
    })
}

/// The cache `plan` names (else `$NPUZZLE_PDB_DIR` or the platform's), stopped by the
/// search's cancel flag.
fn locate(plan: &PdbPlan, search: &PerSearch) -> Result<Cache, Error> {
    let mut cache = Cache::locate(plan.dir.as_deref()).map_err(|source| Error::Pdb {
        what: "cache".into(),
        source,
    })?;
    if let Some(flag) = &search.cancel {
        cache = cache.cancel_on(std::sync::Arc::clone(flag));
    }
    Ok(cache)
}

fn open_for_shape(
    plan: &PdbPlan,
    search: &PerSearch,
    goal: &GoalKind,
    shape: Shape,
    observer: &dyn Observer,
    store: &mut Store,
) -> Result<Decision, Error> {
    let goal = Goal::new(goal, shape)?;
    let cache = locate(plan, search)?;
    let Some(choice) = choose(plan, search, &goal, &cache) else {
        return Ok(Decision::Skip);
    };
    let what = Opened::new(&choice, plan, &cache, &goal);
    let Choice {
        spec,
        kind,
        verdict,
    } = choice;
    if let Some((_, db)) = store.opened.iter().find(|(o, _)| *o == what) {
        return Ok(Decision::Use(Box::new((what, db.clone()))));
    }
    let policy = match verdict {
        Verdict::Skip(note) => {
            observer.note(&note);
            return Ok(Decision::Skip);
        }
        Verdict::SkipThisSearch(note) => {
            if !search.preparing {
                observer.note(&note);
            }
            return Ok(Decision::SkipThisSearch);
        }
        Verdict::Open { policy, note } => {
            if let Some(note) = note {
                observer.note(&note);
            }
            policy
        }
    };
    let start = Instant::now();
    let open_db = |policy: BuildPolicy, observer: &dyn Observer| -> Result<Db, Error> {
        Ok(with_kind!(kind, shape, |K, wrap| {
            let db = open::<K>(&goal, &spec, plan.reflect, &cache, policy, observer)?;
            // Large tables (the 24-puzzle's 486 MB): copied into transparent huge pages, the
            // lookups miss the TLB less (about 10 % more nodes a second on Korf's 24 #40,
            // BENCHMARKS.md); if that memory cannot be had, the mapped tables serve as they are.
            // Tile-only tables (above 32 cells) serve the beam search, whose lookups are a small
            // part of its time: mapped as they are.
            let large =
                shape.cells() > AUTO_PDB_MAX_CELLS && shape.cells() <= npuzzle_pdb::MAX_CELLS;
            wrap(if large {
                db.clone().with_huge_pages().unwrap_or(db)
            } else {
                db
            })
        }))
    };
    // A corrupt table is treated exactly like a missing one (issue 52, case 5): tables the
    // decision saw cached are first opened without building anything; when one of them is
    // rejected, it is remembered as corrupt and the decision is made again, as if it were
    // missing (the same fallback and notes; a rebuild only where a missing table would be
    // built). Without this a corrupt 5×5 table failed the run and a corrupt 4×4 7-tile table
    // was rebuilt (32 s) under a time limit that skips a missing one.
    let watch = Rejections {
        inner: observer,
        paths: Mutex::new(Vec::new()),
    };
    let db = if is_cached(&spec, &goal, &cache, kind) {
        let first = if policy == BuildPolicy::Never {
            policy
        } else {
            BuildPolicy::UpTo(0)
        };
        match open_db(first, &watch) {
            Ok(db) => db,
            Err(e) => {
                let rejected = watch
                    .paths
                    .into_inner()
                    .unwrap_or_else(PoisonError::into_inner);
                if !rejected.is_empty() {
                    for path in &rejected {
                        mark_corrupt(path);
                    }
                    let goal = goal.kind().clone();
                    return open_for_shape(plan, search, &goal, shape, observer, store);
                }
                if first == policy {
                    return Err(e);
                }
                open_db(policy, observer)?
            }
        }
    } else {
        open_db(policy, &watch)?
    };
    let seconds = start.elapsed().as_secs_f64();
    if seconds > 1.0 {
        observer.pdb_ready(
            shape,
            &format!("{spec} ({}) for {shape} {goal}", db.partition()),
            seconds,
        );
    }
    store.opened.push((what.clone(), db.clone()));
    Ok(Decision::Use(Box::new((what, db))))
}

/// Whether `plan` opens the zero-aware tables of `spec` for `goal`: when it asks for them, or
/// when it is auto's ([`PdbPlan::prefer_zero_aware`]), the board is 5×5 and they are cached in
/// `cache` (not otherwise: they take about twice as long to build as the plain ones, and
/// `--optimal` with nothing cached builds the plain ones). On 5×5, IDA\* over their
/// region-coded forms takes 0.93–0.97x the plain tables' wall time on the ten easiest of
/// Korf's 50 and 0.96x on the next ten (BENCHMARKS.md, "Region-coded tables cached");
/// `npuzzle pdb build --size 5x5 --zero-aware` builds them.
fn uses_zero_aware(plan: &PdbPlan, spec: &PartitionSpec, goal: &Goal, cache: &Cache) -> bool {
    let shape = goal.shape();
    plan.kind == Kind::ZeroAware
        || (plan.prefer_zero_aware
            && shape.width() == 5
            && shape.height() == 5
            && is_cached(spec, goal, cache, Kind::ZeroAware))
}

/// The cache key of one group's table, of the kind [`with_kind!`] picks.
fn key(goal: &Goal, tiles: &[u8], kind: Kind) -> TableKey {
    let kind = with_kind!(kind, goal.shape(), |K, _wrap| K::TABLE);
    TableKey {
        kind,
        ..TableKey::new(goal, tiles)
    }
}

/// Whether every table of `spec` for `goal` is in the cache: a regular file that this process
/// has not found corrupt ([`mark_corrupt`]).
fn is_cached(spec: &PartitionSpec, goal: &Goal, cache: &Cache, kind: Kind) -> bool {
    spec.resolve(goal).is_ok_and(|groups| {
        groups.iter().all(|g| {
            let path = cache.path(&key(goal, g, kind));
            path.is_file() && !known_corrupt(&path)
        })
    })
}

/// A file's identity for [`CORRUPT`]: its length and modification time, so that a file
/// replaced since (rebuilt by `npuzzle pdb build`, by another process) is looked at again.
type FileId = (u64, Option<std::time::SystemTime>);

/// The table files this process found corrupt (a checksum mismatch, a bad header), with their
/// identity when found: [`is_cached`] counts them as missing, so that a corrupt table gets
/// exactly the decision a missing one gets.
static CORRUPT: Mutex<Vec<(PathBuf, FileId)>> = Mutex::new(Vec::new());

/// The identity of the file at `path`, if there is one.
fn file_id(path: &Path) -> Option<FileId> {
    std::fs::metadata(path)
        .ok()
        .map(|m| (m.len(), m.modified().ok()))
}

/// Remembers the file at `path` as corrupt (as it is now).
fn mark_corrupt(path: &Path) {
    if let Some(id) = file_id(path) {
        let mut known = CORRUPT.lock().unwrap_or_else(PoisonError::into_inner);
        known.retain(|(p, _)| p != path);
        known.push((path.to_path_buf(), id));
    }
}

/// Whether the file at `path` is one found corrupt and not replaced since.
fn known_corrupt(path: &Path) -> bool {
    let known = CORRUPT.lock().unwrap_or_else(PoisonError::into_inner);
    known
        .iter()
        .any(|(p, id)| p == path && file_id(path).as_ref() == Some(id))
}

/// An observer that notes the files a table set rejected as corrupt ([`Event::Rejected`]) and
/// reports each corrupt file once: a rejection of a file already known corrupt (opened again
/// after the decision treated it as missing) is not reported again.
struct Rejections<'a> {
    inner: &'a dyn Observer,
    paths: Mutex<Vec<PathBuf>>,
}

impl Observer for Rejections<'_> {
    fn pdb_event(&self, shape: Shape, goal: &Goal, event: &Event<'_>) {
        if let Event::Rejected {
            error: PdbError::Corrupt { path, .. },
        } = event
        {
            if known_corrupt(path) {
                return;
            }
            self.paths
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(path.clone());
        }
        self.inner.pdb_event(shape, goal, event);
    }
    fn pdb_progress(&self, progress: &npuzzle_pdb::BuildProgress) {
        self.inner.pdb_progress(progress);
    }
    fn pdb_ready(&self, shape: Shape, description: &str, seconds: f64) {
        self.inner.pdb_ready(shape, description, seconds);
    }
    fn note(&self, text: &str) {
        self.inner.note(text);
    }
}

/// The entries of `spec`'s tables for `goal`, in all (`u64::MAX` when the partition does not
/// fit the goal: its own error comes later).
fn entries(spec: &PartitionSpec, goal: &Goal, kind: Kind) -> u64 {
    spec.resolve(goal).map_or(u64::MAX, |groups| {
        groups
            .iter()
            .filter_map(|g| key(goal, g, kind).entries().ok())
            .sum()
    })
}

/// What building `spec`'s tables for `goal` costs, in words: tables, bytes on disk, peak
/// memory of the largest build (from [`IndexKind::build_memory`]).
fn cost(spec: &PartitionSpec, goal: &Goal, kind: Kind) -> String {
    let Ok(groups) = spec.resolve(goal) else {
        return "size unknown".into();
    };
    let shape = goal.shape();
    let entries: u64 = groups
        .iter()
        .filter_map(|g| key(goal, g, kind).entries().ok())
        .sum();
    let memory = |g: &[u8]| with_kind!(kind, shape, |K, _wrap| K::build_memory(goal, g));
    let peak = groups
        .iter()
        .filter_map(|g| memory(g).ok())
        .max()
        .unwrap_or(0);
    format!(
        "{} tables, {} on disk, {} peak memory, {}",
        groups.len(),
        npuzzle_core::human_bytes(entries),
        npuzzle_core::human_bytes(peak),
        build_time(shape, entries, kind)
    )
}

/// A rough build time in words: tile-only tables (boards of more than 32 cells) build at about
/// 3–5 million entries a second on 2 cores (BENCHMARKS.md, "Pattern databases on 6×6 and 7×7");
/// the others take minutes.
fn build_time(shape: Shape, entries: u64, kind: Kind) -> String {
    if kind == Kind::Mtm {
        // About 6 million entries a second on 2 cores (BENCHMARKS.md, "Multi-tile metric").
        return format!("about {} s on 2 cores", (entries / 6_000_000).max(1));
    }
    if kind == Kind::ZeroAware || shape.cells() <= npuzzle_pdb::MAX_CELLS {
        return "minutes on 2 cores".into();
    }
    let seconds = entries / 3_000_000;
    if seconds < 90 {
        format!("about {} s on 2 cores", seconds.max(1))
    } else {
        format!("about {} min on 2 cores", seconds.div_ceil(60))
    }
}

/// How to name `goal` on the command line.
fn goal_arg(goal: &Goal) -> String {
    let name = goal.name();
    match name.as_str() {
        "blank-last" | "blank-first" => name,
        _ => format!("\"{}\"", goal.layout().to_line()),
    }
}

/// Auto's choice on a 4×4 board: 7-8 if both its tables are cached, else the default
/// partition (7-6-2 on 4×4); the default partition elsewhere (6-6-6-6 on 5×5).
pub(crate) fn best_cached(goal: &Goal, cache: &Cache) -> PartitionSpec {
    let four = goal.shape().width() == 4 && goal.shape().height() == 4;
    if four && is_cached(&PartitionSpec::P78, goal, cache, Kind::Plain) {
        PartitionSpec::P78
    } else {
        PartitionSpec::Default
    }
}

/// Builds `spec`'s tables of kind `K` for `goal` into `cache` (tables already cached are
/// checked and kept, and the forms the kind derives are cached too), for `npuzzle pdb build`
/// and the Python package's `pdb_build`: [`PlainKind`] ([`PatternDb`]) on boards of at most 32
/// cells, [`TileOnlyKind`] ([`TileOnlyDb`]) on larger ones, [`ZeroAwareKind`]
/// ([`ZeroAwareDb`], the `zpdb` heuristic). Unlike a search, which falls back to tables in
/// memory when the cache cannot be written ([`open`] says so through the observer), a build
/// whose tables could not be stored is an error: the cache directory is created if missing and
/// probed with an empty file first. A cancel flag set on `cache` ([`Cache::cancel_on`]) stops
/// the build ([`PdbError::Cancelled`]) and stores nothing more.
///
/// # Errors
/// [`Error::Pdb`] with [`PdbError::Io`] naming the directory when it cannot be created or
/// written; otherwise as [`open`].
pub fn build_into_cache<K: IndexKind>(
    goal: &Goal,
    spec: &PartitionSpec,
    cache: &Cache,
    observer: &dyn Observer,
) -> Result<TableSet<K>, Error> {
    stored(goal, spec, cache, observer, |watch| {
        open::<K>(goal, spec, false, cache, BuildPolicy::Always, watch)
    })
}

/// Creates the cache directory if missing and probes it with an empty file, runs `build`
/// with an observer that notes tables built but not stored, and makes those an error.
fn stored<T>(
    goal: &Goal,
    spec: &PartitionSpec,
    cache: &Cache,
    observer: &dyn Observer,
    build: impl FnOnce(&dyn Observer) -> Result<T, Error>,
) -> Result<T, Error> {
    let dir = cache.dir();
    let probe = dir.join(format!(".npuzzle-pdb-probe-{}", std::process::id()));
    let writable = cache.create_dir().and_then(|()| {
        std::fs::File::create(&probe)
            .and_then(|_| std::fs::remove_file(&probe))
            .map_err(|source| PdbError::Io {
                path: dir.to_path_buf(),
                source,
            })
    });
    if let Err(source) = writable {
        return Err(Error::Pdb {
            what: format!("{spec} for {} {goal}", goal.shape()),
            source,
        });
    }
    let watch = StoreErrors {
        inner: observer,
        dir: dir.to_path_buf(),
        first: Mutex::new(None),
    };
    let db = build(&watch)?;
    match watch
        .first
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
    {
        // A table built but not stored (a directory with contents where it belongs, a disk
        // full after the probe): the build did not do its job.
        Some((path, message)) => Err(Error::Pdb {
            what: format!("{spec} for {} {goal}", goal.shape()),
            source: PdbError::Io {
                path,
                source: std::io::Error::other(message),
            },
        }),
        None => Ok(db),
    }
}

/// An observer that passes everything on and keeps the first table that could not be stored
/// (its path and why), for [`build_into_cache`].
struct StoreErrors<'a> {
    inner: &'a dyn Observer,
    /// The cache directory, for errors that name no file.
    dir: PathBuf,
    first: Mutex<Option<(PathBuf, String)>>,
}

impl Observer for StoreErrors<'_> {
    fn search_started(&self, engine: crate::Engine) {
        self.inner.search_started(engine);
    }
    fn search_progress(&self, engine: crate::Engine, progress: &npuzzle_core::Progress) {
        self.inner.search_progress(engine, progress);
    }
    fn search_finished(&self, engine: crate::Engine) {
        self.inner.search_finished(engine);
    }
    fn pdb_event(&self, shape: Shape, goal: &Goal, event: &npuzzle_pdb::Event<'_>) {
        if let npuzzle_pdb::Event::Built {
            store_error: Some(e),
            ..
        } = event
        {
            let (path, why) = match e {
                PdbError::Io { path, source } => (path.clone(), source.to_string()),
                other => (self.dir.clone(), other.to_string()),
            };
            let mut first = self.first.lock().unwrap_or_else(PoisonError::into_inner);
            first.get_or_insert_with(|| {
                (path, format!("the table was built but not stored: {why}"))
            });
        }
        self.inner.pdb_event(shape, goal, event);
    }
    fn pdb_progress(&self, progress: &npuzzle_pdb::BuildProgress) {
        self.inner.pdb_progress(progress);
    }
    fn pdb_ready(&self, shape: Shape, description: &str, seconds: f64) {
        self.inner.pdb_ready(shape, description, seconds);
    }
    fn note(&self, text: &str) {
        self.inner.note(text);
    }
}

/// Opens the tables of kind `K` of `spec` for `goal` ([`TableSet::open`]), passing its events
/// to the observer, with the forms the kind derives ([`TableSet::with_cached_derived`]: a
/// zero-aware set's region-coded tables, which IDA\*'s kernel reads without ranking cell sets,
/// 0.93x the plain tables' search time instead of about 2x; BENCHMARKS.md, "Zero-aware codes
/// decoded out of line") loaded from the cache or derived and cached. Without them (values
/// that do not fit the code's 6 bits, or a coded file that cannot be read, which is noted) the
/// set serves as it is.
///
/// # Errors
/// [`Error::Pdb`] naming the kind, partition, shape and goal.
pub fn open<K: IndexKind>(
    goal: &Goal,
    spec: &PartitionSpec,
    reflect: bool,
    cache: &Cache,
    policy: BuildPolicy,
    observer: &dyn Observer,
) -> Result<TableSet<K>, Error> {
    let shape = goal.shape();
    let mut events = |e: npuzzle_pdb::Event<'_>| observer.pdb_event(shape, goal, &e);
    let progress = |p: &npuzzle_pdb::BuildProgress| observer.pdb_progress(p);
    let kind = K::ADJECTIVE;
    let db = TableSet::<K>::open(goal, spec, reflect, cache, policy, &mut events, &progress)
        .map_err(|source| Error::Pdb {
            what: format!("{kind}{spec} for {shape} {goal}"),
            source,
        })?;
    match db.clone().with_cached_derived(cache, &mut events) {
        Ok(db) => Ok(db),
        Err(e) => {
            observer.note(&format!(
                "the {} of the {kind}{spec} tables for {shape} {goal} could not be loaded or derived ({e}); searching with the {kind}tables alone",
                K::DERIVED
            ));
            Ok(db)
        }
    }
}

/// The duplicate-pruning automaton of `shape` and `depth` ([`Fsm`]), kept in `cache` as one
/// more kind of table ([`TableKey::automaton`], `5x5-fsm-14.pdb`): from this process's memory
/// if there ([`Fsm::cached_with`]), else loaded from `cache` (checked in full: milliseconds
/// for the 24-puzzle's 4.2 MB), else built and stored there under its build lock
/// ([`Cache::open_or_build`]: a damaged file, or anything else at its path, such as a FIFO or
/// a directory, is built again and replaced). Returns the automaton and, when it was built but
/// could not be stored, why; the engines find it in this process's memory either way. Time: as
/// [`Fsm::build`] to build (0.5 s on 5×5 at depth 14), O(file) to load.
///
/// # Errors
/// As [`Fsm::build`], before `cache` is touched.
pub fn automaton(
    shape: Shape,
    depth: u32,
    cache: &Cache,
) -> Result<(Arc<Fsm>, Option<String>), FsmError> {
    let key = TableKey::automaton(
        shape,
        u8::try_from(depth).map_err(|_| FsmError::Depth(depth))?,
    );
    let mut unstored = None;
    let fsm = Fsm::cached_with(shape, depth, || {
        let mut built = None;
        let opened = cache.open_or_build(
            &key,
            &mut |event| {
                if let Event::Built {
                    store_error: Some(e),
                    ..
                } = event
                {
                    unstored = Some(e.to_string());
                }
            },
            || {
                let fsm =
                    Fsm::build(shape, depth).map_err(|e| PdbError::BadGroup(e.to_string()))?;
                let bytes = fsm.to_payload();
                built = Some(fsm);
                Ok(bytes)
            },
        );
        if let Some(fsm) = built {
            return Ok(fsm);
        }
        if let Ok(fsm) = opened.map(|t| Fsm::from_payload(&t, shape, depth)) {
            return fsm.or_else(|_| {
                // Bytes of another version of the automaton under an intact checksum: built
                // again and stored over them.
                let fsm = Fsm::build(shape, depth)?;
                unstored = cache
                    .store(&key, &fsm.to_payload())
                    .err()
                    .map(|e| e.to_string());
                Ok(fsm)
            });
        }
        // A cache that cannot be read: built in memory only.
        unstored = Some(format!("{} cannot be read", cache.path(&key).display()));
        Fsm::build(shape, depth)
    })?;
    Ok((fsm, unstored))
}
