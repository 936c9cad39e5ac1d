//! The integration tests of npuzzle-pdb, one module per area, in one test binary (one build and
//! link instead of nine: `cargo test -p npuzzle-pdb --test integration`, or one area with a
//! filter such as `-- korf24::`).

mod cache;
mod faults;
mod garbage;
mod korf24;
mod korf24_zero_aware;
mod memo;
mod oracle;
mod parallel_idastar;
mod sets;
mod zero_aware;

/// The cache the heavy 24-puzzle tests (`korf24`, `korf24_zero_aware`) build their tables into:
/// `$NPUZZLE_PDB_DIR` when it is set and not empty (so that repeated runs load them), else
/// `tmp`.
fn env_or_temp_cache(tmp: &std::path::Path) -> npuzzle_pdb::Cache {
    match std::env::var_os(npuzzle_pdb::ENV_DIR).filter(|d| !d.is_empty()) {
        Some(d) => npuzzle_pdb::Cache::new(d),
        None => npuzzle_pdb::Cache::new(tmp),
    }
}
