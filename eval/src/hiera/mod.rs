//! Hiera 5 data, as Puppet 7.23 looks it up (`pops/lookup/`): the `lookup` function,
//! automatic class parameter lookup and `puppet lookup` (`poppet lookup`) search a key's
//! data; the `hiera_*` functions (deprecated) search Hiera's global layer.
//!
//! Puppet searches three layers in order (`LookupAdapter`'s `PROVIDER_STACK`): global
//! (`hiera_config`, Puppet's default configuration where the file is missing), environment
//! (the environment's `hiera.yaml`; none without one, a version 3 one ignored with Puppet's
//! warning) and module (the `hiera.yaml` of the module a key `mod::…` names). Where they are
//! is [`Layers`], which `poppet lookup` sets from `crate::environment`; without it (as the
//! evaluator compiles by default, like `puppet apply` with the packaged empty global
//! `hierarchy`) a key is found in its module's data or nowhere, and `hiera()` finds nothing.
//!
//! - `config.rs`: a layer's `hiera.yaml` (versions 5 and 4; 3 is ignored outside the global
//!   layer), checked with Puppet's messages for its layer (`Place`).
//! - `yaml.rs`: YAML read as Ruby's Psych reads it (`yes` is true, `017` is 15).
//! - `interpolate.rs`: `%{var}`, `%{facts.a.b}`, `%{lookup('k')}`, `%{alias('k')}`, ...
//! - `merge.rs`: the merge strategies `first`, `unique`, `hash` and `deep`.
//! - `explain.rs`: the explanation (`--explain`), a tree the search grows: each provider,
//!   hierarchy entry, location, merge, interpolation, scope lookup and sub key is a node
//!   entered and left around that step (`Evaluator::explained`), what was found an event.
//!
//! Errors keep Puppet's three kinds ([`HieraError`]): a LookupError is reported bare
//! (`Function lookup() did not find a value for the name 'x'`), other Puppet errors become
//! LookupErrors inside a data provider, and the rest are reported at the call.
//!
//! Merges happen at the levels Puppet merges them (locations of a level, levels of the
//! hierarchy, layers), so that `unique` gives Puppet's arrays; `lookup_options` (the global
//! and environment layers' merged, then the module's merged over them, per key and per
//! `^pattern`, `merge` and `convert_to`) and dotted keys into found values
//! (`mod::users.bob.uid`) are honoured. Automatic parameter lookup
//! (`catalog/classes.rs`, `class_parameter_data`) looks up `class::param` in the class's scope
//! before `$title` is set (so `%{title}` is the top scope's, as in Puppet); data `undef` binds
//! only a parameter without a default.
//!
//! Not modelled: Hiera 3 backends (a version 3 global `hiera.yaml` is an error saying so;
//! `hiera3_backend` levels likewise), `lookup_key` and `data_dig` functions (`eyaml_lookup_key`
//! is refused as Puppet 7.23's agent refuses it, without hiera-eyaml), data hash functions
//! other than `yaml_data`, `json_data` and `hocon_data` (an error says so: a `uri`/`uris`
//! level needs a function of a module's Ruby), `data_provider` in `metadata.json` (an error
//! unless null), `environment_data_provider` in `environment.conf`, `plan_hierarchy`, the
//! `hiera_*` functions' view of the environment layer, the interpolation of `hiera.yaml` paths
//! in explanations (Puppet does not explain it either) and Ruby's JSON parser's error
//! messages (`json_data` reports the JSON reader's own). Integers beyond 64 bits in data are
//! kept, as Ruby bignums are in Puppet. The explanation rendered as a hash
//! (`Explainer::to_value`) has strings where Puppet's has Symbols (so `--render-as yaml`
//! of an explanation differs; JSON agrees).

mod config;
pub mod explain;
mod interpolate;
mod merge;
pub mod yaml;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

use puppet_types::value::Hash;
use puppet_types::{Type, Value};

use crate::error::{bare, fail, Eval, Flow};
use crate::eval::{Evaluator, Level};
use config::{Config, Entry, Locations, Place};
use explain::{Event, Explainer, Kind};
pub(crate) use merge::Strategy;

/// An error of a lookup, of one of Puppet's kinds.
#[derive(Clone, Debug)]
pub enum HieraError {
    /// Puppet's `LookupError`: reported as it is, without prefix or position.
    Lookup(String),
    /// Another `Puppet::Error` (a type mismatch): a LookupError once it leaves a data
    /// provider, else reported at the call.
    Puppet(String),
    /// A Ruby error (`ArgumentError`: an unknown merge strategy): reported at the call.
    Other(String),
}

impl From<HieraError> for Flow {
    fn from(e: HieraError) -> Flow {
        match e {
            HieraError::Lookup(m) => bare(m),
            HieraError::Puppet(m) | HieraError::Other(m) => fail(m),
        }
    }
}

type Found = Result<Option<Value>, HieraError>;

/// What one compilation has read of Hiera data: configurations, data files and lookup
/// options by module, and the recursion guard. Emptied before each program, as Puppet
/// reads data anew for each catalog.
#[derive(Default)]
pub struct Hiera {
    /// Where the global and environment layers' configurations are (kept across resets).
    pub layers: Layers,
    /// The explanation being grown, when one is asked for (`puppet lookup --explain`).
    pub explainer: Option<Explainer>,
    /// Each layer's configuration (`None`: the layer has none, or ignores it).
    configs: HashMap<Layer, Result<Option<Rc<Config>>, HieraError>>,
    files: HashMap<PathBuf, Result<Rc<DataFile>, HieraError>>,
    /// The data files whose keys have been checked against their module's name.
    checked: HashSet<(String, PathBuf)>,
    /// The `lookup_options` by module (`None`: keys of no module), compiled.
    options: HashMap<Option<String>, Option<Rc<LookupOptions>>>,
    /// The global layer's `lookup_options`, once searched.
    global_options: Option<Option<Hash>>,
    /// The global and environment layers' `lookup_options` merged, once searched.
    env_options: Option<Option<Hash>>,
    /// Each module's `lookup_options` of its default hierarchy.
    default_options: HashMap<String, Option<Rc<LookupOptions>>>,
    /// The keys being looked up, innermost last (Puppet's name stack).
    stack: Vec<String>,
    /// The file each configuration warning was about (Puppet's console prints
    /// `(file: PATH)` under it), by message.
    warning_files: HashMap<String, PathBuf>,
}

impl Hiera {
    /// Forgets what was read: the next program reads data anew (the layers stay).
    pub fn reset(&mut self) {
        let layers = std::mem::take(&mut self.layers);
        let explainer = self.explainer.take();
        *self = Hiera { layers, explainer, ..Hiera::default() };
    }
}

/// Where the global and environment layers are. Without them (as Poppet compiles by
/// default, like `puppet apply` with an empty global `hierarchy`) only modules have data.
#[derive(Clone, Debug, Default)]
pub struct Layers {
    /// The global `hiera.yaml` (Puppet's `hiera_config`; a missing file is Puppet's default
    /// configuration, `data/common.yaml` beside it).
    pub global: Option<PathBuf>,
    /// The environment's directory (its `hiera.yaml`, if any, is the environment layer).
    pub environment: Option<PathBuf>,
}

/// A layer of data, the key of its configuration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Layer {
    Global,
    Environment,
    Module(String),
}

impl Layer {
    fn place(&self) -> Place {
        match self {
            Layer::Global => Place::Global,
            Layer::Environment => Place::Environment,
            Layer::Module(_) => Place::Module,
        }
    }

    fn module(&self) -> Option<&str> {
        match self {
            Layer::Module(m) => Some(m),
            _ => None,
        }
    }
}

/// `GLOBAL_ENV_MERGE`: the name of the global and environment layers' `lookup_options` in a
/// merge with a module's.
const GLOBAL_ENV_MERGE: &str = "Global and Environment";

/// A data file read: its hash, and the keys whose values Puppet could not look up.
struct DataFile {
    hash: Hash,
    unusable: HashMap<String, String>,
}

/// A module's `lookup_options`: per key, and per pattern (keys starting with `^`).
struct LookupOptions {
    keys: Hash,
    patterns: Vec<(puppet_types::regexp::Regexp, Value)>,
}

/// The overrides and default values of a `lookup` call, which `%{var}` interpolation also
/// consults.
#[derive(Default)]
pub struct Invocation {
    pub overrides: Hash,
    pub defaults: Hash,
    /// Only the global layer is searched (`set_global_only`: a `hiera_*` call in an
    /// environment without data of its own).
    pub global_only: bool,
}

/// One step into a found value (`a.b.0` in `mod::key.a.b.0`).
#[derive(Clone, Debug)]
pub(crate) enum Segment {
    Key(String),
    Index(i64),
}

/// A key as `LookupKey` reads it: the root key (what data files hold), the module it names
/// and the segments to dig into the value with.
pub(crate) struct LookupKey {
    pub text: String,
    pub root: String,
    pub module: Option<String>,
    pub segments: Vec<Segment>,
}

impl LookupKey {
    pub fn parse(key: &str) -> Result<LookupKey, HieraError> {
        let mut segments =
            split_key(key).map_err(|problem| HieraError::Lookup(format!("{problem} in key: '{key}'")))?;
        let root = match segments.remove(0) {
            Segment::Key(k) => k,
            Segment::Index(i) => i.to_string(),
        };
        let module = root.find("::").map(|i| root[..i].to_string());
        Ok(LookupKey { text: key.to_string(), root, module, segments })
    }
}

/// `SubLookup#split_key`: `a.b` is `a`, `b`; a segment may be quoted (`a."b.c"`), is trimmed,
/// and is an index when it is an integer. `Err` holds the problem (`Syntax error`).
pub(crate) fn split_key(key: &str) -> Result<Vec<Segment>, &'static str> {
    if !key.contains(['\'', '"', '.']) {
        return Ok(vec![Segment::Key(key.to_string())]);
    }
    let b = key.as_bytes();
    let mut segments = Vec::new();
    let mut i = 0;
    loop {
        // A quoted segment, with blanks around it, or a run of anything but quotes and dots.
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        let quoted = match b.get(j) {
            Some(&q @ (b'"' | b'\'')) => match key[j + 1..].find(q as char) {
                Some(len) if len > 0 => {
                    let mut end = j + 1 + len + 1;
                    while end < b.len() && b[end].is_ascii_whitespace() {
                        end += 1;
                    }
                    segments.push(Segment::Key(key[j + 1..j + 1 + len].to_string()));
                    Some(end)
                }
                _ => None,
            },
            _ => None,
        };
        i = match quoted {
            Some(end) => end,
            None => {
                let end = key[i..].find(['\'', '"', '.']).map_or(key.len(), |n| i + n);
                if end == i {
                    return Err("Syntax error");
                }
                let text = key[i..end].trim();
                segments.push(match integer_segment(text) {
                    Some(n) => Segment::Index(n),
                    None => Segment::Key(text.to_string()),
                });
                end
            }
        };
        match b.get(i) {
            None => return Ok(segments),
            Some(b'.') if i + 1 < b.len() => i += 1,
            _ => return Err("Syntax error"),
        }
    }
}

/// `/^(:?[+-]?[0-9]+)$/` and Ruby's `to_i` of it (`:12` is 0).
fn integer_segment(s: &str) -> Option<i64> {
    let (colon, rest) = match s.strip_prefix(':') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let digits = rest.strip_prefix(['+', '-']).unwrap_or(rest);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(if colon { 0 } else { rest.parse::<i64>().unwrap_or(0) })
}

impl Segment {
    fn shown(&self) -> String {
        match self {
            Segment::Key(k) => k.clone(),
            Segment::Index(i) => i.to_string(),
        }
    }
}

/// `SubLookup#sub_lookup`: digs into `value` along `segments` (`None`: a step is missing),
/// explained (`Sub key: "a.b"` and each segment found or not) when an explainer is given.
pub(crate) fn sub_lookup(key: &str, segments: &[Segment], value: Value, explainer: Option<&mut Explainer>) -> Found {
    let Some(e) = explainer else { return sub_lookup_in(key, segments, value, &mut None) };
    let shown: Vec<String> = segments.iter().map(Segment::shown).collect();
    e.push(Kind::SubLookup { segments: shown.join(".") });
    let mut e = Some(e);
    let result = sub_lookup_in(key, segments, value, &mut e);
    if let Some(e) = e {
        e.pop();
    }
    result
}

fn sub_lookup_in(key: &str, segments: &[Segment], mut value: Value, e: &mut Option<&mut Explainer>) -> Found {
    for segment in segments {
        if let Some(e) = e {
            e.push(Kind::Segment);
        }
        let step = sub_lookup_step(key, segment, &value);
        if let Some(e) = e {
            match &step {
                Ok(Some(v)) => e.event(Event::Found { key: segment.shown(), value: v.clone() }),
                Ok(None) => e.event(Event::NotFound { key: segment.shown() }),
                Err(_) => {}
            }
            e.pop();
        }
        match step? {
            Some(v) => value = v,
            None => return Ok(None),
        }
    }
    Ok(Some(value))
}

/// One segment of a sub lookup.
fn sub_lookup_step(key: &str, segment: &Segment, value: &Value) -> Found {
    if value.is_undef() {
        return Ok(None);
    }
    {
        let next = match (segment, value) {
            (Segment::Index(i), Value::Array(items)) => match usize::try_from(*i).ok().and_then(|i| items.get(i)) {
                Some(v) => v.clone(),
                None => return Ok(None),
            },
            (_, Value::Hash(h)) => {
                let k = match segment {
                    Segment::Key(k) => Value::from(k.as_str()),
                    Segment::Index(i) => Value::Integer(*i),
                };
                match h.get(&k) {
                    Some(v) => v.clone(),
                    None => return Ok(None),
                }
            }
            // An Integer has `[]` (its bits) but no `include?`.
            (_, Value::Integer(_)) => {
                // Ruby's message, with error_highlight's excerpt of `sub_lookup.rb`
                return Err(HieraError::Other(format!(
                    "undefined method `include?' for {}\n\n            unless value.include?(segment)\n                        ^^^^^^^^^",
                    puppet_types::params::ruby_receiver(value)
                )));
            }
            _ => {
                let shown = match segment {
                    Segment::Key(k) => k.clone(),
                    Segment::Index(i) => i.to_string(),
                };
                return Err(HieraError::Lookup(format!(
                    "Data Provider type mismatch: Got {} when a hash-like object was expected to access value using '{shown}' from key '{key}'",
                    puppet_types::params::ruby_class(value)
                )));
            }
        };
        Ok(Some(next))
    }
}

/// Where a hierarchy entry's data is: a file and whether it exists, or nothing (the entry
/// gives its function no path).
struct Location {
    path: Option<PathBuf>,
    exists: bool,
    /// The path or pattern as configured (`Original path:` of an explanation).
    original: String,
}

/// `TypeAsserter.assert_instance_of(subject, t, value)`: `SUBJECT has wrong type, ...`.
fn assert_type(subject: &str, t: Option<&Type>, value: &Value) -> Eval<()> {
    match t {
        Some(t) if !puppet_types::instance::is_instance(t, value) => {
            Err(fail(puppet_types::mismatch::describe_value(&format!("{subject} has wrong type,"), t, value)))
        }
        _ => Ok(()),
    }
}

/// A `lookup()` call's arguments, once its signature is read.
pub struct Request {
    /// The name as given (a string or an array of strings), handed to the default block.
    pub name: Value,
    pub names: Vec<String>,
    pub value_type: Option<Type>,
    pub merge: Value,
    /// The default value, when there is one (`undef` is one).
    pub default: Option<Value>,
    pub block: Option<Value>,
    pub invocation: Invocation,
}

impl Evaluator {
    /// `Puppet::Pops::Lookup.lookup`: the first of the names that has a value (overrides
    /// first, then data, then the default values hash), checked against the value type;
    /// else the default block's value, or the default, or Puppet's error.
    pub fn lookup(&mut self, r: Request) -> Eval<Value> {
        let t = r.value_type.as_ref();
        for key in &r.names {
            if let Some(v) = r.invocation.overrides.get(&Value::from(key.as_str())) {
                assert_type(&format!("Value found for key '{key}' in override hash"), t, v)?;
                return Ok(v.clone());
            }
            if let Some(v) = self.search_and_merge(key, &r.invocation, &r.merge).map_err(Flow::from)? {
                assert_type("Found value", t, &v)?;
                return Ok(v);
            }
        }
        for key in &r.names {
            if let Some(v) = r.invocation.defaults.get(&Value::from(key.as_str())) {
                assert_type(&format!("Value found for key '{key}' in default values hash"), t, v)?;
                return Ok(v.clone());
            }
        }
        if let Some(block) = &r.block {
            let v = self.call_block(block, std::slice::from_ref(&r.name))?;
            assert_type("Value returned from default block", t, &v)?;
            return Ok(v);
        }
        if let Some(v) = r.default {
            assert_type("Default value", t, &v)?;
            return Ok(v);
        }
        Err(bare(match r.names.as_slice() {
            [one] => format!("Function lookup() did not find a value for the name '{one}'"),
            many => format!(
                "Function lookup() did not find a value for any of the names [{}]",
                many.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
            ),
        }))
    }

    /// `puppet lookup`'s search of one key (`Lookup.search_and_merge`): its value in data
    /// (`None`: there is none), merged as `merge` says (`undef`: as its `lookup_options`
    /// say).
    pub fn hiera_search(&mut self, key: &str, merge: &Value) -> Result<Option<Value>, HieraError> {
        self.search_and_merge(key, &Invocation::default(), merge)
    }

    /// Reads a type as Puppet's `TypeParser` does (`puppet lookup --type`); `Err` holds
    /// Puppet's message.
    pub fn parse_type(&mut self, source: &str) -> Result<Type, String> {
        crate::functions::parse_type_string(self, source).map_err(|f| match f {
            Flow::Error(e) => e.message,
            _ => String::new(),
        })
    }

    /// The file a Hiera configuration warning was about (Puppet prints it under the
    /// warning).
    pub fn hiera_warning_file(&self, message: &str) -> Option<&PathBuf> {
        self.hiera.warning_files.get(message)
    }

    /// Places the global and environment layers (kept until changed).
    pub fn set_hiera_layers(&mut self, layers: Layers) {
        self.hiera.layers = layers;
    }

    /// Starts explaining lookups (`--explain`; `only_options`: `--explain-options` alone).
    pub fn explain_lookups(&mut self, only_options: bool) {
        self.hiera.explainer = Some(Explainer::new(only_options));
    }

    /// The explanation grown so far, if lookups are explained.
    pub fn lookup_explainer(&mut self) -> Option<&mut Explainer> {
        self.hiera.explainer.as_mut()
    }

    /// Automatic parameter lookup of `class::param` when a class is declared: the value data
    /// has for it, or `None`.
    pub(crate) fn parameter_data(&mut self, key: &str) -> Eval<Option<Value>> {
        if self.loader.modulepath.is_empty()
            && self.hiera.layers.global.is_none()
            && self.hiera.layers.environment.is_none()
        {
            return Ok(None);
        }
        Ok(self.search_and_merge(key, &Invocation::default(), &Value::Undef)?)
    }

    /// `LookupAdapter#lookup`: the key's value in data, merged as `merge` (or the key's
    /// `lookup_options`) says, over the global, environment and module layers.
    pub(crate) fn search_and_merge(&mut self, key: &str, inv: &Invocation, merge: &Value) -> Found {
        if key == "lookup_options" || key.starts_with("lookup_options.") {
            self.explained(|| Kind::InvalidKey { key: "lookup_options".into() }, |_| ());
            return Ok(None);
        }
        let key = LookupKey::parse(key)?;
        if self.hiera.explainer.as_ref().is_some_and(|e| e.only_explain_options) {
            let options_key = LookupKey { module: key.module.clone(), ..LookupKey::parse("lookup_options")? };
            self.do_lookup(&options_key, inv, &Value::from("hash"))?;
            return Ok(Some(Value::Undef));
        }
        let options = self.key_lookup_options(&key)?;
        let option = |name: &str| options.as_ref().and_then(|o| o.get(&Value::from(name)).cloned());
        let merge = match (merge.is_undef(), option("merge")) {
            (true, Some(m)) => {
                if let Some(e) = &mut self.hiera.explainer {
                    e.merge_source("lookup_options");
                }
                m
            }
            _ => merge.clone(),
        };
        let found = self.explained(
            || Kind::Top { key: key.text.clone() },
            |ev| match ev.do_lookup(&key, inv, &merge)? {
                Some(v) => Ok(Some(v)),
                None if inv.global_only => Ok(None),
                None => match ev.lookup_default_in_module(&key, inv)? {
                    Some(v) => ev.dig(&key, v),
                    None => Ok(None),
                },
            },
        )?;
        match (found, option("convert_to")) {
            (Some(v), Some(to)) => self.convert_found(&key.text, v, to).map(Some),
            (found, _) => Ok(found),
        }
    }

    /// Runs `f` inside an explanation node (`Invocation#with`): pushed when explaining, and
    /// popped whatever `f` gives.
    fn explained<T>(&mut self, kind: impl FnOnce() -> Kind, f: impl FnOnce(&mut Self) -> T) -> T {
        let Some(e) = &mut self.hiera.explainer else { return f(self) };
        e.push(kind());
        let result = f(self);
        if let Some(e) = &mut self.hiera.explainer {
            e.pop();
        }
        result
    }

    /// Reports an event at the current explanation node (made only when explaining).
    fn report(&mut self, event: impl FnOnce() -> Event) {
        if let Some(e) = &mut self.hiera.explainer {
            e.event(event());
        }
    }

    /// `LookupKey#dig`: the part of a found value the key's segments name, explained.
    fn dig(&mut self, key: &LookupKey, value: Value) -> Found {
        if key.segments.is_empty() {
            return Ok(Some(value));
        }
        sub_lookup(&key.text, &key.segments, value, self.hiera.explainer.as_mut())
    }

    /// `MergeStrategy#lookup` over `variants`, explained: a merge of more than one variant is
    /// a node with its merged result (the first found strategy merges nothing).
    fn merge_lookup<T>(
        &mut self,
        strategy: &Strategy,
        variants: &[T],
        mut found: impl FnMut(&mut Self, &T) -> Found,
    ) -> Found {
        match (strategy, variants) {
            (Strategy::First, _) => {
                for v in variants {
                    if let Some(value) = found(self, v)? {
                        return Ok(Some(value));
                    }
                }
                Ok(None)
            }
            (_, []) => Ok(None),
            (_, [one]) => Ok(found(self, one)?.map(|v| strategy.merge_single(v))),
            _ => self.explained(
                || Kind::Merge { strategy: strategy.key().into(), options: strategy.shown_options() },
                |ev| {
                    let mut memo: Option<Value> = None;
                    for v in variants {
                        if let Some(value) = found(ev, v)? {
                            memo = Some(match memo {
                                None => strategy.convert_value(value),
                                Some(m) => strategy.merge(m, value)?,
                            });
                        }
                    }
                    if let Some(m) = &memo {
                        ev.report(|| Event::Result { value: m.clone() });
                    }
                    Ok(memo)
                },
            ),
        }
    }

    /// `do_lookup`: the key merged over the three layers (`PROVIDER_STACK`), then dug into.
    fn do_lookup(&mut self, key: &LookupKey, inv: &Invocation, merge: &Value) -> Found {
        let strategy = Strategy::from_value(merge)?;
        let all = [Layer::Global, Layer::Environment, Layer::Module(String::new())];
        let layers = if inv.global_only { &all[..1] } else { &all[..] };
        let found = self.merge_lookup(&strategy, layers, |ev, layer| match layer {
            Layer::Global => {
                // The global layer looks first; its recursion guard is the one that sees a
                // key looked up again from its own data (Puppet words it so).
                if ev.hiera.stack.contains(&key.text) {
                    return Err(HieraError::Lookup(format!(
                        "Lookup of key '{}' failed: Recursive lookup detected in [{}]",
                        key.text,
                        ev.hiera.stack.join(", ")
                    )));
                }
                if ev.hiera.layers.global.is_none() {
                    return Ok(None);
                }
                ev.provider_lookup(&Layer::Global, key, inv, &strategy, false)
            }
            Layer::Environment => {
                if ev.hiera.layers.environment.is_none() {
                    return Ok(None);
                }
                ev.provider_lookup(&Layer::Environment, key, inv, &strategy, false)
            }
            Layer::Module(_) => ev.lookup_in_module(key, inv, &strategy),
        })?;
        match found {
            Some(v) => self.dig(key, v),
            None => Ok(None),
        }
    }

    /// `lookup_in_module`: the module layer of the key's module, or nothing (explained: the
    /// module is not there, or has no data provider).
    fn lookup_in_module(&mut self, key: &LookupKey, inv: &Invocation, strategy: &Strategy) -> Found {
        let Some(module) = key.module.clone() else { return Ok(None) };
        let layer = Layer::Module(module.clone());
        if self.layer_config(&layer)?.is_none() {
            let event =
                if self.module_dir(&module).is_none() { Event::ModuleNotFound } else { Event::ModuleProviderNotFound };
            if let Some(e) = &mut self.hiera.explainer {
                e.module(&module, event);
            }
            return Ok(None);
        }
        self.provider_lookup(&layer, key, inv, strategy, false)
    }

    /// A configured data provider's `key_lookup` (or `key_lookup_in_default`): the root key
    /// merged over the layer's hierarchy, under the recursion guard.
    fn provider_lookup(
        &mut self,
        layer: &Layer,
        key: &LookupKey,
        inv: &Invocation,
        strategy: &Strategy,
        default_hierarchy: bool,
    ) -> Found {
        let Some(config) = self.layer_config(layer)? else { return Ok(None) };
        let place = layer.place().name();
        let provider_name = |config: Option<&Config>| {
            let mut n = format!("{place} ");
            if let Some(m) = layer.module() {
                n.push_str(&format!("\"{m}\" "));
            }
            n.push_str("Data Provider");
            if let Some(c) = config {
                n.push_str(&format!(" (hiera configuration version {})", c.version));
            }
            n
        };
        let config_path = (!config.is_default).then(|| config.path.display().to_string());
        let entries = if default_hierarchy {
            config.default_hierarchy.clone().unwrap_or_default()
        } else {
            config.hierarchy.clone()
        };
        let module = layer.module().map(str::to_owned);
        let search = |ev: &mut Self| {
            ev.explained(
                || Kind::DataProvider { name: provider_name(None), config_path: None, module: module.clone() },
                |ev| {
                    if let Some(e) = &mut ev.hiera.explainer {
                        e.rename_provider(provider_name(Some(&config)), config_path.clone());
                    }
                    let mut providers = Vec::new();
                    for entry in &entries {
                        let locations = ev.resolve_locations(&config, entry, inv)?;
                        let none = matches!(entry.locations, Locations::None);
                        if config.is_default && !none && locations.is_empty() {
                            continue;
                        }
                        providers.push((entry, locations));
                    }
                    if providers.is_empty() {
                        ev.report(|| Event::NotFound { key: key.text.clone() });
                        return Ok(None);
                    }
                    ev.merge_lookup(strategy, &providers, |ev, (entry, locations)| {
                        ev.lookup_in_entry(module.as_deref(), entry, locations, &key.root, strategy, inv)
                    })
                },
            )
        };
        self.checked(&key.text, search)
    }

    /// A layer's configuration, read once per compilation (its warnings then): the global
    /// `hiera.yaml` (Puppet's default one where there is none), the environment's, a
    /// module's.
    /// Whether the environment has a data provider of its own (a `hiera.yaml`), Puppet's
    /// `has_environment_data_provider?`.
    pub(crate) fn environment_has_data(&mut self) -> Result<bool, HieraError> {
        if self.hiera.layers.environment.is_none() {
            return Ok(false);
        }
        Ok(self.layer_config(&Layer::Environment)?.is_some())
    }

    fn layer_config(&mut self, layer: &Layer) -> Result<Option<Rc<Config>>, HieraError> {
        if let Some(c) = self.hiera.configs.get(layer) {
            return c.clone();
        }
        let mut warnings = Vec::new();
        let strict = self.options.strict;
        let result = match layer {
            Layer::Global => match &self.hiera.layers.global {
                Some(path) if path.is_file() => config::load(path, strict, &mut warnings, Place::Global),
                Some(path) => Ok(Some(config::default_v5(path.parent().unwrap_or(std::path::Path::new("/"))))),
                None => Ok(None),
            },
            Layer::Environment => match &self.hiera.layers.environment {
                Some(dir) if dir.join(config::CONFIG_FILE_NAME).is_file() => {
                    config::load(&dir.join(config::CONFIG_FILE_NAME), strict, &mut warnings, Place::Environment)
                }
                _ => Ok(None),
            },
            Layer::Module(module) => {
                let root = self.module_dir(module);
                match root.map(|r| r.join(config::CONFIG_FILE_NAME)).filter(|p| p.is_file()) {
                    Some(path) => self
                        .module_metadata_check(module)
                        .and_then(|()| config::load(&path, strict, &mut warnings, Place::Module)),
                    None => self.module_metadata_check(module).map(|()| None),
                }
            }
        };
        let result = result.map(|c| c.map(Rc::new));
        let file = match layer {
            Layer::Global => self.hiera.layers.global.clone(),
            Layer::Environment => self.hiera.layers.environment.as_ref().map(|d| d.join(config::CONFIG_FILE_NAME)),
            Layer::Module(m) => self.module_dir(m).map(|d| d.join(config::CONFIG_FILE_NAME)),
        };
        for w in warnings {
            if let Some(f) = &file {
                self.hiera.warning_files.insert(w.message.clone(), f.clone());
            }
            match w.once {
                Some(key) => crate::functions::warn_once(self, &key, &w.message),
                None => self.log(Level::Warning, w.message),
            }
        }
        self.hiera.configs.insert(layer.clone(), result.clone());
        result
    }

    /// A module's `metadata.json` may name a data provider (`data_provider`), deprecated and
    /// not modelled: only none is accepted.
    fn module_metadata_check(&self, module: &str) -> Result<(), HieraError> {
        let Some(root) = self.module_dir(module) else { return Ok(()) };
        let Ok(text) = std::fs::read_to_string(root.join("metadata.json")) else { return Ok(()) };
        let Some(Ok(Value::Hash(meta))) = &pfmt::data::json::documents(&text).next() else { return Ok(()) };
        match meta.get(&Value::from("data_provider")) {
            None | Some(Value::Undef) => Ok(()),
            Some(p) => Err(HieraError::Other(format!(
                "Module '{module}': the data provider {} of metadata.json is not supported (use a hiera.yaml)",
                puppet_types::display::value_to_string(p)
            ))),
        }
    }

    /// `Invocation#check`: runs `f` with `name` on the name stack; a name already there is a
    /// recursive lookup. Puppet errors leave as LookupErrors.
    fn checked<T>(&mut self, name: &str, f: impl FnOnce(&mut Self) -> Result<T, HieraError>) -> Result<T, HieraError> {
        if self.hiera.stack.iter().any(|n| n == name) {
            return Err(HieraError::Lookup(format!("Recursive lookup detected in [{}]", self.hiera.stack.join(", "))));
        }
        if self.hiera.stack.len() >= self.options.max_depth {
            return Err(HieraError::Lookup(format!("Lookups nest deeper than {} levels", self.options.max_depth)));
        }
        self.hiera.stack.push(name.to_string());
        // Data may make lookups nest deeply (each `%{lookup()}` is one more level).
        let result = stacker::maybe_grow(64 * 1024, 1024 * 1024, || f(self));
        self.hiera.stack.pop();
        result.map_err(|e| match e {
            HieraError::Puppet(m) => HieraError::Lookup(m),
            other => other,
        })
    }

    /// `lookup_default_in_module`: a key missing everywhere else is looked for in its
    /// module's `default_hierarchy`, merged as that hierarchy's own `lookup_options` say.
    fn lookup_default_in_module(&mut self, key: &LookupKey, inv: &Invocation) -> Found {
        let Some(module) = key.module.clone() else { return Ok(None) };
        let layer = Layer::Module(module.clone());
        let Some(config) = self.layer_config(&layer)? else { return Ok(None) };
        if config.default_hierarchy.is_none() {
            return Ok(None);
        }
        self.explained(
            || Kind::Scope { name: format!("Searching default_hierarchy of module \"{module}\"") },
            |ev| {
                let options = match ev.hiera.default_options.get(&module) {
                    Some(o) => o.clone(),
                    None => {
                        let options_key =
                            LookupKey { module: Some(module.clone()), ..LookupKey::parse("lookup_options")? };
                        let meta = Invocation::default();
                        let found = ev.explained(
                            || Kind::Scope { name: "Searching for \"lookup_options\"".into() },
                            |ev| ev.provider_lookup(&layer, &options_key, &meta, &Strategy::Hash, true),
                        )?;
                        let compiled = match found {
                            Some(o) => compile_lookup_options(validate_lookup_options(o, Some(&module))?)?,
                            None => None,
                        };
                        ev.hiera.default_options.insert(module.clone(), compiled.clone());
                        compiled
                    }
                };
                let merge =
                    options.and_then(|o| o.for_key(&key.root)).and_then(|o| o.get(&Value::from("merge")).cloned());
                let strategy = Strategy::from_value(&merge.unwrap_or(Value::Undef))?;
                ev.explained(
                    || Kind::Scope { name: format!("Searching for \"{}\"", key.text) },
                    |ev| ev.provider_lookup(&layer, key, inv, &strategy, true),
                )
            },
        )
    }

    /// One hierarchy entry (a data hash function provider): the root key's value merged over
    /// the entry's locations.
    fn lookup_in_entry(
        &mut self,
        module: Option<&str>,
        entry: &Entry,
        locations: &[Location],
        root: &str,
        strategy: &Strategy,
        inv: &Invocation,
    ) -> Found {
        self.explained(
            || Kind::DataProvider {
                name: format!("Hierarchy entry \"{}\"", entry.name),
                config_path: None,
                module: None,
            },
            |ev| {
                ev.merge_lookup(strategy, locations, |ev, location| {
                    let Some(path) = &location.path else { return ev.data_value(module, entry, location, root, inv) };
                    ev.explained(
                        || Kind::Location {
                            location: path.display().to_string(),
                            original: location.original.clone(),
                            uri: false,
                        },
                        |ev| {
                            if !location.exists {
                                ev.report(|| Event::LocationNotFound);
                                return Ok(None);
                            }
                            ev.data_value(module, entry, location, root, inv)
                        },
                    )
                })
            },
        )
    }

    /// The entry's locations, interpolated in the current scope (Puppet makes its data
    /// providers again when the variables they used change; here they are made each time).
    /// Puppet's default configuration keeps only the paths that exist.
    fn resolve_locations(
        &mut self,
        config: &Config,
        entry: &Entry,
        inv: &Invocation,
    ) -> Result<Vec<Location>, HieraError> {
        // Paths in hiera.yaml are interpolated outside the explanation, as Puppet's are.
        let explainer = self.hiera.explainer.take();
        let result = self.resolve_locations_unexplained(config, entry, inv);
        self.hiera.explainer = explainer;
        let mut locations = result?;
        if config.is_default {
            locations.retain(|l| l.path.is_none() || l.exists);
        }
        Ok(locations)
    }

    fn resolve_locations_unexplained(
        &mut self,
        config: &Config,
        entry: &Entry,
        inv: &Invocation,
    ) -> Result<Vec<Location>, HieraError> {
        let mut datadir = config.root.join(&entry.datadir);
        if config.version >= 5 {
            let text = datadir.to_string_lossy().into_owned();
            datadir = PathBuf::from(self.interpolate_text(&text, inv)?);
        }
        let file = |path: PathBuf, original: String| {
            let exists = path.exists();
            Location { path: Some(path), exists, original }
        };
        Ok(match &entry.locations {
            Locations::None => vec![Location { path: None, exists: true, original: String::new() }],
            Locations::Uris(uris) => {
                uris.iter().map(|u| Location { path: None, exists: true, original: u.clone() }).collect()
            }
            Locations::Paths(paths) => {
                let mut out = Vec::new();
                for original in paths {
                    let mut p = self.interpolate_text(original, inv)?;
                    if let Some(ext) = &entry.extension {
                        if !p.ends_with(ext.as_str()) {
                            p.push_str(ext);
                        }
                    }
                    out.push(file(datadir.join(p), original.clone()));
                }
                out
            }
            Locations::Globs(globs) => {
                let mut out = Vec::new();
                for g in globs {
                    let pattern = datadir.join(self.interpolate_text(g, inv)?);
                    let shown = pattern.to_string_lossy().into_owned();
                    if let Ok(paths) = glob::glob(&shown) {
                        out.extend(paths.flatten().filter(|p| !p.is_dir()).map(|p| file(p, shown.clone())));
                    }
                }
                out
            }
            Locations::Mapped([variable, name, template]) => {
                let values = match &self.hiera_scope_lookup(variable, inv, "mapped_path[0]")? {
                    Value::String(s) if s.is_empty() => Vec::new(),
                    Value::String(s) => vec![Value::String(s.clone())],
                    Value::Array(items) => items.to_vec(),
                    _ => Vec::new(),
                };
                let mut out = Vec::new();
                for v in values {
                    let saved = self.scope.clone();
                    self.scope = crate::scope::Scope::local(&saved);
                    self.scope.bind(Rc::from(name.as_str()), v);
                    let p = self.interpolate_text(template, inv);
                    self.scope = saved;
                    out.push(file(datadir.join(p?), template.clone()));
                }
                out
            }
        })
    }

    /// `DataHashFunctionProvider#data_value`: the root key's value in the data at
    /// `location`, checked and interpolated, and reported.
    fn data_value(
        &mut self,
        module: Option<&str>,
        entry: &Entry,
        location: &Location,
        root: &str,
        inv: &Invocation,
    ) -> Found {
        let function = &entry.function;
        if function.kind == "lookup_key" && function.name == "eyaml_lookup_key" {
            // Puppet 7.23's agent has no hiera-eyaml: it refuses the function alike
            return Err(HieraError::Other(
                "Function Load Error for function 'eyaml_lookup_key': Lookup using eyaml lookup_key function is only supported when the hiera_eyaml library is present".into(),
            ));
        }
        if function.kind != "data_hash" || !matches!(function.name.as_str(), "yaml_data" | "json_data" | "hocon_data") {
            return Err(HieraError::Other(format!(
                "The {} function '{}' of hierarchy '{}' is not available: Poppet reads Hiera data with yaml_data, json_data and hocon_data only",
                function.kind, function.name, entry.name
            )));
        }
        let Some(path) = &location.path else {
            return Err(HieraError::Other(format!(
                "'{}' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function",
                function.name
            )));
        };
        let data = self.data_file(&function.name, path)?;
        if let Some(module) = module {
            if self.hiera.checked.insert((module.to_string(), path.clone())) {
                let prefix = format!("{module}::");
                for k in data.hash.keys() {
                    let qualified = matches!(k, Value::String(s) if &**s == "lookup_options" || s.starts_with(&prefix));
                    if !qualified {
                        self.log(
                            Level::Warning,
                            format!(
                                "Module '{module}': Value returned from data_hash function '{}', when using location '{}', must use keys qualified with the name of the module",
                                function.name,
                                path.display()
                            ),
                        );
                    }
                }
            }
        }
        let Some(value) = data.hash.get(&Value::from(root)).cloned() else {
            self.report(|| Event::NotFound { key: root.to_string() });
            return Ok(None);
        };
        if let Some(actual) = data.unusable.get(root) {
            return Err(HieraError::Puppet(format!(
                "Value for key '{root}', in hash returned from data_hash function '{}', when using location '{}', has wrong type, expects Puppet::LookupValue, got {actual}",
                function.name,
                path.display()
            )));
        }
        let value = self.hiera_interpolate(value, inv, true)?;
        self.report(|| Event::Found { key: root.to_string(), value: value.clone() });
        Ok(Some(value))
    }

    /// A data file, read once per compilation by `yaml_data`, `json_data` or `hocon_data`.
    fn data_file(&mut self, function: &str, path: &PathBuf) -> Result<Rc<DataFile>, HieraError> {
        if let Some(f) = self.hiera.files.get(path) {
            return f.clone();
        }
        let result = self.read_data_file(function, path, &path.display().to_string()).map(Rc::new);
        self.hiera.files.insert(path.clone(), result.clone());
        result
    }

    fn read_data_file(&mut self, function: &str, path: &PathBuf, shown: &str) -> Result<DataFile, HieraError> {
        let text =
            std::fs::read_to_string(path).map_err(|e| HieraError::Lookup(format!("Unable to parse ({shown}): {e}")))?;
        if function == "hocon_data" {
            return match hocon::parse(&text) {
                Ok(config) => match hocon_object(&config) {
                    Ok(hash) => Ok(DataFile { hash, unusable: HashMap::new() }),
                    Err(e) => Err(HieraError::Lookup(format!("Unable to parse ({shown}): {e}"))),
                },
                Err(e) => Err(HieraError::Lookup(format!("Unable to parse ({shown}): {e}"))),
            };
        }
        if function == "json_data" {
            return match &pfmt::data::json::documents(&text).next() {
                Some(Ok(Value::Hash(h))) => Ok(DataFile { hash: (**h).clone(), unusable: HashMap::new() }),
                Some(Ok(other)) => Err(HieraError::Puppet(puppet_types::mismatch::describe_value(
                    &format!("Value returned from data_hash function 'json_data', when using location '{shown}', has wrong type,"),
                    &Type::Hash { key: None, value: None, size: None },
                    other,
                ))),
                Some(Err(e)) => Err(HieraError::Lookup(format!("Unable to parse ({shown}): {e}"))),
                None => Err(HieraError::Lookup(format!("Unable to parse ({shown}): unexpected end of input"))),
            };
        }
        match yaml::read(&text) {
            Ok(yaml::Document { value: Some(value), unusable }) if matches!(value, Value::Hash(_)) => {
                let Value::Hash(h) = &value else { return Ok(DataFile { hash: Hash::default(), unusable }) };
                Ok(DataFile { hash: (**h).clone(), unusable })
            }
            Ok(document) => {
                let message = format!("{shown}: file does not contain a valid yaml hash");
                let empty = matches!(document.value, None | Some(Value::Undef) | Some(Value::Boolean(false)));
                if self.options.strict == crate::eval::Strict::Error && !empty {
                    return Err(HieraError::Lookup(message));
                }
                self.log(Level::Warning, message);
                Ok(DataFile { hash: Hash::default(), unusable: HashMap::new() })
            }
            Err(yaml::YamlError::Syntax(m)) => Err(HieraError::Lookup(format!("Unable to parse ({shown}): {m}"))),
            Err(yaml::YamlError::DisallowedClass(c)) => {
                Err(HieraError::Lookup(format!("Unable to parse ({shown}): Tried to load unspecified class: {c}")))
            }
        }
    }

    /// The `lookup_options` that apply to the key (`lookup_lookup_options`), searched once
    /// per module.
    fn key_lookup_options(&mut self, key: &LookupKey) -> Result<Option<Hash>, HieraError> {
        let options = match self.hiera.options.get(&key.module) {
            Some(o) => o.clone(),
            None => {
                let o = self.retrieve_lookup_options(key.module.clone())?;
                self.hiera.options.insert(key.module.clone(), o.clone());
                o
            }
        };
        Ok(options.and_then(|o| o.for_key(&key.root)))
    }

    /// `retrieve_lookup_options`: the global and environment layers' `lookup_options`, and
    /// the module's merged into them (explained as a search of its own).
    fn retrieve_lookup_options(&mut self, module: Option<String>) -> Result<Option<Rc<LookupOptions>>, HieraError> {
        let meta = Invocation::default();
        self.explained(
            || Kind::Top { key: "lookup_options".into() },
            |ev| {
                let mut opts = ev.env_lookup_options(&meta)?;
                if let Some(m) = &module {
                    if let std::collections::hash_map::Entry::Vacant(slot) = ev.hiera.options.entry(None) {
                        slot.insert(compile_lookup_options(opts.clone())?);
                    }
                    let options_key = LookupKey { module: Some(m.clone()), ..LookupKey::parse("lookup_options")? };
                    let found = ev.lookup_in_module(&options_key, &meta, &Strategy::Hash)?;
                    if let Some(found) = found {
                        let module_opts = validate_lookup_options(found, Some(m))?;
                        opts = match (opts, module_opts) {
                            (None, mo) => mo,
                            (Some(o), None) => Some(o),
                            (Some(o), Some(mo)) => {
                                let names = [GLOBAL_ENV_MERGE.to_string(), format!("Module {m}")];
                                let merged = ev.merge_lookup(&Strategy::Hash, &names, |ev, name| {
                                    let value =
                                        Value::hash(if name == GLOBAL_ENV_MERGE { o.clone() } else { mo.clone() });
                                    ev.explained(
                                        || Kind::Scope { name: name.clone() },
                                        |ev| {
                                            ev.report(|| Event::Found {
                                                key: "lookup_options".into(),
                                                value: value.clone(),
                                            });
                                            Ok(Some(value))
                                        },
                                    )
                                })?;
                                match &merged {
                                    Some(Value::Hash(h)) => Some((**h).clone()),
                                    _ => None,
                                }
                            }
                        };
                    }
                }
                compile_lookup_options(opts)
            },
        )
    }

    /// `global_lookup_options` and `env_lookup_options`: the two layers' `lookup_options`
    /// (the environment's winning), searched once.
    /// The `lookup_options` of the global or environment layer (validated), when the layer
    /// is `configured`.
    fn layer_lookup_options(
        &mut self,
        configured: bool,
        layer: &Layer,
        key: &LookupKey,
        meta: &Invocation,
    ) -> Result<Option<Hash>, HieraError> {
        if !configured {
            return Ok(None);
        }
        match self.provider_lookup(layer, key, meta, &Strategy::Hash, false)? {
            Some(v) => validate_lookup_options(v, None),
            None => Ok(None),
        }
    }

    fn env_lookup_options(&mut self, meta: &Invocation) -> Result<Option<Hash>, HieraError> {
        if let Some(o) = &self.hiera.env_options {
            return Ok(o.clone());
        }
        let options_key = LookupKey::parse("lookup_options")?;
        let global = match self.hiera.global_options.clone() {
            Some(g) => g,
            None => {
                let configured = self.hiera.layers.global.is_some();
                let g = self.layer_lookup_options(configured, &Layer::Global, &options_key, meta)?;
                self.hiera.global_options = Some(g.clone());
                g
            }
        };
        let configured = self.hiera.layers.environment.is_some();
        let env = self.layer_lookup_options(configured, &Layer::Environment, &options_key, meta)?;
        let merged = match (global, env) {
            (None, e) => e,
            (g, None) => g,
            (Some(g), Some(e)) => match &Strategy::Hash.merge(Value::hash(g), Value::hash(e))? {
                Value::Hash(h) => Some((**h).clone()),
                _ => None,
            },
        };
        self.hiera.env_options = Some(merged.clone());
        Ok(merged)
    }

    /// `convert_to` of `lookup_options`: `new(T, value, *args)`.
    fn convert_found(&mut self, key: &str, value: Value, to: Value) -> Result<Value, HieraError> {
        let mut args: Vec<Value> = match &to {
            Value::Array(items) => items.to_vec(),
            other => vec![other.clone()],
        };
        if let Some(Value::String(source)) = args.first().cloned().as_ref() {
            let t = crate::functions::parse_type_string(self, source).map_err(|f| {
                let msg = match f {
                    Flow::Error(e) => e.message,
                    _ => String::new(),
                };
                HieraError::Lookup(format!(
                    "Invalid data type in lookup_options for key '{key}' could not parse '{source}', error: '{msg}"
                ))
            })?;
            args[0] = Value::ty(t);
        }
        let Some(first) = args.first().cloned() else { return Ok(value) };
        let shown = puppet_types::display::value_to_string(&Value::array(args.clone()));
        let mut call = vec![first, value];
        call.extend(args.into_iter().skip(1));
        let converted = self.call_function_inner("new", call, None, puppet_syntax::Span::default()).map_err(|f| {
            let msg = match f {
                Flow::Error(e) => e.message,
                _ => String::new(),
            };
            HieraError::Lookup(format!("The convert_to lookup_option for key '{key}' raised error: {msg}"))
        })?;
        if let Some(e) = &mut self.hiera.explainer {
            e.text(format!("Applying convert_to lookup_option with arguments {shown}"));
        }
        Ok(converted)
    }
}

/// `validate_lookup_options`: a hash, whose keys (and `^` patterns) name the module's keys
/// when it is a module's.
fn validate_lookup_options(options: Value, module: Option<&str>) -> Result<Option<Hash>, HieraError> {
    let Value::Hash(h) = &options else {
        return Err(HieraError::Lookup("value of lookup_options must be a hash".into()));
    };
    if let Some(module) = module {
        let prefix = format!("{module}::");
        for k in h.keys() {
            let k = puppet_types::display::value_to_s(k);
            match k.strip_prefix('^') {
                Some(rest) if !rest.starts_with(&prefix) => {
                    return Err(HieraError::Lookup(format!(
                        "all lookup_options patterns must match a key starting with module name '{module}'"
                    )))
                }
                None if !k.starts_with(&prefix) => {
                    return Err(HieraError::Lookup(format!(
                        "all lookup_options keys must start with module name '{module}'"
                    )))
                }
                _ => {}
            }
        }
    }
    Ok(Some((**h).clone()))
}

/// `compile_patterns`: keys, and `^` patterns as regexps.
fn compile_lookup_options(options: Option<Hash>) -> Result<Option<Rc<LookupOptions>>, HieraError> {
    let Some(h) = options else { return Ok(None) };
    let mut compiled = LookupOptions { keys: Hash::default(), patterns: Vec::new() };
    for (k, v) in h.iter() {
        let k = puppet_types::display::value_to_s(k);
        if k.starts_with('^') {
            let re = puppet_types::regexp::Regexp::compile(k.as_str()).map_err(HieraError::Other)?;
            compiled.patterns.push((re, v.clone()));
        } else {
            compiled.keys.insert(Value::from(k.as_str()), v.clone());
        }
    }
    Ok(Some(Rc::new(compiled)))
}

impl LookupOptions {
    /// `extract_lookup_options_for_key`: the options of the root key, else of the first
    /// pattern that matches it.
    fn for_key(&self, root: &str) -> Option<Hash> {
        let found = self
            .keys
            .get(&Value::from(root))
            .cloned()
            .or_else(|| self.patterns.iter().find(|(re, _)| re.is_match(root)).map(|(_, v)| v.clone()))?;
        match &found {
            Value::Hash(h) => Some((**h).clone()),
            _ => None,
        }
    }
}

/// A HOCON document's top-level object as a hash, its keys in order (the `hocon` gem's
/// `ConfigFactory.parse_string(...).resolve.root.unwrapped`, which Hiera's `hocon_data` and
/// stdlib's `parsehocon` run); the gem's message where it fails (a number too big for a
/// float). One difference is known: where a key is given an object twice (`a = { x: 1 }`
/// then `a = { y: 2 }`), the gem lists the later object's keys first, the `hocon-parser`
/// crate in the order written.
pub(crate) fn hocon_object(config: &hocon::Config) -> Result<Hash, String> {
    config
        .keys()
        .into_iter()
        .filter_map(|key| {
            let value = config.get(&format!("\"{}\"", key.replace('"', "\\\""))).or_else(|| config.get(key))?;
            Some(hocon_value(value).map(|v| (Value::from(key), v)))
        })
        .collect()
}

/// A HOCON value as a Puppet value, `null` as undef.
fn hocon_value(value: &hocon::HoconValue) -> Result<Value, String> {
    use hocon::{HoconValue, ScalarType};
    Ok(match value {
        HoconValue::Object(entries) => Value::hash(
            entries
                .iter()
                .map(|(k, v)| Ok((Value::from(k.as_str()), hocon_value(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        HoconValue::Array(items) => Value::array(items.iter().map(hocon_value).collect::<Result<_, _>>()?),
        HoconValue::Scalar(scalar) => match scalar.value_type {
            ScalarType::Null => Value::Undef,
            ScalarType::Boolean => Value::Boolean(scalar.raw == "true"),
            ScalarType::Number => hocon_number(&scalar.raw)?,
            _ => Value::from(scalar.raw.as_str()),
        },
        _ => Value::Undef,
    })
}

/// A number as the gem's tokenizer reads it: with a `.`, `e` or `E` by Ruby's `Float()`,
/// else by `Integer()` (so `010` is 8), of any size; a float that is whole becomes an
/// integer (`1.0` is 1; one that is infinite fails as Ruby's `to_i` does). Text that Ruby
/// does not read as a number stays a string.
fn hocon_number(raw: &str) -> Result<Value, String> {
    if raw.contains(['.', 'e', 'E']) {
        let Some(f) = poppet_ruby::kernel::float(raw) else { return Ok(Value::from(raw)) };
        if f.is_nan() {
            return Err("NaN".into());
        }
        if f.is_infinite() {
            return Err(if f < 0.0 { "-Infinity" } else { "Infinity" }.into());
        }
        if f.trunc() == f {
            return Ok(puppet_types::Int::from_f64(f).map_or(Value::Float(f), puppet_types::Int::into_value));
        }
        return Ok(Value::Float(f));
    }
    Ok(poppet_ruby::kernel::integer(raw, None)
        .map_or_else(|| Value::from(raw), |i| puppet_types::Int::from_big(i).into_value()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(key: &str) -> String {
        match split_key(key) {
            Ok(s) => s
                .iter()
                .map(|s| match s {
                    Segment::Key(k) => format!("{k:?}"),
                    Segment::Index(i) => i.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn keys_split_as_puppet_splits_them() {
        assert_eq!(keys("a::b"), "\"a::b\"");
        assert_eq!(keys("a.b.0"), "\"a\" \"b\" 0");
        assert_eq!(keys("a.'b.c'. d "), "\"a\" \"b.c\" \"d\"");
        assert_eq!(keys("a..b"), "Syntax error");
        assert_eq!(keys("a."), "Syntax error");
        assert_eq!(keys(".a"), "Syntax error");
        assert_eq!(keys("x\"y\""), "Syntax error");
    }
}
