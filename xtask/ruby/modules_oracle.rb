# Puppet 7.23 with a module path: the project's oracle (tests/oracle/oracle.rb, or
# $POPPET_BASE_ORACLE) with every environment it creates given the directories of
# $POPPET_MODULEPATH (DIR[:DIR]). Same input and output as the oracle; used to record the
# golden programs of eval/tests/golden_modules and by `cargo xtask check modules`.
#
#   cargo xtask record eval --modulepath eval/tests/modules eval/tests/golden_modules/*.txt
require 'puppet'

MODULEPATH = ENV.fetch('POPPET_MODULEPATH', '').split(':').reject(&:empty?).map { |d| File.expand_path(d) }

class << Puppet::Node::Environment
  alias_method :poppet_create_without_modulepath, :create

  def create(name, _modulepath, *rest)
    poppet_create_without_modulepath(name, MODULEPATH, *rest)
  end
end

load(ENV['POPPET_BASE_ORACLE'] || File.expand_path('../../tests/oracle/oracle.rb', __dir__))
