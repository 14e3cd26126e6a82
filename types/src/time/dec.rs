//! Exact decimal fractions `num / 10^scale`: the rationals Ruby's date library produces for
//! fractional seconds (`%N` reads `Rational(123, 1000)`) and fractional zone offsets
//! (`+1.5` is `Rational(5400, 1)`), kept exact so that flooring to nanoseconds rounds as Ruby
//! does. Arithmetic is checked: `None` on `i128` overflow.

/// `num / 10^scale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dec {
    pub num: i128,
    pub scale: u32,
}

/// The largest scale kept: more digits than this are truncated when read.
pub const MAX_SCALE: u32 = 27;

impl Dec {
    pub const ZERO: Dec = Dec { num: 0, scale: 0 };

    pub fn int(n: i128) -> Dec {
        Dec { num: n, scale: 0 }
    }

    /// The value of the decimal digits `digits` (ASCII) over `10^len`: a fraction such as the
    /// `5` of `.5`. Digits past [`MAX_SCALE`] are dropped.
    pub fn fraction_of_digits(digits: &[u8]) -> Dec {
        let kept = &digits[..digits.len().min(MAX_SCALE as usize)];
        let num = kept.iter().fold(0i128, |n, d| n * 10 + i128::from(d.wrapping_sub(b'0') % 10));
        Dec { num, scale: kept.len() as u32 }
    }

    /// This value at `scale` (not below its own).
    fn rescaled(self, scale: u32) -> Option<i128> {
        let up = scale.checked_sub(self.scale)?;
        self.num.checked_mul(10i128.checked_pow(up)?)
    }

    pub fn checked_add(self, o: Dec) -> Option<Dec> {
        let scale = self.scale.max(o.scale);
        Some(Dec { num: self.rescaled(scale)?.checked_add(o.rescaled(scale)?)?, scale })
    }

    pub fn checked_sub(self, o: Dec) -> Option<Dec> {
        self.checked_add(Dec { num: o.num.checked_neg()?, scale: o.scale })
    }

    pub fn is_negative(self) -> bool {
        self.num < 0
    }

    /// `floor(self * 10^shift)`.
    pub fn floor_shifted(self, shift: u32) -> Option<i128> {
        if shift >= self.scale {
            self.num.checked_mul(10i128.checked_pow(shift - self.scale)?)
        } else {
            Some(self.num.div_euclid(10i128.checked_pow(self.scale - shift)?))
        }
    }

    /// `floor(self / d)` for a positive `d`.
    pub fn floor_div_int(self, d: i128) -> Option<i128> {
        let den = 10i128.checked_pow(self.scale)?.checked_mul(d)?;
        Some(self.num.div_euclid(den))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic() {
        let a = Dec::fraction_of_digits(b"5");
        assert_eq!(a, Dec { num: 5, scale: 1 });
        let b = a.checked_sub(Dec::int(1)).unwrap();
        assert_eq!(b.floor_shifted(9), Some(-500_000_000));
        assert_eq!(Dec { num: -36, scale: 0 }.floor_div_int(60), Some(-1));
        assert_eq!(Dec { num: 54000, scale: 1 }.floor_div_int(60), Some(90));
    }

    #[test]
    fn long_fractions_are_truncated() {
        let d = Dec::fraction_of_digits(&[b'9'; 60]);
        assert_eq!(d.scale, MAX_SCALE);
        assert_eq!(d.floor_shifted(9), Some(999_999_999));
    }
}
