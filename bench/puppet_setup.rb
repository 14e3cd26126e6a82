# Loads Puppet 7.23 for a benchmark script, kept away from /etc/puppet and /var/cache/puppet
# (as tests/oracle/oracle.rb does): settings point at a temporary directory, removed at
# exit. `load_puppet(prefix)` returns that directory.
require 'fileutils'
require 'tmpdir'

def load_puppet(prefix)
  workdir = Dir.mktmpdir(prefix)
  at_exit { FileUtils.rm_rf(workdir) }
  %w[conf code var log run env/production].each { |d| FileUtils.mkdir_p(File.join(workdir, d)) }
  require 'puppet'
  Puppet.initialize_settings([
    '--confdir', File.join(workdir, 'conf'),
    '--codedir', File.join(workdir, 'code'),
    '--vardir', File.join(workdir, 'var'),
    '--logdir', File.join(workdir, 'log'),
    '--rundir', File.join(workdir, 'run'),
    '--environmentpath', File.join(workdir, 'env'),
    '--color', 'false',
  ])
  workdir
end
