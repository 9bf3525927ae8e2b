// Element copies between the cube's tile layouts (pto.mte_l1_l0a, pto.mte_l1_l0b): each element's
// bits from its place in the source layout to its place in the destination's, transposed on request.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/cube.hpp>

#include "engine/tile_element.hpp"

namespace pto::engine::cube {

void copy_elements(const TileDesc& dst, const TileDesc& src, int rows, int cols, bool transpose)
{
    require_written(src, transpose ? cols : rows, transpose ? rows : cols, "src");
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            copy_element(dst.data, dst.offset(r, c), src.data, transpose ? src.offset(c, r) : src.offset(r, c), dst.element_bits());
    mark_written(dst, rows, cols);
}

}  // namespace pto::engine::cube
