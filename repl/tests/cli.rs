//! The `poppet` command line, run as a program: sources (`-e`, a file, standard input),
//! log lines, errors and exit codes, `--output json`, facts files, `--strict`, Ctrl-C.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn poppet(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_poppet"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("poppet runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.unwrap_or_default()).expect("write stdin");
    drop(input);
    child.wait_with_output().expect("poppet ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("poppet-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("temp file");
    path
}

#[test]
fn execute_prints_notices() {
    let out = poppet(&["-e", "notice(1 + 2) notice([a, 1], {b => undef})"], None);
    assert_eq!(text(&out.stdout), "Notice: 3\nNotice: [a, 1] {b => }\n");
    assert_eq!(text(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn evaluation_error_exits_1_with_location() {
    let out = poppet(&["-e", "notice(before)\n$x = 1 / 0"], None);
    assert_eq!(text(&out.stdout), "Notice: before\n");
    assert_eq!(text(&out.stderr), "Error: Division by 0 (line: 2, column: 10)\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn file_errors_name_the_file() {
    let path = temp_file("bad.pp", b"$a = 1\n$a = 2\n");
    let out = poppet(&[path.to_str().expect("utf-8 path")], None);
    assert_eq!(
        text(&out.stderr),
        format!("Error: Cannot reassign variable '$a' (file: {}, line: 2, column: 4)\n", path.display())
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn syntax_errors_are_reported() {
    let out = poppet(&["-e", "notice(1"], None);
    assert_eq!(text(&out.stderr), "Error: Syntax error at end of input\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn standard_input_is_code() {
    let out = poppet(&[], Some(b"[1, 2].each |$x| { notice($x * 10) }\n"));
    assert_eq!(text(&out.stdout), "Notice: 10\nNotice: 20\n");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn warnings_and_log_levels() {
    let out = poppet(&["-e", "notice('1' + 1) info(i) debug(d) warning(w) err(e)"], None);
    assert_eq!(
        text(&out.stdout),
        "Warning: The string '1' was automatically coerced to the numerical value 1 (line: 1, column: 8)\nNotice: 2\nWarning: w\nError: e\n"
    );
    let out = poppet(&["--log-level", "debug", "-e", "info(i) debug(d)"], None);
    assert_eq!(text(&out.stdout), "Info: i\nDebug: d\n");
}

#[test]
fn strict_levels() {
    let out = poppet(&["--strict", "error", "-e", "notice('1' + 1)"], None);
    assert_eq!(
        text(&out.stderr),
        "Error: The string '1' was automatically coerced to the numerical value 1 (line: 1, column: 8)\n"
    );
    let out = poppet(&["--strict", "off", "-e", "notice('1' + 1)"], None);
    assert_eq!(text(&out.stdout), "Notice: 2\n");
    // Puppet's defaults: strict_variables off, strict=warning (eval/tests/golden/node_facts.txt
    // and unknown_variables_strict_*.txt hold Puppet's answers).
    let unknown = ["-e", "notice(\"<${nope}>\")"];
    let out = poppet(&unknown, None);
    assert_eq!(text(&out.stdout), "Warning: Unknown variable: 'nope'. (line: 1, column: 12)\nNotice: <>\n");
    let out = poppet(&[&["--strict", "off"], &unknown[..]].concat(), None);
    assert_eq!(text(&out.stdout), "Notice: <>\n");
    for strict_variables in
        [&["--strict-variables"][..], &["--strict", "error"], &["--no-strict-variables", "--strict-variables"]]
    {
        let out = poppet(&[strict_variables, &unknown[..]].concat(), None);
        assert_eq!(
            text(&out.stderr),
            "Error: Unknown variable: 'nope'. (line: 1, column: 12)\n",
            "{strict_variables:?}"
        );
    }
}

#[test]
fn the_node() {
    let out = poppet(&["-e", "notice($::operatingsystem, $trusted['certname'], $::fqdn)"], None);
    assert_eq!(text(&out.stdout), "Notice: Debian testnode testnode.example.com\n");
    let out = poppet(
        &["--node", "web01.example.org", "-e", "notice($::hostname, $::domain, $::fqdn, $trusted['domain'])"],
        None,
    );
    assert_eq!(text(&out.stdout), "Notice: web01 example.org web01.example.org example.org\n");
    let out = poppet(
        &[
            "--platform",
            "rhel9",
            "--fact",
            "os.release.major=8",
            "-e",
            "notice($::osfamily, $facts['os']['release']['major'])",
        ],
        None,
    );
    assert_eq!(text(&out.stdout), "Notice: RedHat 8\n");
    let out = poppet(&["--fact", "os..family=x", "-e", "1"], None);
    assert_eq!(
        text(&out.stderr),
        "Error: --fact os..family=x: 'os..family' is not a fact name or a dotted path to a fact\n"
    );
    let out = poppet(&["--fact", "nothing", "-e", "1"], None);
    assert_eq!(text(&out.stderr), "Error: --fact nothing: expected NAME=VALUE\n");
}

#[test]
fn json_output() {
    let out = poppet(&["--output", "json", "-e", "notice(a) warning(w)\n[1, {b => 2.5}]"], None);
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON record");
    assert_eq!(
        record,
        serde_json::json!({"value": [1, {"b": 2.5}], "notices": ["a"], "warnings": ["w"], "error": null})
    );
    assert_eq!(out.status.code(), Some(0));
    let out = poppet(&["--output", "json", "-e", "notice(a)\nfail(oops)"], None);
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON record");
    assert_eq!(
        record,
        serde_json::json!({"value": null, "notices": ["a"], "warnings": [], "error": {
            "message": "Error while evaluating a Function Call, oops", "line": 2, "column": 1}})
    );
    assert_eq!(out.status.code(), Some(1));
    // An error Puppet reports bare keeps its text; its trailing location is the location
    // (Puppet's own bare message: `no parameter named 'bogus' (line: 2) on Notify[a]`).
    let out = poppet(&["--output", "json", "-e", "\nnotify { 'a': bogus => 1 }"], None);
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON record");
    assert_eq!(
        record["error"],
        serde_json::json!({"message": "no parameter named 'bogus' (line: 2) on Notify[a]", "line": 2, "column": null})
    );
}

#[test]
fn facts_files() {
    let json = temp_file("facts.json", br#"{"os": {"family": "RedHat"}, "answer": 42}"#);
    let out = poppet(&["--facts", json.to_str().expect("path"), "-e", "notice($facts['os']['family'], $answer)"], None);
    assert_eq!(text(&out.stdout), "Notice: RedHat 42\n");
    let yaml = temp_file("facts.yaml", b"os:\n  family: Suse\nlist: [1, 2]\n");
    let out = poppet(&["--facts", yaml.to_str().expect("path"), "-e", "notice($os['family'], $facts['list'])"], None);
    assert_eq!(text(&out.stdout), "Notice: Suse [1, 2]\n");
    // YAML as Puppet reads a facts file (Ruby's Psych, YAML 1.1): Psych's
    // `{"enabled"=>true, "mode"=>493, "list"=>[true, false]}`.
    let yaml = temp_file("facts11.yaml", b"enabled: yes\nmode: 0755\nlist: [on, off]\n");
    let out = poppet(&["--facts", yaml.to_str().expect("path"), "-e", "notice($enabled, $mode, $list)"], None);
    assert_eq!(text(&out.stdout), "Notice: true 493 [true, false]\n");
    let yaml = temp_file("facts-date.yaml", b"built: 2001-01-01\n");
    let out = poppet(&["--facts", yaml.to_str().expect("path"), "-e", "notice(1)"], None);
    assert_eq!(text(&out.stderr), format!("Error: {}: Tried to load unspecified class: Date\n", yaml.display()));
    let out = poppet(&["--node", "web1", "-e", "notice($facts['fqdn'])"], None);
    assert_eq!(text(&out.stdout), "Notice: web1.example.com\n");
}

#[test]
fn encoding_errors() {
    // Puppet's words (`puppet parser validate` of the same files), without the prefix
    // (`Could not parse for environment production:`) that no error here prints.
    let bom = temp_file("bom.pp", b"\xef\xbb\xbfnotice(1)\n");
    let out = poppet(&[bom.to_str().expect("path")], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "Error: Illegal UTF-8 Byte Order mark at beginning of input: [EF BB BF] - remove these from the puppet source\n"
    );
    let bad = temp_file("bad-utf8.pp", b"notice('\xff')\n");
    let out = poppet(&[bad.to_str().expect("path")], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stderr), "Error: invalid byte sequence in UTF-8\n");
    let out = poppet(&["--output", "json", bad.to_str().expect("path")], None);
    assert_eq!(out.status.code(), Some(1));
    let record: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON record");
    assert_eq!(
        record["error"],
        serde_json::json!({"message": "invalid byte sequence in UTF-8", "line": null, "column": null})
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = poppet(&["--no-such-option"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = poppet(&["-e"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn ctrl_c_stops_a_running_evaluation() {
    let child = Command::new(env!("CARGO_BIN_EXE_poppet"))
        .args(["-e", "notice(start) Integer[1, 9223372036854775807].each |$i| { }"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("poppet runs");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill runs");
    assert!(status.success());
    let out = child.wait_with_output().expect("poppet ends");
    assert_eq!(text(&out.stdout), "Notice: start\n");
    assert_eq!(text(&out.stderr), "Error: Evaluation interrupted (line: 1, column: 52)\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn ruby_functions_of_modules_say_they_are_not_available() {
    let modules = concat!(env!("CARGO_MANIFEST_DIR"), "/../eval/tests/modules");
    let out = poppet(&["--modulepath", modules, "-e", "include rubyonly"], None);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).lines().next().unwrap_or_default(),
        format!(
            "Error: The function 'rubyonly::shout' is implemented in Ruby (module rubyonly): Ruby functions are not available (file: {modules}/rubyonly/manifests/init.pp, line: 2, column: 10)"
        )
    );
}

#[test]
fn catalog_json_lists_resources_parameters_and_containment() {
    let modules = concat!(env!("CARGO_MANIFEST_DIR"), "/../eval/tests/modules");
    let out = poppet(&["--modulepath", modules, "--catalog", "json", "-e", "include demo notice('hi')"], None);
    assert_eq!(out.status.code(), Some(0));
    // the catalog alone on stdout, the log on stderr
    let catalog: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("JSON");
    assert!(text(&out.stderr).ends_with("\nNotice: hi\n"), "{}", text(&out.stderr));
    let resources = catalog["resources"].as_array().cloned().unwrap_or_default();
    let refs: Vec<String> = resources
        .iter()
        .map(|r| format!("{}[{}]", r["type"].as_str().unwrap_or_default(), r["title"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(
        refs,
        [
            "Stage[main]",
            "Class[Settings]",
            "Class[main]",
            "Class[Demo]",
            "File[/etc/demo]",
            "Class[Demo::Config]",
            "File[/etc/demo/demo.conf]"
        ]
    );
    assert_eq!(resources[4]["parameters"]["owner"], "www-data");
    assert!(catalog["edges"]
        .as_array()
        .is_some_and(|e| e.iter().any(|e| e["source"] == "Class[Demo]" && e["target"] == "File[/etc/demo]")));
    assert_eq!(catalog["classes"], serde_json::json!(["settings", "demo", "demo::config"]));
}

/// `--catalog json`'s containment edges, classes and tags against Puppet's compiled catalogs
/// (`tests/catalog_edges.txt`, recorded by `cargo xtask gen catalog-edges`).
#[test]
fn catalog_json_edges_as_puppet_compiles_them() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/catalog_edges.txt");
    let data = std::fs::read_to_string(path).expect("catalog_edges.txt");
    let mut differing = Vec::new();
    let mut cases = 0;
    for chunk in data.split("\n=== ").skip(1) {
        let (head, expected) = chunk.split_once("\n---\n").expect("a --- line");
        let (name, code) = head.split_once('\n').expect("a name line");
        let expected: Vec<&str> = expected.lines().filter(|l| !l.is_empty()).collect();
        let out = poppet(&["--catalog", "json", "-e", code], None);
        let stdout = text(&out.stdout);
        let catalog: serde_json::Value =
            serde_json::from_str(&stdout[stdout.find('{').unwrap_or(0)..]).unwrap_or_default();
        let mut ours: Vec<String> = catalog["edges"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| {
                format!("edge: {} -> {}", e["source"].as_str().unwrap_or("?"), e["target"].as_str().unwrap_or("?"))
            })
            .collect();
        ours.sort();
        let classes: Vec<&str> =
            catalog["classes"].as_array().into_iter().flatten().filter_map(|c| c.as_str()).collect();
        ours.push(format!("classes: {}", classes.join(" ")));
        for r in catalog["resources"].as_array().into_iter().flatten() {
            let tags: Vec<&str> = r["tags"].as_array().into_iter().flatten().filter_map(|t| t.as_str()).collect();
            ours.push(format!(
                "tags: {}[{}]: {}",
                r["type"].as_str().unwrap_or("?"),
                r["title"].as_str().unwrap_or("?"),
                tags.join(" ")
            ));
        }
        cases += 1;
        if ours != expected {
            differing.push(format!("{name}\n  puppet: {expected:?}\n  ours:   {ours:?}"));
        }
    }
    assert!(cases >= 10, "only {cases} cases read");
    assert!(differing.is_empty(), "{} of {cases} catalogs differ:\n{}", differing.len(), differing.join("\n"));
}

/// ERB templates render from the runner, and from `--erb` with `--values` (a file, or a
/// module's template on the module path); Ruby the engine does not run is an error naming
/// it, exit 1.
#[test]
fn erb_templates_render() {
    let out = poppet(&["-e", "notice(inline_template('<%= [1, 2].map { |x| x * 2 }.join(\",\") %>'))"], None);
    assert_eq!(text(&out.stdout), "Notice: 2,4\n");
    let dir = std::env::temp_dir().join(format!("poppet-erb-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("motd.erb");
    std::fs::write(&file, "Hello <%= @name %>\n<% @ports.each do |p| -%>\nport <%= p %>\n<% end -%>\n").unwrap();
    let out = poppet(&["--erb", file.to_str().unwrap(), "--values", "{ name => 'web', ports => [80, 443] }"], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Hello web\nport 80\nport 443\n");
    let modules = concat!(env!("CARGO_MANIFEST_DIR"), "/../eval/tests/modules");
    let out = poppet(&["--erb", "tmpl/plain.erb", "--modulepath", modules], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!text(&out.stdout).is_empty());
    std::fs::write(&file, "<% require 'json' %>").unwrap();
    let out = poppet(&["--erb", file.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("Ruby that Poppet's template engine does not run: `require`"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--validate-resources` makes the core types' checks (recorded from Puppet in
/// `eval/tests/golden/catalog_validation.txt`); without it, compiling is all, as `puppet
/// apply --noop` compiles before it converts.
#[test]
fn validate_resources_refuses_what_puppet_apply_refuses() {
    let code = "file { 'relative': }";
    let out = poppet(&["--validate-resources", "-e", code], None);
    assert_eq!(
        text(&out.stderr),
        "Error: Parameter path failed on File[relative]: File paths must be fully qualified, not 'relative' (line: 1)\n"
    );
    assert_eq!(out.status.code(), Some(1));
    let out = poppet(&["-e", code], None);
    assert_eq!(text(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
}

/// `debug::break()` stops only in the shell; to the runner, as to Puppet without the
/// puppet-debugger module, it is an unknown function.
#[test]
fn breakpoints_are_the_shells() {
    let out = poppet(&["-e", "debug::break()"], None);
    assert_eq!(text(&out.stderr), "Error: Unknown function: 'debug::break'. (line: 1, column: 1)\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn environment_dir_gives_the_environments_modules_and_data() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/control-repo/environments/site");
    let code = "notice($environment) notice(lookup('profile::base::motd')) notice(defined('role::web'))";
    let out = poppet(&["--environment-dir", fixture, "--node", "web01.example.com", "-e", code], None);
    // the main manifest is not compiled for code given (as `puppet apply` compiles the code
    // instead); the environment's module path finds role::web, its Hiera data the node's
    // message
    assert_eq!(text(&out.stdout), "Notice: site\nNotice: web01: the front door\nNotice: true\n");
    assert!(out.status.success());
    let out = poppet(&["--environment-dir", "/nonexistent/envs/nosuch", "-e", "notice(1)"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("Error: Could not find a directory environment named 'nosuch'"),
        "{}",
        text(&out.stderr)
    );
}

/// `poppet parser validate --render-as json` of standard input: what `puppet parser validate
/// --color=false --render-as json < FILE` printed (Puppet 7.23), the errors logged on
/// standard error, the JSON on standard output.
#[test]
fn validate_renders_json_as_puppet() {
    let out = poppet(&["parser", "validate", "--color=false", "--render-as", "json"], Some(b"notice(1\n"));
    assert_eq!(
        text(&out.stdout),
        r#"{
  "STDIN": {
    "issue_code": "SYNTAX_ERROR",
    "message": "Syntax error at end of input",
    "full_message": "Could not parse for environment production: Syntax error at end of input",
    "file": null,
    "line": null,
    "pos": null
  }
}
"#
    );
    assert_eq!(out.status.code(), Some(1));
    let out = poppet(&["parser", "validate", "--color=false", "--render-as", "json"], Some(b"$0 = 1\n$1 = 2\n"));
    assert_eq!(
        text(&out.stderr),
        "Error: Illegal attempt to assign to the numeric match result variable '$0'. Numeric variables are not assignable (line: 1, column: 1)\n\
         Error: Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable (line: 2, column: 1)\n"
    );
    assert_eq!(
        text(&out.stdout),
        r#"{
  "STDIN": {
    "issue_code": null,
    "message": "Language validation logged 2 errors. Giving up",
    "full_message": "Could not parse for environment production: Language validation logged 2 errors. Giving up",
    "file": null,
    "line": null,
    "pos": null
  }
}
"#
    );
    // valid: nothing, exit 0
    let out = poppet(&["parser", "validate", "--render-as", "json"], Some(b"notice(1)\n"));
    assert_eq!((text(&out.stdout), text(&out.stderr), out.status.code()), (String::new(), String::new(), Some(0)));
}

/// `--strict error` makes a duplicate key an error, `--tasks` refuses what only a catalog
/// has (Puppet 7.23's words for the same input).
#[test]
fn validate_strict_and_tasks() {
    let out = poppet(&["parser", "validate", "--color=false", "--strict", "error"], Some(b"$x = {a => 1, a => 2}\n"));
    assert_eq!(
        text(&out.stderr),
        "Error: Could not parse for environment production: The key 'a' is declared more than once (line: 1, column: 17)\n"
    );
    assert_eq!(out.status.code(), Some(1));
    let out = poppet(&["parser", "validate", "--color=false", "--strict", "off"], Some(b"$x = {a => 1, a => 2}\n"));
    assert_eq!((text(&out.stderr), out.status.code()), (String::new(), Some(0)));
    let out = poppet(&["parser", "validate", "--color=false", "--tasks"], Some(b"class a {}\n"));
    assert_eq!(
        text(&out.stderr),
        "Error: Could not parse for environment production: A Host Class Definition is only available when compiling a catalog (line: 1, column: 1)\n"
    );
}

/// The `hiera_*` functions search all three layers in an environment with data of its own,
/// merging as their names say (what `puppet apply --environment site` printed for the same
/// code, Puppet 7.23, a Debian node).
#[test]
fn hiera_functions_see_the_environments_data() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/control-repo/environments/site");
    let code = "notice(hiera('profile::base::motd')) notice(hiera_array('profile::base::packages')) \
                notice(hiera_hash('profile::base::users'))";
    let out = poppet(&["--environment-dir", fixture, "--node", "vm", "-e", code], None);
    let deprecated = |f: &str| {
        format!("Warning: The function '{f}' is deprecated in favor of using 'lookup'. See https://puppet.com/docs/puppet/7.23/deprecated_language.html\n")
    };
    assert_eq!(
        text(&out.stdout),
        format!(
            "{}Notice: Managed by Puppet\n{}Notice: [apt-transport-https, vim, curl]\n{}Notice: {{deploy => {{uid => 1001, shell => /bin/bash}}}}\n",
            deprecated("hiera"),
            deprecated("hiera_array"),
            deprecated("hiera_hash")
        )
    );
}
