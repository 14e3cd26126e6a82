Puppet::Type.newtype(:knob) do
  @doc = 'A resource type a module implements in Ruby.'

  ensurable

  newparam(:name, :namevar => true) do
    desc 'The name.'
  end

  newproperty(:setting) do
    desc 'A setting.'
  end
end
