#include "asm/instruction_binding.hpp"

#include <algorithm>
#include <cctype>

#include "asm/printer.hpp"
#include "asm/verifier.hpp"

namespace pto::as {

namespace {

using Kind = engine::OperandKind;

std::string_view kind_name(Kind k)
{
    switch (k) {
        case Kind::Tile: return "tile";
        case Kind::View: return "view";
        case Kind::Scalar: return "scalar";
        case Kind::TileOrScalar: return "tile or scalar";
        case Kind::ConvTile: return "convolution tile";
    }
    return "?";
}

std::string count_text(std::size_t low, std::size_t high)
{
    return std::to_string(low) + (low == high ? "" : ".." + std::to_string(high));
}

// "(src0: tile, src1: tile) -> (dst: tile)"
std::string form_text(const engine::Form& form)
{
    auto list = [](std::span<const engine::OperandSpec> specs) {
        std::string text;
        for (const engine::OperandSpec& s : specs)
            text += (text.empty() ? "" : ", ") + std::string(s.name) + (s.optional ? "?" : "") + ": " + std::string(kind_name(s.kind));
        return "(" + text + ")";
    };
    return list(form.sources) + " -> " + list(form.destinations);
}

bool fits(std::span<const Type> types, std::span<const engine::OperandSpec> specs)
{
    for (std::size_t i = 0; i < types.size(); ++i)
        if (!types[i].is_none() && !fits_operand_kind(types[i], specs[i].kind)) return false;
    return true;
}

std::optional<std::size_t> match_form(const engine::InstrDef& def, std::span<const Type> in, std::span<const Type> out)
{
    for (std::size_t f = 0; f < def.forms.size(); ++f) {
        const engine::Form& form = def.forms[f];
        const auto required = std::size_t(std::count_if(form.sources.begin(), form.sources.end(),
                                                        [](const engine::OperandSpec& s) { return !s.optional; }));
        if (out.size() != form.destinations.size() || in.size() < required || in.size() > form.sources.size()) continue;
        if (fits(in, form.sources) && fits(out, form.destinations)) return f;
    }
    return std::nullopt;
}

const Attribute* find_attribute(const Operation& op, const engine::AttributeSpec& spec)
{
    for (std::string_view key : spec.keys)
        if (const Attribute* a = op.attribute(key)) return a;
    return nullptr;
}

std::string spellings(const engine::AttributeSpec& spec)
{
    std::string text;
    for (const engine::AttributeValue& v : spec.values) text += (text.empty() ? "" : ", ") + std::string(v.spelling);
    return "one of " + text;
}

}  // namespace

std::string attribute_value_text(const Attribute& a)
{
    std::string v = a.enum_value();
    if (v.empty() && a.is(Attribute::Kind::Integer)) v = std::to_string(a.int_value());
    if (v.empty() && a.is(Attribute::Kind::Bool)) v = a.bool_value() ? "true" : "false";
    std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return v;
}

bool fits_operand_kind(const Type& t, engine::OperandKind k)
{
    switch (k) {
        case Kind::Tile: return t.is<TileType>();
        case Kind::View: return t.is<TensorViewType>() || t.is<PtrType>();
        case Kind::Scalar: return t.is_scalar();
        case Kind::TileOrScalar: return t.is<TileType>() || t.is_scalar();
        case Kind::ConvTile: return t.is<ConvTileType>();
    }
    return false;
}

std::optional<InstructionBinding> bind_instruction(const Operation& op, const OpInfo& info, std::span<const Type> in,
                                                   std::span<const Type> out, std::vector<BindingProblem>& problems)
{
    const engine::InstrDef& def = *info.instruction;
    const std::size_t problems_before = problems.size();
    if (in.size() < info.min_inputs || in.size() > info.max_inputs)
        problems.push_back({codes::kOperandCount, "wrong number of sources", count_text(info.min_inputs, info.max_inputs),
                            std::to_string(in.size())});
    if (out.size() < info.min_dests || out.size() > info.max_dests)
        problems.push_back({codes::kStructResultCount, "wrong number of destinations",
                            count_text(info.min_dests, info.max_dests), std::to_string(out.size())});
    if (problems.size() > problems_before) return std::nullopt;

    const auto form = match_form(def, in, out);
    if (!form) {
        std::string forms;
        for (const engine::Form& f : def.forms) forms += (forms.empty() ? "" : " or ") + form_text(f);
        std::string got;
        for (const auto* list : {&in, &out}) {
            std::string text;
            for (const Type& t : *list) text += (text.empty() ? "" : ", ") + to_string(t);
            got += (got.empty() ? "" : " -> ") + ("(" + text + ")");
        }
        problems.push_back({codes::kOperandKind, "the operands fit no form of " + std::string(def.mnemonic), forms, got});
        return std::nullopt;
    }

    InstructionBinding binding{*form, {}};
    for (std::size_t i = 0; i < def.attributes.size(); ++i) {
        const engine::AttributeSpec& spec = def.attributes[i];
        int32_t value = info.alias && info.alias->attribute == i ? info.alias->value : spec.default_value;
        if (const Attribute* a = find_attribute(op, spec)) {
            if (spec.values.empty()) {
                if (!a->is(Attribute::Kind::Integer) || a->int_value() < spec.min || a->int_value() > spec.max)
                    problems.push_back({codes::kAttributeValue, "attribute " + std::string(spec.keys[0]) + " is an integer in its range",
                                        "an integer from " + std::to_string(spec.min) + " to " + std::to_string(spec.max),
                                        a->is(Attribute::Kind::Integer) ? std::to_string(a->int_value()) : attribute_value_text(*a)});
                else
                    value = int32_t(a->int_value());
            } else {
                const std::string written = attribute_value_text(*a);
                const auto it = std::find_if(spec.values.begin(), spec.values.end(),
                                             [&](const engine::AttributeValue& v) { return v.spelling == written; });
                if (it == spec.values.end())
                    problems.push_back({codes::kAttributeValue, "attribute " + std::string(spec.keys[0]) + " has no such value",
                                        spellings(spec), written});
                else
                    value = it->value;
            }
        }
        binding.attributes.push_back(value);
    }
    const std::string_view required = def.forms[*form].required_attribute;
    if (!required.empty() && !op.attribute(required))
        problems.push_back({codes::kMissingAttribute, "this form of " + std::string(def.mnemonic) + " needs " + std::string(required),
                            std::string(required), "none"});
    if (problems.size() > problems_before) return std::nullopt;
    return binding;
}

}  // namespace pto::as
