//! The page of `c4 serve`, built into the binary from `web/`: no network, no
//! install step.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};

/// The page.
const INDEX_HTML: &str = include_str!("../../../web/index.html");
/// Its script.
const APP_JS: &str = include_str!("../../../web/app.js");
/// Its style sheet.
const STYLE_CSS: &str = include_str!("../../../web/style.css");
/// Its icon.
const FAVICON_SVG: &str = include_str!("../../../web/favicon.svg");

/// A static file with its content type. The page is small and changes with
/// the binary, so browsers check it again each time (`no-cache`).
fn file(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// `GET /`: the page.
pub async fn index() -> Response {
    file("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub async fn script() -> Response {
    file("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`.
pub async fn style() -> Response {
    file("text/css; charset=utf-8", STYLE_CSS)
}

/// `GET /favicon.svg`.
pub async fn favicon() -> Response {
    file("image/svg+xml", FAVICON_SVG)
}
