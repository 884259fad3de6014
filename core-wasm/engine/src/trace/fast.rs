//! The fast path for the usual trace line: ASCII fields separated by commas, with no spaces,
//! tabs or quotes to trim, and whole decimal numbers. Parsing a million-line trace is most
//! of a fast run's work, and the general path (located fields, character columns, every
//! number form) costs several times this one. A line the fast path cannot read exactly as
//! the general path would gives `None` and goes the general way, which also reports errors.

/// Fields a fast line may have (MSR has 7); longer lines take the general path.
const MAX: usize = 8;

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
    /// specially (space, tab, quote) or a non-ASCII byte, or has more than [`MAX`] fields.
    /// (The parsers fill a split in place with [`Split::split`].)
    #[cfg(test)]
    pub fn new(line: &'a [u8]) -> Option<Self> {
        let mut split = Split::empty();
        split.split(line)?;
        Some(split)
    }

    /// No fields yet: [`Split::split`] fills it in place (returning the filled value from a
    /// function copies its 136 bytes per line, as a call to `memcpy`).
    #[inline(always)]
    pub fn empty() -> Self {
        Split { line: &[], bounds: [(0, 0); MAX], values: [0; MAX], ints: 0, count: 0 }
    }

    /// Splits `line` into this (empty) split, as [`Split::new`] does.
    #[inline(always)]
    pub fn split(&mut self, line: &'a [u8]) -> Option<()> {
        if !line.first().is_some_and(u8::is_ascii_alphanumeric) || line.len() > u32::MAX as usize {
            return None;
        }
        self.line = line;
        // The field being read: where it starts, its value so far, whether it is all digits.
        let (mut start, mut value, mut digits) = (0u32, 0u64, true);
        for (i, &b) in line.iter().enumerate() {
            let d = b.wrapping_sub(b'0');
            if d <= 9 {
                // Wraps only past 19 digits, which `close` refuses anyway.
                value = value.wrapping_mul(10).wrapping_add(u64::from(d));
                continue;
            }
            // Tests in a chain, commas first: a `match` here compiled to a jump table, an
            // indirect branch for every byte that is not a digit.
            if b == b',' {
                self.close(start, i as u32, value, digits)?;
                (start, value, digits) = (i as u32 + 1, 0, true);
            } else if b >= 0x80 || b == b' ' || b == b'\t' || b == b'"' {
                return None;
            } else {
                digits = false;
            }
        }
        self.close(start, line.len() as u32, value, digits)
    }

    /// Records the field `start..end`; `None` past [`MAX`] fields.
    #[inline(always)]
    fn close(&mut self, start: u32, end: u32, value: u64, digits: bool) -> Option<()> {
        let i = self.count;
        *self.bounds.get_mut(i)? = (start, end);
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

    /// The split and its numbers agree with splitting on commas and reading each field
    /// alone, over lines of every length with odd bytes anywhere.
    #[test]
    fn split_agrees_with_fields_read_alone() {
        let alphabet = b"0123456789,,,W9x+ \"";
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = 1 + (seed % 40) as usize;
            let mut line = vec![b'W'];
            let mut r = seed;
            for _ in 1..len {
                r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                // Mostly digits and commas, sometimes anything in the alphabet.
                let pick = (r >> 33) as usize % if r >> 60 == 0 { alphabet.len() } else { 13 };
                line.push(alphabet[pick]);
            }
            let refused = line.iter().any(|b| matches!(b, b' ' | b'"'));
            let fields: Vec<&[u8]> = line.split(|&b| b == b',').collect();
            match Split::new(&line) {
                None => assert!(refused || fields.len() > MAX, "{:?}", String::from_utf8_lossy(&line)),
                Some(s) => {
                    assert_eq!(s.count(), fields.len());
                    for (i, f) in fields.iter().enumerate() {
                        assert_eq!(s.bytes(i), *f);
                        assert_eq!(
                            s.int(i),
                            super::super::num::short_int(f),
                            "{:?}",
                            String::from_utf8_lossy(&line)
                        );
                    }
                }
            }
        }
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
                if let Some(rec) = plain::fast_line(line.as_bytes(), &ctx, &c) {
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
