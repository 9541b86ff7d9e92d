//! The request log of `c4 serve --log`: one line per answered request on
//! stderr, `TIME METHOD TARGET STATUS MS ms NODES nodes`, the time in UTC as
//! `2030-01-02T03:04:05.678Z`.

use std::time::{Instant, SystemTime};

use axum::http::{Method, Request, Response};

use super::super::output::warn;
use super::api::{MAX_URI_BYTES, NodesSearched};

/// A request as it came, to be logged once answered.
pub struct LogLine {
    /// When it came.
    at: SystemTime,
    /// When it came, for the duration.
    started: Instant,
    /// Its method.
    method: Method,
    /// Its path and query, cut at [`MAX_URI_BYTES`] bytes.
    target: String,
}

impl LogLine {
    /// Notes `request`, which has just come.
    pub fn start<B>(request: &Request<B>) -> LogLine {
        let target = request.uri().path_and_query().map_or("/", |pq| pq.as_str());
        // A URI is ASCII: any byte is a character boundary.
        let target = if target.len() > MAX_URI_BYTES {
            format!("{}...", &target[..MAX_URI_BYTES])
        } else {
            target.to_owned()
        };
        LogLine {
            at: SystemTime::now(),
            started: Instant::now(),
            method: request.method().clone(),
            target,
        }
    }

    /// Writes the line of the request answered with `response`.
    pub fn finish<B>(self, response: &Response<B>) {
        let millis = self.started.elapsed().as_secs_f64() * 1000.0;
        let nodes = response
            .extensions()
            .get::<NodesSearched>()
            .map_or(0, |n| n.0);
        warn(format_args!(
            "{} {} {} {} {millis:.1} ms {nodes} nodes",
            utc_timestamp(self.at),
            self.method,
            self.target,
            response.status().as_u16(),
        ));
    }
}

/// `time` in UTC as `YYYY-MM-DDTHH:MM:SS.mmmZ` (RFC 3339).
pub fn utc_timestamp(time: SystemTime) -> String {
    humantime::format_rfc3339_millis(time).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    fn at(seconds: u64, millis: u64) -> String {
        utc_timestamp(UNIX_EPOCH + Duration::from_millis(seconds * 1000 + millis))
    }

    /// Dates whose epoch seconds `date -u -d @SECONDS` gives: the epoch, a
    /// leap day of a year divisible by 400, and 2100-03-01 (2100 is not a
    /// leap year).
    #[test]
    fn known_dates() {
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(4_107_542_400, 0), "2100-03-01T00:00:00.000Z");
    }
}
