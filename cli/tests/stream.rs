//! End-to-end tests of streaming and interrupts (issue 13): `solve` and `check` answer each
//! board of standard input as soon as it has arrived, in input order; an enormous line is a
//! clear error; SIGINT and SIGTERM stop a search, print what it proved and exit with 130;
//! an interrupted `bench` leaves complete JSON lines and a summary of the finished boards.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::Value;

mod common;
use common::scratch;

/// A Korf's 100 instance (number 3, 59 moves from the blank-first goal): minutes of IDA* with
/// Manhattan distance, so still running when the signal comes.
const KORF3: &str = "14 7 8 2 13 11 10 4 9 12 5 0 3 6 1 15";

/// The binary with piped standard streams and its cache in the test's scratch directory.
fn spawn(args: &[&str], dir: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_PDB_DIR", scratch(dir))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs")
}

/// The lines of `stdout`, read on a thread so that a test can wait for one with a timeout
/// instead of hanging when the answer never comes.
fn lines_of(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The next line, or a failure after a generous minute (the machine may be loaded).
fn next_line(rx: &mpsc::Receiver<String>) -> String {
    rx.recv_timeout(Duration::from_mins(1))
        .expect("an answer while standard input is still open")
}

/// Sends `signal` (`INT`, `TERM`) to the child.
fn kill(child: &Child, signal: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs")
        .success();
    assert!(ok, "kill -{signal}");
}

/// Waits for the child; its exit code and standard error.
fn finish(mut child: Child) -> (Option<i32>, String) {
    let status = child.wait().expect("waits");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut err)
        .expect("utf-8");
    (status.code(), err)
}

#[test]
fn solve_answers_each_board_before_the_input_ends_in_input_order() {
    let mut child = spawn(
        &["solve", "--engine", "idastar", "--heuristic", "manhattan"],
        "stream-solve",
    );
    let mut stdin = child.stdin.take().expect("piped");
    let rx = lines_of(child.stdout.take().expect("piped"));
    // Two boards: the second says there are several (text output then names each). (A board
    // of numbers on one line would wait for the next line, which says whether it is a whole
    // board or the first row of one; hex strings and textbook boards need no look-ahead.)
    stdin.write_all(b"123456708\n867254301\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(&rx), "Board 1: 123456708");
    assert_eq!(next_line(&rx), "Solved in 1 move (optimal): L");
    // Standard input is still open: the first answer came without it.
    let mut seen = Vec::new();
    while !seen
        .iter()
        .any(|l: &String| l.starts_with("Solved in 31 moves"))
    {
        seen.push(next_line(&rx));
    }
    assert!(seen.contains(&"Board 2: 867254301".to_string()), "{seen:?}");
    assert!(next_line(&rx).starts_with("idastar + manhattan: "));
    stdin.write_all(b"3\n1 2 3\n4 5 6\n7 8 0\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(&rx), "");
    assert_eq!(next_line(&rx), "Board 3: 123456780");
    drop(stdin);
    let rest: Vec<String> = rx.iter().collect();
    assert!(rest[0].starts_with("Solved in 0 moves"), "{rest:?}");
    let (code, err) = finish(child);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn check_answers_each_board_before_the_input_ends() {
    let mut child = spawn(&["check"], "stream-check");
    let mut stdin = child.stdin.take().expect("piped");
    let rx = lines_of(child.stdout.take().expect("piped"));
    stdin.write_all(b"123456708\n123456870\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(next_line(&rx), "Board: 123456708 (3x3)");
    let mut seen = Vec::new();
    while !seen.iter().any(|l: &String| l.starts_with("Board: ")) {
        seen.push(next_line(&rx));
    }
    assert_eq!(seen.last().unwrap(), "Board: 123456870 (3x3)");
    drop(stdin);
    let rest: Vec<String> = rx.iter().collect();
    assert!(
        rest.iter().any(|l| l.starts_with("Unsolvable: ")),
        "{rest:?}"
    );
    // Exit 1: one board is unsolvable.
    let (code, err) = finish(child);
    assert_eq!(code, Some(1), "{err}");
}

#[test]
fn many_piped_boards_keep_their_order() {
    let generated = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["generate", "--size", "3x3", "--count", "300", "--seed", "7"])
        .output()
        .unwrap();
    let boards = String::from_utf8(generated.stdout).unwrap();
    let mut child = spawn(
        &[
            "solve",
            "--engine",
            "idastar",
            "--heuristic",
            "manhattan",
            "--format",
            "json",
        ],
        "stream-order",
    );
    let mut stdin = child.stdin.take().expect("piped");
    let writer = {
        let boards = boards.clone();
        thread::spawn(move || stdin.write_all(boards.as_bytes()))
    };
    let rx = lines_of(child.stdout.take().expect("piped"));
    let answered: Vec<String> = rx
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(&l).expect("one JSON answer a line");
            v["board"].as_str().unwrap().to_string()
        })
        .collect();
    writer.join().unwrap().unwrap();
    let given: Vec<&str> = boards.lines().collect();
    assert_eq!(answered, given);
    let (code, err) = finish(child);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn an_enormous_line_is_a_clear_error() {
    let mut child = spawn(&["check"], "stream-long");
    let mut stdin = child.stdin.take().expect("piped");
    // 100 MB of digits without a line break; the reader stops after 256 KiB, so most writes
    // fail with a broken pipe, which is expected.
    let writer = thread::spawn(move || {
        let chunk = vec![b'7'; 1 << 20];
        for _ in 0..100 {
            if stdin.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    let (code, err) = finish(child);
    writer.join().unwrap();
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("standard input: line 1 is longer than 262144 bytes"),
        "{err}"
    );
}

#[test]
fn sigint_and_sigterm_stop_a_search_with_its_lower_bound() {
    for signal in ["INT", "TERM"] {
        let child = spawn(
            &[
                "solve",
                "--goal",
                "blank-first",
                "--engine",
                "idastar",
                "--heuristic",
                "manhattan",
                "--threads",
                "1",
                KORF3,
            ],
            "stream-signal",
        );
        thread::sleep(Duration::from_millis(1500));
        kill(&child, signal);
        let (code, err) = finish(child);
        assert_eq!(code, Some(130), "{signal}: {err}");
        // What was proven: the f-bound reached (at least the Manhattan distance, 41 here),
        // nodes, seconds.
        let line = err
            .lines()
            .find(|l| l.starts_with("interrupted: board 1 (e782dba49c50361f): f-bound "))
            .unwrap_or_else(|| panic!("{signal}: {err}"));
        let bound: u32 = line
            .split("at least ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        assert!((41..=59).contains(&bound), "{line}");
        assert!(line.contains(&format!("f-bound {bound} reached")), "{line}");
        assert!(line.contains(" nodes generated, "), "{line}");
    }
}

#[test]
fn a_signal_while_waiting_for_input_ends_at_once() {
    let mut child = spawn(&["solve"], "stream-wait");
    // Kept open until the child has ended (`Child::wait` would close it, and the end of input
    // could then come before the signal is handled).
    let stdin = child.stdin.take();
    thread::sleep(Duration::from_millis(500));
    kill(&child, "TERM");
    let (code, err) = finish(child);
    drop(stdin);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted while reading input"), "{err}");
}

#[test]
fn an_interrupted_bench_leaves_complete_records_and_a_summary() {
    let dir = scratch("stream-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("instances.txt");
    // An easy 8-puzzle instance (answered at once), then a long Korf instance.
    let korf = format!("b 1 2 3 4 5 6 7 8 0 22\nk {KORF3} 59\n");
    std::fs::write(&file, korf).unwrap();
    let mut child = spawn(
        &[
            "bench",
            file.to_str().unwrap(),
            "--goal",
            "blank-first",
            "--engine",
            "idastar",
            "--heuristic",
            "manhattan",
            "--jobs",
            "1",
            "--threads",
            "1",
        ],
        "stream-bench",
    );
    let rx = lines_of(child.stdout.take().expect("piped"));
    // The easy instance's record comes first; then the Korf instance runs.
    let first = next_line(&rx);
    thread::sleep(Duration::from_millis(500));
    kill(&child, "INT");
    let (code, err) = finish(child);
    assert_eq!(code, Some(130), "{err}");
    let mut lines = vec![first];
    lines.extend(rx.iter());
    assert_eq!(lines.len(), 1, "{lines:?}");
    for l in &lines {
        let v: Value = serde_json::from_str(l).expect("a complete JSON line");
        assert_eq!(
            (v["id"].as_str(), v["length"].as_u64()),
            (Some("b"), Some(22))
        );
    }
    assert!(
        err.contains("| idastar | manhattan | stm | 1 | 1 |"),
        "{err}"
    );
    assert!(
        err.contains("interrupted: the records and the summary above cover the 1 finished board"),
        "{err}"
    );
}

#[test]
fn auto_under_a_time_limit_builds_no_large_tables() {
    // Building the 15-puzzle's default tables takes 20-80 s, far past a time limit meant for
    // the search: auto searches with linear conflict instead, says so, and writes no table.
    let dir = scratch("stream-timeout-cache");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["solve", "--timeout", "30", "2348170c56ab9def"])
        .env("NPUZZLE_PDB_DIR", &dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.starts_with("Solved in 15 moves (optimal): "),
        "{stdout}"
    );
    assert!(stdout.contains("idastar + linear-conflict: "), "{stdout}");
    assert!(
        stderr.contains("a time limit is set: searching with linear conflict"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    // The 8-puzzle's tables are quick to build: still built under a time limit.
    let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["solve", "--timeout", "30", "867254301"])
        .env("NPUZZLE_PDB_DIR", &dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("idastar + pdb: "), "{stdout}");
    assert!(std::fs::read_dir(&dir).unwrap().count() > 0);
}
