# Writes the table of Puppet's core resource types as JSON, for repl/src/resource_types.rs.
#
#   ruby xtask/ruby/resource_types.rb > eval/src/resource_types.json
#
# Run it with the Ruby that Puppet 7.23 is installed for (`puppet` on PATH). The output lists,
# for every core type, its key attributes (`key_attributes`), its providers, and its parameters
# and properties in Puppet's own order (`allattrs`, whose metaparameters are listed once, at the
# top level), each with the literal values, aliases and patterns its `newvalues` /
# `aliasvalue` declare (Puppet::Parameter::ValueCollection). Patterns are Ruby regexp sources.
# An attribute whose documentation calls it read-only (file's `ctime`, package's `status`) is
# marked `read_only`: it reports state, and a manifest has no reason to set it. An attribute
# with a `validate` block of its own (which replaces the check against its values) is marked
# `custom_validation`, and a type with a resource-level `validate` block `validates`. An
# attribute that needs provider features lists them (`required_features`), and each type the
# features of the provider Puppet picks by default on this machine (`default_features`): Puppet
# ignores an attribute the provider cannot manage.
require 'json'
require 'puppet'

Puppet.initialize_settings
Puppet::Type.loadall

# `component` (the container of classes and defined types in a catalog) and `whit` (the
# catalog's invisible anchors for the start and end of containers) are internal: Puppet creates
# them itself, and a manifest can declare neither.
INTERNAL = [:component, :whit].freeze

# One attribute of `type` as a JSON object: kind is "parameter", "property" or "metaparameter"
# (Puppet's `attrtype`: :param, :property, :meta).
def attribute(type, name)
  kind = { param: 'parameter', property: 'property', meta: 'metaparameter' }.fetch(type.attrtype(name))
  collection = type.attrclass(name).value_collection
  literals = collection.instance_variable_get(:@strings)
  patterns = collection.instance_variable_get(:@regexes)
  aliases = {}
  literals.each { |value| value.aliases.each { |a| aliases[a.to_s] = value.name.to_s } }
  klass = type.attrclass(name)
  read_only = klass.doc.to_s.strip.start_with?('A read-only')
  custom = ![Puppet::Parameter, Puppet::Property].include?(klass.instance_method(:unsafe_validate).owner)
  {
    'name' => name.to_s,
    'kind' => kind,
    'read_only' => read_only,
    'custom_validation' => custom,
    'required_features' => Array(klass.required_features).map(&:to_s),
    'values' => literals.map { |value| value.name.to_s },
    'aliases' => aliases,
    'patterns' => patterns.map { |value| value.name.source },
  }
end

# The features of the provider Puppet picks for `type` on this machine (none without providers).
def default_features(type)
  provider = type.defaultprovider
  provider ? provider.features.map(&:to_s).sort : []
rescue Puppet::DevError
  []
end

types = []
Puppet::Type.eachtype { |type| types << type unless INTERNAL.include?(type.name) }
types.sort_by! { |type| type.name.to_s }

metaparams = Puppet::Type.metaparams
# Metaparameters belong to every type; describe them once, through any type.
meta = metaparams.map { |name| attribute(types.first, name) }

out = []
out << '{'
out << %(  "generated_by": #{JSON.generate('ruby xtask/ruby/resource_types.rb (Puppet ' + Puppet.version + ')')},)
out << '  "metaparameters": ['
out << meta.map { |a| '    ' + JSON.generate(a) }.join(",\n")
out << '  ],'
out << '  "types": ['
out << types.map do |type|
  attrs = (type.allattrs - metaparams).map { |name| '        ' + JSON.generate(attribute(type, name)) }
  providers = type.providers.map(&:to_s).sort
  [
    '    {',
    %(      "name": #{JSON.generate(type.name.to_s)},),
    %(      "namevars": #{JSON.generate(type.key_attributes.map(&:to_s))},),
    %(      "providers": #{JSON.generate(providers)},),
    %(      "validates": #{type.method_defined?(:validate) && type.instance_method(:validate).owner == type},),
    %(      "default_features": #{JSON.generate(default_features(type))},),
    '      "attributes": [',
    attrs.join(",\n"),
    '      ]',
    '    }',
  ].join("\n")
end.join(",\n")
out << '  ]'
out << '}'
puts out.join("\n")
