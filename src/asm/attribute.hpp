// Attributes: the constant data attached to operations (`{cmpMode = #pto.cmp<GT>, offset = 7 : i32}`).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "asm/type.hpp"

namespace pto::as {

struct NamedAttribute;

// How a dialect attribute was written. All three carry a dialect, a mnemonic and a body.
enum class DialectAttrForm : uint8_t {
    Dotted,  // #pto.cmp<GT>            dialect "pto", mnemonic "cmp", body "GT"
    Pretty,  // #pto<cmp GT>            same fields, MLIR's opaque spelling
    Short,   // <PIPE_V>                dialect and mnemonic implied by the operation
    Builtin, // dense<1.0>, strided<[?, 1]>: builtin keyword with a body; mnemonic only
};

class Attribute {
public:
    enum class Kind : uint8_t {
        Unit,        // `pto.entry` in a dictionary with no value
        Bool,        // true, false
        Integer,     // 7, -1, 0x10, optionally typed: `7 : i32`
        Float,       // 1.5, optionally typed; `0x7F800000 : f32` keeps the bit pattern
        String,      // "NORM"
        Keyword,     // a bare identifier such as `slt` or `PIPE_ALL`
        Type,        // f32, !pto.ptr<f32>
        Symbol,      // @callee
        Array,       // [a, b]
        DenseArray,  // array<i32: 3, 2>
        Dictionary,  // {a = 1, b}
        Dialect,     // #pto.mask_pattern<P0101>, #pto<cmp lt>, <PIPE_V>
    };

    Attribute() = default;  // unit
    static Attribute unit() { return {}; }
    static Attribute boolean(bool value);
    static Attribute integer(int64_t value, Type type = {}, bool hex = false);
    static Attribute floating(double value, Type type = {});
    static Attribute float_bits(uint64_t bits, double value, Type type);
    static Attribute string(std::string value);
    static Attribute keyword(std::string word);
    static Attribute type_attr(Type type);
    static Attribute symbol(std::string name);
    static Attribute array(std::vector<Attribute> elements);
    static Attribute dense_array(Type element, std::vector<int64_t> values);
    static Attribute dictionary(std::vector<NamedAttribute> entries);
    static Attribute dialect(std::string dialect, std::string mnemonic, std::string body,
                             DialectAttrForm form = DialectAttrForm::Dotted);

    Kind kind() const { return kind_; }
    bool is(Kind k) const { return kind_ == k; }

    bool bool_value() const { return bool_value_; }
    int64_t int_value() const { return int_value_; }
    bool hex() const { return hex_; }
    double float_value() const { return float_value_; }
    std::optional<uint64_t> float_bit_pattern() const { return float_bits_; }
    // String value, keyword, symbol name, or dialect body.
    const std::string& text() const { return text_; }
    const Type& type() const { return type_; }  // of Integer / Float / Type / DenseArray element
    const std::vector<Attribute>& elements() const { return elements_; }
    const std::vector<int64_t>& dense_values() const { return dense_; }
    const std::vector<NamedAttribute>& entries() const;
    const std::string& dialect_name() const { return dialect_; }
    const std::string& mnemonic() const { return mnemonic_; }
    DialectAttrForm dialect_form() const { return form_; }

    // The enumerator of an enum-like attribute: `GT` for #pto.cmp<GT>, #pto<cmp GT>, <GT>,
    // "GT" and the keyword GT alike; empty for anything else.
    std::string enum_value() const;

    // Semantic equality: dialect attributes match on dialect, mnemonic and body whatever their
    // form; integers match on value whatever their radix.
    friend bool operator==(const Attribute& a, const Attribute& b);
    // Also compares how the attribute was written.
    friend bool identical(const Attribute& a, const Attribute& b);

    Attribute(const Attribute&);
    Attribute(Attribute&&) noexcept;
    Attribute& operator=(const Attribute&);
    Attribute& operator=(Attribute&&) noexcept;
    ~Attribute();

private:
    Kind kind_ = Kind::Unit;
    bool bool_value_ = false;
    bool hex_ = false;
    int64_t int_value_ = 0;
    double float_value_ = 0;
    std::optional<uint64_t> float_bits_;
    std::string text_;
    Type type_;
    std::vector<Attribute> elements_;
    std::vector<int64_t> dense_;
    std::unique_ptr<std::vector<NamedAttribute>> entries_;  // indirect: NamedAttribute is incomplete here
    std::string dialect_;
    std::string mnemonic_;
    DialectAttrForm form_ = DialectAttrForm::Dotted;
};

struct NamedAttribute {
    std::string name;
    Attribute value;
};

// The entry named `name`, or null.
const Attribute* find_attribute(const std::vector<NamedAttribute>& attributes, std::string_view name);

// Order-insensitive comparison of two attribute dictionaries (MLIR dictionaries are unordered).
bool same_attributes(const std::vector<NamedAttribute>& a, const std::vector<NamedAttribute>& b, bool exact);

}  // namespace pto::as
