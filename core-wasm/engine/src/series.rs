//! The run sampled over the trace (for the charts of response time, free blocks and RAM
//! over time): the trace is cut into at most [`MAX_POINTS`] windows of equal request counts (the
//! last one may be shorter), and each window closes with one [`SeriesPoint`].
//!
//! The window size depends only on the trace length, so a run gives the same points whatever
//! steps it was served in, natively and in wasm. The recorder is not part of the state hash:
//! each response it sums is already in the hashed histogram, and the rest is read from state
//! the hash covers.

use serde::Serialize;

use crate::ftl::RamSplit;

/// Most points a run's series holds.
pub const MAX_POINTS: u64 = 200;

/// One window of the trace.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeriesPoint {
    /// Requests served at the end of the window (the window is the requests after the
    /// previous point's up to this).
    pub requests_done: u64,
    /// Simulated time at the window's last completion (µs).
    pub sim_time_us: f64,
    /// Mean and largest response time of the window's requests (µs).
    pub mean_response_us: f64,
    /// See `mean_response_us`.
    pub max_response_us: f64,
    /// Erased blocks (no page programmed) at the end of the window.
    pub free_blocks: u64,
    /// The scheme's RAM split at the end of the window (schemes that report one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ram: Option<RamSplit>,
}

/// Sums the current window; the simulation asks it after every request whether a window
/// just closed.
#[derive(Debug, Clone, Default)]
pub struct SeriesRecorder {
    window: u64,
    total: u64,
    count: u64,
    sum_ns: u128,
    max_ns: u64,
    points: Vec<SeriesPoint>,
}

/// Requests per window for a trace of `total` requests: the smallest size giving at most
/// [`MAX_POINTS`] windows.
pub fn window_for(total: u64) -> u64 {
    total.div_ceil(MAX_POINTS).max(1)
}

impl SeriesRecorder {
    /// A recorder for a trace of `total` requests.
    pub fn new(total: u64) -> Self {
        SeriesRecorder { window: window_for(total), total, points: Vec::new(), ..Default::default() }
    }

    /// Adds the response of request number `done` (1-based: requests served including this
    /// one). Returns the window's mean and max (ns) when this request closes it; the caller
    /// then adds the point with [`Self::push`].
    pub fn record(&mut self, done: u64, response_ns: u64) -> Option<(f64, u64)> {
        self.count += 1;
        self.sum_ns += u128::from(response_ns);
        self.max_ns = self.max_ns.max(response_ns);
        // Requests are recorded one after another from the first, so the window holds
        // `window` requests exactly when `done` is a multiple of it (no division per request).
        debug_assert_eq!(self.count == self.window, done.is_multiple_of(self.window));
        if self.count < self.window && done != self.total {
            return None;
        }
        let closed = (self.sum_ns as f64 / self.count as f64, self.max_ns);
        (self.count, self.sum_ns, self.max_ns) = (0, 0, 0);
        Some(closed)
    }

    /// Adds a closed window's point.
    pub fn push(&mut self, point: SeriesPoint) {
        self.points.push(point);
    }

    /// The points so far.
    pub fn points(&self) -> &[SeriesPoint] {
        &self.points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn closes(total: u64) -> Vec<u64> {
        let mut r = SeriesRecorder::new(total);
        (1..=total).filter(|&d| r.record(d, 1).is_some()).collect()
    }

    #[test]
    fn windows_cover_the_trace_in_at_most_max_points() {
        for total in [1u64, 7, 199, 200, 201, 1000, 12_345] {
            let c = closes(total);
            assert!(c.len() as u64 <= MAX_POINTS, "{total}: {} points", c.len());
            assert_eq!(*c.last().unwrap(), total, "the last request closes a window");
            let w = window_for(total);
            assert!(c.windows(2).all(|p| p[1] - p[0] <= w), "{total}");
        }
        assert_eq!(closes(5), vec![1, 2, 3, 4, 5], "a short trace: one point per request");
        assert_eq!(closes(401).len(), 134, "401 requests: windows of 3");
    }

    #[test]
    fn a_window_reports_its_own_mean_and_max() {
        let mut r = SeriesRecorder::new(400); // windows of 2
        assert_eq!(r.record(1, 10), None);
        assert_eq!(r.record(2, 30), Some((20.0, 30)));
        assert_eq!(r.record(3, 5), None);
        assert_eq!(r.record(4, 5), Some((5.0, 5)), "the previous window's max is forgotten");
    }
}
