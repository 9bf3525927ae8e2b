// The kernel of the element-wise tile-scalar instructions (TADDS, TDIVS, TMAXS, TSHLS, TLRELU, TEXPANDS,
// ...): dst(r, c) = Op(src(r, c), scalar), or Op(scalar, src(r, c)) for the scalar-first TDIVS, over
// dst's valid region. Op is a two-operand functor of operations.hpp.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/elementwise.hpp>

#include <cstdint>

#include "engine/elementwise/element_kernel.hpp"

namespace pto::engine::elementwise {

using engine::ScalarSide;

template <typename Op, typename T>
struct ScalarKernel {
    // `scalar_bits`: the scalar's bit pattern in T's encoding (storage_from_bits).
    static void run(const TileDesc& dst, const TileDesc& src, uint64_t scalar_bits, ScalarSide side)
    {
        const Operand tile = Operand::tile(src), scalar = Operand::scalar(scalar_bits);
        if (side == ScalarSide::Right) ElementKernel<Op, T, 2>::run(dst, {tile, scalar});
        else ElementKernel<Op, T, 2>::run(dst, {scalar, tile});
    }
};

}  // namespace pto::engine::elementwise
