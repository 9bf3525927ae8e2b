// Test support for MGATHER: hand-built descriptors over host buffers, random
// data, and the reference gather — a plain loop over logical positions written from the page's
// formulas, not from the engine's code.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype.hpp>
#include <pto/profile/profile.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace mgather_test {

using pto::engine::DType;
using pto::engine::GlobalDesc;
using pto::engine::TileDesc;
using pto::profile::Target;

using pto::test::for_each_constant;
using pto::test::ScopedChecked;
using pto::test::ScopedTarget;

// A host buffer registered as a global allocation, as aclrtMalloc registers device memory.
class RegisteredGlobal {
public:
    RegisteredGlobal(void* base, std::size_t bytes) : base_(base) { pto::runtime::register_global(base, bytes, "test"); }
    ~RegisteredGlobal() { pto::runtime::unregister_global(base_); }
    RegisteredGlobal(const RegisteredGlobal&) = delete;
    RegisteredGlobal& operator=(const RegisteredGlobal&) = delete;

private:
    void* base_;
};

// Runs fn, expecting a SimError with `code` whose formatted text contains every one of `mentions`.
inline void expect_diagnostic(const std::function<void()>& fn, const std::string& code,
                              std::initializer_list<std::string> mentions = {})
{
    try {
        fn();
        ADD_FAILURE() << "expected " << code << ", nothing was reported";
    } catch (const pto::SimError& e) {
        EXPECT_EQ(e.diagnostic().code, code) << e.what();
        for (const auto& m : mentions) EXPECT_NE(std::string(e.what()).find(m), std::string::npos) << e.what();
    }
}

// --- random data ------------------------------------------------------------------------------------

inline std::mt19937& rng()
{
    static std::mt19937 engine(20240611u);
    return engine;
}

inline int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng()); }

// Random non-zero words of `bytes` bytes each, so a moved zero is never mistaken for a gathered value.
inline std::vector<uint8_t> random_bytes(std::size_t elements, int bytes)
{
    std::vector<uint8_t> v(elements * bytes);
    for (std::size_t i = 0; i < elements; ++i) {
        do {
            for (int b = 0; b < bytes; ++b) v[i * bytes + b] = uint8_t(uniform(0, 255));
        } while (std::all_of(v.begin() + i * bytes, v.begin() + (i + 1) * bytes, [](uint8_t x) { return x == 0; }));
    }
    return v;
}

// --- descriptors over host buffers --------------------------------------------------------------------

struct TileShape {
    int rows, cols, valid_rows, valid_cols;
    pto::BLayout blayout = pto::BLayout::RowMajor;
    bool nz = false;  // col-major boxes of row-major 512-byte fractals
};

inline TileDesc tile_desc(void* data, DType dtype, const TileShape& s, pto::TileType loc = pto::TileType::Vec)
{
    TileDesc d;
    d.data = static_cast<std::byte*>(data);
    d.dtype = dtype;
    d.loc = loc;
    d.rows = s.rows;
    d.cols = s.cols;
    d.valid_rows = s.valid_rows;
    d.valid_cols = s.valid_cols;
    d.blayout = s.nz ? pto::BLayout::ColMajor : s.blayout;
    d.slayout = s.nz ? pto::SLayout::RowMajor : pto::SLayout::NoneBox;
    return d;
}

inline GlobalDesc global_desc(void* data, DType dtype, pto::Layout layout, const int64_t (&shape)[5],
                              const int64_t (&stride)[5])
{
    GlobalDesc g;
    g.data = static_cast<std::byte*>(data);
    g.dtype = dtype;
    g.layout = layout;
    for (int d = 0; d < 5; ++d) {
        g.shape[d] = shape[d];
        g.stride[d] = stride[d];
    }
    return g;
}

// Storage offset of (r, c), from the layouts' definitions: row-major, col-major, or NZ — fractal column
// block c / C0 holds Rows x C0 elements, row r of it at r * C0.
inline int64_t reference_tile_offset(const TileShape& s, int bytes, int64_t r, int64_t c)
{
    if (s.nz) {
        const int64_t c0 = 32 / bytes;
        return (c / c0) * s.rows * c0 + r * c0 + c % c0;
    }
    return s.blayout == pto::BLayout::RowMajor ? r * s.cols + c : c * s.rows + r;
}

// Element offset of logical (row, col) of an NZ table Shape<B, BlockCols, BlockRows, 16, C0>: column
// block col / C0 is batch block / BlockCols, block block % BlockCols of it.
inline int64_t reference_nz_table_offset(const GlobalDesc& g, int64_t row, int64_t col)
{
    const int64_t c0 = g.shape[4], block = col / c0;
    return (block / g.shape[1]) * g.stride[0] + (block % g.shape[1]) * g.stride[1] + (row / 16) * g.stride[2] +
           (row % 16) * g.stride[3] + (col % c0) * g.stride[4];
}

// --- the reference gather -----------------------------------------------------------------------------

enum class Policy { Clamp, Wrap, Zero };  // what an out-of-range index does (Undefined runs as Clamp)

inline Policy policy_of(pto::GatherOOB oob)
{
    return oob == pto::GatherOOB::Wrap ? Policy::Wrap : oob == pto::GatherOOB::Zero ? Policy::Zero : Policy::Clamp;
}

// The table's index extent and the element an index selects, per the MGATHER page.
struct ReferenceTable {
    const GlobalDesc& g;
    int bytes;
    bool a5;  // A5 counts Shape[3] rows in Row mode; other profiles fold the outer dimensions in

    uint64_t logical_cols() const
    {
        return g.layout == pto::Layout::NZ ? uint64_t(g.shape[0] * g.shape[1] * g.shape[4]) : uint64_t(g.shape[4]);
    }
    uint64_t rows() const
    {
        if (g.layout == pto::Layout::NZ) return uint64_t(g.shape[2] * 16);
        return a5 ? uint64_t(g.shape[3]) : uint64_t(g.shape[0] * g.shape[1] * g.shape[2] * g.shape[3]);
    }
    uint64_t size() const { return uint64_t(g.shape[0] * g.shape[1] * g.shape[2] * g.shape[3] * g.shape[4]); }
    int64_t row_element(uint64_t row, int64_t col) const
    {
        return g.layout == pto::Layout::NZ ? reference_nz_table_offset(g, int64_t(row), col) : int64_t(row) * g.stride[3] + col;
    }
    int64_t flat_element(uint64_t i) const
    {
        if (g.layout != pto::Layout::NZ) return int64_t(i);
        return reference_nz_table_offset(g, int64_t(i / logical_cols()), int64_t(i % logical_cols()));
    }
};

// Remapped index, or nothing (-1) for a zero-filled position.
inline int64_t reference_remap(uint32_t index, uint64_t extent, Policy p)
{
    if (index < extent) return index;
    switch (p) {
        case Policy::Clamp: return int64_t(extent - 1);
        case Policy::Wrap: return int64_t(index % extent);
        case Policy::Zero: return -1;
    }
    return -1;
}

// Expected bytes of dst[r][c] over the valid region, row-major, `bytes` per element.
inline std::vector<uint8_t> reference_gather(const ReferenceTable& t, bool row_mode, Policy p, int valid_rows,
                                             int valid_cols, const std::function<uint32_t(int, int)>& index_at)
{
    std::vector<uint8_t> out(std::size_t(valid_rows) * valid_cols * t.bytes, 0);
    const auto* table = reinterpret_cast<const uint8_t*>(t.g.data);
    for (int r = 0; r < valid_rows; ++r) {
        for (int c = 0; c < valid_cols; ++c) {
            const int64_t e = reference_remap(index_at(r, row_mode ? 0 : c), row_mode ? t.rows() : t.size(), p);
            if (e < 0) continue;
            const int64_t element = row_mode ? t.row_element(uint64_t(e), c) : t.flat_element(uint64_t(e));
            std::memcpy(&out[(std::size_t(r) * valid_cols + c) * t.bytes], table + element * t.bytes, t.bytes);
        }
    }
    return out;
}

// The valid region of a tile's storage, row-major, as reference_gather lays it out.
inline std::vector<uint8_t> valid_region(const void* storage, const TileShape& s, int bytes)
{
    std::vector<uint8_t> out(std::size_t(s.valid_rows) * s.valid_cols * bytes);
    const auto* base = static_cast<const uint8_t*>(storage);
    for (int r = 0; r < s.valid_rows; ++r) {
        for (int c = 0; c < s.valid_cols; ++c) {
            std::memcpy(&out[(std::size_t(r) * s.valid_cols + c) * bytes],
                        base + reference_tile_offset(s, bytes, r, c) * bytes, bytes);
        }
    }
    return out;
}

}  // namespace mgather_test
