// The kernel of the element-wise unary instructions (TABS, TNEG, TNOT, TRELU): dst(r, c) = Op(src(r, c))
// over dst's valid region. Op is a one-operand functor of operations.hpp.
#pragma once

#include <pto/engine/descriptor.hpp>

#include "engine/elementwise/element_kernel.hpp"

namespace pto::engine::elementwise {

template <typename Op, typename T>
struct UnaryKernel {
    static void run(const TileDesc& dst, const TileDesc& src) { ElementKernel<Op, T, 1>::run(dst, {Operand::tile(src)}); }
};

}  // namespace pto::engine::elementwise
