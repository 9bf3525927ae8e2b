// TAXPY's widening form: an f16 source and scalar accumulated into an f32 dst. The product of two halves
// is exact in f32, so dst = scalar * src0 + dst rounds once, at the sum, fused or not.
#include <pto/common/numeric.hpp>
#include <pto/engine/access.hpp>

#include <cstring>

#include "engine/elementwise/instruction.hpp"
#include "engine/elementwise/operations.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine::elementwise {

void run_widening_axpy(const BinaryRules& rules, const TileDesc& dst, const TileDesc& src0_tile, ScalarBits scalar)
{
    const NamedTile sources[] = {{src0_tile, "src0"}};
    StopAtFirstFinding stop;
    check_elementwise_operands(runtime::active_profile(), rules, dst, sources, stop);
    require_written(src0_tile, "src0");
    require_written(dst, "dst");
    const TileDesc src0 = readable_source(src0_tile, dst, 0);
    half a;
    std::memcpy(&a, &scalar, sizeof(a));
    const float factor = float(a);
    float* out = reinterpret_cast<float*>(dst.data);
    const half* in = reinterpret_cast<const half*>(src0.data);
    for (int r = 0; r < dst.valid_rows; ++r)
        for (int c = 0; c < dst.valid_cols; ++c) {
            float& y = out[dst.offset(r, c)];
            y = MulAdd::apply(float(in[src0.offset(r, c)]), factor, y);
        }
    mark_written(dst);
}

}  // namespace pto::engine::elementwise
