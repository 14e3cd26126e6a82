//! Ruby's `dtoa` (David Gay's, as modified in Ruby's `missing/dtoa.c`) in modes 2 and 3:
//! the digits `%e`, `%f` and `%g` print.
//!
//! Ruby's version is not always correctly rounded: when its quick floating-point estimate
//! finds the value within rounding error of a tie, it rounds half to even as if the value
//! were the tie (`format('%.1f', 0.15)` is `0.2`, `format('%.2f', 9.995)` is `10.00`, though
//! the doubles are slightly below the ties). Puppet prints through it, so this module
//! repeats the same floating-point steps bit for bit, and the exact (big integer) steps
//! where Ruby falls back to them.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

const TENS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];
const BIGTENS: [f64; 5] = [1e16, 1e32, 1e64, 1e128, 1e256];
const QUICK_MAX: i32 = 14;
const INT_MAX: i32 = 14;
const TEN_PMAX: i32 = 22;

/// The digits of a non-negative finite `d` and the position of the decimal point
/// (`0.DIGITS × 10^decpt`), trailing zeros suppressed. Mode 2: `ndigits` significant
/// digits; mode 3: `ndigits` digits after the decimal point.
pub fn dtoa(d: f64, mode: i32, ndigits: i32) -> (Vec<u8>, i32) {
    if d == 0.0 || !d.is_finite() {
        return (b"0".to_vec(), 1);
    }
    let bits = d.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    // d2b: d = mant * 2^be with mant odd; bbits its bit length
    let (mut mant, mut be) = if biased == 0 { (frac, -1074) } else { (frac | (1u64 << 52), biased - 1075) };
    let tz = mant.trailing_zeros();
    mant >>= tz;
    be += tz as i32;
    let bbits = 64 - mant.leading_zeros() as i32;

    // k = floor(log10(d)), estimated
    let (d2, i) = if biased != 0 {
        (f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52)), biased - 1023)
    } else {
        let i = bbits + be + (1023 + 52 - 1);
        let w0 = ((bits >> 32) & 0xffff_ffff) as u32;
        let w1 = (bits & 0xffff_ffff) as u32;
        let x: u32 = if i > 32 { (w0 << (64 - i)) | (w1 >> (i - 32)) } else { w1 << (32 - i) };
        let d2 = f64::from_bits((x as f64).to_bits() - (31u64 << 52));
        (d2, i - (1023 + 52 - 1) - 1)
    };
    // dtoa's own constants, not `LOG10_2`: the estimate must be the same as Ruby's
    #[allow(clippy::approx_constant)]
    let ds = (d2 - 1.5) * 0.289529654602168 + 0.1760912590558 + f64::from(i) * 0.301029995663981;
    let mut k = ds as i32;
    if ds < 0.0 && ds != f64::from(k) {
        k -= 1;
    }
    let mut k_check = true;
    if (0..=TEN_PMAX).contains(&k) {
        if d < TENS[k as usize] {
            k -= 1;
        }
        k_check = false;
    }

    let (mut ilim, ilim1) = match mode {
        2 => {
            let n = ndigits.max(1);
            (n, n)
        }
        _ => (ndigits + k + 1, ndigits + k),
    };
    let mut s: Vec<u8> = Vec::with_capacity(ilim.max(1) as usize + 1);
    let mut half = false;

    if (0..=QUICK_MAX).contains(&ilim) {
        // Try to get by with floating-point arithmetic.
        let mut dv = d;
        let mut kq = k;
        let mut ilimq = ilim;
        let mut ieps = 2;
        let mut idx = 0usize;
        if kq > 0 {
            let mut dsv = TENS[(kq & 0xf) as usize];
            let mut j = kq >> 4;
            if j & 0x10 != 0 {
                j &= 0x10 - 1;
                dv /= BIGTENS[4];
                ieps += 1;
            }
            while j != 0 {
                if j & 1 != 0 {
                    ieps += 1;
                    dsv *= BIGTENS[idx];
                }
                j >>= 1;
                idx += 1;
            }
            dv /= dsv;
        } else if kq < 0 {
            let j1 = -kq;
            dv *= TENS[(j1 & 0xf) as usize];
            let mut j = j1 >> 4;
            while j != 0 {
                if j & 1 != 0 {
                    ieps += 1;
                    dv *= BIGTENS[idx];
                }
                j >>= 1;
                idx += 1;
            }
        }
        let mut failed = false;
        if k_check && dv < 1.0 && ilimq > 0 {
            if ilim1 <= 0 {
                failed = true;
            } else {
                ilimq = ilim1;
                kq -= 1;
                dv *= 10.0;
                ieps += 1;
            }
        }
        if !failed {
            let mut eps = f64::from(ieps) * dv + 7.0;
            eps = f64::from_bits(eps.to_bits().wrapping_sub(52u64 << 52));
            if ilimq == 0 {
                dv -= 5.0;
                if dv > eps {
                    return (b"1".to_vec(), kq + 2);
                }
                if dv < -eps {
                    return (Vec::new(), -ndigits);
                }
            } else {
                eps *= TENS[(ilimq - 1) as usize];
                let mut i = 1;
                loop {
                    let l = dv as i64;
                    dv -= l as f64;
                    if dv == 0.0 {
                        ilimq = i;
                    }
                    s.push(b'0' + l as u8);
                    if i == ilimq {
                        if dv > 0.5 + eps {
                            return bump_up(s, kq);
                        } else if dv < 0.5 - eps {
                            while s.last() == Some(&b'0') {
                                s.pop();
                            }
                            return (s, kq + 1);
                        }
                        half = true;
                        if s.last().is_some_and(|c| (c - b'0') & 1 == 1) {
                            return bump_up(s, kq);
                        }
                        break;
                    }
                    i += 1;
                    dv *= 10.0;
                }
            }
        }
        // fast_failed
        s.clear();
    }

    // Do we have a "small" integer?
    if be >= 0 && k <= INT_MAX {
        let ds = TENS[k.max(0) as usize];
        let mut dv = d;
        let mut i = 1;
        loop {
            let l = (dv / ds) as i64;
            dv -= l as f64 * ds;
            s.push(b'0' + l as u8);
            if dv == 0.0 {
                break;
            }
            if i == ilim {
                dv += dv;
                if dv > ds || (dv == ds && l & 1 == 1) {
                    return bump_up(s, k);
                }
                break;
            }
            i += 1;
            dv *= 10.0;
        }
        return (s, k + 1);
    }

    // Exact arithmetic: b / S = d / 10^k.
    let mut b = BigUint::from(mant);
    let mut sden = BigUint::one();
    if be >= 0 {
        b <<= be as usize;
    } else {
        sden <<= (-be) as usize;
    }
    if k >= 0 {
        sden *= BigUint::from(10u32).pow(k as u32);
    } else {
        b *= BigUint::from(10u32).pow((-k) as u32);
    }
    if k_check && b < sden {
        k -= 1;
        b *= 10u32;
        ilim = ilim1;
    }
    if ilim <= 0 && mode == 3 {
        if ilim < 0 || b <= &sden * 5u32 {
            return (Vec::new(), -ndigits);
        }
        return (b"1".to_vec(), k + 2);
    }
    let mut i = 1;
    let mut dig;
    loop {
        let q = &b / &sden;
        b -= &q * &sden;
        dig = b'0' + q.to_u8().unwrap_or(0);
        s.push(dig);
        if b.is_zero() {
            return (s, k + 1);
        }
        if i >= ilim {
            break;
        }
        i += 1;
        b *= 10u32;
    }
    // Round off last digit
    let twice = &b << 1usize;
    let j = twice.cmp(&sden);
    if j == std::cmp::Ordering::Greater || (j == std::cmp::Ordering::Equal && (dig - b'0') & 1 == 1) {
        while s.last() == Some(&b'9') {
            if s.len() == 1 {
                return (b"1".to_vec(), k + 2);
            }
            s.pop();
        }
        if let Some(last) = s.last_mut() {
            if !half || (*last - b'0') & 1 == 1 {
                *last += 1;
            }
        }
    } else {
        while s.last() == Some(&b'0') {
            s.pop();
        }
    }
    (s, k + 1)
}

/// dtoa's `bump_up`: the last digit incremented, carrying over nines.
fn bump_up(mut s: Vec<u8>, mut k: i32) -> (Vec<u8>, i32) {
    loop {
        match s.last().copied() {
            Some(b'9') => {
                if s.len() == 1 {
                    k += 1;
                    s[0] = b'1';
                    return (s, k + 1);
                }
                s.pop();
            }
            Some(c) => {
                if let Some(last) = s.last_mut() {
                    *last = c + 1;
                }
                return (s, k + 1);
            }
            None => return (b"1".to_vec(), k + 2),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits(d: f64, mode: i32, n: i32) -> (String, i32) {
        let (s, e) = dtoa(d, mode, n);
        (String::from_utf8(s).unwrap_or_default(), e)
    }

    #[test]
    fn rubys_rounding() {
        assert_eq!(digits(0.15, 3, 1), ("2".into(), 0));
        assert_eq!(digits(9.995, 3, 2), ("1".into(), 2));
        assert_eq!(digits(1.005, 3, 2), ("1".into(), 1));
        assert_eq!(digits(0.05, 3, 1), ("1".into(), 0));
        assert_eq!(digits(0.5, 3, 0), ("".into(), 0));
        assert_eq!(digits(1.5, 3, 0), ("2".into(), 1));
        assert_eq!(digits(2.5, 3, 0), ("2".into(), 1));
        assert_eq!(digits(25.0, 2, 1), ("2".into(), 2));
        assert_eq!(digits(0.1, 2, 17), ("10000000000000001".into(), 0));
        assert_eq!(digits(123.456, 2, 6), ("123456".into(), 3));
    }
}
