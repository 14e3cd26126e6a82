//! Calendar arithmetic: the proleptic Gregorian calendar that Ruby's `Time` uses for every
//! year (no year limit: Puppet's `Timestamp(1e25)` is in year 316887385068116298), and the
//! broken-down time (`struct vtm`) that `Time#strftime` formats.
//!
//! Days are counted from 1970-01-01 as `i128`, so every `Timestamp` (an `i128` of
//! nanoseconds) has a date. This is our own code, not a calendar crate's, because of that
//! missing limit; a unit test checks it against `jiff` for the years -9999 to 9999.

/// Nanoseconds per second.
pub const NSECS_PER_SEC: i128 = 1_000_000_000;
/// Seconds per day.
pub const SECS_PER_DAY: i128 = 86_400;

/// Whether `year` is a leap year of the Gregorian calendar.
pub fn is_leap(year: i128) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// Days from 1970-01-01 to `year-mon-mday` (`mon` 1..=12; a `mday` past the month's end
/// counts on into the next month, as Ruby's `timegm` does).
pub fn days_from_civil(year: i128, mon: u32, mday: u32) -> i128 {
    let y = if mon <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i128::from(mon);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i128::from(mday) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date `(year, mon, mday)` of a day counted from 1970-01-01.
pub fn civil_from_days(days: i128) -> (i128, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let mday = doy - (153 * mp + 2) / 5 + 1;
    let mon = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i128::from(mon <= 2);
    (year, small(mon), small(mday))
}

/// Day of the year, 1..=366.
pub fn day_of_year(year: i128, mon: u32, mday: u32) -> u32 {
    small(days_from_civil(year, mon, mday) - days_from_civil(year, 1, 1) + 1)
}

/// Day of the week of a day counted from 1970-01-01 (a Thursday): Sunday is 0.
pub fn weekday(days: i128) -> u32 {
    small((days + 4).rem_euclid(7))
}

/// A value known to be small (a month, day, hour, ...) as `u32`.
fn small(v: i128) -> u32 {
    u32::try_from(v).unwrap_or(0)
}

/// A broken-down time: Ruby's `struct vtm` of a `Time`, what `strftime` formats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tm {
    pub year: i128,
    /// 1..=12
    pub mon: u32,
    /// 1..=31
    pub mday: u32,
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
    /// Nanoseconds of the second.
    pub nsec: u32,
    /// 0 (Sunday) ..= 6
    pub wday: u32,
    /// 1..=366
    pub yday: u32,
    /// Seconds east of UTC.
    pub utc_offset: i64,
    /// Whether the time is in UTC mode (`Time#utc`): `%Z` prints `UTC`, `%-z` prints `-0000`.
    pub gmt: bool,
    /// Seconds since the epoch (floored), what `%s` prints.
    pub epoch_secs: i128,
}

impl Tm {
    /// The broken-down time of `nsecs` (nanoseconds since the epoch) at `utc_offset` seconds
    /// east of UTC; `gmt` for UTC mode.
    pub fn new(nsecs: i128, utc_offset: i64, gmt: bool) -> Tm {
        let epoch_secs = nsecs.div_euclid(NSECS_PER_SEC);
        let nsec = small(nsecs.rem_euclid(NSECS_PER_SEC));
        let local = epoch_secs + i128::from(utc_offset);
        let days = local.div_euclid(SECS_PER_DAY);
        let secs_of_day = local.rem_euclid(SECS_PER_DAY);
        let (year, mon, mday) = civil_from_days(days);
        Tm {
            year,
            mon,
            mday,
            hour: small(secs_of_day / 3600),
            min: small(secs_of_day % 3600 / 60),
            sec: small(secs_of_day % 60),
            nsec,
            wday: weekday(days),
            yday: day_of_year(year, mon, mday),
            utc_offset,
            gmt,
            epoch_secs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_and_known_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
        assert_eq!(weekday(0), 4);
        assert_eq!(day_of_year(2020, 12, 31), 366);
        assert_eq!(day_of_year(2021, 12, 31), 365);
    }

    #[test]
    fn overflowing_mday_counts_on() {
        assert_eq!(days_from_civil(2021, 2, 31), days_from_civil(2021, 3, 3));
    }

    #[test]
    fn round_trips_far_years() {
        for days in [-1_000_000_000_000i128, -719_468, -1, 0, 59, 60, 1_000_000_000_000_000_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }

    #[test]
    fn agrees_with_jiff() {
        let mut day = jiff::civil::date(-9999, 1, 1);
        let end = jiff::civil::date(9999, 12, 31);
        let step = jiff::Span::new().days(37);
        while day < end {
            let days = days_from_civil(i128::from(day.year()), day.month() as u32, day.day() as u32);
            let back = civil_from_days(days);
            assert_eq!(back, (i128::from(day.year()), day.month() as u32, day.day() as u32));
            assert_eq!(weekday(days), u32::from(day.weekday().to_sunday_zero_offset() as u8));
            assert_eq!(day_of_year(back.0, back.1, back.2), day.day_of_year() as u32);
            day = match day.checked_add(step) {
                Ok(d) => d,
                Err(_) => break,
            };
        }
    }

    #[test]
    fn tm_of_negative_times() {
        let tm = Tm::new(-1_500_000_000, 0, true);
        assert_eq!(
            (tm.year, tm.mon, tm.mday, tm.hour, tm.min, tm.sec, tm.nsec),
            (1969, 12, 31, 23, 59, 58, 500_000_000)
        );
        assert_eq!(tm.epoch_secs, -2);
    }
}
