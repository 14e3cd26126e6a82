Puppet::Type.type(:knob).provide(:plain) do
  desc 'A provider: with one, the type has a provider parameter.'
end
