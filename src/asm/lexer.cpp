#include "asm/lexer.hpp"

#include <array>
#include <cstdio>

namespace pto::as {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_identifier_start(char c) { return is_letter(c) || c == '_'; }
bool is_identifier_char(char c) { return is_letter(c) || is_digit(c) || c == '_' || c == '$' || c == '.'; }
// Suffix of `%name` and `^name`: MLIR also allows '-' there.
bool is_suffix_char(char c) { return is_identifier_char(c) || c == '-'; }

int hex_value(char c)
{
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

// Builtin MLIR type and attribute keywords that carry a `<...>` body (memref<4xf32>, array<i32: 1>).
bool takes_angle_body(std::string_view word)
{
    static constexpr std::array<std::string_view, 12> kWords = {
        "memref", "tensor",  "vector",     "complex", "tuple",  "dense",
        "array",  "strided", "affine_map", "opaque",  "sparse", "dense_resource"};
    for (std::string_view w : kWords)
        if (w == word) return true;
    return false;
}

std::string printable(char c)
{
    auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7F) return std::string("'") + c + "'";
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", byte);
    return buf;
}

}  // namespace

std::string_view token_kind_name(TokenKind kind)
{
    switch (kind) {
        case TokenKind::EndOfFile: return "end of input";
        case TokenKind::Error: return "malformed token";
        case TokenKind::BareIdentifier: return "identifier";
        case TokenKind::ValueId: return "SSA value";
        case TokenKind::SymbolRef: return "symbol";
        case TokenKind::BlockLabel: return "block label";
        case TokenKind::HashIdentifier: return "attribute";
        case TokenKind::BangIdentifier: return "type";
        case TokenKind::Integer: return "integer";
        case TokenKind::Float: return "float";
        case TokenKind::String: return "string";
        case TokenKind::LParen: return "'('";
        case TokenKind::RParen: return "')'";
        case TokenKind::LSquare: return "'['";
        case TokenKind::RSquare: return "']'";
        case TokenKind::LBrace: return "'{'";
        case TokenKind::RBrace: return "'}'";
        case TokenKind::Less: return "'<'";
        case TokenKind::Greater: return "'>'";
        case TokenKind::Comma: return "','";
        case TokenKind::Colon: return "':'";
        case TokenKind::Equal: return "'='";
        case TokenKind::Arrow: return "'->'";
        case TokenKind::Question: return "'?'";
        case TokenKind::Minus: return "'-'";
        case TokenKind::Plus: return "'+'";
        case TokenKind::Star: return "'*'";
        case TokenKind::Semicolon: return "';'";
    }
    return "token";
}

std::string_view Token::name() const
{
    std::string_view text = spelling;
    if (has_body) text = text.substr(0, static_cast<std::size_t>(body.data() - spelling.data()) - 1);
    switch (kind) {
        case TokenKind::ValueId:
        case TokenKind::SymbolRef:
        case TokenKind::BlockLabel:
        case TokenKind::HashIdentifier:
        case TokenKind::BangIdentifier: return text.substr(1);
        default: return text;
    }
}

std::string Token::describe() const
{
    if (kind == TokenKind::EndOfFile) return "end of input";
    constexpr std::size_t kMaxShown = 40;
    std::string text(spelling.substr(0, kMaxShown));
    if (spelling.size() > kMaxShown) text += "...";
    return "`" + text + "`";
}

Lexer::Lexer(std::string_view source, DiagnosticSink& sink, SourceLocation start)
    : source_(source), sink_(sink), line_(start.line), column_(start.column)
{
}

char Lexer::peek(std::size_t ahead) const
{
    std::size_t at = pos_ + ahead;
    return at < source_.size() ? source_[at] : '\0';
}

void Lexer::advance(std::size_t count)
{
    for (; count > 0 && pos_ < source_.size(); --count, ++pos_) {
        if (source_[pos_] == '\n') {
            ++line_;
            column_ = 1;
            line_start_ = true;
        } else {
            ++column_;
        }
    }
}

void Lexer::skip_trivia()
{
    while (!at_end()) {
        char c = peek();
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            advance();
        } else if (c == '/' && peek(1) == '/') {
            while (!at_end() && peek() != '\n') advance();
        } else {
            return;
        }
    }
}

Token Lexer::make(TokenKind kind, std::size_t begin, SourceLocation loc)
{
    Token t;
    t.kind = kind;
    t.spelling = source_.substr(begin, pos_ - begin);
    t.loc = loc;
    t.offset = begin;
    return t;
}

Token Lexer::error(std::string_view code, SourceLocation loc, std::size_t begin, std::string what,
                   std::string expected, std::string actual)
{
    sink_.error(code, loc, std::move(what), std::move(expected), std::move(actual));
    if (pos_ == begin) advance();  // always make progress
    return make(TokenKind::Error, begin, loc);
}

Token Lexer::next()
{
    skip_trivia();
    bool starts_line = line_start_;
    line_start_ = false;
    Token token = [&] {
        std::size_t begin = pos_;
        SourceLocation loc = here();
        if (at_end()) return make(TokenKind::EndOfFile, begin, loc);
        char c = peek();
        auto single = [&](TokenKind kind) {
            advance();
            return make(kind, begin, loc);
        };
        switch (c) {
            case '(': return single(TokenKind::LParen);
            case ')': return single(TokenKind::RParen);
            case '[': return single(TokenKind::LSquare);
            case ']': return single(TokenKind::RSquare);
            case '{': return single(TokenKind::LBrace);
            case '}': return single(TokenKind::RBrace);
            case '<': return single(TokenKind::Less);
            case '>': return single(TokenKind::Greater);
            case ',': return single(TokenKind::Comma);
            case ':': return single(TokenKind::Colon);
            case '=': return single(TokenKind::Equal);
            case '?': return single(TokenKind::Question);
            case '+': return single(TokenKind::Plus);
            case '*': return single(TokenKind::Star);
            case ';': return single(TokenKind::Semicolon);
            case '-':
                if (peek(1) == '>') {
                    advance(2);
                    return make(TokenKind::Arrow, begin, loc);
                }
                return single(TokenKind::Minus);
            case '"': return lex_string(begin, loc);
            case '%': return lex_prefixed_identifier(TokenKind::ValueId, begin, loc);
            case '^': return lex_prefixed_identifier(TokenKind::BlockLabel, begin, loc);
            case '@': return lex_prefixed_identifier(TokenKind::SymbolRef, begin, loc);
            case '#': return lex_prefixed_identifier(TokenKind::HashIdentifier, begin, loc);
            case '!': return lex_prefixed_identifier(TokenKind::BangIdentifier, begin, loc);
            default: break;
        }
        if (is_digit(c)) return lex_number(begin, loc);
        if (is_identifier_start(c)) return lex_bare_identifier(begin, loc);
        if (c == '.' && is_digit(peek(1))) {
            while (is_digit(peek()) || peek() == '.') advance();
            return error(codes::kBadNumber, loc, begin, "malformed number literal", "a digit before '.'",
                         "`" + std::string(source_.substr(begin, pos_ - begin)) + "`");
        }
        // Skip a whole UTF-8 sequence so one stray character gives one diagnostic.
        advance();
        while (!at_end() && (static_cast<unsigned char>(peek()) & 0xC0) == 0x80) advance();
        return error(codes::kUnexpectedCharacter, loc, begin, "unexpected character", "a token", printable(c));
    }();
    token.starts_line = starts_line;
    return token;
}

Token Lexer::lex_number(std::size_t begin, SourceLocation loc)
{
    if (peek() == '0' && peek(1) == 'x' && is_hex_digit(peek(2))) {
        advance(2);
        while (is_hex_digit(peek())) advance();
        return make(TokenKind::Integer, begin, loc);
    }
    while (is_digit(peek())) advance();
    if (peek() != '.') return make(TokenKind::Integer, begin, loc);
    advance();
    while (is_digit(peek())) advance();
    bool exponent = (peek() == 'e' || peek() == 'E') &&
                    (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))));
    if (exponent) {
        advance(2);
        while (is_digit(peek())) advance();
    }
    return make(TokenKind::Float, begin, loc);
}

bool Lexer::skip_string_contents(SourceLocation open_loc, bool report)
{
    bool valid = true;
    while (true) {
        if (at_end() || peek() == '\n') {
            if (report)
                sink_.error(codes::kUnterminatedString, open_loc, "unterminated string literal", "closing '\"'",
                            at_end() ? "end of input" : "end of line");
            return false;
        }
        char c = peek();
        if (c == '"') {
            advance();
            return valid;
        }
        if (c == '\\') {
            SourceLocation escape_loc = here();
            char e = peek(1);
            if (e == 'n' || e == 't' || e == '"' || e == '\\') {
                advance(2);
            } else if (is_hex_digit(e) && is_hex_digit(peek(2))) {
                advance(3);
            } else {
                if (report)
                    sink_.error(codes::kBadEscape, escape_loc, "invalid escape in string literal",
                                "\\n, \\t, \\\", \\\\ or two hex digits",
                                e == '\0' || e == '\n' ? std::string("end of line") : printable(e));
                valid = false;
                advance();
            }
            continue;
        }
        advance();
    }
}

Token Lexer::lex_string(std::size_t begin, SourceLocation loc)
{
    advance();  // opening quote
    bool valid = skip_string_contents(loc, /*report=*/true);
    return make(valid ? TokenKind::String : TokenKind::Error, begin, loc);
}

Token Lexer::lex_prefixed_identifier(TokenKind kind, std::size_t begin, SourceLocation loc)
{
    advance();  // sigil
    bool suffix_style = kind == TokenKind::ValueId || kind == TokenKind::BlockLabel;
    if (kind == TokenKind::SymbolRef && peek() == '"') {
        advance();
        if (!skip_string_contents(loc, /*report=*/true)) return make(TokenKind::Error, begin, loc);
        return make(kind, begin, loc);
    }
    std::size_t name_begin = pos_;
    if (suffix_style) {
        while (is_suffix_char(peek())) advance();
    } else if (is_identifier_start(peek())) {
        while (is_identifier_char(peek())) advance();
    }
    if (pos_ == name_begin) {
        return error(codes::kUnexpectedCharacter, loc, begin, "missing name after sigil", "a name after '" +
                     std::string(1, source_[begin]) + "'", at_end() ? "end of input" : printable(peek()));
    }
    // `%result#2` names one result of a multi-result operation.
    if (kind == TokenKind::ValueId && peek() == '#' && is_digit(peek(1))) {
        advance();
        while (is_digit(peek())) advance();
    }
    Token token = make(kind, begin, loc);
    if ((kind == TokenKind::HashIdentifier || kind == TokenKind::BangIdentifier) && peek() == '<')
        lex_angle_body(token, begin);
    return token;
}

Token Lexer::lex_bare_identifier(std::size_t begin, SourceLocation loc)
{
    while (is_identifier_char(peek())) advance();
    Token token = make(TokenKind::BareIdentifier, begin, loc);
    if (peek() == '<' && takes_angle_body(token.spelling)) lex_angle_body(token, begin);
    return token;
}

void Lexer::lex_angle_body(Token& token, std::size_t begin)
{
    SourceLocation open_loc = here();
    advance();  // '<'
    std::size_t body_begin = pos_;
    SourceLocation body_loc = here();
    int depth = 1;
    while (true) {
        if (at_end()) {
            sink_.error(codes::kUnbalancedBrackets, open_loc, "unbalanced '<' in " + std::string(token.spelling),
                        "matching '>'", "end of input");
            token.kind = TokenKind::Error;
            token.spelling = source_.substr(begin, pos_ - begin);
            return;
        }
        char c = peek();
        if (c == '"') {
            SourceLocation string_loc = here();
            advance();
            if (!skip_string_contents(string_loc, /*report=*/true)) {
                token.kind = TokenKind::Error;
                token.spelling = source_.substr(begin, pos_ - begin);
                return;
            }
            continue;
        }
        if (c == '-' && peek(1) == '>') {  // an arrow inside a function type is not a bracket
            advance(2);
            continue;
        }
        if (c == '<') ++depth;
        if (c == '>' && --depth == 0) break;
        advance();
    }
    token.body = source_.substr(body_begin, pos_ - body_begin);
    token.body_loc = body_loc;
    token.has_body = true;
    advance();  // '>'
    token.spelling = source_.substr(begin, pos_ - begin);
}

std::vector<Token> tokenize(std::string_view source, DiagnosticSink& sink)
{
    Lexer lexer(source, sink);
    std::vector<Token> tokens;
    do {
        tokens.push_back(lexer.next());
    } while (!tokens.back().is(TokenKind::EndOfFile));
    return tokens;
}

std::string unescape_string_literal(std::string_view spelling)
{
    std::string out;
    if (spelling.size() < 2) return out;
    std::string_view text = spelling.substr(1, spelling.size() - 2);
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c != '\\' || i + 1 >= text.size()) {
            out += c;
            continue;
        }
        char e = text[++i];
        switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            default:
                if (i + 1 < text.size() && is_hex_digit(e) && is_hex_digit(text[i + 1])) {
                    out += static_cast<char>(hex_value(e) * 16 + hex_value(text[i + 1]));
                    ++i;
                } else {
                    out += e;
                }
        }
    }
    return out;
}

std::string quote_string(std::string_view text)
{
    std::string out = "\"";
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (byte < 0x20 || byte == 0x7F) {
            char buf[4];
            std::snprintf(buf, sizeof buf, "\\%02X", byte);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

bool is_bare_identifier(std::string_view text)
{
    if (text.empty() || !is_identifier_start(text.front())) return false;
    for (char c : text)
        if (!is_identifier_char(c)) return false;
    return true;
}

}  // namespace pto::as
