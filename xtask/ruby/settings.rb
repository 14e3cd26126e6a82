# Writes Puppet 7.23's settings as a manifest sees them (`$settings::NAME`), as JSON, for
# eval/src/facts/settings.json:
#
#   ruby xtask/ruby/settings.rb > eval/src/facts/settings.json
#
# The values are those of `puppet apply` run by root with Debian's packaging (confdir
# /etc/puppet) and no puppet.conf, for the node `poppet.certname.placeholder` (the certificate name and what is made
# from it; the evaluator writes its node's name in its place), converted as the compiler's
# settings scope converts them (`Puppet::Parser::Scope#transform_setting`: strings, numbers,
# booleans, nil, arrays and hashes as they are, anything else as its string), in Puppet's
# order (`$settings::all_local` has it). A value JSON cannot hold (`maxwaitforcert`'s
# unlimited wait, Float::INFINITY) is written as the string "Infinity" ("-Infinity"), which
# the evaluator reads back as the float.
require 'json'
require 'puppet'
require 'tmpdir'

NODE = 'poppet.certname.placeholder'
# Settings are read from an empty configuration, so that this machine's puppet.conf does not
# leak into the table.
Dir.mktmpdir('poppet-settings') do |dir|
  conf = File.join(dir, 'puppet.conf')
  File.write(conf, '')
  Puppet.initialize_settings(['--config', conf, '--certname', NODE])
  scope = Puppet::Parser::Scope.new(Puppet::Parser::Compiler.new(Puppet::Node.new(NODE)))
  table = {}
  Puppet.settings.each_key do |name|
    next if name == :name

    value = scope.send(:transform_setting, Puppet.settings.value_sym(name, :production))
    value = value.positive? ? 'Infinity' : '-Infinity' if value.is_a?(Float) && value.infinite?
    table[name.to_s] = value
  end
  # `config` names the empty file read here; Puppet's own is in the configuration directory.
  table['config'] = File.join(Puppet[:confdir], 'puppet.conf')
  puts JSON.pretty_generate(table)
end
