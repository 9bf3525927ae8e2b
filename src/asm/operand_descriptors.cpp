#include "asm/operand_descriptors.hpp"

#include <pto/engine/legality.hpp>

#include <cctype>
#include <string>
#include <string_view>
#include <utility>

namespace pto::as {

namespace {

// The tile rules (rules::tile_shape_ok) read an unknown valid extent as the C++ API's DYNAMIC.
static_assert(engine::kUnknownExtent == DYNAMIC);

int32_t extent_of(int64_t written) { return written == kDynamic ? engine::kUnknownExtent : int32_t(written); }

// A literal, or an operand defined by an integer arith.constant.
std::optional<int64_t> constant_of(const GroupEntry& entry)
{
    if (!entry.value) return entry.literal;
    const Attribute* value = constant_value(entry.value);
    if (!value || !value->is(Attribute::Kind::Integer)) return std::nullopt;
    return value->int_value();
}

}  // namespace

std::optional<engine::TileDesc> tile_descriptor(const Type& type)
{
    const TileType* t = type.dyn_cast<TileType>();
    const auto dtype = type.element_dtype();
    if (!t || !dtype) return std::nullopt;
    engine::TileDesc d;
    d.dtype = *dtype;
    d.loc = t->loc.value_or(pto::TileType::Vec);
    d.rows = int32_t(t->rows);
    d.cols = int32_t(t->cols);
    d.valid_rows = extent_of(t->valid_rows);
    d.valid_cols = extent_of(t->valid_cols);
    d.blayout = t->blayout.value_or(BLayout::RowMajor);
    d.slayout = t->slayout.value_or(SLayout::NoneBox);
    d.fractal_bytes = int32_t(t->fractal.value_or(TileConfig::fractalABSize));
    d.pad = t->pad.value_or(PadValue::Null);
    return d;
}

std::optional<engine::ConvTileDesc> conv_tile_descriptor(const Type& type)
{
    const auto* t = type.dyn_cast<ConvTileType>();
    const auto dtype = type.element_dtype();
    if (!t || !dtype || t->shape.empty() || t->shape.size() > std::size_t(engine::ConvTileDesc::kMaxDims)) return std::nullopt;
    engine::ConvTileDesc d;
    d.dtype = *dtype;
    d.loc = t->loc;
    d.layout = t->kind;
    d.dims = int(t->shape.size());
    for (int k = 0; k < d.dims; ++k) d.shape[k] = t->shape[std::size_t(k)];
    d.buffer_bytes = d.elements() * engine::dtype_bits(d.dtype) / 8;
    return d;
}

Layout view_layout(const Type& type)
{
    const auto* view = type.dyn_cast<TensorViewType>();
    if (!view) return Layout::ND;
    // The convolution layouts, by name: `#pto.layout<nc1hwc0>`.
    if (view->layout.find('<') != std::string::npos)
        if (const auto conv = conv_layout_from_name(view->layout)) return *conv;
    if (view->layout.find("dn") != std::string::npos || view->layout.find("DN") != std::string::npos) return Layout::DN;
    if (view->layout.find("nz") != std::string::npos || view->layout.find("NZ") != std::string::npos) return Layout::NZ;
    return Layout::ND;
}

std::optional<engine::GlobalDesc> view_descriptor(const Type& type)
{
    const auto* view = type.dyn_cast<TensorViewType>();
    const auto dtype = type.element_dtype();
    if (!view || !dtype || view->shape.size() > 5) return std::nullopt;
    engine::GlobalDesc g;
    g.dtype = *dtype;
    g.layout = view_layout(type);
    const std::size_t lead = 5 - view->shape.size();
    for (std::size_t k = 0; k < view->shape.size(); ++k) g.shape[lead + k] = extent_of(view->shape[k]);
    for (int64_t& stride : g.stride) stride = engine::kUnknownExtent;
    return g;
}

std::optional<engine::GlobalDesc> view_operand_descriptor(const Value* value, const Type& type)
{
    auto view = view_descriptor(type);
    const Operation* def = value ? value->defining_op : nullptr;
    while (view && def && def->name == "pto.partition_view" && !def->operands.empty()) {
        view->layout = view_layout(def->operand_type(0));
        def = def->operands[0]->defining_op;
    }
    if (!view || !def || def->name != "pto.make_tensor_view") return view;
    const std::vector<GroupEntry> strides = def->group("strides");
    if (strides.size() > 5) return view;
    const std::size_t lead = 5 - strides.size();
    for (std::size_t k = 0; k < strides.size(); ++k)
        if (const auto stride = constant_of(strides[k])) view->stride[lead + k] = *stride;
    return view;
}

}  // namespace pto::as
