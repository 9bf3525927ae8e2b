// Kernels written as PTO Tile Lib kernels are: direction-tagged __gm__ parameters, static tiles at
// fixed UB offsets, flags between the load, vector and store pipes. out = (src0 + src1) * src1; and a
// window of a DN tensor of packed fp4 values loaded and stored back.
#include <pto/pto-inst.hpp>

#include "compat_cases.hpp"

using namespace pto;

template <typename T, int Rows, int Cols>
AICORE void runAddMul(__gm__ T __out__* out, __gm__ T __in__* src0, __gm__ T __in__* src1)
{
    using GlobalData = GlobalTensor<T, Shape<1, 1, 1, Rows, Cols>, Stride<1, 1, 1, Cols, 1>>;
    using TileData = Tile<TileType::Vec, T, Rows, Cols, BLayout::RowMajor, -1, -1>;
    TileData a(Rows, Cols), b(Rows, Cols), sum(Rows, Cols), dst(Rows, Cols);
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x8000);
    TASSIGN(sum, 0x10000);
    TASSIGN(dst, 0x18000);

    GlobalData src0Global(src0), src1Global(src1), dstGlobal(out);
    TLOAD(a, src0Global);
    TLOAD(b, src1Global);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TADD(sum, a, b);
    pipe_barrier(PIPE_V);
    TMUL(dst, sum, b);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(dstGlobal, dst);
}

template <typename T, int Rows, int Cols>
void LaunchAddMul(T* out, T* src0, T* src1, void* stream)
{
    (void)stream;
    if constexpr (std::is_same_v<T, aclFloat16>) {
        runAddMul<half, Rows, Cols>(reinterpret_cast<half*>(out), reinterpret_cast<half*>(src0),
                                    reinterpret_cast<half*>(src1));
    } else {
        runAddMul<T, Rows, Cols>(out, src0, src1);
    }
}

template void LaunchAddMul<float, 64, 64>(float*, float*, float*, void*);
template void LaunchAddMul<aclFloat16, 32, 128>(aclFloat16*, aclFloat16*, aclFloat16*, void*);
template void LaunchAddMul<int32_t, 32, 64>(int32_t*, int32_t*, int32_t*, void*);

template <typename T, int Rows, int Cols, int WholeRows>
AICORE void runStoreDn(__gm__ T __out__* out, __gm__ T __in__* src)
{
    using Window = Shape<1, 1, 1, Rows, Cols>;
    using Strides = pto::Stride<1, 1, 1, 1, WholeRows>;
    using GlobalData = GlobalTensor<T, Window, Strides, Layout::DN>;
    using TileData = Tile<TileType::Vec, T, 32, Cols, BLayout::ColMajor, -1, -1>;
    TileData tile(Rows, Cols);
    TASSIGN(tile, 0x0);
    GlobalData srcGlobal(src), dstGlobal(out);
    TLOAD(tile, srcGlobal);
    set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
    TSTORE(dstGlobal, tile);
}

void LaunchStoreFp4Window(float4_e2m1x2_t* out, float4_e2m1x2_t* src, void* stream)
{
    (void)stream;
    runStoreDn<float4_e2m1x2_t, compat::kFp4Window.rows, compat::kFp4Window.cols, compat::kFp4WholeRows>(out, src);
}
