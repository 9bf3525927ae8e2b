// The kernel of the three-operand element-wise instructions: dst(r, c) = Op(a, b, c) over dst's valid
// region, where each operand is a tile, a scalar, or dst's own old value (Operand::destination(): the
// read-modify-write instructions). Op is a three-operand functor of operations.hpp:
//   TADDC   AddC(src0, src1, src2)            TADDSC  AddC(src0, scalar, src1)
//   TSUBC   SubC(src0, src1, src2)            TSUBSC  SubC(src0, scalar, src1)
//   TMULADDDST    MulAdd(src0, src1, dst)     TFUSEDMULADD      MulAdd(src0, dst, src1)
//   TAXPY         MulAdd(src0, scalar, dst)   TFUSEDMULADDRELU  MulAddRelu(src0, dst, src1)
#pragma once

#include <pto/engine/descriptor.hpp>

#include "engine/elementwise/element_kernel.hpp"

namespace pto::engine::elementwise {

template <typename Op, typename T>
struct TernaryKernel {
    static void run(const TileDesc& dst, const Operand& a, const Operand& b, const Operand& c)
    {
        ElementKernel<Op, T, 3>::run(dst, {a, b, c});
    }
};

}  // namespace pto::engine::elementwise
