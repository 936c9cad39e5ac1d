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
mod zero_aware;
