# Writes the table of Puppet's issues (pops/issues.rb, and the issues the heredoc syntax
# checkers make, syntax_checkers/*.rb): each issue's code and the templates of its message,
# for syntax/src/issues.tsv.
#
#   ruby xtask/ruby/issues.rb > syntax/src/issues.tsv
#
# Run it with the Ruby that Puppet 7.23 is installed for (`puppet` on PATH). An issue's
# message is a Ruby block; its templates are the translated strings (`_('...')`) the block
# holds, as Ruby reads them (one for each branch of a block that chooses), with `%{name}`
# where the block fills in an argument. A syntax checker's issue is made on the spot
# (`Issues::issue(:ILLEGAL_JSON) { msg }`) from the message it chose, which Puppet reports
# after `Invalid produced text having syntax: 'SYNTAX'.`. Each line: CODE, a tab, a template
# (a line break in it as `\n`, a backslash as `\\`); in the order of issues.rb, then of the
# syntax checkers.
require 'puppet'
require 'ripper'

issues = Puppet::Pops::Issues.constants.sort.map { |c| Puppet::Pops::Issues.const_get(c) }
  .select { |i| i.is_a?(Puppet::Pops::Issues::Issue) }
lines = {}
out = []
issues.each do |issue|
  file, line = issue.message_block.source_location
  lines[file] ||= File.readlines(file)
  source = lines[file]
  # the block: from its line to the `end` at the indentation of the line that opened it
  indent = source[line - 1][/\A */]
  body = []
  source[line..].each do |l|
    break if l.start_with?("#{indent}end")
    body << l
  end
  templates = []
  tokens = Ripper.lex(body.join)
  tokens.each_with_index do |((_, _), kind, text), i|
    next unless kind == :on_ident && text == '_' && tokens[i + 1] && tokens[i + 1][2] == '('
    # a string given to another call (`plural_s(min, _('argument'))`) is a piece of one
    before = tokens[0...i].reverse.find { |t| !%i[on_sp on_nl on_ignored_nl].include?(t[1]) }
    next if before && %w[( ,].include?(before[2])
    # the literal's tokens: from its opening quote to its closing one
    j = i + 2
    literal = +''
    while j < tokens.size
      literal << tokens[j][2]
      break if tokens[j][1] == :on_tstring_end
      j += 1
    end
    templates << eval(literal) # rubocop:disable Security/Eval -- a literal of Puppet's source
  end
  raise "#{issue.issue_code}: no message template" if templates.empty?
  templates.each { |t| out << [file, line, issue.issue_code, t] }
end
out.sort_by! { |f, l, _, _| [f, l] }

# the syntax checkers' issues: their messages are the translated strings of the file that
# makes the issue, but for those of the ArgumentErrors it raises
checkers = File.expand_path('../syntax_checkers', File.dirname(Puppet::Pops::Issues::SYNTAX_ERROR.message_block.source_location[0]))
Dir.glob(File.join(checkers, '*.rb')).sort.each do |file|
  text = File.read(file)
  code = text[/Issues::issue\(:([A-Z_0-9]+)\)/, 1] or next
  text.each_line.with_index(1) do |l, line|
    next if l.include?('raise')
    Ripper.lex(l).each_cons(3) do |(_, k1, t1), (_, _, t2), (_, k3, _)|
      next unless k1 == :on_ident && t1 == '_' && t2 == '(' && k3 == :on_tstring_beg
      literal = l[l.index('_(') + 2..][/\A("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/]
      out << [file, line, code, "Invalid produced text having syntax: '%{syntax}'. " + eval(literal)]
    end
  end
end

out.each do |_, _, code, template|
  puts "#{code}\t#{template.gsub('\\', '\\\\\\\\').gsub("\n", '\\n')}"
end
