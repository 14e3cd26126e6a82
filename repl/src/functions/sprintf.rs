//! Ruby's `Kernel#format` with any number of arguments, for Puppet's 3.x `sprintf` function
//! (`parser/functions/sprintf.rb`). This is the `pfmt` crate's one-argument `format`
//! (`fmt/src/sprintf.rs`, Ruby 3.1's `sprintf.c`) with the argument list of a real call:
//! unnumbered, numbered (`%1$s`) and named (`%<name>s`, `%{name}`) arguments, `too few
//! arguments`, and `one hash required` / `key<name> not found` for names. Values convert as
//! Ruby sees the 3.x arguments: `%s` is `to_s` (`[1, "a", nil]` for an Array), `%p` `inspect`.

use std::borrow::Cow;
use std::fmt::Write;

use num_bigint::{BigInt, Sign};

use pfmt::error::FormatError;
use pfmt::ruby;
pub use pfmt::sprintf::{Arg, RInt};
use puppet_types::Value;

/// Widths and precisions beyond this are refused (`width too big`), where Ruby would try to
/// build strings of gigabytes.
pub const MAX_FIELD: i64 = 1 << 20;

/// What the integer directives need of a Ruby Integer.
trait RIntExt {
    fn is_negative(&self) -> bool;
    fn to_big(&self) -> BigInt;
    fn abs_digits(&self, base: u32) -> String;
}

impl RIntExt for RInt {
    fn is_negative(&self) -> bool {
        match self {
            RInt::Small(i) => *i < 0,
            RInt::Big(b) => b.sign() == Sign::Minus,
        }
    }

    fn to_big(&self) -> BigInt {
        match self {
            RInt::Small(i) => BigInt::from(*i),
            RInt::Big(b) => b.clone(),
        }
    }

    /// The digits of the absolute value in `base`.
    fn abs_digits(&self, base: u32) -> String {
        match self {
            RInt::Small(i) => {
                let u = i.unsigned_abs();
                match base {
                    10 => u.to_string(),
                    16 => format!("{u:x}"),
                    8 => format!("{u:o}"),
                    _ => format!("{u:b}"),
                }
            }
            RInt::Big(b) => b.magnitude().to_str_radix(base),
        }
    }
}

/// Ruby's two's complement digits of a negative integer in base 2, 8 or 16 (without the
/// `..`): enough digits that the first is the sign digit (`f`, `7`, `1`).
fn twos_complement_digits(v: &RInt, base: u32) -> String {
    let numbits: u32 = match base {
        16 => 4,
        8 => 3,
        _ => 1,
    };
    let big = v.to_big();
    let mag = big.magnitude().clone();
    let bits = mag.bits();
    let mut numdigits = bits.div_ceil(u64::from(numbits));
    // leading zero bits in the top digit of |v|
    let nlz = numdigits * u64::from(numbits) - bits;
    let single_bit = mag.count_ones() == 1;
    if numdigits == 0 || nlz != u64::from(numbits - 1) || !single_bit {
        numdigits += 1;
    }
    let total_bits = numdigits * u64::from(numbits);
    let modulus = BigInt::from(1) << total_bits;
    let repr = modulus + big;
    let s = repr.magnitude().to_str_radix(base);
    let pad = (numdigits as usize).saturating_sub(s.len());
    let mut out = String::with_capacity(numdigits as usize);
    out.extend(std::iter::repeat_n('0', pad));
    out.push_str(&s);
    out
}

const FSHARP: u32 = 1;
const FMINUS: u32 = 2;
const FPLUS: u32 = 4;
const FZERO: u32 = 8;
const FSPACE: u32 = 16;
const FWIDTH: u32 = 32;
const FPREC: u32 = 64;
const FPREC0: u32 = 128;

fn err(msg: impl Into<String>) -> FormatError {
    FormatError::new(msg)
}

/// Where the next argument comes from (Ruby's `posarg`): 0 none taken yet, > 0 the last
/// unnumbered one, -1 numbered, -2 named.
struct Args<'a, 'b> {
    args: &'b [Arg<'a>],
    nextarg: i64,
    posarg: i64,
}

impl<'a, 'b> Args<'a, 'b> {
    fn next(&mut self) -> Result<&'b Arg<'a>, FormatError> {
        match self.posarg {
            -1 => return Err(err(format!("unnumbered({}) mixed with numbered", self.nextarg))),
            -2 => return Err(err(format!("unnumbered({}) mixed with named", self.nextarg))),
            _ => {}
        }
        self.posarg = self.nextarg;
        self.nextarg += 1;
        self.nth(self.posarg)
    }

    fn pos(&mut self, n: i64) -> Result<&'b Arg<'a>, FormatError> {
        if self.posarg > 0 {
            return Err(err(format!("numbered({n}) after unnumbered({})", self.posarg)));
        }
        if self.posarg == -2 {
            return Err(err(format!("numbered({n}) after named")));
        }
        if n < 1 {
            return Err(err(format!("invalid index - {n}$")));
        }
        self.posarg = -1;
        self.nth(n)
    }

    fn nth(&self, n: i64) -> Result<&'b Arg<'a>, FormatError> {
        usize::try_from(n - 1).ok().and_then(|i| self.args.get(i)).ok_or_else(|| err("too few arguments"))
    }

    /// `GETNAMEARG`: the value of `name` in the one Hash argument (`None`: a key not found).
    fn named(&mut self, name: &str) -> Result<Option<&'b Value>, FormatError> {
        if self.posarg > 0 {
            return Err(err(format!("named{name} after unnumbered({})", self.posarg)));
        }
        if self.posarg == -1 {
            return Err(err(format!("named{name} after numbered")));
        }
        self.posarg = -2;
        let hash = match self.args {
            [Arg::Obj(Value::Hash(h))] => h,
            _ => return Err(err("one hash required")),
        };
        let key = &name[1..name.len() - 1];
        Ok(hash.get(&Value::from(key)))
    }
}

/// Reads digits at `p` (Ruby's `GETNUM`): the number, or `NAME too big` past `INT_MAX`.
fn get_num(b: &[u8], mut p: usize, start: i64, what: &str) -> Result<(i64, usize), FormatError> {
    let mut n = start;
    while let Some(c) = b.get(p).filter(|c| c.is_ascii_digit()) {
        n = n.checked_mul(10).and_then(|n| n.checked_add(i64::from(c - b'0'))).unwrap_or(i64::MAX);
        if n > i64::from(i32::MAX) {
            return Err(err(format!("{what} too big")));
        }
        p += 1;
    }
    if p >= b.len() {
        return Err(err("malformed format string - %*[0-9]"));
    }
    Ok((n, p))
}

/// `Kernel#format(fmt, arg)`.
pub fn format(fmt: &str, list: &[Arg<'_>]) -> Result<String, FormatError> {
    let b = fmt.as_bytes();
    let end = b.len();
    let mut out = String::with_capacity(fmt.len() + 8);
    let mut args = Args { args: list, nextarg: 1, posarg: 0 };
    let mut p = 0usize;
    while p < end {
        let t = b[p..].iter().position(|&c| c == b'%').map_or(end, |i| p + i);
        out.push_str(&fmt[p..t]);
        if t >= end {
            break;
        }
        if t + 1 == end {
            return Err(err("incomplete format specifier; use %% (double %) instead"));
        }
        p = t + 1;
        let mut width: i64 = -1;
        let mut prec: i64 = -1;
        let mut flags: u32 = 0;
        let mut nextvalue: Option<&Arg<'_>> = None;
        let mut named_value: Option<Arg<'_>> = None;
        loop {
            // past the end, `*p` is the terminating NUL
            let c = b.get(p).copied().unwrap_or(0);
            match c {
                b' ' | b'#' | b'+' | b'-' | b'0' => {
                    if flags & FWIDTH != 0 {
                        return Err(err("flag after width"));
                    }
                    if flags & FPREC0 != 0 {
                        return Err(err("flag after precision"));
                    }
                    flags |= match c {
                        b' ' => FSPACE,
                        b'#' => FSHARP,
                        b'+' => FPLUS,
                        b'-' => FMINUS,
                        _ => FZERO,
                    };
                    p += 1;
                }
                b'1'..=b'9' => {
                    let (n, np) = get_num(b, p, 0, "width")?;
                    p = np;
                    if b.get(p) == Some(&b'$') {
                        if nextvalue.is_some() {
                            return Err(err(format!("value given twice - {n}$")));
                        }
                        nextvalue = Some(args.pos(n)?);
                        p += 1;
                        continue;
                    }
                    check_for_width(flags)?;
                    width = n;
                    flags |= FWIDTH;
                }
                b'<' | b'{' => {
                    let term = if c == b'<' { b'>' } else { b'}' };
                    let start = p;
                    while p < end && b[p] != term {
                        p += 1;
                    }
                    if p >= end {
                        return Err(err("malformed name - unmatched parenthesis"));
                    }
                    let name = &fmt[start..=p];
                    let value = args.named(name)?.ok_or_else(|| err(format!("key{name} not found")))?;
                    if term == b'}' {
                        // `%{name}`: the value's `to_s`, formatted as `%s`
                        let value_arg = Arg::Obj(value);
                        let s = to_s(&value_arg)?;
                        format_s(&mut out, &s, flags, width, prec)?;
                        break;
                    }
                    if named_value.is_some() || nextvalue.is_some() {
                        return Err(err(format!("named{name} after <{name}>")));
                    }
                    named_value = Some(Arg::Obj(value));
                    p += 1;
                    continue;
                }
                b'*' => {
                    check_for_width(flags)?;
                    flags |= FWIDTH;
                    let (w, np) = get_aster(b, p, &mut args, "width")?;
                    p = np;
                    width = w;
                    if width < 0 {
                        flags |= FMINUS;
                        width = -width;
                    }
                    p += 1;
                }
                b'.' => {
                    if flags & FPREC0 != 0 {
                        return Err(err("precision given twice"));
                    }
                    flags |= FPREC | FPREC0;
                    p += 1;
                    if b.get(p) == Some(&b'*') {
                        let (pr, np) = get_aster(b, p, &mut args, "precision")?;
                        p = np;
                        prec = pr;
                        if prec < 0 {
                            flags &= !FPREC;
                        }
                        p += 1;
                        continue;
                    }
                    let (n, np) = get_num(b, p, 0, "precision")?;
                    prec = n;
                    p = np;
                }
                b'\n' | b'%' => {
                    if flags != 0 {
                        return Err(err("invalid format character - %"));
                    }
                    out.push('%');
                    if c == b'\n' {
                        // `p--`: the line feed is then copied as text
                        p -= 1;
                    }
                    break;
                }
                0 => {
                    if flags != 0 {
                        return Err(err("invalid format character - %"));
                    }
                    out.push('%');
                    p -= 1;
                    break;
                }
                b'c' => {
                    let v = match &named_value {
                        Some(a) => a,
                        None => take(&mut nextvalue, &mut args)?,
                    };
                    if width > MAX_FIELD {
                        return Err(err("width too big"));
                    }
                    format_c(&mut out, v, flags, width)?;
                    break;
                }
                b's' | b'p' => {
                    let v = match &named_value {
                        Some(a) => a,
                        None => take(&mut nextvalue, &mut args)?,
                    };
                    let s = if c == b'p' { inspect(v)? } else { to_s(v)? };
                    format_s(&mut out, &s, flags, width, prec)?;
                    break;
                }
                b'd' | b'i' | b'o' | b'x' | b'X' | b'b' | b'B' | b'u' => {
                    let v = match &named_value {
                        Some(a) => a,
                        None => take(&mut nextvalue, &mut args)?,
                    };
                    let iv = to_integer(v)?;
                    format_int(&mut out, &iv, c, flags, width, prec)?;
                    break;
                }
                b'f' => {
                    let v = match &named_value {
                        Some(a) => a,
                        None => take(&mut nextvalue, &mut args)?,
                    };
                    match v {
                        Arg::Int(i) => format_f_int(&mut out, &RInt::Small(*i), flags, width, prec)?,
                        Arg::Big(bi) => format_f_int(&mut out, &RInt::Big(bi.clone()), flags, width, prec)?,
                        _ => {
                            let f = to_float(v)?;
                            format_float(&mut out, f, c, flags, width, prec)?;
                        }
                    }
                    break;
                }
                b'g' | b'G' | b'e' | b'E' | b'a' | b'A' => {
                    let v = match &named_value {
                        Some(a) => a,
                        None => take(&mut nextvalue, &mut args)?,
                    };
                    let f = to_float(v)?;
                    format_float(&mut out, f, c, flags, width, prec)?;
                    break;
                }
                _ => {
                    return Err(match fmt[p..].chars().next() {
                        Some(ch) if is_print(ch) => err(format!("malformed format string - %{ch}")),
                        _ => err("malformed format string"),
                    });
                }
            }
        }
        p += 1;
    }
    Ok(out)
}

/// Whether Ruby's `rb_enc_isprint` holds for the first character after `%`.
fn is_print(c: char) -> bool {
    if c.is_ascii() {
        (' '..='~').contains(&c)
    } else {
        !c.is_control() && !c.is_whitespace()
    }
}

fn check_for_width(flags: u32) -> Result<(), FormatError> {
    if flags & FWIDTH != 0 {
        return Err(err("width given twice"));
    }
    if flags & FPREC0 != 0 {
        return Err(err("width after precision"));
    }
    Ok(())
}

/// `GETASTER`: a width or precision taken from the arguments (`*` or `*2$`); returns the
/// value and the position of the last character read.
fn get_aster(b: &[u8], p: usize, args: &mut Args<'_, '_>, what: &str) -> Result<(i64, usize), FormatError> {
    let t = p;
    let (n, np) = get_num(b, p + 1, 0, what)?;
    let (v, pos) = if b.get(np) == Some(&b'$') { (args.pos(n)?, np) } else { (args.next()?, t) };
    Ok((num2int(v)?, pos))
}

fn take<'a, 'b>(nextvalue: &mut Option<&'b Arg<'a>>, args: &mut Args<'a, 'b>) -> Result<&'b Arg<'a>, FormatError> {
    match nextvalue.take() {
        Some(v) => Ok(v),
        None => args.next(),
    }
}

fn pad(out: &mut String, c: char, n: i64) {
    if n > 0 {
        out.extend(std::iter::repeat_n(c, n as usize));
    }
}

fn check_field(width: i64, prec: i64) -> Result<(), FormatError> {
    if width > MAX_FIELD {
        return Err(err("width too big"));
    }
    if prec > MAX_FIELD {
        return Err(err("precision too big"));
    }
    Ok(())
}

/// `%c`.
fn format_c(out: &mut String, v: &Arg<'_>, flags: u32, width: i64) -> Result<(), FormatError> {
    let ch: char = match ruby::check_string_type(v) {
        Some(s) => {
            let mut it = s.chars();
            match (it.next(), it.next()) {
                (Some(c), None) => c,
                _ => return Err(err("%c requires a character")),
            }
        }
        None => {
            let n = num2int(v)?;
            match u32::try_from(n).ok().and_then(char::from_u32) {
                Some(c) => c,
                None => return Err(err("invalid character")),
            }
        }
    };
    if flags & FWIDTH == 0 {
        out.push(ch);
    } else if flags & FMINUS != 0 {
        out.push(ch);
        pad(out, ' ', width - 1);
    } else {
        pad(out, ' ', width - 1);
        out.push(ch);
    }
    Ok(())
}

/// `%s` and `%p` of an already converted string: precision in characters, width padding.
fn format_s(out: &mut String, s: &str, flags: u32, width: i64, prec: i64) -> Result<(), FormatError> {
    check_field(width, prec)?;
    if flags & (FPREC | FWIDTH) != 0 {
        let mut slen = s.chars().count() as i64;
        let mut text = s;
        if flags & FPREC != 0 && prec < slen {
            let cut = s.char_indices().nth(prec as usize).map_or(s.len(), |(i, _)| i);
            text = &s[..cut];
            slen = prec;
        }
        if flags & FWIDTH != 0 && width > slen {
            let fill = width - slen;
            if flags & FMINUS == 0 {
                pad(out, ' ', fill);
            }
            out.push_str(text);
            if flags & FMINUS != 0 {
                pad(out, ' ', fill);
            }
            return Ok(());
        }
        out.push_str(text);
        return Ok(());
    }
    out.push_str(s);
    Ok(())
}

/// `%d %i %u %o %x %X %b %B`.
fn format_int(
    out: &mut String,
    v: &RInt,
    conv: u8,
    flags: u32,
    mut width: i64,
    mut prec: i64,
) -> Result<(), FormatError> {
    check_field(width, prec)?;
    let sign = matches!(conv, b'd' | b'i' | b'u') || flags & (FPLUS | FSPACE) != 0;
    let mut prefix: Option<&str> = if flags & FSHARP != 0 {
        match conv {
            b'o' => Some("0"),
            b'x' => Some("0x"),
            b'X' => Some("0X"),
            b'b' => Some("0b"),
            b'B' => Some("0B"),
            _ => None,
        }
    } else {
        None
    };
    let base = match conv {
        b'o' => 8,
        b'x' | b'X' => 16,
        b'b' | b'B' => 2,
        _ => 10,
    };
    let negative = v.is_negative();
    let mut sc: Option<char> = None;
    let mut dots = false;
    let mut s: String;
    if sign || base == 10 {
        s = v.abs_digits(base);
        if negative {
            sc = Some('-');
            width -= 1;
        } else if flags & FPLUS != 0 {
            sc = Some('+');
            width -= 1;
        } else if flags & FSPACE != 0 {
            sc = Some(' ');
            width -= 1;
        }
    } else if negative {
        s = twos_complement_digits(v, base);
        dots = true;
    } else {
        s = v.abs_digits(base);
    }
    if dots {
        prec -= 2;
        width -= 2;
    }
    if conv == b'X' {
        s.make_ascii_uppercase();
    }
    let mut len = s.len() as i64;
    let is_zero = s == "0";
    if prefix == Some("0") {
        if dots {
            prefix = None;
        } else if is_zero {
            len = 0;
            if flags & FPREC != 0 {
                prec -= 1;
            }
        } else if flags & FPREC != 0 && prec > len {
            prefix = None;
        }
    } else if is_zero {
        prefix = None;
    }
    if let Some(pf) = prefix {
        width -= pf.len() as i64;
    }
    if flags & (FZERO | FMINUS | FPREC) == FZERO {
        prec = width;
        width = 0;
    } else {
        if prec < len {
            if prefix.is_none() && prec == 0 && is_zero {
                len = 0;
            }
            prec = len;
        }
        width -= prec;
    }
    if flags & FMINUS == 0 {
        pad(out, ' ', width);
        width = 0;
    }
    if let Some(c) = sc {
        out.push(c);
    }
    if let Some(pf) = prefix {
        out.push_str(pf);
    }
    if dots {
        out.push_str("..");
    }
    if !sign && negative {
        let c = match base {
            16 if conv == b'X' => 'F',
            16 => 'f',
            8 => '7',
            _ => '1',
        };
        pad(out, c, prec - len);
    } else if flags & (FMINUS | FPREC) != FMINUS {
        pad(out, '0', prec - len);
    }
    out.push_str(&s[..len as usize]);
    pad(out, ' ', width);
    Ok(())
}

/// `%f` of an Integer: exact, with Ruby's own code (no `.` for `%#.0f`).
fn format_f_int(out: &mut String, v: &RInt, flags: u32, width: i64, prec: i64) -> Result<(), FormatError> {
    check_field(width, prec)?;
    let prec = if flags & FPREC != 0 { prec } else { 6 };
    let sign: i32 = if v.is_negative() {
        -1
    } else if flags & FPLUS != 0 {
        1
    } else {
        0
    };
    let digits = v.abs_digits(10);
    let zero = prec.max(0);
    let mut len = digits.len() as i64 + zero;
    if prec >= len {
        len = prec + 1;
    }
    if sign != 0 || flags & FSPACE != 0 {
        len += 1;
    }
    if prec > 0 {
        len += 1;
    }
    let fill = if width > len { width - len } else { 0 };
    if fill > 0 && flags & (FMINUS | FZERO) == 0 {
        pad(out, ' ', fill);
    }
    if sign != 0 || flags & FSPACE != 0 {
        out.push(match sign {
            1 => '+',
            -1 => '-',
            _ => ' ',
        });
    }
    if fill > 0 && flags & (FMINUS | FZERO) == FZERO {
        pad(out, '0', fill);
    }
    out.push_str(&digits);
    if prec > 0 {
        out.push('.');
    }
    pad(out, '0', zero);
    if fill > 0 && flags & FMINUS != 0 {
        pad(out, ' ', fill);
    }
    Ok(())
}

/// `%e %E %f %g %G %a %A` of a Float, as Ruby's BSD `vfprintf` prints it.
fn format_float(out: &mut String, f: f64, conv: u8, flags: u32, width: i64, prec: i64) -> Result<(), FormatError> {
    check_field(width, prec)?;
    if f.is_nan() || f.is_infinite() {
        let expr = if f.is_nan() { "NaN" } else { "Inf" };
        let sign = if !f.is_nan() && f < 0.0 {
            Some('-')
        } else if flags & FPLUS != 0 {
            Some('+')
        } else if flags & FSPACE != 0 {
            Some(' ')
        } else {
            None
        };
        let body_len = expr.len() as i64 + i64::from(sign.is_some());
        let fill = if flags & FWIDTH != 0 && width > body_len { width - body_len } else { 0 };
        if flags & FMINUS == 0 {
            pad(out, ' ', fill);
        }
        if let Some(s) = sign {
            out.push(s);
        }
        out.push_str(expr);
        if flags & FMINUS != 0 {
            pad(out, ' ', fill);
        }
        return Ok(());
    }
    let prec = if flags & FPREC != 0 { Some(prec as usize) } else { None };
    let alt = flags & FSHARP != 0;
    let negative = f.is_sign_negative();
    let a = f.abs();
    let (prefix, body) = match conv {
        b'f' => ("", fixed(a, prec.unwrap_or(6), alt)),
        b'e' | b'E' => {
            let s = exponential(a, prec.unwrap_or(6), alt);
            ("", if conv == b'E' { s.to_uppercase() } else { s })
        }
        b'g' | b'G' => {
            let s = general(a, prec.unwrap_or(6), alt);
            ("", if conv == b'G' { s.to_uppercase() } else { s })
        }
        _ => {
            let s = hex_float(a, prec, alt);
            if conv == b'A' {
                ("0X", s.to_uppercase())
            } else {
                ("0x", s)
            }
        }
    };
    let sign = if negative {
        Some('-')
    } else if flags & FPLUS != 0 {
        Some('+')
    } else if flags & FSPACE != 0 {
        Some(' ')
    } else {
        None
    };
    let len = body.len() as i64 + prefix.len() as i64 + i64::from(sign.is_some());
    let fill = if width > len { width - len } else { 0 };
    if flags & FMINUS != 0 {
        if let Some(s) = sign {
            out.push(s);
        }
        out.push_str(prefix);
        out.push_str(&body);
        pad(out, ' ', fill);
    } else if flags & FZERO != 0 {
        if let Some(s) = sign {
            out.push(s);
        }
        out.push_str(prefix);
        pad(out, '0', fill);
        out.push_str(&body);
    } else {
        pad(out, ' ', fill);
        if let Some(s) = sign {
            out.push(s);
        }
        out.push_str(prefix);
        out.push_str(&body);
    }
    Ok(())
}

/// `%f` digits of a non-negative finite float (Ruby's `dtoa` mode 3).
fn fixed(a: f64, prec: usize, alt: bool) -> String {
    let (digits, decpt) = pfmt::dtoa::dtoa(a, 3, prec.min(i32::MAX as usize) as i32);
    let digit = |idx: i64| -> char {
        if idx >= 0 && (idx as usize) < digits.len() {
            digits[idx as usize] as char
        } else {
            '0'
        }
    };
    let decpt = i64::from(decpt);
    let mut out = String::with_capacity(prec + 24);
    if decpt > 0 {
        out.extend((0..decpt).map(digit));
    } else {
        out.push('0');
    }
    if prec > 0 || alt {
        out.push('.');
    }
    out.extend((decpt..decpt + prec as i64).map(digit));
    out
}

/// `%e` digits (`1.500000e+00`) of a non-negative finite float (`dtoa` mode 2).
fn exponential(a: f64, prec: usize, alt: bool) -> String {
    let (digits, decpt) = pfmt::dtoa::dtoa(a, 2, (prec + 1).min(i32::MAX as usize) as i32);
    exponential_form(&digits, decpt, prec + 1, alt)
}

/// `d.ddde+XX` of `ndig` digits (padded with zeros).
fn exponential_form(digits: &[u8], decpt: i32, ndig: usize, alt: bool) -> String {
    let mut out = String::with_capacity(ndig + 8);
    out.push(digits.first().map_or('0', |&c| c as char));
    if ndig > 1 || alt {
        out.push('.');
    }
    for i in 1..ndig {
        out.push(digits.get(i).map_or('0', |&c| c as char));
    }
    let exp = decpt - 1;
    let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    out
}

/// `%g` digits of a non-negative finite float (`dtoa` mode 2).
fn general(a: f64, prec: usize, alt: bool) -> String {
    let p = if prec == 0 { 1 } else { prec };
    let (mut digits, decpt) = pfmt::dtoa::dtoa(a, 2, p.min(i32::MAX as usize) as i32);
    if alt {
        digits.resize(digits.len().max(p), b'0');
    }
    let ndig = digits.len();
    if decpt <= -4 || i64::from(decpt) > p as i64 {
        return exponential_form(&digits, decpt, ndig, alt);
    }
    let mut out = String::with_capacity(ndig + 8);
    if decpt <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-decpt) as usize));
        out.extend(digits.iter().map(|&c| c as char));
    } else {
        let d = decpt as usize;
        if d >= ndig {
            out.extend(digits.iter().map(|&c| c as char));
            out.extend(std::iter::repeat_n('0', d - ndig));
            if alt {
                out.push('.');
            }
        } else {
            out.extend(digits[..d].iter().map(|&c| c as char));
            out.push('.');
            out.extend(digits[d..].iter().map(|&c| c as char));
        }
    }
    out
}

/// `%a` without the `0x` prefix: `1.8p+0`; the leading digit is 1 (subnormals normalised),
/// rounding to `prec` hex digits half to even.
fn hex_float(a: f64, prec: Option<usize>, alt: bool) -> String {
    if a == 0.0 {
        let mut s = String::from("0");
        match prec {
            Some(p) if p > 0 => {
                s.push('.');
                s.extend(std::iter::repeat_n('0', p));
            }
            _ if alt => s.push('.'),
            _ => {}
        }
        s.push_str("p+0");
        return s;
    }
    let bits = a.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let mut mant = bits & ((1u64 << 52) - 1);
    let mut exp;
    if raw_exp == 0 {
        // subnormal: normalise so that the leading 1 is implicit again
        exp = -1022;
        while mant & (1u64 << 52) == 0 {
            mant <<= 1;
            exp -= 1;
        }
        mant &= (1u64 << 52) - 1;
    } else {
        exp = raw_exp - 1023;
    }
    // hdtoa rounds with a floating-point addition: to 4 * prec bits of fraction up to 12
    // digits, to 51 bits (not 52) for 13 digits, not at all beyond
    let mut lead: u64 = 1;
    let mut frac = mant;
    let round_bits: Option<u32> = match prec {
        Some(p) if p <= 12 => Some(4 * p as u32),
        Some(13) => Some(51),
        _ => None,
    };
    if let Some(keep) = round_bits {
        let drop = 52 - keep;
        let kept = frac >> drop;
        let rest = frac & ((1u64 << drop) - 1);
        let half = 1u64 << (drop - 1);
        let odd = if keep == 0 { lead & 1 == 1 } else { kept & 1 == 1 };
        let mut kept = kept;
        if rest > half || (rest == half && odd) {
            kept += 1;
            if keep == 0 || kept >> keep != 0 {
                kept = 0;
                lead += 1;
            }
        }
        if lead == 2 {
            lead = 1;
            exp += 1;
        }
        frac = kept << drop;
    }
    let digits = match prec {
        Some(p) => p.min(13),
        None => 13,
    };
    let frac = frac >> (4 * (13 - digits));
    let mut s = String::with_capacity(24);
    let _ = write!(s, "{lead}");
    let mut frac_digits = if digits > 0 { format!("{frac:0digits$x}") } else { String::new() };
    match prec {
        None => {
            let trimmed = frac_digits.trim_end_matches('0').len();
            frac_digits.truncate(trimmed);
        }
        Some(p) if p > 13 => frac_digits.extend(std::iter::repeat_n('0', p - 13)),
        _ => {}
    }
    if !frac_digits.is_empty() || alt {
        s.push('.');
    }
    s.push_str(&frac_digits);
    let _ = write!(s, "p{}{}", if exp < 0 { '-' } else { '+' }, exp.abs());
    s
}


/// `to_s` of a format argument: Ruby's `to_s` of the 3.x value (Arrays and Hashes as
/// `inspect`).
fn to_s<'a>(arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
    match arg {
        Arg::Obj(v) => Ok(Cow::Owned(super::ruby_to_s(v))),
        other => ruby::to_s(other),
    }
}

/// `inspect` of a format argument.
fn inspect<'a>(arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
    match arg {
        Arg::Obj(v) => Ok(Cow::Owned(super::ruby_inspect(v))),
        other => ruby::inspect(other),
    }
}

/// Ruby's name of `true`, `false` and `nil` in conversion messages (`can't convert true into
/// Integer`).
fn special(arg: &Arg<'_>) -> Option<&'static str> {
    match arg {
        Arg::Obj(Value::Boolean(true)) => Some("true"),
        Arg::Obj(Value::Boolean(false)) => Some("false"),
        Arg::Obj(Value::Undef) => Some("nil"),
        _ => None,
    }
}

/// `Integer(arg)`.
fn to_integer(arg: &Arg<'_>) -> Result<RInt, FormatError> {
    match special(arg) {
        Some(name) => Err(err(format!("can't convert {name} into Integer"))),
        None => ruby::to_integer(arg),
    }
}

/// `Float(arg)`.
fn to_float(arg: &Arg<'_>) -> Result<f64, FormatError> {
    match special(arg) {
        Some(name) => Err(err(format!("can't convert {name} into Float"))),
        None => ruby::to_float(arg),
    }
}

/// `NUM2INT(arg)`.
fn num2int(arg: &Arg<'_>) -> Result<i64, FormatError> {
    match special(arg) {
        Some(name) => Err(err(format!("no implicit conversion of {name} into Integer"))),
        None => ruby::num2int(arg),
    }
}
