//! What the caller can ask of a parse (units, selection, tolerance) and what it gets back
//! besides the requests (counts, skipped lines, devices seen).

use serde::{Deserialize, Serialize};

use super::ParseError;

/// A time unit for a trace's timestamp column. Every unit is a power of ten of
/// picoseconds, so conversion to nanoseconds is exact and never goes through floating point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUnit {
    /// Picoseconds (an MQSim `Time_Unit` choice).
    Ps,
    /// Nanoseconds.
    Ns,
    /// Microseconds.
    Us,
    /// Milliseconds.
    Ms,
    /// Seconds.
    S,
    /// Windows FILETIME ticks (100 ns).
    Filetime,
}

impl TimeUnit {
    /// Every unit, in the order they are documented.
    pub const ALL: [TimeUnit; 6] =
        [TimeUnit::Ps, TimeUnit::Ns, TimeUnit::Us, TimeUnit::Ms, TimeUnit::S, TimeUnit::Filetime];

    /// One unit is 10^this picoseconds.
    pub fn picos_log10(self) -> u8 {
        match self {
            TimeUnit::Ps => 0,
            TimeUnit::Ns => 3,
            TimeUnit::Us => 6,
            TimeUnit::Ms => 9,
            TimeUnit::S => 12,
            TimeUnit::Filetime => 5,
        }
    }

    /// Short name (`ns`, `filetime`, ...), as accepted by [`TimeUnit::from_name`].
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::Ps => "ps",
            TimeUnit::Ns => "ns",
            TimeUnit::Us => "us",
            TimeUnit::Ms => "ms",
            TimeUnit::S => "s",
            TimeUnit::Filetime => "filetime",
        }
    }

    /// Parses a unit name, case-insensitively (`µs` is accepted for `us`).
    pub fn from_name(name: &str) -> Option<TimeUnit> {
        let lower = name.trim().to_ascii_lowercase();
        if lower == "µs" {
            return Some(TimeUnit::Us);
        }
        TimeUnit::ALL.into_iter().find(|u| u.name() == lower)
    }

    /// Human wording for error messages.
    pub fn describe(self) -> &'static str {
        match self {
            TimeUnit::Ps => "picoseconds",
            TimeUnit::Ns => "nanoseconds",
            TimeUnit::Us => "microseconds",
            TimeUnit::Ms => "milliseconds",
            TimeUnit::S => "seconds",
            TimeUnit::Filetime => "Windows FILETIME ticks of 100 ns",
        }
    }
}

/// Which blkparse events become requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BlkEvent {
    /// `Q`: queued, as the application issued it (before merging).
    Queue,
    /// `D`: issued to the driver, i.e. what the device actually saw (the default, because
    /// the simulated SSD stands in for that device).
    #[default]
    Dispatch,
}

impl BlkEvent {
    /// The blkparse action letter.
    pub fn letter(self) -> &'static str {
        match self {
            BlkEvent::Queue => "Q",
            BlkEvent::Dispatch => "D",
        }
    }
}

/// Options for a parse: unit overrides, which requests to keep, and error tolerance.
/// `ParseOptions::default()` keeps every request with the format's documented units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[serde(default)]
pub struct ParseOptions {
    /// Keep only requests whose device / volume / ASU / LUN is one of these (as written in
    /// the file; see each format's docs for which field). Empty keeps all devices.
    pub devices: Vec<String>,
    /// Keep reads.
    pub reads: bool,
    /// Keep writes.
    pub writes: bool,
    /// Keep trims (discards).
    pub trims: bool,
    /// Stop after this many kept requests.
    pub max_requests: Option<u64>,
    /// Keep requests at or after this time, in ns since the file's first record.
    pub start_ns: Option<u64>,
    /// Keep requests before this time, in ns since the file's first record.
    pub end_ns: Option<u64>,
    /// Multiply inter-arrival times by this (0.5 replays twice as fast). Must be finite and
    /// not negative.
    pub time_scale: f64,
    /// blkparse only: replay `Q` or `D` events.
    pub blkparse_event: BlkEvent,
    /// Override the format's time unit (MQSim's is set per workload, for example).
    pub time_unit: Option<TimeUnit>,
    /// Bytes per sector for the formats that address in sectors or blocks.
    pub sector_size: u32,
    /// Skip malformed lines (counted, first few kept in the report) instead of failing.
    pub skip_bad_lines: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            devices: Vec::new(),
            reads: true,
            writes: true,
            trims: true,
            max_requests: None,
            start_ns: None,
            end_ns: None,
            time_scale: 1.0,
            blkparse_event: BlkEvent::Dispatch,
            time_unit: None,
            sector_size: 512,
            skip_bad_lines: false,
        }
    }
}

impl ParseOptions {
    /// Checks the options themselves; the error has line 0 because no line is at fault.
    pub fn validate(&self) -> Result<(), ParseError> {
        if !self.time_scale.is_finite() || self.time_scale < 0.0 {
            return Err(ParseError::new(0, 0, &self.time_scale.to_string(), "a finite time scale >= 0"));
        }
        if self.sector_size == 0 {
            return Err(ParseError::new(0, 0, "0", "a sector size of at least 1 byte"));
        }
        if let (Some(s), Some(e)) = (self.start_ns, self.end_ns) {
            if e <= s {
                return Err(ParseError::new(
                    0,
                    0,
                    &format!("{s}..{e}"),
                    "a time window whose end is after its start",
                ));
            }
        }
        if self.max_requests == Some(0) {
            return Err(ParseError::new(0, 0, "0", "a request limit of at least 1"));
        }
        if !(self.reads || self.writes || self.trims) {
            return Err(ParseError::new(0, 0, "no operation kept", "at least one of reads, writes, trims"));
        }
        Ok(())
    }
}

/// How many records one device contributed (before the device filter).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeviceCount {
    /// Device id as the selection option expects it.
    pub device: String,
    /// Records (requests before selection) on that device.
    pub records: u64,
}

/// Everything a parse learned besides the requests. Counts are lines or records, never bytes,
/// except `bytes`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ParseReport {
    /// Format name used (given or detected).
    pub format: String,
    /// Bytes fed.
    pub bytes: u64,
    /// Lines seen (including blank, comment and header lines).
    pub lines: u64,
    /// Lines that described a request, before selection.
    pub records: u64,
    /// Requests kept.
    pub requests: u64,
    /// Well-formed lines that carry no request: other blkparse actions, flushes, zero-length
    /// requests, blank SYSTOR types, SCSI commands other than read/write, summary lines.
    pub ignored: u64,
    /// Records dropped by the selection (device, operation, time window).
    pub filtered: u64,
    /// Malformed lines skipped (only with `skip_bad_lines`).
    pub skipped: u64,
    /// The first few skipped lines' errors.
    pub errors: Vec<ParseError>,
    /// Records whose timestamp was earlier than the one before; their time was raised to it
    /// so that times never go backwards.
    pub reordered: u64,
    /// True when `max_requests` was reached and the rest of the input was not read.
    pub limit_reached: bool,
    /// Devices seen, busiest first (at most [`ParseReport::MAX_DEVICES`]).
    pub devices: Vec<DeviceCount>,
    /// True when more devices existed than were listed.
    pub more_devices: bool,
    /// Time of the last kept request (after scaling), in ns.
    pub duration_ns: u64,
    /// Doubts that did not stop the parse: a format chosen by hand whose fields do not fit
    /// the file's first lines.
    pub warnings: Vec<String>,
}

impl ParseReport {
    /// Skipped-line errors kept in [`ParseReport::errors`].
    pub const MAX_ERRORS: usize = 10;
    /// Distinct devices counted.
    pub const MAX_DEVICES: usize = 4096;
}
