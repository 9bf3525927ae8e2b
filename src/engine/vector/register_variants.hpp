// The kernels that move or combine whole registers (NORM loads and stores, the plain binary
// operations) are compiled three times: for the baseline, for AVX2 and for AVX-512 on x86, where a
// 256-byte register takes eight 32-byte or four 64-byte operations instead of sixteen. Resolving a
// kernel (load_kernel, store_kernel, binary_kernel) picks the variant the CPU runs, as the other SIMD
// kernels do through Highway, so the binary still runs on any x86-64.
#pragma once

#include <cstdint>
#include <cstring>

#include <hwy/targets.h>

#include <pto/engine/ops/vector.hpp>

#if defined(__x86_64__)
#define PTO_AVX2_VARIANT [[gnu::target("avx2")]]
// What Highway's AVX3 target requires of the CPU, so that the variant runs wherever that target does.
#define PTO_AVX512_VARIANT [[gnu::target("avx512f,avx512vl,avx512dq,avx512bw")]]
#else
#define PTO_AVX2_VARIANT
#define PTO_AVX512_VARIANT
#endif

namespace pto::engine::vector {

enum class RegisterVariant : uint8_t { Baseline, Avx2, Avx512 };

// The best variant the CPU runs (under hwy::SetSupportedTargetsForTest, the target it names). Highway
// numbers the better x86 targets with the lower bits.
inline RegisterVariant register_variant()
{
#if defined(__x86_64__)
    const int64_t targets = hwy::SupportedTargets();
    if (targets & ((HWY_AVX3 << 1) - 1)) return RegisterVariant::Avx512;
    if (targets & ((HWY_AVX2 << 1) - 1)) return RegisterVariant::Avx2;
#endif
    return RegisterVariant::Baseline;
}

// The kernel of the variant `variant` among the three compiled ones.
template <typename Kernel>
Kernel pick_variant(RegisterVariant variant, Kernel baseline, Kernel avx2, Kernel avx512)
{
    switch (variant) {
        case RegisterVariant::Avx512: return avx512;
        case RegisterVariant::Avx2: return avx2;
        case RegisterVariant::Baseline: break;
    }
    return baseline;
}

// A register's bytes in pieces of `Piece` bytes, which a variant moves in one instruction each (the
// compiler's own copy of 256 bytes keeps to 16-byte moves).
template <int Piece>
[[gnu::always_inline]] inline void copy_register_bytes(std::byte* dst, const std::byte* src)
{
    using Bytes [[gnu::vector_size(Piece)]] = char;
    for (int at = 0; at < kRegisterBytes; at += Piece) {
        Bytes piece;
        std::memcpy(&piece, src + at, sizeof piece);
        std::memcpy(dst + at, &piece, sizeof piece);
    }
}

}  // namespace pto::engine::vector
