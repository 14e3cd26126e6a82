//! Ruby's `Kernel#format` (`sprintf.c` of Ruby 3.1), the one implementation of it in Poppet:
//!
//! - [`format(fmt, arg)`](fn@format), one argument: what Puppet's `StringConverter` calls
//!   with a format such as `'%#010x'` and the value (the converters of this crate);
//! - [`format_list(fmt, args, conv)`](format_list), any number of arguments: Puppet's 3.x
//!   `sprintf` function (`parser/functions/sprintf.rb`, in the `poppet` crate), whose
//!   arguments are Ruby objects converted as [`Conversions`] says.
//!
//! Puppet hands the whole format string to Ruby, so everything Ruby's `format` does is kept:
//! literal text around the directives, `%%`, unnumbered arguments (`too few arguments`),
//! `%1$d` positional arguments, `%<name>d` and `%{name}` names looked up in the one Hash
//! argument (`one hash required`, `key<name> not found`), `*` widths, and Ruby's own messages
//! (`malformed format string - %[`, `width too big`).
//!
//! | directive      | argument conversion (Ruby)          | output                               |
//! |----------------|-------------------------------------|--------------------------------------|
//! | `d i u`        | `Integer(arg)`                      | decimal                              |
//! | `x X o b B`    | `Integer(arg)`                      | base 16, 8, 2; negative values as two's complement `..f01` unless `+` or space |
//! | `f`            | integers exactly, else `Float(arg)` | fixed point                          |
//! | `e E g G a A`  | `Float(arg)`                        | C's `printf` forms, `Inf`, `NaN`     |
//! | `s`            | `arg.to_s`                          | precision cuts, width pads           |
//! | `p`            | `arg.inspect`                       | as `s`                               |
//! | `c`            | a one-character string, or `NUM2INT(arg)` as a code point | the character |
//!
//! Flags: `#` alternate form, `+` and space sign, `-` left adjust, `0` zero padding.

use std::borrow::Cow;
use std::fmt::Write;

use num_bigint::{BigInt, Sign};
use num_traits::ToPrimitive;

use puppet_types::Value;

use crate::error::FormatError;
use crate::ruby;

/// Widths and precisions beyond this are refused (`width too big`), where Ruby would try to
/// build strings of gigabytes.
pub const MAX_FIELD: i64 = 1 << 20;

/// The argument of a format: a Ruby object.
#[derive(Clone, Debug)]
pub enum Arg<'a> {
    /// A Ruby Integer (within i128).
    Int(i128),
    /// A Ruby Integer beyond i128 (the integer part of a large Float).
    Big(BigInt),
    Float(f64),
    /// A UTF-8 Ruby String.
    Str(Cow<'a, str>),
    /// An ASCII-8BIT Ruby String (a Binary's buffer).
    Bytes(&'a [u8]),
    /// Any other Ruby object (Timespan, SemVer, Sensitive, ...).
    Obj(&'a Value),
}

/// A Ruby Integer as the integer directives see it.
#[derive(Clone, Debug)]
pub enum RInt {
    Small(i128),
    Big(BigInt),
}

impl RInt {
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

    pub fn to_f64(&self) -> f64 {
        match self {
            RInt::Small(i) => *i as f64,
            RInt::Big(b) => b.to_f64().unwrap_or(f64::INFINITY),
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

/// How the directives convert an argument: `to_s` for `%s` (and `%{name}`), `inspect` for
/// `%p`, `Integer()` for the integer directives, `Float()` for the float ones, `NUM2INT` for
/// `%c` and `*`. Every method defaults to this crate's Ruby side of the values ([`ruby`]);
/// a caller whose objects Ruby sees otherwise (the 3.x `sprintf` function) overrides some.
pub trait Conversions {
    /// `arg.to_s`.
    fn to_s<'a>(&self, arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
        ruby::to_s(arg)
    }

    /// `arg.inspect`.
    fn inspect<'a>(&self, arg: &'a Arg<'_>) -> Result<Cow<'a, str>, FormatError> {
        ruby::inspect(arg)
    }

    /// `Integer(arg)`.
    fn to_integer(&self, arg: &Arg<'_>) -> Result<RInt, FormatError> {
        ruby::to_integer(arg)
    }

    /// `Float(arg)`.
    fn to_float(&self, arg: &Arg<'_>) -> Result<f64, FormatError> {
        ruby::to_float(arg)
    }

    /// `NUM2INT(arg)`.
    fn num2int(&self, arg: &Arg<'_>) -> Result<i64, FormatError> {
        ruby::num2int(arg)
    }
}

/// The conversions of [`ruby`], as `StringConverter` hands its values to `format`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RubyConversions;

impl Conversions for RubyConversions {}

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
        // `n` is at least 1
        match self.args.get((n as usize).wrapping_sub(1)) {
            Some(v) => Ok(v),
            None => Err(err("too few arguments")),
        }
    }

    /// `GETNAMEARG`: the value of `name` (with its brackets) in the one Hash argument (`None`:
    /// a key not found).
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

/// `Kernel#format(fmt, arg)`: one argument, converted as [`ruby`] converts it.
pub fn format(fmt: &str, arg: &Arg<'_>) -> Result<String, FormatError> {
    format_list(fmt, std::slice::from_ref(arg), &RubyConversions)
}

/// `Kernel#format(fmt, *args)`: any number of arguments, converted by `conv`; names
/// (`%<name>s`, `%{name}`) are looked up when `args` is one `Arg::Obj` Hash.
pub fn format_list<C: Conversions + ?Sized>(fmt: &str, list: &[Arg<'_>], conv: &C) -> Result<String, FormatError> {
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
        // the value of a `%<name>`
        let mut named_value: Option<&Value> = None;
        // The value of a directive: the hash entry it names, or the next argument.
        macro_rules! next_arg {
            ($slot:ident) => {
                match named_value {
                    Some(value) => {
                        $slot = Arg::Obj(value);
                        &$slot
                    }
                    None => take(&mut nextvalue, &mut args)?,
                }
            };
        }
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
                    let (close, value) = named_arg(fmt, p, &mut args, named_value.is_some() || nextvalue.is_some())?;
                    p = close;
                    if c == b'{' {
                        format_named_s(&mut out, value, conv, flags, width, prec)?;
                        break;
                    }
                    named_value = Some(value);
                    p += 1;
                    continue;
                }
                b'*' => {
                    check_for_width(flags)?;
                    flags |= FWIDTH;
                    let (w, np) = get_aster(b, p, &mut args, conv, "width")?;
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
                        let (pr, np) = get_aster(b, p, &mut args, conv, "precision")?;
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
                    let named;
                    let v = next_arg!(named);
                    if width > MAX_FIELD {
                        return Err(err("width too big"));
                    }
                    format_c(&mut out, v, conv, flags, width)?;
                    break;
                }
                b's' | b'p' => {
                    let named;
                    let v = next_arg!(named);
                    let s = if c == b'p' { conv.inspect(v)? } else { conv.to_s(v)? };
                    format_s(&mut out, &s, flags, width, prec)?;
                    break;
                }
                b'd' | b'i' | b'o' | b'x' | b'X' | b'b' | b'B' | b'u' => {
                    let named;
                    let v = next_arg!(named);
                    let iv = conv.to_integer(v)?;
                    format_int(&mut out, &iv, c, flags, width, prec)?;
                    break;
                }
                b'f' => {
                    let named;
                    let v = next_arg!(named);
                    match v {
                        Arg::Int(i) => format_f_int(&mut out, &RInt::Small(*i), flags, width, prec)?,
                        Arg::Big(bi) => format_f_int(&mut out, &RInt::Big(bi.clone()), flags, width, prec)?,
                        _ => {
                            let f = conv.to_float(v)?;
                            format_float(&mut out, f, c, flags, width, prec)?;
                        }
                    }
                    break;
                }
                b'g' | b'G' | b'e' | b'E' | b'a' | b'A' => {
                    let named;
                    let v = next_arg!(named);
                    let f = conv.to_float(v)?;
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

/// `%<name>` or `%{name}` from its opening bracket at `start` (`given`: the directive already
/// has a value): the position of the closing bracket and the value of the name. Out of line,
/// as names are rare and the main loop is hot.
#[cold]
#[inline(never)]
fn named_arg<'b>(
    fmt: &str,
    start: usize,
    args: &mut Args<'_, 'b>,
    given: bool,
) -> Result<(usize, &'b Value), FormatError> {
    let b = fmt.as_bytes();
    let term = if b[start] == b'<' { b'>' } else { b'}' };
    let close = match b[start..].iter().position(|&c| c == term) {
        Some(i) => start + i,
        None => return Err(err("malformed name - unmatched parenthesis")),
    };
    let name = &fmt[start..=close];
    let value = args.named(name)?.ok_or_else(|| err(format!("key{name} not found")))?;
    if term == b'>' && given {
        return Err(err(format!("named{name} after <{name}>")));
    }
    Ok((close, value))
}

/// `%{name}`: the value's `to_s`, formatted as `%s` (out of line, as [`named_arg`]).
#[cold]
#[inline(never)]
fn format_named_s<C: Conversions + ?Sized>(
    out: &mut String,
    value: &Value,
    conv: &C,
    flags: u32,
    width: i64,
    prec: i64,
) -> Result<(), FormatError> {
    let arg = Arg::Obj(value);
    let s = conv.to_s(&arg)?;
    format_s(out, &s, flags, width, prec)
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
fn get_aster<C: Conversions + ?Sized>(
    b: &[u8],
    p: usize,
    args: &mut Args<'_, '_>,
    conv: &C,
    what: &str,
) -> Result<(i64, usize), FormatError> {
    let t = p;
    let (n, np) = get_num(b, p + 1, 0, what)?;
    let (v, pos) = if b.get(np) == Some(&b'$') { (args.pos(n)?, np) } else { (args.next()?, t) };
    Ok((conv.num2int(v)?, pos))
}

/// The value of a directive without a name: its `N$`, or the next argument.
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
fn format_c<C: Conversions + ?Sized>(
    out: &mut String,
    v: &Arg<'_>,
    conv: &C,
    flags: u32,
    width: i64,
) -> Result<(), FormatError> {
    let ch: char = match ruby::check_string_type(v) {
        Some(s) => {
            let mut it = s.chars();
            match (it.next(), it.next()) {
                (Some(c), None) => c,
                _ => return Err(err("%c requires a character")),
            }
        }
        None => {
            let n = conv.num2int(v)?;
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
///
/// Inlined into the main loop by force, as [`format_int`] is: since the generic
/// [`format_list`] is instantiated in other crates too, LLVM stopped inlining them by itself
/// (measured), a cost on every `%s` and `%d`.
#[inline(always)]
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
#[inline(always)]
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
    let (digits, decpt) = crate::dtoa::dtoa(a, 3, prec.min(i32::MAX as usize) as i32);
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
    let (digits, decpt) = crate::dtoa::dtoa(a, 2, (prec + 1).min(i32::MAX as usize) as i32);
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
    let (mut digits, decpt) = crate::dtoa::dtoa(a, 2, p.min(i32::MAX as usize) as i32);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn f(fmt: &str, arg: Arg<'_>) -> String {
        match format(fmt, &arg) {
            Ok(s) => s,
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn integers() {
        let cases = [
            ("%x", -255, "..f01"),
            ("%#x", -255, "0x..f01"),
            ("%08x", -255, "..ffff01"),
            ("%+08x", -255, "-00000ff"),
            ("%.5x", -255, "..f01"),
            ("% x", 255, " ff"),
            ("%#o", 0, "0"),
            ("%#.3o", 8, "010"),
            ("%.0d", 0, ""),
            ("%08.3d", 5, "     005"),
            ("%-08d", 5, "5       "),
            ("%x", -16, "..f0"),
            ("%x", -1, "..f"),
            ("%o", -2, "..76"),
            ("%b", -2, "..10"),
            ("%#b", 5, "0b101"),
            ("%+d", 5, "+5"),
        ];
        for (fmt, v, want) in cases {
            assert_eq!(f(fmt, Arg::Int(v)), want, "{fmt} {v}");
        }
    }

    #[test]
    fn floats() {
        let cases = [
            ("%f", -0.0, "-0.000000"),
            ("%g", 100000.0, "100000"),
            ("%g", 1000000.0, "1e+06"),
            ("%g", 0.00001, "1e-05"),
            ("%#g", 1.0, "1.00000"),
            ("%#.0e", 0.0, "0.e+00"),
            ("%010.2f", -1.23456, "-000001.23"),
            ("%.0g", 123.0, "1e+02"),
            ("%#.0g", 123.0, "1.e+02"),
            ("%a", 5e-324, "0x1p-1074"),
            ("%.1a", 1.96875, "0x1.0p+1"),
            ("%.0a", 1.5, "0x1p+1"),
            ("%.0a", 3.0, "0x1p+2"),
            ("%020a", 3.0, "0x0000000000001.8p+1"),
            ("%-+20.3A", 1.23456, "+0X1.3C1P+0         "),
            ("%.14a", 0.1, "0x1.999999999999a0p-4"),
            ("%010f", f64::NAN, "       NaN"),
        ];
        for (fmt, v, want) in cases {
            assert_eq!(f(fmt, Arg::Float(v)), want, "{fmt} {v}");
        }
    }

    #[test]
    fn errors() {
        assert_eq!(f("%[d", Arg::Int(1)), "!! malformed format string - %[");
        assert_eq!(f("%{d", Arg::Int(1)), "!! malformed name - unmatched parenthesis");
        assert_eq!(f("%99999999999d", Arg::Int(1)), "!! width too big");
        assert_eq!(f("%.99999999999d", Arg::Int(1)), "!! precision too big");
        assert_eq!(f("%x\n%d", Arg::Int(1)), "!! too few arguments");
        assert_eq!(f("abc%", Arg::Int(1)), "!! incomplete format specifier; use %% (double %) instead");
        assert_eq!(f("%<a>s", Arg::Int(1)), "!! one hash required");
        assert_eq!(f("%s %<a>s", Arg::Int(1)), "!! named<a> after unnumbered(1)");
    }

    fn fl(fmt: &str, args: &[Arg<'_>]) -> String {
        match format_list(fmt, args, &RubyConversions) {
            Ok(s) => s,
            Err(e) => format!("!! {}", e.message),
        }
    }

    #[test]
    fn argument_lists() {
        let s = |v: &'static str| Arg::Str(Cow::Borrowed(v));
        assert_eq!(fl("%s-%s", &[s("a"), s("b")]), "a-b");
        assert_eq!(fl("%2$s %1$s %2$s", &[s("a"), s("b")]), "b a b");
        let widths = [Arg::Int(5), Arg::Int(42), Arg::Int(6), Arg::Int(1), Arg::Float(2.25)];
        assert_eq!(fl("%*d|%-*.*f", &widths), "   42|2.2   ");
        assert_eq!(fl("%s", &[s("a"), s("b")]), "a");
        assert_eq!(fl("100%%", &[]), "100%");
        assert_eq!(fl("%s %s", &[s("a")]), "!! too few arguments");
        assert_eq!(fl("%s", &[]), "!! too few arguments");
        assert_eq!(fl("%3$s", &[s("a")]), "!! too few arguments");
        assert_eq!(fl("%0$s", &[s("a")]), "!! malformed format string - %$");
        assert_eq!(fl("%*0$d", &[Arg::Int(1)]), "!! invalid index - 0$");
        assert_eq!(fl("%1$s %s", &[s("a")]), "!! unnumbered(1) mixed with numbered");
        assert_eq!(fl("%s %1$s", &[s("a")]), "!! numbered(1) after unnumbered(1)");
        assert_eq!(fl("%1$1$s", &[s("a")]), "!! value given twice - 1$");
        assert_eq!(fl("%<a>s", &[s("a"), s("b")]), "!! one hash required");
    }

    #[test]
    fn names() {
        let h = puppet_types::literal::read("{a => 'x', b => 2}").unwrap_or_else(|e| panic!("{}", e.message));
        let args = [Arg::Obj(&h)];
        assert_eq!(fl("%<a>s and %<b>03d", &args), "x and 002");
        assert_eq!(fl("%{b}|%-4{a}|%.0{a}|", &args), "2|x   ||");
        assert_eq!(fl("%<c>s", &args), "!! key<c> not found");
        assert_eq!(fl("%{c}", &args), "!! key{c} not found");
        assert_eq!(fl("%<a>s %s", &args), "!! unnumbered(1) mixed with named");
        assert_eq!(fl("%<a>s %1$s", &args), "!! numbered(1) after named");
        assert_eq!(fl("%1$s %<a>s", &args), "!! named<a> after numbered");
        assert_eq!(fl("%<a", &args), "!! malformed name - unmatched parenthesis");
    }
}
