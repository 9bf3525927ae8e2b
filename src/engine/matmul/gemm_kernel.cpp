// The matrix kernels: a register-blocked micro-kernel (kRows rows of c by two vectors of columns held in
// registers while k runs), the order of every element's sum fixed (k ascending), so that blocking and
// vector width never change a result.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/matmul/gemm_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>

#include "engine/matmul/gemm_kernel.hpp"
#include "engine/simd/multiply_add-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::matmul {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using ::pto::engine::HWY_NAMESPACE::multiply_add;

constexpr int kRows = 6;

// One step of an element's sum: fused for floats, wrapping for int32.
template <class D>
HWY_INLINE hn::Vec<D> step(D d, hn::Vec<D> a, hn::Vec<D> b, hn::Vec<D> c)
{
    if constexpr (std::is_same_v<hn::TFromD<D>, float>) {
        return multiply_add(d, a, b, c);
    } else {
        return hn::Add(hn::Mul(a, b), c);
    }
}

template <typename T>
T scalar_step(T a, T b, T c)
{
    if constexpr (std::is_same_v<T, float>) {
        return std::fma(a, b, c);
    } else {
        return static_cast<T>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b) + static_cast<uint32_t>(c));
    }
}

// Rows [i0, i0 + R) by two vectors of columns (b0, b1: their rows of b at kk = 0; init0/1, c0/1: at row
// i0): the accumulators stay in registers for all of k, which a walks in its chunks.
template <int R, class D, typename T>
HWY_INLINE void block(D d, int k, const Panel<const T>& a, int i0, const T* b0, const T* b1, int ldb,
                      const T* init0, const T* init1, int ld_init, T* c0, T* c1, int ldc)
{
    hn::Vec<D> acc0[R], acc1[R];
    for (int r = 0; r < R; ++r) {
        acc0[r] = init0 ? hn::LoadU(d, init0 + r * ld_init) : hn::Zero(d);
        acc1[r] = init1 ? hn::LoadU(d, init1 + r * ld_init) : hn::Zero(d);
    }
    const T* a_chunk = a.data + int64_t(i0) * a.ld;
    for (int k0 = 0; k0 < k; k0 += a.chunk, a_chunk += a.chunk_step) {
        const int steps = std::min(a.chunk, k - k0);
        for (int kk = 0; kk < steps; ++kk) {
            const int64_t row = int64_t(k0 + kk) * ldb;
            const auto bv0 = hn::LoadU(d, b0 + row), bv1 = hn::LoadU(d, b1 + row);
            for (int r = 0; r < R; ++r) {
                const auto ar = hn::Set(d, a_chunk[r * a.ld + kk]);
                acc0[r] = step(d, ar, bv0, acc0[r]);
                acc1[r] = step(d, ar, bv1, acc1[r]);
            }
        }
    }
    for (int r = 0; r < R; ++r) {
        hn::StoreU(acc0[r], d, c0 + r * ldc);
        hn::StoreU(acc1[r], d, c1 + r * ldc);
    }
}

template <class D, typename T>
HWY_INLINE void block_of(int rows, D d, int k, const Panel<const T>& a, int i0, const T* b0, const T* b1, int ldb,
                         const T* init0, const T* init1, int ld_init, T* c0, T* c1, int ldc)
{
    switch (rows) {
        case 6: return block<6>(d, k, a, i0, b0, b1, ldb, init0, init1, ld_init, c0, c1, ldc);
        case 5: return block<5>(d, k, a, i0, b0, b1, ldb, init0, init1, ld_init, c0, c1, ldc);
        case 4: return block<4>(d, k, a, i0, b0, b1, ldb, init0, init1, ld_init, c0, c1, ldc);
        case 3: return block<3>(d, k, a, i0, b0, b1, ldb, init0, init1, ld_init, c0, c1, ldc);
        case 2: return block<2>(d, k, a, i0, b0, b1, ldb, init0, init1, ld_init, c0, c1, ldc);
        default: return block<1>(d, k, a, i0, b0, b1, ldb, init0, init1, ld_init, c0, c1, ldc);
    }
}

template <typename T>
HWY_INLINE void gemm(int m, int n, int k, const Panel<const T>& a, const Panel<const T>& b, const Panel<const T>& init,
                     const Panel<T>& c)
{
    // At most 16 lanes, so that a vector never straddles a chunk of 16 columns.
    const hn::CappedTag<T, 16> d;
    const int lanes = static_cast<int>(hn::Lanes(d));
    int j = 0;
    // Column panels outermost: the k x width panel of b stays in L1 while every row block passes.
    for (; j + 2 * lanes <= n; j += 2 * lanes) {
        const T* b0 = b.at(0, j);
        const T* b1 = b.at(0, j + lanes);
        for (int i = 0; i < m; i += kRows) {
            const T* init0 = init.data ? init.at(i, j) : nullptr;
            const T* init1 = init.data ? init.at(i, j + lanes) : nullptr;
            block_of(std::min(kRows, m - i), d, k, a, i, b0, b1, b.ld, init0, init1, init.ld, c.at(i, j),
                     c.at(i, j + lanes), c.ld);
        }
    }
    for (int i = 0; i < m; ++i)
        for (int jj = j; jj < n; ++jj) {
            T sum = init.data ? *init.at(i, jj) : T(0);
            for (int kk = 0; kk < k; ++kk) sum = scalar_step(*a.at(i, kk), *b.at(kk, jj), sum);
            *c.at(i, jj) = sum;
        }
}

void GemmF32(int m, int n, int k, Panel<const float> a, Panel<const float> b, Panel<const float> init, Panel<float> c)
{
    gemm(m, n, k, a, b, init, c);
}

void GemmI32(int m, int n, int k, Panel<const int32_t> a, Panel<const int32_t> b, Panel<const int32_t> init,
             Panel<int32_t> c)
{
    gemm(m, n, k, a, b, init, c);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::matmul
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::matmul {

HWY_EXPORT(GemmF32);
HWY_EXPORT(GemmI32);

void gemm_f32(int m, int n, int k, Panel<const float> a, Panel<const float> b, Panel<const float> init,
              Panel<float> c)
{
    HWY_DYNAMIC_DISPATCH(GemmF32)(m, n, k, a, b, init, c);
}

void gemm_i32(int m, int n, int k, Panel<const int32_t> a, Panel<const int32_t> b, Panel<const int32_t> init,
              Panel<int32_t> c)
{
    HWY_DYNAMIC_DISPATCH(GemmI32)(m, n, k, a, b, init, c);
}

}  // namespace pto::engine::matmul
#endif
