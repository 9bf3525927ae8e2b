// The kernels that move or combine whole registers (NORM loads and stores, the plain binary
// operations) are compiled twice: for the baseline, and for AVX2 on x86, where a 256-byte register
// takes eight 32-byte operations instead of sixteen. Resolving a kernel (load_kernel, store_kernel,
// binary_kernel) picks the variant the CPU runs, as the other SIMD kernels do through Highway.
#pragma once

#include <cstring>

#include <hwy/targets.h>

#include <pto/engine/ops/vector.hpp>

#if defined(__x86_64__)
#define PTO_AVX2_VARIANT [[gnu::target("avx2")]]
#else
#define PTO_AVX2_VARIANT
#endif

namespace pto::engine::vector {

inline bool use_avx2_variant()
{
#if defined(__x86_64__)
    return (hwy::SupportedTargets() & HWY_AVX2) != 0;
#else
    return false;
#endif
}

// A register's bytes in 32-byte pieces, which the AVX2 variant moves in one instruction each (the
// compiler's own copy of 256 bytes keeps to 16-byte moves).
[[gnu::always_inline]] inline void copy_register_bytes(std::byte* dst, const std::byte* src)
{
    using Piece [[gnu::vector_size(32)]] = char;
    for (int at = 0; at < kRegisterBytes; at += int(sizeof(Piece))) {
        Piece piece;
        std::memcpy(&piece, src + at, sizeof piece);
        std::memcpy(dst + at, &piece, sizeof piece);
    }
}

}  // namespace pto::engine::vector
