# A type without ensure, whose namevar is `name`.
Puppet::Type.newtype(:widget) do
  desc "A widget: a type a module implements in Ruby,
    with a description on two lines."

  newparam(:name) do
    desc 'The name.'
    isnamevar
  end

  newparam(:colour)
end
