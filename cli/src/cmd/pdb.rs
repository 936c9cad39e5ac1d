//! `npuzzle pdb build|list|verify|clear`: the pattern-database cache.
//!
//! Tables live in the cache directory: `--pdb-dir`, else `$NPUZZLE_PDB_DIR`, else the platform
//! cache directory (`~/.cache/npuzzle/pdb` on Linux). Every build states its size and peak
//! memory on stderr first, and shows a progress bar when stderr is a terminal (through
//! [`crate::progress::Terminal`]). The duplicate-pruning automata that IDA\* keeps in the same
//! directory are cache entries like the tables (`{W}x{H}-fsm-{depth}.pdb`,
//! [`TableKind::Automaton`]); `clear` also removes the `*.fsm` files of earlier versions.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use npuzzle::databases::{MTM_DEFAULT_ENTRIES, build_into_cache};
use npuzzle::npuzzle_pdb::{
    Cache, FORMAT_VERSION, IndexKind, MtmKind, PartitionSpec, PlainKind, TableKey, TableKind,
    TileOnlyKind, ZeroAwareKind, format_groups, mtm_default_groups,
};
use npuzzle::{Goal, parse_goal};
use npuzzle_core::human_bytes;

use crate::args::{MetricChoice, PdbArgs, PdbCommand};
use crate::progress::Terminal;
use crate::status::Status;

/// Runs `npuzzle pdb`.
///
/// # Errors
/// Bad options, an unusable cache directory, or a failed build; `verify` returns
/// [`Status::Failed`] (exit 2) if any file is bad.
pub fn run(args: &PdbArgs) -> Result<Status> {
    let cache = Cache::locate(args.pdb_dir.as_deref())?;
    match &args.command {
        PdbCommand::Build {
            pdb,
            size,
            goal,
            zero_aware,
            metric,
        } => {
            let mut spec: PartitionSpec = pdb.parse()?;
            let goal = Goal::new(&parse_goal(goal, Some(*size))?, *size)?;
            let mtm = *metric == MetricChoice::Mtm;
            if mtm && spec == PartitionSpec::Default {
                spec = PartitionSpec::Custom(mtm_default_groups(&goal, MTM_DEFAULT_ENTRIES)?);
            }
            let start = Instant::now();
            // SIGINT/SIGTERM stop the build within milliseconds, storing nothing more (plain
            // tables; the zero-aware builder does not check the flag).
            let building = cache.clone().cancel_on(crate::interrupt::flag());
            let build = if mtm {
                built::<MtmKind>
            } else if *zero_aware {
                built::<ZeroAwareKind>
            } else if size.cells() > npuzzle::npuzzle_pdb::MAX_CELLS {
                built::<TileOnlyKind>
            } else {
                built::<PlainKind>
            };
            let (partition, bytes) = build(&goal, &spec, &building)?;
            println!(
                "{spec} ({partition}) for {size} {goal}: {} of tables in {}, ready after {:.1} s",
                human_bytes(bytes),
                cache.dir().display(),
                start.elapsed().as_secs_f64()
            );
            automaton(*size, &cache)?;
            Ok(Status::Success)
        }
        PdbCommand::List => list(&cache),
        PdbCommand::Verify => verify(&cache),
        PdbCommand::Clear => clear(&cache),
    }
}

/// Builds `spec`'s tables of kind `K` for `goal` into `cache`
/// ([`npuzzle::databases::build_into_cache`]): the partition as built, named with its kind
/// (`zero-aware 1,2,3/...`), and the bytes of its tables.
///
/// # Errors
/// As [`npuzzle::databases::build_into_cache`].
fn built<K: IndexKind>(goal: &Goal, spec: &PartitionSpec, cache: &Cache) -> Result<(String, u64)> {
    let db = build_into_cache::<K>(goal, spec, cache, &Terminal::new(false))?;
    Ok((
        format!("{}{}", K::ADJECTIVE, db.partition()),
        db.table_bytes(),
    ))
}

/// `npuzzle pdb list`: every cached table and automaton, one a line.
fn list(cache: &Cache) -> Result<Status> {
    let entries = cache.list()?;
    if entries.is_empty() {
        println!("no tables in {}", cache.dir().display());
    }
    for e in &entries {
        let name = file_name(&e.path);
        match &e.header {
            Ok(h) => println!(
                "{name}  {}  {}  {}  format {}{}",
                h.key.shape,
                match h.key.kind {
                    TableKind::Automaton { depth } =>
                        format!("duplicate-pruning automaton of depth {depth}"),
                    kind => format!(
                        "tiles {}{}  {} entries",
                        format_groups(std::slice::from_ref(&h.key.tiles)),
                        if kind == TableKind::ZeroAware {
                            " (zero-aware)"
                        } else if kind == TableKind::RegionCoded {
                            " (zero-aware, region-coded)"
                        } else if kind == TableKind::Mtm {
                            " (multi-tile metric)"
                        } else if h.key.tile_only() {
                            " (tile-only)"
                        } else {
                            ""
                        },
                        h.entries
                    ),
                },
                human_bytes(e.bytes),
                h.version,
                if h.version < FORMAT_VERSION {
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

/// `npuzzle pdb verify`: every cached table and automaton checked in full;
/// [`Status::Failed`] (exit 2) if any is bad (a bad one is rebuilt on its next use).
fn verify(cache: &Cache) -> Result<Status> {
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

/// `npuzzle pdb clear`: every cached table and automaton removed, with the leftovers.
fn clear(cache: &Cache) -> Result<Status> {
    let (files, bytes) = cache.clear()?;
    println!(
        "removed {files} files ({}) from {}",
        human_bytes(bytes),
        cache.dir().display()
    );
    Ok(Status::Success)
}

/// After a build of plain tables for a 17–25-cell board, where auto's optimal search prunes
/// duplicates with an automaton ([`npuzzle::auto_automaton_depth`]: depth 14 on 5×5), that
/// automaton too, so that the first search finds everything cached: loaded if cached, else
/// built and stored next to the tables (on 5×5: 4.2 MB, about half a second), its size stated.
///
/// # Errors
/// When the automaton cannot be built or stored.
fn automaton(shape: npuzzle::Shape, cache: &Cache) -> Result<()> {
    let Some(depth) = npuzzle::auto_automaton_depth(shape) else {
        return Ok(());
    };
    let start = Instant::now();
    let (automaton, unstored) = npuzzle::databases::automaton(shape, depth, cache)?;
    if let Some(why) = unstored {
        anyhow::bail!("the duplicate-pruning automaton for {shape} could not be stored: {why}");
    }
    let key = TableKey::automaton(shape, u8::try_from(depth)?);
    println!(
        "duplicate-pruning automaton of depth {depth} for {shape}: {} states, {} in {}, ready after {:.1} s",
        automaton.states(),
        human_bytes(automaton.bytes() as u64),
        cache.path(&key).display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
