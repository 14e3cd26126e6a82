//! puppetlabs-stdlib's functions of strings, numbers and conversions (`bool2str`,
//! `str2bool`, `dirname`, `shell_escape`, `to_json`, `to_yaml`, `fqdn_rand_string`, ...).

use puppet_types::Value;

use super::{v3, v4, Port};

use crate::error::{fail, Eval};
use crate::eval::Evaluator;
use crate::functions::{ruby, Call};

pub static PORTS: &[Port] = &[
    v3("stdlib", "str2bool", -1, str2bool),
    v3("stdlib", "bool2str", -1, bool2str),
    v3("stdlib", "basename", -1, basename),
    v3("stdlib", "dirname", -1, dirname),
    v3("stdlib", "bool2num", -1, bool2num),
    v3("stdlib", "num2bool", -1, num2bool),
    v3("stdlib", "fqdn_rotate", -1, |ev, c| fqdn_rotate(ev, c, Legacy::V3)),
    v4("stdlib", "fqdn_rotate", SHIM, |ev, c| shim(ev, c, "fqdn_rotate")),
    v4("stdlib", "stdlib::fqdn_rotate", FQDN_ROTATE, |ev, c| fqdn_rotate(ev, c, Legacy::V4)),
    v3("stdlib", "fqdn_rand_string", -2, |ev, c| fqdn_rand_string(ev, c, Legacy::V3)),
    v4("stdlib", "fqdn_rand_string", SHIM, |ev, c| shim(ev, c, "fqdn_rand_string")),
    v4(
        "stdlib",
        "stdlib::fqdn_rand_string",
        &["Integer[1] $length, Optional[String] $charset?, Any *$seed"],
        |ev, c| fqdn_rand_string(ev, c, Legacy::V4),
    ),
    v3("stdlib", "seeded_rand", 2, |ev, c| seeded_rand(ev, c, Legacy::V3)),
    v4("stdlib", "seeded_rand", SHIM, |ev, c| shim(ev, c, "seeded_rand")),
    v4("stdlib", "stdlib::seeded_rand", &["Integer[1] $max, String $seed"], |ev, c| seeded_rand(ev, c, Legacy::V4)),
    v4("stdlib", "seeded_rand_string", SHIM, |ev, c| {
        real_or_shim(ev, c, "seeded_rand_string", SEEDED_RAND_STRING, seeded_rand_string)
    }),
    v4("stdlib", "stdlib::seeded_rand_string", SEEDED_RAND_STRING, seeded_rand_string),
    v4("stdlib", "shell_escape", SHIM, |ev, c| real_or_shim(ev, c, "shell_escape", &["Any $string"], shell_escape)),
    v4("stdlib", "stdlib::shell_escape", &["Any $string"], shell_escape),
    v3("stdlib", "shell_join", -1, shell_join),
    v3("stdlib", "shell_split", -1, shell_split),
    v3("stdlib", "dos2unix", 1, |_, c| line_endings(c, "dos2unix", "\n")),
    v3("stdlib", "unix2dos", 1, |_, c| line_endings(c, "unix2dos", "\r\n")),
    v3("stdlib", "swapcase", -1, swapcase),
    v3("stdlib", "squeeze", -1, squeeze),
    v3("stdlib", "regexpescape", -1, regexpescape),
    v3("stdlib", "base64", -1, base64),
    v4(
        "stdlib",
        "stdlib::start_with",
        &["String $test_string, Variant[String[1],Array[String[1], 1]] $prefixes"],
        |_, c| affix(c, |s, a| s.starts_with(a)),
    ),
    v4(
        "stdlib",
        "stdlib::end_with",
        &["String $test_string, Variant[String[1],Array[String[1], 1]] $suffixes"],
        |_, c| affix(c, |s, a| s.ends_with(a)),
    ),
    v4("stdlib", "stdlib::extname", &["String $filename"], |_, c| {
        Ok(Value::from(file_extname(c.arg(0).as_str().unwrap_or_default())))
    }),
    v4("stdlib", "stdlib::crc32", DIGESTED, |_, c| {
        Ok(Value::from(format!("{:x}", crc32fast::hash(digested_text(&c.arg(0)).as_bytes())).as_str()))
    }),
    v4("stdlib", "stdlib::sha256", DIGESTED, |_, c| Ok(Value::from(sha256_hex(&digested_text(&c.arg(0))).as_str()))),
    v4("stdlib", "to_json", SHIM, |ev, c| real_or_shim(ev, c, "to_json", &["Any $data"], to_json)),
    v4("stdlib", "stdlib::to_json", &["Any $data"], |ev, c| rewrap_sensitive(ev, c, to_json)),
    v4("stdlib", "to_json_pretty", SHIM, |ev, c| real_or_shim(ev, c, "to_json_pretty", TO_JSON_PRETTY, to_json_pretty)),
    v4("stdlib", "stdlib::to_json_pretty", TO_JSON_PRETTY, |ev, c| rewrap_sensitive(ev, c, to_json_pretty)),
];

const TO_JSON_PRETTY: &[&str] = &["Variant[Hash, Array] $data, Optional[Boolean] $skip_undef?, Struct[{indent => Optional[String], space => Optional[String], space_before => Optional[String], object_nl => Optional[String], array_nl => Optional[String], allow_nan => Optional[Boolean], max_nesting => Optional[Integer[-1,default]]}] $opts?"];

const DIGESTED: &[&str] = &["Variant[ScalarData, Sensitive[ScalarData], Binary, Sensitive[Binary]] $my_data"];

/// Which of a function's two stdlib implementations a port runs: the 3.x function of stdlib
/// 8.5.0, which checks its arguments itself, or 9.7.0's 4.x one, with its types.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Legacy {
    V3,
    V4,
}

/// The dispatch of stdlib 9.7.0's deprecated 4.x functions ([`shim`]).
pub(super) const SHIM: &[&str] = &["Any *$args"];
const FQDN_ROTATE: &[&str] =
    &["String $input, Variant[Integer,String] *$seeds", "Array $input, Variant[Integer,String] *$seeds"];
const SEEDED_RAND_STRING: &[&str] = &["Integer[1] $length, String $seed, String[2] $charset?"];

/// stdlib 9.7.0's deprecated global names of its `stdlib::` functions (`fqdn_rotate`,
/// `to_json`, ...): the deprecation warning (`deprecation(name, message, false)`), then the
/// `stdlib::` function with the same arguments.
pub(super) fn shim(ev: &mut Evaluator, call: Call, name: &str) -> Eval<Value> {
    let message = format!("This function is deprecated, please use stdlib::{name} instead.");
    let args = vec![Value::from(name), Value::from(message.as_str()), Value::Boolean(false)];
    ev.call_function_inner("deprecation", args, None, call.at)?;
    ev.call_function_inner(&format!("stdlib::{name}"), call.args, call.block, call.at)
}

/// A 4.x function of stdlib 8.5.0 that 9.x made a deprecated [`shim`]: its port's dispatch
/// takes anything (the shim's), so with stdlib 8 the arguments are checked here against
/// the 8.5.0 function's own `dispatches` (Puppet's messages) before `real` runs.
pub(super) fn real_or_shim(
    ev: &mut Evaluator,
    call: Call,
    name: &str,
    dispatches: &[&str],
    real: fn(&mut Evaluator, Call) -> Eval<Value>,
) -> Eval<Value> {
    if super::stdlib_9(ev) {
        return shim(ev, call, name);
    }
    let dispatch = super::select_dispatch(name, dispatches, &call.args, call.block.as_ref())?;
    real(ev, Call { dispatch, ..call })
}

// ---- booleans ---------------------------------------------------------------------------------

/// `str2bool(string)`: a boolean as it is; a string is `true` where one of its lines is `1`,
/// `t`, `y`, `true` or `yes` (any case), `false` where one is empty, `0`, `f`, `n`, `false`,
/// `no`, `undef` or `undefined` (the Ruby's `case` of line-anchored patterns, the empty line
/// tried first).
fn str2bool(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(first) = call.args.first() else {
        return Err(fail("str2bool(): Wrong number of arguments given (0 for 1)"));
    };
    Ok(Value::Boolean(str2bool_of(first)?))
}

/// stdlib's `str2bool` of one value (also `bool2num`'s, whose messages name `str2bool()`).
fn str2bool_of(value: &Value) -> Eval<bool> {
    let s = match value {
        Value::Boolean(b) => return Ok(*b),
        Value::String(s) => s,
        _ => return Err(fail("str2bool(): Requires string to work with")),
    };
    let lines = ruby_lines(s);
    let any = |words: &[&str], fold: bool| {
        lines.iter().any(|l| words.iter().any(|w| if fold { l.eq_ignore_ascii_case(w) } else { *l == *w }))
    };
    if lines.iter().any(|l| l.is_empty()) {
        Ok(false)
    } else if any(&["1", "t", "y", "true", "yes"], true) {
        Ok(true)
    } else if any(&["0", "f", "n", "false", "no"], true) || any(&["undef", "undefined"], false) {
        Ok(false)
    } else {
        Err(fail("str2bool(): Unknown type of boolean given"))
    }
}

/// The lines a Ruby regexp's `^...$` can match whole: the text between line feeds, a final
/// line feed ending the last line (`"a\n"` is one line, `""` one empty line).
fn ruby_lines(s: &str) -> Vec<&str> {
    s.strip_suffix('\n').unwrap_or(s).split('\n').collect()
}

/// `bool2str(bool, [true_string, false_string])`: `'true'`/`'false'`, or the strings given.
fn bool2str(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let n = call.args.len();
    if n != 1 && n != 3 {
        return Err(fail(format!("bool2str(): Wrong number of arguments given ({n} for 3)")));
    }
    let Value::Boolean(b) = call.args[0] else {
        return Err(fail("bool2str(): Requires a boolean to work with"));
    };
    let or = |i: usize, default: &str| match call.args.get(i) {
        None | Some(Value::Undef) => Value::from(default),
        Some(v) => v.clone(),
    };
    let (yes, no) = (or(1, "true"), or(2, "false"));
    if !matches!((&yes, &no), (Value::String(_), Value::String(_))) {
        return Err(fail("bool2str(): Requires strings to convert to"));
    }
    Ok(if b { yes } else { no })
}

/// `bool2num(value)`: 1 where `str2bool` reads true, else 0.
fn bool2num(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let Some(first) = call.args.first() else {
        return Err(fail("bool2num(): Wrong number of arguments given (0 for 1)"));
    };
    Ok(Value::Integer(i64::from(str2bool_of(first)?)))
}

/// `num2bool(number)`: whether the number's integer part is above 0; a string is read as
/// Ruby's `Float()` reads it, anything else is false (Ruby's `to_s.to_i` of it is 0).
fn num2bool(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [number] = call.args.as_slice() else {
        return Err(fail(format!("num2bool(): Wrong number of arguments given ({} for 1)", call.args.len())));
    };
    let positive = match number {
        Value::Integer(i) => *i > 0,
        Value::BigInt(b) => b.sign() == num_bigint::Sign::Plus,
        Value::Float(f) => *f >= 1.0,
        Value::String(s) => match poppet_ruby::kernel::float(s) {
            Some(f) => f >= 1.0,
            None => {
                let inspected = poppet_ruby::string::inspect(s);
                return Err(fail(format!(
                    "num2bool(): '{s}' does not look like a number: invalid value for Float(): {inspected}"
                )));
            }
        },
        _ => false,
    };
    Ok(Value::Boolean(positive))
}

// ---- numbers drawn from the node's name or a seed ---------------------------------------------

/// Ruby's `Random` (MT19937) seeded with an integer, as `Random.new(seed)` seeds it.
struct RubyRandom {
    state: [u32; 624],
    index: usize,
}

impl RubyRandom {
    /// `Random.new(Digest::X.hexdigest(...).hex)`: seeded with the integer a hex digest
    /// writes, in 32-bit words from the least significant (`init_genrand` for one word,
    /// `init_by_array` for more).
    fn from_hex(hex: &str) -> RubyRandom {
        let digits = hex.trim_start_matches('0');
        let mut words: Vec<u32> = digits
            .as_bytes()
            .rchunks(8)
            .map(|chunk| std::str::from_utf8(chunk).ok().and_then(|c| u32::from_str_radix(c, 16).ok()).unwrap_or(0))
            .collect();
        if words.len() <= 1 {
            return RubyRandom::with_seed(words.pop().unwrap_or(0));
        }
        let mut mt = RubyRandom::with_seed(19_650_218);
        let n = 624;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..n.max(words.len()) {
            let prev = mt.state[i - 1] ^ (mt.state[i - 1] >> 30);
            mt.state[i] = (mt.state[i] ^ prev.wrapping_mul(1_664_525)).wrapping_add(words[j]).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
            if j >= words.len() {
                j = 0;
            }
        }
        for _ in 0..n - 1 {
            let prev = mt.state[i - 1] ^ (mt.state[i - 1] >> 30);
            mt.state[i] = (mt.state[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                mt.state[0] = mt.state[n - 1];
                i = 1;
            }
        }
        mt.state[0] = 0x8000_0000;
        mt
    }

    /// MT19937's `init_genrand`.
    fn with_seed(seed: u32) -> RubyRandom {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            state[i] = 1_812_433_253u32.wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30)).wrapping_add(i as u32);
        }
        RubyRandom { state, index: 624 }
    }

    /// MT19937's `genrand_int32`.
    fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & 0x8000_0000) | (self.state[(i + 1) % 624] & 0x7fff_ffff);
                let mag = if y & 1 == 1 { 0x9908_b0df } else { 0 };
                self.state[i] = self.state[(i + 397) % 624] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `Random#rand(max)` of an integer `max` ≥ 1 (Ruby's `limited_rand`): 32-bit draws
    /// masked to the bits of `max - 1`, from the most significant word, drawn again while
    /// above it.
    fn below(&mut self, max: u64) -> u64 {
        let limit = max.saturating_sub(1);
        if limit == 0 {
            return 0;
        }
        let mask = u64::MAX >> limit.leading_zeros();
        'retry: loop {
            let mut value = 0u64;
            for word in (0..2).rev() {
                if (mask >> (word * 32)) & 0xffff_ffff != 0 {
                    value |= u64::from(self.next_u32()) << (word * 32);
                    value &= mask;
                    if value > limit {
                        continue 'retry;
                    }
                }
            }
            return value;
        }
    }
}

/// The hex digest of a text's MD5.
fn md5_hex(text: &str) -> String {
    hex(&<md5::Md5 as md5::Digest>::digest(text.as_bytes()))
}

/// The hex digest of a text's SHA-256.
fn sha256_hex(text: &str) -> String {
    hex(&<sha2::Sha256 as sha2::Digest>::digest(text.as_bytes()))
}

/// Bytes in lowercase hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Ruby's `Array#join(sep)` of values: nested arrays joined in place, every value its `to_s`.
fn ruby_join(values: &[Value], sep: &str) -> String {
    fn push(out: &mut Vec<String>, v: &Value, depth: usize) {
        match v {
            Value::Array(items) if depth < 100 => items.iter().for_each(|x| push(out, x, depth + 1)),
            other => out.push(ruby::to_s(other)),
        }
    }
    let mut out = Vec::new();
    values.iter().for_each(|v| push(&mut out, v, 0));
    out.join(sep)
}

/// The node's fqdn as `$facts['networking']['fqdn']` has it (`''` where it has none).
fn networking_fqdn(ev: &Evaluator) -> String {
    let facts = ev.top.get("facts").unwrap_or(Value::Undef);
    let networking = hash_get(&facts, "networking");
    ruby::to_s(&hash_get(&networking, "fqdn"))
}

/// A hash's value at a string key, undef where there is none.
fn hash_get(v: &Value, key: &str) -> Value {
    match v {
        Value::Hash(h) => h.get(&Value::from(key)).cloned().unwrap_or(Value::Undef),
        _ => Value::Undef,
    }
}

/// Puppet's `fqdn_rand(max, seed)`: a number below `max` drawn from the MD5 of
/// `"fqdn:max:seed"` (Puppet's digest where FIPS is off).
fn fqdn_rand(ev: &Evaluator, max: u64, seed: &str) -> u64 {
    let fqdn = networking_fqdn(ev);
    RubyRandom::from_hex(&md5_hex(&format!("{fqdn}:{max}:{seed}"))).below(max)
}

/// `fqdn_rotate(array_or_string, seeds...)` (3.x in stdlib 8.5.0: the `$::fqdn` variable;
/// `stdlib::fqdn_rotate` in 9.7.0: the `networking.fqdn` fact): the elements (a string's
/// characters) rotated left by a number drawn from the MD5 of `"fqdn:seeds"`.
fn fqdn_rotate(ev: &mut Evaluator, call: Call, api: Legacy) -> Eval<Value> {
    let Some(value) = call.args.first() else {
        return Err(fail("fqdn_rotate(): Wrong number of arguments given (0 for 1)"));
    };
    let (mut items, string) = match value {
        Value::Array(items) => (items.to_vec(), false),
        Value::String(s) => (s.chars().map(|c| Value::from(c.to_string().as_str())).collect(), true),
        _ => return Err(fail("fqdn_rotate(): Requires either array or string to work with")),
    };
    if items.len() <= 1 {
        return Ok(value.clone());
    }
    let fqdn = match api {
        Legacy::V3 => ruby::to_s(&ev.top.get("fqdn").unwrap_or(Value::Undef)),
        // `closure_scope['facts']['networking']['fqdn']`
        Legacy::V4 => match hash_get(&ev.top.get("facts").unwrap_or(Value::Undef), "networking") {
            networking @ Value::Hash(_) => ruby::to_s(&hash_get(&networking, "fqdn")),
            _ => return Err(fail("undefined method `[]' for nil:NilClass")),
        },
    };
    let seeds = ruby_join(&call.args[1..], ":");
    let offset = RubyRandom::from_hex(&md5_hex(&format!("{fqdn}:{seeds}"))).below(items.len() as u64);
    items.rotate_left(offset as usize);
    Ok(if string { Value::from(ruby_join(&items, "").as_str()) } else { Value::array(items) })
}

/// `fqdn_rand_string(length, [charset], seeds...)`: `length` characters of the charset
/// (default: digits and letters), the nth drawn by `fqdn_rand(charset size, "seeds:n")`.
/// The 3.x function of stdlib 8.5.0 checks its arguments itself (a length `is_integer`
/// accepts, above 0; a string charset); 9.7.0's `stdlib::fqdn_rand_string` has its types.
fn fqdn_rand_string(ev: &mut Evaluator, call: Call, api: Legacy) -> Eval<Value> {
    let length = call.arg(0);
    if api == Legacy::V3 {
        let integer = is_integer(ev, &length)?;
        if !integer || ruby_to_i(&length) <= 0 {
            return Err(fail("fqdn_rand_string(): first argument must be a positive integer"));
        }
        if !matches!(call.arg(1), Value::String(_) | Value::Undef) {
            return Err(fail("fqdn_rand_string(): second argument must be undef or a string"));
        }
    }
    let charset: Vec<char> = match &call.arg(1) {
        Value::String(s) if !s.is_empty() => s.chars().collect(),
        _ => ('0'..='9').chain('A'..='Z').chain('a'..='z').collect(),
    };
    let seeds = call.args.get(2..).unwrap_or_default();
    let mut out = String::new();
    for n in 1..=ruby_to_i(&length).max(0) {
        // A length of any size runs until the user interrupts it, as in Puppet.
        ev.check_interrupt(call.at)?;
        let seed = ruby_join(&[Value::array(seeds.to_vec()), Value::Integer(n)], ":");
        let index = fqdn_rand(ev, charset.len() as u64, &seed) as usize;
        out.extend(charset.get(index));
    }
    Ok(Value::from(out.as_str()))
}

/// stdlib 8.5.0's `is_integer` as its 3.x functions call it (`function_is_integer`): an
/// Integer, or a string with a line of decimal digits (no leading zero), after its
/// deprecation.
fn is_integer(ev: &mut Evaluator, v: &Value) -> Eval<bool> {
    let _ = ev;
    Ok(match v {
        Value::Integer(_) | Value::BigInt(_) => true,
        Value::String(s) => ruby_lines(s).iter().any(|line| {
            let digits = line.strip_prefix('-').unwrap_or(line);
            digits == "0"
                || (!digits.is_empty() && !digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit()))
        }),
        _ => false,
    })
}

/// Ruby's `to_i` of a value a 3.x function got: an integer as it is, a float truncated, a
/// string's leading decimal digits (0 where there are none), anything else 0.
fn ruby_to_i(v: &Value) -> i64 {
    match v {
        Value::Integer(i) => *i,
        Value::Float(f) => *f as i64,
        Value::String(s) => {
            let t = s.trim_start();
            let (sign, digits) = match t.as_bytes().first() {
                Some(b'-') => (-1, &t[1..]),
                Some(b'+') => (1, &t[1..]),
                _ => (1, t),
            };
            let mut n: i64 = 0;
            let mut last_underscore = true;
            for b in digits.bytes() {
                match b {
                    b'0'..=b'9' => {
                        n = n.saturating_mul(10).saturating_add(i64::from(b - b'0'));
                        last_underscore = false;
                    }
                    b'_' if !last_underscore => last_underscore = true,
                    _ => break,
                }
            }
            sign * n
        }
        _ => 0,
    }
}

/// `seeded_rand(max, seed)` (3.x in stdlib 8.5.0, `stdlib::seeded_rand` in 9.7.0): a number
/// below `max` drawn from the MD5 of the seed.
fn seeded_rand(ev: &mut Evaluator, call: Call, api: Legacy) -> Eval<Value> {
    let max = call.arg(0);
    if api == Legacy::V3 {
        if !is_integer(ev, &max)? || ruby_to_i(&max) <= 0 {
            return Err(fail("seeded_rand(): first argument must be a positive integer"));
        }
        if !matches!(call.arg(1), Value::String(_)) {
            return Err(fail("seeded_rand(): second argument must be a string"));
        }
    }
    let seed = ruby::to_s(&call.arg(1));
    let max = u64::try_from(ruby_to_i(&max)).unwrap_or(1);
    Ok(Value::Integer(RubyRandom::from_hex(&md5_hex(&seed)).below(max) as i64))
}

/// `seeded_rand_string(length, seed, [charset])` (and 9.7.0's `stdlib::seeded_rand_string`):
/// `length` characters of the charset (default: digits, lowercase and uppercase letters)
/// drawn from the SHA-256 of the seed.
fn seeded_rand_string(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let length = ruby_to_i(&call.arg(0));
    let charset: Vec<char> = match &call.arg(2) {
        Value::String(s) => s.chars().collect(),
        _ => ('0'..='9').chain('a'..='z').chain('A'..='Z').collect(),
    };
    let mut random = RubyRandom::from_hex(&sha256_hex(&ruby::to_s(&call.arg(1))));
    let out: String = (0..length).filter_map(|_| charset.get(random.below(charset.len() as u64) as usize)).collect();
    Ok(Value::from(out.as_str()))
}

// ---- shell words -------------------------------------------------------------------------------

/// Ruby's `Shellwords.escape`: `''` for an empty string, else a backslash before every
/// character but ASCII letters, digits, `_-.,:+/@` and line feeds, a line feed quoted `'\n'`.
fn shellescape(s: &str) -> String {
    if s.is_empty() {
        return "''".into();
    }
    let mut out = String::with_capacity(s.len() * 2);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("'\n'"),
            c if c.is_ascii_alphanumeric() || "_-.,:+/@".contains(c) => out.push(c),
            c => {
                out.push('\\');
                out.push(c);
            }
        }
    }
    out
}

/// `shell_escape(value)` (and 9.7.0's `stdlib::shell_escape`): the value's text escaped
/// for a shell ([`shellescape`]).
fn shell_escape(_: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(Value::from(shellescape(&ruby::to_s(&call.arg(0))).as_str()))
}

/// `shell_join(array)`: the values' texts escaped for a shell ([`shellescape`]), joined with
/// spaces.
fn shell_join(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [array] = call.args.as_slice() else {
        return Err(fail(format!("shell_join(): Wrong number of arguments given ({} for 1)", call.args.len())));
    };
    let Value::Array(items) = array else {
        return Err(fail(format!("First argument is not an Array: {}", ruby::inspect(array))));
    };
    Ok(Value::from(items.iter().map(|v| shellescape(&ruby::to_s(v))).collect::<Vec<_>>().join(" ").as_str()))
}

/// `shell_split(string)`: the words a shell reads in the value's text (Ruby's
/// `Shellwords.split`); an unmatched quote is an error.
fn shell_split(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let [value] = call.args.as_slice() else {
        return Err(fail(format!("shell_split(): Wrong number of arguments given ({} for 1)", call.args.len())));
    };
    let line = ruby::to_s(value);
    match shellsplit(&line) {
        Some(words) => Ok(Value::array(words.iter().map(|w| Value::from(w.as_str())).collect())),
        None => Err(fail(format!("Unmatched quote: {}", poppet_ruby::string::inspect(&line)))),
    }
}

/// Ruby's `Shellwords.split`, the scan of its pattern: words of plain characters, `'...'`
/// as it is, `"..."` with a backslash before `$`, `` ` ``, `"`, `\` or a line feed taken off,
/// `\x` as `x` (a backslash before a line feed stays); a word ends at whitespace. `None` for an unmatched quote.
fn shellsplit(line: &str) -> Option<Vec<String>> {
    let is_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r');
    let mut words = Vec::new();
    let mut field = String::new();
    let mut rest = line;
    loop {
        rest = rest.trim_start_matches(is_space);
        let mut chars = rest.chars();
        let Some(c) = chars.next() else { break };
        match c {
            '\'' => {
                let end = chars.as_str().find('\'')?;
                field.push_str(&chars.as_str()[..end]);
                rest = &chars.as_str()[end + 1..];
            }
            '"' => {
                let body = chars.as_str();
                let mut it = body.char_indices();
                let mut end = None;
                while let Some((i, c)) = it.next() {
                    match c {
                        '"' => {
                            end = Some(i);
                            break;
                        }
                        '\\' => match it.next() {
                            Some((_, e)) if matches!(e, '$' | '`' | '"' | '\\' | '\n') => field.push(e),
                            Some((_, e)) => {
                                field.push('\\');
                                field.push(e);
                            }
                            None => return None,
                        },
                        c => field.push(c),
                    }
                }
                rest = &body[end? + 1..];
            }
            '\\' => {
                // `\x` is `x`, but a backslash stays before a line feed (Ruby's `.`).
                match chars.next() {
                    Some('\n') => field.push_str("\\\n"),
                    Some(e) => field.push(e),
                    None => field.push('\\'),
                }
                rest = chars.as_str();
            }
            _ => {
                let end = rest.find(|c: char| is_space(c) || matches!(c, '\\' | '\'' | '"')).unwrap_or(rest.len());
                field.push_str(&rest[..end]);
                rest = &rest[end..];
            }
        }
        match rest.chars().next() {
            None => {
                words.push(std::mem::take(&mut field));
                break;
            }
            Some(c) if is_space(c) => {
                words.push(std::mem::take(&mut field));
                rest = &rest[c.len_utf8()..];
            }
            Some(_) => {}
        }
    }
    Some(words)
}

// ---- strings ---------------------------------------------------------------------------------

/// `dos2unix(string)` and `unix2dos(string)`: every line ending (`\r\n` for dos2unix; a
/// line feed after any carriage returns for unix2dos) made `ending`.
fn line_endings(call: Call, name: &str, ending: &str) -> Eval<Value> {
    let Value::String(s) = &call.arg(0) else {
        return Err(fail(format!("{name}(): Requires string as argument")));
    };
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest: &str = s;
    while let Some(i) = rest.find('\n') {
        let line = &rest[..i];
        let kept = if ending == "\n" { line.strip_suffix('\r').unwrap_or(line) } else { line.trim_end_matches('\r') };
        out.push_str(kept);
        out.push_str(ending);
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    Ok(Value::from(out.as_str()))
}

/// A string, or each string of an array (other elements kept), through `f`; anything else
/// is `NAME(): Requires either array or string to work with`.
fn string_or_array(call: &Call, name: &str, f: impl Fn(&str) -> String) -> Eval<Value> {
    let Some(value) = call.args.first() else {
        return Err(fail(format!("{name}(): Wrong number of arguments given (0 for 1)")));
    };
    match value {
        Value::String(s) => Ok(Value::from(f(s).as_str())),
        Value::Array(items) => Ok(Value::array(
            items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Value::from(f(s).as_str()),
                    other => other.clone(),
                })
                .collect(),
        )),
        _ => Err(fail(format!("{name}(): Requires either array or string to work with"))),
    }
}

/// `swapcase(string_or_array)`: Ruby's `String#swapcase`, lowercase made uppercase and back.
fn swapcase(_: &mut Evaluator, call: Call) -> Eval<Value> {
    string_or_array(&call, "swapcase", |s| {
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            if c.is_lowercase() {
                out.extend(c.to_uppercase());
            } else if c.is_uppercase() {
                out.extend(c.to_lowercase());
            } else {
                out.push(c);
            }
        }
        out
    })
}

/// `regexpescape(string_or_array)`: Ruby's `Regexp.escape` of the string(s).
fn regexpescape(_: &mut Evaluator, call: Call) -> Eval<Value> {
    string_or_array(&call, "regexpescape", poppet_ruby::regexp::escape)
}

/// `squeeze(string_or_array, [characters])`: Ruby's `String#squeeze`: runs of one character
/// (of those the `tr`-style set names, where given) made one.
fn squeeze(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let n = call.args.len();
    if n != 1 && n != 2 {
        return Err(fail(format!("squeeze(): Wrong number of arguments given {n} for 2 or 1")));
    }
    let set = match call.args.get(1) {
        None => None,
        Some(Value::String(s)) => Some(CharSet::new(s)),
        Some(other) => return Err(fail(format!("no implicit conversion of {} into String", ruby::class(other)))),
    };
    let one = |v: &Value| match v {
        Value::String(s) => Ok(Value::from(squeeze_str(s, set.as_ref()).as_str())),
        other => Err(ruby::no_method("squeeze", other)),
    };
    match &call.args[0] {
        Value::Array(items) => Ok(Value::array(items.iter().map(one).collect::<Eval<_>>()?)),
        other => one(other),
    }
}

/// Runs of one character (of `set`, where given) made one.
fn squeeze_str(s: &str, set: Option<&CharSet>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last = None;
    for c in s.chars() {
        if last == Some(c) && set.is_none_or(|set| set.contains(c)) {
            continue;
        }
        out.push(c);
        last = Some(c);
    }
    out
}

/// A character set as Ruby's `String#squeeze`, `#count`, `#delete` read one: characters,
/// ranges `a-z`, `\` escaping the next, a leading `^` negating.
struct CharSet {
    negated: bool,
    ranges: Vec<(char, char)>,
}

impl CharSet {
    fn new(spec: &str) -> CharSet {
        let mut chars: Vec<char> = spec.chars().collect();
        let negated = chars.len() > 1 && chars[0] == '^';
        if negated {
            chars.remove(0);
        }
        let mut ranges = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let mut c = chars[i];
            if c == '\\' && i + 1 < chars.len() {
                i += 1;
                c = chars[i];
            }
            if i + 2 < chars.len() && chars[i + 1] == '-' {
                let end = chars[i + 2];
                if end >= c {
                    ranges.push((c, end));
                }
                i += 3;
            } else {
                ranges.push((c, c));
                i += 1;
            }
        }
        CharSet { negated, ranges }
    }

    fn contains(&self, c: char) -> bool {
        self.ranges.iter().any(|&(a, b)| (a..=b).contains(&c)) != self.negated
    }
}

/// `base64(action, string, [method])`: the string Base64 encoded or decoded, as Ruby's
/// `Base64` does it by `method`: `default` (encoded in lines of 60, decoded leniently),
/// `strict`, `urlsafe`.
fn base64(_: &mut Evaluator, call: Call) -> Eval<Value> {
    use puppet_types::binary::{decode64, strict_decode64, urlsafe_decode64, Binary};
    let n = call.args.len();
    if n < 2 {
        return Err(fail(format!("base64(): Wrong number of arguments ({n}; must be >= 2)")));
    }
    let action = call.args[0].as_str().filter(|a| matches!(*a, "encode" | "decode"));
    let Some(action) = action else {
        return Err(fail("base64(): the first argument must be one of 'encode' or 'decode'"));
    };
    let Value::String(text) = &call.args[1] else {
        return Err(fail("base64(): the second argument must be a string to base64"));
    };
    let method = if n <= 2 { Some("default") } else { call.args[2].as_str() };
    let Some(method) = method.filter(|m| matches!(*m, "default" | "strict" | "urlsafe")) else {
        return Err(fail("base64(): the third argument must be one of 'default', 'strict', or 'urlsafe'"));
    };
    let out = if action == "encode" {
        let bytes = Binary(text.as_bytes().to_vec());
        match method {
            "strict" => bytes.to_base64_strict(),
            "urlsafe" => bytes.to_base64_urlsafe(),
            _ => bytes.to_base64_relaxed(),
        }
    } else {
        let bytes = match method {
            "strict" => strict_decode64(text)?,
            "urlsafe" => urlsafe_decode64(text)?,
            _ => decode64(text),
        };
        String::from_utf8_lossy(&bytes).into_owned()
    };
    Ok(Value::from(out.as_str()))
}

/// `stdlib::start_with(string, prefixes)` and `stdlib::end_with(string, suffixes)`: whether
/// the string has one of them there.
fn affix(call: Call, has: fn(&str, &str) -> bool) -> Eval<Value> {
    let s = call.arg(0);
    let s = s.as_str().unwrap_or_default();
    let found = match &call.arg(1) {
        Value::Array(items) => items.iter().any(|a| a.as_str().is_some_and(|a| has(s, a))),
        other => other.as_str().is_some_and(|a| has(s, a)),
    };
    Ok(Value::Boolean(found))
}

/// The text `stdlib::crc32` and `stdlib::sha256` digest: a Sensitive value's unwrapped
/// value's `to_s`, another value's (a Binary's: strict Base64).
fn digested_text(v: &Value) -> String {
    match v {
        Value::Sensitive(inner) => digested_text(inner),
        Value::Binary(b) => b.to_base64_strict(),
        other => ruby::to_s(other),
    }
}

// ---- data formats ----------------------------------------------------------------------------

/// The spacing of Ruby's JSON generator (`JSON::State`): compact by default, `pretty_generate`'s
/// two-space indent and line feeds.
struct JsonStyle {
    indent: String,
    space: String,
    space_before: String,
    object_nl: String,
    array_nl: String,
    /// How deep arrays and hashes may nest (0: any depth).
    max_nesting: usize,
}

impl JsonStyle {
    /// `to_json`'s, `JSON.generate`'s.
    fn compact() -> JsonStyle {
        JsonStyle {
            indent: String::new(),
            space: String::new(),
            space_before: String::new(),
            object_nl: String::new(),
            array_nl: String::new(),
            max_nesting: 100,
        }
    }
}

/// Ruby's JSON generator: data as itself (a float as Ruby writes it, a hash key as its
/// `to_s`), anything else as the JSON string of its `to_s`.
fn write_json(v: &Value, style: &JsonStyle, depth: usize, out: &mut String) -> Eval<()> {
    let nested = |depth: usize| -> Eval<usize> {
        let depth = depth + 1;
        if style.max_nesting != 0 && depth > style.max_nesting {
            // Ruby's generator names the depth it had reached.
            return Err(fail(format!("nesting of {} is too deep", depth - 1)));
        }
        Ok(depth)
    };
    let indent = |out: &mut String, depth: usize| (0..depth).for_each(|_| out.push_str(&style.indent));
    match v {
        Value::Undef => out.push_str("null"),
        Value::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Integer(_) | Value::BigInt(_) | Value::Float(_) => out.push_str(&ruby::to_s(v)),
        Value::String(s) => write_json_string(s, out),
        Value::Array(items) => {
            let depth = nested(depth)?;
            out.push('[');
            out.push_str(&style.array_nl);
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                    out.push_str(&style.array_nl);
                }
                indent(out, depth);
                write_json(item, style, depth, out)?;
            }
            out.push_str(&style.array_nl);
            indent(out, depth - 1);
            out.push(']');
        }
        Value::Hash(h) => {
            let depth = nested(depth)?;
            out.push('{');
            for (i, (k, item)) in h.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&style.object_nl);
                indent(out, depth);
                write_json_string(&ruby::to_s(k), out);
                out.push_str(&style.space_before);
                out.push(':');
                out.push_str(&style.space);
                write_json(item, style, depth, out)?;
            }
            out.push_str(&style.object_nl);
            if !style.object_nl.is_empty() {
                indent(out, depth - 1);
            }
            out.push('}');
        }
        other => write_json_string(&ruby::to_s(other), out),
    }
    Ok(())
}

/// A JSON string as Ruby's generator writes it (as serde_json does): `"` and `\` escaped,
/// control characters as `\b \f \n \r \t` or `\u00xx`, everything else (`/`, non-ASCII) as
/// it is.
fn write_json_string(s: &str, out: &mut String) {
    out.push_str(&serde_json::Value::from(s).to_string());
}

/// `to_json(data)` (stdlib 8.5.0; 9.7.0's `stdlib::to_json`): Ruby's `to_json` of the value.
fn to_json(_: &mut Evaluator, call: Call) -> Eval<Value> {
    Ok(Value::from(ruby_to_json(&call.arg(0))?.as_str()))
}

/// Ruby's `to_json` of a value (other modules' ports write JSON with it).
pub(super) fn ruby_to_json(v: &Value) -> Eval<String> {
    let mut out = String::new();
    write_json(v, &JsonStyle::compact(), 0, &mut out)?;
    Ok(out)
}

/// `to_json_pretty(data, [skip_undef], [opts])` (and 9.7.0's `stdlib::to_json_pretty`): Ruby's
/// `JSON.pretty_generate` of the array or hash (its undef values left out where
/// `skip_undef`), with the generator options given, and a line feed.
fn to_json_pretty(_: &mut Evaluator, call: Call) -> Eval<Value> {
    let mut data = call.arg(0);
    if call.arg(1) == Value::Boolean(true) {
        data = match &data {
            Value::Array(items) => Value::array(items.iter().filter(|v| !v.is_undef()).cloned().collect()),
            Value::Hash(h) => {
                Value::hash(h.iter().filter(|(_, v)| !v.is_undef()).map(|(k, v)| (k.clone(), v.clone())).collect())
            }
            other => other.clone(),
        };
    }
    let mut style = JsonStyle {
        indent: "  ".into(),
        space: " ".into(),
        space_before: String::new(),
        object_nl: "\n".into(),
        array_nl: "\n".into(),
        max_nesting: 100,
    };
    let opts = call.arg(2);
    let text = |key: &str| hash_get(&opts, key).as_str().map(str::to_owned);
    for (key, field) in [
        ("indent", &mut style.indent),
        ("space", &mut style.space),
        ("space_before", &mut style.space_before),
        ("object_nl", &mut style.object_nl),
        ("array_nl", &mut style.array_nl),
    ] {
        if let Some(value) = text(key) {
            *field = value;
        }
    }
    if let Value::Hash(h) = &opts {
        if let Some(nesting) = h.get(&Value::from("max_nesting")) {
            style.max_nesting = match nesting {
                Value::Integer(n) => usize::try_from(*n).unwrap_or(0),
                _ => 0,
            };
        }
    }
    let mut out = String::new();
    write_json(&data, &style, 0, &mut out)?;
    out.push('\n');
    Ok(Value::from(out.as_str()))
}

/// stdlib 9.7.0's `stdlib::rewrap_sensitive_data` around a conversion of the first
/// argument: the Sensitive values (and hash keys) in it unwrapped for `convert`, whose result
/// is Sensitive where there was one.
pub(super) fn rewrap_sensitive(
    ev: &mut Evaluator,
    mut call: Call,
    convert: fn(&mut Evaluator, Call) -> Eval<Value>,
) -> Eval<Value> {
    fn unwrap(v: &Value, found: &mut bool, depth: usize) -> Value {
        match v {
            Value::Sensitive(inner) => {
                *found = true;
                unwrap(inner, found, depth + 1)
            }
            Value::Array(items) if depth < 1000 => {
                Value::array(items.iter().map(|x| unwrap(x, found, depth + 1)).collect())
            }
            Value::Hash(h) if depth < 1000 => Value::hash(
                h.iter()
                    .map(|(k, x)| {
                        let key = match k {
                            Value::Sensitive(inner) => {
                                *found = true;
                                (**inner).clone()
                            }
                            other => other.clone(),
                        };
                        (key, unwrap(x, found, depth + 1))
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    let mut found = false;
    if let Some(data) = call.args.first_mut() {
        *data = unwrap(data, &mut found, 0);
    }
    let result = convert(ev, call)?;
    Ok(if found { Value::Sensitive(std::rc::Rc::new(result)) } else { result })
}

// ---- paths ------------------------------------------------------------------------------------

/// `basename(path, [suffix])`: Ruby's `File.basename`: the last part of the path, trailing
/// slashes left out, less the suffix given (`'.*'`: any extension) unless that is all of it.
fn basename(_: &mut Evaluator, call: Call) -> Eval<Value> {
    match call.args.len() {
        0 => return Err(fail("basename(): No arguments given")),
        n if n > 2 => return Err(fail(format!("basename(): Too many arguments given ({n})"))),
        _ => {}
    }
    let Value::String(path) = &call.args[0] else {
        return Err(fail("basename(): Requires string as first argument"));
    };
    let suffix = match call.args.get(1) {
        None => None,
        Some(Value::String(s)) => Some(s.as_ref()),
        Some(_) => return Err(fail("basename(): Requires string as second argument")),
    };
    Ok(Value::from(file_basename(path, suffix)))
}

/// Ruby's `File.basename(path, suffix)` on Unix.
pub(super) fn file_basename<'a>(path: &'a str, suffix: Option<&str>) -> &'a str {
    if path.is_empty() {
        return "";
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/";
    }
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    let keep = suffix.and_then(|suffix| strip_extension(base, suffix)).filter(|&n| n > 0);
    &base[..keep.unwrap_or(base.len())]
}

/// How much of a base name is left without `suffix` (Ruby's `rmext`): for `'.*'` the name up
/// to its last dot after any leading dots, for `'c*'` up to its last `c`, else the name less
/// the suffix where it ends with it; `None` where nothing is taken off.
fn strip_extension(base: &str, suffix: &str) -> Option<usize> {
    if suffix.is_empty() {
        return None;
    }
    let mut chars = suffix.chars();
    let first = chars.next()?;
    if chars.as_str() == "*" {
        if first == '.' {
            let leading = base.len() - base.trim_start_matches('.').len();
            return base[leading..].rfind('.').map(|i| i + leading);
        }
        return Some(base.rfind(first).unwrap_or(base.len()));
    }
    base.strip_suffix(suffix).map(str::len)
}

/// Ruby's `File.extname` on Unix: the base name's last `.` and what follows (after any
/// leading dots; `'.'` where it ends with one), `''` where it has none.
pub(super) fn file_extname(path: &str) -> &str {
    let base = file_basename(path, None);
    let rest = base.trim_start_matches('.');
    match rest.rfind('.') {
        Some(i) if i + 1 == rest.len() => ".",
        Some(i) => &rest[i..],
        None => "",
    }
}

/// `dirname(path)`: Ruby's `File.dirname`: the path up to its last part, `'.'` where it has
/// one part, `'/'` for the root.
fn dirname(_: &mut Evaluator, call: Call) -> Eval<Value> {
    match call.args.len() {
        0 => return Err(fail("dirname(): No arguments given")),
        n if n > 1 => return Err(fail(format!("dirname(): Too many arguments given ({n})"))),
        _ => {}
    }
    let Value::String(path) = &call.args[0] else {
        return Err(fail("dirname(): Requires string as argument"));
    };
    if path.is_empty() {
        return Err(fail("dirname(): Requires a non-empty string as argument"));
    }
    Ok(Value::from(file_dirname(path)))
}

/// Ruby's `File.dirname(path)` on Unix: leading slashes count as one, the separators before
/// the last part are left out.
fn file_dirname(path: &str) -> &str {
    let rest = path.trim_start_matches('/');
    let root = path.len() - rest.len();
    // Several leading slashes are one root.
    let start = root.saturating_sub(1);
    let inner = rest.trim_end_matches('/');
    let last_sep = inner.rfind('/').map(|i| root + inner[..i].trim_end_matches('/').len());
    match last_sep.unwrap_or(root) {
        end if end == start => ".",
        end => &path[start..end],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirname_is_rubys() {
        for (path, dir) in [
            ("/etc/puppet/puppet.conf", "/etc/puppet"),
            ("/etc/puppet/", "/etc"),
            ("/", "/"),
            ("//", "/"),
            ("///a", "/"),
            ("/etc", "/"),
            ("a/b/c", "a/b"),
            ("file", "."),
            ("a/", "."),
            ("/a//b//c", "/a//b"),
            ("//a//b", "/a"),
        ] {
            assert_eq!(file_dirname(path), dir, "{path}");
        }
    }

    #[test]
    fn basename_is_rubys() {
        for (path, suffix, base) in [
            ("/etc/a.b.c", Some(".*"), "a.b"),
            ("...", Some(".*"), "..."),
            ("a.", Some(".*"), "a"),
            ("/a/b.c/", Some(".c"), "b"),
            (".conf", Some(".conf"), ".conf"),
            ("//", None, "/"),
            ("", None, ""),
        ] {
            assert_eq!(file_basename(path, suffix), base, "{path}");
        }
    }

    #[test]
    fn shellsplit_is_rubys() {
        let split = |s: &str| shellsplit(s).map(|w| w.join("|"));
        assert_eq!(split("a 'b c' \"d\\\"e\" f\\ g").as_deref(), Some("a|b c|d\"e|f g"));
        assert_eq!(split("a\"b c\"d").as_deref(), Some("ab cd"));
        assert_eq!(split("  ").as_deref(), Some(""));
        assert_eq!(split("a 'b"), None);
    }

    #[test]
    fn lines_are_rubys() {
        assert_eq!(ruby_lines("a\n"), ["a"]);
        assert_eq!(ruby_lines(""), [""]);
        assert_eq!(ruby_lines("\n"), [""]);
        assert_eq!(ruby_lines("a\n\nb"), ["a", "", "b"]);
    }
}
