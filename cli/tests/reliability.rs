//! Reliability, round 3 (issue 26): each case a hostile but fair user found, as a regression
//! test that failed before its fix. Every test has its own cache directory. Linux only
//! (signals, FIFOs, `/proc`).
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `npuzzle ARGS` with its cache in `dir`.
fn npuzzle(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    c.env("NPUZZLE_PDB_DIR", dir).args(args);
    c
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Every name in `dir` (none if it does not exist), sorted.
fn names(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<String> = rd
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Whether the file name `n` has extension `ext`.
fn has_ext(n: &str, ext: &str) -> bool {
    Path::new(n).extension().is_some_and(|e| e == ext)
}

/// Runs `cmd` and returns its output and wall time.
fn timed(cmd: &mut Command) -> (Output, Duration) {
    let start = Instant::now();
    let out = cmd.output().unwrap();
    (out, start.elapsed())
}

/// C4: parity and "already solved" are decided before any table is built. Before the fix, an
/// empty cache made `solve --goal 213456789abcdef0 38abfe7951024c6d` build 61 MB of tables
/// (27.6 s) before saying "unsolvable"; the same for an unsolvable 3x3 and a board equal to
/// its goal.
#[test]
fn unsolvable_and_solved_boards_build_no_table() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let cases: [(&[&str], i32, &str); 5] = [
        (
            &["solve", "--goal", "213456789abcdef0", "38abfe7951024c6d"],
            1,
            "No solution",
        ),
        (&["solve", "123456789abcdfe0"], 1, "No solution"),
        (
            &["solve", "--pdb", "663", "123456789abcdef0"],
            0,
            "Solved in 0 moves",
        ),
        (&["solve", "1 2 3 4 5 6 8 7 0"], 1, "No solution"),
        (
            &["solve", "--heuristic", "pdb", "1 2 3 4 5 6 7 8 0"],
            0,
            "Solved in 0 moves",
        ),
    ];
    for (args, code, says) in cases {
        let (out, took) = timed(&mut npuzzle(&cache, args));
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stdout).contains(says),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert!(took < Duration::from_secs(5), "{args:?} took {took:?}");
        assert!(
            names(&cache).is_empty(),
            "{args:?} built tables: {:?}",
            names(&cache)
        );
    }
    // A stream: the unsolvable first board opens nothing, the solvable second one does.
    let mut child = npuzzle(&cache, &["solve", "--heuristic", "pdb", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 2 3 4 5 6 8 7 0\n8 6 7 2 5 4 3 0 1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(String::from).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains(r#""solvable":false"#), "{}", lines[0]);
    assert!(lines[1].contains(r#""length":31"#), "{}", lines[1]);
    assert_eq!(
        names(&cache).iter().filter(|n| has_ext(n, "pdb")).count(),
        2
    );
}

/// The lines of the child's standard output, read on a thread so that a test can wait for one
/// with a timeout instead of hanging.
fn lines_of(stdout: std::process::ChildStdout) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Streaming look-ahead: a line that is a whole board is answered while standard input stays
/// open and nothing follows it. Before the fix, `(echo "8 6 7 2 5 4 3 0 1"; sleep 3; echo "1 2
/// 3 4 5 6 7 0 8") | npuzzle solve --format json` printed the first answer only after the
/// second line arrived; a program talking to `npuzzle solve` through a pipe waited forever.
#[test]
fn a_whole_board_on_one_line_is_answered_before_the_next_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &[u8], &str); 5] = [
        (
            &[
                "solve",
                "--format",
                "json",
                "-e",
                "idastar",
                "-H",
                "manhattan",
            ],
            b"8 6 7 2 5 4 3 0 1\n",
            r#""length":31"#,
        ),
        (
            &["solve", "--format", "json"],
            b"1,2,3,4,5,6,7,0,8\n",
            r#""length":1"#,
        ),
        (
            &[
                "solve",
                "--format",
                "json",
                "--size",
                "4x3",
                "-H",
                "manhattan",
                "-e",
                "idastar",
            ],
            b"1 2 3 4 5 6 7 8 9 10 0 11\n",
            r#""length":1"#,
        ),
        (
            &[
                "solve",
                "--format",
                "boards",
                "-e",
                "idastar",
                "-H",
                "manhattan",
            ],
            b"1 2 3 4 5 6 7 0 8\n",
            "1 2 3",
        ),
        (&["check"], b"1 2 3 4 5 6 8 7 0\n", "Unsolvable: "),
    ];
    for (args, line, expect) in cases {
        let mut child = npuzzle(dir.path(), args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let rx = lines_of(child.stdout.take().unwrap());
        stdin.write_all(line).unwrap();
        stdin.flush().unwrap();
        // Standard input stays open: the answer must come without the next line.
        let mut seen = Vec::new();
        while !seen.iter().any(|l: &String| l.contains(expect)) {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(l) => seen.push(l),
                Err(e) => panic!("{args:?}: no answer while the input stays open ({e}): {seen:?}"),
            }
        }
        // The same board again in the same run is answered too.
        stdin.write_all(line).unwrap();
        drop(stdin);
        let rest: Vec<String> = rx.iter().collect();
        assert!(
            rest.iter().any(|l| l.contains(expect)),
            "{args:?}: {rest:?}"
        );
        let status = child.wait().unwrap();
        assert!(matches!(status.code(), Some(0 | 1)), "{args:?}: {status:?}");
    }
    // The documented exception: a 4x4 grid whose first row is a whole 2x2 board needs --size.
    let out = npuzzle(dir.path(), &["check", "--size", "4x4"])
        .write_stdin_all(b"0 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n");
    assert!(text(&out.stdout).contains("(4x4)"), "{}", text(&out.stdout));
}

/// `Command::output` with `input` on standard input.
trait WriteStdin {
    fn write_stdin_all(&mut self, input: &[u8]) -> Output;
}

impl WriteStdin for Command {
    fn write_stdin_all(&mut self, input: &[u8]) -> Output {
        let mut child = self
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    }
}

/// C1 and C2: counts have bounds, stated in the error. Before the fix `--threads 100000`
/// started 100,000 threads (no answer in 20 s, 166 s to exit after SIGTERM) and `--walk
/// 18446744073709551615` ran until killed.
#[test]
fn thread_walk_and_count_bounds_are_errors_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["solve", "--threads", "100000", "38abfe7951024c6d"],
            "bad --threads \"100000\": at most 1024",
        ),
        (
            &["bench", "testdata/seed15.txt", "--threads", "5000"],
            "bad --threads \"5000\": at most 1024",
        ),
        (
            &[
                "generate",
                "--size",
                "4x4",
                "--walk",
                "18446744073709551615",
            ],
            "walk 18446744073709551615: at most 10000000 moves",
        ),
        (
            &["generate", "--size", "3x3", "--count", "10000001"],
            "count 10000001: at most 10000000 boards",
        ),
        (
            &["solve", "--timeout", "1e308", "123456708"],
            "the timeout is too long",
        ),
    ];
    for (args, says) in cases {
        let (out, took) = timed(
            npuzzle(dir.path(), args).current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(took < Duration::from_secs(5), "{args:?} took {took:?}");
    }
    // The bounds themselves are accepted.
    let out = npuzzle(
        dir.path(),
        &["generate", "--size", "3x3", "--walk", "10000000"],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = npuzzle(dir.path(), &["solve", "--threads", "1024", "123456708"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// Sends `signal` (`INT`, `TERM`) to process `pid`.
fn kill(pid: u32, signal: &str) {
    let ok = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal} {pid}");
}

/// C3: SIGINT and SIGTERM stop a table build at once (exit 130) and leave no partial file.
/// Before the fix the signal waited until every table was built: 4.5 s with 6-6-3
/// (`NPUZZLE_PDB_DIR=/tmp/x timeout --preserve-status -s INT 0.5 npuzzle solve --threads 1
/// --pdb 663 38abfe7951024c6d`), about 30 s with 7-tile tables.
#[test]
fn a_signal_stops_a_table_build_at_once() {
    let runs: [(&[&str], &str); 3] = [
        (
            &[
                "solve",
                "--threads",
                "1",
                "--pdb",
                "663",
                "38abfe7951024c6d",
            ],
            "INT",
        ),
        (&["pdb", "build", "--size", "4x4", "--pdb", "663"], "INT"),
        (&["pdb", "build", "--size", "4x4", "--pdb", "663"], "TERM"),
    ];
    for (args, signal) in runs {
        let dir = tempfile::tempdir().unwrap();
        let mut child = npuzzle(dir.path(), args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The first 6-tile table (5.8 M entries) takes seconds to build: still building then.
        std::thread::sleep(Duration::from_millis(700));
        let start = Instant::now();
        kill(child.id(), signal);
        let status = child.wait().unwrap();
        let took = start.elapsed();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(130), "{args:?} {signal}: {err}");
        assert!(
            err.contains("interrupted") && err.contains("cancelled while building"),
            "{args:?}: {err}"
        );
        // 0.5 s is the goal (measured: about 0.01 s); the margin is for a loaded machine.
        assert!(
            took < Duration::from_millis(1500),
            "{args:?} {signal}: {took:?}"
        );
        // No partial file: no temporary file, and every table present is complete.
        let left = names(dir.path());
        assert!(
            !left.iter().any(|n| has_ext(n, "tmp")),
            "{args:?}: {left:?}"
        );
        let verify = npuzzle(dir.path(), &["pdb", "verify"]).output().unwrap();
        assert!(verify.status.success(), "{}", text(&verify.stdout));
    }
}

/// Runs `cmd`, failing the test (after killing it) if it has not ended within `limit`.
fn within(cmd: &mut Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{cmd:?} still running after {limit:?} (blocked?): {}",
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The file names of the 3x3 default tables (4-4, blank-last), from a build in a scratch
/// directory.
fn table_names() -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let out = npuzzle(dir.path(), &["pdb", "build", "--size", "3x3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Vec<String> = names(dir.path())
        .into_iter()
        .filter(|n| has_ext(n, "pdb"))
        .collect();
    assert_eq!(v.len(), 2, "{v:?}");
    v
}

/// C5: a directory where a table file belongs no longer breaks the cache for good. Before the
/// fix (`mkdir ~/.cache/npuzzle/pdb/4x4-…-7.8.pdb`) `solve` and `pdb build` exited 2 ("No such
/// device") and `pdb clear` removed 0 files and left it.
#[test]
fn a_directory_where_a_table_belongs_is_healed() {
    const A31: &str = "8 6 7 2 5 4 3 0 1";
    let tables = table_names();
    let limit = Duration::from_mins(1);
    // An empty directory: replaced by the table.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(&tables[0])).unwrap();
    let out = within(
        &mut npuzzle(dir.path(), &["solve", "-H", "pdb", "--format", "json", A31]),
        limit,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(r#""length":31"#));
    assert!(dir.path().join(&tables[0]).is_file());
    let out = within(&mut npuzzle(dir.path(), &["pdb", "verify"]), limit);
    assert!(out.status.success(), "{}", text(&out.stdout));
    // A directory with contents (and a link inside to a file outside the cache): solve still
    // answers (the table from memory), pdb build and verify fail naming `npuzzle pdb clear`,
    // which removes the directory and nothing outside the cache.
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let keep = outside.path().join("keep.txt");
    std::fs::write(&keep, "not the cache's").unwrap();
    let bad = dir.path().join(&tables[1]);
    std::fs::create_dir(&bad).unwrap();
    std::fs::write(bad.join("inside"), "x").unwrap();
    std::os::unix::fs::symlink(&keep, bad.join("link")).unwrap();
    let out = within(
        &mut npuzzle(dir.path(), &["solve", "-H", "pdb", "--format", "json", A31]),
        limit,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(r#""length":31"#));
    assert!(
        text(&out.stderr).contains("npuzzle pdb clear"),
        "{}",
        text(&out.stderr)
    );
    let out = within(
        &mut npuzzle(dir.path(), &["pdb", "build", "--size", "3x3"]),
        limit,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("npuzzle pdb clear"),
        "{}",
        text(&out.stderr)
    );
    let out = within(&mut npuzzle(dir.path(), &["pdb", "verify"]), limit);
    assert_eq!(out.status.code(), Some(2));
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        all.contains("a directory stands where the table file belongs"),
        "{all}"
    );
    let out = within(&mut npuzzle(dir.path(), &["pdb", "clear"]), limit);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!bad.exists(), "{:?}", names(dir.path()));
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "not the cache's");
    let out = within(
        &mut npuzzle(dir.path(), &["pdb", "build", "--size", "3x3"]),
        limit,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(bad.is_file());
}

/// C6: a FIFO (or a link to something outside the cache) where a table file belongs. Before
/// the fix a FIFO made `pdb verify`, `pdb list` and `solve` block forever.
#[test]
fn a_fifo_where_a_table_belongs_blocks_nothing() {
    let tables = table_names();
    let limit = Duration::from_mins(1);
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join(&tables[0]);
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let out = within(&mut npuzzle(dir.path(), &["pdb", "list"]), limit);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("FIFO"), "{}", text(&out.stdout));
    let out = within(&mut npuzzle(dir.path(), &["pdb", "verify"]), limit);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    // A solve replaces the FIFO by the table it builds.
    let out = within(
        &mut npuzzle(
            dir.path(),
            &[
                "solve",
                "-H",
                "pdb",
                "--format",
                "json",
                "8 6 7 2 5 4 3 0 1",
            ],
        ),
        limit,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(r#""length":31"#));
    assert!(fifo.is_file());
    // A FIFO again, and a link to a file outside the cache: clear removes both, never the
    // link's target.
    std::fs::remove_file(&fifo).unwrap();
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let outside = tempfile::tempdir().unwrap();
    let keep = outside.path().join("keep.pdb");
    std::fs::write(&keep, "not the cache's").unwrap();
    let link = dir.path().join(&tables[1]);
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&keep, &link).unwrap();
    let out = within(&mut npuzzle(dir.path(), &["pdb", "verify"]), limit);
    assert_eq!(out.status.code(), Some(2));
    let out = within(&mut npuzzle(dir.path(), &["pdb", "clear"]), limit);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        names(dir.path()).iter().all(|n| !has_ext(n, "pdb")),
        "{:?}",
        names(dir.path())
    );
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "not the cache's");
}

/// Issue 52, case 1: a timeout longer than the system clock can represent ahead (`1e19`
/// seconds is under `u64::MAX` seconds, so it parses) panicked with "overflow when adding
/// duration to instant" (exit 134) in every engine's limit clock and in the anytime search.
/// It now means no deadline: each search answers as without a time limit.
#[test]
fn a_timeout_beyond_the_clock_is_no_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let board = "8 6 7 2 5 4 3 0 1";
    let cases: [(&[&str], &str); 6] = [
        (&["solve", "--timeout", "1e19", board], "Solved in 31 moves"),
        (
            &["solve", "--timeout", "1e19", "-e", "astar", board],
            "Solved in 31 moves",
        ),
        (
            &["solve", "--timeout", "1e19", "-e", "bidirectional", board],
            "Solved in 31 moves",
        ),
        (
            &["solve", "--timeout", "1e19", "--all-optimal", board],
            "31 moves",
        ),
        (
            &["solve", "--timeout", "1e19", "--metric", "mtm", board],
            "Solved in",
        ),
        (
            &["solve", "--timeout", "1e19", "-e", "weighted-astar", board],
            "Solved in",
        ),
    ];
    for (args, expected) in cases {
        let out = npuzzle(&cache, args).output().unwrap();
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stdout.contains(expected), "{args:?}: {stdout}");
    }
    // The anytime answer on a 7x7 board (constructive, then beams) under a budget as long.
    let board = text(
        &npuzzle(&cache, &["generate", "--size", "7x7", "--seed", "3"])
            .output()
            .unwrap()
            .stdout,
    );
    let out = npuzzle(
        &cache,
        &[
            "solve",
            "--anytime",
            "1e19",
            "--timeout",
            "20",
            board.trim(),
        ],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Solved in"),
        "{}",
        text(&out.stdout)
    );
}

/// Writes `text` to `name` in `dir` and returns the path.
fn file_in(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// One HTTP/1.1 POST of a JSON `body` to `path` on `addr`; the whole answer as text.
fn post(addr: &str, path: &str, body: &str) -> String {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_mins(1))).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(&mut s, &mut out).unwrap();
    out
}

/// Issue 52, case 1, the other surfaces: `bench --timeout-per-board 1e19`, `play --timeout
/// 1e19`, and `serve --max-timeout 1e19` with `{"timeout": 1e19}` to `/api/solve` and
/// `/api/check` reach the same limit clock as `solve`; each answers as without a time limit,
/// and the server survives every request (before the fix the clock panicked with "overflow
/// when adding duration to instant", which kills a server built with `panic = "abort"`).
#[test]
fn a_timeout_beyond_the_clock_is_no_deadline_on_every_surface() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let file = file_in(dir.path(), "a31.txt", "A31_1 8 6 7 2 5 4 3 0 1 31\n");
    let out = within(
        npuzzle(&cache, &["bench", "--timeout-per-board", "1e19"]).arg(&file),
        Duration::from_mins(2),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let record: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(record["status"], "solved", "{record}");
    assert_eq!(record["length"], 31, "{record}");
    let out = within(
        &mut npuzzle(&cache, &["play", "--timeout", "1e19", "1 2 3 4 5 6 0 7 8"]),
        Duration::from_mins(1),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Start: 2 moves"),
        "{}",
        text(&out.stdout)
    );
    // The server: the largest --max-timeout there is, then requests asking for as much.
    let mut child = npuzzle(&cache, &["serve", "--port", "0", "--max-timeout", "1e19"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let line = BufReader::new(stderr)
        .lines()
        .map(Result::unwrap)
        .find(|l| l.contains("serving the web app on"))
        .expect("the server starts");
    let addr = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let solve = post(
        addr,
        "/api/solve",
        r#"{"board": "8 6 7 2 5 4 3 0 1", "engine": "idastar", "timeout": 1e19}"#,
    );
    let check = post(
        addr,
        "/api/check",
        r#"{"board": "1 2 3 4 5 6 0 7 8", "moves": "LL", "timeout": 1e19}"#,
    );
    let again = post(
        addr,
        "/api/solve",
        r#"{"board": "1 2 3 4 5 6 0 7 8", "timeout": 1e19}"#,
    );
    let alive = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(solve.starts_with("HTTP/1.1 200"), "{solve}");
    assert!(solve.contains(r#""length":31,"#), "{solve}");
    assert!(check.starts_with("HTTP/1.1 200"), "{check}");
    assert!(check.contains(r#""solves":true"#), "{check}");
    assert!(again.starts_with("HTTP/1.1 200"), "{again}");
    assert!(alive, "the server died on a request");
}

/// Issue 52, also: `npuzzle pdb build --pdb-dir /dev/null` said "File exists (os error 17)";
/// it now says the path is not a directory, and what stands there (exit 2).
#[test]
fn a_build_into_a_path_that_is_not_a_directory_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = file_in(dir.path(), "plain", "a file");
    for (path, what) in [
        (Path::new("/dev/null"), "a device"),
        (file.as_path(), "a regular file"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
            .args(["pdb", "build", "--size", "3x3", "--pdb-dir"])
            .arg(path)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "{}: not a directory: {what} stands there",
                path.display()
            )),
            "{err}"
        );
        assert!(!err.contains("File exists"), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a file");
}

/// Issue 52, case 2: the duplicate-pruning automaton's file (`4x4-fsm-14.pdb`, and the
/// `4x4-fsm-14.fsm` of earlier versions) as a FIFO, a symbolic link to `/dev/zero` or a
/// directory: never opened or read without bound. `solve --cycle-check fsm` answers (the
/// automaton built in memory, or stored in place of the FIFO), `pdb list` names what stands
/// there, `pdb verify` exits 2, `pdb clear` removes it (never the link's target).
#[test]
fn an_automaton_path_that_is_not_a_file_blocks_nothing() {
    let limit = Duration::from_mins(1);
    let board = "38abfe7951024c6d";
    let solve = [
        "solve",
        "--engine",
        "idastar",
        "--cycle-check",
        "fsm",
        "-H",
        "linear-conflict",
        "--format",
        "json",
        board,
    ];
    for name in ["4x4-fsm-14.pdb", "4x4-fsm-14.fsm"] {
        for what in ["fifo", "zero", "dir"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join(name);
            match what {
                "fifo" => assert!(
                    Command::new("mkfifo")
                        .arg(&path)
                        .status()
                        .unwrap()
                        .success()
                ),
                "zero" => std::os::unix::fs::symlink("/dev/zero", &path).unwrap(),
                _ => {
                    std::fs::create_dir(&path).unwrap();
                    std::fs::write(path.join("inside"), "x").unwrap();
                }
            }
            let case = format!("{name} as {what}");
            if has_ext(name, "pdb") {
                // Listed and verified without opening it.
                let out = within(&mut npuzzle(dir.path(), &["pdb", "list"]), limit);
                assert!(out.status.success(), "{case}: {}", text(&out.stderr));
                let says = match what {
                    "fifo" => "a FIFO (named pipe) stands where",
                    "zero" => "a device stands where",
                    _ => "a directory stands where",
                };
                let listed = text(&out.stdout);
                assert!(listed.contains(says), "{case}: {listed}");
                let out = within(&mut npuzzle(dir.path(), &["pdb", "verify"]), limit);
                assert_eq!(out.status.code(), Some(2), "{case}: {}", text(&out.stdout));
            }
            // The FIFO and the link are replaced by the automaton the solve builds (the link's
            // target untouched); the directory with contents stays, the automaton is used
            // from memory.
            let out = within(&mut npuzzle(dir.path(), &solve), limit);
            assert_eq!(out.status.code(), Some(0), "{case}: {}", text(&out.stderr));
            assert!(
                text(&out.stdout).contains(r#""length":58"#),
                "{case}: {}",
                text(&out.stdout)
            );
            let out = within(&mut npuzzle(dir.path(), &["pdb", "clear"]), limit);
            assert!(out.status.success(), "{case}: {}", text(&out.stderr));
            assert!(
                std::fs::symlink_metadata(&path).is_err(),
                "{case}: {:?}",
                names(dir.path())
            );
            let out = within(&mut npuzzle(dir.path(), &["pdb", "verify"]), limit);
            assert!(out.status.success(), "{case}: {}", text(&out.stdout));
        }
    }
    assert!(Path::new("/dev/zero").exists());
}

/// Issue 52, case 6: Ctrl-C during `solve --anytime 1e9` on a 20x20 board stops it within
/// about a second with the best answer so far. Before the fix it exited 11 s after a SIGINT
/// at 5 s, 52 s after one at 20 s, and was still running 30 s after one at 40 s, printing no
/// answer (the line beams and the path shortening watched only the deadline, and a cancelled
/// anytime search dropped its answers).
#[test]
fn ctrl_c_stops_an_anytime_search_with_the_best_answer_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let board = text(
        &npuzzle(&cache, &["generate", "--size", "20x20", "--seed", "5"])
            .output()
            .unwrap()
            .stdout,
    );
    let board = board.trim();
    for wait in [Duration::from_secs(3), Duration::from_secs(8)] {
        let mut child = npuzzle(
            &cache,
            &["solve", "--anytime", "1e9", "--format", "json", board],
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
        std::thread::sleep(wait);
        assert!(child.try_wait().unwrap().is_none(), "still searching");
        let sent = Instant::now();
        kill(child.id(), "INT");
        while child.try_wait().unwrap().is_none() && sent.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let took = sent.elapsed();
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        // About 1 s is the goal; the margin is for a loaded machine.
        assert!(
            took < Duration::from_secs(3),
            "SIGINT after {wait:?}: exit {took:?} later"
        );
        assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
        let answer: serde_json::Value = serde_json::from_str(text(&out.stdout).trim())
            .unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
        let moves = answer["moves"].as_str().unwrap();
        assert!(answer["length"].as_u64().unwrap() > 0, "{answer}");
        // The answer replayed to the goal.
        let check = npuzzle(
            &cache,
            &[
                "check",
                board,
                "--moves",
                moves,
                "--max-nodes",
                "1",
                "--format",
                "json",
            ],
        )
        .output()
        .unwrap();
        assert!(
            text(&check.stdout).contains(r#""solves":true"#),
            "{}",
            text(&check.stdout)
        );
    }
}

/// Runs `cmd` to its end and returns its output and its peak resident memory in bytes
/// (`VmHWM` of `/proc/PID/status`, polled every 2 ms while it runs: growth in its last 2 ms
/// may be missed).
fn peak_memory(cmd: &mut Command, limit: Duration) -> (Output, u64) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Drained on threads, so that a full pipe never stops the child.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).unwrap();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut v).unwrap();
        v
    });
    let status_file = format!("/proc/{}/status", child.id());
    let start = Instant::now();
    let mut peak = 0u64;
    let status = loop {
        if let Ok(s) = std::fs::read_to_string(&status_file)
            && let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kb * 1024);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{cmd:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let output = Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    (output, peak)
}

/// Issue 52, case 4: the engines that store states keep the process within `--memory-limit`
/// (+ 10 %) on large boards, and say how far they got. Before the fix a stored key of a Vec
/// board was counted at its 40-byte slot, not its packed words on the heap (2,576 bytes on
/// 40×40): hill climbing on 127×127 took 6 GB in 20 s against its default 1 GiB, and greedy
/// on 40×40 ignored `--memory-limit 100M` (over 4 GB).
#[test]
fn engines_that_store_states_keep_within_the_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let board = |size: &str| {
        let b = npuzzle(&cache, &["generate", "--size", size, "--seed", "1"])
            .output()
            .unwrap()
            .stdout;
        text(&b).trim().to_string()
    };
    let (b40, b7) = (board("40x40"), board("7x7"));
    let cases: [(&str, &str, &str); 5] = [
        ("hill-climbing", "100M", &b40),
        ("greedy", "100M", &b40),
        ("weighted-astar", "100M", &b40),
        ("astar", "64M", &b7),
        ("bidirectional", "64M", &b7),
    ];
    for (engine, limit, board) in cases {
        let bytes: u64 = limit.trim_end_matches('M').parse::<u64>().unwrap() << 20;
        let (out, peak) = peak_memory(
            &mut npuzzle(
                &cache,
                &[
                    "solve",
                    "--engine",
                    engine,
                    "--heuristic",
                    "manhattan",
                    "--memory-limit",
                    limit,
                    board,
                ],
            ),
            Duration::from_mins(3),
        );
        let err = text(&out.stderr);
        match out.status.code() {
            // An answer within the limit (weighted A* may find one).
            Some(0) => assert!(text(&out.stdout).contains("Solved in"), "{engine}"),
            // The limit reached: said so, with how far the search got.
            Some(2) => {
                assert!(err.contains("memory limit of"), "{engine}: {err}");
                assert!(!err.contains("no solution"), "{engine}: {err}");
            }
            _ => panic!("{engine}: {:?} {err}", out.status),
        }
        assert!(
            peak <= bytes + bytes / 10,
            "{engine} with --memory-limit {limit}: peak resident memory {peak} bytes"
        );
    }
}

/// Issue 52, case 5: a corrupt table is treated exactly like a missing one. On 4x4 with a
/// time limit, auto searches with linear conflict rather than build a missing 7-tile table
/// (0.22 s); a corrupt one was rebuilt instead, silently (32.6 s under `--timeout 5`). Now the
/// corrupt file is reported once ("treated as not cached") and the run takes the missing
/// table's path: the same note, the same answer, nothing built.
#[test]
fn a_corrupt_table_is_treated_like_a_missing_one() {
    use npuzzle_pdb::{Cache, PartitionSpec, TableKey};
    let dir = tempfile::tempdir().unwrap();
    let cache = Cache::new(dir.path());
    let goal = npuzzle_core::Goal::blank_last(npuzzle_core::Shape::new(4, 4).unwrap());
    // The default partition's tables (7-6-2), all zeros (admissible), written as the cache
    // writes them; then one byte of the 7-tile table's entries flipped.
    let groups = PartitionSpec::Default.resolve(&goal).unwrap();
    let mut seven = None;
    for g in &groups {
        let key = TableKey::new(&goal, g);
        let entries = key.entries().unwrap() as usize;
        let path = cache.store(&key, &vec![0u8; entries]).unwrap();
        if g.len() == 7 {
            seven = Some(path);
        }
    }
    let seven = seven.expect("a 7-tile group");
    let mut bytes = std::fs::read(&seven).unwrap();
    let at = bytes.len() - 1000;
    bytes[at] ^= 1;
    std::fs::write(&seven, &bytes).unwrap();
    let run = || {
        timed(&mut npuzzle(
            dir.path(),
            &["solve", "--timeout", "5", "0bd45c329671af8e"],
        ))
    };
    let (corrupt, took) = run();
    let err = text(&corrupt.stderr);
    assert_eq!(corrupt.status.code(), Some(0), "{err}");
    assert!(took < Duration::from_secs(5), "{took:?}: {err}");
    assert_eq!(
        err.matches("treated as not cached").count(),
        1,
        "one warning: {err}"
    );
    assert!(err.contains("checksum"), "{err}");
    assert!(!err.contains("pdb: building"), "{err}");
    // Nothing rebuilt: the corrupt file is still there, as it was.
    assert_eq!(std::fs::read(&seven).unwrap(), bytes);
    // The missing table's run: the same answer and the same note.
    std::fs::remove_file(&seven).unwrap();
    let (missing, _) = run();
    assert_eq!(missing.status.code(), Some(0));
    let first = |o: &Output| text(&o.stdout).lines().next().unwrap_or("").to_string();
    assert!(first(&missing).starts_with("Solved in 50 moves"));
    assert_eq!(first(&missing), first(&corrupt));
    let note = |e: &str| {
        e.lines()
            .filter(|l| l.contains("auto:"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let notes = note(&text(&missing.stderr));
    // Said once: the tables opened ahead of the search (`prepare`) no longer note a decision
    // the search itself makes and notes again (it was printed twice).
    assert_eq!(notes.len(), 1, "{}", text(&missing.stderr));
    assert_eq!(note(&err), notes);
}
