#!/usr/bin/env ruby
# frozen_string_literal: true
#
# The Puppet side of the evaluation benchmark (bench/eval): each workload (a Puppet program)
# compiled by Puppet 7.23's own compiler, in-process, with Puppet loaded once.
#
#   ruby bench/eval/puppet.rb --workloads FILE [--runs N] [--quiet]
#
# FILE holds JSON lines {"name": W, "code": PUPPET SOURCE} (and, for a compile of real
# modules, "modulepath": DIR and "facts": JSON FILE: the environment's module path, the node's
# facts, strict_variables off, and the catalog's resource count reported with the notices). Puppet is loaded and its settings
# initialised once (untimed), as tests/oracle/oracle.rb does. Then per workload: one
# untimed warm-up compile, and --runs timed compiles. A compile is what the oracle (and
# `puppet apply -e CODE`, without Facter and without applying) does: Puppet[:code] = CODE,
# then Puppet::Parser::Compiler.compile(node) for a node in a fresh environment with fresh
# loaders. Only Compiler.compile is timed (it parses the code, evaluates it and finishes the
# catalog); making the environment, node, facts and loaders is not.
#
# Prints one JSON line per workload: {"workload":W,"runs":[wall seconds...],"cpu":[process
# CPU seconds...],"best_s":s,"median_s":s,"notices":[String...],"error":null|String,
# "warnings":N}, the notices and the error being those of the warm-up compile, then a last
# line {"load_s":s,"baseline_s":s,"ruby":V,"puppet":V}: baseline_s is the best of five
# compiles of `notice('ok')`, the fixed cost included in every time. Progress goes to stderr
# unless --quiet.

require 'json'
require 'tmpdir'
require 'fileutils'

def now
  Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

def cpu_now
  Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
end

t_start = now
opts = { runs: 5, quiet: false }
args = ARGV.dup
until args.empty?
  a = args.shift
  case a
  when '--workloads' then opts[:workloads] = args.shift
  when '--runs' then opts[:runs] = Integer(args.shift)
  when '--quiet' then opts[:quiet] = true
  else abort "puppet.rb: unknown argument #{a}"
  end
end
abort 'puppet.rb: --workloads FILE is required' unless opts[:workloads]
workloads = File.readlines(opts[:workloads], chomp: true, encoding: 'UTF-8').reject(&:empty?).map { |l| JSON.parse(l) }

require_relative '../puppet_setup'
WORKDIR = load_puppet('poppet-bench-eval')
# The oracle's (and Puppet 7.23's default) settings, which puppet_eval::Session::default() mirrors.
Puppet[:strict_variables] = true
Puppet[:strict] = :warning
Puppet::Util::Log.level = :notice
Puppet::Util::Log.close_all # no console destination; the notices are collected below

# The :array log destination matches objects of this class name (as in the oracle).
module Puppet::Test; end
unless defined?(Puppet::Test::LogCollector)
  class Puppet::Test::LogCollector
    def initialize(logs); @logs = logs; end
    def <<(value); @logs << value; end
  end
end

NODE_NAME = 'testnode'
FACTS = {
  'hostname' => NODE_NAME, 'fqdn' => "#{NODE_NAME}.example.com", 'domain' => 'example.com',
  'kernel' => 'Linux', 'osfamily' => 'Debian',
  'os' => { 'family' => 'Debian', 'name' => 'Debian', 'release' => { 'major' => '12', 'full' => '12.0' } },
}.freeze

# One compile of `code` (with `modulepath` and the facts of `facts_file` when given):
# returns [[wall, CPU seconds of Compiler.compile], notices, error, warnings].
def compile(code, modulepath = nil, facts_file = nil)
  env = Puppet::Node::Environment.create(:production, [modulepath].compact, Puppet::Node::Environment::NO_MANIFEST)
  facts = Puppet::Node::Facts.new(NODE_NAME, facts_file ? JSON.parse(File.read(facts_file)) : FACTS.dup)
  Puppet[:strict_variables] = modulepath.nil?
  node = Puppet::Node.new(NODE_NAME, environment: env, facts: facts)
  node.merge(facts.values)
  node.add_server_facts({})
  Puppet[:code] = code
  logs = []
  collector = Puppet::Test::LogCollector.new(logs)
  error = nil
  elapsed = nil
  catalog = nil
  Puppet::Util::Log.newdestination(collector)
  begin
    Puppet.override({ current_environment: env,
                      loaders: Puppet::Pops::Loaders.new(env, false, false) }, 'poppet-bench-eval') do
      t = now
      c = cpu_now
      begin
        catalog = Puppet::Parser::Compiler.compile(node)
      rescue Puppet::Error => e
        error = e.message.to_s.lines.first.to_s.chomp
      ensure
        elapsed = [now - t, cpu_now - c]
      end
    end
  ensure
    Puppet::Util::Log.close(collector)
  end
  notices = logs.select { |l| l.level == :notice }.map { |l| l.message.to_s }
  notices << "catalog: #{catalog.resources.size} resources" if modulepath && catalog
  warnings = logs.count { |l| l.level == :warning }
  [elapsed, notices, error, warnings]
end

load_s = now - t_start
baseline_s = Array.new(6) { compile("notice('ok')\n").first.first }.drop(1).min
workloads.each do |w|
  _, notices, error, warnings = compile(w.fetch('code'), w['modulepath'], w['facts']) # warm-up, untimed
  times = Array.new(opts[:runs]) do |i|
    t = compile(w['code'], w['modulepath'], w['facts']).first
    $stderr.puts format('puppet: %s: run %d of %d: %.2f s', w['name'], i + 1, opts[:runs], t[0]) unless opts[:quiet]
    t
  end
  runs = times.map(&:first)
  sorted = runs.sort
  $stdout.puts JSON.generate({
    'workload' => w['name'], 'runs' => runs, 'cpu' => times.map(&:last), 'best_s' => sorted.first,
    'median_s' => sorted[sorted.size / 2], 'notices' => notices, 'error' => error, 'warnings' => warnings,
  })
  $stdout.flush
end
$stdout.puts JSON.generate({ 'load_s' => load_s, 'baseline_s' => baseline_s, 'ruby' => RUBY_VERSION, 'puppet' => Puppet.version })
