//! Number fields: integers, hex flags, exact decimal times and unit conversion. Every
//! failure is a located [`ParseError`]; all arithmetic is checked, so hostile input cannot
//! overflow or panic.

use super::lines::Field;
use super::{ParseError, TimeUnit};

/// An unsigned decimal integer (one pass: this runs several times per line).
pub fn int(line: u32, f: Field<'_>, what: &str) -> Result<u64, ParseError> {
    let digits = f.text.strip_prefix('+').unwrap_or(f.text);
    if let Some(v) = short_int(digits.as_bytes()) {
        return Ok(v);
    }
    let mut value: u64 = 0;
    for &b in digits.as_bytes() {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return Err(ParseError::new(line, f.column, f.text, what));
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or_else(|| ParseError::new(line, f.column, f.text, &format!("{what}, below 2^64")))?;
    }
    if digits.is_empty() {
        return Err(ParseError::new(line, f.column, f.text, what));
    }
    Ok(value)
}

/// `digits` as an integer when they are 1 to 19 decimal digits, which cannot overflow a u64:
/// the common case, without the overflow checks of the general path.
pub(super) fn short_int(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    let mut value = 0u64;
    for &b in digits {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        value = value * 10 + u64::from(d);
    }
    Some(value)
}

/// `m` whole `unit`s in ns, when that fits a u64 (rounded down, as [`time`] does).
pub(super) fn whole_time(m: u64, unit: TimeUnit) -> Option<u64> {
    ToNs::of(unit).apply(m)
}

/// Whole units of a [`TimeUnit`] to ns: a multiplication by a power of ten, or a division
/// for a unit below a ns. Worked out once for a fast path's lines rather than per line
/// (the power takes a loop).
#[derive(Debug, Clone, Copy)]
pub(super) enum ToNs {
    Times(u64),
    Over(u64),
}

impl ToNs {
    pub(super) fn of(unit: TimeUnit) -> Self {
        let shift = i32::from(unit.picos_log10()) - 3;
        let pow = 10u64.pow(shift.unsigned_abs());
        if shift >= 0 {
            ToNs::Times(pow)
        } else {
            ToNs::Over(pow)
        }
    }

    /// `m` units in ns, when that fits a u64 (rounded down).
    #[inline(always)]
    pub(super) fn apply(self, m: u64) -> Option<u64> {
        match self {
            ToNs::Times(p) => m.checked_mul(p),
            ToNs::Over(p) => Some(m / p),
        }
    }
}

/// A hexadecimal integer, with or without `0x`.
pub fn hex(line: u32, f: Field<'_>, what: &str) -> Result<u64, ParseError> {
    let t = f.text;
    let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ParseError::new(line, f.column, f.text, what));
    }
    u64::from_str_radix(digits, 16).map_err(|_| ParseError::new(line, f.column, f.text, what))
}

/// Significant digits kept; further fractional digits are below a picosecond for any
/// realistic timestamp and are dropped, which keeps the mantissa far below 2^128.
const MAX_MANTISSA: u128 = 1_000_000_000_000_000_000_000_000; // 10^24

/// A non-negative decimal time (`12`, `0.551706`, `1.5e3`) in `unit`, converted exactly to
/// whole nanoseconds (rounded down). No floating point, so results never depend on rounding.
pub fn time(line: u32, f: Field<'_>, unit: TimeUnit) -> Result<u64, ParseError> {
    let err = |extra: &str| {
        let what = format!("a time in {} (a non-negative decimal number){extra}", unit.describe());
        ParseError::new(line, f.column, f.text, &what)
    };
    let bytes = f.text.strip_prefix('+').unwrap_or(f.text).as_bytes();
    // Fast path: a whole number of at most 19 digits (the usual timestamp), exactly what the
    // general path computes for it.
    if let Some(ns) = short_int(bytes).and_then(|m| whole_time(m, unit)) {
        return Ok(ns);
    }
    let (mut mantissa, mut pow10, mut digits) = (0u128, 0i64, 0usize);
    let mut i = 0;
    let mut fraction = false;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                if mantissa < MAX_MANTISSA {
                    mantissa = mantissa * 10 + u128::from(b - b'0');
                    pow10 -= i64::from(fraction);
                } else if !fraction {
                    pow10 += 1;
                }
            }
            b'.' if !fraction => fraction = true,
            b'e' | b'E' => break,
            _ => return Err(err("")),
        }
        i += 1;
    }
    if digits == 0 {
        return Err(err(""));
    }
    if let Some(exp) = bytes.get(i + 1..) {
        let (neg, exp) = match exp.split_first() {
            Some((b'-', rest)) => (true, rest),
            Some((b'+', rest)) => (false, rest),
            _ => (false, exp),
        };
        if exp.is_empty() || exp.len() > 4 || !exp.iter().all(u8::is_ascii_digit) {
            return Err(err(""));
        }
        let e = exp.iter().fold(0i64, |a, &b| a * 10 + i64::from(b - b'0'));
        pow10 += if neg { -e } else { e };
    }
    // Every unit is a power of ten of picoseconds, so ns = mantissa * 10^(pow10 + p - 3).
    let shift = pow10 + i64::from(unit.picos_log10()) - 3;
    let ns = if shift >= 0 {
        u32::try_from(shift).ok().and_then(|s| 10u128.checked_pow(s)).and_then(|p| mantissa.checked_mul(p))
    } else {
        Some(u32::try_from(-shift).ok().and_then(|s| 10u128.checked_pow(s)).map_or(0, |p| mantissa / p))
    };
    ns.and_then(|v| u64::try_from(v).ok()).ok_or_else(|| err(", below 584 years"))
}

/// `count` units of `unit_bytes` as bytes (sectors to bytes, for example).
pub fn bytes(line: u32, f: Field<'_>, count: u64, unit_bytes: u64) -> Result<u64, ParseError> {
    count
        .checked_mul(unit_bytes)
        .ok_or_else(|| ParseError::new(line, f.column, f.text, "an address below 2^64 bytes"))
}

/// An integer count of `unit_bytes` units (sectors, blocks) as bytes.
pub fn sectors(line: u32, f: Field<'_>, unit_bytes: u64, what: &str) -> Result<u64, ParseError> {
    let count = int(line, f, what)?;
    bytes(line, f, count, unit_bytes)
}

/// A request length in bytes, which must fit the 32-bit `Request::size`.
pub fn size(line: u32, f: Field<'_>, bytes: u64) -> Result<u64, ParseError> {
    if bytes > u64::from(u32::MAX) {
        return Err(ParseError::new(line, f.column, f.text, "a request size below 4 GiB"));
    }
    Ok(bytes)
}

/// Checks `offset + size` stays addressable, so later page arithmetic cannot overflow.
pub fn extent(line: u32, f: Field<'_>, offset: u64, size: u64) -> Result<(), ParseError> {
    match offset.checked_add(size) {
        Some(_) => Ok(()),
        None => Err(ParseError::new(line, f.column, f.text, "an offset whose request ends below 2^64 bytes")),
    }
}

/// A one-letter opcode, `R` or `W` (either case), as SPC and FIU write it.
pub fn read_write_letter(text: &str) -> Option<crate::trace::HostOp> {
    match text {
        "R" | "r" => Some(crate::trace::HostOp::Read),
        "W" | "w" => Some(crate::trace::HostOp::Write),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str, unit: TimeUnit) -> Result<u64, ParseError> {
        time(3, Field { column: 5, text }, unit)
    }

    #[test]
    fn decimal_times_are_exact() {
        assert_eq!(t("0.551706", TimeUnit::S), Ok(551_706_000));
        assert_eq!(t("1456095145.133076000", TimeUnit::S), Ok(1_456_095_145_133_076_000));
        assert_eq!(t("12.5", TimeUnit::Ms), Ok(12_500_000));
        assert_eq!(t("1.5e3", TimeUnit::Us), Ok(1_500_000));
        assert_eq!(t("2500", TimeUnit::Ps), Ok(2));
        assert_eq!(t(".5", TimeUnit::S), Ok(500_000_000));
        assert_eq!(t("7.", TimeUnit::Ns), Ok(7));
        assert_eq!(t("128166385295514663", TimeUnit::Filetime), Ok(12_816_638_529_551_466_300));
        assert_eq!(t("1e-30", TimeUnit::S), Ok(0));
        for bad in ["", ".", "-1", "1,5", "1e", "1e99999", "nan", "0x10", "1.2.3"] {
            let e = t(bad, TimeUnit::S).unwrap_err();
            assert_eq!((e.line, e.column), (3, 5), "{bad}");
        }
        assert!(t("99999999999", TimeUnit::S).unwrap_err().expected.contains("584 years"));
        assert!(t(&"9".repeat(200), TimeUnit::Ps).is_err());
    }

    #[test]
    fn integers_and_hex() {
        let f = |text| Field { column: 2, text };
        assert_eq!(int(1, f("42"), "n"), Ok(42));
        assert!(int(1, f("-1"), "n").is_err());
        assert!(int(1, f("99999999999999999999"), "n").unwrap_err().expected.contains("2^64"));
        assert_eq!(hex(1, f("2a"), "h"), Ok(42));
        assert_eq!(hex(1, f("0x1"), "h"), Ok(1));
        assert!(hex(1, f("+1"), "h").is_err());
        assert!(bytes(1, f("x"), u64::MAX, 512).is_err());
        assert!(size(1, f("x"), 1 << 32).is_err());
        assert!(extent(1, f("x"), u64::MAX, 1).is_err());
    }
}
