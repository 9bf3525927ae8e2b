#include "asm/attribute.hpp"

#include <algorithm>
#include <cstring>

namespace pto::as {

namespace {

uint64_t bits_of(double d)
{
    uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    return bits;
}

bool same_types(const Type& a, const Type& b, bool exact) { return exact ? identical(a, b) : a == b; }

bool same(const Attribute& a, const Attribute& b, bool exact)
{
    using Kind = Attribute::Kind;
    if (a.kind() != b.kind()) return false;
    switch (a.kind()) {
        case Kind::Unit: return true;
        case Kind::Bool: return a.bool_value() == b.bool_value();
        case Kind::Integer:
            return a.int_value() == b.int_value() && same_types(a.type(), b.type(), exact) &&
                   (!exact || a.hex() == b.hex());
        case Kind::Float: {
            if (!same_types(a.type(), b.type(), exact)) return false;
            if (exact && a.float_bit_pattern().has_value() != b.float_bit_pattern().has_value()) return false;
            // Formats without an IEEE layout decode to 0, so bit patterns decide when both have one.
            if (a.float_bit_pattern() && b.float_bit_pattern()) return *a.float_bit_pattern() == *b.float_bit_pattern();
            return bits_of(a.float_value()) == bits_of(b.float_value());
        }
        case Kind::String:
        case Kind::Keyword:
        case Kind::Symbol: return a.text() == b.text();
        case Kind::Type: return same_types(a.type(), b.type(), exact);
        case Kind::Array: {
            const auto& x = a.elements();
            const auto& y = b.elements();
            if (x.size() != y.size()) return false;
            for (std::size_t i = 0; i < x.size(); ++i)
                if (!same(x[i], y[i], exact)) return false;
            return true;
        }
        case Kind::DenseArray: return same_types(a.type(), b.type(), exact) && a.dense_values() == b.dense_values();
        case Kind::Dictionary: return same_attributes(a.entries(), b.entries(), exact);
        case Kind::Dialect:
            return a.dialect_name() == b.dialect_name() && a.mnemonic() == b.mnemonic() && a.text() == b.text() &&
                   (!exact || a.dialect_form() == b.dialect_form());
    }
    return false;
}

const std::vector<NamedAttribute>& no_entries()
{
    static const std::vector<NamedAttribute> kEmpty;
    return kEmpty;
}

}  // namespace

Attribute Attribute::boolean(bool value)
{
    Attribute a;
    a.kind_ = Kind::Bool;
    a.bool_value_ = value;
    return a;
}

Attribute Attribute::integer(int64_t value, Type type, bool hex)
{
    Attribute a;
    a.kind_ = Kind::Integer;
    a.int_value_ = value;
    a.type_ = std::move(type);
    a.hex_ = hex;
    return a;
}

Attribute Attribute::floating(double value, Type type)
{
    Attribute a;
    a.kind_ = Kind::Float;
    a.float_value_ = value;
    a.type_ = std::move(type);
    return a;
}

Attribute Attribute::float_bits(uint64_t bits, double value, Type type)
{
    Attribute a = floating(value, std::move(type));
    a.float_bits_ = bits;
    return a;
}

Attribute Attribute::string(std::string value)
{
    Attribute a;
    a.kind_ = Kind::String;
    a.text_ = std::move(value);
    return a;
}

Attribute Attribute::keyword(std::string word)
{
    Attribute a;
    a.kind_ = Kind::Keyword;
    a.text_ = std::move(word);
    return a;
}

Attribute Attribute::type_attr(Type type)
{
    Attribute a;
    a.kind_ = Kind::Type;
    a.type_ = std::move(type);
    return a;
}

Attribute Attribute::symbol(std::string name)
{
    Attribute a;
    a.kind_ = Kind::Symbol;
    a.text_ = std::move(name);
    return a;
}

Attribute Attribute::array(std::vector<Attribute> elements)
{
    Attribute a;
    a.kind_ = Kind::Array;
    a.elements_ = std::move(elements);
    return a;
}

Attribute Attribute::dense_array(Type element, std::vector<int64_t> values)
{
    Attribute a;
    a.kind_ = Kind::DenseArray;
    a.type_ = std::move(element);
    a.dense_ = std::move(values);
    return a;
}

Attribute Attribute::dictionary(std::vector<NamedAttribute> entries)
{
    Attribute a;
    a.kind_ = Kind::Dictionary;
    a.entries_ = std::make_unique<std::vector<NamedAttribute>>(std::move(entries));
    return a;
}

Attribute Attribute::dialect(std::string dialect, std::string mnemonic, std::string body, DialectAttrForm form)
{
    Attribute a;
    a.kind_ = Kind::Dialect;
    a.dialect_ = std::move(dialect);
    a.mnemonic_ = std::move(mnemonic);
    a.text_ = std::move(body);
    a.form_ = form;
    return a;
}

const std::vector<NamedAttribute>& Attribute::entries() const { return entries_ ? *entries_ : no_entries(); }

std::string Attribute::enum_value() const
{
    if (kind_ == Kind::Dialect || kind_ == Kind::String || kind_ == Kind::Keyword) return text_;
    return {};
}

bool operator==(const Attribute& a, const Attribute& b) { return same(a, b, /*exact=*/false); }
bool identical(const Attribute& a, const Attribute& b) { return same(a, b, /*exact=*/true); }

Attribute::Attribute(const Attribute& other)
    : kind_(other.kind_),
      bool_value_(other.bool_value_),
      hex_(other.hex_),
      int_value_(other.int_value_),
      float_value_(other.float_value_),
      float_bits_(other.float_bits_),
      text_(other.text_),
      type_(other.type_),
      elements_(other.elements_),
      dense_(other.dense_),
      entries_(other.entries_ ? std::make_unique<std::vector<NamedAttribute>>(*other.entries_) : nullptr),
      dialect_(other.dialect_),
      mnemonic_(other.mnemonic_),
      form_(other.form_)
{
}

Attribute::Attribute(Attribute&&) noexcept = default;

Attribute& Attribute::operator=(const Attribute& other)
{
    if (this != &other) *this = Attribute(other);
    return *this;
}

Attribute& Attribute::operator=(Attribute&&) noexcept = default;
Attribute::~Attribute() = default;

const Attribute* find_attribute(const std::vector<NamedAttribute>& attributes, std::string_view name)
{
    for (const NamedAttribute& a : attributes)
        if (a.name == name) return &a.value;
    return nullptr;
}

bool same_attributes(const std::vector<NamedAttribute>& a, const std::vector<NamedAttribute>& b, bool exact)
{
    if (a.size() != b.size()) return false;
    for (const NamedAttribute& entry : a) {
        auto match = std::find_if(b.begin(), b.end(), [&](const NamedAttribute& other) {
            return other.name == entry.name && same(entry.value, other.value, exact);
        });
        if (match == b.end()) return false;
    }
    return true;
}

}  // namespace pto::as
