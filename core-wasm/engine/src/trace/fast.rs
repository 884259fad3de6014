//! The fast path for the usual trace line: ASCII fields separated by commas, with no spaces,
//! tabs or quotes to trim, and whole decimal numbers. Parsing a million-line trace is most
//! of a fast run's work, and the general path (located fields, character columns, every
//! number form) costs several times this one. A line the fast path cannot read exactly as
//! the general path would gives `None` and goes the general way, which also reports errors.

/// Fields a fast line may have (MSR has 7); longer lines take the general path.
const MAX: usize = 8;

/// Eight copies of `b`: the split tests eight bytes of a line at a time, each in its own
/// byte of a `u64` (little endian: the first byte lowest).
const fn lanes(b: u8) -> u64 {
    u64::from_le_bytes([b; 8])
}

const HIGH: u64 = lanes(0x80);

/// `10^n`, for appending `n` digits to a value.
const POW10: [u64; 9] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/// The fields of one simple line, as byte ranges, and each field's value when it is a
/// whole number of at most 19 digits (read in the same pass over the line as the split).
pub struct Split<'a> {
    line: &'a [u8],
    bounds: [(u32, u32); MAX],
    /// Field `i`'s value, meaningful when bit `i` of `ints` is set.
    values: [u64; MAX],
    ints: u32,
    count: usize,
}

impl<'a> Split<'a> {
    /// Splits `line` on commas; `None` when the line starts with anything but a letter or
    /// digit (so it is no comment or blank line), has a byte the general splitter treats
    /// specially (space, tab, quote), any other byte below `#` (control bytes and `!`,
    /// refused with them so one test covers the range) or a non-ASCII byte, or has more
    /// than [`MAX`] fields. (The parsers fill a split in place with [`Split::split_simple`].)
    #[cfg(test)]
    pub fn new(line: &'a [u8]) -> Option<Self> {
        if !is_simple(line) {
            return None;
        }
        let mut split = Split::empty();
        split.split_simple(line)?;
        Some(split)
    }

    /// No fields yet: [`Split::split_simple`] fills it in place (returning the filled value from a
    /// function copies its 136 bytes per line, as a call to `memcpy`).
    #[inline(always)]
    pub fn empty() -> Self {
        Split { line: &[], bounds: [(0, 0); MAX], values: [0; MAX], ints: 0, count: 0 }
    }

    /// Splits `line`, known to be simple ([`is_simple`]; a reader's [`line_at`] has checked
    /// it), into this (empty) split, as [`Split::new`] does any line.
    ///
    /// Eight bytes at a time: each field is read as a run of digits (up to 8 a step, their
    /// value computed with three multiplications) and, when something else follows the run,
    /// a search for its comma.
    #[inline(always)]
    pub fn split_simple(&mut self, line: &'a [u8]) -> Option<()> {
        if line.len() > u32::MAX as usize {
            return None;
        }
        self.line = line;
        let mut start = 0;
        loop {
            // The field's leading digits, 8 at a time, and where they end.
            let w = word_at(line, start) ^ lanes(b'0');
            let mut n = digit_run(w);
            let mut value = digits_value(w, n);
            let mut p = start + n;
            while n == 8 {
                let w = word_at(line, p) ^ lanes(b'0');
                n = digit_run(w);
                // Wraps only past 19 digits, which `close` refuses anyway.
                value = value.wrapping_mul(POW10[n]).wrapping_add(digits_value(w, n));
                p += n;
            }
            match line.get(p) {
                None => return self.close(start, p, value, true),
                Some(b',') => self.close(start, p, value, true)?,
                // Something else follows: the field is no number, and ends at its comma.
                Some(_) => match find_comma(line, p) {
                    None => return self.close(start, line.len(), 0, false),
                    Some(c) => {
                        p = c;
                        self.close(start, p, 0, false)?;
                    }
                },
            }
            start = p + 1;
        }
    }

    /// Records the field `start..end`; `None` past [`MAX`] fields. It is a number when it
    /// is `digits` and 1 to 19 long (20 digits can pass `u64`).
    #[inline(always)]
    fn close(&mut self, start: usize, end: usize, value: u64, digits: bool) -> Option<()> {
        let i = self.count;
        *self.bounds.get_mut(i)? = (start as u32, end as u32);
        *self.values.get_mut(i)? = value;
        let len = end - start;
        self.ints |= u32::from(digits && (1..=19).contains(&len)) << i;
        self.count = i + 1;
        Some(())
    }

    /// Number of fields.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Field `i` (empty past the last).
    pub fn bytes(&self, i: usize) -> &'a [u8] {
        match self.bounds.get(i) {
            Some(&(s, e)) if i < self.count => self.line.get(s as usize..e as usize).unwrap_or_default(),
            _ => &[],
        }
    }

    /// Field `i` as text (the line is ASCII, so this never fails).
    pub fn text(&self, i: usize) -> &'a str {
        std::str::from_utf8(self.bytes(i)).unwrap_or_default()
    }

    /// Field `i` as a whole number of at most 19 digits.
    #[inline]
    pub fn int(&self, i: usize) -> Option<u64> {
        let is_int = i < MAX && self.ints >> i & 1 != 0;
        is_int.then(|| self.values.get(i).copied()).flatten()
    }
}

/// Whether `line` is one the fast paths read: it starts with a letter or digit (so it is no
/// comment or blank line) and has no byte the general splitter treats specially (space,
/// tab, quote), no other byte below `#` and no non-ASCII byte (see [`Split::new`]). The
/// readers find simple lines with [`line_at`]; this byte-by-byte form is what the tests
/// hold it to.
#[cfg(test)]
pub fn is_simple(line: &[u8]) -> bool {
    line.first().is_some_and(u8::is_ascii_alphanumeric) && line.iter().all(|b| (b'#'..0x80).contains(b))
}

/// The simple line ([`is_simple`]) at the start of `bytes`, when it ends inside them: its
/// length, without its `\n` or `\r\n`, and where the next line starts. One pass finds
/// the line's end and checks its bytes (the end is the first refused byte, which must be
/// the newline), where a newline search and [`is_simple`] would take two.
#[inline(always)]
pub fn line_at(bytes: &[u8]) -> Option<(usize, usize)> {
    if !bytes.first()?.is_ascii_alphanumeric() {
        return None;
    }
    line_end(bytes, 0)
}

/// [`line_at`] for a line whose bytes before `from` are known to be simple (a reader has
/// read them): checks the rest and finds the end.
#[inline(always)]
pub fn line_end(bytes: &[u8], from: usize) -> Option<(usize, usize)> {
    let rest = bytes.get(from..)?;
    let words = rest.chunks_exact(8);
    // The whole words, then the rest with zeros after it, which are refused: the search
    // ends there at the latest.
    let tail = rest.len() - words.remainder().len();
    let (p, flags) = words
        .map(word)
        .chain(std::iter::once_with(|| word_at(rest, tail)))
        .enumerate()
        .map(|(i, w)| (8 * i, refused(w)))
        .find(|&(_, flags)| flags != 0)?;
    let end = from + p + (flags.trailing_zeros() / 8) as usize;
    match bytes.get(end..) {
        Some([b'\n', ..]) => Some((end, end + 1)),
        Some([b'\r', b'\n', ..]) => Some((end, end + 2)),
        _ => None,
    }
}

/// The top bit of each byte of `w` that is refused in a simple line (below `#`, or not
/// ASCII); exact for the lowest, which is all the searches use. A byte below 0x23 wraps to
/// a set top bit when 0x23 is taken away (the borrow it passes on can only flag a later
/// byte too); a non-ASCII byte has its top bit set.
#[inline(always)]
fn refused(w: u64) -> u64 {
    (w.wrapping_sub(lanes(0x23)) | w) & HIGH
}

/// The top bit of each byte of `w` that is a comma; exact for the lowest (a borrow past
/// it can only flag bytes after it).
#[inline(always)]
fn commas(w: u64) -> u64 {
    let x = w ^ lanes(b',');
    x.wrapping_sub(lanes(1)) & !x & HIGH
}

/// The run of 1 to 19 digits at `start` of `bytes`, when there is one: its value and where
/// it ends (the caller checks what follows). Numbers are read from a reader's chunk, on
/// past the line's end: the words read there are whole, where a line's last bytes would
/// take a shift or a copy, and the newline ends the run as any other byte does.
#[inline(always)]
pub fn digits(bytes: &[u8], start: usize) -> Option<(u64, usize)> {
    let w = word_at(bytes, start) ^ lanes(b'0');
    let n = digit_run(w);
    if n < 8 {
        // A short number (a size, most times): no further test of its length.
        return (n > 0).then(|| (digits_value(w, n), start + n));
    }
    let mut value = digits_value(w, 8);
    let mut p = start + 8;
    // The few digits of a longer number (an offset, a time) after its first 8: one at a
    // time costs less than another word (`Split::split_simple`'s loop of words, shared
    // here, took 7 % more instructions to read a plain trace; its MSR times have 18
    // digits). Wraps only past 19 digits, refused below.
    while let Some(d) = bytes.get(p).map(|b| b.wrapping_sub(b'0')).filter(|&d| d <= 9) {
        value = value.wrapping_mul(10).wrapping_add(u64::from(d));
        p += 1;
    }
    (p - start <= 19).then_some((value, p))
}

/// Where the field at `start` of `bytes` ends when its bytes are simple: at the first byte
/// that is a comma or refused ([`is_simple`]), which the caller checks is its comma or the
/// line's newline; the end of `bytes` when there is none.
#[inline(always)]
pub fn simple_field_end(bytes: &[u8], mut p: usize) -> usize {
    while p < bytes.len() {
        let w = word_at(bytes, p);
        // Each test is exact for its lowest flag, so their union is exact for its lowest.
        let flags = refused(w) | commas(w);
        if flags != 0 {
            return (p + (flags.trailing_zeros() / 8) as usize).min(bytes.len());
        }
        p += 8;
    }
    bytes.len()
}

/// `bytes` (8 of them) as a word, the first byte lowest.
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().unwrap_or_default())
}

/// The 8 bytes of `line` from `p` as a word, zeros past the line's end (which no test
/// below takes for a digit or a comma). No load reaches outside the line.
#[inline(always)]
fn word_at(line: &[u8], p: usize) -> u64 {
    // The usual case with one bounds check (`p` is at most the line's length, far from
    // overflowing).
    if let Some(w) = line.get(p..p.wrapping_add(8)) {
        return word(w);
    }
    let rest = line.get(p..).unwrap_or_default();
    if rest.is_empty() {
        return 0;
    }
    match line.len().checked_sub(8) {
        // The line's last 8 bytes, moved down past those before `p`.
        Some(last) => word(&line[last..]) >> (8 * (8 - rest.len())),
        None => {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(b)
        }
    }
}

/// How many of `w`'s bytes, lowest first, are digits (0 to 9 once `'0'` is xor-ed away),
/// before the first that is not: 0 to 8.
#[inline(always)]
fn digit_run(w: u64) -> usize {
    // A byte's top bit ends up set when adding 0x76 takes it to 0x80 or more (it is 10 or
    // more) or when it was set already; a digit never carries into the next byte.
    let non_digit = (w.wrapping_add(lanes(0x76)) | w) & HIGH;
    (non_digit.trailing_zeros() / 8) as usize
}

/// The value of the first `n` bytes of `w`, digits 0 to 9 with the first the most
/// significant; 0 when `n` is 0.
#[inline(always)]
fn digits_value(w: u64, n: usize) -> u64 {
    // Moved to the top bytes, the digits have zeros before them (leading zeros) and the
    // bytes after them are gone.
    let Some(v) = w.checked_shl(8 * (8 - n) as u32) else { return 0 };
    // Neighbouring digits, then pairs, then fours, each combined in one multiplication.
    let v = (v.wrapping_mul(10 << 8 | 1) >> 8) & 0x00ff_00ff_00ff_00ff;
    let v = (v.wrapping_mul(100 << 16 | 1) >> 16) & 0x0000_ffff_0000_ffff;
    v.wrapping_mul(10_000 << 32 | 1) >> 32
}

/// Where the first comma at or after `p` is.
#[inline(always)]
fn find_comma(line: &[u8], mut p: usize) -> Option<usize> {
    while p < line.len() {
        let comma = commas(word_at(line, p));
        if comma != 0 {
            return Some(p + (comma.trailing_zeros() / 8) as usize).filter(|&c| c < line.len());
        }
        p += 8;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_simple_lines_and_refuses_the_rest() {
        let s = Split::new(b"W,8192,4096,150").unwrap();
        assert_eq!(
            (s.count(), s.bytes(0), s.int(1), s.int(3), s.bytes(9)),
            (4, &b"W"[..], Some(8192), Some(150), &b""[..])
        );
        assert_eq!(Split::new(b"W,1,,").unwrap().count(), 4);
        for bad in
            [&b"# W,1"[..], b"W, 1", b"\"W\",1", b"W,\t1", b"W,1,\xc3\xa9", b"", b",W", b"1,2,3,4,5,6,7,8,9"]
        {
            assert!(Split::new(bad).is_none(), "{:?}", String::from_utf8_lossy(bad));
        }
        assert_eq!(Split::new(b"1,2,3,4,5,6,7,8").unwrap().int(7), Some(8));
        assert_eq!(Split::new(b"W,12345678901234567890").unwrap().int(1), None, "20 digits: general path");
        let s = Split::new(b"W,9999999999999999999,0,1x,x1,,007").unwrap();
        assert_eq!(
            (0..8).map(|i| s.int(i)).collect::<Vec<_>>(),
            [None, Some(9_999_999_999_999_999_999), Some(0), None, None, None, Some(7), None]
        );
    }

    /// A random line: mostly digits and commas, sometimes any byte that matters to the
    /// split (refused ones, separators, letters, non-ASCII), of 1 to 48 bytes, so digit runs
    /// cross the 8-byte steps and lines end inside and outside them.
    fn random_line(rng: &mut crate::test_rng::Rng, first: &[u8]) -> Vec<u8> {
        let odd = b"0123456789,,,,W9x+-.Rr #!\"\t\r\0\x7f\x80\xc3\xa9:/_";
        let len = 1 + rng.below(48) as usize;
        let mut line = vec![first[rng.below(first.len() as u64) as usize]];
        while line.len() < len {
            let alphabet: &[u8] = if rng.below(8) == 0 { odd } else { b"0123456789," };
            line.push(alphabet[rng.below(alphabet.len() as u64) as usize]);
        }
        line
    }

    /// The split and its numbers agree with splitting on commas and reading each field
    /// alone, and it refuses exactly the lines it says it refuses, over random lines with
    /// odd bytes anywhere.
    #[test]
    fn split_agrees_with_fields_read_alone() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..200_000 {
            let line = random_line(&mut rng, b"W1#, 9x");
            let fields: Vec<&[u8]> = line.split(|&b| b == b',').collect();
            let refused = !line[0].is_ascii_alphanumeric()
                || line.iter().any(|b| !(b'#'..0x80).contains(b))
                || fields.len() > MAX;
            let shown = String::from_utf8_lossy(&line);
            match Split::new(&line) {
                None => assert!(refused, "{shown:?} refused"),
                Some(s) => {
                    assert!(!refused, "{shown:?} accepted");
                    assert_eq!(s.count(), fields.len());
                    for (i, f) in fields.iter().enumerate() {
                        assert_eq!(s.bytes(i), *f);
                        assert_eq!(s.int(i), super::super::num::short_int(f), "{shown:?} field {i}");
                    }
                }
            }
        }
    }

    /// The word steps against byte-by-byte answers, at every length and position.
    #[test]
    fn word_steps_match_bytes() {
        let mut rng = crate::test_rng::Rng(7);
        for _ in 0..20_000 {
            let line = random_line(&mut rng, b"0,a");
            for p in 0..=line.len() {
                let bytes: Vec<u8> = line[p..].iter().copied().chain([0; 8]).take(8).collect();
                assert_eq!(word_at(&line, p), word(&bytes), "{line:?} at {p}");
                let w = word_at(&line, p) ^ lanes(b'0');
                let run = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
                assert_eq!(digit_run(w), run, "{line:?} at {p}");
                let value = bytes[..run].iter().fold(0, |v, &b| v * 10 + u64::from(b - b'0'));
                assert_eq!(digits_value(w, run), value);
                assert_eq!(find_comma(&line, p), line[p..].iter().position(|&b| b == b',').map(|c| c + p));
            }
        }
    }

    /// `line_at` finds what a newline search, taking away one `\r` and `is_simple` find,
    /// over random lines ending in `\n`, `\r\n`, odd bytes or nothing.
    #[test]
    fn line_at_agrees_with_a_newline_search() {
        let mut rng = crate::test_rng::Rng(5);
        for _ in 0..50_000 {
            let mut bytes = random_line(&mut rng, b"W1#,\n");
            let ends: [&[u8]; 5] = [b"\n", b"\r\n", b"", b"\r", b"\r\r\n"];
            bytes.extend_from_slice(ends[rng.below(5) as usize]);
            bytes.extend(random_line(&mut rng, b"W1\n").iter().take(rng.below(12) as usize));
            let expected = bytes.iter().position(|&b| b == b'\n').and_then(|nl| {
                let line = &bytes[..nl];
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                is_simple(line).then_some((line.len(), nl + 1))
            });
            assert_eq!(line_at(&bytes), expected, "{:?}", String::from_utf8_lossy(&bytes));
        }
    }

    /// Random lines through the fast and the general path of the plain format (under
    /// several headers) and of MSR: the fast path gives the general path's record or
    /// declines, and it declines none of the simple lines.
    #[test]
    fn random_lines_read_as_the_general_path_reads_them() {
        use super::super::format::{Ctx, Format, Outcome};
        use super::super::{msr, plain, ParseOptions, TimeUnit};
        fn general(
            o: Result<Outcome<'_>, super::super::ParseError>,
        ) -> Option<super::super::format::Record<'_>> {
            match o {
                Ok(Outcome::Request(r)) => Some(r),
                _ => None,
            }
        }
        let mut rng = crate::test_rng::Rng(11);
        let headers =
            ["op,offset,size,time_us", "offset,size,op,time_s,device", "op,lba,sectors", "rw,x,offset,size"];
        let options = [
            ParseOptions::default(),
            ParseOptions { time_unit: Some(TimeUnit::Ms), sector_size: 4096, ..ParseOptions::default() },
        ];
        let mut fast = 0;
        for options in &options {
            let ctx = Ctx::new(Format::Plain, options);
            for header in headers {
                let c = plain::Columns::from_header(header, 1).unwrap();
                for _ in 0..20_000 {
                    let mut line = random_line(&mut rng, b"WwRrT1");
                    // Often an op in the op column.
                    if rng.below(2) == 0 {
                        line.splice(0..0, *b"W,");
                    }
                    // Its end as a reader's chunk has it, and the start of the next line
                    // (which word reads may reach); the general path gets the line as
                    // the reader cuts it.
                    let mut bytes = line.clone();
                    bytes.extend_from_slice([&b"\n"[..], b"\r\n"][rng.below(2) as usize]);
                    let line = bytes.strip_suffix(b"\n").unwrap().to_vec();
                    let line = line.strip_suffix(b"\r").unwrap_or(&line);
                    bytes.extend(random_line(&mut rng, b"W1").iter().take(rng.below(12) as usize));
                    let Some(rec) = plain::fast_line(&bytes, &ctx, &c) else { continue };
                    fast += 1;
                    let text = std::str::from_utf8(line).unwrap();
                    assert_eq!(
                        Some(rec),
                        general(plain::parse_line(text, 2, &ctx, &c)),
                        "{header}: {text:?}"
                    );
                }
            }
            let ctx = Ctx::new(Format::Msr, options);
            for _ in 0..20_000 {
                let mut line = random_line(&mut rng, b"1");
                line.splice(0..0, *b"128166385295514663,hm,0,Write,");
                if let Some(rec) = msr::fast_line(&line, &ctx) {
                    fast += 1;
                    let text = std::str::from_utf8(&line).unwrap();
                    assert_eq!(Some(rec), general(msr::parse_line(text, 2, &ctx)), "{text:?}");
                }
            }
        }
        assert!(fast > 2_000, "{fast} lines took the fast path");
    }

    /// Whatever the fast path accepts, the general path reads the same; lines it refuses
    /// include every odd form the general path handles.
    #[test]
    fn fast_lines_read_as_the_general_path_reads_them() {
        use super::super::format::{Ctx, Format, Outcome};
        use super::super::{msr, plain, ParseOptions};
        fn general(o: Outcome<'_>) -> Option<super::super::format::Record<'_>> {
            match o {
                Outcome::Request(r) => Some(r),
                _ => None,
            }
        }
        let options = ParseOptions::default();
        let ctx = Ctx::new(Format::Plain, &options);
        let plain_lines = [
            "W,8192,4096,150",
            "r,0,512,0",
            "R,1,1,18446744073709551",
            "W,1,4294967296,1",
            "W,18446744073709551615,1,1",
            "T,1,1,1",
            "8192,4096,W,1,dev0",
            "W, 8192,4096,150",
            "W,+1,1,1",
            "W,1,1,1.5",
            "W,1,1",
            "W,1,1,1,dev0",
            "w,0,0,0",
        ];
        for header in [
            "op,offset,size,time_us",
            "offset,size,op,time_s,device",
            "op,lba,sectors",
            "rw,offset,size,time",
        ] {
            let c = plain::Columns::from_header(header, 1).unwrap();
            let mut fast = 0;
            for line in plain_lines {
                if let Some(rec) = plain::fast_line(format!("{line}\n").as_bytes(), &ctx, &c) {
                    fast += 1;
                    assert_eq!(
                        Some(rec),
                        plain::parse_line(line, 2, &ctx, &c).ok().and_then(general),
                        "{header}: {line}"
                    );
                }
            }
            assert!(fast > 0, "{header}: some lines take the fast path");
        }
        let ctx = Ctx::new(Format::Msr, &options);
        for line in [
            "128166385295514663,hm,0,Write,9056014336,2048,2833",
            "128166385295514878,hm,0,read,11855351808,512,2617",
            "128166385295514878,hm,0,Trim,1,512,2617",
            "99999999999999999999,hm,0,Read,1,1,1",
        ] {
            if let Some(rec) = msr::fast_line(line.as_bytes(), &ctx) {
                assert_eq!(Some(rec), msr::parse_line(line, 2, &ctx).ok().and_then(general), "{line}");
            }
        }
        assert!(msr::fast_line(b"128166385295514663,hm,0,Write,9056014336,2048,2833", &ctx).is_some());
    }
}
