#include <gtest/gtest.h>

#include "asm/lexer.hpp"

namespace pto::as {
namespace {

struct Lexed {
    std::vector<Token> tokens;
    std::vector<Diagnostic> diagnostics;
};

Lexed lex(std::string_view text)
{
    DiagnosticSink sink("lex.pto");
    Lexed out;
    out.tokens = tokenize(text, sink);
    out.diagnostics = sink.take();
    return out;
}

std::vector<TokenKind> kinds(const Lexed& lexed)
{
    std::vector<TokenKind> k;
    for (const Token& t : lexed.tokens) k.push_back(t.kind);
    return k;
}

TEST(Lexer, PunctuationAndArrow)
{
    Lexed l = lex("( ) [ ] { } < > , : = -> ? - + * ;");
    using K = TokenKind;
    EXPECT_EQ(kinds(l), (std::vector<K>{K::LParen, K::RParen, K::LSquare, K::RSquare, K::LBrace, K::RBrace, K::Less,
                                        K::Greater, K::Comma, K::Colon, K::Equal, K::Arrow, K::Question, K::Minus,
                                        K::Plus, K::Star, K::Semicolon, K::EndOfFile}));
    EXPECT_TRUE(l.diagnostics.empty());
}

TEST(Lexer, IdentifiersKeepDotsAndUnderscores)
{
    Lexed l = lex("pto.tmatmul.acc pto.tmatmul_acc row_major x128xf32 $x");
    ASSERT_GE(l.tokens.size(), 4u);
    EXPECT_EQ(l.tokens[0].spelling, "pto.tmatmul.acc");
    EXPECT_EQ(l.tokens[1].spelling, "pto.tmatmul_acc");
    EXPECT_EQ(l.tokens[2].spelling, "row_major");
    EXPECT_EQ(l.tokens[3].spelling, "x128xf32");
    EXPECT_EQ(l.tokens[4].kind, TokenKind::Error);  // '$' cannot start an identifier
}

TEST(Lexer, SigilsAndNames)
{
    Lexed l = lex(R"(%arg0 %12 %res#1 %a-b @kernel @"quoted name" ^bb0 #map !alias)");
    ASSERT_EQ(l.tokens.size(), 10u);
    EXPECT_EQ(l.tokens[0].kind, TokenKind::ValueId);
    EXPECT_EQ(l.tokens[0].name(), "arg0");
    EXPECT_EQ(l.tokens[1].name(), "12");
    EXPECT_EQ(l.tokens[2].name(), "res#1");
    EXPECT_EQ(l.tokens[3].name(), "a-b");
    EXPECT_EQ(l.tokens[4].kind, TokenKind::SymbolRef);
    EXPECT_EQ(l.tokens[4].name(), "kernel");
    EXPECT_EQ(l.tokens[5].name(), "\"quoted name\"");
    EXPECT_EQ(l.tokens[6].kind, TokenKind::BlockLabel);
    EXPECT_EQ(l.tokens[6].name(), "bb0");
    EXPECT_EQ(l.tokens[7].kind, TokenKind::HashIdentifier);
    EXPECT_FALSE(l.tokens[7].has_body);
    EXPECT_EQ(l.tokens[8].kind, TokenKind::BangIdentifier);
    EXPECT_EQ(l.tokens[8].name(), "alias");
}

TEST(Lexer, GluedBodiesAreOneTokenEvenAcrossLines)
{
    Lexed l = lex("!pto.tile_buf<loc=vec,\n  dtype=f32> #pto.cmp<GT> #pto<cmp lt> memref<?xf32> !llvm.func<i32 (i8)->i32>");
    ASSERT_EQ(l.tokens.size(), 6u);
    EXPECT_TRUE(l.diagnostics.empty());
    const Token& tile = l.tokens[0];
    EXPECT_EQ(tile.kind, TokenKind::BangIdentifier);
    EXPECT_TRUE(tile.has_body);
    EXPECT_EQ(tile.name(), "pto.tile_buf");
    EXPECT_EQ(tile.body, "loc=vec,\n  dtype=f32");
    EXPECT_EQ(tile.body_loc, (SourceLocation{1, 15}));
    EXPECT_EQ(l.tokens[1].name(), "pto.cmp");
    EXPECT_EQ(l.tokens[1].body, "GT");
    EXPECT_EQ(l.tokens[2].name(), "pto");
    EXPECT_EQ(l.tokens[2].body, "cmp lt");
    EXPECT_EQ(l.tokens[3].kind, TokenKind::BareIdentifier);
    EXPECT_EQ(l.tokens[3].name(), "memref");
    EXPECT_EQ(l.tokens[3].body, "?xf32");
    EXPECT_EQ(l.tokens[4].body, "i32 (i8)->i32");  // the arrow does not close the body
}

TEST(Lexer, AngleAfterPlainIdentifierIsPunctuation)
{
    Lexed l = lex("vec<PIPE_V>");
    using K = TokenKind;
    EXPECT_EQ(kinds(l), (std::vector<K>{K::BareIdentifier, K::Less, K::BareIdentifier, K::Greater, K::EndOfFile}));
}

TEST(Lexer, Numbers)
{
    Lexed l = lex("0 42 0x7F800000 0xff 1.0 2.5e-3 0.000000e+00 1. 7E+2");
    ASSERT_EQ(l.tokens.size(), 13u);
    EXPECT_EQ(l.tokens[0].kind, TokenKind::Integer);
    EXPECT_EQ(l.tokens[2].spelling, "0x7F800000");
    EXPECT_EQ(l.tokens[3].spelling, "0xff");
    EXPECT_EQ(l.tokens[4].kind, TokenKind::Float);
    EXPECT_EQ(l.tokens[5].spelling, "2.5e-3");
    EXPECT_EQ(l.tokens[6].spelling, "0.000000e+00");
    EXPECT_EQ(l.tokens[7].spelling, "1.");
    // Without a '.', `7E+2` is an integer followed by an identifier, as in MLIR.
    EXPECT_EQ(l.tokens[8].kind, TokenKind::Integer);
    EXPECT_EQ(l.tokens[9].spelling, "E");
    EXPECT_EQ(l.tokens[10].kind, TokenKind::Plus);
}

TEST(Lexer, NegativeNumbersAreMinusThenLiteral)
{
    Lexed l = lex("-1 -0x10 -2.5");
    using K = TokenKind;
    EXPECT_EQ(kinds(l), (std::vector<K>{K::Minus, K::Integer, K::Minus, K::Integer, K::Minus, K::Float, K::EndOfFile}));
}

TEST(Lexer, ShapesSplitIntoIntegerAndIdentifier)
{
    Lexed l = lex("16x128xf32 ?x?xf16 0x16xf32");
    ASSERT_EQ(l.tokens.size(), 9u);
    EXPECT_EQ(l.tokens[0].spelling, "16");
    EXPECT_EQ(l.tokens[1].spelling, "x128xf32");
    EXPECT_EQ(l.tokens[2].kind, TokenKind::Question);
    EXPECT_EQ(l.tokens[3].spelling, "x");
    EXPECT_EQ(l.tokens[5].spelling, "xf16");
    EXPECT_EQ(l.tokens[6].spelling, "0x16");  // hex; the type parser splits it back
    EXPECT_EQ(l.tokens[7].spelling, "xf32");
}

TEST(Lexer, StringsAndEscapes)
{
    Lexed l = lex(R"("plain" "tab\tnew\nquote\"back\\hex\41")");
    ASSERT_EQ(l.tokens.size(), 3u);
    EXPECT_TRUE(l.diagnostics.empty());
    EXPECT_EQ(unescape_string_literal(l.tokens[0].spelling), "plain");
    EXPECT_EQ(unescape_string_literal(l.tokens[1].spelling), "tab\tnew\nquote\"back\\hexA");
}

TEST(Lexer, QuoteStringRoundTrips)
{
    std::string nasty = "a\"b\\c\nd\te\x01\x7f";
    std::string quoted = quote_string(nasty);
    Lexed l = lex(quoted);
    ASSERT_EQ(l.tokens[0].kind, TokenKind::String);
    EXPECT_EQ(unescape_string_literal(l.tokens[0].spelling), nasty);
}

TEST(Lexer, CommentsAndLineStarts)
{
    Lexed l = lex("// header\n  %a = x // trailing\n\t%b\n");
    ASSERT_EQ(l.tokens.size(), 5u);
    EXPECT_TRUE(l.tokens[0].starts_line);
    EXPECT_FALSE(l.tokens[1].starts_line);
    EXPECT_FALSE(l.tokens[2].starts_line);
    EXPECT_TRUE(l.tokens[3].starts_line);
    EXPECT_EQ(l.tokens[3].loc, (SourceLocation{3, 2}));
}

TEST(Lexer, ExactLocations)
{
    Lexed l = lex("module {\n  func.func @k() {\n    %c0 = arith.constant 0 : index\n");
    ASSERT_GE(l.tokens.size(), 12u);
    EXPECT_EQ(l.tokens[0].loc, (SourceLocation{1, 1}));
    EXPECT_EQ(l.tokens[1].loc, (SourceLocation{1, 8}));
    EXPECT_EQ(l.tokens[2].loc, (SourceLocation{2, 3}));
    EXPECT_EQ(l.tokens[3].loc, (SourceLocation{2, 13}));
    EXPECT_EQ(l.tokens[7].loc, (SourceLocation{3, 5}));   // %c0
    EXPECT_EQ(l.tokens[9].loc, (SourceLocation{3, 11}));  // arith.constant
    EXPECT_EQ(l.tokens[10].loc, (SourceLocation{3, 26})); // 0
}

TEST(Lexer, SubLexerKeepsOuterLocations)
{
    DiagnosticSink sink("lex.pto");
    Lexer lexer("f32, $", sink, {7, 20});
    Token t = lexer.next();
    EXPECT_EQ(t.loc, (SourceLocation{7, 20}));
    lexer.next();
    Token bad = lexer.next();
    EXPECT_EQ(bad.kind, TokenKind::Error);
    ASSERT_EQ(sink.count(), 1u);
    EXPECT_EQ(sink.diagnostics()[0].location, "lex.pto:7:25");
}

TEST(LexerErrors, UnterminatedString)
{
    Lexed l = lex("%s = \"no end\n%t");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].code, "PARSE_UNTERMINATED_STRING");
    EXPECT_EQ(l.diagnostics[0].location, "lex.pto:1:6");
    EXPECT_EQ(l.diagnostics[0].actual, "end of line");
    // Lexing resumes on the next line.
    EXPECT_EQ(l.tokens.back().kind, TokenKind::EndOfFile);
    EXPECT_EQ(l.tokens[l.tokens.size() - 2].spelling, "%t");
}

TEST(LexerErrors, UnterminatedStringAtEndOfInput)
{
    Lexed l = lex("\"abc");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].actual, "end of input");
}

TEST(LexerErrors, BadEscape)
{
    Lexed l = lex(R"(x "a\qb")");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].code, "PARSE_BAD_ESCAPE");
    EXPECT_EQ(l.diagnostics[0].location, "lex.pto:1:5");
    EXPECT_EQ(l.tokens[1].kind, TokenKind::Error);
}

TEST(LexerErrors, StrayCharactersIncludingUtf8)
{
    Lexed l = lex("a $ b \xE2\x80\x94 c");
    ASSERT_EQ(l.diagnostics.size(), 2u);  // one per character, not per byte
    EXPECT_EQ(l.diagnostics[0].code, "PARSE_UNEXPECTED_CHARACTER");
    EXPECT_EQ(l.diagnostics[0].location, "lex.pto:1:3");
    EXPECT_EQ(l.diagnostics[1].actual, "\\xE2");
    EXPECT_EQ(l.tokens.back().kind, TokenKind::EndOfFile);
    EXPECT_EQ(l.tokens[l.tokens.size() - 2].spelling, "c");
}

TEST(LexerErrors, UnbalancedAngleBody)
{
    Lexed l = lex("!pto.tile_buf<loc=vec, dtype=f32\n");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].code, "PARSE_UNBALANCED_BRACKETS");
    EXPECT_EQ(l.diagnostics[0].location, "lex.pto:1:14");
    EXPECT_EQ(l.tokens[0].kind, TokenKind::Error);
}

TEST(LexerErrors, MissingNameAfterSigil)
{
    Lexed l = lex("% @ ^");
    ASSERT_EQ(l.diagnostics.size(), 3u);
    for (const Diagnostic& d : l.diagnostics) EXPECT_EQ(d.code, "PARSE_UNEXPECTED_CHARACTER");
}

TEST(LexerErrors, LeadingDotNumber)
{
    Lexed l = lex(".5");
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].code, "PARSE_BAD_NUMBER");
}

TEST(LexerErrors, EveryInputTerminates)
{
    // Each byte value alone and after a sigil: the lexer must always reach the end.
    for (int b = 0; b < 256; ++b) {
        for (std::string prefix : {"", "%", "!", "#", "\"", "!x<", "0x"}) {
            std::string text = prefix + std::string(1, static_cast<char>(b));
            Lexed l = lex(text);
            ASSERT_FALSE(l.tokens.empty());
            EXPECT_EQ(l.tokens.back().kind, TokenKind::EndOfFile);
            EXPECT_LE(l.tokens.size(), text.size() + 1);
        }
    }
}

TEST(Lexer, BareIdentifierPredicate)
{
    EXPECT_TRUE(is_bare_identifier("pto.target_arch"));
    EXPECT_FALSE(is_bare_identifier("pto.device-spec"));
    EXPECT_FALSE(is_bare_identifier("9lives"));
    EXPECT_FALSE(is_bare_identifier(""));
}

}  // namespace
}  // namespace pto::as
