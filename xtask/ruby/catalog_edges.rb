# Records the containment edges, classes and resource tags of Puppet 7.23's compiled catalog
# for each case of a case file (`=== name`, code, `---`, expectation), the part of
# `--catalog json` that the oracle does not report. Edges are sorted: Puppet's order is its
# graph's; tags are listed per resource in catalog order.
#
#   cargo xtask gen catalog-edges repl/tests/catalog_edges.txt
require 'puppet'
require 'tmpdir'

dir = Dir.mktmpdir('poppet-edges')
Puppet.initialize_settings(['--confdir', "#{dir}/conf", '--vardir', "#{dir}/var", '--codedir', "#{dir}/code"])

def expectation(code)
  Puppet[:code] = code
  catalog = Puppet::Parser::Compiler.compile(Puppet::Node.new('testnode'))
  edges = catalog.edges.map { |e| "edge: #{e.source} -> #{e.target}" }.sort
  tags = catalog.resources.map { |r| "tags: #{r}: #{r.tags.to_a.join(' ')}" }
  edges + ["classes: #{catalog.classes.join(' ')}"] + tags
rescue StandardError => e
  ["error: #{e.message.lines.first.chomp}"]
end

path = ARGV.fetch(0)
out = []
File.read(path).split(/^(?==== )/).each do |chunk|
  unless chunk.start_with?('=== ')
    out << chunk
    next
  end
  head, _expected = chunk.split(/^---\n/, 2)
  code = head.lines.drop(1).join
  out << head << "---\n" << expectation(code).map { |l| "#{l}\n" }.join << "\n"
end
File.write(path, out.join)
puts "#{path}: recorded"
