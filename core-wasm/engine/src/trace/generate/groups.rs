//! Correlated re-reference: requests come in **visits** to **groups** of scattered extents,
//! the way a job, a mailbox or a project touches the same set of files each time it runs.
//!
//! The address space is cut into regions of `region_bytes`, one group each (the group of
//! Zipf rank 1 at offset 0). A group's extents cover `density` of its region's aligned slots,
//! with random gaps between them; their sizes come from the generator's size distribution,
//! and each request of a visit reads or writes one of them whole. A visit picks its group by
//! Zipf popularity and lasts a geometric number of requests (mean `visit_requests`), each to
//! an extent of the group chosen uniformly. So pages that are used together are used again
//! together, which independent per-page draws never do.
//!
//! A group's layout is drawn from its own stream (the seed and the group number), so it is
//! the same on every visit and costs no memory between visits.

use super::rng::{self, SplitMix64, Zipf};
use super::SizeDist;

/// One extent of a group: its first aligned slot inside the region and its size in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Extent {
    /// First slot, counted from the region's start.
    pub slot: u64,
    /// Bytes.
    pub bytes: u32,
}

/// The extents of group `group` (ascending, disjoint), for a region of `region_slots` slots of
/// `align` bytes covered to `density`.
pub fn layout(
    seed: u64,
    group: u64,
    region_slots: u64,
    align: u32,
    density: f64,
    sizes: &SizeDist,
) -> Vec<Extent> {
    // A stream of its own per group: mix the group number in so neighbouring groups differ.
    let mut r = SplitMix64::new(seed ^ group.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let target = ((density * region_slots as f64).round() as u64).clamp(1, region_slots);
    let align = u64::from(align);
    let mut sizes_drawn = Vec::new();
    let mut used = 0;
    loop {
        let bytes = sizes.sample(&mut r);
        let slots = u64::from(bytes).div_ceil(align).max(1);
        if used + slots > target && !sizes_drawn.is_empty() {
            break;
        }
        // A first extent larger than the whole target is cut to it (never with Table II's sizes).
        let (bytes, slots) = if slots > target { ((target * align) as u32, target) } else { (bytes, slots) };
        sizes_drawn.push((bytes, slots));
        used += slots;
        if used >= target {
            break;
        }
    }
    // The free slots are shared out as gaps before each extent (and after the last) by
    // sorted uniform cut points.
    let free = region_slots - used;
    let mut cuts: Vec<u64> = (0..sizes_drawn.len()).map(|_| r.below(free + 1)).collect();
    cuts.sort_unstable();
    let mut extents = Vec::with_capacity(sizes_drawn.len());
    let mut at = 0;
    let mut prev_cut = 0;
    for (&(bytes, slots), &cut) in sizes_drawn.iter().zip(&cuts) {
        at += cut - prev_cut;
        prev_cut = cut;
        extents.push(Extent { slot: at, bytes });
        at += slots;
    }
    extents
}

/// Where the requests of the current visit go.
#[derive(Debug, Clone)]
pub struct Visits {
    /// Group popularity (None: uniform, theta 0).
    zipf: Option<Zipf>,
    groups: u64,
    region_slots: u64,
    density: f64,
    visit_requests: f64,
    group: u64,
    extents: Vec<Extent>,
    left: u64,
}

impl Visits {
    /// Visits over `groups` groups of `region_slots` slots each.
    pub fn new(groups: u64, region_slots: u64, theta: f64, density: f64, visit_requests: f64) -> Visits {
        Visits {
            zipf: (theta > 0.0).then(|| Zipf::new(groups, theta)),
            groups,
            region_slots,
            density,
            visit_requests,
            group: 0,
            extents: Vec::new(),
            left: 0,
        }
    }

    /// The next request's offset and size: a new visit when the current one is over, then
    /// one extent of its group.
    pub fn next(&mut self, rng: &mut SplitMix64, seed: u64, align: u32, sizes: &SizeDist) -> (u64, u32) {
        if self.left == 0 {
            self.group = match &self.zipf {
                Some(z) => z.sample(rng) - 1,
                None => rng.below(self.groups),
            };
            self.extents = layout(seed, self.group, self.region_slots, align, self.density, sizes);
            // Geometric on {1, 2, ...} with mean `visit_requests`.
            self.left = if self.visit_requests <= 1.0 {
                1
            } else {
                let u = 1.0 - rng.next_f64();
                ((rng::ln(u) / rng::log1p(-1.0 / self.visit_requests)).floor() as u64).saturating_add(1)
            };
        }
        self.left -= 1;
        let e = self.extents[rng.below(self.extents.len() as u64) as usize];
        let offset = (self.group * self.region_slots + e.slot) * u64::from(align);
        (offset, e.bytes)
    }

    /// The group of the current visit (tests).
    #[cfg(test)]
    pub fn group(&self) -> u64 {
        self.group
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizes() -> SizeDist {
        SizeDist::Geometric { unit: 512, mean_bytes: 9.75 * 1024.0, max_bytes: 4 << 20 }
    }

    /// A layout is the same every time, its extents are disjoint and inside the region, and
    /// they cover the asked share of it (to within one extent).
    #[test]
    fn a_group_layout_is_fixed_disjoint_and_as_dense_as_asked() {
        for group in [0, 1, 77, 4000] {
            let a = layout(13, group, 1024, 4096, 0.15, &sizes());
            assert_eq!(a, layout(13, group, 1024, 4096, 0.15, &sizes()));
            let mut end = 0;
            let mut covered = 0;
            for e in &a {
                assert!(e.slot >= end, "group {group}: extents overlap or are out of order");
                let slots = u64::from(e.bytes).div_ceil(4096);
                end = e.slot + slots;
                covered += slots;
            }
            assert!(end <= 1024, "group {group}: an extent leaves the region");
            assert!((140..=154).contains(&covered), "group {group}: {covered} of 1024 slots");
        }
        assert_ne!(layout(13, 1, 1024, 4096, 0.15, &sizes()), layout(13, 2, 1024, 4096, 0.15, &sizes()));
        assert_ne!(layout(13, 1, 1024, 4096, 0.15, &sizes()), layout(14, 1, 1024, 4096, 0.15, &sizes()));
    }

    /// Every request of a visit lands on an extent of the visit's group.
    #[test]
    fn a_visit_stays_on_its_groups_extents() {
        let mut v = Visits::new(50, 1024, 0.99, 0.15, 20.0);
        let mut r = SplitMix64::new(5);
        let mut groups = std::collections::BTreeSet::new();
        for _ in 0..2000 {
            let (offset, bytes) = v.next(&mut r, 9, 4096, &sizes());
            let g = v.group();
            groups.insert(g);
            let ext = layout(9, g, 1024, 4096, 0.15, &sizes());
            let slot = offset / 4096 - g * 1024;
            assert!(
                ext.iter().any(|e| e.slot == slot && e.bytes == bytes),
                "request off group {g}'s extents"
            );
        }
        assert!(groups.len() > 5, "visits move between groups");
    }

    /// Bad group parameters are refused, each naming what is wrong.
    #[test]
    fn bad_group_parameters_are_named() {
        use crate::trace::generate::{GenParams, Pattern, Spread};
        let groups = |region_bytes, density, visit_requests| Pattern {
            sequential_share: 0.0,
            spread: Spread::Groups { region_bytes, density, theta: 0.99, visit_requests },
        };
        let p = |pattern| GenParams { pattern, address_space: 64 << 20, ..GenParams::default() };
        assert!(p(groups(1 << 20, 0.15, 10.0)).validate().is_ok());
        let refused = |pattern, what: &str| {
            let e = p(pattern).validate().unwrap_err().0;
            assert!(e.contains(what), "{e}");
        };
        refused(groups(1000, 0.15, 10.0), "group region");
        refused(groups(128 << 20, 0.15, 10.0), "group region");
        refused(groups(1 << 20, 0.0, 10.0), "group density");
        refused(groups(1 << 20, 0.15, 0.5), "requests per visit");
        refused(Pattern { sequential_share: 0.5, ..groups(1 << 20, 0.15, 10.0) }, "sequential share 0");
    }
}
