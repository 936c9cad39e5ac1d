//! The page in a real browser: headless Chromium driven over `WebDriver` (chromedriver) loads
//! the page from a server on an ephemeral port, enters a board, solves it, plays the animation
//! to the end and checks that the board shown is the goal, then runs the compare view and saves
//! screenshots.
//!
//! Ignored by `cargo test`; run it (as `.ci/run` does, after installing Debian's `chromium` and
//! `chromium-driver`) with
//!
//! ```text
//! NPUZZLE_SCREENSHOT_DIR=docs cargo test -p npuzzle-web --test browser -- --ignored
//! ```
//!
//! which writes `docs/web.png` (the solve view), `docs/web-mtm.png` (the same board in the
//! multi-tile metric), `docs/web-compare.png` and `docs/web-large.png` (a 40×40 board on the
//! canvas, fast-forward); without the variable they go to
//! `target/web-screenshots/` (relative paths are from the workspace root). It fails, never
//! skips, when the browser cannot run. `CHROMEDRIVER` and `CHROMIUM` name other binaries than `chromedriver` and
//! `chromium` on the `PATH`.

use std::net::TcpListener as StdListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use npuzzle_web::{App, Options};
use serde_json::json;

/// One of the two hardest 8-puzzles, 31 moves from the blank-last goal, typed as rows (the
/// page starts with the other one).
const BOARD: &str = "6 4 7\n8 5 0\n3 2 1";
const GOAL: &str = "1 2 3 4 5 6 7 8 0";

/// chromedriver, killed when dropped.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    StdListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_driver() -> (Driver, u16) {
    let bin = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let port = free_port();
    let child = Command::new(&bin)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {bin} (install Debian's chromium-driver, or set CHROMEDRIVER): {e}"
            )
        });
    let driver = Driver(child);
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{bin} did not listen on port {port} within 20 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (driver, port)
}

async fn connect(port: u16, profile: &std::path::Path) -> Client {
    let mut chrome = json!({
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--window-size=1280,860",
            format!("--user-data-dir={}", profile.display()),
        ]
    });
    if let Ok(bin) = std::env::var("CHROMIUM") {
        chrome["binary"] = json!(bin);
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), chrome);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .unwrap_or_else(|e| panic!("the browser cannot start under chromedriver: {e}"))
}

/// Polls `js` (an expression) until it is true, up to `within`.
async fn wait_for(c: &Client, js: &str, within: Duration) {
    let start = Instant::now();
    loop {
        let v = c
            .execute(&format!("return Boolean({js});"), vec![])
            .await
            .unwrap();
        if v == json!(true) {
            return;
        }
        if start.elapsed() > within {
            let status = c
                .execute(
                    "return [document.getElementById('solve-status').textContent, document.getElementById('parse-status').textContent, document.getElementById('counter').textContent, document.getElementById('play').textContent, JSON.stringify({pos: state.pos, n: state.moves.length, playing: state.playing})];",
                    vec![],
                )
                .await
                .unwrap();
            panic!("waited {within:?} for {js}; page status: {status}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn text(c: &Client, js: &str) -> String {
    c.execute(&format!("return String({js});"), vec![])
        .await
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

fn screenshot_dir() -> PathBuf {
    // Relative paths are taken from the workspace root (tests run in the package's folder).
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = std::env::var_os("NPUZZLE_SCREENSHOT_DIR")
        .map_or_else(|| root.join("target/web-screenshots"), |d| root.join(d));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver; run by .ci/run"]
async fn the_page_solves_and_animates_to_the_goal_in_chromium() {
    let pdb = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let options = Options {
        port: 0,
        pdb_dir: Some(pdb.path().to_path_buf()),
        ..Options::default()
    };
    let listener = tokio::net::TcpListener::bind(options.addr()).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(npuzzle_web::serve(listener, App::new(options)));

    let (_driver, port) = start_driver();
    let c = connect(port, profile.path()).await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    wait_for(
        &c,
        "document.querySelectorAll('#engine option').length > 1",
        Duration::from_secs(10),
    )
    .await;
    wait_for(
        &c,
        "document.getElementById('board').dataset.board",
        Duration::from_secs(10),
    )
    .await;

    solve_and_play(&c).await;
    let dir = screenshot_dir();
    scrub_and_hint(&c, &dir).await;
    multi_tile_metric(&c, &dir).await;
    compare(&c, &dir).await;
    large_board(&c, &dir).await;
    c.close().await.unwrap();
}

/// Types [`BOARD`], solves it with auto, plays it to the end and checks the goal is shown.
async fn solve_and_play(c: &Client) {
    // Enter the board by typing it.
    let input = c.find(Locator::Id("board-input")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(BOARD).await.unwrap();
    wait_for(
        c,
        "document.getElementById('board').dataset.board === '6 4 7 8 5 0 3 2 1'",
        Duration::from_secs(10),
    )
    .await;
    assert!(
        text(c, "document.getElementById('parse-status').textContent")
            .await
            .contains("3×3 board, solvable")
    );

    // Solve with the default engine (auto), play at full speed.
    c.find(Locator::Id("solve"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('solve-status').textContent.startsWith('solved in 31 moves')",
        Duration::from_mins(1),
    )
    .await;
    let stats = text(c, "document.getElementById('stats').textContent").await;
    assert!(
        stats.contains("31 moves") && stats.contains("optimal"),
        "{stats}"
    );
    c.execute(
        "const s = document.getElementById('speed'); s.value = 20; s.dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    c.find(Locator::Id("play"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('board').dataset.position === '31'",
        Duration::from_secs(30),
    )
    .await;

    // The board shown is the goal: the state, and the tiles where they are drawn (once the
    // last slide's CSS transition has ended).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        text(c, "document.getElementById('board').dataset.board").await,
        GOAL
    );
    let drawn = text(
        c,
        "(() => { const b = document.getElementById('board').getBoundingClientRect(); \
         const cells = Array(9).fill(0); \
         for (const t of document.querySelectorAll('#board .tile')) { \
           const r = t.getBoundingClientRect(); \
           const col = Math.floor((r.left + r.width / 2 - b.left) / (b.width / 3)); \
           const row = Math.floor((r.top + r.height / 2 - b.top) / (b.height / 3)); \
           cells[row * 3 + col] = Number(t.textContent); } \
         return cells.join(' '); })()",
    )
    .await;
    assert_eq!(drawn, GOAL, "tiles as drawn on the page");
    assert_eq!(drawn.split(' ').count(), 9);
    assert_eq!(
        text(
            c,
            "document.getElementById('board').classList.contains('solved')"
        )
        .await,
        "true"
    );
    assert_eq!(
        text(c, "document.getElementById('counter').textContent").await,
        "move 31 / 31"
    );
}

/// Scrubs to move 12, saves the screenshot of the solve view, and asks for a hint there.
async fn scrub_and_hint(c: &Client, dir: &std::path::Path) {
    // Step back once: the last move undone; forward again: the goal.
    c.find(Locator::Id("back"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        text(c, "document.getElementById('board').dataset.board").await,
        "1 2 3 4 5 6 7 0 8"
    );
    c.find(Locator::Id("forward"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        text(c, "document.getElementById('board').dataset.board").await,
        GOAL
    );
    // Scrub back to the middle, so that the screenshot shows a board in motion.
    c.execute(
        "const s = document.getElementById('scrubber'); s.value = 12; s.dispatchEvent(new Event('input'));",
        vec![],
    )
    .await
    .unwrap();
    assert_eq!(
        text(c, "document.getElementById('board').dataset.position").await,
        "12"
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(dir.join("web.png"), &png).unwrap();

    // A hint from the middle of the answer: the next move of an optimal solution.
    c.find(Locator::Id("hint"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('hint-status').textContent.startsWith('hint: slide')",
        Duration::from_secs(30),
    )
    .await;
    let hint = text(c, "document.getElementById('hint-status').textContent").await;
    assert!(hint.contains("19 moves to go (optimal)"), "{hint}");
}

/// Sets the `<select>` `id` to `value` as a user would (a `change` event).
async fn choose(c: &Client, id: &str, value: &str) {
    c.execute(
        &format!(
            "const s = document.getElementById('{id}'); s.value = '{value}'; s.dispatchEvent(new Event('change'));"
        ),
        vec![],
    )
    .await
    .unwrap();
}

/// The multi-tile metric on [`BOARD`]: solved in MTM (the length of a breadth-first search
/// over every state in MTM), played one run a step to the goal, stepped back one run, a hint in
/// MTM, the answer checked in counts notation, a two-tile move played by hand; then back to
/// STM for the other views.
async fn multi_tile_metric(c: &Client, dir: &std::path::Path) {
    let (optimum, counts) = mtm_solve_and_play(c, dir).await;
    mtm_hint_check_and_play_by_hand(c, optimum, &counts).await;
    choose(c, "metric", "stm").await;
    assert_eq!(
        text(c, "document.getElementById('notation').value").await,
        "letters"
    );
}

/// Solves [`BOARD`] in MTM, plays it to the goal, steps back one run and saves the screenshot
/// halfway; returns the MTM optimum and the answer in counts notation.
async fn mtm_solve_and_play(c: &Client, dir: &std::path::Path) -> (u32, String) {
    use npuzzle::{Goal, Metric, Shape, parse_board, parse_moves};
    let start = parse_board(BOARD, None).unwrap();
    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let optimum = npuzzle_testsuite::BfsOracle::in_metric(&goal, Metric::Mtm)
        .distance(&start)
        .unwrap();
    choose(c, "metric", "mtm").await;
    assert_eq!(
        text(c, "document.getElementById('notation').value").await,
        "counts"
    );
    c.find(Locator::Id("solve"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        &format!("document.getElementById('solve-status').textContent.startsWith('solved in {optimum} MTM moves')"),
        Duration::from_mins(1),
    )
    .await;
    let stats = text(c, "document.getElementById('stats').textContent").await;
    assert!(
        stats.contains("single-tile") && stats.contains("optimal in the multi-tile metric"),
        "{stats}"
    );
    let moves = parse_moves(&text(c, "state.moves").await).unwrap();
    let runs = npuzzle::npuzzle_core::group_moves(&moves);
    assert_eq!(runs.len(), optimum as usize);
    let counts = npuzzle::moves_to_counts(&moves);
    assert_eq!(
        text(c, "document.getElementById('moves').textContent").await,
        counts
    );
    // Played to the end, one run a step: the goal.
    c.find(Locator::Id("play"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        &format!("document.getElementById('board').dataset.position === '{optimum}'"),
        Duration::from_secs(30),
    )
    .await;
    assert_eq!(
        text(c, "document.getElementById('board').dataset.board").await,
        GOAL
    );
    assert_eq!(
        text(c, "document.getElementById('counter').textContent").await,
        format!("move {optimum} / {optimum} (MTM)")
    );
    // One step back undoes the whole last run.
    c.find(Locator::Id("back"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let last = runs.last().unwrap().count;
    let mut before = start.clone();
    for &m in &moves[..moves.len() - last] {
        assert!(before.apply(m));
    }
    assert_eq!(
        text(c, "document.getElementById('board').dataset.board").await,
        before.to_line()
    );
    assert_eq!(
        text(c, "document.getElementById('board').dataset.single").await,
        (moves.len() - last).to_string()
    );
    // The screenshot: in the middle of the answer, a run just played.
    c.execute(
        &format!(
            "const s = document.getElementById('scrubber'); s.value = {}; s.dispatchEvent(new Event('input'));",
            optimum / 2
        ),
        vec![],
    )
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    std::fs::write(dir.join("web-mtm.png"), c.screenshot().await.unwrap()).unwrap();
    (optimum, counts)
}

/// From the start of the MTM answer: a hint (the first run), the answer checked in counts
/// notation, and a two-tile move played by hand.
async fn mtm_hint_check_and_play_by_hand(c: &Client, optimum: u32, counts: &str) {
    // A hint from the start: the first run of an MTM-optimal solution.
    c.find(Locator::Id("first"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.find(Locator::Id("hint"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('hint-status').textContent.startsWith('hint: slide')",
        Duration::from_secs(30),
    )
    .await;
    let hint = text(c, "document.getElementById('hint-status').textContent").await;
    assert!(
        hint.contains(&format!("{optimum} MTM moves to go (optimal)")),
        "{hint}"
    );
    // The answer pasted in counts notation and checked in MTM: optimal.
    let input = c.find(Locator::Id("check-moves")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(counts).await.unwrap();
    c.find(Locator::Id("check"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('check-status').textContent.startsWith('solves the board')",
        Duration::from_secs(30),
    )
    .await;
    let verdict = text(c, "document.getElementById('check-status').textContent").await;
    assert!(
        verdict.starts_with(&format!("solves the board in {optimum} MTM moves"))
            && verdict.contains("yours is optimal"),
        "{verdict}"
    );
    // By hand in MTM: tile 8, two cells left of the blank, slides right with tile 5 (one move).
    c.find(Locator::Css("#board .tile[data-tile='8']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        text(c, "document.getElementById('board').dataset.board").await,
        "6 4 7 0 8 5 3 2 1"
    );
    assert_eq!(
        text(c, "document.getElementById('counter').textContent").await,
        "played 1 / 1 (MTM)"
    );
}

/// The compare view: every engine, a table row each and two bar charts; saves its screenshot.
async fn compare(c: &Client, dir: &std::path::Path) {
    c.find(Locator::Id("tab-compare"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    c.find(Locator::Id("compare"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('compare-status').textContent.includes('engines answered')",
        Duration::from_mins(2),
    )
    .await;
    let rows = text(
        c,
        "document.querySelectorAll('#compare-table tbody tr').length",
    )
    .await;
    assert_eq!(rows, npuzzle::Engine::ALL.len().to_string());
    let bars = text(c, "document.querySelectorAll('#chart-nodes g.bar').length").await;
    assert_eq!(bars, rows);
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join("web-compare.png"), &png).unwrap();
    c.find(Locator::Id("tab-solve"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// A 40×40 board: drawn on the canvas, solved by auto (the constructive solver's long answer),
/// played fast-forward, then jumped to the end: the goal.
async fn large_board(c: &Client, dir: &std::path::Path) {
    c.execute(
        "document.getElementById('gen-size').value = '40x40'; document.getElementById('gen-seed').value = '3';",
        vec![],
    )
    .await
    .unwrap();
    c.find(Locator::Id("scramble"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('parse-status').textContent.startsWith('40×40 board')",
        Duration::from_secs(20),
    )
    .await;
    assert_eq!(
        text(
            c,
            "document.getElementById('board').classList.contains('hidden')"
        )
        .await,
        "true"
    );
    c.find(Locator::Id("solve"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        c,
        "document.getElementById('solve-status').textContent.startsWith('solved in')",
        Duration::from_mins(1),
    )
    .await;
    let n: usize = text(c, "state.moves.length").await.parse().unwrap();
    assert!(n > 1500, "a long constructive answer: {n} moves");
    c.find(Locator::Id("play"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let label = text(c, "document.getElementById('speed-label').textContent").await;
    assert!(label.starts_with("fast-forward"), "{label}");
    let pos: usize = text(
        c,
        "document.getElementById('board-canvas').dataset.position",
    )
    .await
    .parse()
    .unwrap();
    assert!(pos > 20, "fast-forward: {pos} of {n} moves after 1 s");
    c.find(Locator::Id("play"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap(); // pause
    let png = c.screenshot().await.unwrap();
    std::fs::write(dir.join("web-large.png"), &png).unwrap();
    c.find(Locator::Id("last"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let shown = text(c, "document.getElementById('board-canvas').dataset.board").await;
    let goal: Vec<String> = (1..1600)
        .map(|t| t.to_string())
        .chain(["0".to_string()])
        .collect();
    assert_eq!(shown, goal.join(" "));
    assert_eq!(
        text(
            c,
            "document.getElementById('board-canvas').classList.contains('solved')"
        )
        .await,
        "true"
    );
}
