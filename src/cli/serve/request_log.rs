//! The request log of `c4 serve --log`: one line per answered request on
//! stderr, `TIME METHOD TARGET STATUS MS ms NODES nodes`, the time in UTC as
//! `2030-01-02T03:04:05.678Z`.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

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

/// `time` in UTC as `YYYY-MM-DDTHH:MM:SS.mmmZ` (RFC 3339); times before
/// 1970 are shown as 1970-01-01T00:00:00.000Z.
pub fn utc_timestamp(time: SystemTime) -> String {
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since_epoch.as_secs();
    let (year, month, day) = civil_date(seconds / 86_400);
    let of_day = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60,
        since_epoch.subsec_millis()
    )
}

/// The Gregorian (year, month, day) of the day `days` after 1970-01-01.
///
/// Counts in 400-year eras (146,097 days each) of years that start on March
/// 1st, so that the leap day is the last day of its year; then moves
/// January and February back to the civil year that holds them.
fn civil_date(days: u64) -> (u64, u64, u64) {
    // 1970-01-01 is day 719,468 after 0000-03-01.
    let days = days + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    // Years of 365 days, less a day every 4 years, plus one every 100,
    // less one at the era's last day.
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    // Months from March: 31, 30, 31, 30, 31, 31, 30, 31, 30, 31, 31, 29 (or 28)
    // days; (153 m + 2) / 5 is the first day of month m.
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = era * 400 + year_of_era + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(seconds: u64, millis: u64) -> String {
        utc_timestamp(UNIX_EPOCH + Duration::from_millis(seconds * 1000 + millis))
    }

    /// Dates whose epoch seconds are known: the epoch, leap days of a year
    /// divisible by 400 and of an ordinary leap year, the last day of 1999,
    /// 2^31 seconds, and 2100-03-01 (2100 is not a leap year).
    #[test]
    fn known_dates() {
        assert_eq!(at(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(at(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(at(946_684_799, 999), "1999-12-31T23:59:59.999Z");
        assert_eq!(at(1_709_210_096, 0), "2024-02-29T12:34:56.000Z");
        assert_eq!(at(2_147_483_648, 0), "2038-01-19T03:14:08.000Z");
        assert_eq!(at(4_107_542_400, 0), "2100-03-01T00:00:00.000Z");
        assert_eq!(at(4_107_456_000, 0), "2100-02-28T00:00:00.000Z");
    }
}
