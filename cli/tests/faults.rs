//! The pattern-database cache under faults and races, across processes (issue 13, part 2):
//! processes building the same tables at once, builds killed with SIGKILL at random points or
//! mid-write (SIGXFSZ), a full disk (`RLIMIT_FSIZE`), a cache directory that cannot exist, and
//! tables deleted and rebuilt while another process has them mapped. Each test has its own
//! cache directory and uses the 4x4 5-5-5 partition (three 512 KiB tables, about a second to
//! build). Linux only (`/proc`, `bash`'s `ulimit`).
#![cfg(target_os = "linux")]

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// 30 moves from the blank-last goal (seed15).
const B30: &str = "1f3452d8a70b96ec";
/// 50 moves from the blank-last goal (seed15).
const B50: &str = "0bd45c329671af8e";
const SOLVE: [&str; 4] = ["solve", "--pdb", "555", B30];
const BUILD: [&str; 6] = ["pdb", "build", "--size", "4x4", "--pdb", "555"];

/// `npuzzle ARGS` with its cache in `dir`.
fn npuzzle(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_npuzzle"));
    c.env("NPUZZLE_PDB_DIR", dir).args(args);
    c
}

/// `npuzzle ARGS` run by `bash` after `setup` (`ulimit`, `trap`), cache in `dir`.
fn under_bash(dir: &Path, setup: &str, args: &[&str]) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_PDB_DIR", dir)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

fn temporaries(dir: &Path) -> Vec<String> {
    names(dir)
        .into_iter()
        .filter(|n| Path::new(n).extension().is_some_and(|e| e == "tmp"))
        .collect()
}

fn tables(dir: &Path) -> usize {
    names(dir)
        .iter()
        .filter(|n| Path::new(n).extension().is_some_and(|e| e == "pdb"))
        .count()
}

/// `solve SOLVE` succeeds with the optimal 30 moves.
fn assert_solves(out: &Output) {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Solved in 30 moves (optimal)"),
        "{stdout}\n{}",
        text(&out.stderr)
    );
}

/// `pdb verify` passes: every table file present is complete and checksummed.
fn assert_verified(dir: &Path) {
    let out = npuzzle(dir, &["pdb", "verify"]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// Four processes solving with the same missing tables at once: all answer optimally, each
/// table is built by exactly one of them (the others wait for its lock and load it), and the
/// cache ends with three valid tables and no temporary file.
#[test]
fn processes_racing_for_the_same_tables_build_each_once() {
    let dir = tempfile::tempdir().unwrap();
    let children: Vec<_> = (0..4)
        .map(|_| {
            npuzzle(dir.path(), &SOLVE)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let mut builds = 0;
    for out in &outs {
        assert_solves(out);
        builds += text(&out.stderr).matches("pdb: building the table").count();
    }
    let stderr: Vec<String> = outs.iter().map(|o| text(&o.stderr)).collect();
    assert_eq!(builds, 3, "{stderr:#?}");
    assert_eq!(tables(dir.path()), 3, "{:?}", names(dir.path()));
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        names(dir.path())
    );
    assert_verified(dir.path());
}

/// Builds killed with SIGKILL at spread-out points (before, during and after building and
/// writing): a table file present afterwards is always complete, the next run cleans the
/// leftovers and finishes the job, and the cache ends valid with no temporary file.
#[test]
fn builds_killed_at_random_points_leave_no_partial_table() {
    let dir = tempfile::tempdir().unwrap();
    // Fixed "random" delays (ms): reproducible, spread over the about 1.5 s a build takes.
    for delay in [0u64, 30, 170, 420, 650, 910, 1240, 80, 1500] {
        let mut child = npuzzle(dir.path(), &BUILD)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        assert!(
            status.signal() == Some(9) || status.success(),
            "{delay} ms: {status:?}"
        );
        assert_verified(dir.path());
    }
    let out = npuzzle(dir.path(), &SOLVE).output().unwrap();
    assert_solves(&out);
    assert_eq!(tables(dir.path()), 3);
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        names(dir.path())
    );
    assert_verified(dir.path());
}

/// A build killed while writing (`RLIMIT_FSIZE` of 200 KiB, SIGXFSZ's default action kills it
/// mid-file) leaves only a partial temporary file: it is never listed or used, and the next
/// run removes it, says so, rebuilds and answers optimally.
#[test]
fn a_build_killed_mid_write_is_cleaned_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let out = under_bash(dir.path(), "ulimit -f 200", &BUILD);
    assert_eq!(out.status.signal(), Some(25), "SIGXFSZ: {out:?}");
    let tmp = temporaries(dir.path());
    assert_eq!(tmp.len(), 1, "{:?}", names(dir.path()));
    let partial = std::fs::metadata(dir.path().join(&tmp[0])).unwrap().len();
    assert_eq!(partial, 200 * 1024);
    assert_eq!(tables(dir.path()), 0);
    let list = npuzzle(dir.path(), &["pdb", "list"]).output().unwrap();
    assert!(text(&list.stdout).contains("no tables"), "{list:?}");
    let out = npuzzle(dir.path(), &SOLVE).output().unwrap();
    assert_solves(&out);
    assert!(
        text(&out.stderr).contains("pdb: removed 1 temporary file(s) left by an interrupted build"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        names(dir.path())
    );
    assert_eq!(tables(dir.path()), 3);
    assert_verified(dir.path());
}

/// A full disk (`RLIMIT_FSIZE` of 200 KiB with SIGXFSZ ignored, so writes fail with EFBIG):
/// every table is built, used from memory and reported as not stored; exit 0, the optimal
/// answer, and neither a table file nor a temporary file is left.
#[test]
fn a_full_disk_builds_in_memory_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = under_bash(dir.path(), "trap '' XFSZ; ulimit -f 200", &SOLVE);
    assert_solves(&out);
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr
            .matches("the table is used from memory for this run only")
            .count(),
        3,
        "{stderr}"
    );
    assert!(stderr.contains("File too large"), "{stderr}");
    assert_eq!(tables(dir.path()), 0, "{:?}", names(dir.path()));
    assert!(
        temporaries(dir.path()).is_empty(),
        "{:?}",
        names(dir.path())
    );
}

/// A cache directory that cannot exist (under a regular file; root ignores permission bits,
/// so this is how a test makes it unwritable): exit 0, the optimal answer, and stderr says the
/// tables are used from memory and why they were not stored.
#[test]
fn an_unwritable_cache_directory_builds_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"a regular file").unwrap();
    let out = npuzzle(&file.join("sub"), &SOLVE).output().unwrap();
    assert_solves(&out);
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr
            .matches("the table is used from memory for this run only")
            .count(),
        3,
        "{stderr}"
    );
    assert!(stderr.contains("file/sub"), "{stderr}");
    assert_eq!(names(dir.path()), ["file"]);
}

/// `npuzzle pdb build`, whose job is to store the tables, into a directory that cannot exist:
/// exit 2 and an error naming the directory, nothing written (a search would build in memory,
/// above).
#[test]
fn a_build_into_an_unusable_cache_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"a regular file").unwrap();
    let out = npuzzle(&file.join("sub"), &BUILD).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("file/sub"),
        "{stderr}"
    );
    assert!(text(&out.stdout).is_empty());
    assert_eq!(names(dir.path()), ["file"]);
}

/// A process solving with mapped tables keeps answering optimally while another process
/// deletes them (`pdb clear`) and builds new files under the same names: its mappings keep the
/// old files' pages (`/proc/PID/maps` shows them deleted).
#[test]
fn a_process_keeps_its_mapped_tables_when_they_are_deleted_and_rebuilt() {
    const N: usize = 300;
    let dir = tempfile::tempdir().unwrap();
    assert!(
        npuzzle(dir.path(), &BUILD)
            .output()
            .unwrap()
            .status
            .success()
    );
    let boards = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(boards.path(), format!("{B50}\n").repeat(N)).unwrap();
    let child = npuzzle(
        dir.path(),
        &[
            "solve",
            "--pdb",
            "555",
            "-f",
            boards.path().to_str().unwrap(),
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let maps = format!("/proc/{}/maps", child.id());
    let mapped = |deleted: bool| {
        std::fs::read_to_string(&maps).map_or(0, |m| {
            m.lines()
                .filter(|l| l.contains(".pdb") && l.ends_with("(deleted)") == deleted)
                .count()
        })
    };
    let start = Instant::now();
    while mapped(false) < 3 {
        assert!(start.elapsed() < Duration::from_mins(1), "never mapped");
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        npuzzle(dir.path(), &["pdb", "clear"])
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(
        mapped(true),
        3,
        "the solver finished too early to test anything"
    );
    assert!(
        npuzzle(dir.path(), &BUILD)
            .output()
            .unwrap()
            .status
            .success()
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout)
            .matches("Solved in 50 moves (optimal)")
            .count(),
        N
    );
    assert_verified(dir.path());
}
