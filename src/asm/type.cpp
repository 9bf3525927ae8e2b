#include "asm/type.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace pto::as {

namespace {

bool same_element(const TypeRef& a, const TypeRef& b, bool exact)
{
    if (!a || !b) return !a && !b;
    return exact ? identical(*a, *b) : *a == *b;
}

bool same_tile(const TileType& a, const TileType& b, bool exact)
{
    if (a.buffer != b.buffer || a.loc != b.loc || !same_element(a.dtype, b.dtype, exact) || a.rows != b.rows ||
        a.cols != b.cols || a.valid_rows != b.valid_rows || a.valid_cols != b.valid_cols ||
        a.blayout != b.blayout || a.slayout != b.slayout || a.fractal != b.fractal || a.pad != b.pad ||
        a.compact.value_or(pto::CompactMode::Null) != b.compact.value_or(pto::CompactMode::Null))
        return false;
    if (!exact) return true;
    const TileSpelling& x = a.spelling;
    const TileSpelling& y = b.spelling;
    return x.form == y.form && x.camel_case == y.camel_case && x.pad_numeric == y.pad_numeric &&
           x.valid_written == y.valid_written && x.valid_combined == y.valid_combined && x.dynamic == y.dynamic &&
           x.positional_count == y.positional_count && x.address_space == y.address_space &&
           x.compact_numeric == y.compact_numeric && a.compact.has_value() == b.compact.has_value();
}

bool same_storage(const Type::Storage& a, const Type::Storage& b, bool exact)
{
    if (a.index() != b.index()) return false;
    return std::visit(
        [&](const auto& x) -> bool {
            using T = std::decay_t<decltype(x)>;
            const T& y = std::get<T>(b);
            if constexpr (std::is_same_v<T, std::monostate>) {
                return true;
            } else if constexpr (std::is_same_v<T, PtrType>) {
                return same_element(x.element, y.element, exact) && x.space == y.space &&
                       (!exact || x.space_spelling == y.space_spelling);
            } else if constexpr (std::is_same_v<T, TensorViewType>) {
                return x.partition == y.partition && x.shape == y.shape &&
                       same_element(x.element, y.element, exact) && x.layout == y.layout;
            } else if constexpr (std::is_same_v<T, TileType>) {
                return same_tile(x, y, exact);
            } else if constexpr (std::is_same_v<T, ConvTileType>) {
                return x.loc == y.loc && x.shape == y.shape && same_element(x.element, y.element, exact) && x.kind == y.kind &&
                       (!exact || (x.layout == y.layout && x.loc_camel_case == y.loc_camel_case));
            } else if constexpr (std::is_same_v<T, VRegType>) {
                return x.lanes == y.lanes && same_element(x.element, y.element, exact);
            } else if constexpr (std::is_same_v<T, MaskType>) {
                return x.lane_bytes == y.lane_bytes && (!exact || x.spelling == y.spelling);
            } else if constexpr (std::is_same_v<T, OpaqueType>) {
                return x.dialect == y.dialect && x.name == y.name && x.body == y.body;
            } else {
                return x == y;
            }
        },
        a);
}

struct FloatName {
    std::string_view name;
    FloatKind kind;
};

// Every accepted spelling; the first one of each kind is canonical.
constexpr std::array<FloatName, 19> kFloatNames = {{
    {"f16", FloatKind::F16},
    {"bf16", FloatKind::BF16},
    {"f32", FloatKind::F32},
    {"f64", FloatKind::F64},
    {"tf32", FloatKind::TF32},
    {"f8e4m3", FloatKind::F8E4M3},
    {"f8E4M3FN", FloatKind::F8E4M3},
    {"f8E4M3", FloatKind::F8E4M3},
    {"f8e5m2", FloatKind::F8E5M2},
    {"f8E5M2", FloatKind::F8E5M2},
    {"f8e8m0", FloatKind::F8E8M0},
    {"f8E8M0FNU", FloatKind::F8E8M0},
    {"!pto.f8e8m0", FloatKind::F8E8M0},
    {"hif8", FloatKind::HiF8},
    {"!pto.hif8", FloatKind::HiF8},
    {"f4e2m1x2", FloatKind::F4E2M1x2},
    {"!pto.f4e2m1x2", FloatKind::F4E2M1x2},
    {"f4e1m2x2", FloatKind::F4E1M2x2},
    {"!pto.f4e1m2x2", FloatKind::F4E1M2x2},
}};

struct SpaceName {
    std::string_view name;
    AddressSpace space;
};

constexpr std::array<SpaceName, 15> kSpaceNames = {{
    {"gm", AddressSpace::GM},          {"ub", AddressSpace::VEC},     {"vec", AddressSpace::VEC},
    {"l1", AddressSpace::MAT},         {"mat", AddressSpace::MAT},    {"l0a", AddressSpace::LEFT},
    {"left", AddressSpace::LEFT},      {"l0b", AddressSpace::RIGHT},  {"right", AddressSpace::RIGHT},
    {"l0c", AddressSpace::ACC},        {"acc", AddressSpace::ACC},    {"bt", AddressSpace::BIAS},
    {"bias", AddressSpace::BIAS},      {"fb", AddressSpace::SCALING}, {"scaling", AddressSpace::SCALING},
}};

struct LocName {
    std::string_view snake;
    std::string_view camel;
    pto::TileType loc;
};

constexpr std::array<LocName, 10> kLocNames = {{
    {"vec", "Vec", pto::TileType::Vec},
    {"mat", "Mat", pto::TileType::Mat},
    {"left", "Left", pto::TileType::Left},
    {"right", "Right", pto::TileType::Right},
    {"acc", "Acc", pto::TileType::Acc},
    {"bias", "Bias", pto::TileType::Bias},
    {"scaling", "Scaling", pto::TileType::Scaling},
    {"scale_left", "ScaleLeft", pto::TileType::ScaleLeft},
    {"scale_right", "ScaleRight", pto::TileType::ScaleRight},
    {"ctrl", "Ctrl", pto::TileType::Ctrl},
}};

std::optional<unsigned> parse_width(std::string_view digits)
{
    unsigned width = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), width);
    if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty() || digits[0] == '0')
        return std::nullopt;
    if (width < 1 || width > 128) return std::nullopt;
    return width;
}

}  // namespace

bool operator==(const Type& a, const Type& b) { return same_storage(a.storage_, b.storage_, /*exact=*/false); }

bool identical(const Type& a, const Type& b)
{
    return same_storage(a.storage_, b.storage_, /*exact=*/true) && a.spelling_ == b.spelling_ && a.alias_ == b.alias_;
}

std::optional<engine::DType> Type::element_dtype() const
{
    using engine::DType;
    if (const auto* i = dyn_cast<IntegerType>()) {
        bool is_unsigned = i->signedness == Signedness::Unsigned;
        switch (i->width) {
            case 4: return is_unsigned ? std::nullopt : std::optional(DType::I4);
            case 8: return is_unsigned ? DType::U8 : DType::I8;
            case 16: return is_unsigned ? DType::U16 : DType::I16;
            case 32: return is_unsigned ? DType::U32 : DType::I32;
            case 64: return is_unsigned ? DType::U64 : DType::I64;
            default: return std::nullopt;
        }
    }
    if (const auto* f = dyn_cast<FloatType>()) {
        switch (f->kind) {
            case FloatKind::F16: return DType::F16;
            case FloatKind::BF16: return DType::BF16;
            case FloatKind::F32: return DType::F32;
            case FloatKind::F8E4M3: return DType::F8E4M3;
            case FloatKind::F8E5M2: return DType::F8E5M2;
            case FloatKind::F8E8M0: return DType::F8E8M0;
            case FloatKind::HiF8: return DType::HiF8;
            case FloatKind::F4E2M1x2: return DType::F4E2M1x2;
            case FloatKind::F4E1M2x2: return DType::F4E1M2x2;
            case FloatKind::F64:
            case FloatKind::TF32: return std::nullopt;
        }
    }
    const TypeRef* element = nullptr;
    if (const auto* p = dyn_cast<PtrType>()) element = &p->element;
    if (const auto* v = dyn_cast<TensorViewType>()) element = &v->element;
    if (const auto* t = dyn_cast<TileType>()) element = &t->dtype;
    if (const auto* c = dyn_cast<ConvTileType>()) element = &c->element;
    if (const auto* r = dyn_cast<VRegType>()) element = &r->element;
    if (element && *element) return (*element)->element_dtype();
    return std::nullopt;
}

std::string scalar_type_name(const Type& scalar)
{
    if (scalar.is<IndexType>()) return "index";
    if (const auto* i = scalar.dyn_cast<IntegerType>()) {
        const char* prefix = i->signedness == Signedness::Signed ? "si" : i->signedness == Signedness::Unsigned ? "ui" : "i";
        return prefix + std::to_string(i->width);
    }
    if (const auto* f = scalar.dyn_cast<FloatType>()) return std::string(float_kind_name(f->kind));
    return {};
}

std::string_view float_kind_name(FloatKind kind)
{
    for (const FloatName& f : kFloatNames)
        if (f.kind == kind) return f.name;
    return "f32";
}

std::string_view address_space_name(AddressSpace space)
{
    switch (space) {
        case AddressSpace::GM: return "gm";
        case AddressSpace::VEC: return "ub";
        case AddressSpace::MAT: return "l1";
        case AddressSpace::LEFT: return "l0a";
        case AddressSpace::RIGHT: return "l0b";
        case AddressSpace::ACC: return "l0c";
        case AddressSpace::BIAS: return "bt";
        case AddressSpace::SCALING: return "fb";
    }
    return "gm";
}

std::string_view tile_loc_name(pto::TileType loc, bool camel_case)
{
    for (const LocName& l : kLocNames)
        if (l.loc == loc) return camel_case ? l.camel : l.snake;
    return "vec";
}

std::string_view blayout_name(pto::BLayout layout, bool camel_case)
{
    if (layout == pto::BLayout::ColMajor) return camel_case ? "ColMajor" : "col_major";
    return camel_case ? "RowMajor" : "row_major";
}

std::string_view slayout_name(pto::SLayout layout, bool camel_case)
{
    switch (layout) {
        case pto::SLayout::RowMajor: return camel_case ? "RowMajor" : "row_major";
        case pto::SLayout::ColMajor: return camel_case ? "ColMajor" : "col_major";
        case pto::SLayout::NoneBox: break;
    }
    return camel_case ? "NoneBox" : "none_box";
}

std::string pad_name(pto::PadValue pad, bool numeric, bool camel_case)
{
    int index = 0;
    switch (pad) {
        case pto::PadValue::Zero: index = 1; break;
        case pto::PadValue::Max: index = 2; break;
        case pto::PadValue::Min: index = 3; break;
        default: index = 0; break;
    }
    if (numeric) return std::to_string(index);
    static constexpr std::array<std::string_view, 4> kSnake = {"null", "zero", "max", "min"};
    static constexpr std::array<std::string_view, 4> kCamel = {"Null", "Zero", "Max", "Min"};
    return std::string(camel_case ? kCamel[index] : kSnake[index]);
}

std::optional<Type> scalar_type_from_name(std::string_view name)
{
    if (name == "none") return Type();
    if (name == "index") return Type::index();
    for (const FloatName& f : kFloatNames)
        if (f.name == name) return Type::float_type(f.kind);
    struct Prefix {
        std::string_view text;
        Signedness signedness;
    };
    // Longest prefixes first: `si8` must not match as `s` + ..., `ui8` not as `u` + `i8`.
    static constexpr std::array<Prefix, 4> kPrefixes = {{
        {"si", Signedness::Signed},
        {"ui", Signedness::Unsigned},
        {"i", Signedness::Signless},
        {"u", Signedness::Unsigned},
    }};
    for (const Prefix& p : kPrefixes) {
        if (name.substr(0, p.text.size()) != p.text) continue;
        if (auto width = parse_width(name.substr(p.text.size()))) return Type::integer(*width, p.signedness);
        return std::nullopt;
    }
    return std::nullopt;
}

std::optional<AddressSpace> address_space_from_name(std::string_view name)
{
    for (const SpaceName& s : kSpaceNames)
        if (s.name == name) return s.space;
    return std::nullopt;
}

std::optional<pto::TileType> tile_loc_from_name(std::string_view name)
{
    for (const LocName& l : kLocNames)
        if (l.snake == name || l.camel == name) return l.loc;
    return std::nullopt;
}

std::optional<pto::BLayout> blayout_from_name(std::string_view name)
{
    if (name == "row_major" || name == "RowMajor") return pto::BLayout::RowMajor;
    if (name == "col_major" || name == "ColMajor") return pto::BLayout::ColMajor;
    return std::nullopt;
}

std::optional<pto::SLayout> slayout_from_name(std::string_view name)
{
    if (name == "none_box" || name == "NoneBox") return pto::SLayout::NoneBox;
    if (name == "row_major" || name == "RowMajor") return pto::SLayout::RowMajor;
    if (name == "col_major" || name == "ColMajor") return pto::SLayout::ColMajor;
    return std::nullopt;
}

std::optional<pto::PadValue> pad_from_name(std::string_view name)
{
    if (name == "0" || name == "null" || name == "Null") return pto::PadValue::Null;
    if (name == "1" || name == "zero" || name == "Zero") return pto::PadValue::Zero;
    if (name == "2" || name == "max" || name == "Max") return pto::PadValue::Max;
    if (name == "3" || name == "min" || name == "Min") return pto::PadValue::Min;
    return std::nullopt;
}

std::optional<pto::Layout> conv_layout_from_name(std::string_view name)
{
    static constexpr std::pair<std::string_view, pto::Layout> kConvLayouts[] = {
        {"nc1hwc0", pto::Layout::NC1HWC0},     {"ndc1hwc0", pto::Layout::NDC1HWC0},
        {"nhwc", pto::Layout::NHWC},           {"nchw", pto::Layout::NCHW},
        {"ncdhw", pto::Layout::NCDHW},         {"gnc1hwc0", pto::Layout::GNC1HWC0},
        {"gnchw", pto::Layout::GNCHW},         {"fractal_z", pto::Layout::FRACTAL_Z},
        {"fractal_z_s16s8", pto::Layout::FRACTAL_Z_S16S8}, {"fractal_z_3d", pto::Layout::FRACTAL_Z_3D}};
    const std::size_t open = name.rfind('<'), close = name.find('>', open);
    if (open != std::string_view::npos && close != std::string_view::npos) name = name.substr(open + 1, close - open - 1);
    std::string lower(name);
    for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (const auto& [spelling, layout] : kConvLayouts)
        if (lower == spelling) return layout;
    return std::nullopt;
}

bool is_camel_case_keyword(std::string_view name) { return !name.empty() && name[0] >= 'A' && name[0] <= 'Z'; }

}  // namespace pto::as
