//! The page: one HTML file, its script and its style sheet, embedded in the binary with
//! `include_str!` (the app works offline; nothing is loaded from elsewhere).

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

/// The page.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script (no libraries).
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The page's style sheet.
pub const STYLE_CSS: &str = include_str!("../assets/style.css");

pub(crate) fn routes() -> Router {
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
}

async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        INDEX_HTML,
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
}

async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        STYLE_CSS,
    )
}
