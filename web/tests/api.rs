//! The JSON API against a real server on an ephemeral port: solve (the same record as the
//! facade gives `npuzzle solve --format json`), bad input (400), limits (422), generate, the
//! engine list, the server rules (503 when busy, 413 for large bodies) and cancellation when
//! the client disconnects.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use npuzzle::generate::{Method, generate};
use npuzzle::npuzzle_core::parse_moves;
use npuzzle::{Config, Engine, Goal, HeuristicKind, Record, Shape, parse_board};
use npuzzle_web::{App, Options};
use serde_json::{Value, json};

/// Korf's hardest 8-puzzle: 31 moves for the blank-last goal.
const HARD8: &str = "8 6 7 2 5 4 3 0 1";
/// A random 5×5 board (`npuzzle generate --size 5x5 --seed 1`): IDA* with Manhattan distance
/// does not finish it in hours, so only a limit or a cancellation ends its search.
const HOPELESS: &str = "5x5";

struct Server {
    addr: SocketAddr,
    app: App,
    client: reqwest::Client,
    _pdb: tempfile::TempDir,
}

impl Server {
    async fn start(options: Options) -> Server {
        let pdb = tempfile::tempdir().unwrap();
        let options = Options {
            host: [127, 0, 0, 1].into(),
            port: 0,
            pdb_dir: Some(pdb.path().to_path_buf()),
            ..options
        };
        let listener = tokio::net::TcpListener::bind(options.addr()).await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = App::new(options);
        tokio::spawn(npuzzle_web::serve(listener, app.clone()));
        Server {
            addr,
            app,
            client: reqwest::Client::new(),
            _pdb: pdb,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn solve(&self, body: Value) -> (u16, Value) {
        let r = self
            .client
            .post(self.url("/api/solve"))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    async fn check(&self, body: Value) -> (u16, Value) {
        let r = self
            .client
            .post(self.url("/api/check"))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let r = self.client.get(self.url(path)).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    /// Waits until no search runs, up to `within`; returns how long it took.
    async fn settle(&self, within: Duration) -> Duration {
        let start = Instant::now();
        while self.app.active_searches() > 0 {
            assert!(
                start.elapsed() < within,
                "{} searches still running after {within:?}",
                self.app.active_searches()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        start.elapsed()
    }
}

fn hopeless_board() -> String {
    let shape: Shape = HOPELESS.parse().unwrap();
    generate(&Goal::blank_last(shape), Method::Uniform, 1, 1)
        .next()
        .unwrap()
        .to_line()
}

/// Replays `moves` from `board` and checks that it ends on `goal`.
fn replays(board: &str, moves: &str, goal: &str) {
    let mut layout = parse_board(board, None).unwrap();
    for m in parse_moves(moves).unwrap() {
        assert!(layout.apply(m), "illegal move {m:?} in {moves}");
    }
    assert_eq!(layout, parse_board(goal, None).unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_answers_the_cli_record() {
    let s = Server::start(Options::default()).await;
    let (status, v) = s
        .solve(json!({"board": HARD8, "engine": "idastar", "heuristic": "manhattan"}))
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["length"], 31);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["engine"], "idastar");
    assert_eq!(v["goal"], "123456780");
    replays(HARD8, v["moves"].as_str().unwrap(), "1 2 3 4 5 6 7 8 0");
    // The same record as the facade's (which `npuzzle solve --format json` prints), but for
    // the timings; same keys in the same order.
    let answer = Config::new()
        .engine(Engine::IdaStar)
        .heuristic(HeuristicKind::Manhattan)
        .threads(1)
        .build()
        .unwrap()
        .solve_str(HARD8)
        .unwrap();
    let mut expected = serde_json::to_value(Record::from(&answer)).unwrap();
    let mut got = v.clone();
    for x in [&mut expected, &mut got] {
        x["stats"]["seconds"] = json!(0);
        x["stats"]["nodes_per_second"] = json!(0);
    }
    assert_eq!(got, expected);
    let back: Record = serde_json::from_value(v).unwrap();
    assert_eq!(back.length, Some(31));

    // The multi-tile metric: length in MTM, both counts, the counts string; refused with
    // optimal and an engine that cannot prove it; an unknown metric.
    let (status, v) = s.solve(json!({"board": HARD8, "metric": "mtm"})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (
            &v["metric"],
            &v["length"],
            &v["length_stm"],
            &v["length_mtm"],
            &v["optimal"]
        ),
        (
            &json!("mtm"),
            &json!(20),
            &json!(v["moves"].as_str().unwrap().len()),
            &json!(20),
            &json!(true)
        )
    );
    replays(
        HARD8,
        v["moves_counts"].as_str().unwrap(),
        "1 2 3 4 5 6 7 8 0",
    );
    let (status, v) = s
        .solve(json!({"board": HARD8, "metric": "mtm", "engine": "astar", "optimal": true}))
        .await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("\"metric\" mtm with \"optimal\": the astar engine"),
        "{v}"
    );
    let (status, v) = s.solve(json!({"board": HARD8, "metric": "xtm"})).await;
    assert_eq!(status, 400, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("unknown metric \"xtm\""),
        "{v}"
    );

    // Auto (pattern databases built into the temporary cache), blank-first goal, grid input.
    let (status, v) = s
        .solve(json!({"board": "1 2 0\n3 4 5\n6 7 8", "goal": "blank-first"}))
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["length"], 2);
    assert_eq!(v["moves"], "RR");
    assert_eq!(v["optimal"], true);

    // A non-square board on one line with its size.
    let (status, v) = s
        .solve(json!({"board": "1 2 3 4 5 6 7 8 9 10 0 11", "size": "4x3", "engine": "astar"}))
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["width"].as_u64(), v["length"].as_u64()),
        (Some(4), Some(1))
    );

    // Unsolvable: a proven answer, not an error.
    let (status, v) = s.solve(json!({"board": "123456870"})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["solvable"], false);
    assert!(v["moves"].is_null() && v["stats"].is_null());
    assert_eq!(s.app.active_searches(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_400_with_the_cli_message() {
    let s = Server::start(Options::default()).await;
    let expected = npuzzle::Error::from(parse_board("1 2 3 4 5 6 7 8 8", None).unwrap_err());
    let (status, v) = s.solve(json!({"board": "1 2 3 4 5 6 7 8 8"})).await;
    assert_eq!(status, 400);
    assert_eq!(v["error"], expected.to_string());
    assert!(v["error"].as_str().unwrap().contains('8'), "{v}");

    let cases = [
        (
            json!({"board": HARD8, "engine": "dijkstra"}),
            "unknown engine \"dijkstra\"",
        ),
        (
            json!({"board": HARD8, "heuristic": "magic"}),
            "unknown heuristic \"magic\"",
        ),
        (json!({"board": HARD8, "goal": "12345678"}), "goal"),
        (
            json!({"board": HARD8, "timeout": -1}),
            "timeout must be a positive",
        ),
        (
            json!({"board": HARD8, "weight": 2, "engine": "astar"}),
            "\"weight\" applies to the weighted-astar engine only, not to astar",
        ),
        (
            json!({"board": HARD8, "optimal": true, "engine": "constructive"}),
            "\"optimal\": the constructive engine",
        ),
        (json!({"board": HARD8, "colour": "red"}), "unknown field"),
        (json!({"goal": "blank-last"}), "missing field"),
    ];
    for (body, needle) in cases {
        let (status, v) = s.solve(body.clone()).await;
        assert_eq!(status, 400, "{body}: {v}");
        let msg = v["error"].as_str().unwrap();
        assert!(msg.contains(needle), "{body}: {msg}");
    }
    // Not JSON at all.
    let r = s
        .client
        .post(s.url("/api/solve"))
        .header("content-type", "application/json")
        .body("{board")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    assert!(r.json::<Value>().await.unwrap()["error"].is_string());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_are_422_with_the_limit_and_progress() {
    let s = Server::start(Options::default()).await;
    let board = hopeless_board();
    let (status, v) = s
        .solve(json!({"board": board, "engine": "idastar", "heuristic": "manhattan", "max_nodes": 100_000}))
        .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["limit"], json!({"nodes": 100_000}));
    assert!(
        v["progress"]["generated"].as_u64().unwrap() >= 100_000,
        "{v}"
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("search stopped by the node limit")
    );

    let start = Instant::now();
    let (status, v) = s
        .solve(
            json!({"board": board, "engine": "idastar", "heuristic": "manhattan", "timeout": 0.3}),
        )
        .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["limit"], json!({"time": 0.3}));
    assert!(v["progress"]["bound"].as_u64().unwrap() > 0);
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_time_limit_is_capped_by_max_timeout() {
    let s = Server::start(Options {
        max_timeout: Duration::from_millis(300),
        ..Options::default()
    })
    .await;
    let (status, v) = s
        .solve(json!({"board": hopeless_board(), "engine": "idastar", "timeout": 3600}))
        .await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(v["limit"], json!({"time": 0.3}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generate_boards_as_the_cli_does() {
    let s = Server::start(Options::default()).await;
    let shape: Shape = "4x4".parse().unwrap();
    let goal = Goal::blank_last(shape);
    let (status, v) = s.get("/api/generate?size=4x4&seed=7").await;
    assert_eq!(status, 200, "{v}");
    let expected = generate(&goal, Method::Uniform, 7, 1).next().unwrap();
    assert_eq!(v["board"], expected.to_line());
    assert_eq!(
        (v["width"].as_u64(), v["seed"].as_u64()),
        (Some(4), Some(7))
    );
    assert_eq!(v["method"], "uniform");

    let (status, v) = s.get("/api/generate?size=4x4&seed=7&walk=40").await;
    assert_eq!(status, 200, "{v}");
    let walked = generate(&goal, Method::Walk(40), 7, 1).next().unwrap();
    assert_eq!(v["board"], walked.to_line());
    assert_eq!(v["method"], "walk");

    let (status, v) = s
        .get("/api/generate?size=5x3&seed=2&goal=blank-first")
        .await;
    assert_eq!(status, 200, "{v}");
    let layout = parse_board(v["board"].as_str().unwrap(), Some("5x3".parse().unwrap())).unwrap();
    let first = Goal::blank_first("5x3".parse().unwrap());
    assert!(first.parity(&layout).unwrap().solvable);

    // A fresh seed when none is given, reported back.
    let (status, v) = s.get("/api/generate?size=3x3").await;
    assert_eq!(status, 200);
    assert!(v["seed"].is_u64());

    for bad in [
        "size=1x4",
        "size=four",
        "size=3x3&walk=99999999999",
        "seed=3",
    ] {
        let (status, v) = s.get(&format!("/api/generate?{bad}")).await;
        assert_eq!(status, 400, "{bad}: {v}");
        assert!(v["error"].is_string());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_parse_status_and_the_page() {
    let s = Server::start(Options::default()).await;
    let (status, v) = s.get("/api/engines").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = v["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    assert_eq!(names, all);
    assert_eq!(v["engines"][0]["optimal"], true);
    assert_eq!(
        v["heuristics"].as_array().unwrap().len(),
        HeuristicKind::ALL.len()
    );
    assert_eq!(v["default_timeout"], 10.0);

    let r = s
        .client
        .post(s.url("/api/parse"))
        .json(&json!({"board": "1 2 3 4\n5 6 7 8\n9 10 0 11"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["board"], "1 2 3 4 5 6 7 8 9 10 0 11");
    assert_eq!(v["slash"], "1 2 3 4/5 6 7 8/9 10 0 11");
    assert_eq!(v["goal"], "1 2 3 4 5 6 7 8 9 10 11 0");
    assert_eq!(v["solvable"], true);
    // Slash rows in: the shape from the rows.
    let r = s
        .client
        .post(s.url("/api/parse"))
        .json(&json!({"board": "1 2 3 4/5 6 7 8/9 10 0 11"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(v["board"], "1 2 3 4 5 6 7 8 9 10 0 11");

    let (status, v) = s.get("/api/status").await;
    assert_eq!(status, 200);
    assert_eq!(v["active_searches"], 0);

    for (path, kind, needle) in [
        ("/", "text/html", "<title>npuzzle"),
        ("/app.js", "text/javascript", "/api/solve"),
        ("/style.css", "text/css", ".tile"),
    ] {
        let r = s.client.get(s.url(path)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let ct = r.headers()["content-type"].to_str().unwrap().to_string();
        assert!(ct.starts_with(kind), "{path}: {ct}");
        let text = r.text().await.unwrap();
        assert!(text.contains(needle), "{path}");
        // The SVG namespace is a name, not a download.
        let text = text.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{path} loads nothing from the network"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_cancels_its_search() {
    let s = Server::start(Options::default()).await;
    let body = json!({"board": hopeless_board(), "engine": "idastar", "heuristic": "manhattan", "timeout": 60});
    let request = s.client.post(s.url("/api/solve")).json(&body).send();
    let task = tokio::spawn(request);
    let start = Instant::now();
    while s.app.active_searches() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the search never started"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(s.app.active_searches(), 1);
    // Dropping the request closes its connection.
    task.abort();
    assert!(task.await.unwrap_err().is_cancelled());
    let took = s.settle(Duration::from_secs(3)).await;
    eprintln!("search stopped {took:?} after the client went away");
    let (_, v) = s.get("/api/status").await;
    assert_eq!(v["active_searches"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_slots_answer_503_and_large_bodies_413() {
    let s = Server::start(Options {
        max_searches: 1,
        queue_wait: Duration::from_millis(200),
        body_limit: 4096,
        ..Options::default()
    })
    .await;
    let body = json!({"board": hopeless_board(), "engine": "idastar", "timeout": 60});
    let task = tokio::spawn(s.client.post(s.url("/api/solve")).json(&body).send());
    let start = Instant::now();
    while s.app.active_searches() == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the search never started"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (status, v) = s.solve(json!({"board": HARD8})).await;
    assert_eq!(status, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("busy"));
    task.abort();
    s.settle(Duration::from_secs(3)).await;
    // The slot is free again.
    let (status, v) = s.solve(json!({"board": HARD8, "engine": "idastar"})).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["length"], 31);

    let big = "1 ".repeat(4000);
    let (status, v) = s.solve(json!({ "board": big })).await;
    assert_eq!(status, 413, "{v}");
}

/// Issue 27: `POST /api/check` judges a pasted solution; `/api/solve` lists and counts every
/// optimal solution, takes a depth limit, and runs hill climbing with a seed.
#[tokio::test]
async fn check_all_optimal_depth_and_hill_climbing() {
    let s = Server::start(Options::default()).await;
    let check = |body: Value| {
        let client = s.client.clone();
        let url = s.url("/api/check");
        async move {
            let r = client.post(url).json(&body).send().await.unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap())
        }
    };
    let (st, c) = check(json!({"board": HARD8, "moves": "DDRUULLDDRURULLDDRURULLDDRRUULL"})).await;
    assert_eq!(st, 200, "{c}");
    assert_eq!(
        (c["solves"].as_bool(), c["optimal"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(c["optimum"]["length"], 31);
    let (st, c) = check(json!({"board": HARD8, "moves": "DDD"})).await;
    assert_eq!(st, 200, "{c}");
    assert_eq!(c["illegal"]["index"], 2);
    assert_eq!(c["solves"], false);
    let (st, c) = check(json!({"board": HARD8, "moves": "DQ"})).await;
    assert_eq!(st, 400);
    assert!(c["error"].as_str().unwrap().contains("\"moves\""), "{c}");
    // A partial goal (issue 51): solved and judged by the tiles that matter.
    let (st, r) = s.solve(json!({"board": HARD8, "goal": "123xxxxxx"})).await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(
        (r["length"].as_u64(), r["partial_goal"].as_str()),
        (Some(21), Some("123xxxxxx"))
    );
    let moves = r["moves"].as_str().unwrap().to_string();
    let (st, c) = check(json!({"board": HARD8, "goal": "123xxxxxx", "moves": moves})).await;
    assert_eq!(st, 200, "{c}");
    assert_eq!(
        (c["solves"].as_bool(), c["optimal"].as_bool()),
        (Some(true), Some(true)),
        "{c}"
    );
    assert_eq!(
        (c["goal"].as_str(), c["optimum"]["length"].as_u64()),
        (Some("123xxxxxx"), Some(21))
    );
    let (st, c) = check(json!({"board": HARD8, "goal": "first-row", "moves": "L"})).await;
    assert_eq!(st, 200, "{c}");
    assert_eq!(c["solves"], false);
    assert_eq!(c["partial_goal"], "first-rows:1");

    let (st, r) = s
        .solve(json!({"board": HARD8, "engine": "idastar", "all_optimal": true, "limit": 5}))
        .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["optimal_count"], 40);
    let list = r["optimal_solutions"].as_array().unwrap();
    assert_eq!(list.len(), 5);
    for m in list {
        replays(HARD8, m.as_str().unwrap(), "1 2 3 4 5 6 7 8 0");
    }
    let (st, r) = s.solve(json!({"board": HARD8, "count": true})).await;
    assert_eq!((st, r["optimal_count"].as_u64()), (200, Some(40)), "{r}");
    assert!(r.get("optimal_solutions").is_none());
    let (st, r) = s.solve(json!({"board": HARD8, "limit": 5})).await;
    assert_eq!(st, 400, "{r}");

    let (st, r) = s
        .solve(json!({"board": HARD8, "engine": "idastar", "max_depth": 29}))
        .await;
    assert_eq!(st, 422, "{r}");
    assert_eq!(r["limit"]["depth"], 29);
    assert_eq!(r["progress"]["bound"], 31);
    let (st, r) = s
        .solve(json!({"board": HARD8, "engine": "astar", "max_depth": 29}))
        .await;
    assert_eq!(st, 400, "{r}");

    let (st, r) = s
        .solve(json!({"board": HARD8, "engine": "hill-climbing", "seed": 3}))
        .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["optimal"], false);
    replays(HARD8, r["moves"].as_str().unwrap(), "1 2 3 4 5 6 7 8 0");
    let (st, r) = s
        .solve(json!({"board": HARD8, "engine": "hill-climbing", "max_steps": 5}))
        .await;
    assert_eq!(st, 422, "{r}");
    assert_eq!(r["limit"]["steps"], 5);
}

/// Issue 51: `/api/solve` with `within` counts (and lists) every solution within k moves of
/// the optimum, in both metrics; in MTM the counts by MTM length equal the enumeration's
/// (`npuzzle_testsuite::mtm_solutions_by_length`) and the lists come with counts too; a
/// `within` above 1000 is 400.
#[tokio::test]
async fn within_in_both_metrics() {
    let s = Server::start(Options::default()).await;
    let board = parse_board(HARD8, None).unwrap();
    let goal = Goal::blank_last(board.shape());
    let mtm = npuzzle_testsuite::mtm_solutions_by_length(&board, &goal, 21);
    let (st, r) = s
        .solve(
            json!({"board": HARD8, "metric": "mtm", "heuristic": "walking-distance",
                      "within": 1, "limit": 100_000}),
        )
        .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(
        (r["metric"].as_str(), r["length"].as_u64()),
        (Some("mtm"), Some(20))
    );
    assert_eq!(r["optimal_count"], mtm[20]);
    assert_eq!(r["within_count"], mtm[20] + mtm[21]);
    assert_eq!(
        r["counts_by_length"][1],
        json!({"length": 21, "count": mtm[21]})
    );
    let (letters, counts) = (
        r["solutions"].as_array().unwrap(),
        r["solutions_counts"].as_array().unwrap(),
    );
    assert_eq!(letters.len() as u64, mtm[20] + mtm[21]);
    for (l, c) in letters.iter().zip(counts) {
        replays(HARD8, l.as_str().unwrap(), "1 2 3 4 5 6 7 8 0");
        assert_eq!(
            parse_moves(c.as_str().unwrap()).unwrap(),
            parse_moves(l.as_str().unwrap()).unwrap()
        );
    }
    // Counted only, in MTM with all-optimal.
    let (st, r) = s
        .solve(
            json!({"board": HARD8, "metric": "mtm", "heuristic": "walking-distance",
                      "count": true}),
        )
        .await;
    assert_eq!(
        (st, r["optimal_count"].as_u64()),
        (200, Some(mtm[20])),
        "{r}"
    );
    assert!(r.get("optimal_solutions").is_none() && r.get("within").is_none());
    // STM: 40 optimal solutions of 31 moves, none of 32.
    let (st, r) = s
        .solve(json!({"board": HARD8, "within": 1, "count": true}))
        .await;
    assert_eq!(st, 200, "{r}");
    assert_eq!(r["within_count"], 40);
    assert_eq!(
        r["counts_by_length"],
        json!([{"length": 31, "count": 40}, {"length": 32, "count": 0}])
    );
    assert!(r.get("solutions").is_none());
    let (st, r) = s.solve(json!({"board": HARD8, "within": 1001})).await;
    assert_eq!(st, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("\"within\""), "{r}");
}

/// The multi-tile metric through the API: `/api/engines` lists the metrics and notations;
/// `/api/solve` with `"metric": "mtm"` answers the exact MTM optimum of a breadth-first search
/// over every 8-puzzle state (`npuzzle_testsuite::BfsOracle::in_metric`); `/api/check` with
/// `"metric": "mtm"` counts a run of one letter as one move and judges against that optimum,
/// whether the moves are written with counts (`R2`) or as letters; an unknown metric is 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_and_check_in_the_multi_tile_metric() {
    use npuzzle::Metric;
    use npuzzle_testsuite::BfsOracle;
    let s = Server::start(Options::default()).await;
    let (status, v) = s.get("/api/engines").await;
    assert_eq!(status, 200);
    assert_eq!(v["metrics"], json!(["stm", "mtm"]));
    assert_eq!(v["notations"], json!(["letters", "counts"]));

    let goal = Goal::blank_last(Shape::square(3).unwrap());
    let oracle = BfsOracle::in_metric(&goal, Metric::Mtm);
    let stm = BfsOracle::new(&goal);
    let all = oracle.sample(1);
    let mut boards: Vec<(String, u32)> = [3, 11, 24]
        .iter()
        .map(|&d| {
            let (l, _) = all.iter().find(|(_, e)| *e == d).unwrap();
            (l.to_line(), d)
        })
        .collect();
    boards.push((HARD8.to_string(), 20));
    for (board, d) in &boards {
        let layout = parse_board(board, None).unwrap();
        assert_eq!(oracle.distance(&layout), Some(*d), "{board}");
        let (st, r) = s.solve(json!({"board": board, "metric": "mtm"})).await;
        assert_eq!(st, 200, "{r}");
        assert_eq!(
            (
                r["metric"].as_str(),
                r["length"].as_u64(),
                r["optimal"].as_bool()
            ),
            (Some("mtm"), Some(u64::from(*d)), Some(true)),
            "{board}: {r}"
        );
        let moves = r["moves"].as_str().unwrap();
        replays(board, moves, "1 2 3 4 5 6 7 8 0");
        // Checked in MTM, in counts and in letters: the optimum, no extra moves.
        for written in [r["moves_counts"].as_str().unwrap(), moves] {
            let (st, c) = s
                .check(json!({"board": board, "moves": written, "metric": "mtm"}))
                .await;
            assert_eq!(st, 200, "{c}");
            assert_eq!(
                (
                    c["metric"].as_str(),
                    c["length"].as_u64(),
                    c["solves"].as_bool(),
                    c["optimal"].as_bool(),
                    c["extra_moves"].as_u64(),
                    c["optimum"]["length"].as_u64()
                ),
                (
                    Some("mtm"),
                    Some(u64::from(*d)),
                    Some(true),
                    Some(true),
                    Some(0),
                    Some(u64::from(*d))
                ),
                "{board} {written}: {c}"
            );
        }
        // The same moves in STM: as many moves as letters, against the STM optimum.
        let (st, c) = s.check(json!({"board": board, "moves": moves})).await;
        assert_eq!(st, 200, "{c}");
        assert_eq!(c["metric"], "stm");
        assert_eq!(c["length"].as_u64(), Some(moves.len() as u64));
        assert_eq!(
            c["optimum"]["length"].as_u64(),
            stm.distance(&layout).map(u64::from)
        );
    }
    // An STM-optimal solution of the hardest board judged in MTM: its 31 letters are 20 runs,
    // MTM-optimal too; with a detour (LR) first, 22 runs: 2 more than the optimum.
    let stm31 = "DDRUULLDDRURULLDDRURULLDDRRUULL";
    assert_eq!(npuzzle::mtm_length(&parse_moves(stm31).unwrap()), 20);
    for (moves, length, optimal, extra) in [
        (stm31.to_string(), 20, true, 0),
        (format!("LR{stm31}"), 22, false, 2),
    ] {
        let (st, c) = s
            .check(json!({"board": HARD8, "moves": moves, "metric": "mtm"}))
            .await;
        assert_eq!(st, 200, "{c}");
        assert_eq!(
            (
                c["length"].as_u64(),
                c["optimal"].as_bool(),
                c["extra_moves"].as_u64()
            ),
            (Some(length), Some(optimal), Some(extra)),
            "{moves}: {c}"
        );
    }
    let (st, c) = s
        .check(json!({"board": HARD8, "moves": "D", "metric": "xtm"}))
        .await;
    assert_eq!(st, 400, "{c}");
    assert!(
        c["error"]
            .as_str()
            .unwrap()
            .contains("unknown metric \"xtm\""),
        "{c}"
    );
}
