#!/usr/bin/env ruby
# frozen_string_literal: true
#
# The Puppet side of the format benchmark (bench/fmt): Puppet 7.23's own String.new engine,
# Puppet::Pops::Types::StringConverter.singleton.convert(value, formats), timed over the
# values that poppet-bench-fmt wrote.
#
#   ruby bench/fmt/puppet.rb --values FILE [--map FILE] [--workloads map,defaults] [--runs N]
#                            [--outputs DIR]
#
# FILE holds one Puppet literal per line; --map FILE one literal (a format map). Puppet is
# loaded once; the values and the map are evaluated once by Puppet's evaluator (untimed). Then
# per workload (`map`: convert(value, map); `defaults`: convert(value, :default), which is
# String(value)) one untimed pass (warm-up; the outputs go to DIR/puppet-WORKLOAD.jsonl as JSON
# lines: a string, or {"error": message}) and --runs timed passes, each converting every value
# once. Prints one JSON line per workload: {"engine":"puppet","workload":W,"values":N,
# "runs":[seconds...],"best":s,"median":s,"bytes":total output bytes,"errors":N,"load_s":s,
# "eval_s":s}.

require 'json'
require 'tmpdir'
require 'fileutils'

t_start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
opts = { runs: 3, workloads: %w[map defaults] }
args = ARGV.dup
until args.empty?
  a = args.shift
  case a
  when '--values' then opts[:values] = args.shift
  when '--map' then opts[:map] = args.shift
  when '--runs' then opts[:runs] = Integer(args.shift)
  when '--outputs' then opts[:outputs] = args.shift
  when '--workloads' then opts[:workloads] = args.shift.split(',')
  else abort "puppet.rb: unknown argument #{a}"
  end
end
abort 'puppet.rb: --values FILE is required' unless opts[:values]

require_relative '../puppet_setup'
WORKDIR = load_puppet('pfmt-bench')
Puppet::Util::Log.level = :err

def now
  Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

env = Puppet::Node::Environment.create(:production, [], Puppet::Node::Environment::NO_MANIFEST)
node = Puppet::Node.new('bench', environment: env)
results = nil
Puppet.override({ current_environment: env, loaders: Puppet::Pops::Loaders.new(env, false, false) }, 'pfmt-bench') do
  compiler = Puppet::Parser::Compiler.new(node)
  scope = compiler.topscope
  parser = Puppet::Pops::Parser::EvaluatingParser.new
  load_s = now - t_start

  # The values, evaluated as array literals of 500 values each (untimed; one array of all
  # of them takes Puppet's parser far longer).
  t0 = now
  lines = File.readlines(opts[:values], chomp: true, encoding: 'UTF-8').reject(&:empty?)
  values = lines.each_slice(500).flat_map { |chunk| parser.evaluate_string(scope, "[\n#{chunk.join(",\n")}\n]") }
  map = opts[:map] ? parser.evaluate_string(scope, File.read(opts[:map], encoding: 'UTF-8')) : nil
  eval_s = now - t0
  raise "read #{values.size} values from #{lines.size} lines" unless values.size == lines.size

  conv = Puppet::Pops::Types::StringConverter.singleton

  results = opts[:workloads].map do |workload|
    formats = case workload
              when 'map' then map or raise('the map workload needs --map FILE')
              when 'defaults' then :default
              else raise "unknown workload #{workload}"
              end

    # Warm-up pass, untimed: the outputs, for the driver to compare with the engine's.
    errors = 0
    out = opts[:outputs] ? File.open(File.join(opts[:outputs], "puppet-#{workload}.jsonl"), 'w:UTF-8') : nil
    values.each do |v|
      begin
        s = conv.convert(v, formats)
        out&.puts(JSON.generate(s.encode('UTF-8', invalid: :replace, undef: :replace)))
      rescue StandardError => e
        errors += 1
        out&.puts(JSON.generate({ 'error' => e.message.encode('UTF-8', invalid: :replace, undef: :replace) }))
      end
    end
    out&.close

    # Timed passes: only the conversions.
    runs = []
    bytes = 0
    opts[:runs].times do
      bytes = 0
      t = now
      values.each do |v|
        begin
          bytes += conv.convert(v, formats).bytesize
        rescue StandardError
          nil
        end
      end
      runs << now - t
    end
    sorted = runs.sort
    {
      'engine' => 'puppet', 'workload' => workload, 'values' => values.size, 'runs' => runs,
      'best' => sorted.first, 'median' => sorted[sorted.size / 2], 'bytes' => bytes, 'errors' => errors,
      'load_s' => load_s, 'eval_s' => eval_s, 'ruby' => RUBY_VERSION, 'puppet' => Puppet.version,
    }
  end
end
results.each { |r| puts JSON.generate(r) }
