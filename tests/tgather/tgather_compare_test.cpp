// TGATHER, comparison form: the indices of the elements of each row that are greater than (GT) or
// equal to (EQ) the row's threshold, and their count, against a plain reference loop in double
// precision, through the C++ intrinsic and directly through the engine entry.
#include <pto/pto-inst.hpp>
#include <pto/intrinsics/gather.hpp>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace pto;
using namespace pto::test;
using engine::DType;
using engine::TileDesc;

namespace {

// A tile in host memory; values are stored and read through double.
struct HostTile {
    TileDesc desc;
    std::vector<uint32_t> storage;

    HostTile(DType t, int rows, int cols, int valid_rows, int valid_cols, BLayout b = BLayout::RowMajor)
        : storage(static_cast<std::size_t>(rows * cols), 0xDEADBEEFu)
    {
        desc.data = reinterpret_cast<std::byte*>(storage.data());
        desc.dtype = t;
        desc.rows = rows;
        desc.cols = cols;
        desc.valid_rows = valid_rows;
        desc.valid_cols = valid_cols;
        desc.blayout = b;
    }
    std::byte* at(int r, int c) const { return desc.data + desc.offset(r, c) * engine::dtype_bits(desc.dtype) / 8; }
    double get(int r, int c) const
    {
        switch (desc.dtype) {
            case DType::F32: {
                float v;
                std::memcpy(&v, at(r, c), 4);
                return v;
            }
            case DType::F16: {
                half v;
                std::memcpy(&v, at(r, c), 2);
                return float(v);
            }
            case DType::I16: {
                int16_t v;
                std::memcpy(&v, at(r, c), 2);
                return v;
            }
            case DType::U16: {
                uint16_t v;
                std::memcpy(&v, at(r, c), 2);
                return v;
            }
            case DType::I32: {
                int32_t v;
                std::memcpy(&v, at(r, c), 4);
                return v;
            }
            default: {
                uint32_t v;
                std::memcpy(&v, at(r, c), 4);
                return v;
            }
        }
    }
    void set(int r, int c, double x)
    {
        switch (desc.dtype) {
            case DType::F32: {
                const float v = float(x);
                std::memcpy(at(r, c), &v, 4);
                break;
            }
            case DType::F16: {
                const half v{static_cast<float>(x)};
                std::memcpy(at(r, c), &v, 2);
                break;
            }
            case DType::I16: {
                const auto v = int16_t(x);
                std::memcpy(at(r, c), &v, 2);
                break;
            }
            case DType::U16: {
                const auto v = uint16_t(x);
                std::memcpy(at(r, c), &v, 2);
                break;
            }
            case DType::I32: {
                const auto v = int32_t(x);
                std::memcpy(at(r, c), &v, 4);
                break;
            }
            default: {
                const auto v = uint32_t(x);
                std::memcpy(at(r, c), &v, 4);
                break;
            }
        }
    }
    uint32_t raw32(int r, int c) const
    {
        uint32_t v;
        std::memcpy(&v, at(r, c), 4);
        return v;
    }
};

// One threshold per row: a 1 x N row vector or an N x 1 column-major column.
HostTile per_row_vector(DType t, int n, bool as_column)
{
    const int padded = (n + 7) / 8 * 8;
    return as_column ? HostTile(t, padded, 1, n, 1, BLayout::ColMajor) : HostTile(t, 1, padded, 1, n);
}

double vector_get(const HostTile& v, int r) { return v.desc.valid_rows == 1 ? v.get(0, r) : v.get(r, 0); }
void vector_set(HostTile& v, int r, double x) { v.desc.valid_rows == 1 ? v.set(0, r, x) : v.set(r, 0, x); }

// The threshold as the source type holds it: float and half round the integer; integers keep it.
double threshold_in(DType src, double k)
{
    if (src == DType::F32) return double(float(k));
    if (src == DType::F16) return double(float(half(float(k))));
    return k;
}

void expect_matches(const HostTile& dst, const HostTile& src, const HostTile& k, const HostTile& cdst, CmpMode mode,
                    uint32_t offset, const std::string& what)
{
    for (int r = 0; r < src.desc.valid_rows; ++r) {
        const double t = threshold_in(src.desc.dtype, vector_get(k, r));
        uint32_t count = 0;
        for (int c = 0; c < src.desc.valid_cols; ++c) {
            const double v = src.get(r, c);
            if (mode == CmpMode::GT ? v > t : v == t) {
                ASSERT_EQ(dst.raw32(r, int(count)), offset + uint32_t(r * src.desc.cols + c)) << what << " row " << r;
                ++count;
            }
        }
        ASSERT_EQ(vector_get(cdst, r), double(count)) << what << " row " << r;
        for (int c = int(count); c < dst.desc.cols; ++c) {
            ASSERT_EQ(dst.raw32(r, c), 0xDEADBEEFu) << what << ": only the matches are written, row " << r;
        }
    }
}

bool is_float(DType t) { return t == DType::F32 || t == DType::F16; }

}  // namespace

TEST(TGatherCompareEngine, EverySourceAndThresholdTypeInBothModesMatchesTheReference)
{
    std::mt19937 rng(2024);
    for (const DType src_type : {DType::F32, DType::F16, DType::I16, DType::U16, DType::I32, DType::U32}) {
        for (const DType k_type : {DType::I32, DType::U32, DType::U16}) {
            for (const CmpMode mode : {CmpMode::GT, CmpMode::EQ}) {
                for (int trial = 0; trial < 4; ++trial) {
                    const int per_block = 32 / (engine::dtype_bits(src_type) / 8);
                    HostTile src(src_type, 1 + int(rng() % 10), per_block * (1 + int(rng() % 20)), 0, 0);
                    src.desc.valid_rows = 1 + int(rng() % src.desc.rows);
                    src.desc.valid_cols = 1 + int(rng() % src.desc.cols);
                    HostTile dst(DType::U32, src.desc.rows, src.desc.cols, src.desc.rows, src.desc.cols);
                    const bool column = trial % 2 == 1;
                    HostTile k = per_row_vector(k_type, src.desc.valid_rows, column);
                    HostTile cdst = per_row_vector(trial % 3 ? DType::U32 : DType::I32, src.desc.valid_rows, !column);
                    // Small value ranges make ties (EQ matches) common; floats add NaN and both zeros.
                    for (int r = 0; r < src.desc.rows; ++r) {
                        for (int c = 0; c < src.desc.cols; ++c) {
                            double v = double(rng() % 12);
                            if (is_float(src_type)) {
                                const int kind = int(rng() % 16);
                                v = kind == 0   ? std::numeric_limits<double>::quiet_NaN()
                                    : kind == 1 ? -0.0
                                                : v + (kind == 2 ? 0.5 : 0.0);
                            }
                            src.set(r, c, v);
                        }
                    }
                    for (int r = 0; r < src.desc.valid_rows; ++r) vector_set(k, r, double(1 + rng() % 10));
                    const uint32_t offset = trial == 3 ? 0xFFFFFFF0u : rng() % 1000;
                    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, mode, offset);
                    expect_matches(dst, src, k, cdst, mode, offset,
                                   std::string(engine::dtype_name(src_type)) + " vs " +
                                       std::string(engine::dtype_name(k_type)) + (mode == CmpMode::GT ? " GT" : " EQ"));
                }
            }
        }
    }
}

// Decision: for float sources the threshold is first rounded to the source type (as the hardware
// converts it), so 2049 is the half 2048.
TEST(TGather, CompareThresholdIsRoundedToTheSourceTypeFirst)
{
    HostTile src(DType::F16, 1, 16, 1, 3), dst(DType::U32, 1, 16, 1, 16);
    HostTile k = per_row_vector(DType::I32, 1, false), cdst = per_row_vector(DType::U32, 1, false);
    src.set(0, 0, 2048.0);
    src.set(0, 1, 2050.0);
    src.set(0, 2, 2046.0);
    vector_set(k, 0, 2049.0);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::EQ, 0);
    EXPECT_EQ(vector_get(cdst, 0), 1.0);
    EXPECT_EQ(dst.raw32(0, 0), 0u);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::GT, 0);
    EXPECT_EQ(vector_get(cdst, 0), 1.0);
    EXPECT_EQ(dst.raw32(0, 0), 1u);
}

// Decision: a threshold beyond half's range rounds to infinity: nothing finite exceeds it.
TEST(TGather, CompareThresholdBeyondHalfRangeIsInfinity)
{
    HostTile src(DType::F16, 1, 16, 1, 3), dst(DType::U32, 1, 16, 1, 16);
    HostTile k = per_row_vector(DType::U32, 1, false), cdst = per_row_vector(DType::U32, 1, false);
    src.set(0, 0, 65504.0);
    src.set(0, 1, std::numeric_limits<double>::infinity());
    src.set(0, 2, 1.0);
    vector_set(k, 0, 70000.0);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::GT, 0);
    EXPECT_EQ(vector_get(cdst, 0), 0.0);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::EQ, 0);
    EXPECT_EQ(vector_get(cdst, 0), 1.0);
    EXPECT_EQ(dst.raw32(0, 0), 1u);
}

// Decision: integer sources compare exactly (no wrap-around or saturation of the threshold).
TEST(TGather, CompareIntegerSourcesCompareExactly)
{
    HostTile src(DType::U16, 1, 16, 1, 2), dst(DType::U32, 1, 16, 1, 16);
    HostTile k = per_row_vector(DType::U32, 1, false), cdst = per_row_vector(DType::U32, 1, false);
    src.set(0, 0, 4464.0);   // 70000 mod 65536
    src.set(0, 1, 65535.0);  // 70000 saturated
    vector_set(k, 0, 70000.0);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::EQ, 0);
    EXPECT_EQ(vector_get(cdst, 0), 0.0);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::GT, 0);
    EXPECT_EQ(vector_get(cdst, 0), 0.0);
}

// Decision: NaN matches nothing; -0 equals the threshold 0.
TEST(TGather, CompareNaNMatchesNothingAndNegativeZeroEqualsZero)
{
    HostTile src(DType::F32, 1, 8, 1, 4), dst(DType::U32, 1, 8, 1, 8);
    HostTile k = per_row_vector(DType::I32, 1, false), cdst = per_row_vector(DType::U32, 1, false);
    src.set(0, 0, std::numeric_limits<double>::quiet_NaN());
    src.set(0, 1, -0.0);
    src.set(0, 2, -std::numeric_limits<double>::quiet_NaN());
    src.set(0, 3, 0.0);
    vector_set(k, 0, 0.0);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::EQ, 0);
    EXPECT_EQ(vector_get(cdst, 0), 2.0);
    EXPECT_EQ(dst.raw32(0, 0), 1u);
    EXPECT_EQ(dst.raw32(0, 1), 3u);
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::GT, 0);
    EXPECT_EQ(vector_get(cdst, 0), 0.0);
}

// Decision: a gathered index is offset + r * Cols + c, Cols being src's capacity (not its valid columns).
TEST(TGather, CompareIndicesCountFromOffsetOverTheSourceCapacity)
{
    HostTile src(DType::I32, 3, 16, 3, 5), dst(DType::I32, 3, 16, 3, 16);
    HostTile k = per_row_vector(DType::I32, 3, true), cdst = per_row_vector(DType::I32, 3, true);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 16; ++c) src.set(r, c, 7.0);
        vector_set(k, r, 7.0);
    }
    engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, nullptr, CmpMode::EQ, 100);
    for (int r = 0; r < 3; ++r) {
        EXPECT_EQ(vector_get(cdst, r), 5.0);
        for (int c = 0; c < 5; ++c) EXPECT_EQ(dst.raw32(r, c), uint32_t(100 + r * 16 + c));
    }
}

TEST(TGatherCompareIntrinsic, DynamicValidRowsWithEvents)
{
    ScopedChecked checked(true);
    using SrcT = Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, 64>;
    using DstT = Tile<TileType::Vec, uint32_t, 8, 64>;
    using KT = Tile<TileType::Vec, int32_t, 1, 8, BLayout::RowMajor, 1, DYNAMIC>;
    using CountT = Tile<TileType::Vec, uint32_t, 1, 8, BLayout::RowMajor, 1, DYNAMIC>;
    using TmpT = Tile<TileType::Vec, uint32_t, 8, 128>;
    std::mt19937 rng(3);
    for (const unsigned rows : {1u, 5u, 8u}) {
        SrcT src(rows);
        DstT dst;
        KT k(rows);
        CountT count(rows);
        TmpT tmp;
        std::vector<float> values(rows * 64);
        for (unsigned i = 0; i < rows * 64; ++i) {
            values[i] = float(int(rng() % 200) - 100) / 4.0f;
            src.SetValue(i, values[i]);
        }
        for (unsigned r = 0; r < rows; ++r) k.SetValue(r, int32_t(rng() % 20) - 10);
        Event<Op::TLOAD, Op::TGATHER> ready;
        ready = RecordEvent{};
        TGATHER<DstT, SrcT, KT, CountT, TmpT, CmpMode::GT>(dst, src, k, count, tmp, 1000u, ready);
        for (unsigned r = 0; r < rows; ++r) {
            uint32_t expected = 0;
            for (unsigned c = 0; c < 64; ++c) {
                if (values[r * 64 + c] > float(k.GetValue(r))) {
                    ASSERT_EQ(dst.GetValue(r * 64 + expected), 1000u + r * 64 + c);
                    ++expected;
                }
            }
            ASSERT_EQ(count.GetValue(r), expected) << "row " << r;
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Illegal configurations, each with its code, on the profile that forbids it.

namespace {

struct CompareCase {
    HostTile dst{DType::U32, 4, 8, 4, 8};
    HostTile src{DType::F32, 4, 8, 4, 8};
    HostTile k{DType::I32, 1, 8, 1, 4};
    HostTile cdst{DType::U32, 1, 8, 1, 4};
    HostTile tmp{DType::U32, 4, 64, 4, 64};
    CmpMode mode = CmpMode::GT;
    bool with_tmp = true;

    Diagnostic run()
    {
        return diagnostic_of([&] {
            engine::tgather_compare(dst.desc, src.desc, k.desc, cdst.desc, with_tmp ? &tmp.desc : nullptr, mode, 0);
        });
    }
};

}  // namespace

TEST(TGatherCompareIllegal, EachRuleReportsItsCode)
{
    {
        CompareCase c;
        EXPECT_EQ(c.run().code, "no error");
    }
    {
        CompareCase c;
        c.mode = CmpMode::LT;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_CMP_MODE");
    }
    {
        CompareCase c;
        c.src.desc.dtype = DType::BF16;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_CMP_SRC_DTYPE");
        EXPECT_NE(d.actual.find("bf16"), std::string::npos);
    }
    {
        CompareCase c;
        c.dst.desc.dtype = DType::F32;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_CMP_DST_DTYPE");
    }
    {
        CompareCase c;
        c.cdst.desc.dtype = DType::I16;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_CMP_DST_DTYPE");
        EXPECT_EQ(d.operand, "cdst");
    }
    {
        CompareCase c;
        c.k.desc.dtype = DType::F32;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_CMP_K_DTYPE");
    }
    {
        CompareCase c;
        c.dst.desc.valid_cols = 6;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_SHAPE");
        EXPECT_EQ(d.operand, "dst");
    }
    {
        CompareCase c;
        c.k.desc.valid_cols = 3;
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_SHAPE");
        EXPECT_EQ(d.operand, "k_value");
    }
    {
        CompareCase c;
        c.cdst.desc.rows = 2;
        c.cdst.desc.valid_rows = 2;  // 2 x 4: neither one row nor one column
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_SHAPE");
        EXPECT_EQ(d.operand, "cdst");
    }
    {
        CompareCase c;
        c.src.desc.blayout = BLayout::ColMajor;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_LAYOUT");
    }
    {
        CompareCase c;
        c.k.desc.loc = TileType::Mat;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_LOCATION");
    }
}

TEST(TGatherCompareIllegal, A2A3Rules)
{
    ScopedTarget a2a3(profile::Target::A2A3);
    {
        CompareCase c;
        EXPECT_EQ(c.run().code, "no error");
    }
    {
        CompareCase c;
        c.src.desc.dtype = DType::I32;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_CMP_SRC_DTYPE") << "int32 compares with EQ only";
        c.mode = CmpMode::EQ;
        EXPECT_EQ(c.run().code, "no error");
    }
    {
        CompareCase c;
        c.k.desc.dtype = DType::U16;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_CMP_K_DTYPE");
    }
    {
        CompareCase c;
        c.with_tmp = false;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_TMP_REQUIRED");
    }
    {
        CompareCase c;
        c.tmp.desc.cols = 8;  // 4 x 8 x 4 = 128 bytes < 32 + 128 + 16
        const Diagnostic d = c.run();
        EXPECT_EQ(d.code, "LEGAL_TGATHER_TMP_SIZE");
        EXPECT_NE(d.expected.find("176"), std::string::npos) << d.expected;
    }
}

TEST(TGatherCompareIllegal, A5Rules)
{
    ScopedTarget a5(profile::Target::A5);
    {
        CompareCase c;
        c.with_tmp = false;
        c.k.desc.dtype = DType::U32;
        EXPECT_EQ(c.run().code, "no error") << "A5 ignores tmp";
    }
    {
        CompareCase c;
        EXPECT_EQ(c.run().code, "LEGAL_TGATHER_CMP_K_DTYPE") << "A5 takes uint16 or uint32 thresholds";
    }
    {
        CompareCase c;
        c.k.desc.dtype = DType::U16;
        c.src.desc.dtype = DType::I16;
        c.src.desc.cols = 16;
        c.src.desc.valid_cols = 8;
        EXPECT_EQ(c.run().code, "no error");
    }
}
