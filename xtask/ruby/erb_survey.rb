# Which Ruby the ERB templates of modules use: for each method called, each `scope` call and
# each kind of Ruby syntax node, how many templates use it (for the template interpreter:
# what to support first). Each template is compiled as Puppet compiles it (ERB with trim
# mode `-`) and parsed with Ripper; the code ERB itself generates (`_erbout`, `.freeze`,
# `.to_s` of `<%= %>`) is counted too.
#
#   ruby xtask/ruby/erb_survey.rb ['/usr/share/puppet/modules/*/templates/**/*.erb']
require 'erb'
require 'ripper'

CALLS = %i[call command_call].freeze
SELF_CALLS = %i[fcall command vcall].freeze

files = Dir.glob(ARGV.fetch(0, '/usr/share/puppet/modules/*/templates/**/*.erb'))
methods = Hash.new(0)
scope_calls = Hash.new(0)
kinds = Hash.new(0)
unparsable = []

# The name of a call node's method (`[:call, receiver, :".", [:@ident, NAME, pos]]`).
def method_name(node)
  name = node[3]
  name[1] if name.is_a?(Array) && name[0] == :@ident
end

files.each do |file|
  sexp = Ripper.sexp(ERB.new(File.read(file), trim_mode: '-').src)
  next unparsable << file unless sexp

  seen_methods = {}
  seen_kinds = {}
  walk = lambda do |node|
    next unless node.is_a?(Array)

    if node[0].is_a?(Symbol)
      seen_kinds[node[0]] = true
      if CALLS.include?(node[0]) && (name = method_name(node))
        seen_methods[name] = true
        if node[1].is_a?(Array) && node[1].flatten.include?('scope')
          scope_calls[name.start_with?('function_') ? 'function_*' : name] += 1
        end
      elsif SELF_CALLS.include?(node[0]) && node[1].is_a?(Array) && node[1][0] == :@ident
        seen_methods["(self) #{node[1][1]}"] = true
      end
    end
    node.each { |child| walk.call(child) }
  end
  walk.call(sexp)
  seen_methods.each_key { |m| methods[m] += 1 }
  seen_kinds.each_key { |k| kinds[k] += 1 }
end

puts "#{files.size} templates, #{unparsable.size} Ruby cannot parse #{unparsable.inspect}"
{ 'methods' => methods, 'scope calls (calls)' => scope_calls, 'syntax nodes' => kinds }.each do |title, counts|
  puts "#{title}, by templates using them:"
  counts.sort_by { |k, v| [-v, k] }.each { |k, v| puts format('  %4d %s', v, k) }
end
