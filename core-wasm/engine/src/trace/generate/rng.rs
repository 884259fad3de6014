//! Randomness and the few transcendental functions the generators need, built only from
//! integer operations and IEEE-754 `+ - * /` (which Rust never fuses), so a seed gives the
//! same bits natively and in WebAssembly. `f64::ln`/`exp` call the platform's libm, whose
//! last-bit rounding differs between targets; one differing bit could flip a rejection test
//! and change the whole trace.

/// SplitMix64 (Steele, Lea & Flood 2014): a 64-bit state advanced by a Weyl increment and
/// scrambled by two multiply-xorshift rounds. Tiny, fast and passes BigCrush; every seed,
/// zero included, gives a full-period stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `[0, n)` (0 when `n` is 0), without modulo bias: Lemire's
    /// multiply-high method, rejecting the few low products that would favour small values.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if (m as u64) >= threshold {
                return (m >> 64) as u64;
            }
        }
    }
}

const LN2: f64 = std::f64::consts::LN_2;
/// ln 2 split Cody–Waite style: `LN2_HI` keeps 32 significant bits, so `k · LN2_HI` is exact
/// for every binary exponent `k` (|k| < 2^11), and `LN2_LO` carries the rest (fdlibm's values).
const LN2_HI: f64 = 6.931_471_803_691_238e-1;
const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// `ln(1 + x)` for `x` in about `[-0.3, 0.42]`: `2·atanh(s)` with `s = x / (2 + x)`,
/// `|s| < 0.172`, so 20 odd powers leave an error far below one ulp.
fn log1p_small(x: f64) -> f64 {
    let s = x / (2.0 + x);
    let s2 = s * s;
    let (mut term, mut sum) = (s, s);
    for k in 1..=20 {
        term *= s2;
        sum += term / f64::from(2 * k + 1);
    }
    2.0 * sum
}

/// Natural logarithm (`-inf` for 0, NaN below 0).
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    // Split x = m · 2^e with m in [√½, √2), so ln m comes from the fast series.
    let (x, bias) = if x < f64::MIN_POSITIVE { (x * (1u64 << 54) as f64, -54) } else { (x, 0) };
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i32 - 1023 + bias;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let e = f64::from(e);
    e * LN2_HI + (e * LN2_LO + log1p_small(m - 1.0))
}

/// `ln(1 + x)`, accurate for small `x`.
pub fn log1p(x: f64) -> f64 {
    if (-0.29..=0.41).contains(&x) {
        log1p_small(x)
    } else {
        ln(1.0 + x)
    }
}

/// `2^k` for `k` in the normal exponent range.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `e^r - 1` for `|r| <= ln2/2` by its Taylor series (20 terms: error far below one ulp).
fn expm1_small(r: f64) -> f64 {
    let (mut term, mut sum) = (r, r);
    for n in 2..=20 {
        term *= r / f64::from(n);
        sum += term;
    }
    sum
}

/// `e^x`.
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.78 {
        return f64::INFINITY;
    }
    if x < -745.2 {
        return 0.0;
    }
    let k = (x / LN2 + 0.5).floor();
    let r = (x - k * LN2_HI) - k * LN2_LO;
    let y = 1.0 + expm1_small(r);
    let k = k as i32;
    if k < -1021 {
        y * pow2(k + 60) * pow2(-60)
    } else if k > 1023 {
        y * pow2(k - 1) * 2.0
    } else {
        y * pow2(k)
    }
}

/// `e^x - 1`, accurate for small `x`.
pub fn expm1(x: f64) -> f64 {
    if x.abs() <= 0.5 * LN2 {
        expm1_small(x)
    } else {
        exp(x) - 1.0
    }
}

/// Zipf ranks `1..=n` with `P(k) ∝ k^-theta`, by Hörmann & Derflinger's rejection-inversion
/// (ACM TOMACS 1996; as in Apache Commons RNG): O(1) memory and time for any `n`, so a
/// terabyte address space needs no table. Requires `theta > 0`.
#[derive(Debug, Clone)]
pub struct Zipf {
    n: u64,
    theta: f64,
    h_integral_x1: f64,
    h_integral_n: f64,
    s: f64,
}

impl Zipf {
    /// A sampler over `1..=n` (`n >= 1`, `theta > 0`).
    pub fn new(n: u64, theta: f64) -> Zipf {
        let mut z = Zipf { n: n.max(1), theta, h_integral_x1: 0.0, h_integral_n: 0.0, s: 0.0 };
        z.h_integral_x1 = z.h_integral(1.5) - 1.0;
        z.h_integral_n = z.h_integral(z.n as f64 + 0.5);
        z.s = 2.0 - z.h_integral_inverse(z.h_integral(2.5) - z.h(2.0));
        z
    }

    /// `∫ h`, where `h(x) = x^-theta`: `(x^(1-theta) - 1) / (1 - theta)`, stable at theta = 1.
    fn h_integral(&self, x: f64) -> f64 {
        let log_x = ln(x);
        let t = (1.0 - self.theta) * log_x;
        let helper2 =
            if t.abs() > 1e-8 { expm1(t) / t } else { 1.0 + t * 0.5 * (1.0 + t / 3.0 * (1.0 + 0.25 * t)) };
        helper2 * log_x
    }

    fn h(&self, x: f64) -> f64 {
        exp(-self.theta * ln(x))
    }

    fn h_integral_inverse(&self, x: f64) -> f64 {
        let t = (x * (1.0 - self.theta)).max(-1.0);
        let helper1 =
            if t.abs() > 1e-8 { log1p(t) / t } else { 1.0 - t * (0.5 - t * (1.0 / 3.0 - 0.25 * t)) };
        exp(helper1 * x)
    }

    /// One rank. The rejection loop accepts with probability above one half; the cap of
    /// 256 rounds (never reached in practice) only guarantees termination.
    pub fn sample(&self, rng: &mut SplitMix64) -> u64 {
        let mut k = 1;
        for _ in 0..256 {
            let u = self.h_integral_n + rng.next_f64() * (self.h_integral_x1 - self.h_integral_n);
            let x = self.h_integral_inverse(u);
            // `as` saturates (NaN -> 0), so the clamp below covers every case.
            k = ((x + 0.5) as u64).clamp(1, self.n);
            if k as f64 - x <= self.s || u >= self.h_integral(k as f64 + 0.5) - self.h(k as f64) {
                return k;
            }
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // First outputs for seed 0 from the reference C implementation.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(7);
        assert!((0..1000).all(|_| r.below(3) < 3));
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn math_matches_libm_closely() {
        for &x in &[1e-300, 1e-10, 0.001, 0.5, 0.7, 1.0, 1.4, 2.0, 10.0, 12345.678, 1e300] {
            let (a, b) = (ln(x), x.ln());
            assert!((a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1.0), "ln {x}: {a} vs {b}");
        }
        for &x in &[-700.0, -20.0, -1.0, -1e-9, 0.0, 1e-9, 0.3, 1.0, 5.5, 100.0, 700.0] {
            let (a, b) = (exp(x), x.exp());
            assert!((a - b).abs() <= 4.0 * f64::EPSILON * b.abs(), "exp {x}: {a} vs {b}");
            let (a, b) = (expm1(x), x.exp_m1());
            assert!((a - b).abs() <= 4.0 * f64::EPSILON * b.abs().max(1e-300), "expm1 {x}: {a} vs {b}");
        }
        for &x in &[-0.5, -0.1, -1e-12, 1e-12, 0.2, 0.41, 3.0] {
            let (a, b) = (log1p(x), x.ln_1p());
            assert!((a - b).abs() <= 4.0 * f64::EPSILON * b.abs(), "log1p {x}: {a} vs {b}");
        }
        assert!(ln(-1.0).is_nan() && ln(0.0) == f64::NEG_INFINITY && exp(1000.0).is_infinite());
    }
}
