// Tokens of PTO-AS text: the MLIR lexical structure plus the PTO assembly conventions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "asm/diagnostics.hpp"
#include "asm/source_location.hpp"

namespace pto::as {

enum class TokenKind : uint8_t {
    EndOfFile,
    Error,           // malformed input; the lexer has already reported it
    BareIdentifier,  // module, pto.tadd, row_major, x128xf32, memref<...>
    ValueId,         // %a, %12, %res#1
    SymbolRef,       // @kernel, @"quoted name"
    BlockLabel,      // ^bb0
    HashIdentifier,  // #alias, #pto.cmp<GT>, #pto<cmp lt>
    BangIdentifier,  // !alias, !pto.tile_buf<...>
    Integer,         // 42, 0x7F800000 (the sign is a separate Minus token)
    Float,           // 1.0, 2.5e-3
    String,          // "text with \"escapes\""
    LParen,
    RParen,
    LSquare,
    RSquare,
    LBrace,
    RBrace,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Minus,
    Plus,
    Star,
    Semicolon,
};

// Human-readable name of a token kind, for "expected X, got Y" messages.
std::string_view token_kind_name(TokenKind kind);

struct Token {
    TokenKind kind = TokenKind::EndOfFile;
    std::string_view spelling;  // exact source text, including a glued `<...>` body
    SourceLocation loc;
    std::size_t offset = 0;     // byte offset of the spelling in the lexed buffer
    bool starts_line = false;   // only whitespace and comments precede it on its line
    bool has_body = false;      // an identifier immediately followed by a balanced `<...>`
    std::string_view body;      // the text between those angle brackets
    SourceLocation body_loc;    // location of the first character of the body

    bool is(TokenKind k) const { return kind == k; }
    bool is_keyword(std::string_view word) const { return kind == TokenKind::BareIdentifier && spelling == word; }
    std::size_t end_offset() const { return offset + spelling.size(); }
    // The identifier without its sigil and without a glued body: `pto.tile_buf` for `!pto.tile_buf<...>`.
    std::string_view name() const;
    // "`text`" or "end of input", for diagnostics.
    std::string describe() const;
};

// Splits a buffer into tokens on demand. Never throws and never reads past the buffer: every
// malformed construct becomes an Error token plus one PARSE_* diagnostic in the sink.
class Lexer {
public:
    // `start` is the location of the buffer's first byte, so that a type or attribute body can be
    // re-lexed on its own while its diagnostics still point into the original file.
    Lexer(std::string_view source, DiagnosticSink& sink, SourceLocation start = {1, 1});

    Token next();
    bool at_end() const { return pos_ >= source_.size(); }

private:
    char peek(std::size_t ahead = 0) const;
    void advance(std::size_t count = 1);
    SourceLocation here() const { return {line_, column_}; }
    void skip_trivia();
    Token make(TokenKind kind, std::size_t begin, SourceLocation loc);
    Token lex_number(std::size_t begin, SourceLocation loc);
    Token lex_string(std::size_t begin, SourceLocation loc);
    Token lex_prefixed_identifier(TokenKind kind, std::size_t begin, SourceLocation loc);
    Token lex_bare_identifier(std::size_t begin, SourceLocation loc);
    // Consumes a balanced `<...>` glued to the identifier just lexed into `token`.
    void lex_angle_body(Token& token, std::size_t begin);
    // Consumes the rest of a string literal whose opening quote was consumed; false if unterminated.
    bool skip_string_contents(SourceLocation open_loc, bool report);
    Token error(std::string_view code, SourceLocation loc, std::size_t begin, std::string what,
                std::string expected = {}, std::string actual = {});

    std::string_view source_;
    DiagnosticSink& sink_;
    std::size_t pos_ = 0;
    uint32_t line_;
    uint32_t column_;
    bool line_start_ = true;
};

// Lexes a whole buffer (up to and including the EndOfFile token); for tests and tools.
std::vector<Token> tokenize(std::string_view source, DiagnosticSink& sink);

// The value of a string literal token (quotes removed, escapes decoded). The lexer has
// already validated the escapes of every String token it produced.
std::string unescape_string_literal(std::string_view spelling);

// A string literal spelling for `text`, escaping quotes, backslashes and non-printable bytes.
std::string quote_string(std::string_view text);

// True if `text` can be written without quotes as an attribute name or symbol.
bool is_bare_identifier(std::string_view text);

}  // namespace pto::as
