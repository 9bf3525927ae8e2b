// What illegal_a2a3.cpp and illegal_a5.cpp store: 32 x 32 accumulators into tensors of the convolution
// layouts, and the quantizing stores only the cpu profile takes (of a Vec tile, i32 -> i16), each call a
// function of its own so that each broken rule is reported once.
#pragma once

#include <pto/pto-inst.hpp>

using namespace pto;

using Acc = TileAcc<float, 32, 32>;
using AccI = TileAcc<int32_t, 32, 32>;
using Table = Tile<TileType::Scaling, uint64_t, 1, 32>;
using VecF = Tile<TileType::Vec, float, 32, 32>;
template <typename T>
using Plain2D = GlobalTensor<T, Shape<1, 1, 1, 32, 32>, Stride<1024, 1024, 1024, 32, 1>>;

// TSTORE<AccT, G, atomic, relu>(g, acc), with a pre-quant scalar when `Quantized`.
template <typename G, typename AccT = Acc, AtomicType atomic = AtomicType::AtomicNone,
          ReluPreMode relu = ReluPreMode::NoRelu, bool Quantized = false>
void store()
{
    AccT acc;
    G g(nullptr);
    if constexpr (Quantized) TSTORE<AccT, G, atomic, relu>(g, acc, uint64_t{0x3F800000});
    else TSTORE<AccT, G, atomic, relu>(g, acc);
}

// TSTORE_FP<AccT, G, Table, AtomicNone, relu>(g, acc, fp).
template <typename G, typename AccT = Acc, ReluPreMode relu = ReluPreMode::NoRelu>
void store_fp()
{
    AccT acc;
    Table fp;
    G g(nullptr);
    TSTORE_FP<AccT, G, Table, AtomicType::AtomicNone, relu>(g, acc, fp);
}
