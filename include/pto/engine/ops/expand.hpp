// Engine entry points of the broadcast instructions of the reduce-and-expand family: TROWEXPAND and the
// row- and column-broadcast binary instructions (TROWEXPANDADD ... TROWEXPANDEXPDIF, TCOLEXPANDADD ...
// TCOLEXPANDEXPDIF). Both front doors call them: each validates its operands against the active profile
// on its own, then runs the kernel once.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/legality.hpp>
#include <pto/profile/rules_expand.hpp>

namespace pto::profile {
struct Profile;
}

namespace pto::engine {

using rules::ExpandOp;

// Which dimension the broadcast operand is expanded along: Row gives one value (or one 32-byte block)
// per row, Col one value per column.
enum class ExpandAxis : uint8_t { Row, Col };

// The instruction's mnemonic, e.g. "TROWEXPANDSUB".
const char* broadcast_binary_name(ExpandAxis axis, ExpandOp op);

// dst(i, j) = op(src0(i, j), src1(i, j)) over dst's valid region, where one source (the full operand)
// has dst's valid shape and the other is broadcast: along rows, either source, its value (i, 0) from a
// column-major tile with one valid column, or its 32-byte block (i, j mod block) from a row-major tile;
// along columns, src1, its value (0, j). EXPDIF is exp(src0 - src1), the difference rounded to the
// element type first. `tmp` (row broadcasts of one value per row only) is accepted and never touched.
void broadcast_binary(ExpandAxis axis, ExpandOp op, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1,
                      const TileDesc* tmp = nullptr);

// The operand rules of a broadcast binary instruction on profile `p`, from the descriptors alone
// (kUnknownExtent valid extents skip the rules that read them); every broken rule goes to `sink`.
void check_broadcast_binary(const profile::Profile& p, ExpandAxis axis, ExpandOp op, const TileDesc& dst,
                            const TileDesc& src0, const TileDesc& src1, const TileDesc* tmp, LegalitySink& sink);

// TROWEXPAND: dst(i, j) = src(i, 0) over dst's valid region (bit patterns copied).
void trowexpand(const TileDesc& dst, const TileDesc& src);
void check_trowexpand(const profile::Profile& p, const TileDesc& dst, const TileDesc& src, LegalitySink& sink);

}  // namespace pto::engine
