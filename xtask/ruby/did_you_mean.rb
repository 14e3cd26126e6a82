# Writes the table of Ruby's "Did you mean?" suggestions (the did_you_mean gem's, as Puppet's
# Ruby shows them in a NoMethodError's message) for the methods Poppet's ports of Ruby code
# call on values that may lack them, for ruby/src/did_you_mean.tsv.
#
#   ruby xtask/ruby/did_you_mean.rb > ruby/src/did_you_mean.tsv
#
# Run it with the Ruby that Puppet 7.23 is installed for (`puppet` on PATH): Puppet adds
# methods to Ruby's classes, and the suggestions come from each class's methods. The methods
# are those the evaluator's and the type system's sources name in `no_method("NAME", ...)`;
# the receivers, one value of each Ruby class a Puppet value may be. Each line: CLASS,
# METHOD, the suggestions (a space between two), for each pair that has suggestions, sorted.
require 'puppet'

Puppet.initialize_settings

root = File.expand_path('../..', __dir__)
methods = Dir.glob(File.join(root, '{eval,types}/src/**/*.rs')).flat_map do |file|
  File.read(file).scan(/no_method\(\s*"([^"]+)"/).flatten
end.uniq.sort

types = Puppet::Pops::Types
receivers = [
  nil, true, false, 1, 1.5, 'sample', :default, [], {}, /a/,
  types::PSensitiveType::Sensitive.new('s'),
  types::PBinaryType::Binary.from_base64('aGk='),
  Puppet::Pops::Time::Timestamp.parse('2021-01-01T00:00:00Z'),
  Puppet::Pops::Time::Timespan.from_fields(false, 0, 0, 1, 0),
  SemanticPuppet::Version.parse('1.2.3'),
  SemanticPuppet::VersionRange.parse('>=1.0.0'),
]

lines = receivers.flat_map do |receiver|
  methods.filter_map do |name|
    next if receiver.respond_to?(name)

    begin
      receiver.public_send(name)
    rescue NoMethodError => e
      "#{receiver.class}\t#{name}\t#{e.corrections.join(' ')}" unless e.corrections.empty?
    rescue StandardError
      nil
    end
  end
end
puts lines.sort
