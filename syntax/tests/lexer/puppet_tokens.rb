# Puppet's own lexer (Lexer2#fullscan) on files: one JSON line per file,
#   {"tokens":[[KIND, offset, length, value]...], "error":[message, line, column]|null, "file":...}
# (offsets and lengths of heredoc text tokens mapped by the SubLocator as Puppet's parser maps
# them), or with --kinds, the token kinds of each file on one line.
#
#   ruby syntax/tests/lexer/puppet_tokens.rb [--kinds] FILE...
require 'puppet'
require 'json'
require 'tmpdir'
dir = Dir.mktmpdir('puppet-tokens')
at_exit { FileUtils.remove_entry(dir) }
Puppet.initialize_settings(['--confdir', "#{dir}/conf", '--vardir', "#{dir}/var"])
L = Puppet::Pops::Parser::Lexer2
def dump_one(src)
  lexer = L.new
  toks = []
  err = nil
  begin
    lexer.lex_string(src, nil)
    lexer.scan do |sym, tv|
      break if sym == false
      off = tv.offset; len = tv.length
      loc = tv.locator
      if loc.is_a?(Puppet::Pops::Parser::Locator::SubLocator) && sym != :SUBLOCATE
        off, len = loc.to_global(off, len)
      end
      v = tv[:value]
      v = v.to_s unless v.is_a?(String)
      toks << [sym.to_s, off, len, v]
    end
  rescue Puppet::ParseErrorWithIssue => e
    err = [e.basic_message, e.line, e.pos]
  rescue NameError => e
    # NoMethodError: Ruby 3.1's error_highlight appends a snippet after the first line
    err = [e.message.lines.first.chomp, nil, nil]
  rescue Exception => e
    err = [e.message, nil, nil]
  end
  {'tokens' => toks, 'error' => err}
end
kinds = ARGV.delete('--kinds')
ARGV.each do |f|
  src = File.read(f, mode: 'rb', encoding: 'utf-8')
  r = dump_one(src)
  r['file'] = f
  if kinds
    puts r['tokens'].map { |t| t[0] }.join(' ')
  else
    puts JSON.generate(r)
  end
end
