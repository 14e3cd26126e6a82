#!/usr/bin/env ruby
# frozen_string_literal: true
#
# The project's Puppet 7.23 oracle: compiles many independent Puppet programs with the
# installed Puppet library (Debian's puppet-agent), loading Puppet once, and answers one JSON
# line per program. See README.md beside this file for the protocol; the recorders and checks
# of `cargo xtask` and the test kit (`tests/src/oracle.rs`) are its clients.
#
#   ruby tests/oracle/oracle.rb [OPTIONS] [INPUT.jsonl]      (stdin without INPUT)
#
# Options:
#   --strict=off|warning|error   Puppet[:strict] (default warning, Puppet 7.23's default)
#   --no-strict-variables        strict_variables off (default: on)
#   --facts=FILE                 the node's facts: a JSON hash (`facter --json --show-legacy`)
#                                instead of the small built-in set
#   --node=NAME                  the node's name (default testnode)
#   --timeout=SECONDS            per program (default 20)
#   --catalog                    also list the catalog's resources and relationships
#   --catalog-json               also give the whole compiled catalog (Puppet's catalog JSON)
#   --ral                        also convert the catalog as `puppet apply` does, so that
#                                resource parameter validation errors surface
#   --pretty                     human-readable output instead of JSON Lines

require 'json'
require 'yaml'
require 'fileutils'
require 'tmpdir'
require 'timeout'

# The command line.
Options = Struct.new(:strict, :strict_variables, :facts, :node, :timeout, :catalog, :catalog_json, :ral, :pretty,
                     :inputs)

def parse_options(argv)
  o = Options.new('warning', true, nil, 'testnode', 20.0, false, false, false, false, [])
  argv.each do |arg|
    case arg
    when /\A--strict=(\w+)\z/ then o.strict = Regexp.last_match(1)
    when '--no-strict-variables' then o.strict_variables = false
    when /\A--facts=(.+)\z/ then o.facts = Regexp.last_match(1)
    when /\A--node=(.+)\z/ then o.node = Regexp.last_match(1)
    when /\A--timeout=([\d.]+)\z/ then o.timeout = Regexp.last_match(1).to_f
    when '--catalog' then o.catalog = true
    when '--catalog-json' then o.catalog_json = true
    when '--ral' then o.ral = true
    when '--pretty' then o.pretty = true
    when '-h', '--help'
      puts File.readlines(__FILE__).drop(2).take_while { |l| l.start_with?('#') }.map { |l| l.sub(/\A# ?/, '') }
      exit 0
    else o.inputs << arg
    end
  end
  o
end

OPTIONS = parse_options(ARGV)

# Puppet's settings point into a temporary directory, so that nothing under /etc/puppet or
# /var/cache/puppet is read or written; it is removed at exit.
SCRATCH = Dir.mktmpdir('poppet-oracle')
at_exit { FileUtils.rm_rf(SCRATCH) }
SETTINGS_DIRS = { confdir: 'conf', codedir: 'code', vardir: 'var', logdir: 'log', rundir: 'run',
                  environmentpath: 'env' }.freeze
SETTINGS_DIRS.each_value { |d| FileUtils.mkdir_p(File.join(SCRATCH, d)) }
FileUtils.mkdir_p(File.join(SCRATCH, 'env', 'production'))

require 'puppet'
Puppet.initialize_settings(
  SETTINGS_DIRS.flat_map { |setting, dir| ["--#{setting}", File.join(SCRATCH, dir)] } + ['--color', 'false']
)
Puppet[:strict_variables] = OPTIONS.strict_variables
# The node is the machine `puppet apply` runs on: its certificate name is the node's name.
Puppet[:certname] = OPTIONS.node
Puppet[:strict] = OPTIONS.strict.to_sym
Puppet::Util::Log.level = :notice
# No console: each program's log lines are collected by a destination of its own.
Puppet::Util::Log.close_all

# Puppet's `:array` log destination accepts objects of this class name (its spec helpers'):
# whatever is logged is appended to the array given.
module Puppet::Test; end
unless defined?(Puppet::Test::LogCollector)
  class Puppet::Test::LogCollector
    def initialize(logs)
      @logs = logs
    end

    def <<(log)
      @logs << log
    end
  end
end

NODE = OPTIONS.node
# Without --facts: a small fixed fact set of a Debian 12 node. A facts file is JSON or YAML
# (`facter --json --show-legacy`, `facter --yaml`).
FACTS = (if OPTIONS.facts
           text = File.read(OPTIONS.facts)
           text.lstrip.start_with?('{') ? JSON.parse(text) : YAML.safe_load(text)
         else
           { 'hostname' => NODE, 'fqdn' => "#{NODE}.example.com", 'domain' => 'example.com',
             'kernel' => 'Linux', 'osfamily' => 'Debian',
             'os' => { 'family' => 'Debian', 'name' => 'Debian',
                       'release' => { 'major' => '12', 'full' => '12.0' } } }
         end).freeze

# Catalog entries every compilation has, left out of `resources`.
IMPLICIT_RESOURCES = ['Stage[main]', 'Class[Settings]', 'Class[main]'].freeze
# The metaparameters relationships end up in after compilation: arrow, and whether the
# resource holding it is the edge's source.
RELATIONSHIP_PARAMS = { before: ['->', true], notify: ['~>', true],
                        require: ['->', false], subscribe: ['~>', false] }.freeze

def first_line(text)
  text.to_s.lines.first.to_s.chomp
end

# A log line as the console prints it, without its level prefix: its first line.
def log_line(log)
  first_line(log.to_s)
end

# An error's message without the location, the node and the parse-error prefix.
def bare_message(error)
  return error.basic_message if error.is_a?(Puppet::ParseErrorWithIssue)
  if error.respond_to?(:original) && error.original.is_a?(Puppet::ParseErrorWithIssue)
    return error.original.basic_message
  end

  error.message.to_s
       .sub(/ on node #{Regexp.escape(NODE)}\z/, '')
       .sub(/ \((?:file: [^,]*, )?line: \d+(?:, column: \d+)?\)\z/, '')
       .sub(/ at line \d+(?::\d+)?\z/, '')
end

# The relationships of a compiled catalog, as sorted `A -> B` / `A ~> B` lines.
def relationships(catalog)
  catalog.resources.flat_map do |resource|
    RELATIONSHIP_PARAMS.flat_map do |param, (arrow, forward)|
      targets = resource[param]
      next [] if targets.nil?

      # Not Array(): a resource reference would turn into its array of key and title.
      (targets.is_a?(Array) ? targets : [targets]).map do |target|
        ref = target.respond_to?(:ref) ? target.ref : target.to_s
        forward ? "#{resource.ref} #{arrow} #{ref}" : "#{ref} #{arrow} #{resource.ref}"
      end
    end
  end.sort
end

# The compiled catalog as `puppet apply --catalog`-style JSON (`Puppet::Resource::Catalog#to_data_hash`)
# without what differs from run to run (version, code id, uuid, format).
def catalog_json(catalog)
  catalog.to_data_hash.reject { |key, _| %w[version code_id catalog_uuid catalog_format].include?(key) }
end

# Compiles `code` as `puppet apply -e CODE` would (a fresh environment without modules, fresh
# loaders, the node with its facts), without Facter and without applying anything.
def compile(code)
  # As if `puppet apply` ran it alone: the warnings Puppet gives once per process
  # (`warnonce`: a define's metaparameter default; `Puppet.warn_once`: deprecated functions,
  # undefined variables in Hiera interpolation) are forgotten first.
  Puppet::Util::Warnings.clear_warnings
  Puppet.clear_deprecation_warnings
  env = Puppet::Node::Environment.create(:production, [], Puppet::Node::Environment::NO_MANIFEST)
  facts = Puppet::Node::Facts.new(NODE, FACTS.dup)
  # As `puppet apply` does: `clientcert` (the node's name, from which `$trusted` is made),
  # `clientversion`, `clientnoop`.
  facts.add_local_facts
  node = Puppet::Node.new(NODE, environment: env, facts: facts)
  node.merge(facts.values)
  node.add_server_facts({})
  Puppet[:code] = code

  logs = []
  collector = Puppet::Test::LogCollector.new(logs)
  error = error_full = error_message = catalog = logged = nil
  Puppet::Util::Log.newdestination(collector)
  begin
    Puppet.override({ current_environment: env, loaders: Puppet::Pops::Loaders.new(env, false, false) },
                    'poppet oracle') do
      Timeout.timeout(OPTIONS.timeout) do
        catalog = Puppet::Parser::Compiler.compile(node)
        catalog.to_ral.finalize if OPTIONS.ral
      rescue Puppet::Error => e
        # The compiler has logged the error at :err as `puppet apply` prints it.
        logged = logs.reverse.find { |l| l.level == :err && l.source == 'Puppet' }
        error_full = (logged ? logged.to_s : e.to_s).chomp
        error = first_line(error_full)
        error_message = first_line(bare_message(e))
      end
    end
  rescue Timeout::Error
    error = error_full = error_message = "ORACLE TIMEOUT after #{OPTIONS.timeout}s"
  rescue SystemStackError, StandardError, ScriptError => e
    error = error_full = error_message = "ORACLE INTERNAL #{e.class}: #{first_line(e.message)}"
  ensure
    Puppet::Util::Log.close(collector)
  end

  outcome = {
    'notices' => logs.select { |l| l.level == :notice }.map { |l| l.message.to_s },
    'error' => error,
    'error_message' => error_message,
    'error_full' => error_full,
    'warnings' => logs.select { |l| l.level == :warning }.map { |l| log_line(l) },
  }
  # Error-level messages that did not stop the compilation: err() calls, and errors Puppet
  # logs and goes on (a module refused for its metadata.json).
  errs = logs.select { |l| l.level == :err && !l.equal?(logged) }.map { |l| l.message.to_s }
  outcome['errs'] = errs unless errs.empty?
  if OPTIONS.catalog && catalog
    outcome['resources'] = catalog.resources.map(&:ref).reject { |r| IMPLICIT_RESOURCES.include?(r) }
    outcome['relationships'] = relationships(catalog)
  end
  outcome['catalog'] = catalog_json(catalog) if OPTIONS.catalog_json && catalog
  outcome
end

def print_pretty(answer, code)
  puts "== #{answer['id']}"
  puts code
  answer['notices'].each { |n| puts "  notice: #{n}" }
  puts "  error: #{answer['error']}" if answer['error']
  answer['warnings'].each { |w| puts "  warning: #{w}" }
end

input = OPTIONS.inputs.empty? ? $stdin : File.open(OPTIONS.inputs.first, 'r:UTF-8')
count = 0
started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
input.each_line do |line|
  line = line.strip
  next if line.empty?

  request = JSON.parse(line)
  # The answer: the id, the request's other keys, then the outcome.
  answer = { 'id' => request['id'] }
  answer.merge!(request.reject { |key, _| %w[id code].include?(key) })
  answer.merge!(compile(request.fetch('code')))
  if OPTIONS.pretty
    print_pretty(answer, request['code'])
  else
    $stdout.puts JSON.generate(answer)
  end
  count += 1
end
elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
warn format('oracle: %d snippets in %.2fs (%.1f/s)', count, elapsed, count / elapsed) if count.positive?
