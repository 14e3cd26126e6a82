# Writes the table of the methods Ruby's objects have in Puppet 7.23's Ruby, for the ERB
# interpreter (erb/src/ruby_methods.tsv): a template calling one it does not implement gets
# "not supported", one Ruby lacks gets Ruby's NoMethodError (with Ruby's "Did you mean?").
#
#   ruby xtask/ruby/ruby_methods.rb > erb/src/ruby_methods.tsv
#
# Run it with the Ruby that Puppet is installed for (Puppet adds methods to Ruby's classes).
# Each line: a class (or `self`: what a template's own code can call without a receiver,
# private methods included), a tab, its methods separated by spaces, sorted.
require 'puppet'
require 'erb'

Puppet.initialize_settings

receivers = {
  'NilClass' => nil, 'TrueClass' => true, 'FalseClass' => false, 'Integer' => 1, 'Float' => 1.5,
  'String' => 'sample', 'Symbol' => :sym, 'Array' => [], 'Hash' => {}, 'Range' => (1..2),
  'Regexp' => /a/, 'MatchData' => 'a'.match(/a/), 'Proc' => proc {},
}
receivers.each do |name, value|
  puts "#{name}\t#{value.methods.map(&:to_s).sort.join(' ')}"
end
wrapper = Puppet::Parser::TemplateWrapper
own = wrapper.public_instance_methods + wrapper.private_instance_methods
puts "self\t#{own.map(&:to_s).uniq.sort.join(' ')}"
puts "Puppet::Parser::Scope\t#{Puppet::Parser::Scope.public_instance_methods.map(&:to_s).sort.join(' ')}"
