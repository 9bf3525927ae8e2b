// TCOLEXPAND: dst(i, j) = src(0, j) over dst's valid region, against a plain reference loop, through the
// C++ intrinsic and directly through the engine entry with hand-built descriptors.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/col_expand.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;
using engine::DType;
using engine::TileDesc;

namespace {

constexpr uint8_t kUntouched = 0xC3;

// A row-major tile in host memory, elements as raw bytes.
struct HostTile {
    TileDesc desc;
    std::vector<uint8_t> storage;

    HostTile(DType t, int rows, int cols, int valid_rows, int valid_cols)
        : storage(static_cast<std::size_t>(rows * cols * engine::dtype_bits(t) / 8), kUntouched)
    {
        desc.data = reinterpret_cast<std::byte*>(storage.data());
        desc.dtype = t;
        desc.rows = rows;
        desc.cols = cols;
        desc.valid_rows = valid_rows;
        desc.valid_cols = valid_cols;
    }
    int bytes() const { return engine::dtype_bits(desc.dtype) / 8; }
    const uint8_t* at(int r, int c) const { return storage.data() + (std::size_t(r) * desc.cols + c) * bytes(); }
};

constexpr DType kCpuTypes[] = {DType::I8,  DType::U8,   DType::I16,    DType::U16,    DType::I32,    DType::U32,
                               DType::F16, DType::BF16, DType::F32,    DType::F8E4M3, DType::F8E5M2, DType::F8E8M0,
                               DType::HiF8};

}  // namespace

TEST(TColExpandEngine, EveryDTypeAndValidRegionMatchesTheReference)
{
    std::mt19937 rng(321);
    for (const DType t : kCpuTypes) {
        for (int trial = 0; trial < 8; ++trial) {
            const int per_block = 32 / (engine::dtype_bits(t) / 8);
            const int cols = per_block * (1 + int(rng() % 4));
            HostTile dst(t, 1 + int(rng() % 16), cols, 0, 0);
            dst.desc.valid_rows = int(rng() % (dst.desc.rows + 1));
            dst.desc.valid_cols = 1 + int(rng() % cols);
            HostTile src(t, 1 + int(rng() % 4), per_block * (1 + int(rng() % 4)), 0, dst.desc.valid_cols);
            src.desc.cols = std::max(src.desc.cols, dst.desc.valid_cols);
            src.storage.assign(static_cast<std::size_t>(src.desc.rows * src.desc.cols * src.bytes()), 0);
            src.desc.data = reinterpret_cast<std::byte*>(src.storage.data());
            src.desc.valid_rows = 1 + int(rng() % src.desc.rows);
            for (auto& b : src.storage) b = uint8_t(rng() | 1u);
            engine::tcolexpand(dst.desc, src.desc);
            for (int r = 0; r < dst.desc.rows; ++r) {
                for (int c = 0; c < cols; ++c) {
                    const bool valid = r < dst.desc.valid_rows && c < dst.desc.valid_cols;
                    for (int b = 0; b < dst.bytes(); ++b) {
                        ASSERT_EQ(dst.at(r, c)[b], valid ? src.at(0, c)[b] : kUntouched)
                            << engine::dtype_name(t) << " at (" << r << ", " << c << ")";
                    }
                }
            }
        }
    }
}

TEST(TColExpand, DstMayBeSrcItself)
{
    HostTile t(DType::F32, 4, 8, 4, 8);
    for (int c = 0; c < 8; ++c) {
        const float v = float(c) - 2.5f;
        std::memcpy(t.storage.data() + c * 4, &v, 4);
    }
    engine::tcolexpand(t.desc, t.desc);
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 8; ++c) {
            float v;
            std::memcpy(&v, t.at(r, c), 4);
            EXPECT_EQ(v, float(c) - 2.5f);
        }
    }
}

namespace {

template <typename T>
class TColExpandIntrinsic : public ::testing::Test {
};

using IntrinsicTypes = ::testing::Types<float, half, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t,
                                        float8_e4m3_t, hifloat8_t>;
TYPED_TEST_SUITE(TColExpandIntrinsic, IntrinsicTypes);

template <typename T>
T value_from(uint32_t bits)
{
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

template <typename T>
uint32_t bits_of(T v)
{
    uint32_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
}

}  // namespace

TYPED_TEST(TColExpandIntrinsic, StaticAndDynamicValidShapes)
{
    using T = TypeParam;
    constexpr int kCols = 64;
    using SrcT = Tile<TileType::Vec, T, 2, kCols, BLayout::RowMajor, 1, DYNAMIC>;
    using DstT = Tile<TileType::Vec, T, 8, kCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
    using StaticT = Tile<TileType::Vec, T, 4, kCols>;
    std::mt19937 rng(8);
    for (const bool checked : {false, true}) {
        ScopedChecked mode(checked);
        for (int trial = 0; trial < 4; ++trial) {
            const unsigned rows = rng() % 9, cols = 1 + rng() % kCols;
            SrcT src(cols);
            DstT dst(rows, cols);
            std::vector<uint32_t> first(cols);
            for (unsigned c = 0; c < cols; ++c) {
                first[c] = (rng() | 1u) & (sizeof(T) == 4 ? 0x3FFFFFFFu : (1u << (8 * sizeof(T))) - 1);
                src.SetValue(c, value_from<T>(first[c]));
            }
            Event<Op::TLOAD, Op::TCOLEXPAND> ready;
            ready = RecordEvent{};
            TCOLEXPAND(dst, src, ready);
            for (unsigned r = 0; r < rows; ++r) {
                for (unsigned c = 0; c < cols; ++c) ASSERT_EQ(bits_of(dst.GetValue(r * kCols + c)), first[c]);
            }
        }
        StaticT a, b;
        for (int c = 0; c < kCols; ++c) a.SetValue(c, value_from<T>(uint32_t(c + 1)));
        TCOLEXPAND(b, a);
        for (int i = 0; i < 4 * kCols; ++i) ASSERT_EQ(bits_of(b.GetValue(i)), uint32_t(i % kCols + 1));
    }
}

TEST(TColExpandIntrinsic, OnlyTheFirstSourceRowMustBeWritten)
{
    ScopedChecked checked(true);
    using TileT = Tile<TileType::Vec, float, 16, 16>;
    TileT src, dst;
    for (int c = 0; c < 16; ++c) src.SetValue(c, float(c));
    EXPECT_EQ(diagnostic_of([&] { TCOLEXPAND(dst, src); }).code, "no error");
    TileT fresh, out;
    for (int c = 0; c < 16; ++c) {
        if (c != 9) fresh.SetValue(c, 1.0f);
    }
    const Diagnostic d = diagnostic_of([&] { TCOLEXPAND(out, fresh); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.instruction, "TCOLEXPAND");
    EXPECT_NE(d.message.find("(0, 9)"), std::string::npos) << d.message;
}

TEST(TColExpandIntrinsic, SeedPageExampleRunsUnchanged)
{
    // The page's example reads a never-written tile, which only fast mode allows.
    ScopedChecked fast(false);
    struct Example {
        static void example()
        {
            using TileT = Tile<TileType::Vec, float, 16, 16>;
            TileT src, dst;
            TCOLEXPAND(dst, src);
        }
    };
    EXPECT_NO_THROW(Example::example());
}

TEST(TColExpandIllegal, EachRuleReportsItsCode)
{
    const auto run = [](HostTile& dst, HostTile& src) {
        return diagnostic_of([&] { engine::tcolexpand(dst.desc, src.desc); });
    };
    {
        HostTile dst(DType::F32, 4, 8, 4, 8), src(DType::F32, 1, 8, 1, 8);
        EXPECT_EQ(run(dst, src).code, "no error");
        src.desc.valid_cols = 7;
        const Diagnostic d = run(dst, src);
        EXPECT_EQ(d.code, "LEGAL_TCOLEXPAND_SHAPE");
        EXPECT_NE(d.actual.find("1x7"), std::string::npos);
        src.desc.valid_cols = 8;
        src.desc.valid_rows = 0;
        EXPECT_EQ(run(dst, src).code, "LEGAL_TCOLEXPAND_SHAPE");
        dst.desc.valid_rows = 0;
        EXPECT_EQ(run(dst, src).code, "no error") << "an empty dst needs no source row";
    }
    {
        HostTile dst(DType::F32, 4, 8, 4, 8), src(DType::I32, 1, 8, 1, 8);
        const Diagnostic d = run(dst, src);
        EXPECT_EQ(d.code, "LEGAL_TCOLEXPAND_SAME_DTYPE");
        EXPECT_EQ(d.expected, "i32");
        EXPECT_EQ(d.actual, "f32");
    }
    {
        HostTile dst(DType::I64, 4, 8, 4, 8), src(DType::I64, 1, 8, 1, 8);
        EXPECT_EQ(run(dst, src).code, "LEGAL_TCOLEXPAND_DTYPE");
    }
    {
        HostTile dst(DType::F32, 4, 8, 4, 8), src(DType::F32, 1, 8, 1, 8);
        dst.desc.loc = TileType::Mat;
        EXPECT_EQ(run(dst, src).code, "LEGAL_TCOLEXPAND_LOCATION");
        dst.desc.loc = TileType::Vec;
        src.desc.blayout = BLayout::ColMajor;
        const Diagnostic d = run(dst, src);
        EXPECT_EQ(d.code, "LEGAL_TCOLEXPAND_LAYOUT");
        EXPECT_EQ(d.operand, "src");
    }
    {
        ScopedTarget a2a3(profile::Target::A2A3);
        HostTile dst(DType::BF16, 4, 16, 4, 16), src(DType::BF16, 1, 16, 1, 16);
        const Diagnostic d = run(dst, src);
        EXPECT_EQ(d.code, "LEGAL_TCOLEXPAND_DTYPE");
        EXPECT_NE(d.message.find("a2a3"), std::string::npos);
    }
    {
        ScopedTarget a5(profile::Target::A5);
        HostTile dst(DType::BF16, 4, 16, 4, 16), src(DType::BF16, 1, 16, 1, 16);
        EXPECT_EQ(run(dst, src).code, "no error");
    }
}

TEST(TColExpandRules, PredicatesPerProfile)
{
    using profile::kA2A3;
    using profile::kA5;
    using profile::kCpu;
    static_assert(rules::tcolexpand_dtype_ok(kA2A3, DType::I8) && !rules::tcolexpand_dtype_ok(kA2A3, DType::BF16));
    static_assert(rules::tcolexpand_dtype_ok(kA5, DType::F8E8M0) && !rules::tcolexpand_dtype_ok(kA5, DType::U64));
    static_assert(rules::tcolexpand_dtype_ok(kCpu, DType::HiF8) && !rules::tcolexpand_dtype_ok(kCpu, DType::I4));
    static_assert(rules::tcolexpand_shape_ok(5, 8, 1, 8) && !rules::tcolexpand_shape_ok(5, 8, 1, 9));
    static_assert(!rules::tcolexpand_shape_ok(5, 8, 0, 8) && rules::tcolexpand_shape_ok(0, 8, 0, 8));
    static_assert(rules::tcolexpand_same_dtype_ok(DType::F16, DType::F16) &&
                  !rules::tcolexpand_same_dtype_ok(DType::F16, DType::BF16));
    SUCCEED();
}
