//! puppetlabs-stdlib's functions of strings, numbers and conversions (`bool2str`,
//! `str2bool`, `dirname`, `shell_escape`, `to_json`, `to_yaml`, `fqdn_rand_string`, ...).

use puppet_types::Value;

use super::{v3, v4, Port};
use puppet_syntax::Span;

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
    v4("stdlib", "stdlib::seeded_rand", &["Integer[1] $max, String $seed"], |ev, c| {
        seeded_rand(ev, c, Legacy::V4)
    }),
    v4("stdlib", "seeded_rand_string", SHIM, |ev, c| {
        real_or_shim(ev, c, "seeded_rand_string", SEEDED_RAND_STRING, seeded_rand_string)
    }),
    v4("stdlib", "stdlib::seeded_rand_string", SEEDED_RAND_STRING, seeded_rand_string),
    v4("stdlib", "shell_escape", SHIM, |ev, c| real_or_shim(ev, c, "shell_escape", &["Any $string"], shell_escape)),
    v4("stdlib", "stdlib::shell_escape", &["Any $string"], shell_escape),
    v3("stdlib", "shell_join", -1, shell_join),
    v3("stdlib", "shell_split", -1, shell_split),
];

/// Which of a function's two stdlib implementations a port runs: the 3.x function of stdlib
/// 8.5.0, which checks its arguments itself, or 9.7.0's 4.x one, with its types.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Legacy {
    V3,
    V4,
}

/// The dispatch of stdlib 9.7.0's deprecated 4.x functions ([`shim`]).
const SHIM: &[&str] = &["Any *$args"];
const FQDN_ROTATE: &[&str] =
    &["String $input, Variant[Integer,String] *$seeds", "Array $input, Variant[Integer,String] *$seeds"];
const SEEDED_RAND_STRING: &[&str] = &["Integer[1] $length, String $seed, String[2] $charset?"];

/// stdlib 9.7.0's deprecated global names of its `stdlib::` functions (`fqdn_rotate`,
/// `to_json`, ...): the deprecation warning (`deprecation(name, message, false)`), then the
/// `stdlib::` function with the same arguments.
fn shim(ev: &mut Evaluator, call: Call, name: &str) -> Eval<Value> {
    let message = format!("This function is deprecated, please use stdlib::{name} instead.");
    let args = vec![Value::from(name), Value::from(message.as_str()), Value::Boolean(false)];
    call_loaded(ev, "deprecation", args, None, call.at)?;
    call_loaded(ev, &format!("stdlib::{name}"), call.args, call.block, call.at)
}

/// A 4.x function of stdlib 8.5.0 that 9.x made a deprecated [`shim`]: its port's dispatch
/// takes anything (the shim's), so with stdlib 8 the arguments are checked here against
/// the 8.5.0 function's own `dispatches` (Puppet's messages) before `real` runs.
fn real_or_shim(
    ev: &mut Evaluator,
    call: Call,
    name: &str,
    dispatches: &[&str],
    real: fn(&mut Evaluator, Call) -> Eval<Value>,
) -> Eval<Value> {
    let major = ev.module_version("stdlib").and_then(|v| v.split('.').next().and_then(|m| m.parse::<u32>().ok()));
    if major.is_some_and(|m| m >= 9) {
        return shim(ev, call, name);
    }
    let signatures = crate::functions::parse_dispatches(dispatches).map_err(fail)?;
    let dispatch = puppet_types::dispatch::select_signature(name, &signatures, &call.args, call.block.as_ref())?;
    real(ev, Call { dispatch, ..call })
}

/// Puppet's `call_function(name, ...)` from a function: the function loaded first where a
/// module has it.
fn call_loaded(ev: &mut Evaluator, name: &str, args: Vec<Value>, block: Option<Value>, at: Span) -> Eval<Value> {
    if !ev.function_exists(name) {
        ev.autoload(crate::eval::modules::Entity::Function, name)?;
    }
    ev.call_function_inner(name, args, block, at)
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
fn file_basename<'a>(path: &'a str, suffix: Option<&str>) -> &'a str {
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
