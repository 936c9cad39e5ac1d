//! The integration tests of npuzzle-idastar, one module per area, in one test binary (one build
//! and link instead of eight: `cargo test -p npuzzle-idastar --test integration`, or one area
//! with a filter such as `-- tables::`).

mod astar_idastar;
mod frontier;
mod fsm;
mod fused;
mod mtm;
mod oracle;
mod parallel;
mod tables;
