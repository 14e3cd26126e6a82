//! A stand-in for Puppet's scope: a few variables of each kind of value, functions that
//! answer their arguments, and no modules.

use std::collections::HashMap;

use poppet_erb::value::RValue;
use poppet_erb::{Error, Host, Printer};
use puppet_types::value::Hash;
use puppet_types::Value;

pub struct TestHost {
    pub vars: HashMap<String, Value>,
    pub log: Vec<String>,
}

impl TestHost {
    pub fn new() -> TestHost {
        let mut vars = HashMap::new();
        let mut h = Hash::default();
        h.insert(Value::from("a"), Value::Integer(1));
        h.insert(Value::from("b"), Value::array(vec![Value::from("x"), Value::Undef]));
        vars.insert("name".into(), Value::from("web01"));
        vars.insert("port".into(), Value::Integer(8080));
        vars.insert("ratio".into(), Value::Float(0.5));
        vars.insert("enabled".into(), Value::Boolean(true));
        vars.insert("servers".into(), Value::array(vec![Value::from("a.example"), Value::from("b.example")]));
        vars.insert("options".into(), Value::hash(h));
        vars.insert("nothing".into(), Value::Default);
        TestHost { vars, log: Vec::new() }
    }
}

impl Printer for TestHost {
    fn to_s(&self, v: &Value) -> String {
        puppet_types::display::value_to_s(v)
    }

    fn inspect(&self, _: &Value) -> Option<String> {
        None
    }

    fn scope_to_s(&self) -> String {
        "Scope(Class[main])".into()
    }
}

impl Host for TestHost {
    fn lookupvar(&mut self, name: &str) -> Result<Option<Value>, Error> {
        Ok(self.vars.get(name).cloned())
    }

    fn variables(&mut self) -> Vec<(String, Value)> {
        let mut v: Vec<_> = self.vars.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    fn setvar(&mut self, name: &str, value: Value, _: Option<RValue>) -> Result<(), Error> {
        if self.vars.contains_key(name) {
            return Err(Error::puppet(format!("Cannot reassign variable '${name}'")));
        }
        self.vars.insert(name.into(), value);
        Ok(())
    }

    fn write_back(&mut self, name: &str, _: &Value, value: Value) {
        self.vars.insert(name.into(), value);
    }

    fn ruby_object(&mut self, _: &str) -> Option<RValue> {
        None
    }

    fn has_variable(&mut self, name: &str) -> bool {
        self.vars.contains_key(name)
    }

    fn call_function(&mut self, name: &str, args: Vec<Value>, _: bool) -> Result<Option<Value>, Error> {
        match name {
            "fail" => Err(Error::puppet("failed")),
            _ => Ok(Some(Value::array(args))),
        }
    }

    fn to_yaml(&mut self, value: Value) -> Result<String, Error> {
        Ok(format!("--- {value:?}\n"))
    }

    fn format(&mut self, format: &str, args: Vec<Value>) -> Result<String, Error> {
        Ok(format!("{format}{}", args.len()))
    }

    fn log(&mut self, level: &str, message: &str) {
        self.log.push(format!("{level}: {message}"));
    }

    fn file(&self) -> Option<String> {
        None
    }

    fn interrupted(&mut self) -> bool {
        false
    }
}
