//! Helpers for the tests of `c4 serve`: a server on a free port of this
//! machine, stopped when dropped, and a small HTTP/1.1 client over a plain
//! TCP socket (so that a test controls exactly what is sent, and can walk
//! away from a request).
//!
//! Each test file uses only part of this module, hence the `allow`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running `c4 serve`.
pub struct Server {
    /// The process.
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

/// How a test server is started besides its arguments.
#[derive(Debug, Default, Clone, Copy)]
pub struct Launch {
    /// The open-file limit (`ulimit -n`) to start it under.
    pub file_limit: Option<u32>,
    /// Keep its stderr for [`Server::stderr`] (else it is dropped).
    pub keep_stderr: bool,
}

impl Server {
    /// Starts `c4 serve --port 0` with `args`, and waits for its URL.
    pub fn start(args: &[&str]) -> Server {
        Server::launch(args, Launch::default())
    }

    /// Starts `c4 serve --port 0` with `args` as `launch` says, and waits
    /// for its URL.
    pub fn launch(args: &[&str], launch: Launch) -> Server {
        let c4 = env!("CARGO_BIN_EXE_c4");
        let mut command = match launch.file_limit {
            // `exec` keeps the shell's process: the server is the child.
            Some(limit) => {
                let mut sh = Command::new("sh");
                sh.arg("-c")
                    .arg(format!("ulimit -n {limit} && exec \"$0\" \"$@\""))
                    .arg(c4);
                sh
            }
            None => Command::new(c4),
        };
        let stderr = if launch.keep_stderr {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut child = command
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(stderr)
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

    /// Opens a connection and sends `bytes`, nothing more.
    pub fn open(&self, bytes: &[u8]) -> TcpStream {
        let mut stream = TcpStream::connect(self.addr).expect("connects");
        stream.write_all(bytes).expect("sends");
        stream
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

    /// Sends `signal` (`libc::SIGTERM`, `libc::SIGINT`) to the server.
    pub fn signal(&self, signal: i32) {
        let pid = i32::try_from(self.child.id()).expect("a pid");
        // SAFETY: kill only sends a signal to the server's process.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "kill {pid}");
    }

    /// Waits at most `limit` for the server to exit; gives its status and
    /// how long it took, or `None` if it still runs.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<(ExitStatus, Duration)> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                return Some((status, start.elapsed()));
            }
            if start.elapsed() > limit {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// What the server wrote on stderr (started with `keep_stderr`), read
    /// to its end: call once it has exited.
    pub fn stderr(&mut self) -> String {
        let mut text = String::new();
        self.child
            .stderr
            .take()
            .expect("stderr kept")
            .read_to_string(&mut text)
            .expect("stderr is UTF-8");
        text
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
    /// Reads one response of `Content-Length` bytes from `stream`, leaving
    /// the connection open.
    pub fn read_one(stream: &mut TcpStream) -> Response {
        let mut raw = Vec::new();
        let mut byte = [0u8; 1];
        while !raw.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte).expect("a response head");
            raw.push(byte[0]);
        }
        let head = Response::parse(&raw);
        let length: usize = head
            .header("content-length")
            .expect("a Content-Length")
            .parse()
            .expect("a length");
        let mut body = vec![0u8; length];
        stream.read_exact(&mut body).expect("the body");
        raw.extend_from_slice(&body);
        Response::parse(&raw)
    }

    /// Parses a whole response (a body of `Content-Length` bytes, or
    /// chunked).
    pub fn parse(raw: &[u8]) -> Response {
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
