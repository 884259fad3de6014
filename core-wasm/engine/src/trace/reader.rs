//! Streaming parser: feed a file in chunks of any size and get the same result as parsing it
//! whole. Only the current partial line (and, until the format is known, the first few
//! lines) is buffered, so a 1 GB trace is never held in memory; requests can be drained as
//! they come with [`TraceReader::take_requests`].

use serde::Serialize;

use super::binary;
use super::detect::{detect_sample, SAMPLE_BYTES, SAMPLE_LINES};
use super::fast;
use super::format::{self, Ctx, FastReader, Format, Outcome, Record, State};
use super::lines::{decode, is_blank_or_comment, BOM};
use super::select::Selector;
use super::{msr, ParseError, ParseOptions, ParseReport, Request, Trace, FORMATS};

/// Longest line accepted, in bytes. No trace format comes close; the cap keeps a binary file
/// without newlines from being buffered whole.
pub const MAX_LINE: usize = 64 * 1024;

/// Where a streaming parse stands, for progress bars.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Progress {
    /// Bytes fed so far.
    pub bytes: u64,
    /// Lines completed so far.
    pub lines: u64,
    /// Requests kept so far.
    pub requests: u64,
    /// True when the request limit was reached: further input is ignored.
    pub done: bool,
}

/// A parse result: the trace and what was learned on the way.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parsed {
    /// The requests.
    pub trace: Trace,
    /// Counts, skipped lines, devices.
    pub report: ParseReport,
}

/// A chunked trace parser. `feed` chunks in order, then `finish`.
#[derive(Debug, Clone)]
pub struct TraceReader {
    format: Option<Format>,
    options: ParseOptions,
    ctx: Option<Ctx>,
    state: State,
    select: Selector,
    report: ParseReport,
    requests: Vec<Request>,
    /// Bytes of a line that continues in the next chunk.
    partial: Vec<u8>,
    line_no: u32,
    /// Skipping the rest of an over-long line.
    discarding: bool,
    /// Lines kept until the format is detected.
    held: Vec<(u32, Vec<u8>)>,
    held_bytes: usize,
    held_content: usize,
    failed: Option<ParseError>,
    done: bool,
    /// File name put into every error, when the host gives one.
    file: Option<String>,
    /// First content lines when the format was named, to check that it fits (then `None`).
    fit_sample: Option<Vec<(u32, String)>>,
}

impl TraceReader {
    /// A reader for `format` (`None` detects it from the first lines) with `options`.
    pub fn new(format: Option<&str>, options: ParseOptions) -> Result<TraceReader, ParseError> {
        options.validate()?;
        let format = match format {
            None => None,
            Some(name) => Some(Format::from_name(name).ok_or_else(|| {
                ParseError::new(0, 0, name, &format!("a known trace format ({})", FORMATS.join(", ")))
            })?),
        };
        let mut reader = TraceReader {
            format: None,
            ctx: None,
            state: State::default(),
            select: Selector::new(&options),
            options,
            report: ParseReport::default(),
            requests: Vec::new(),
            partial: Vec::new(),
            line_no: 0,
            discarding: false,
            held: Vec::new(),
            held_bytes: 0,
            held_content: 0,
            failed: None,
            done: false,
            file: None,
            fit_sample: None,
        };
        if let Some(f) = format {
            reader.set_format(f);
            reader.fit_sample = Some(Vec::new());
        }
        Ok(reader)
    }

    fn set_format(&mut self, f: Format) {
        self.format = Some(f);
        self.ctx = Some(Ctx::new(f, &self.options));
        self.report.format = f.name().to_string();
    }

    /// Names the file in every error this reader reports (`hm_0.csv:2:8: ...`).
    pub fn with_file(mut self, name: &str) -> Self {
        self.file = Some(name.to_string());
        self
    }

    fn named(&self, e: ParseError) -> ParseError {
        match &self.file {
            Some(f) if e.file.is_none() => e.in_file(f),
            _ => e,
        }
    }

    /// The format, once given or detected.
    pub fn format(&self) -> Option<&'static str> {
        self.format.map(Format::name)
    }

    /// The report so far (devices are filled in by `finish`).
    pub fn report(&self) -> &ParseReport {
        &self.report
    }

    /// Progress so far.
    pub fn progress(&self) -> Progress {
        Progress {
            bytes: self.report.bytes,
            lines: self.report.lines,
            requests: self.report.requests,
            done: self.done,
        }
    }

    /// Moves out the requests parsed so far (later ones keep accumulating), so a consumer
    /// can process a huge trace without holding all of it.
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// Parses the next chunk. After an error every later call returns the same error.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Progress, ParseError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        self.report.bytes += chunk.len() as u64;
        if let Err(e) = self.feed_lines(chunk) {
            let e = self.named(e);
            self.failed = Some(e.clone());
            return Err(e);
        }
        Ok(self.progress())
    }

    fn feed_lines(&mut self, mut chunk: &[u8]) -> Result<(), ParseError> {
        while !self.done {
            if self.partial.is_empty() && !self.discarding {
                chunk = self.fast_lines(chunk)?;
                if self.done {
                    break;
                }
            }
            let Some(i) = memchr::memchr(b'\n', chunk) else { return self.keep_partial(chunk) };
            let (head, rest) = chunk.split_at(i);
            chunk = rest.get(1..).unwrap_or_default();
            if self.discarding {
                self.discarding = false;
            } else if self.partial.is_empty() {
                self.line(head)?;
            } else {
                let mut buf = std::mem::take(&mut self.partial);
                buf.extend_from_slice(head);
                let result = self.line(&buf);
                buf.clear();
                self.partial = buf;
                result?;
            }
        }
        Ok(())
    }

    /// Reads the simple lines ([`fast::line_at`]) at the front of `chunk` that the format's
    /// fast reader reads ([`State::fast_reader`]), straight from the chunk without the
    /// per-line bookkeeping of [`TraceReader::line`], and returns the rest from the first
    /// line it declines (which then takes the general way). Only after the first content
    /// line, so never on line 1 (binary content, byte-order mark), and only for lines
    /// within [`MAX_LINE`]. Lines that reach the general way (the first, those split
    /// between chunks, those declined here) are read by the general parser alone: the fast
    /// readers give its records, so trying them there would only save time on a few lines.
    fn fast_lines<'c>(&mut self, chunk: &'c [u8]) -> Result<&'c [u8], ParseError> {
        let (Some(format), Some(ctx), None) = (self.format, self.ctx, &self.fit_sample) else {
            return Ok(chunk);
        };
        // One loop for each reader, each with its reader inlined: no per-line dispatch.
        match self.state.fast_reader(format, &ctx) {
            Some(FastReader::Plain(c)) if c.in_order() => {
                self.fast_loop(chunk, |bytes| c.line_in_order(bytes))
            }
            Some(FastReader::Plain(c)) => self.fast_loop(chunk, |bytes| c.line(bytes)),
            Some(FastReader::Msr(ctx)) => self.fast_loop(chunk, |bytes| {
                let (len, next) = fast::line_at(bytes)?;
                Some((msr::simple_line(bytes.get(..len)?, &ctx)?, next))
            }),
            None => Ok(chunk),
        }
    }

    /// [`TraceReader::fast_lines`] with the format's reader `read`: the record of the simple
    /// line at the start of `bytes` (which go on to the chunk's end) and where the next line
    /// starts, or `None` to decline it.
    #[inline(always)]
    fn fast_loop<'c>(
        &mut self,
        mut chunk: &'c [u8],
        read: impl Fn(&'c [u8]) -> Option<(Record<'c>, usize)>,
    ) -> Result<&'c [u8], ParseError> {
        // The limit ends the loop by the offer's answer (`done` read back from memory each
        // line cost 3 instructions a line); the caller reads on only while not done.
        while let Some((rec, next)) = read(chunk) {
            // Over-long lines take the general way, which refuses them (this one may be a
            // few bytes under the limit: the general way reads it just as well).
            let (true, Some(rest)) = (next <= MAX_LINE, chunk.get(next..)) else { break };
            self.line_no = self.line_no.saturating_add(1);
            self.report.lines += 1;
            chunk = rest;
            if self.offer(self.line_no, rec)? {
                break;
            }
        }
        Ok(chunk)
    }

    /// Buffers the start of a line that ends in a later chunk.
    fn keep_partial(&mut self, chunk: &[u8]) -> Result<(), ParseError> {
        if self.discarding || chunk.is_empty() {
            return Ok(());
        }
        let room = (MAX_LINE + 1).saturating_sub(self.partial.len());
        self.partial.extend_from_slice(chunk.get(..chunk.len().min(room)).unwrap_or_default());
        if self.partial.len() <= MAX_LINE {
            return Ok(());
        }
        // Report the over-long line now instead of buffering it without bound; the same
        // error as when the whole line arrives in one chunk.
        let buf = std::mem::take(&mut self.partial);
        self.discarding = true;
        self.line(&buf)
    }

    fn line(&mut self, raw: &[u8]) -> Result<(), ParseError> {
        self.line_no = self.line_no.saturating_add(1);
        self.report.lines += 1;
        let n = self.line_no;
        // A binary file is refused whatever the options (skipping its "lines" would be absurd).
        if let Some(e) = (n == 1).then(|| binary::refuse(raw)).flatten() {
            return Err(e);
        }
        if raw.len() > MAX_LINE {
            let shown = String::from_utf8_lossy(raw.get(..80).unwrap_or(raw)).into_owned();
            return self.bad(ParseError::new(n, 1, &shown, &format!("a line shorter than {MAX_LINE} bytes")));
        }
        let raw = if n == 1 { raw.strip_prefix(BOM).unwrap_or(raw) } else { raw };
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if self.format.is_none() {
            return self.hold(n, raw);
        }
        self.process(n, raw)
    }

    /// Keeps a line for detection; detects once the sample is big enough.
    fn hold(&mut self, n: u32, raw: &[u8]) -> Result<(), ParseError> {
        if std::str::from_utf8(raw).is_ok_and(|t| !is_blank_or_comment(t)) {
            self.held_content += 1;
        }
        self.held_bytes += raw.len() + 1;
        self.held.push((n, raw.to_vec()));
        if self.held_content >= SAMPLE_LINES || self.held_bytes >= SAMPLE_BYTES {
            self.resolve_format()?;
        }
        Ok(())
    }

    /// Detects the format from the held lines, then parses them.
    fn resolve_format(&mut self) -> Result<(), ParseError> {
        let held = std::mem::take(&mut self.held);
        let sample: Vec<(u32, &str)> = held
            .iter()
            .filter_map(|(n, raw)| std::str::from_utf8(raw).ok().map(|t| (*n, t)))
            .filter(|(_, t)| !is_blank_or_comment(t))
            .collect();
        let format = detect_sample(&sample)?;
        self.set_format(format);
        for (n, raw) in &held {
            if self.done {
                break;
            }
            self.process(*n, raw)?;
        }
        Ok(())
    }

    fn process(&mut self, n: u32, raw: &[u8]) -> Result<(), ParseError> {
        let text = match decode(n, raw) {
            Ok(t) => t,
            Err(e) => return self.bad(e),
        };
        let (Some(format), Some(ctx)) = (self.format, self.ctx) else { return Ok(()) };
        if is_blank_or_comment(text) {
            return Ok(());
        }
        if let Some(sample) = &mut self.fit_sample {
            sample.push((n, text.to_string()));
            if sample.len() >= SAMPLE_LINES {
                self.check_fit();
            }
        }
        match format::parse_line(format, text, n, &ctx, &mut self.state) {
            Ok(Outcome::Request(rec)) => self.offer(n, rec).map(|_| ()),
            Ok(Outcome::Header) => Ok(()),
            Ok(Outcome::Ignored) => {
                self.report.ignored += 1;
                Ok(())
            }
            Err(e) => self.bad(e),
        }
    }

    /// Hands a record to the selection (inlined into the fast loop: a call per line costs
    /// more than the selection's work). Returns whether the request limit is reached (and
    /// so `done`).
    #[inline(always)]
    fn offer(&mut self, n: u32, rec: Record<'_>) -> Result<bool, ParseError> {
        match self.select.offer(rec, &mut self.report, &mut self.requests) {
            Ok(false) => Ok(false),
            Ok(true) => {
                self.done = true;
                self.report.limit_reached = true;
                Ok(true)
            }
            Err(scaled) => Err(past_the_clock(n, &scaled)),
        }
    }

    /// A format named by hand that the first lines do not have the shape of parses anyway
    /// (a DiskSim file read as MQSim takes milliseconds for nanoseconds and flags for the
    /// type): warn, naming the format they do look like, if any.
    fn check_fit(&mut self) {
        let (Some(sample), Some(format)) = (self.fit_sample.take(), self.format) else { return };
        let mut lines: Vec<(u32, &str)> = sample.iter().map(|(n, t)| (*n, t.as_str())).collect();
        if lines.first().is_some_and(|(_, l)| format.sniff_header(l)) {
            lines.remove(0);
        }
        // Formats without a line shape of their own (csv, ssdsim) cannot be checked.
        if lines.is_empty() || matches!(format, Format::Plain | Format::Ssdsim) {
            return;
        }
        let fit = lines.iter().filter(|(_, l)| format.sniff(l)).count();
        if fit * 2 >= lines.len() {
            return;
        }
        let other = detect_sample(&lines).ok().filter(|f| *f != format);
        let like = other.map_or(String::new(), |f| format!("; they look like {}", f.name()));
        self.report.warnings.push(format!(
            "{} of the first {} lines do not have the fields of {} ({}){like}: its fields may be misread",
            lines.len() - fit,
            lines.len(),
            format.name(),
            format.layout()
        ));
    }

    /// A malformed line: fatal, or skipped and counted when the options say so.
    fn bad(&mut self, e: ParseError) -> Result<(), ParseError> {
        if !self.options.skip_bad_lines {
            return Err(e);
        }
        self.report.skipped += 1;
        if self.report.errors.len() < ParseReport::MAX_ERRORS {
            let e = self.named(e);
            self.report.errors.push(e);
        }
        Ok(())
    }

    /// Parses what is left (a last line without a newline) and returns the result. Fails
    /// when no request was kept, saying why.
    pub fn finish(mut self) -> Result<Parsed, ParseError> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        if let Err(e) = self.finish_input() {
            return Err(self.named(e));
        }
        self.check_fit();
        self.select.fill_report(&mut self.report);
        if self.report.requests == 0 {
            return Err(self.named(self.nothing_kept()));
        }
        let trace = Trace { format: self.report.format.clone(), requests: self.requests };
        Ok(Parsed { trace, report: self.report })
    }

    fn finish_input(&mut self) -> Result<(), ParseError> {
        if self.done {
            return Ok(());
        }
        if !self.partial.is_empty() && !self.discarding {
            let buf = std::mem::take(&mut self.partial);
            self.line(&buf)?;
        }
        if self.format.is_none() {
            self.resolve_format()?;
        }
        Ok(())
    }

    fn nothing_kept(&self) -> ParseError {
        let r = &self.report;
        if r.records > 0 {
            let what = format!(
                "at least one request matching the selection ({} requests read, all filtered out \
                 by the device, operation or time-window options)",
                r.records
            );
            return ParseError::new(1, 1, "", &what);
        }
        if let Some(first) = r.errors.first() {
            let mut e = first.clone();
            e.expected =
                format!("{} (all {} request lines were bad; this is the first)", e.expected, r.skipped);
            return e;
        }
        let layout = self.format.map_or("", Format::layout);
        let what = match self.format {
            Some(Format::Blkparse) => format!(
                "at least one {} event with data ({layout}); {} lines carried no request",
                self.options.blkparse_event.letter(),
                r.ignored
            ),
            _ => format!("at least one request line ({layout}); {} lines carried no request", r.ignored),
        };
        ParseError::new(1, 1, "", &what)
    }
}

/// The error for a time the time scale pushes past the clock's end. The product goes in the
/// expectation: the found text must be text of the line, and the product is not.
#[cold]
fn past_the_clock(n: u32, scaled: &str) -> ParseError {
    ParseError::new(
        n,
        1,
        "",
        &format!("a time below 584 years once multiplied by the time scale ({scaled} passes the clock's end, 2^64 ns)"),
    )
}
