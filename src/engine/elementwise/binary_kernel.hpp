// The kernel every element-wise binary tile-tile instruction runs: dst(r, c) = Op(src0(r, c), src1(r, c))
// over dst's valid region, for one element type T, chosen once per call by the caller. Op is a
// two-operand functor of operations.hpp; the kernel is ElementKernel's two-tile form, which also runs
// Op's check_sources before anything is written.
//
// Included by the .cpp of each instruction family, which instantiates it: no kernel lives in a
// public header.
#pragma once

#include <pto/engine/descriptor.hpp>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/element_kernel.hpp"

namespace pto::engine::elementwise {

template <typename Op, typename T>
struct BinaryKernel {
    static void run(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
    {
        ElementKernel<Op, T, 2>::run(dst, {Operand::tile(src0), Operand::tile(src1)});
    }
};

}  // namespace pto::engine::elementwise
