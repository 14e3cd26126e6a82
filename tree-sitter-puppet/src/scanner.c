/*
 * External scanner for tree-sitter-puppet.
 *
 * It lexes what depends on context in Puppet's lexer (lexer2.rb):
 *   - `[` after whitespace (LISTSTART) and `(` first on its line (WSLPAREN);
 *   - `/` as division after an operand, as a regular expression elsewhere;
 *   - the text of double-quoted strings, up to escapes and interpolations;
 *   - heredocs: the header's end tag and escapes, and the text that follows the header's line;
 *   - a keyword as a variable's name right after `${` (`${node['a']}`).
 *
 * Its state is the queue of heredocs whose header has been read but whose text has not ended.
 * Every loop advances the lexer or stops, so scanning is bounded by the input's length.
 *
 * Tree-sitter calls the scanner before every token (heredoc text is an extra, so one of its
 * tokens is always valid); it returns at once where none of its tokens can come.
 *
 * Regex or division. Puppet's lexer decides by the previous token; here tree-sitter's set of
 * valid symbols stands in for it: the scanner is asked for division first, where an operator
 * is valid, and reads a regex elsewhere. The exception is `}`, after which Puppet reads `/…/`
 * as a regex when it can (a `}` may end a case option's body): the never-produced external
 * token `_after_rbrace`, optional after every `}` in the grammar, is valid exactly there and
 * tells the scanner.
 *
 * Puppet's string quirks. SLURP_DQ_PATTERN and SLURP_SQ_PATTERN need a character before the
 * closing quote and take the leftmost match, so a `"` that starts a piece of string (after
 * the opening quote, a variable, an interpolation or a `$` that starts no variable) and is
 * followed by `"` or `$` is text: `"${x}""` is `${x}` and `"`, and `'''` is `'` (that one is
 * the grammar's `single_quoted_string`). The external token QUOTE_TEXT (valid only where a
 * piece starts) and the flag `after_false_dollar` reproduce it.
 *
 * Keywords as variables. Puppet's lexer reads an interpolation's tokens, then makes its first
 * token a variable's name when it is alone (`${node}`) or a `.` or a `[` (LBRACK, no blank
 * before it) follows it (`${node['a']}`, `${class.x}`), whatever word it is, keywords
 * included (interpolation_support.rb `enqueue_until`, `transform_to_variable`). The grammar
 * takes a keyword alone there as a name; the token KEYWORD_VARIABLE is the keyword followed
 * by `[` or `.`, produced only where the never-produced AFTER_DOLLAR_BRACE, optional after
 * every `${`, says that the token is the interpolation's first.
 *
 * Heredocs. The header `@("END":json/L)` is part of the expression; its text starts on the
 * next line, after whatever else the header's line holds, so the text is an extra
 * (`heredoc_body`, as tree-sitter-ruby does it), which lands in the tree right after the
 * construct that ends the header's line. Pending heredocs are kept in a queue (end tag as
 * length and 64-bit hash, escapes, flags: 12 bytes each, bounded in bytes against the
 * serialization buffer). Like Puppet, any line whose text *ends* with the tag ends the
 * heredoc (Puppet's end-line pattern is not anchored at the line's start).
 */

#include "tree_sitter/alloc.h"
#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* In the order of `externals` in grammar.js. */
enum TokenType {
  LIST_START,
  WS_LPAREN,
  DIV,
  REGEX,
  STRING_CONTENT,
  ESCAPE_SEQUENCE,
  QUOTE_TEXT,
  HEREDOC_START,
  HEREDOC_ESCAPES,
  HEREDOC_BODY_START,
  HEREDOC_CONTENT,
  HEREDOC_END,
  AFTER_RBRACE,
  KEYWORD_VARIABLE,
  AFTER_DOLLAR_BRACE,
  ERROR_SENTINEL,
};

/* Escapes a heredoc allows (`@(END/tsL)`): one bit each. */
enum {
  ESC_T = 1 << 0,
  ESC_R = 1 << 1,
  ESC_N = 1 << 2,
  ESC_S = 1 << 3,
  ESC_U = 1 << 4,
  ESC_L = 1 << 5,
  ESC_DOLLAR = 1 << 6,
  ESC_ANY = 1 << 7, /* an escape spec is present: `\\` is an escape too */
};

/* Flags of a pending heredoc. */
enum {
  HD_INTERPOLATE = 1 << 0, /* @("END"): the text interpolates `$x` and `${…}` */
  HD_STARTED = 1 << 1,     /* its text has started */
};

/* The end tag is kept as its length and a 64-bit FNV-1a hash of its code points, so that a
 * heredoc takes a fixed 12 bytes of serialized state whatever its tag's length. */
#define TAG_UNMATCHABLE 0xFFFF
#define MAX_TAG_LENGTH 1000
#define LINE_RING 1024
#define MAX_HEREDOCS 64
#define HEREDOC_BYTES 12

typedef struct {
  uint8_t flags;
  uint8_t escapes;
  uint16_t tag_length;
  uint64_t tag_hash;
} Heredoc;

typedef struct {
  uint8_t count;
  /* The last token was string text ending in a `$` that starts no variable, before a `"`:
   * Puppet's slurp starts again after such a `$`, so the `"` may be text (see QUOTE_TEXT). */
  bool after_false_dollar;
  Heredoc heredocs[MAX_HEREDOCS];
  /* Scratch for the current line's last code points; never serialized. */
  int32_t ring[LINE_RING];
} Scanner;

static const uint64_t FNV_OFFSET = 0xcbf29ce484222325ULL;
static const uint64_t FNV_PRIME = 0x100000001b3ULL;

static uint64_t fnv_step(uint64_t hash, int32_t c) {
  uint32_t u = (uint32_t)c;
  for (int i = 0; i < 4; i++) {
    hash ^= (u >> (8 * i)) & 0xFF;
    hash *= FNV_PRIME;
  }
  return hash;
}

static inline void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static inline void skip(TSLexer *lexer) { lexer->advance(lexer, true); }

/* [[:blank:]] without line breaks: tab, space and the Unicode space separators. */
static bool is_blank(int32_t c) {
  return c == ' ' || c == '\t' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
         c == 0x202F || c == 0x205F || c == 0x3000;
}

static bool is_word_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool is_hex(int32_t c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}


/* ------------------------------------------------------------------ reading text */

/* The raw text of the heredoc line being read: its last code points, to compare its end with
 * the end tag. NULL when reading a double-quoted string. */
typedef struct {
  int32_t *ring;
  uint32_t filled;   /* code points read on this line */
  uint32_t trailing; /* blanks (and \r) at the end of the line so far */
} Line;

/* Consumes one code point, keeping it in the line's ring. */
static void take(TSLexer *lexer, Line *line) {
  if (line) {
    int32_t c = lexer->lookahead;
    line->ring[line->filled % LINE_RING] = c;
    line->filled++;
    line->trailing = (is_blank(c) || c == '\r') ? line->trailing + 1 : 0;
  }
  advance(lexer);
}

/* With the lexer on the character after a backslash: is `\c` an escape under `escapes`?
 * Double-quoted strings allow them all (L is spelled as the line break itself there). */
static bool escape_allowed(int32_t c, uint8_t escapes, bool double_quoted) {
  switch (c) {
    case '"':
    case '\'': return double_quoted;
    case '\\': return double_quoted || (escapes & ESC_ANY);
    case '$': return double_quoted || (escapes & ESC_DOLLAR);
    case 't': return double_quoted || (escapes & ESC_T);
    case 'r': return double_quoted || (escapes & ESC_R);
    case 'n': return double_quoted || (escapes & ESC_N);
    case 's': return double_quoted || (escapes & ESC_S);
    case 'u': return double_quoted || (escapes & ESC_U);
    case '\n':
    case '\r': return double_quoted || (escapes & ESC_L);
    default: return false;
  }
}

typedef enum {
  TEXT,              /* not an escape: `\q`, a malformed `\u`; kept as text, as Puppet does */
  ESCAPE,            /* an escape on one line */
  ESCAPED_LINE_BREAK /* `\` and a line break (removed from the text) */
} Backslash;

/* With the lexer on a backslash: consumes it and what it escapes. A backslash that escapes
 * nothing is consumed with the character after it unless that character can start or end
 * something (`"`, `$`, `\`, a line break). */
static Backslash take_backslash(TSLexer *lexer, Line *line, uint8_t escapes, bool double_quoted) {
  take(lexer, line); /* \ */
  int32_t c = lexer->lookahead;
  if (lexer->eof(lexer)) return TEXT;
  if (!escape_allowed(c, escapes, double_quoted)) {
    if (c != '$' && c != '"' && c != '\n' && c != '\\' && c != '\r') take(lexer, line);
    return TEXT;
  }
  switch (c) {
    case 'u': {
      take(lexer, line);
      if (lexer->lookahead == '{') {
        take(lexer, line);
        int digits = 0;
        while (digits < 6 && is_hex(lexer->lookahead)) {
          take(lexer, line);
          digits++;
        }
        if (digits == 0 || lexer->lookahead != '}') return TEXT;
        take(lexer, line);
        return ESCAPE;
      }
      for (int i = 0; i < 4; i++) {
        if (!is_hex(lexer->lookahead)) return TEXT;
        take(lexer, line);
      }
      return ESCAPE;
    }
    case '\r':
      take(lexer, line);
      if (lexer->lookahead != '\n') return TEXT;
      advance(lexer);
      return ESCAPED_LINE_BREAK;
    case '\n':
      advance(lexer);
      return ESCAPED_LINE_BREAK;
    default:
      take(lexer, line);
      return ESCAPE;
  }
}

/* With the lexer on `$`: does it start an interpolation, `${` or a variable (`$x`, `$::x`)?
 * Consumes what it looks at. */
static bool take_dollar(TSLexer *lexer, Line *line) {
  take(lexer, line); /* $ */
  int32_t c = lexer->lookahead;
  if (c == '{' || is_word_char(c)) return true;
  if (c != ':') return false;
  take(lexer, line);
  if (lexer->lookahead != ':') return false;
  take(lexer, line);
  return is_word_char(lexer->lookahead);
}

/* ------------------------------------------------------------------ double-quoted strings */

/* At a `"` where a piece of string text starts: is it text? SLURP_DQ_PATTERN,
 * `(?:[^\\]|^)(?:[\\]{2})*(["]|[$]\{?)`, takes the leftmost match, trying a character
 * before the terminator first: `""`, `"$`, `"\\"` make the first quote text. Takes the quote
 * into the token; reads what follows without taking it. */
static bool quote_is_text(TSLexer *lexer) {
  advance(lexer); /* " */
  lexer->mark_end(lexer);
  unsigned backslashes = 0;
  while (lexer->lookahead == '\\') {
    advance(lexer);
    backslashes++;
  }
  return backslashes % 2 == 0 && (lexer->lookahead == '"' || lexer->lookahead == '$');
}

/* Text up to `"`, an escape, or an interpolation; or the escape itself. */
static bool scan_string_content(Scanner *scanner, TSLexer *lexer, const bool *valid_symbols) {
  bool piece_start = scanner->after_false_dollar;
  scanner->after_false_dollar = false;
  if (lexer->lookahead == '"' && (piece_start || valid_symbols[QUOTE_TEXT])) {
    if (!quote_is_text(lexer)) return false;
    lexer->result_symbol = valid_symbols[QUOTE_TEXT] ? QUOTE_TEXT : STRING_CONTENT;
    return true;
  }
  bool at_piece_start = piece_start || valid_symbols[QUOTE_TEXT];
  bool has_content = false;
  for (;;) {
    lexer->mark_end(lexer);
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer) || c == '"') break;
    if (c == '$') {
      if (take_dollar(lexer, NULL)) break;
      if (lexer->lookahead == '"' && !(at_piece_start && !has_content)) {
        /* After a character, this `$` is the pattern's terminator, and no variable: Puppet
         * reads on from the `"` as from a piece's start. End the text at the `$`. (First in
         * a piece, the `$` is the character before the terminator `"`.) */
        lexer->mark_end(lexer);
        scanner->after_false_dollar = true;
        lexer->result_symbol = STRING_CONTENT;
        return true;
      }
    } else if (c == '\\') {
      if (take_backslash(lexer, NULL, 0, true) != TEXT) {
        if (has_content) break; /* the text ends before the escape */
        lexer->mark_end(lexer);
        lexer->result_symbol = ESCAPE_SEQUENCE;
        return valid_symbols[ESCAPE_SEQUENCE];
      }
    } else {
      advance(lexer);
    }
    has_content = true;
  }
  lexer->result_symbol = STRING_CONTENT;
  return has_content;
}

/* ------------------------------------------------------------------ heredocs */

/* `@(` and the end tag: `@(END`, `@("END"`, `@( END `. Records the heredoc. */
static bool scan_heredoc_start(Scanner *scanner, TSLexer *lexer) {
  advance(lexer); /* @ */
  if (lexer->lookahead != '(') return false;
  advance(lexer);

  /* The tag is [^:/\r\n)]+, stripped; `"…"` around it asks for interpolation. */
  int32_t *tag = scanner->ring;
  uint32_t length = 0;
  bool too_long = false;
  while (!lexer->eof(lexer)) {
    int32_t c = lexer->lookahead;
    if (c == ':' || c == '/' || c == ')' || c == '\r' || c == '\n') break;
    if (length < MAX_TAG_LENGTH) {
      tag[length++] = c;
    } else {
      too_long = true;
    }
    advance(lexer);
  }
  int32_t c = lexer->lookahead;
  if (lexer->eof(lexer) || c == '\r' || c == '\n') return false;

  uint32_t start = 0;
  while (start < length && is_blank(tag[start])) start++;
  while (length > start && is_blank(tag[length - 1])) length--;
  uint8_t flags = 0;
  if (length - start >= 2 && tag[start] == '"' && tag[length - 1] == '"') {
    flags |= HD_INTERPOLATE;
    start++;
    length--;
    while (start < length && is_blank(tag[start])) start++;
    while (length > start && is_blank(tag[length - 1])) length--;
  }

  Heredoc heredoc = {.flags = flags, .escapes = 0, .tag_length = TAG_UNMATCHABLE,
                     .tag_hash = FNV_OFFSET};
  if (!too_long && length > start) {
    heredoc.tag_length = (uint16_t)(length - start);
    for (uint32_t i = start; i < length; i++) heredoc.tag_hash = fnv_step(heredoc.tag_hash, tag[i]);
  }
  if (scanner->count < MAX_HEREDOCS) scanner->heredocs[scanner->count++] = heredoc;
  lexer->mark_end(lexer);
  lexer->result_symbol = HEREDOC_START;
  return true;
}

/* `/` followed by escape letters in a heredoc header: `/`, `/t`, `/L$`. */
static bool scan_heredoc_escapes(Scanner *scanner, TSLexer *lexer) {
  advance(lexer); /* / */
  uint8_t escapes = ESC_ANY;
  bool any = false;
  while (is_word_char(lexer->lookahead) || lexer->lookahead == '$') {
    switch (lexer->lookahead) {
      case 't': escapes |= ESC_T; break;
      case 'r': escapes |= ESC_R; break;
      case 'n': escapes |= ESC_N; break;
      case 's': escapes |= ESC_S; break;
      case 'u': escapes |= ESC_U; break;
      case 'L': escapes |= ESC_L; break;
      case '$': escapes |= ESC_DOLLAR; break;
      default: break; /* an invalid letter: reported by the syntax layer, as Puppet does */
    }
    any = true;
    advance(lexer);
  }
  if (!any) escapes = ESC_ANY | ESC_T | ESC_R | ESC_N | ESC_S | ESC_U | ESC_L | ESC_DOLLAR;
  if (scanner->count > 0) scanner->heredocs[scanner->count - 1].escapes = escapes;
  lexer->mark_end(lexer);
  lexer->result_symbol = HEREDOC_ESCAPES;
  return true;
}

/* What reading one line of heredoc text found. */
typedef struct {
  bool empty;         /* nothing was left to read (end of input) */
  bool is_end;        /* the line ends the heredoc */
  bool stopped;       /* it holds an escape or an interpolation */
  bool stop_at_start; /* … as its first character */
  bool stop_escape;   /* … and that is an escape (else an interpolation) */
} LineScan;

/* Reads one line of heredoc text, up to its line break (left unread, unless an escape took
 * it). When `mark_stop` is set, marks the
 * token's end before the line's first escape or interpolation (after it, for an escape that
 * starts the line, which is then the token). Decides whether the line ends the heredoc:
 * Puppet's end-line pattern is not anchored at the line's start, so any line whose text ends
 * with the tag (then blanks) ends it. */
static LineScan scan_heredoc_line(Scanner *scanner, TSLexer *lexer, const Heredoc *heredoc,
                                  bool mark_stop) {
  LineScan result = {.empty = true};
  Line line = {.ring = scanner->ring};
  bool interpolate = heredoc->flags & HD_INTERPOLATE;
  while (!lexer->eof(lexer)) {
    int32_t c = lexer->lookahead;
    result.empty = false;
    if (c == '\n') break;
    bool first = line.filled == 0;
    if (c == '\\' && heredoc->escapes) {
      if (!result.stopped && mark_stop) lexer->mark_end(lexer);
      Backslash b = take_backslash(lexer, &line, heredoc->escapes, false);
      if (b == TEXT) continue;
      if (!result.stopped) {
        result.stopped = true;
        result.stop_escape = true;
        result.stop_at_start = first;
        if (first && mark_stop) lexer->mark_end(lexer);
      }
      if (b == ESCAPED_LINE_BREAK) break;
      continue;
    }
    if (c == '$' && interpolate) {
      if (!result.stopped && mark_stop) lexer->mark_end(lexer);
      if (take_dollar(lexer, &line) && !result.stopped) {
        result.stopped = true;
        result.stop_at_start = first;
      }
      continue;
    }
    take(lexer, &line);
  }
  uint32_t length = heredoc->tag_length;
  if (length != TAG_UNMATCHABLE && line.filled >= line.trailing + length &&
      line.trailing + length <= LINE_RING) {
    uint64_t hash = FNV_OFFSET;
    uint32_t end = line.filled - line.trailing;
    for (uint32_t i = end - length; i < end; i++) hash = fnv_step(hash, line.ring[i % LINE_RING]);
    result.is_end = hash == heredoc->tag_hash;
  }
  return result;
}

/* Pops the heredoc whose text just ended: the next in the queue starts on the next line. */
static void pop_heredoc(Scanner *scanner) {
  scanner->count--;
  memmove(&scanner->heredocs[0], &scanner->heredocs[1], scanner->count * sizeof(Heredoc));
}

/* Inside a heredoc's text: content, an escape, or the end line. Returns false before an
 * interpolation (`$x`, `${`), which the grammar lexes. */
static bool scan_heredoc_text(Scanner *scanner, TSLexer *lexer, const bool *valid_symbols) {
  if (scanner->count == 0) return false;
  const Heredoc *heredoc = &scanner->heredocs[0];
  bool interpolate = heredoc->flags & HD_INTERPOLATE;
  bool has_content = false;
  lexer->result_symbol = HEREDOC_CONTENT;

  if (lexer->get_column(lexer) != 0) {
    /* In the middle of a line, after an escape or interpolation: the line is known not to
     * end the heredoc. The content runs to the next stop or through the line break. */
    for (;;) {
      lexer->mark_end(lexer);
      if (lexer->eof(lexer)) break;
      int32_t c = lexer->lookahead;
      if (c == '\n') {
        advance(lexer);
        lexer->mark_end(lexer);
        has_content = true;
        break;
      }
      if (c == '\\' && heredoc->escapes) {
        if (take_backslash(lexer, NULL, heredoc->escapes, false) != TEXT) {
          if (has_content) break;
          lexer->mark_end(lexer);
          lexer->result_symbol = ESCAPE_SEQUENCE;
          return valid_symbols[ESCAPE_SEQUENCE];
        }
      } else if (c == '$' && interpolate) {
        if (take_dollar(lexer, NULL)) {
          if (has_content) break;
          return false;
        }
      } else {
        advance(lexer);
      }
      has_content = true;
    }
    return has_content && valid_symbols[HEREDOC_CONTENT];
  }

  /* At the start of a line: whole lines of text, up to an end line or a stop. */
  for (;;) {
    if (has_content) lexer->mark_end(lexer); /* the content so far ends before this line */
    LineScan line = scan_heredoc_line(scanner, lexer, heredoc, !has_content);
    if (line.empty) break;
    if (line.is_end) {
      if (has_content) break;
      lexer->mark_end(lexer);
      lexer->result_symbol = HEREDOC_END;
      if (!valid_symbols[HEREDOC_END]) return false;
      pop_heredoc(scanner);
      return true;
    }
    if (line.stopped) {
      if (has_content) break;
      if (!line.stop_at_start) return valid_symbols[HEREDOC_CONTENT]; /* marked at the stop */
      if (!line.stop_escape) return false; /* an interpolation: the grammar lexes it */
      lexer->result_symbol = ESCAPE_SEQUENCE; /* marked after the escape */
      return valid_symbols[ESCAPE_SEQUENCE];
    }
    if (lexer->lookahead == '\n') advance(lexer);
    lexer->mark_end(lexer);
    has_content = true;
  }
  return has_content && valid_symbols[HEREDOC_CONTENT];
}

/* ------------------------------------------------------------------ keywords as variables */

/* Puppet's keywords (lexer2.rb KEYWORDS); none is longer than 8 letters. */
static const char *const KEYWORDS[] = {
    "and", "attr", "case", "class", "default", "define", "else", "elsif", "false", "function",
    "if", "in", "inherits", "node", "or", "private", "true", "type", "undef", "unless",
};
#define MAX_KEYWORD_LENGTH 8

/* With the lexer on a lowercase letter right after `${`: a keyword that `[` (with no blank
 * before it) or `.` (after blanks and comments, if any) follows is KEYWORD_VARIABLE. A longer
 * word is no keyword (`nodes`, `node::x` a name, `node-x` a bare word). */
static bool scan_keyword_variable(TSLexer *lexer) {
  char word[MAX_KEYWORD_LENGTH + 1];
  unsigned length = 0;
  while (is_word_char(lexer->lookahead)) {
    if (length == MAX_KEYWORD_LENGTH) return false;
    word[length++] = (char)lexer->lookahead;
    advance(lexer);
  }
  word[length] = '\0';
  bool keyword = false;
  for (size_t i = 0; i < sizeof KEYWORDS / sizeof KEYWORDS[0]; i++) {
    if (strcmp(word, KEYWORDS[i]) == 0) keyword = true;
  }
  if (!keyword) return false;
  lexer->mark_end(lexer);
  lexer->result_symbol = KEYWORD_VARIABLE;
  bool blank_before = false;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '[') return !blank_before;
    if (c == '.') return true;
    if (lexer->eof(lexer)) return false;
    if (is_blank(c) || c == '\r' || c == '\n') {
      advance(lexer);
      blank_before = true;
    } else if (c == '#') {
      while (!lexer->eof(lexer) && lexer->lookahead != '\n') advance(lexer);
      blank_before = false;
    } else if (c == '/') {
      advance(lexer);
      if (lexer->lookahead != '*') return false;
      advance(lexer);
      for (;;) {
        if (lexer->eof(lexer)) return false;
        if (lexer->lookahead == '*') {
          advance(lexer);
          if (lexer->lookahead == '/') break;
        } else {
          advance(lexer);
        }
      }
      advance(lexer); /* the comment's closing `/` */
      blank_before = false;
    } else {
      return false;
    }
  }
}

/* ------------------------------------------------------------------ the scanner */

static bool scan(Scanner *scanner, TSLexer *lexer, const bool *valid_symbols) {
  if (valid_symbols[ERROR_SENTINEL]) return false;

  if (valid_symbols[HEREDOC_CONTENT] || valid_symbols[HEREDOC_END]) {
    return scan_heredoc_text(scanner, lexer, valid_symbols);
  }

  if (valid_symbols[STRING_CONTENT]) {
    return scan_string_content(scanner, lexer, valid_symbols);
  }
  scanner->after_false_dollar = false;

  /* Most tokens follow whitespace; skipping it here only to have the internal lexer skip it
   * again costs time. Where none of these tokens can come, leave at once. */
  bool body_pending = scanner->count > 0 && !(scanner->heredocs[0].flags & HD_STARTED);
  if (!(valid_symbols[LIST_START] || valid_symbols[WS_LPAREN] || valid_symbols[DIV] ||
        valid_symbols[REGEX] || valid_symbols[HEREDOC_START] || valid_symbols[HEREDOC_ESCAPES] ||
        valid_symbols[AFTER_DOLLAR_BRACE] || (body_pending && valid_symbols[HEREDOC_BODY_START]))) {
    return false;
  }

  bool skipped = false;
  bool newline = false;
  uint32_t blanks = 0;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      if (body_pending && valid_symbols[HEREDOC_BODY_START]) {
        advance(lexer);
        lexer->mark_end(lexer);
        scanner->heredocs[0].flags |= HD_STARTED;
        lexer->result_symbol = HEREDOC_BODY_START;
        return true;
      }
      newline = true;
    } else if (!(is_blank(c) || c == '\r')) {
      break;
    }
    skip(lexer);
    skipped = true;
    blanks++;
  }

  if (valid_symbols[AFTER_DOLLAR_BRACE] && valid_symbols[KEYWORD_VARIABLE] && lexer->lookahead >= 'a' &&
      lexer->lookahead <= 'z') {
    return scan_keyword_variable(lexer);
  }

  switch (lexer->lookahead) {
    case '[':
      if (valid_symbols[LIST_START] && (skipped || lexer->get_column(lexer) == 0)) {
        advance(lexer);
        lexer->mark_end(lexer);
        lexer->result_symbol = LIST_START;
        return true;
      }
      return false;

    case '(':
      if (valid_symbols[WS_LPAREN] && (newline || lexer->get_column(lexer) == blanks)) {
        advance(lexer);
        lexer->mark_end(lexer);
        lexer->result_symbol = WS_LPAREN;
        return true;
      }
      return false;

    case '/':
      if (!(valid_symbols[DIV] || valid_symbols[REGEX] || valid_symbols[HEREDOC_ESCAPES])) {
        return false;
      }
      if (valid_symbols[HEREDOC_ESCAPES]) return scan_heredoc_escapes(scanner, lexer);
      advance(lexer);
      if (lexer->lookahead == '*') return false; /* a comment */
      bool division = valid_symbols[DIV];
      if (division) {
        lexer->mark_end(lexer);
        lexer->result_symbol = DIV;
        /* After `}` Puppet takes `/[^/]*\/` for a regular expression where it can. */
        if (!(valid_symbols[AFTER_RBRACE] && valid_symbols[REGEX])) return true;
      }
      /* A regular expression runs to the next unescaped `/`, across lines if need be;
       * without one, the division marked above, if any. */
      while (!lexer->eof(lexer)) {
        int32_t c = lexer->lookahead;
        if (c == '/') {
          advance(lexer);
          lexer->mark_end(lexer);
          lexer->result_symbol = REGEX;
          return true;
        }
        if (c == '\\') {
          advance(lexer);
          if (lexer->eof(lexer)) break;
        }
        advance(lexer);
      }
      return division;

    case '@':
      if (valid_symbols[HEREDOC_START]) return scan_heredoc_start(scanner, lexer);
      return false;

    default:
      return false;
  }
}

/* ------------------------------------------------------------------ tree-sitter API */

void *tree_sitter_puppet_external_scanner_create(void) {
  Scanner *scanner = ts_calloc(1, sizeof(Scanner));
  return scanner;
}

void tree_sitter_puppet_external_scanner_destroy(void *payload) { ts_free(payload); }

unsigned tree_sitter_puppet_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *scanner = payload;
  unsigned size = 0;
  unsigned count = scanner->count;
  if (1 + count * HEREDOC_BYTES > TREE_SITTER_SERIALIZATION_BUFFER_SIZE) {
    count = (TREE_SITTER_SERIALIZATION_BUFFER_SIZE - 1) / HEREDOC_BYTES;
  }
  buffer[size++] = (char)(count | (scanner->after_false_dollar ? 0x80 : 0));
  for (unsigned i = 0; i < count; i++) {
    const Heredoc *h = &scanner->heredocs[i];
    buffer[size++] = (char)h->flags;
    buffer[size++] = (char)h->escapes;
    buffer[size++] = (char)(h->tag_length & 0xFF);
    buffer[size++] = (char)(h->tag_length >> 8);
    for (int b = 0; b < 8; b++) buffer[size++] = (char)((h->tag_hash >> (8 * b)) & 0xFF);
  }
  return size;
}

void tree_sitter_puppet_external_scanner_deserialize(void *payload, const char *buffer,
                                                     unsigned length) {
  Scanner *scanner = payload;
  scanner->count = 0;
  scanner->after_false_dollar = false;
  if (length == 0) return;
  scanner->after_false_dollar = ((uint8_t)buffer[0] & 0x80) != 0;
  unsigned count = (uint8_t)buffer[0] & 0x7F;
  if (count > MAX_HEREDOCS) count = MAX_HEREDOCS;
  if (1 + count * HEREDOC_BYTES > length) count = (length - 1) / HEREDOC_BYTES;
  unsigned size = 1;
  for (unsigned i = 0; i < count; i++) {
    Heredoc *h = &scanner->heredocs[i];
    h->flags = (uint8_t)buffer[size++];
    h->escapes = (uint8_t)buffer[size++];
    h->tag_length = (uint16_t)((uint8_t)buffer[size] | ((uint8_t)buffer[size + 1] << 8));
    size += 2;
    h->tag_hash = 0;
    for (int b = 0; b < 8; b++) h->tag_hash |= (uint64_t)(uint8_t)buffer[size++] << (8 * b);
  }
  scanner->count = (uint8_t)count;
}

bool tree_sitter_puppet_external_scanner_scan(void *payload, TSLexer *lexer,
                                              const bool *valid_symbols) {
  return scan(payload, lexer, valid_symbols);
}
