//! The accept loop of `c4 serve`: each connection admitted under the cap,
//! served by hyper's HTTP/1 with the routes of `api.rs`, closed when it is
//! slow, idle or evicted; and the stop on a signal.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::{Service, service_fn};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use super::super::output::warn;
use super::api;
use super::app::App;
use super::connections::{Admission, Connection, Place};
use super::request_log::LogLine;

/// The pause after `accept` fails for want of a file descriptor: the
/// connections closing meanwhile give some back.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// The least time between two warnings that `accept` lacks descriptors.
const WARNING_INTERVAL: Duration = Duration::from_secs(10);

/// How long the stop waits for the connections to finish their answers
/// after the searches' grace (`api::SEARCH_GRACE`); past it the rest
/// (clients that do not read, or send a header that never ends) are closed.
const CLOSE_GRACE: Duration = Duration::from_millis(500);

/// The largest buffer of a connection: a request's header must fit (the
/// longest URL accepted is 2 KiB), and the connections' memory stays
/// bounded (64 KiB each).
const MAX_BUFFER_BYTES: usize = 64 * 1024;

/// Serves `app` on `listener` (logging each request on stderr if `log`)
/// until `stop` completes; then stops accepting, lets the connections
/// finish (searches under way get `api::SEARCH_GRACE`, then are stopped and
/// answered 503) and returns once they are closed, or after [`CLOSE_GRACE`]
/// more.
pub async fn serve(
    app: Arc<App>,
    log: bool,
    listener: TcpListener,
    stop: impl Future<Output = ()>,
) {
    let router = api::router(Arc::clone(&app));
    let connections = &app.connections;
    let mut http = http1::Builder::new();
    // The deadlines are this server's own (`connections.rs`), which
    // tell a first request, an idle connection and a slow header apart.
    http.header_read_timeout(None)
        .keep_alive(true)
        .max_buf_size(MAX_BUFFER_BYTES);
    let http = Arc::new(http);
    tokio::pin!(stop);
    let mut last_warning: Option<Instant> = None;
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, _)) => match connections.admit() {
                Admission::Admitted { place, evicted } => {
                    tokio::spawn(serve_connection(
                        stream,
                        place,
                        Arc::clone(&http),
                        router.clone(),
                        log,
                        app.stopping.subscribe(),
                    ));
                    if evicted {
                        // Let the evicted connection close before the
                        // next accept takes another descriptor.
                        tokio::task::yield_now().await;
                    }
                }
                Admission::Refused => drop(stream),
            },
            Err(e) if lacks_descriptors(&e) => {
                if last_warning.is_none_or(|t| t.elapsed() >= WARNING_INTERVAL) {
                    warn(format_args!(
                        "c4 serve: warning: cannot accept a connection: {e} (the file \
                         limit, ulimit -n, is reached; see --max-connections)"
                    ));
                    last_warning = Some(Instant::now());
                }
                tokio::time::sleep(ACCEPT_BACKOFF).await;
            }
            // The client went away before it was accepted, or a
            // transient network error: nothing to serve.
            Err(_) => {}
        }
    }
    drop(listener);
    app.stopping.send_replace(true);
    let grace = api::SEARCH_GRACE + CLOSE_GRACE;
    let _ = tokio::time::timeout(grace, connections.all_closed()).await;
}

/// Whether `accept` failed for want of a file descriptor or of memory, which
/// the connections closing give back.
fn lacks_descriptors(error: &io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
    )
}

/// Serves one connection until the client closes it, its deadline passes,
/// it is evicted, or (once the server stops) its last answer is sent.
async fn serve_connection(
    stream: TcpStream,
    mut place: Place,
    http: Arc<http1::Builder>,
    router: Router,
    log: bool,
    mut stopping: watch::Receiver<bool>,
) {
    let connection = Arc::clone(place.connection());
    let routes = TowerToHyperService::new(router);
    let watched = Arc::clone(&connection);
    let service = service_fn(move |request: Request<Incoming>| {
        let answering = watched.begin_request();
        let line = log.then(|| LogLine::start(&request));
        let answer = routes.call(request);
        async move {
            let response = answer.await?;
            if let Some(line) = line {
                line.finish(&response);
            }
            drop(answering);
            Ok::<_, Infallible>(response)
        }
    });
    let io = TokioIo::new(WatchedStream {
        stream,
        connection: Arc::clone(&connection),
    });
    let served = http.serve_connection(io, service);
    tokio::pin!(served);
    let expired = connection.expired();
    tokio::pin!(expired);
    let mut stop_seen = false;
    loop {
        tokio::select! {
            // An error here is the client's (a bad request answered 400,
            // a reset): the connection is over either way.
            _ = served.as_mut() => break,
            expiry = &mut expired => {
                place.closed_for(expiry);
                break;
            }
            _ = stopping.wait_for(|stop| *stop), if !stop_seen => {
                stop_seen = true;
                // Closes an idle connection now, and any other after the
                // answer it is writing.
                served.as_mut().graceful_shutdown();
            }
        }
    }
}

/// A client's socket that tells its connection when bytes come, so that the
/// first byte of a request starts the header's clock.
struct WatchedStream {
    /// The socket.
    stream: TcpStream,
    /// Its connection's state.
    connection: Arc<Connection>,
}

impl AsyncRead for WatchedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(read, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.connection.bytes_read();
        }
        read
    }
}

impl AsyncWrite for WatchedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}
