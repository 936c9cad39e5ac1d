//! The JSON API: `/api/solve`, `/api/generate`, `/api/engines`, `/api/status` (see the crate
//! docs for the shapes). Every search goes through the `npuzzle` facade.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use npuzzle::generate::{Method, generate};
use std::fmt::Write as _;

use npuzzle::npuzzle_pdb::PdbError;
use npuzzle::{
    Config, Engine, EngineChoice, Error, Goal, HeuristicKind, HeuristicProperties, Limit, Metric,
    Progress, Record, SearchError, Shape, parse_board, parse_goal,
};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::App;

pub(crate) fn routes(app: App) -> Router {
    Router::new()
        .route("/api/solve", post(solve))
        .route("/api/parse", post(parse))
        .route("/api/check", post(check))
        .route("/api/generate", get(generate_board))
        .route("/api/engines", get(engines))
        .route("/api/status", get(status))
        .with_state(app)
}

/// An API error: a status and `{"error": message}`, plus the limit and progress for 422.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    body: serde_json::Value,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            body: json!({ "error": message.into() }),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

/// The error and its causes on one line, joined by `": "`, leaving out a cause the message
/// already holds: the same text `npuzzle solve` prints after `error: `.
fn one_line(e: &(dyn std::error::Error + 'static)) -> String {
    let mut msg = String::new();
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        let text = c.to_string();
        if !msg.contains(&text) {
            if !msg.is_empty() {
                msg.push_str(": ");
            }
            msg.push_str(&text);
        }
        cause = c.source();
    }
    msg.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The request field for a setting the library names in an error.
fn field(s: npuzzle::Setting) -> String {
    use npuzzle::Setting;
    match s {
        Setting::Goal => "\"goal\"".into(),
        Setting::Engine => "\"engine\"".into(),
        Setting::Heuristic => "\"heuristic\"".into(),
        Setting::Pdb => "\"pdb\"".into(),
        Setting::Optimal => "\"optimal\"".into(),
        Setting::Weight => "\"weight\"".into(),
        Setting::Threads => "\"threads\"".into(),
        Setting::Metric => "\"metric\"".into(),
        Setting::Moves => "\"moves\"".into(),
        Setting::AllOptimal => "\"all_optimal\"".into(),
        Setting::Limit => "\"limit\"".into(),
        Setting::MaxDepth => "\"max_depth\"".into(),
        Setting::Seed => "\"seed\"".into(),
        Setting::MaxSteps => "\"max_steps\"".into(),
        other => other.name().into(),
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> ApiError {
        let first = e.describe(&field);
        let message = match std::error::Error::source(&e) {
            Some(cause) => {
                let rest = one_line(cause);
                if first.contains(&rest) {
                    first
                } else {
                    format!("{first}: {rest}")
                }
            }
            None => first,
        };
        if let Some((limit, progress)) = e.limit() {
            return limit_error(&message, limit, progress);
        }
        let status = match &e {
            // A partition that does not fit the board is the request's mistake (issue 26,
            // S2); a cache that cannot be read, or a table that is not cached and may not be
            // built implicitly, is the server's state.
            Error::Pdb { source, .. } => match source {
                PdbError::BadGroup(_)
                | PdbError::BadPartition(_)
                | PdbError::TableTooLarge { .. }
                | PdbError::BoardTooLarge(_) => StatusCode::BAD_REQUEST,
                PdbError::NotCached { .. } | PdbError::Cancelled { .. } => {
                    StatusCode::SERVICE_UNAVAILABLE
                }
                PdbError::ValueOverflow
                | PdbError::Corrupt { .. }
                | PdbError::Io { .. }
                | PdbError::NoCacheDir => StatusCode::INTERNAL_SERVER_ERROR,
            },
            Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError {
            status,
            body: json!({ "error": message }),
        }
    }
}

/// 422: `{"error", "limit": {"time": 10.0} | {"nodes": N} | {"memory": B} | "cancelled",
/// "progress": {"expanded", "generated", "seconds", "bound", "stored_states", "bound_kind"}}`
/// (`bound_kind`: `"f-bound"`, or `"start-estimate"` for greedy search and hill climbing).
fn limit_error(message: &str, limit: &Limit, progress: &Progress) -> ApiError {
    ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        body: json!({ "error": message, "limit": limit, "progress": progress }),
    }
}

/// A body axum could not read as JSON of the right shape: 400 with axum's message (413 stays
/// 413 for a body over the limit).
fn json_rejection(r: &JsonRejection) -> ApiError {
    let status = if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
        StatusCode::PAYLOAD_TOO_LARGE
    } else {
        StatusCode::BAD_REQUEST
    };
    ApiError {
        status,
        body: json!({ "error": r.body_text() }),
    }
}

/// 413 `{"error"}` at once for a request whose `Content-Length` announces more than `limit`
/// bytes, before any of its body is read (issue 26, S3: axum's own limit only counts the bytes
/// as they arrive); anything else goes on to `next`.
pub(crate) async fn refuse_announced_oversize(
    req: axum::extract::Request,
    next: axum::middleware::Next,
    limit: usize,
) -> Response {
    let announced = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match announced {
        Some(n) if n > limit as u64 => ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            body: json!({ "error": format!(
                "the request body announces {n} bytes; at most {limit} are accepted"
            ) }),
        }
        .into_response(),
        _ => next.run(req).await,
    }
}

/// `POST /api/solve`'s body. Defaults: goal `blank-last`, engine `auto`, the server's time limit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveRequest {
    board: String,
    #[serde(default = "blank_last")]
    goal: String,
    #[serde(default)]
    engine: Option<String>,
    #[serde(default)]
    heuristic: Option<String>,
    /// Seconds.
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    optimal: bool,
    #[serde(default)]
    weight: Option<f64>,
    #[serde(default)]
    max_nodes: Option<u64>,
    #[serde(default)]
    pdb: Option<String>,
    /// `"stm"` (the default) or `"mtm"`.
    #[serde(default)]
    metric: Option<String>,
    /// IDA\*'s depth limit, in moves.
    #[serde(default)]
    max_depth: Option<u32>,
    /// Hill climbing's seed and cap on steps.
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    max_steps: Option<u64>,
    /// Every optimal solution: list the first `limit` (default 1000) with their number
    /// (`optimal_count`, `optimal_solutions`), or only count them (`count`). In both metrics
    /// (with `"metric": "mtm"`, distinct sequences of MTM moves alternating axes, lengths in
    /// MTM moves).
    #[serde(default)]
    all_optimal: bool,
    #[serde(default)]
    count: bool,
    #[serde(default)]
    limit: Option<u64>,
    /// Every solution within k moves of the optimum instead of the optimal ones (`within`,
    /// `within_count`, `counts_by_length`, `solutions`); listed unless `count`. At most
    /// [`MAX_WITHIN`].
    #[serde(default)]
    within: Option<u32>,
}

/// The largest `within` a request takes (as `npuzzle solve --within`).
const MAX_WITHIN: u32 = 1000;

/// The most optimal solutions one request lists.
const MAX_LIST: u64 = 100_000;

fn blank_last() -> String {
    "blank-last".to_string()
}

/// Every engine name the API takes: `auto`, then the facade's engines.
fn engine_names() -> String {
    std::iter::once("auto")
        .chain(Engine::ALL.iter().map(|e| e.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The facade configuration of a request, with its time limit and cancel flag.
fn config(
    app: &App,
    req: &SolveRequest,
    cancel: Arc<AtomicBool>,
) -> Result<(Config, Option<Shape>, Duration), ApiError> {
    let options = app.options();
    let timeout = match req.timeout {
        None => options.default_timeout.min(options.max_timeout),
        Some(t) if t.is_finite() && t > 0.0 => Duration::try_from_secs_f64(t)
            .map_or(options.max_timeout, |d| d.min(options.max_timeout)),
        Some(t) => {
            return Err(ApiError::bad(format!(
                "{t}: the timeout must be a positive number of seconds"
            )));
        }
    };
    let mut c = Config::new()
        .timeout(timeout)
        .cancel(cancel)
        .threads(1)
        .optimal(req.optimal)
        .tables(app.tables().clone());
    let mut size = None;
    if let Some(text) = &req.size {
        let shape: Shape = text
            .parse()
            .map_err(|e| ApiError::bad(format!("bad size {text:?}: {e}")))?;
        c = c.size(shape);
        size = Some(shape);
    }
    c = c.goal(&req.goal)?;
    let engine = req.engine.as_deref().unwrap_or("auto");
    c = c.engine_choice(match engine {
        "auto" => EngineChoice::Auto,
        name => EngineChoice::Engine(Engine::from_name(name).ok_or_else(|| {
            ApiError::bad(format!(
                "unknown engine {name:?}: expected one of {}",
                engine_names()
            ))
        })?),
    });
    if let Some(name) = &req.heuristic {
        let h = HeuristicKind::from_name(name).ok_or_else(|| {
            let all: Vec<&str> = HeuristicKind::ALL.iter().map(|h| h.name()).collect();
            ApiError::bad(format!(
                "unknown heuristic {name:?}: expected one of {}",
                all.join(", ")
            ))
        })?;
        c = c.heuristic(h);
    }
    c = c.metric(metric(req.metric.as_deref())?);
    if let Some(w) = req.weight {
        c = c.weight(w);
    }
    if let Some(n) = req.max_nodes {
        c = c.max_nodes(n);
    }
    if let Some(d) = req.max_depth {
        c = c.max_depth(d);
    }
    if let Some(s) = req.seed {
        c = c.seed(s);
    }
    if let Some(n) = req.max_steps {
        c = c.max_steps(n);
    }
    if let Some(p) = &req.pdb {
        c = c.pdb(p)?;
    }
    if let Some(dir) = &options.pdb_dir {
        c = c.pdb_dir(dir);
    }
    Ok((c, size, timeout))
}

/// The metric a request names (`"stm"` or `"mtm"`; absent: `"stm"`).
///
/// # Errors
/// 400 for any other name.
fn metric(name: Option<&str>) -> Result<Metric, ApiError> {
    match name {
        None => Ok(Metric::Stm),
        Some(name) => Metric::from_name(name)
            .ok_or_else(|| ApiError::bad(format!("unknown metric {name:?}: expected stm or mtm"))),
    }
}

/// The command that builds the pattern databases a request needed: its shape, its partition
/// (`default` unless it named one) and its goal.
fn build_command(req: &SolveRequest, shape: Shape) -> String {
    let mut cmd = format!(
        "npuzzle pdb build --size {shape} --pdb {}",
        req.pdb.as_deref().unwrap_or("default")
    );
    match req.goal.trim() {
        "blank-last" => {}
        "blank-first" => cmd.push_str(" --goal blank-first"),
        other => {
            let _ = write!(cmd, " --goal \"{other}\"");
        }
    }
    cmd
}

/// The answer for a search stopped by the request's deadline ([`solve`]): 503 naming the
/// build command when it stopped while building pattern databases, else 422 for the time
/// limit with the search's progress.
fn past_deadline(e: Error, req: &SolveRequest, shape: Shape, timeout: Duration) -> ApiError {
    match e {
        Error::Pdb {
            what,
            source: PdbError::Cancelled { .. },
        } => ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            body: json!({ "error": format!(
                "the pattern databases {what} are not cached, and building them did not finish within the request's time limit of {} s; build them once with `{}` (then every request uses them)",
                timeout.as_secs_f64(),
                build_command(req, shape)
            ) }),
        },
        Error::Search(SearchError::LimitReached {
            limit: Limit::Cancelled,
            progress,
        }) => {
            let limit = Limit::Time(timeout.as_secs_f64());
            let e = Error::Search(SearchError::LimitReached {
                limit: limit.clone(),
                progress: progress.clone(),
            });
            limit_error(
                &format!(
                    "{} (the limit covers opening the pattern databases too)",
                    one_line(&e)
                ),
                &limit,
                &progress,
            )
        }
        other => other.into(),
    }
}

/// Sets the cancel flag when dropped: when the client disconnects, axum drops the handler's
/// future, and with it this guard, so the search on the blocking pool stops at its next check.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Counts a running search from creation to drop (on the blocking pool).
struct Active(App);

impl Active {
    fn new(app: &App) -> Active {
        app.shared.active.fetch_add(1, Ordering::SeqCst);
        Active(app.clone())
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        self.0.shared.active.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn solve(
    State(app): State<App>,
    body: Result<Json<SolveRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body.map_err(|r| json_rejection(&r))?;
    if let Some(k) = req.within
        && k > MAX_WITHIN
    {
        return Err(ApiError::bad(format!(
            "bad \"within\" {k}: at most {MAX_WITHIN} moves beyond the optimum"
        )));
    }
    let listing = match (
        req.all_optimal || req.count || req.within.is_some(),
        req.limit,
    ) {
        (false, Some(_)) => {
            return Err(ApiError::bad(
                "\"limit\" applies to \"all_optimal\" and \"within\" only",
            ));
        }
        (_, Some(k)) if !(1..=MAX_LIST).contains(&k) => {
            return Err(ApiError::bad(format!(
                "bad \"limit\" {k}: between 1 and {MAX_LIST} solutions"
            )));
        }
        (false, None) => None,
        (true, _) if req.count => Some(0),
        (true, k) => Some(usize::try_from(k.unwrap_or(1000)).unwrap_or(usize::MAX)),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let guard = CancelOnDrop(Arc::clone(&cancel));
    let (config, size, timeout) = config(&app, &req, Arc::clone(&cancel))?;
    let npz = config.build()?;
    let layout = parse_board(&req.board, size).map_err(Error::from)?;
    let shape = layout.shape();
    let wait = app.options().queue_wait;
    let slots = Arc::clone(&app.shared.slots);
    let Ok(Ok(permit)) = tokio::time::timeout(wait, slots.acquire_owned()).await else {
        return Err(ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            body: json!({ "error": format!(
                "the server is busy: all {} search slots stayed taken for {} s; try again",
                app.options().max_searches.max(1),
                wait.as_secs_f64()
            ) }),
        });
    };
    let active = Active::new(&app);
    // The request's time limit covers the whole request: a pattern-database build it needs
    // included (issue 26, S1), which the search's own limit, started after the build, does
    // not. At the deadline the cancel flag stops the build (or the search) within
    // milliseconds.
    let deadline = Arc::new(AtomicBool::new(false));
    let timer = {
        let (cancel, deadline) = (Arc::clone(&cancel), Arc::clone(&deadline));
        tokio::spawn(async move {
            tokio::time::sleep(timeout).await;
            deadline.store(true, Ordering::SeqCst);
            cancel.store(true, Ordering::SeqCst);
        })
    };
    let count_only = req.count;
    let within = req.within.unwrap_or(0);
    let answer = tokio::task::spawn_blocking(move || {
        let _active = active;
        let _permit = permit;
        match listing {
            None => npz
                .solve(&layout)
                .map(|a| Json(Record::from(&a)).into_response()),
            Some(limit) => npz
                .solutions_within(&layout, within, limit, &npz.settings())
                .map(|all| Json(all.record(!count_only)).into_response()),
        }
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        body: json!({ "error": format!("internal error: the search task failed: {e}") }),
    })?;
    timer.abort();
    drop(guard);
    match answer {
        Ok(response) => Ok(response),
        Err(e) if deadline.load(Ordering::SeqCst) => Err(past_deadline(e, &req, shape, timeout)),
        Err(e) => Err(e.into()),
    }
}

/// `POST /api/check`'s body: a board, a solution to judge (move letters, with counts or not),
/// its goal and size, the metric it is counted and judged in (`"stm"`, the default, or
/// `"mtm"`: a run of one letter is one move, judged against the MTM optimum), the optimal
/// search's node budget (default `npuzzle::check::CHECK_NODE_BUDGET`) and time limit
/// (seconds; default and cap as for a solve).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    board: String,
    moves: String,
    #[serde(default = "blank_last")]
    goal: String,
    #[serde(default)]
    metric: Option<String>,
    #[serde(default)]
    size: Option<String>,
    #[serde(default)]
    max_nodes: Option<u64>,
    #[serde(default)]
    timeout: Option<f64>,
}

/// `POST /api/check`: judges a solution (`npuzzle::Npuzzle::check_solution`): legality, the
/// board reached and its wrong cells, the length against the optimum (or the proven lower
/// bound when the optimal search hits its node budget or time limit), both in the request's
/// metric. 200 with
/// `npuzzle::check::SolutionCheck` whether or not the moves solve the board; 400 for a bad
/// board, goal or move string.
async fn check(
    State(app): State<App>,
    body: Result<Json<CheckRequest>, JsonRejection>,
) -> Result<Json<npuzzle::check::SolutionCheck>, ApiError> {
    let Json(req) = body.map_err(|r| json_rejection(&r))?;
    let moves = npuzzle::check::read_moves(&req.moves)?;
    let size = match &req.size {
        Some(text) => Some(
            text.parse::<Shape>()
                .map_err(|e| ApiError::bad(format!("bad size {text:?}: {e}")))?,
        ),
        None => None,
    };
    let options = app.options();
    let timeout = match req.timeout {
        None => options.default_timeout.min(options.max_timeout),
        Some(t) if t.is_finite() && t > 0.0 => Duration::try_from_secs_f64(t)
            .map_or(options.max_timeout, |d| d.min(options.max_timeout)),
        Some(t) => {
            return Err(ApiError::bad(format!(
                "{t}: the timeout must be a positive number of seconds"
            )));
        }
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let guard = CancelOnDrop(Arc::clone(&cancel));
    let mut c = npuzzle::check::check_config_in("blank-last", metric(req.metric.as_deref())?)?;
    if let Some(shape) = size {
        c = c.size(shape);
    }
    c = c
        .goal(&req.goal)?
        .threads(1)
        .timeout(timeout)
        .cancel(cancel);
    if let Some(n) = req.max_nodes {
        c = c.max_nodes(n);
    }
    let npz = c.build()?;
    let layout = parse_board(&req.board, size).map_err(Error::from)?;
    let wait = app.options().queue_wait;
    let slots = Arc::clone(&app.shared.slots);
    let Ok(Ok(permit)) = tokio::time::timeout(wait, slots.acquire_owned()).await else {
        return Err(ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            body: json!({ "error": "the server is busy: every search slot stayed taken; try again" }),
        });
    };
    let active = Active::new(&app);
    let judged = tokio::task::spawn_blocking(move || {
        let _active = active;
        let _permit = permit;
        npz.check_solution(&layout, &moves, &npz.settings())
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        body: json!({ "error": format!("internal error: the check task failed: {e}") }),
    })?;
    drop(guard);
    Ok(Json(judged?))
}

/// `POST /api/parse`'s body: a board in any format, its goal and size as for a solve.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParseRequest {
    board: String,
    #[serde(default = "blank_last")]
    goal: String,
    #[serde(default)]
    size: Option<String>,
}

/// `POST /api/parse`'s answer: the board and its goal as numbers separated by spaces (row by
/// row), the shape, and the parity verdict.
#[derive(Debug, Serialize)]
struct Parsed {
    board: String,
    /// The board in slash rows (`8 2 0/4 6 1/3 7 5`).
    slash: String,
    width: usize,
    height: usize,
    goal: String,
    solvable: bool,
    explanation: String,
}

/// `POST /api/parse`: reads a board the way `npuzzle solve` does, without searching, so the
/// page can show any format it accepts. O(cells).
async fn parse(body: Result<Json<ParseRequest>, JsonRejection>) -> Result<Json<Parsed>, ApiError> {
    let Json(req) = body.map_err(|r| json_rejection(&r))?;
    let size = match &req.size {
        Some(text) => Some(
            text.parse::<Shape>()
                .map_err(|e| ApiError::bad(format!("bad size {text:?}: {e}")))?,
        ),
        None => None,
    };
    let layout = parse_board(&req.board, size).map_err(Error::from)?;
    let shape = layout.shape();
    let goal = Goal::new(&parse_goal(&req.goal, Some(shape))?, shape).map_err(Error::from)?;
    let parity = goal.parity(&layout).map_err(Error::from)?;
    Ok(Json(Parsed {
        board: layout.to_line(),
        slash: layout.to_slash(),
        width: shape.width(),
        height: shape.height(),
        goal: goal.layout().to_line(),
        solvable: parity.solvable,
        explanation: parity.explain(),
    }))
}

/// `GET /api/generate`'s query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GenerateQuery {
    size: String,
    seed: Option<u64>,
    walk: Option<u64>,
    goal: Option<String>,
}

/// `GET /api/generate`'s answer.
#[derive(Debug, Serialize)]
struct Generated {
    /// The board, numbers separated by spaces, row by row.
    board: String,
    /// The board in slash rows (`8 2 0/4 6 1/3 7 5`).
    slash: String,
    width: usize,
    height: usize,
    /// The seed used (the one asked for, or a fresh random one).
    seed: u64,
    /// `uniform` or `walk`.
    method: &'static str,
    /// The goal board it is solvable for, numbers separated by spaces.
    goal: String,
}

async fn generate_board(
    query: Result<Query<GenerateQuery>, QueryRejection>,
) -> Result<Json<Generated>, ApiError> {
    let Query(q) = query.map_err(|r| ApiError::bad(r.body_text()))?;
    let shape: Shape = q
        .size
        .parse()
        .map_err(|e| ApiError::bad(format!("bad size {:?}: {e}", q.size)))?;
    let goal_text = q.goal.as_deref().unwrap_or("blank-last");
    let goal = Goal::new(&parse_goal(goal_text, Some(shape))?, shape).map_err(Error::from)?;
    let method = q.walk.map_or(Method::Uniform, Method::Walk);
    npuzzle::generate::check(method, 1)?;
    let seed = q.seed.unwrap_or_else(rand::random);
    let layout = generate(&goal, method, seed, 1)
        .next()
        .ok_or_else(|| ApiError::bad("no board generated"))?;
    Ok(Json(Generated {
        board: layout.to_line(),
        slash: layout.to_slash(),
        width: shape.width(),
        height: shape.height(),
        seed,
        method: if q.walk.is_some() { "walk" } else { "uniform" },
        goal: goal.layout().to_line(),
    }))
}

/// `GET /api/engines`: what the page offers, from the facade's own lists.
async fn engines(State(app): State<App>) -> Json<serde_json::Value> {
    let engines: Vec<_> = Engine::ALL
        .iter()
        .map(|&e| {
            let guarantee = e
                .guarantee(npuzzle::DEFAULT_WEIGHT, HeuristicProperties::CONSISTENT)
                .ok();
            let info = e.info();
            json!({
                "name": info.name,
                "aliases": info.aliases,
                "summary": info.summary,
                "crate": info.crate_name,
                "guarantee": guarantee,
                "optimal": guarantee.is_some_and(npuzzle::Guarantee::is_optimal),
                "proves_bound_when_stopped": e.proves_bound_when_stopped(),
            })
        })
        .collect();
    let heuristics: Vec<_> = HeuristicKind::ALL
        .iter()
        .map(|&h| {
            let info = h.info();
            let p = info.properties;
            json!({
                "name": info.name,
                "summary": info.summary,
                "admissible": p.admissible,
                "consistent": p.consistent,
                "tables": info.tables != npuzzle::registry::TableNeed::None,
            })
        })
        .collect();
    let o = app.options();
    Json(json!({
        "engines": engines,
        "heuristics": heuristics,
        "goals": ["blank-last", "blank-first"],
        "metrics": Metric::ALL.map(Metric::name),
        "notations": npuzzle::Notation::ALL.map(npuzzle::Notation::name),
        "default_timeout": o.default_timeout.as_secs_f64(),
        "max_timeout": o.max_timeout.as_secs_f64(),
        "max_searches": o.max_searches.max(1),
    }))
}

/// `GET /api/status`: searches running now and the number of slots.
async fn status(State(app): State<App>) -> Json<serde_json::Value> {
    Json(json!({
        "active_searches": app.active_searches(),
        "max_searches": app.options().max_searches.max(1),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_joins_causes_once() {
        let e = Error::NotApplicable {
            setting: npuzzle::Setting::Weight,
            applies_to: "the weighted-astar engine",
            chosen: "idastar",
        };
        assert_eq!(
            ApiError::from(e).body["error"],
            "\"weight\" applies to the weighted-astar engine only, not to idastar"
        );
    }

    #[test]
    fn engine_names_start_with_auto_and_list_the_facade() {
        let names = engine_names();
        assert!(names.starts_with("auto, idastar"), "{names}");
        for e in Engine::ALL {
            assert!(names.contains(e.name()));
        }
    }
}
