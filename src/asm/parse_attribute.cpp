// Attributes: literals, arrays, dictionaries, dense arrays, symbols and dialect attributes
// (`#pto.cmp<GT>`, `#pto<cmp lt>`, `<PIPE_V>`).
#include <charconv>
#include <cmath>
#include <cstring>

#include "asm/parser_impl.hpp"

namespace pto::as::detail {

namespace {

unsigned float_width(FloatKind kind)
{
    switch (kind) {
        case FloatKind::F16:
        case FloatKind::BF16: return 16;
        case FloatKind::F32:
        case FloatKind::TF32: return 32;
        case FloatKind::F64: return 64;
        default: return 8;
    }
}

// Value of an IEEE-style bit pattern with the given field widths (NaN and infinity included).
double decode_ieee(uint64_t bits, int exponent_bits, int mantissa_bits, bool has_infinity)
{
    uint64_t mantissa = bits & ((uint64_t{1} << mantissa_bits) - 1);
    uint64_t exponent = (bits >> mantissa_bits) & ((uint64_t{1} << exponent_bits) - 1);
    bool negative = (bits >> (mantissa_bits + exponent_bits)) & 1;
    int bias = (1 << (exponent_bits - 1)) - 1;
    uint64_t all_ones = (uint64_t{1} << exponent_bits) - 1;
    double value;
    if (exponent == all_ones && has_infinity) {
        value = mantissa == 0 ? HUGE_VAL : std::nan("");
    } else if (exponent == all_ones && mantissa == (uint64_t{1} << mantissa_bits) - 1) {
        value = std::nan("");  // the FN formats keep only this pattern for NaN
    } else if (exponent == 0) {
        value = std::ldexp(static_cast<double>(mantissa), 1 - bias - mantissa_bits);
    } else {
        value = std::ldexp(static_cast<double>(mantissa | (uint64_t{1} << mantissa_bits)),
                           static_cast<int>(exponent) - bias - mantissa_bits);
    }
    return negative ? -value : value;
}

// The value a hex bit pattern denotes in `kind`; formats without an IEEE layout decode to 0 and
// are compared by their bit pattern.
double decode_float_bits(uint64_t bits, FloatKind kind)
{
    switch (kind) {
        case FloatKind::F32:
        case FloatKind::TF32: {
            uint32_t narrow = static_cast<uint32_t>(bits);
            float f;
            std::memcpy(&f, &narrow, sizeof f);
            return f;
        }
        case FloatKind::F64: {
            double d;
            std::memcpy(&d, &bits, sizeof d);
            return d;
        }
        case FloatKind::F16: return decode_ieee(bits, 5, 10, true);
        case FloatKind::BF16: return decode_ieee(bits, 8, 7, true);
        case FloatKind::F8E5M2: return decode_ieee(bits, 5, 2, true);
        case FloatKind::F8E4M3: return decode_ieee(bits, 4, 3, false);
        case FloatKind::F8E8M0: return bits == 0xFF ? std::nan("") : std::ldexp(1.0, static_cast<int>(bits) - 127);
        default: return 0;
    }
}

}  // namespace

bool Parser::starts_attribute(const Token& token) const
{
    return token.is(TokenKind::HashIdentifier) || token.is(TokenKind::String) || token.is(TokenKind::Less);
}

bool Parser::parse_attribute(Attribute& out, bool allow_typed)
{
    Nesting nesting(*this, tok().loc);
    if (!nesting) return false;
    const Token t = tok();
    switch (t.kind) {
        case TokenKind::BareIdentifier: {
            std::string_view word = t.name();
            if (t.has_body) {
                if (word == "array") {
                    take();
                    return parse_dense_array(t, out);
                }
                if (word == "dense" || word == "strided" || word == "affine_map" || word == "opaque" ||
                    word == "sparse" || word == "dense_resource") {
                    take();
                    out = Attribute::dialect("", std::string(word), std::string(trim(t.body)), DialectAttrForm::Builtin);
                    return true;
                }
                Type type;
                if (!parse_type(type)) return false;
                out = Attribute::type_attr(std::move(type));
                return true;
            }
            if (word == "true" || word == "false") {
                take();
                out = Attribute::boolean(word == "true");
                return true;
            }
            if (word == "unit") {
                take();
                out = Attribute::unit();
                return true;
            }
            if (scalar_type_from_name(word)) {
                Type type;
                if (!parse_type(type)) return false;
                out = Attribute::type_attr(std::move(type));
                return true;
            }
            take();
            out = Attribute::keyword(std::string(word));
            return true;
        }
        case TokenKind::Integer:
        case TokenKind::Float:
        case TokenKind::Minus: return parse_number_attribute(out, allow_typed);
        case TokenKind::String:
            take();
            out = Attribute::string(unescape_string_literal(t.spelling));
            return true;
        case TokenKind::LSquare: {
            take();
            std::vector<Attribute> elements;
            if (!accept(TokenKind::RSquare)) {
                while (true) {
                    elements.emplace_back();
                    if (!parse_attribute(elements.back())) return false;
                    if (accept(TokenKind::Comma)) continue;
                    if (!expect(TokenKind::RSquare, "',' or ']'")) return false;
                    break;
                }
            }
            out = Attribute::array(std::move(elements));
            return true;
        }
        case TokenKind::LBrace: {
            std::vector<NamedAttribute> entries;
            if (!parse_attribute_dict(entries)) return false;
            out = Attribute::dictionary(std::move(entries));
            return true;
        }
        case TokenKind::SymbolRef:
            out = Attribute::symbol(symbol_name(take()));
            return true;
        case TokenKind::HashIdentifier: {
            take();
            std::string name(t.name());
            if (!t.has_body) {
                auto alias = attribute_aliases_.find(name);
                if (alias == attribute_aliases_.end())
                    return error(codes::kUnknownAttribute, t.loc, "undefined attribute alias #" + name,
                                 "an attribute, or an alias defined before its use", t.describe());
                out = alias->second;
                return true;
            }
            std::string_view body = trim(t.body);
            if (name.back() == '.' || name.find("..") != std::string::npos)
                return error(codes::kUnknownAttribute, t.loc, "malformed attribute name " + t.describe(),
                             "#dialect.mnemonic<...> or #dialect<...>", t.describe());
            std::size_t dot = name.find('.');
            if (dot != std::string::npos) {
                out = Attribute::dialect(name.substr(0, dot), name.substr(dot + 1), std::string(body));
                return true;
            }
            // `#pto<cmp lt>`: the mnemonic leads the body.
            std::size_t space = body.find_first_of(" \t\n\r");
            std::string_view mnemonic = body.substr(0, space);
            std::string_view rest = space == std::string_view::npos ? std::string_view() : trim(body.substr(space));
            if (mnemonic.empty())
                return error(codes::kBadAttribute, t.body_loc, "empty dialect attribute", "a mnemonic", t.describe());
            out = Attribute::dialect(name, std::string(mnemonic), std::string(rest), DialectAttrForm::Pretty);
            return true;
        }
        case TokenKind::BangIdentifier: {
            Type type;
            if (!parse_type(type)) return false;
            out = Attribute::type_attr(std::move(type));
            return true;
        }
        case TokenKind::Less: {
            take();
            if (!at(TokenKind::BareIdentifier) && !at(TokenKind::Integer)) return unexpected("an enumerator such as PIPE_V");
            Token value = take();
            if (!expect(TokenKind::Greater, "'>'")) return false;
            out = Attribute::dialect("", "", std::string(value.spelling), DialectAttrForm::Short);
            return true;
        }
        default: return unexpected("an attribute value");
    }
}

bool Parser::parse_number_attribute(Attribute& out, bool allow_typed)
{
    bool negative = accept(TokenKind::Minus);
    if (!at(TokenKind::Integer) && !at(TokenKind::Float)) return unexpected("a number");
    Token number = take();
    const Token& glued = tok();
    if (glued.offset == number.end_offset() &&
        (glued.is(TokenKind::BareIdentifier) || glued.is(TokenKind::Integer) || glued.is(TokenKind::Float))) {
        std::string text = std::string(number.spelling) + std::string(glued.spelling);
        take();
        return error(codes::kBadNumber, number.loc, "malformed number literal", "a number", "`" + text + "`");
    }
    Type type;
    if (allow_typed && accept(TokenKind::Colon) && !parse_type(type)) return false;

    if (number.is(TokenKind::Float)) {
        double value = 0;
        auto [end, ec] = std::from_chars(number.spelling.data(), number.spelling.data() + number.spelling.size(), value);
        if (ec != std::errc() || end != number.spelling.data() + number.spelling.size() || !std::isfinite(value))
            return error(codes::kBadNumber, number.loc, "floating-point literal out of range", "a finite double",
                         number.describe());
        if (!type.is_none() && !type.is<FloatType>())
            return error(codes::kBadNumber, number.loc, "floating-point literal for a non-float type",
                         "a float type such as f32", number.describe());
        out = Attribute::floating(negative ? -value : value, std::move(type));
        return true;
    }

    uint64_t magnitude = 0;
    if (!parse_unsigned_literal(number.spelling, magnitude))
        return error(codes::kBadNumber, number.loc, "integer literal does not fit in 64 bits", "at most 64 bits",
                     number.describe());
    bool hex = number.spelling.size() > 2 && number.spelling[1] == 'x';
    if (const auto* f = type.dyn_cast<FloatType>()) {
        if (!hex || negative)
            return error(codes::kBadNumber, number.loc, "integer literal for a floating-point type",
                         "a float literal or a hex bit pattern", number.describe());
        unsigned width = float_width(f->kind);
        if (width < 64 && (magnitude >> width) != 0)
            return error(codes::kBadNumber, number.loc, "bit pattern wider than its type",
                         "at most " + std::to_string(width) + " bits", number.describe());
        out = Attribute::float_bits(magnitude, decode_float_bits(magnitude, f->kind), std::move(type));
        return true;
    }
    if (negative && magnitude > (uint64_t{1} << 63))
        return error(codes::kBadNumber, number.loc, "integer literal out of range", "a 64-bit integer",
                     "`-" + std::string(number.spelling) + "`");
    int64_t value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    out = Attribute::integer(value, std::move(type), hex);
    return true;
}

// array<i32: 3, 2>
bool Parser::parse_dense_array(const Token& token, Attribute& out)
{
    return parse_body(token, [&] {
        Type element;
        if (!parse_type(element)) return false;
        std::vector<int64_t> values;
        if (accept(TokenKind::Colon)) {
            do {
                int64_t v = 0;
                if (!parse_integer_literal(v)) return false;
                values.push_back(v);
            } while (accept(TokenKind::Comma));
        }
        out = Attribute::dense_array(std::move(element), std::move(values));
        return true;
    });
}

bool Parser::parse_attribute_name(std::string& out)
{
    if (at(TokenKind::BareIdentifier)) {
        out = std::string(take().spelling);
    } else if (at(TokenKind::String)) {
        out = unescape_string_literal(take().spelling);
    } else {
        return unexpected("an attribute name");
    }
    return true;
}

bool Parser::parse_attribute_dict(std::vector<NamedAttribute>& out)
{
    Nesting nesting(*this, tok().loc);
    if (!nesting) return false;
    if (!expect(TokenKind::LBrace, "'{'")) return false;
    if (accept(TokenKind::RBrace)) return true;
    while (true) {
        std::string name;
        SourceLocation loc = tok().loc;
        if (!parse_attribute_name(name)) return false;
        Attribute value;
        if (accept(TokenKind::Equal) && !parse_attribute(value)) return false;
        if (find_attribute(out, name))
            error(codes::kDuplicateAttribute, loc, "duplicate attribute " + name, "each name once",
                  "a second `" + name + "`");
        else
            out.push_back({std::move(name), std::move(value)});
        if (accept(TokenKind::Comma)) continue;
        return expect(TokenKind::RBrace, "',' or '}'");
    }
}

}  // namespace pto::as::detail
