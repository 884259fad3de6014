//! Selection: turns records into requests. Rebases times onto the first record, keeps them
//! from going backwards, applies the device / operation / time-window filters, the request
//! limit and the time scale, and counts devices for the report.

use std::collections::BTreeMap;

use super::format::{Device, Record};
use super::{DeviceCount, ParseOptions, ParseReport, Request};
use crate::trace::HostOp;

/// Selection state for one parse.
#[derive(Debug, Clone)]
pub struct Selector {
    options: ParseOptions,
    /// Absolute time of the file's first record: the zero of the time window.
    origin: Option<u64>,
    /// Latest absolute time so far; an earlier record is raised to it.
    latest: u64,
    /// Window-relative time of the first kept request: the zero of the output.
    first_kept: Option<u64>,
    seen: BTreeMap<String, u64>,
    more_devices: bool,
    /// The current run of records on one device: its id, whether the filter keeps it, and
    /// how many records are not yet added to `seen`. Traces come in long same-device runs,
    /// so this saves a map lookup per line.
    key: String,
    key_kept: bool,
    pending: u64,
    /// No operation or time-window filter, and no device filter: every record with data
    /// is kept, whatever its operation, time or device (worked out once, not per record).
    keeps_all: bool,
    /// The request limit (`u64::MAX`: none) and whether the time scale is other than 1,
    /// out of their options once rather than per record.
    limit: u64,
    scaled: bool,
}

impl Selector {
    /// A selector applying `options`.
    pub fn new(options: &ParseOptions) -> Self {
        Selector {
            options: options.clone(),
            origin: None,
            latest: 0,
            first_kept: None,
            seen: BTreeMap::new(),
            more_devices: false,
            key: String::new(),
            key_kept: false,
            pending: 0,
            keeps_all: options.devices.is_empty()
                && options.reads
                && options.writes
                && options.trims
                && options.start_ns.is_none()
                && options.end_ns.is_none(),
            limit: options.max_requests.unwrap_or(u64::MAX),
            scaled: options.time_scale != 1.0,
        }
    }

    /// Offers one record; kept requests go to `out`. Returns true once the request limit
    /// is reached, so the caller can stop reading. A time the time scale pushes past the
    /// clock's range (584 years of ns) is an error: the text of the scaled time. Inlined
    /// into the reader's loops (its work is a few instructions a line; a call and a record
    /// passed in memory cost as much).
    #[inline(always)]
    pub fn offer(
        &mut self,
        rec: Record<'_>,
        report: &mut ParseReport,
        out: &mut Vec<Request>,
    ) -> Result<bool, String> {
        if rec.size == 0 {
            report.ignored += 1;
            return Ok(false);
        }
        report.records += 1;
        let origin = *self.origin.get_or_insert(rec.time_ns);
        // Files list requests in issue order; a timestamp that goes backwards (Tencent's
        // unsorted seconds, per-CPU clock skew) is raised rather than reordering the file.
        if rec.time_ns < self.latest {
            report.reordered += 1;
        }
        // At least the origin: the first record's time.
        self.latest = self.latest.max(rec.time_ns);
        let rel = self.latest - origin;
        // Devices are counted for the report whatever the filters; without a device the
        // filters' test is not even begun when they keep everything.
        let kept = match rec.device {
            None => self.keeps_all || self.options.devices.is_empty() && self.op_and_time_ok(rec.op, rel),
            Some(d) => {
                let device_ok = self.device(d);
                self.keeps_all || device_ok && self.op_and_time_ok(rec.op, rel)
            }
        };
        if !kept {
            report.filtered += 1;
            return Ok(false);
        }
        let since = rel - *self.first_kept.get_or_insert(rel);
        let time_ns = if !self.scaled {
            since
        } else {
            // Refused rather than saturated: a time capped at the clock's end would make
            // every later request arrive at once and respond in 0 ns.
            let scaled = (since as f64 * self.options.time_scale).round();
            if scaled >= u64::MAX as f64 {
                return Err(past_the_clock(since, self.options.time_scale));
            }
            scaled as u64
        };
        // Formats reject sizes above u32::MAX, so this conversion cannot fail.
        let size = u32::try_from(rec.size).unwrap_or(u32::MAX);
        out.push(Request { time_ns, op: rec.op, offset: rec.offset, size });
        report.requests += 1;
        report.duration_ns = time_ns;
        Ok(report.requests >= self.limit)
    }

    /// Whether the operation and time-window filters keep a record of `op` at `rel` ns
    /// since the first record.
    fn op_and_time_ok(&self, op: HostOp, rel: u64) -> bool {
        let op_ok = match op {
            HostOp::Read => self.options.reads,
            HostOp::Write => self.options.writes,
            HostOp::Trim => self.options.trims,
        };
        let early = matches!(self.options.start_ns, Some(s) if rel < s);
        let late = matches!(self.options.end_ns, Some(e) if rel >= e);
        op_ok && !early && !late
    }

    fn device(&mut self, d: Device<'_>) -> bool {
        if self.pending == 0 || !d.is(&self.key) {
            self.flush_pending();
            d.write_to(&mut self.key);
            self.key_kept = self.options.devices.is_empty() || self.options.devices.contains(&self.key);
        }
        self.pending += 1;
        self.key_kept
    }

    fn flush_pending(&mut self) {
        if self.pending == 0 {
            return;
        }
        if let Some(c) = self.seen.get_mut(self.key.as_str()) {
            *c += self.pending;
        } else if self.seen.len() < ParseReport::MAX_DEVICES {
            self.seen.insert(self.key.clone(), self.pending);
        } else {
            self.more_devices = true;
        }
        self.pending = 0;
    }

    /// Writes the device list into `report`, busiest first.
    pub fn fill_report(&mut self, report: &mut ParseReport) {
        self.flush_pending();
        let mut devices: Vec<DeviceCount> =
            self.seen.iter().map(|(d, &records)| DeviceCount { device: d.clone(), records }).collect();
        devices.sort_by(|a, b| b.records.cmp(&a.records).then_with(|| a.device.cmp(&b.device)));
        report.devices = devices;
        report.more_devices = self.more_devices;
    }
}

#[cold]
fn past_the_clock(since: u64, scale: f64) -> String {
    format!("{since} ns x {scale:?}")
}
