//! # npuzzle-web
//!
//! The npuzzle local web app: one page (HTML, JavaScript and CSS embedded in the binary, no
//! network access needed) and the JSON API it uses, served by axum on tokio. Every search goes
//! through the `npuzzle` library facade, exactly as `npuzzle solve` does, so the API's answer is
//! the same [`npuzzle::Record`] that `npuzzle solve --format json` prints.
//!
//! Start it with `npuzzle serve` (the CLI calls [`run`]), or embed it:
//!
//! ```no_run
//! # async fn f() -> Result<(), npuzzle_web::ServeError> {
//! let options = npuzzle_web::Options::default();          // 127.0.0.1:8080, 10 s searches
//! let listener = tokio::net::TcpListener::bind(options.addr()).await?;
//! let app = npuzzle_web::App::new(options);
//! npuzzle_web::serve(listener, app).await?;
//! # Ok(()) }
//! ```
//!
//! ## API
//! | request | answer |
//! |---|---|
//! | `POST /api/solve` `{"board": "...", "goal": "blank-last", "engine": "auto", "heuristic": null, "timeout": 10}` | 200 with the [`npuzzle::Record`]; 400 `{"error": ...}` for bad input; 422 `{"error", "limit", "progress"}` when a limit stopped the search; 503 when every search slot stayed busy |
//! | `GET /api/generate?size=4x4&seed=7` (uniform) or `&walk=40` (random walk), optional `goal` | `{"board", "width", "height", "seed", "goal"}` |
//! | `POST /api/parse` `{"board", "goal", "size"}` | `{"board", "width", "height", "goal", "solvable", "explanation"}`: the board read as `npuzzle solve` reads it (no search), 400 for bad input |
//! | `GET /api/engines` | the engines and heuristics (from [`npuzzle::Engine::ALL`] and [`npuzzle::HeuristicKind::ALL`]), goals and time limits |
//! | `GET /api/status` | `{"active_searches", "max_searches"}` |
//! | `GET /` | the page |
//!
//! The solve request also takes `size` (`"4x3"`, for a non-square board on one line),
//! `optimal` (bool), `weight` (weighted A\*), `max_nodes` and `pdb` (a partition), with the
//! meaning of the same `npuzzle solve` options; unknown fields are refused.
//!
//! ## Server rules
//! - Every search has a time limit: the request's `timeout` (default
//!   [`Options::default_timeout`], 10 s), capped by [`Options::max_timeout`].
//! - At most [`Options::max_searches`] searches at a time (default: one per core); a request
//!   waits up to [`Options::queue_wait`] for a slot, then gets 503.
//! - Request bodies above [`Options::body_limit`] bytes are refused (413).
//! - A client that disconnects cancels its search: the handler's future is dropped, and a drop
//!   guard sets the facade's cancel flag ([`npuzzle::Config::cancel`]); the search itself runs
//!   on tokio's blocking pool.

mod api;
pub mod assets;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How the server runs. `Options::default()` is `npuzzle serve` without options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Address to bind [default: 127.0.0.1, loopback only].
    pub host: IpAddr,
    /// TCP port [default: 8080; 0 picks a free one].
    pub port: u16,
    /// Time limit of a search whose request gives none [default: 10 s].
    pub default_timeout: Duration,
    /// The largest time limit a request may ask for [default: 60 s]; larger ones are capped.
    pub max_timeout: Duration,
    /// Searches that may run at the same time [default: the number of cores].
    pub max_searches: usize,
    /// How long a request waits for a search slot before it gets 503 [default: 2 s].
    pub queue_wait: Duration,
    /// Largest request body, in bytes [default: 1 MiB: a 127×127 board as text is about 80 KB].
    pub body_limit: usize,
    /// Pattern-database cache directory [default: as `npuzzle solve`: `$NPUZZLE_PDB_DIR`, else
    /// the platform cache directory].
    pub pdb_dir: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            default_timeout: Duration::from_secs(10),
            max_timeout: Duration::from_mins(1),
            max_searches: std::thread::available_parallelism().map_or(1, usize::from),
            queue_wait: Duration::from_secs(2),
            body_limit: 1 << 20,
            pdb_dir: None,
        }
    }
}

impl Options {
    /// The socket address to bind: [`Options::host`] and [`Options::port`].
    pub fn addr(&self) -> SocketAddr {
        SocketAddr::new(self.host, self.port)
    }

    /// Whether [`Options::host`] is reachable from other machines (not a loopback address):
    /// the CLI warns then, since the API runs searches for anyone who can reach it.
    pub fn is_exposed(&self) -> bool {
        !self.host.is_loopback()
    }
}

/// Why the server stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Binding the address or serving failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The server's shared state: options, the search slots and the count of running searches.
/// Cheap to clone (one `Arc`).
#[derive(Clone, Debug)]
pub struct App {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    options: Options,
    slots: Arc<Semaphore>,
    active: AtomicUsize,
    /// The pattern databases opened by any request, kept for the server's lifetime: a second
    /// request for the same tables never reopens them (`npuzzle::Tables`).
    tables: npuzzle::Tables,
}

impl App {
    /// A server state for `options` (at least one search slot).
    pub fn new(options: Options) -> App {
        let slots = Arc::new(Semaphore::new(options.max_searches.max(1)));
        App {
            shared: Arc::new(Shared {
                options,
                slots,
                active: AtomicUsize::new(0),
                tables: npuzzle::Tables::new(),
            }),
        }
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.shared.options
    }

    /// The tables opened so far, shared by every request.
    pub fn tables(&self) -> &npuzzle::Tables {
        &self.shared.tables
    }

    /// Searches running right now (on the blocking pool, until they return or notice their
    /// cancel flag).
    pub fn active_searches(&self) -> usize {
        self.shared.active.load(Ordering::SeqCst)
    }

    /// The router: the page, its assets and the API, with the body limit. For tests and for
    /// embedding in another axum application.
    pub fn router(&self) -> Router {
        api::routes(self.clone()).merge(assets::routes()).layer(
            axum::extract::DefaultBodyLimit::max(self.shared.options.body_limit),
        )
    }
}

/// Serves `app` on `listener` until the process ends.
///
/// # Errors
/// [`ServeError::Io`] when accepting connections fails.
pub async fn serve(listener: TcpListener, app: App) -> Result<(), ServeError> {
    axum::serve(listener, app.router()).await?;
    Ok(())
}

/// Binds [`Options::addr`] and serves on a new multi-threaded tokio runtime, calling `ready`
/// with the bound address (the port is known then, also when 0 was asked) before serving.
/// Blocks until the server stops (Ctrl-C ends it cleanly).
///
/// # Errors
/// [`ServeError::Io`] when the runtime cannot start, the address cannot be bound (in use, not
/// local) or serving fails.
pub fn run(options: Options, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(options.addr()).await?;
        ready(listener.local_addr()?);
        let app = App::new(options);
        axum::serve(listener, app.router())
            .with_graceful_shutdown(async {
                // An error here means no signal handler: then serve until killed.
                if tokio::signal::ctrl_c().await.is_err() {
                    std::future::pending::<()>().await;
                }
            })
            .await?;
        Ok(())
    })
}
