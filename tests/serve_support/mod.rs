//! Helpers for the tests of `c4 serve`: a server on a free port of this
//! machine, stopped when dropped, and a small HTTP/1.1 client over a plain
//! TCP socket (so that a test controls exactly what is sent, and can walk
//! away from a request).
//!
//! Each test file uses only part of this module, hence the `allow`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `c4 serve`.
pub struct Server {
    /// The process.
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Starts `c4 serve --port 0` with `args`, and waits for its URL.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_c4"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("c4 serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("c4 serve prints its URL");
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|s| s.strip_suffix('/'))
            .unwrap_or_else(|| panic!("not a URL: {line:?}"))
            .parse()
            .expect("an address");
        Server { child, addr }
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], b"")
    }

    /// `GET path` as JSON, asserting status 200.
    pub fn get_json(&self, path: &str) -> serde_json::Value {
        let r = self.get(path);
        assert_eq!(r.status, 200, "GET {path}: {}", r.body);
        r.json()
    }

    /// Sends one request and reads the whole response.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Response {
        let mut stream = self.send(method, path, headers, body);
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("the response");
        Response::parse(&raw)
    }

    /// Sends one request and returns the open connection without reading
    /// the answer: dropping it walks away from the request.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> TcpStream {
        let mut stream = TcpStream::connect(self.addr).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_secs(600)))
            .expect("a timeout");
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.addr
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if !body.is_empty() {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).expect("sends");
        stream.write_all(body).expect("sends");
        stream
    }

    /// `GET /api/status`.
    pub fn status(&self) -> serde_json::Value {
        self.get_json("/api/status")
    }

    /// Waits until `/api/status` satisfies `done` (polling every 20 ms), at
    /// most `limit`; panics after that, naming `what`.
    pub fn wait_for_status(
        &self,
        what: &str,
        limit: Duration,
        done: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let start = Instant::now();
        loop {
            let status = self.status();
            if done(&status) {
                return status;
            }
            assert!(
                start.elapsed() < limit,
                "waited {limit:?} for {what}; status: {status}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body as text.
    pub body: String,
}

impl Response {
    /// Parses a whole response (a body of `Content-Length` bytes, or
    /// chunked).
    fn parse(raw: &[u8]) -> Response {
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a response head");
        let head = std::str::from_utf8(&raw[..split]).expect("an ASCII head");
        let mut lines = head.split("\r\n");
        let status_line = lines.next().expect("a status line");
        let status = status_line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let rest = &raw[split + 4..];
        let chunked = headers
            .iter()
            .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
        let body = if chunked {
            dechunk(rest)
        } else {
            rest.to_vec()
        };
        Response {
            status,
            headers,
            body: String::from_utf8(body).expect("a UTF-8 body"),
        }
    }

    /// The value of header `name` (lower case), if any.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }
}

/// The body of a chunked transfer.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size");
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..end]).expect("hex").trim(), 16)
            .expect("a chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

/// The standard output of `c4 ARGS`, which must succeed.
pub fn c4_stdout(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(args)
        .output()
        .expect("c4 runs");
    assert!(
        out.status.success(),
        "c4 {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The standard error of `c4 ARGS`, which must fail.
pub fn c4_stderr_failing(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_c4"))
        .args(args)
        .output()
        .expect("c4 runs");
    assert!(!out.status.success(), "c4 {args:?} should fail");
    String::from_utf8(out.stderr).expect("UTF-8")
}
