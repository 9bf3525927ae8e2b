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

// Rows [i0, i0 + R) by two vectors of columns from j0: the accumulators stay in registers for all of k.
template <int R, class D, typename T>
HWY_INLINE void block(D d, int k, const T* a, int lda, const T* b, int ldb, T* c, int ldc)
{
    const size_t lanes = hn::Lanes(d);
    hn::Vec<D> acc0[R], acc1[R];
    for (int r = 0; r < R; ++r) {
        acc0[r] = hn::LoadU(d, c + r * ldc);
        acc1[r] = hn::LoadU(d, c + r * ldc + lanes);
    }
    for (int kk = 0; kk < k; ++kk) {
        const auto b0 = hn::LoadU(d, b + kk * ldb), b1 = hn::LoadU(d, b + kk * ldb + lanes);
        for (int r = 0; r < R; ++r) {
            const auto ar = hn::Set(d, a[r * lda + kk]);
            acc0[r] = step(d, ar, b0, acc0[r]);
            acc1[r] = step(d, ar, b1, acc1[r]);
        }
    }
    for (int r = 0; r < R; ++r) {
        hn::StoreU(acc0[r], d, c + r * ldc);
        hn::StoreU(acc1[r], d, c + r * ldc + lanes);
    }
}

template <class D, typename T>
HWY_INLINE void block_of(int rows, D d, int k, const T* a, int lda, const T* b, int ldb, T* c, int ldc)
{
    switch (rows) {
        case 6: return block<6>(d, k, a, lda, b, ldb, c, ldc);
        case 5: return block<5>(d, k, a, lda, b, ldb, c, ldc);
        case 4: return block<4>(d, k, a, lda, b, ldb, c, ldc);
        case 3: return block<3>(d, k, a, lda, b, ldb, c, ldc);
        case 2: return block<2>(d, k, a, lda, b, ldb, c, ldc);
        default: return block<1>(d, k, a, lda, b, ldb, c, ldc);
    }
}

template <typename T>
HWY_INLINE void gemm(int m, int n, int k, const T* a, int lda, const T* b, int ldb, T* c, int ldc)
{
    const hn::ScalableTag<T> d;
    const int width = 2 * static_cast<int>(hn::Lanes(d));
    int j = 0;
    // Column panels outermost: the k x width panel of b stays in L1 while every row block passes.
    for (; j + width <= n; j += width)
        for (int i = 0; i < m; i += kRows)
            block_of(std::min(kRows, m - i), d, k, a + i * lda, lda, b + j, ldb, c + i * ldc + j, ldc);
    for (int i = 0; i < m; ++i)
        for (int jj = j; jj < n; ++jj) {
            T sum = c[i * ldc + jj];
            for (int kk = 0; kk < k; ++kk) sum = scalar_step(a[i * lda + kk], b[kk * ldb + jj], sum);
            c[i * ldc + jj] = sum;
        }
}

void GemmF32(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc)
{
    gemm(m, n, k, a, lda, b, ldb, c, ldc);
}

void GemmI32(int m, int n, int k, const int32_t* a, int lda, const int32_t* b, int ldb, int32_t* c, int ldc)
{
    gemm(m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::matmul
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::matmul {

HWY_EXPORT(GemmF32);
HWY_EXPORT(GemmI32);

void gemm_f32(int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c, int ldc)
{
    HWY_DYNAMIC_DISPATCH(GemmF32)(m, n, k, a, lda, b, ldb, c, ldc);
}

void gemm_i32(int m, int n, int k, const int32_t* a, int lda, const int32_t* b, int ldb, int32_t* c, int ldc)
{
    HWY_DYNAMIC_DISPATCH(GemmI32)(m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace pto::engine::matmul
#endif
