// Test support for MSCATTER: the reference scatter (sequential, in row-major source order, combining in
// double precision and rounding once) on top of the MGATHER test support it shares.
#pragma once

#include "mgather/support.hpp"

#include <pto/common/numeric.hpp>
#include <pto/common/type.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

namespace mscatter_test {

using namespace mgather_test;

// What an out-of-range index does in the reference (Undefined runs as Clamp unchecked).
enum class ScatterPolicy { Clamp, Wrap, Skip };

inline ScatterPolicy scatter_policy_of(pto::ScatterOOB oob)
{
    return oob == pto::ScatterOOB::Wrap ? ScatterPolicy::Wrap
           : oob == pto::ScatterOOB::Skip ? ScatterPolicy::Skip
                                          : ScatterPolicy::Clamp;
}

inline int64_t reference_scatter_remap(uint32_t index, uint64_t extent, ScatterPolicy p)
{
    if (index < extent) return index;
    switch (p) {
        case ScatterPolicy::Clamp: return int64_t(extent - 1);
        case ScatterPolicy::Wrap: return int64_t(index % extent);
        case ScatterPolicy::Skip: return -1;
    }
    return -1;
}

// current (op) incoming for element type T, computed exactly (or in double) and rounded once.
template <typename T>
T reference_combine(pto::ScatterAtomicOp op, T current, T incoming)
{
    using pto::ScatterAtomicOp;
    if (op == ScatterAtomicOp::None) return incoming;
    if constexpr (std::is_integral_v<T>) {
        const int64_t a = current, b = incoming;
        switch (op) {
            case ScatterAtomicOp::Add: return static_cast<T>(uint64_t(a) + uint64_t(b));  // wraps modulo 2^bits
            case ScatterAtomicOp::Max: return static_cast<T>(a > b ? a : b);
            default: return static_cast<T>(a < b ? a : b);
        }
    } else {
        const double a = double(float(current)), b = double(float(incoming));
        switch (op) {
            case ScatterAtomicOp::Add: return T(a + b);
            case ScatterAtomicOp::Max: return T(std::isnan(a) ? b : std::isnan(b) ? a : (a > b ? a : b));
            default: return T(std::isnan(a) ? b : std::isnan(b) ? a : (a < b ? a : b));
        }
    }
}

// The reference scatter over a table of T: Row writes row `index` (row `stride3` elements apart, `rows`
// of them), Elem writes flat element `index` (`size` of them).
template <typename T>
void reference_scatter(std::vector<T>& table, bool row_mode, uint64_t rows, int64_t row_stride, uint64_t size,
                       pto::ScatterAtomicOp op, ScatterPolicy policy, int valid_rows, int valid_cols,
                       const std::function<uint32_t(int, int)>& index_at, const std::function<T(int, int)>& source)
{
    for (int r = 0; r < valid_rows; ++r) {
        for (int c = 0; c < valid_cols; ++c) {
            const int64_t e = reference_scatter_remap(index_at(r, row_mode ? 0 : c), row_mode ? rows : size, policy);
            if (e < 0) continue;
            T& slot = table[std::size_t(row_mode ? e * row_stride + c : e)];
            slot = reference_combine(op, slot, source(r, c));
        }
    }
}

// Bitwise equality of two tables (NaN payloads and signed zeros included).
template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace mscatter_test
