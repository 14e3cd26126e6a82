Puppet::Functions.create_function(:rubyfn) do
  def rubyfn
    'ruby'
  end
end
