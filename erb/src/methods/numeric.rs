//! Integer's and Float's methods, with Ruby's arithmetic: integer division and modulo round
//! towards negative infinity, integer results beyond 64 bits (Ruby's bignums) are
//! unsupported, float division by zero is infinite.

use super::{arity, int_arg, Found};
use crate::interp::{raise, unsupported, Block, Interp, R};
use crate::value::RValue;

fn f(v: &RValue) -> f64 {
    match v {
        RValue::Int(i) => *i as f64,
        RValue::Float(x) => *x,
        _ => 0.0,
    }
}

fn overflow<T>() -> R<T> {
    unsupported("integers beyond 64 bits (Ruby's bignums)")
}

/// The error of an arithmetic operator given a non-number.
fn coerce_error<T>(it: &mut Interp<'_>, recv: &RValue, other: &RValue) -> R<T> {
    let shown = match other {
        RValue::Nil => "nil".to_string(),
        RValue::Bool(b) => b.to_string(),
        o => o.class_name(),
    };
    let _ = it;
    raise("TypeError", format!("{shown} can't be coerced into {}", recv.class_name()))
}

fn is_num(v: &RValue) -> bool {
    matches!(v, RValue::Int(_) | RValue::Float(_))
}

pub fn call(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> Found {
    if let ("pow", [RValue::Int(e), RValue::Int(m)], RValue::Int(b)) = (name, args, recv) {
        return Some(modular_pow(*b, *e, *m));
    }
    let binary =
        matches!(name, "+" | "-" | "*" | "/" | "%" | "modulo" | "**" | "pow" | "div" | "fdiv" | "divmod" | "remainder");
    if binary {
        if let Err(e) = arity(args, 1, 1) {
            return Some(Err(e));
        }
        if !is_num(&args[0]) {
            return Some(coerce_error(it, recv, &args[0]));
        }
        return Some(arith(recv, name, &args[0]));
    }
    Some(match name {
        "-@" => match recv {
            RValue::Int(i) => i.checked_neg().map(RValue::Int).map_or_else(overflow, Ok),
            _ => Ok(RValue::Float(-f(recv))),
        },
        "+@" => Ok(recv.clone()),
        "==" | "===" | "equal?" => arity(args, 1, 1).map(|_| {
            RValue::Bool(match (recv, &args[0]) {
                (RValue::Int(a), RValue::Int(b)) => a == b,
                (a, b) if is_num(b) => f(a) == f(b),
                _ => false,
            })
        }),
        "eql?" => arity(args, 1, 1).map(|_| RValue::Bool(recv.key() == args[0].key())),
        "<" | "<=" | ">" | ">=" | "between?" | "clamp" => super::string::comparable(it, recv, name, args),
        "<=>" => arity(args, 1, 1).map(|_| match (recv, &args[0]) {
            (RValue::Int(a), RValue::Int(b)) => RValue::Int(a.cmp(b) as i64),
            (a, b) if is_num(b) => f(a).partial_cmp(&f(b)).map_or(RValue::Nil, |o| RValue::Int(o as i64)),
            _ => RValue::Nil,
        }),
        "abs" | "magnitude" => match recv {
            RValue::Int(i) => i.checked_abs().map(RValue::Int).map_or_else(overflow, Ok),
            _ => Ok(RValue::Float(f(recv).abs())),
        },
        "to_i" | "to_int" | "truncate" if args.is_empty() => match recv {
            RValue::Int(_) => Ok(recv.clone()),
            _ => float_to_int(f(recv).trunc()),
        },
        "to_f" => Ok(RValue::Float(f(recv))),
        "to_s" | "inspect" => arity(args, 0, 1).and_then(|_| match (recv, args.first()) {
            (RValue::Int(i), Some(base)) => {
                let base = int_arg(base)?;
                if !(2..=36).contains(&base) {
                    return raise("ArgumentError", format!("invalid radix {base}"));
                }
                Ok(RValue::str(to_radix(*i, base as u32)))
            }
            _ => Ok(RValue::str(it.to_s(recv)?)),
        }),
        "round" | "floor" | "ceil" | "truncate" => arity(args, 0, 2).and_then(|_| round(recv, name, args)),
        "chr" => match recv {
            RValue::Int(i @ 0..=127) => Ok(RValue::str(char::from(*i as u8).to_string())),
            RValue::Int(128..=255) => unsupported("`Integer#chr` of bytes beyond ASCII (binary strings)"),
            RValue::Int(i) => raise("RangeError", format!("{i} out of char range")),
            _ => return None,
        },
        "ord" if matches!(recv, RValue::Int(_)) => Ok(recv.clone()),
        "succ" | "next" | "pred" if matches!(recv, RValue::Int(_)) => {
            let RValue::Int(i) = recv else { return None };
            let r = if name == "pred" { i.checked_sub(1) } else { i.checked_add(1) };
            r.map(RValue::Int).map_or_else(overflow, Ok)
        }
        "even?" | "odd?" if matches!(recv, RValue::Int(_)) => {
            let RValue::Int(i) = recv else { return None };
            Ok(RValue::Bool((i % 2 == 0) == (name == "even?")))
        }
        "zero?" => Ok(RValue::Bool(f(recv) == 0.0)),
        "positive?" => Ok(RValue::Bool(f(recv) > 0.0)),
        "negative?" => Ok(RValue::Bool(f(recv) < 0.0)),
        "nonzero?" => Ok(if f(recv) == 0.0 { RValue::Nil } else { recv.clone() }),
        "integer?" => Ok(RValue::Bool(matches!(recv, RValue::Int(_)))),
        "finite?" => Ok(RValue::Bool(f(recv).is_finite())),
        "infinite?" => Ok(match recv {
            RValue::Float(x) if x.is_infinite() => RValue::Int(if *x > 0.0 { 1 } else { -1 }),
            _ => RValue::Nil,
        }),
        "nan?" if matches!(recv, RValue::Float(_)) => Ok(RValue::Bool(f(recv).is_nan())),
        "gcd" | "lcm" => arity(args, 1, 1).and_then(|_| match (recv, &args[0]) {
            (RValue::Int(a), RValue::Int(b)) => {
                let g = gcd(a.unsigned_abs(), b.unsigned_abs());
                if name == "gcd" {
                    i64::try_from(g).map(RValue::Int).or_else(|_| overflow())
                } else {
                    let Some(q) = a.unsigned_abs().checked_div(g) else { return Ok(RValue::Int(0)) };
                    q.checked_mul(b.unsigned_abs())
                        .and_then(|l| i64::try_from(l).ok())
                        .map(RValue::Int)
                        .map_or_else(overflow, Ok)
                }
            }
            _ => raise("TypeError", "not an integer"),
        }),
        "&" | "|" | "^" | "<<" | ">>" if matches!(recv, RValue::Int(_)) => arity(args, 1, 1).and_then(|_| {
            let RValue::Int(a) = recv else { return Ok(RValue::Nil) };
            let b = int_arg(&args[0])?;
            Ok(RValue::Int(match name {
                "&" => a & b,
                "|" => a | b,
                "^" => a ^ b,
                "<<" if (0..63).contains(&b) => {
                    a.checked_shl(b as u32).filter(|r| r >> b == *a).map_or_else(overflow, Ok)?
                }
                ">>" if (0..64).contains(&b) => a >> b,
                ">>" if b >= 64 => {
                    if *a < 0 {
                        -1
                    } else {
                        0
                    }
                }
                _ => return overflow(),
            }))
        }),
        "~" if matches!(recv, RValue::Int(_)) => {
            let RValue::Int(a) = recv else { return None };
            Ok(RValue::Int(!a))
        }
        "times" | "upto" | "downto" | "step" => iterate(it, recv, name, args, block),
        "digits" => match recv {
            RValue::Int(i) if *i >= 0 && args.is_empty() => {
                let mut n = *i;
                let mut out = vec![RValue::Int(n % 10)];
                n /= 10;
                while n > 0 {
                    out.push(RValue::Int(n % 10));
                    n /= 10;
                }
                Ok(RValue::array(out))
            }
            RValue::Int(i) if *i < 0 => raise("Math::DomainError", "out of domain"),
            _ => unsupported("`Integer#digits` with a base"),
        },
        "bit_length" => match recv {
            RValue::Int(i) => {
                Ok(RValue::Int(i64::from(64 - if *i < 0 { (!i).leading_zeros() } else { i.leading_zeros() })))
            }
            _ => return None,
        },
        "size" if matches!(recv, RValue::Int(_)) => Ok(RValue::Int(8)),
        "coerce" | "rationalize" | "to_r" | "to_c" | "hash" => unsupported(format!("`{}#{name}`", recv.class_name())),
        _ => return None,
    })
}

fn float_to_int(x: f64) -> R<RValue> {
    if x.is_nan() {
        return raise("FloatDomainError", "NaN");
    }
    if x.is_infinite() {
        return raise("FloatDomainError", if x > 0.0 { "Infinity" } else { "-Infinity" });
    }
    if x.abs() >= 9.2e18 {
        return overflow();
    }
    Ok(RValue::Int(x as i64))
}

fn arith(recv: &RValue, op: &str, other: &RValue) -> R<RValue> {
    if let (RValue::Int(a), RValue::Int(b)) = (recv, other) {
        let (a, b) = (*a, *b);
        let r = match op {
            "+" => a.checked_add(b),
            "-" => a.checked_sub(b),
            "*" => a.checked_mul(b),
            "/" | "div" => {
                if b == 0 {
                    return raise("ZeroDivisionError", "divided by 0");
                }
                a.checked_div(b).map(|q| if a % b != 0 && (a < 0) != (b < 0) { q - 1 } else { q })
            }
            "%" | "modulo" => {
                if b == 0 {
                    return raise("ZeroDivisionError", "divided by 0");
                }
                let m = a.checked_rem(b).unwrap_or(0);
                Some(if m != 0 && (m < 0) != (b < 0) { m + b } else { m })
            }
            "remainder" => {
                if b == 0 {
                    return raise("ZeroDivisionError", "divided by 0");
                }
                Some(a.checked_rem(b).unwrap_or(0))
            }
            "**" | "pow" => {
                if b < 0 {
                    return unsupported("integer powers with negative exponents (Ruby's rationals)");
                }
                u32::try_from(b).ok().and_then(|e| a.checked_pow(e))
            }
            "fdiv" => return Ok(RValue::Float(a as f64 / b as f64)),
            "divmod" => {
                let q = arith(recv, "/", other)?;
                let m = arith(recv, "%", other)?;
                return Ok(RValue::array(vec![q, m]));
            }
            _ => None,
        };
        return r.map(RValue::Int).map_or_else(overflow, Ok);
    }
    let (a, b) = (f(recv), f(other));
    Ok(match op {
        "+" => RValue::Float(a + b),
        "-" => RValue::Float(a - b),
        "*" => RValue::Float(a * b),
        "/" | "fdiv" => RValue::Float(a / b),
        "%" | "modulo" => {
            if b == 0.0 {
                return raise("ZeroDivisionError", "divided by 0");
            }
            let m = a % b;
            RValue::Float(if m != 0.0 && (m < 0.0) != (b < 0.0) { m + b } else { m })
        }
        "remainder" => RValue::Float(a % b),
        "**" | "pow" => {
            if a < 0.0 && b.fract() != 0.0 {
                return unsupported("negative numbers to fractional powers (Ruby's complex numbers)");
            }
            RValue::Float(a.powf(b))
        }
        "div" => {
            if b == 0.0 {
                return raise("ZeroDivisionError", "divided by 0");
            }
            return float_to_int((a / b).floor());
        }
        "divmod" => {
            if b == 0.0 {
                return raise("ZeroDivisionError", "divided by 0");
            }
            let q = (a / b).floor();
            RValue::array(vec![float_to_int(q)?, RValue::Float(a - b * q)])
        }
        _ => return unsupported(format!("`{op}`")),
    })
}

fn round(recv: &RValue, name: &str, args: &[RValue]) -> R<RValue> {
    let digits = match args.first() {
        Some(RValue::Hash(_)) | None => 0,
        Some(d) => int_arg(d)?,
    };
    if args.iter().any(|a| matches!(a, RValue::Hash(_))) {
        return unsupported("`round` with `half:`");
    }
    match recv {
        RValue::Int(i) => {
            if digits >= 0 {
                return Ok(recv.clone());
            }
            let p = 10i64.checked_pow((-digits) as u32);
            let Some(p) = p else { return Ok(RValue::Int(0)) };
            let q = i.div_euclid(p);
            let r = i.rem_euclid(p);
            let down = q * p;
            Ok(RValue::Int(match name {
                "floor" => down,
                "ceil" => {
                    if r == 0 {
                        down
                    } else {
                        down + p
                    }
                }
                "truncate" => (i / p) * p,
                _ => {
                    if r * 2 >= p && *i >= 0 || r * 2 > p {
                        down + p
                    } else {
                        down
                    }
                }
            }))
        }
        _ => {
            let x = f(recv);
            let op = |v: f64| match name {
                "floor" => v.floor(),
                "ceil" => v.ceil(),
                "truncate" => v.trunc(),
                _ => v.round(),
            };
            if digits > 0 {
                if !x.is_finite() || digits >= 17 {
                    return Ok(RValue::Float(x));
                }
                let s = 10f64.powi(digits as i32);
                let mut r = op(x * s) / s;
                if name == "round" {
                    // Ruby's `round_half_up` correction for products that lost the half
                    let xs = x * s;
                    let fl = xs.round();
                    if (fl + 0.5) / s <= x && x > 0.0 {
                        r = (fl + 1.0) / s;
                    }
                }
                return Ok(RValue::Float(r));
            }
            if digits < 0 {
                let p = 10f64.powi((-digits) as i32);
                return float_to_int(op(x / p) * p);
            }
            float_to_int(op(x))
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn to_radix(i: i64, base: u32) -> String {
    if i == 0 {
        return "0".into();
    }
    let mut n = i.unsigned_abs();
    let mut digits = Vec::new();
    while n > 0 {
        digits.push(std::char::from_digit((n % u64::from(base)) as u32, base).unwrap_or('?'));
        n /= u64::from(base);
    }
    if i < 0 {
        digits.push('-');
    }
    digits.iter().rev().collect()
}

fn iterate(it: &mut Interp<'_>, recv: &RValue, name: &str, args: &[RValue], block: Option<&Block>) -> R<RValue> {
    let Some(b) = block else { return unsupported(format!("`{name}` without a block (enumerators)")) };
    match (name, recv) {
        ("times", RValue::Int(n)) => {
            arity(args, 0, 0)?;
            for i in 0..*n {
                it.step()?;
                it.yield1(b, RValue::Int(i))?;
            }
            Ok(recv.clone())
        }
        ("upto" | "downto", RValue::Int(from)) => {
            arity(args, 1, 1)?;
            let to = int_arg(&args[0])?;
            if name == "upto" {
                for i in *from..=to {
                    it.step()?;
                    it.yield1(b, RValue::Int(i))?;
                }
            } else {
                for i in (to..=*from).rev() {
                    it.step()?;
                    it.yield1(b, RValue::Int(i))?;
                }
            }
            Ok(recv.clone())
        }
        ("step", RValue::Int(from)) if args.iter().all(|a| matches!(a, RValue::Int(_))) => {
            arity(args, 1, 2)?;
            let to = int_arg(&args[0])?;
            let by = match args.get(1) {
                Some(s) => int_arg(s)?,
                None => 1,
            };
            if by == 0 {
                return raise("ArgumentError", "step can't be 0");
            }
            let mut i = *from;
            while (by > 0 && i <= to) || (by < 0 && i >= to) {
                it.step()?;
                it.yield1(b, RValue::Int(i))?;
                let Some(next) = i.checked_add(by) else { break };
                i = next;
            }
            Ok(recv.clone())
        }
        ("step", RValue::Int(_) | RValue::Float(_)) => {
            arity(args, 1, 2)?;
            let num = |v: &RValue| match v {
                RValue::Int(i) => Ok(*i as f64),
                RValue::Float(x) => Ok(*x),
                other => raise(
                    "ArgumentError",
                    format!("comparison of {} with {} failed", recv.class_name(), other.class_name()),
                ),
            };
            let unit = match args.get(1) {
                Some(u) => num(u)?,
                None => 1.0,
            };
            for x in float_step(f(recv), num(&args[0])?, unit, false)? {
                it.step()?;
                it.yield1(b, RValue::Float(x))?;
            }
            Ok(recv.clone())
        }
        _ => unsupported(format!("`{}#{name}` with these arguments", recv.class_name())),
    }
}

/// Ruby's `ruby_float_step`: the values from `beg` to `end` by `unit`, their count rounded
/// against floating-point error, the last one clamped to `end`.
pub fn float_step(beg: f64, end: f64, unit: f64, exclusive: bool) -> R<Vec<f64>> {
    if unit == 0.0 {
        return raise("ArgumentError", "step can't be 0");
    }
    let n = (end - beg) / unit;
    let err = ((beg.abs() + end.abs() + (end - beg).abs()) / unit.abs() * f64::EPSILON).min(0.5);
    let mut out = Vec::new();
    if unit.is_infinite() {
        if n >= 0.0 {
            out.push(beg);
        }
        return Ok(out);
    }
    let count = if exclusive {
        if n <= 0.0 {
            return Ok(out);
        }
        let c = if n < 1.0 { 0.0 } else { (n - err).floor() };
        let c = if exclusive && (c * unit + beg - end).abs() < f64::EPSILON { c - 1.0 } else { c };
        c + 1.0
    } else {
        if n < 0.0 {
            return Ok(out);
        }
        (n + err).floor() + 1.0
    };
    if count > 10_000_000.0 {
        return unsupported("stepping through more than 10000000 values");
    }
    for i in 0..count as i64 {
        let mut d = i as f64 * unit + beg;
        if (unit >= 0.0 && end < d) || (unit < 0.0 && d < end) {
            d = end;
        }
        out.push(d);
    }
    Ok(out)
}

/// `Integer(x)` / `Integer(x, base)`.
pub fn kernel_integer(it: &mut Interp<'_>, args: &[RValue]) -> R<RValue> {
    match &args[0] {
        RValue::Int(_) => Ok(args[0].clone()),
        RValue::Float(x) => float_to_int(x.trunc()),
        RValue::Str(s) => {
            let text = s.s.borrow().clone();
            let base = match args.get(1) {
                Some(b) => Some(int_arg(b)? as u32),
                None => None,
            };
            match poppet_ruby::kernel::integer(&text, base) {
                Some(n) => i64::try_from(n).map(RValue::Int).or_else(|_| overflow()),
                None => {
                    let shown = it.inspect(&args[0])?;
                    raise("ArgumentError", format!("invalid value for Integer(): {shown}"))
                }
            }
        }
        RValue::Nil => raise("TypeError", "can't convert nil into Integer"),
        other => raise("TypeError", format!("can't convert {} into Integer", other.class_name())),
    }
}

/// `Float(x)`.
pub fn kernel_float(it: &mut Interp<'_>, v: &RValue) -> R<RValue> {
    match v {
        RValue::Int(i) => Ok(RValue::Float(*i as f64)),
        RValue::Float(_) => Ok(v.clone()),
        RValue::Str(s) => {
            let text = s.s.borrow().clone();
            match poppet_ruby::kernel::float(&text) {
                Some(x) => Ok(RValue::Float(x)),
                None => {
                    let shown = it.inspect(v)?;
                    raise("ArgumentError", format!("invalid value for Float(): {shown}"))
                }
            }
        }
        RValue::Nil => raise("TypeError", "can't convert nil into Float"),
        other => raise("TypeError", format!("can't convert {} into Float", other.class_name())),
    }
}

/// `b.pow(e, m)`: modular exponentiation.
fn modular_pow(b: i64, e: i64, m: i64) -> R<RValue> {
    if e < 0 {
        return raise("RangeError", "2nd argument not allowed to be negative when 3rd argument specified");
    }
    if m == 0 {
        return raise("ZeroDivisionError", "divided by 0");
    }
    let modulus = i128::from(m);
    let (mut base, mut exp) = (i128::from(b).rem_euclid(modulus), e);
    let mut result: i128 = 1i128.rem_euclid(modulus);
    while exp > 0 {
        if exp & 1 == 1 {
            result = (result * base).rem_euclid(modulus);
        }
        base = (base * base).rem_euclid(modulus);
        exp >>= 1;
    }
    // the result takes the modulus's sign, as `%` does
    if m < 0 && result > 0 {
        result += modulus;
    }
    Ok(RValue::Int(result as i64))
}
