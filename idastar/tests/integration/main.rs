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

/// Solves a board with any engine and heuristic, without limits, and replays the moves to the
/// goal: the test harness's shared helper (every caller's board is solvable).
use npuzzle_testsuite::solve_replayed as solve;
