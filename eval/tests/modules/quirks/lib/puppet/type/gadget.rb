# frozen_string_literal: true

require 'puppet/type/file/owner'

# A type written as the concat module writes concat_file: an ensurable block, a namevar that
# is not `name`, parameters with options, and methods that loop and look up other types.
Puppet::Type.newtype(:gadget) do
  @doc = <<-DOC
    @summary
      A resource type a module implements in Ruby, with methods.

    newparam(:not_a_parameter) is documentation.
  DOC

  ensurable do
    desc 'Whether the gadget exists.'

    defaultvalues

    defaultto { :present }
  end

  def exists?
    self[:ensure] == :present
  end

  newparam(:path, namevar: true) do
    desc 'The path.'
  end

  newparam(:owner, parent: Puppet::Type::File::Owner) do
    desc 'The owner.'
  end

  newparam(:order) do
    desc 'The order.'
    validate do |value|
      ['alpha', 'numeric'].each do |allowed|
        return if value == allowed
      end
      raise ArgumentError, 'bad order'
    end
  end

  newproperty(:size)

  autorequire(:file) do
    [self[:path]]
  end

  def parts
    catalog.resources.select { |r| r.is_a?(Puppet::Type.type(:file)) }
  end

  def generate
    [:owner].each do |param|
      self[param]
    end
    []
  end
end
