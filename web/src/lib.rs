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
//! - Request bodies above [`Options::body_limit`] bytes are refused (413, at once when the
//!   announced `Content-Length` is too large); a body that stalls for
//!   [`Options::body_timeout`], or a header not sent within [`Options::header_timeout`], ends
//!   the request; at most [`Options::max_connections`] connections are open at a time.
//! - A request that needs pattern databases that are not cached builds them within its own
//!   time limit (the limit covers the build and the search); past it, the build stops and the
//!   answer is 503 naming the `npuzzle pdb build …` command that builds them once. A partition
//!   that does not fit the board is 400.
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
    /// How long a request body may send nothing before the request is dropped [default:
    /// 10 s].
    pub body_timeout: Duration,
    /// How long a connection may take to send a request's header, or stay idle between
    /// requests, before it is closed [default: 10 s].
    pub header_timeout: Duration,
    /// Connections open at a time; further ones wait in the listen backlog [default: 256].
    pub max_connections: usize,
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
            max_searches: npuzzle::npuzzle_core::Threads::EVERY_CORE.count(),
            queue_wait: Duration::from_secs(2),
            body_limit: 1 << 20,
            body_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(10),
            max_connections: 256,
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

    /// The router: the page, its assets and the API, with the body limit and the body read
    /// timeout. For tests and for embedding in another axum application.
    ///
    /// A request whose announced `Content-Length` is above [`Options::body_limit`] gets 413
    /// `{"error"}` at once, before any of its body is read; one without a length is cut at
    /// the limit (axum's `DefaultBodyLimit`). A body that sends nothing for
    /// [`Options::body_timeout`] is dropped (`tower_http`'s `RequestBodyTimeoutLayer`).
    pub fn router(&self) -> Router {
        let o = &self.shared.options;
        let limit = o.body_limit;
        api::routes(self.clone())
            .merge(assets::routes())
            .layer(axum::extract::DefaultBodyLimit::max(limit))
            .layer(axum::middleware::from_fn(
                move |req: axum::extract::Request, next: axum::middleware::Next| {
                    api::refuse_announced_oversize(req, next, limit)
                },
            ))
            .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
                o.body_timeout,
            ))
    }
}

/// Serves `app` on `listener` until the process ends.
///
/// Each connection is served by hyper's HTTP/1 server with a header read timeout
/// ([`Options::header_timeout`]: a client that has not sent a request's whole header by then,
/// or a keep-alive connection idle that long, is closed), and at most
/// [`Options::max_connections`] connections are open at a time (further ones wait in the
/// listen backlog until one closes), so stalled or idle sockets cannot pile up.
///
/// # Errors
/// [`ServeError::Io`] never in practice: accept errors (out of file descriptors, a connection
/// reset before it was accepted) are waited out and retried, as axum does.
pub async fn serve(listener: TcpListener, app: App) -> Result<(), ServeError> {
    serve_until(listener, app, std::future::pending()).await
}

/// [`serve`] until `shutdown` completes; then stops accepting, lets every connection finish
/// its request in flight (idle ones close at once) and returns.
async fn serve_until(
    listener: TcpListener,
    app: App,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;

    let router = app.router();
    let options = app.options().clone();
    let cap = options.max_connections.max(1);
    let connections = Arc::new(Semaphore::new(cap));
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            p = Arc::clone(&connections).acquire_owned() => p.map_err(std::io::Error::other)?,
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            r = listener.accept() => {
                let Ok((stream, _)) = r else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                stream
            }
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(router.clone());
        let mut stopping = stopping.clone();
        let header_timeout = options.header_timeout;
        tokio::spawn(async move {
            let _permit = permit;
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection(TokioIo::new(stream), service);
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stopping.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
    let _ = stop.send(true);
    // Every connection gives its permit back when it has closed.
    let _ = connections.acquire_many(cap as u32).await;
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
        serve_until(listener, app, async {
            // An error here means no signal handler: then serve until killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        })
        .await
    })
}
