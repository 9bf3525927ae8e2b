// The engine descriptors a PTO-AS type describes, without storage: what the interpreter binds to memory
// and what the verifier checks the engine's operand rules against.
#pragma once

#include <optional>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

#include "asm/ir.hpp"
#include "asm/type.hpp"

namespace pto::as {

// A tile type's descriptor; a `?` valid extent is engine::kUnknownExtent. Empty when `type` is not a
// tile or its element type has no engine equivalent.
std::optional<engine::TileDesc> tile_descriptor(const Type& type);

// A convolution tile type's descriptor (no storage; buffer_bytes its dense size). Empty when `type` is not a
// `!pto.conv_tile_buf` or its element type has no engine equivalent.
std::optional<engine::ConvTileDesc> conv_tile_descriptor(const Type& type);

// The layout a tensor view type names (ND when it names none).
Layout view_layout(const Type& type);

// A tensor view type's descriptor: its static shape right-aligned in five dimensions (leading ones 1,
// `?` engine::kUnknownExtent), strides unknown (the type does not carry them). Empty when `type` is not a
// tensor view or its element type has no engine equivalent.
std::optional<engine::GlobalDesc> view_descriptor(const Type& type);

// The descriptor of a tensor view operand `value` of type `type`, with what the program states about it
// beyond its type: a partition keeps the layout and strides of the view it partitions, and the strides
// a pto.make_tensor_view gives as literals or index constants are known.
std::optional<engine::GlobalDesc> view_operand_descriptor(const Value* value, const Type& type);

}  // namespace pto::as
