//! `pfmt`: prints values as Puppet's `String.new` formats them, without starting Puppet.
//!
//! ```text
//! pfmt FORMAT VALUE...     String(VALUE, FORMAT)     pfmt '%#x' 255                  -> 0xff
//! pfmt -m MAP VALUE...     String(VALUE, MAP)        pfmt -m '{Integer => "%#x"}' 255 -> 0xff
//! pfmt -m '{}' VALUE...    String(VALUE)             Puppet's defaults
//! ```
//!
//! VALUE and MAP are Puppet literals (`puppet_types::literal`); `--json` and `--yaml` read the
//! values from standard input instead ([`pfmt::data::json`], [`pfmt::data::yaml`]). One result per value, each
//! followed by a line feed. A failure prints `Error: MESSAGE` (Puppet's message) on standard
//! error and exits 1 after the results before it; a usage error exits 2 (clap's).

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use puppet_types::{literal, Value};

const USAGE: &str = "pfmt [OPTIONS] FORMAT VALUE...\n       \
                     pfmt [OPTIONS] -m MAP VALUE...\n       \
                     pfmt [OPTIONS] (FORMAT | -m MAP) (--json | --yaml) < VALUES";

const ABOUT: &str = "Prints values as Puppet's String.new formats them: String(VALUE, FORMAT) or String(VALUE, MAP), one result per line";

const LONG_ABOUT: &str = "\
Prints values as Puppet 7's String.new formats them: String(VALUE, FORMAT) or String(VALUE, MAP), \
one result per line.

A FORMAT is %[flags][width][.precision]letter, with the flags ' ', '+', '-', '#', '0' and, for \
arrays and hashes, the delimiters '[', '{', '(', '<', '|'. Which letters a value takes depends on \
its type: d x X o b B e E f g G a A c s p for Integer, s p C c d u t for String, t T y Y s p d x X o b B e \
E f g G a A for Boolean, a h s p for Array and Hash, and so on (Puppet's String.new documentation).

A MAP is a Puppet hash from types to formats, merged over Puppet's defaults; the most specific \
type that matches a value picks its format. An Array or Hash type may map to a hash with \
'format', 'separator', 'separator2' and 'string_formats' (the formats of the elements).

VALUE and MAP are Puppet literals: numbers, 'strings', bare words, true, false, undef, default, \
/regexps/, [arrays], {hashes}, types (Integer[0, 9]) and conversions (Timestamp('2020-01-01'), \
SemVer('1.2.3'), Binary('aGk='), Sensitive(1)). Quote them for the shell.";

const EXAMPLES: &str = "\
Examples:
  pfmt '%#x' 255                                   0xff
  pfmt '%08.3f' 3.14159                            0003.142
  pfmt '%y' true false                             yes, no
  pfmt '%10.3s' hello                              '       hel'
  pfmt '%(a' '[1, 2]'                              (1, 2)
  pfmt -m '{Integer => \"%#x\"}' 255                 0xff
  pfmt -m '{Array => {format => \"%[a\", separator => \";\"}}' \"[1, [2, 'x']]\"
                                                   [1;[2;'x']]
  pfmt -m '{}' '{a => [1, undef]}'                 {'a' => [1, undef]}
  pfmt -r '%p' \"it's\"                              'it\\'s'
  echo '{\"a\": [1, null]}' | pfmt --json '%p'      {'a' => [1, undef]}
  printf '1\\n2.5\\n' | pfmt --json -m '{Float => \"%.3f\"}'
                                                   1, then 2.500

Errors print 'Error: MESSAGE' with Puppet's message and exit 1; usage errors exit 2.
Colour only on terminals (NO_COLOR=1 turns it off, CLICOLOR_FORCE=1 forces it).";

/// The command line.
#[derive(Parser, Debug)]
#[command(name = "pfmt", version, about = ABOUT, long_about = LONG_ABOUT, override_usage = USAGE, after_help = EXAMPLES)]
struct Args {
    /// A format map: a Puppet hash from types to formats, '{}' for Puppet's defaults. The
    /// arguments are then all VALUEs
    #[arg(short, long, value_name = "MAP")]
    map: Option<String>,

    /// Read the values from standard input as JSON: one document, or one per line (JSON
    /// lines). Objects become hashes, null undef
    #[arg(long, conflicts_with = "yaml")]
    json: bool,

    /// Read the values from standard input as YAML (1.2): one value per document
    #[arg(long)]
    yaml: bool,

    /// Take each VALUE as a string, as it is, instead of reading it as a Puppet literal
    #[arg(short, long, conflicts_with_all = ["json", "yaml"])]
    raw: bool,

    /// The format, %[flags][width][.precision]letter (a VALUE when -m is given)
    #[arg(value_name = "FORMAT", allow_negative_numbers = true)]
    format: Option<String>,

    /// The values to format: Puppet literals, such as 255, 'a b', [1, 2], {a => 1},
    /// Timestamp('2020-01-01')
    #[arg(value_name = "VALUE", allow_negative_numbers = true)]
    values: Vec<String>,
}

/// Where the values come from.
enum Source {
    Arguments(Vec<String>),
    Json,
    Yaml,
}

/// Why a run stopped early.
enum Failure {
    /// A Puppet error (or a reading error of the input): `Error: MESSAGE`, exit 1.
    Message(String),
    /// Writing the results failed.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

impl Args {
    /// The format or map as `String.new`'s second argument (its source before reading), and
    /// where the values come from; a usage error exits 2 here.
    fn split(self) -> (Formats, Source, bool) {
        let usage = |kind: ErrorKind, message: &str| -> ! { Args::command().error(kind, message).exit() };
        let mut values = self.values;
        let formats = match (self.map, self.format) {
            (Some(map), first) => {
                if let Some(v) = first {
                    values.insert(0, v);
                }
                Formats::Map(map)
            }
            (None, Some(format)) => Formats::Format(format),
            (None, None) => usage(ErrorKind::MissingRequiredArgument, "a FORMAT or -m MAP is required"),
        };
        let stdin = if self.json {
            Some("--json")
        } else if self.yaml {
            Some("--yaml")
        } else {
            None
        };
        let source = match stdin {
            Some(flag) if !values.is_empty() => usage(
                ErrorKind::ArgumentConflict,
                &format!("no VALUE may be given with {flag}: the values are read from standard input"),
            ),
            Some(_) if self.json => Source::Json,
            Some(_) => Source::Yaml,
            None if values.is_empty() => usage(ErrorKind::MissingRequiredArgument, "at least one VALUE is required"),
            None => Source::Arguments(values),
        };
        (formats, source, self.raw)
    }
}

/// `String.new`'s second argument as given on the command line.
enum Formats {
    /// FORMAT: a format string, taken as it is.
    Format(String),
    /// `-m MAP`: a Puppet literal.
    Map(String),
}

fn main() -> ExitCode {
    let (formats, source, raw) = Args::parse().split();
    let mut out = BufWriter::new(io::stdout().lock());
    let result = run(&formats, source, raw, &mut out);
    let result = result.and_then(|()| out.flush().map_err(Failure::Io));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // `pfmt ... | head -1`: the reader has what it wanted.
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => report(&format!("cannot write the results: {e}")),
        Err(Failure::Message(message)) => {
            // The results before the failing value go out first.
            match out.flush() {
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                _ => report(&message),
            }
        }
    }
}

/// Prints `Error: MESSAGE` on standard error (`Error:` in bold red on a terminal) and returns
/// exit status 1.
fn report(message: &str) -> ExitCode {
    let style = anstyle::Style::new().bold().fg_color(Some(anstyle::AnsiColor::Red.into()));
    let _ = writeln!(anstream::stderr(), "{style}Error:{style:#} {message}");
    ExitCode::FAILURE
}

/// Formats every value of `source` and writes one result per line; stops at the first error.
fn run(formats: &Formats, source: Source, raw: bool, out: &mut impl Write) -> Result<(), Failure> {
    let reader = literal::Reader::with_string_new(pfmt::string_new_hook);
    let formats = match formats {
        Formats::Format(f) => Value::from(f.as_str()),
        Formats::Map(src) => reader.read(src).map_err(|e| Failure::Message(e.message))?,
    };
    let input;
    let values: Box<dyn Iterator<Item = Result<Value, String>> + '_> = match source {
        Source::Arguments(args) => Box::new(args.into_iter().map(move |a| {
            if raw {
                Ok(Value::from(a.as_str()))
            } else {
                reader.read(&a).map_err(|e| e.message)
            }
        })),
        Source::Json => {
            input = read_stdin()?;
            Box::new(pfmt::data::json::documents(&input))
        }
        Source::Yaml => {
            input = read_stdin()?;
            Box::new(pfmt::data::yaml::documents(&input))
        }
    };
    for value in values {
        let value = value.map_err(Failure::Message)?;
        let text = pfmt::string_new(&value, Some(&formats)).map_err(|e| Failure::Message(e.message))?;
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// All of standard input, as UTF-8.
fn read_stdin() -> Result<String, Failure> {
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Message(format!("cannot read standard input: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::Message(format!(
            "standard input is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        Args::command().debug_assert();
    }
}
