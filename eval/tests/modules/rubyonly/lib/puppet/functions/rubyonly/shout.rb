Puppet::Functions.create_function(:'rubyonly::shout') do
  def shout(s)
    s.upcase
  end
end
