//! ISO 8601 UTC timestamps without a date-time dependency.

use std::time::{SystemTime, UNIX_EPOCH};

#[cfg(test)]
thread_local! {
    /// A test's fixed "now" (this thread only): two logs built from the same emits then hold
    /// the same bytes, seals included.
    static FIXED_NOW: std::cell::Cell<Option<i64>> = const { std::cell::Cell::new(None) };
}

pub fn unix_millis_now() -> i64 {
    #[cfg(test)]
    if let Some(ms) = FIXED_NOW.with(std::cell::Cell::get) {
        return ms;
    }
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// Fixes (or, with None, frees) the clock this thread's events and seals read.
#[cfg(test)]
pub(crate) fn fix_clock(millis: Option<i64>) {
    FIXED_NOW.with(|now| now.set(millis));
}

/// Now, as `2026-11-22T02:31:07.123Z`.
pub fn iso8601_now() -> String {
    format_unix_millis(unix_millis_now())
}

/// [`format_unix_millis`] into a buffer, without allocating: every event written to a spill
/// file or an export formats one. None for a year past 9999 (formatted the slow way).
pub(crate) fn unix_millis_text(millis: i64, out: &mut [u8; 24]) -> Option<&str> {
    let secs = millis.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    if !(0..=9999).contains(&y) {
        return None;
    }
    let mut put = |at: usize, width: usize, mut value: i64| {
        for i in (at..at + width).rev() {
            out[i] = b'0' + (value % 10) as u8;
            value /= 10;
        }
    };
    put(0, 4, y);
    put(5, 2, i64::from(m));
    put(8, 2, i64::from(d));
    put(11, 2, sod / 3600);
    put(14, 2, sod % 3600 / 60);
    put(17, 2, sod % 60);
    put(20, 3, millis.rem_euclid(1000));
    for (at, c) in [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':'), (19, b'.'), (23, b'Z')] {
        out[at] = c;
    }
    std::str::from_utf8(out).ok()
}

pub fn format_unix_millis(millis: i64) -> String {
    let secs = millis.div_euclid(1000);
    let ms = millis.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let sod = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z", sod / 3600, sod % 3600 / 60, sod % 60)
}

/// Reads back what [`format_unix_millis`] wrote (`2026-11-22T02:31:07.123Z`); None for any
/// other text, so an event read back writes the very same timestamp again.
pub fn parse_unix_millis(text: &str) -> Option<i64> {
    let (date, time) = text.strip_suffix('Z')?.split_once('T')?;
    let mut date = date.split('-');
    let mut time = time.split([':', '.']);
    let field = |part: Option<&str>| -> Option<i64> {
        let part = part?;
        if part.is_empty() || part.len() > 12 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        part.parse().ok()
    };
    let (y, m, d) = (field(date.next())?, field(date.next())?, field(date.next())?);
    let (h, min, s, ms) = (field(time.next())?, field(time.next())?, field(time.next())?, field(time.next())?);
    if date.next().is_some() || time.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let days = days_from_civil(y, m as u32, d as u32);
    let millis = ((days * 86_400 + h * 3600 + min * 60 + s) * 1000).checked_add(ms)?;
    // Out-of-range fields (25 o'clock, February 30th) would name another instant: refuse them.
    (format_unix_millis(millis) == text).then_some(millis)
}

/// Howard Hinnant's civil-to-days algorithm (the inverse of `civil_from_days`).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from(if m > 2 { m - 3 } else { m + 9 });
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(format_unix_millis(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_unix_millis(1_795_314_667_123), "2026-11-22T02:31:07.123Z");
        assert_eq!(format_unix_millis(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn the_buffer_formatter_writes_what_the_formatter_does() {
        let mut buf = [0; 24];
        for ms in [0, 1, 999, 951_782_400_000, 1_795_314_667_123, 253_402_300_799_999] {
            assert_eq!(unix_millis_text(ms, &mut buf), Some(format_unix_millis(ms).as_str()), "{ms}");
        }
        assert_eq!(unix_millis_text(253_402_300_800_000, &mut buf), None, "year 10000 takes the slow way");
    }

    #[test]
    fn timestamps_read_back_to_the_same_instant() {
        for ms in [0, 1, 999, 951_782_400_000, 1_795_314_667_123, 4_102_444_799_999, 253_402_300_799_999] {
            assert_eq!(parse_unix_millis(&format_unix_millis(ms)), Some(ms), "{ms}");
        }
        for bad in ["", "2026-11-22T02:31:07.123", "2026-02-30T00:00:00.000Z", "2026-11-22T25:00:00.000Z", "2026-11-22T02:31:07Z", "x"] {
            assert_eq!(parse_unix_millis(bad), None, "{bad}");
        }
    }
}
