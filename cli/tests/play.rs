//! `npuzzle play`: the plain frames printed when standard output is not a terminal (first grid
//! the board, last the goal, one grid a move, each the replay of the moves so far), errors and
//! exit statuses; and, `#[ignore]`d because it needs tmux (`.ci/run` installs it), the
//! interactive playback driven in a detached 80x24 tmux session: it draws, pauses, steps,
//! changes speed, plays to the goal, quits cleanly, and refuses a board too large for the
//! terminal.

use std::process::Command as Std;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use npuzzle_core::{Layout, Move, Shape, parse_board, parse_moves};
use predicates::str::contains;

mod common;
use common::{A31, npuzzle_with_cache, scratch};

fn npuzzle() -> Command {
    npuzzle_with_cache(scratch("pdb-cache-play"))
}

/// The moves of the title line `BOARD: N moves (...) by ENGINE + HEURISTIC: MOVES`.
fn title_moves(title: &str) -> Vec<Move> {
    parse_moves(title.rsplit_once(": ").expect("moves after ': '").1.trim()).unwrap()
}

/// `start` after the first `n` of `moves`.
fn after(start: &Layout, moves: &[Move], n: usize) -> Layout {
    let mut b = start.clone();
    for &m in &moves[..n] {
        assert!(b.apply(m), "illegal move");
    }
    b
}

/// Runs `npuzzle play ARGS` into a pipe and checks every frame against the replay.
fn plain_frames(args: &[&str], board: &str, size: Option<Shape>) -> usize {
    let out = npuzzle()
        .arg("play")
        .args(args)
        .arg(board)
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let frames: Vec<&str> = text.trim_end().split("\n\n").collect();
    let moves = title_moves(frames[0]);
    let start = parse_board(board, size).unwrap();
    assert_eq!(
        frames.len(),
        moves.len() + 2,
        "title, start, one frame a move"
    );
    for (i, frame) in frames[1..].iter().enumerate() {
        let (caption, grid) = frame.split_once('\n').unwrap();
        if i == 0 {
            assert_eq!(caption, format!("Start: {} moves", moves.len()));
        } else {
            assert!(
                caption.starts_with(&format!(
                    "Move {i} of {}: {}",
                    moves.len(),
                    moves[i - 1].letter()
                )),
                "{caption}"
            );
        }
        assert_eq!(
            parse_board(grid, None).unwrap(),
            after(&start, &moves, i),
            "frame {i}"
        );
    }
    let last = frames.last().unwrap().split_once('\n').unwrap().1;
    assert_eq!(
        parse_board(last, None).unwrap(),
        Layout::blank_last(start.shape()),
        "the last frame is the goal"
    );
    moves.len()
}

#[test]
fn piped_playback_prints_one_grid_a_move() {
    assert_eq!(plain_frames(&["--engine", "idastar"], A31, None), 31);
    // Greedy's longer answer, and a 4x4 board with A*.
    assert!(plain_frames(&["--engine", "greedy", "-H", "manhattan"], A31, None) >= 31);
    assert_eq!(
        plain_frames(&["--engine", "astar"], "2348170c56ab9def", None),
        15
    );
    // A non-square board given on one line needs --size.
    let n = plain_frames(
        &["--size", "4x3", "--engine", "idastar"],
        "1 2 3 4 5 6 0 8 9 10 7 11",
        Shape::new(4, 3).ok(),
    );
    assert_eq!(n, 2);
}

/// `--metric mtm`: the MTM-optimal answer (20 MTM moves for A31, as breadth-first search in
/// MTM says, `npuzzle-testsuite`), one frame a run: its caption names the run in the notation
/// (counts by default, `R2`; letters with `--notation letters`, `RR`) and its tiles; every
/// frame is the replay of the runs so far, the last the goal.
#[test]
fn piped_playback_in_the_multi_tile_metric() {
    for (args, counts) in [
        (&["--metric", "mtm"][..], true),
        (&["--metric", "mtm", "--notation", "letters"][..], false),
        (
            &["--metric", "mtm", "-e", "idastar", "-H", "walking-distance"][..],
            true,
        ),
    ] {
        let out = npuzzle().arg("play").args(args).arg(A31).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let frames: Vec<&str> = text.trim_end().split("\n\n").collect();
        let moves = title_moves(frames[0]);
        let runs = npuzzle_core::group_moves(&moves);
        assert_eq!(runs.len(), 20, "{}", frames[0]);
        assert!(
            frames[0].starts_with(&format!(
                "{}: 20 MTM moves (optimal in the multi-tile metric; {} single-tile moves) by idastar + ",
                parse_board(A31, None).unwrap(),
                moves.len()
            )),
            "{}",
            frames[0]
        );
        let written = frames[0].rsplit_once(": ").unwrap().1;
        assert_eq!(
            written.chars().any(|c| c.is_ascii_digit()),
            counts,
            "{written}"
        );
        assert_eq!(frames.len(), 20 + 2, "title, start, one frame a run");
        let start = parse_board(A31, None).unwrap();
        let mut done = 0;
        for (i, frame) in frames[1..].iter().enumerate() {
            let (caption, grid) = frame.split_once('\n').unwrap();
            if i == 0 {
                assert_eq!(
                    caption,
                    format!("Start: 20 MTM moves ({} single-tile moves)", moves.len())
                );
            } else {
                let g = runs[i - 1];
                let letters = g.dir.letter().to_string().repeat(g.count);
                let step = if counts && g.count > 1 {
                    format!("{}{}", g.dir.letter(), g.count)
                } else {
                    letters
                };
                let tiles = if g.count == 1 { "(tile " } else { "(tiles " };
                assert!(
                    caption.starts_with(&format!("Move {i} of 20: {step} {tiles}")),
                    "{caption}"
                );
                done += g.count;
            }
            assert_eq!(
                parse_board(grid, None).unwrap(),
                after(&start, &moves, done),
                "frame {i}"
            );
        }
        assert_eq!(done, moves.len());
        assert_eq!(
            parse_board(frames[21].split_once('\n').unwrap().1, None).unwrap(),
            Layout::blank_last(start.shape())
        );
    }
    // The MTM optimum agrees with breadth-first search in MTM.
    let goal = npuzzle_core::Goal::blank_last(Shape::square(3).unwrap());
    let oracle = npuzzle_testsuite::BfsOracle::in_metric(&goal, npuzzle_core::Metric::Mtm);
    assert_eq!(oracle.distance(&parse_board(A31, None).unwrap()), Some(20));
    // A heuristic not admissible in MTM is refused.
    npuzzle()
        .args(["play", "--metric", "mtm", "-H", "linear-conflict", A31])
        .assert()
        .code(2)
        .stderr(contains("not admissible in the multi-tile metric"));
}

#[test]
fn piped_playback_of_the_goal_and_of_unsolvable_boards() {
    npuzzle()
        .args(["play", "1 2 3 4 5 6 7 8 0"])
        .assert()
        .success()
        .stdout(contains("Start: 0 moves\n1 2 3\n4 5 6\n7 8 0\n"));
    npuzzle()
        .args(["play", "2 1 3 4 5 6 7 8 0"])
        .assert()
        .code(1)
        .stdout(contains("No solution"));
}

#[test]
fn play_errors() {
    npuzzle()
        .args(["play", "1 2 3 4 5 6 7 8 8"])
        .assert()
        .code(2)
        .stderr(contains("error:"));
    npuzzle()
        .args(["play", "--engine", "greedy", "--optimal", A31])
        .assert()
        .code(2)
        .stderr(contains("--optimal: the greedy engine"));
    npuzzle()
        .args(["play", "--delay", "5", A31])
        .assert()
        .code(2);
    npuzzle()
        .args([
            "play",
            "--engine",
            "astar",
            "--max-nodes",
            "10",
            "0bd45c329671af8e",
        ])
        .assert()
        .code(2)
        .stderr(contains("node limit"));
    // About 10^5 moves on 40x40: too many frames to print (the limit of --format boards).
    let generated = npuzzle()
        .args([
            "generate", "--size", "40x40", "--seed", "1", "--format", "line",
        ])
        .assert()
        .success();
    let board = String::from_utf8(generated.get_output().stdout.clone()).unwrap();
    npuzzle()
        .args([
            "play",
            "--engine",
            "constructive",
            "--size",
            "40x40",
            board.trim(),
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("too many boards to print as frames"));
}

// ---- the interactive playback, in tmux ----

/// A detached tmux session running one command; killed when dropped.
struct Tmux {
    name: String,
}

impl Tmux {
    /// Starts `command` (a shell command line) in an 80x24 session. Panics if tmux is missing:
    /// this test is `#[ignore]`d so that only `.ci/run`, which installs tmux, runs it.
    fn start(tag: &str, command: &str) -> Tmux {
        let name = format!("npuzzle-play-{tag}-{}", std::process::id());
        let ok = Std::new("tmux")
            .args([
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "24",
                "-s",
                &name,
                command,
            ])
            .status()
            .expect("tmux is installed (apt-get install -y tmux)")
            .success();
        assert!(ok, "tmux new-session failed");
        Tmux { name }
    }

    fn screen(&self) -> String {
        let out = Std::new("tmux")
            .args(["capture-pane", "-p", "-J", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8(out.stdout).unwrap()
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            let ok = Std::new("tmux")
                .args(["send-keys", "-t", &self.name, k])
                .status()
                .unwrap()
                .success();
            assert!(ok);
            std::thread::sleep(Duration::from_millis(150));
        }
    }

    /// Waits (up to 30 s) until the screen satisfies `pred`; returns it.
    fn wait(&self, what: &str, pred: impl Fn(&str) -> bool) -> String {
        let t = Instant::now();
        loop {
            let s = self.screen();
            if pred(&s) {
                return s;
            }
            assert!(t.elapsed() < Duration::from_secs(30), "no {what} on:\n{s}");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Std::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .status();
    }
}

/// The step shown (`Move N of ..`, or 0 for `Start`) and the board drawn in the grid.
fn shown(screen: &str, shape: Shape) -> (usize, Layout) {
    let step = screen
        .lines()
        .find_map(|l| l.trim().strip_prefix("Move "))
        .map_or(0, |rest| rest.split(' ').next().unwrap().parse().unwrap());
    let mut cells = Vec::new();
    for row in screen.lines().filter(|l| l.contains('│')) {
        let inner = row.trim().trim_matches('│');
        // Each cell is 3 columns wide on the 8-puzzle: " 8 ", the blank "   ".
        let chars: Vec<char> = inner.chars().collect();
        for c in chars.chunks(3) {
            let t: String = c.iter().collect();
            cells.push(t.trim().parse::<usize>().unwrap_or(0));
        }
    }
    (step, Layout::new(shape, &cells).unwrap())
}

#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this test"]
fn interactive_playback_in_tmux() {
    let bin = env!("CARGO_BIN_EXE_npuzzle");
    let cache = scratch("pdb-cache-play-tmux");
    let cmd = format!(
        "NPUZZLE_PDB_DIR='{}' '{bin}' play '{A31}' --engine idastar --delay 250; \
         echo \"exit status $?\"; sleep 60",
        cache.display()
    );
    let t = Tmux::start("a", &cmd);
    let shape = Shape::square(3).unwrap();
    let start = parse_board(A31, None).unwrap();
    // It draws: the title with the moves, the grid, the move line, the help.
    let s = t.wait("playback", |s| s.contains("playing, 250 ms a move"));
    assert!(s.contains("space pause/resume"), "{s}");
    // The title is cut at 80 columns; the letters line holds all 31 moves.
    let letters = s
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && l.chars().all(|c| "UDLR[]".contains(c)))
        .expect("a line of move letters");
    let moves = parse_moves(&letters.replace(['[', ']'], "")).unwrap();
    assert_eq!(moves.len(), 31);
    let check = |s: &str| {
        let (step, board) = shown(s, shape);
        assert_eq!(board, after(&start, &moves, step), "step {step} on:\n{s}");
        if step > 0 {
            assert!(
                s.contains(&format!("[{}]", moves[step - 1].letter())),
                "{s}"
            );
        }
        step
    };
    check(&s);
    let s = t.wait("a few moves", |s| shown(s, shape).0 >= 3);
    check(&s);
    // Space pauses: the board stays put.
    t.keys(&["Space"]);
    let s = t.wait("pause", |s| s.contains("paused"));
    let paused_at = check(&s);
    std::thread::sleep(Duration::from_millis(800));
    let s = t.screen();
    assert_eq!(check(&s), paused_at, "paused, yet it moved:\n{s}");
    // Right steps forward, Left back.
    t.keys(&["Right"]);
    let s = t.wait("a step forward", |s| shown(s, shape).0 == paused_at + 1);
    check(&s);
    t.keys(&["Left", "Left"]);
    let s = t.wait("two steps back", |s| shown(s, shape).0 + 1 == paused_at);
    check(&s);
    // + speeds up; space resumes and it plays to the goal.
    t.keys(&["+", "Space"]);
    t.wait("faster playback", |s| s.contains("playing, 166 ms a move"));
    let s = t.wait("the end", |s| s.contains("done:"));
    assert_eq!(check(&s), 31);
    assert_eq!(shown(&s, shape).1, Layout::blank_last(shape));
    // q quits: the main screen is back, with the answer printed and exit status 0.
    t.keys(&["q"]);
    let s = t.wait("exit", |s| s.contains("exit status"));
    assert!(s.contains("exit status 0"), "{s}");
    assert!(s.contains("Solved in 31 moves (optimal)"), "{s}");
    assert!(
        !s.contains("space pause/resume"),
        "the alternate screen is left:\n{s}"
    );
    drop(t);

    // A 30x30 board does not fit 80x24: a clear message and exit status 2.
    let big: Vec<String> = (1..900).chain([0]).map(|t: u32| t.to_string()).collect();
    let mut wide = big.clone();
    wide.swap(898, 899);
    let cmd = format!(
        "'{bin}' play '{}' --engine constructive; echo \"exit status $?\"; sleep 60",
        wide.join(" ")
    );
    let t = Tmux::start("b", &cmd);
    let s = t.wait("exit", |s| s.contains("exit status"));
    assert!(s.contains("exit status 2"), "{s}");
    assert!(
        s.contains("needs a terminal of at least 153 columns and 39 rows"),
        "{s}"
    );
}

/// The interactive playback in the multi-tile metric (tmux, as above): one run a step, 20
/// steps to the goal, the moves in counts notation with the current run in brackets, one run
/// back, and the answer printed in MTM on quitting.
#[test]
#[ignore = "needs tmux; .ci/run installs it and runs this test"]
fn interactive_mtm_playback_in_tmux() {
    let bin = env!("CARGO_BIN_EXE_npuzzle");
    let cache = scratch("pdb-cache-play-tmux-mtm");
    let shape = Shape::square(3).unwrap();
    let start = parse_board(A31, None).unwrap();
    let cmd = format!(
        "NPUZZLE_PDB_DIR='{}' '{bin}' play '{A31}' --metric mtm --delay 100; \
         echo \"exit status $?\"; sleep 60",
        cache.display()
    );
    let t = Tmux::start("m", &cmd);
    let s = t.wait("the end", |s| s.contains("done:"));
    assert_eq!(shown(&s, shape).0, 20, "{s}");
    assert_eq!(shown(&s, shape).1, Layout::blank_last(shape));
    assert!(s.contains("Move 20 of 20: "), "{s}");
    // The whole answer fits the line: every run, the last in brackets.
    let line = s
        .lines()
        .map(str::trim)
        .find(|l| l.ends_with(']') && l.chars().all(|c| "UDLR123[]".contains(c)))
        .unwrap_or_else(|| panic!("a line of MTM moves on:\n{s}"));
    assert!(
        line.chars().any(|c| c.is_ascii_digit()),
        "counts notation: {line}"
    );
    let moves = parse_moves(&line.replace(['[', ']'], "")).unwrap();
    let runs = npuzzle_core::group_moves(&moves);
    assert_eq!(runs.len(), 20, "{line}");
    assert_eq!(
        after(&start, &moves, moves.len()),
        Layout::blank_last(shape)
    );
    t.keys(&["Left"]);
    let s = t.wait("a step back", |s| shown(s, shape).0 == 19);
    let done: usize = runs[..19].iter().map(|g| g.count).sum();
    assert_eq!(shown(&s, shape).1, after(&start, &moves, done), "{s}");
    t.keys(&["q"]);
    let s = t.wait("exit", |s| s.contains("exit status"));
    assert!(s.contains("exit status 0"), "{s}");
    assert!(s.contains("Solved in 20 MTM moves"), "{s}");
}
