// The eight reductions on every element type the cpu profile takes, through the engine entry points both
// doors call: random shapes and partial valid regions inside larger capacities, ND and DN destinations,
// random elements with one in twelve special (NaN, +-inf, +-0, subnormals, integer ends), against the
// reference results of support.hpp; nothing of dst outside the results is written.
#include "reduce/support.hpp"

using namespace pto;
using namespace reducetest;

namespace {

using Entry = void (*)(const TileDesc&, const TileDesc&);

constexpr Entry kRowEntries[] = {
    [](const TileDesc& d, const TileDesc& s) { engine::trowsum(d, s, nullptr); },
    [](const TileDesc& d, const TileDesc& s) { engine::trowmax(d, s, nullptr); },
    [](const TileDesc& d, const TileDesc& s) { engine::trowmin(d, s, nullptr); },
    [](const TileDesc& d, const TileDesc& s) { engine::trowprod(d, s, nullptr); },
};
constexpr Entry kColEntries[] = {
    [](const TileDesc& d, const TileDesc& s) { engine::tcolsum(d, s, nullptr, false); },
    engine::tcolmax,
    engine::tcolmin,
    engine::tcolprod,
};
constexpr ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod};
constexpr const char* kOpNames[] = {"sum", "max", "min", "product"};

template <typename T>
void check_rows(uint32_t seed)
{
    std::mt19937 rng(seed);
    const auto& cpu = profile::profile_of(profile::Target::Cpu);
    for (ReduceOp op : kOps) {
        if (!rules::row_reduce_dtype_ok(cpu, op, Elem<T>::dtype)) continue;
        for (int trial = 0; trial < 40; ++trial) {
            const int rows = 1 + int(rng() % 9);
            const int cols = trial < 8 ? 1 + trial * 19 : 1 + int(rng() % 300);
            const bool dn = rng() % 2;
            const int dst_cols = 1 + int(rng() % 16);
            check_reduction<T>(rng, op, true, rows, cols, dst_cols, dn, kRowEntries[int(op)],
                               std::string("row ") + kOpNames[int(op)] + (dn ? ", DN dst" : ", ND dst"));
            if (testing::Test::HasFatalFailure()) return;
        }
    }
}

template <typename T>
void check_columns(uint32_t seed)
{
    std::mt19937 rng(seed);
    const auto& cpu = profile::profile_of(profile::Target::Cpu);
    for (ReduceOp op : kOps) {
        if (!rules::col_reduce_dtype_ok(cpu, op, Elem<T>::dtype)) continue;
        for (int trial = 0; trial < 40; ++trial) {
            const int rows = trial < 8 ? 1 + trial * 11 : 1 + int(rng() % 70);
            const int cols = 1 + int(rng() % 200);
            check_reduction<T>(rng, op, false, rows, cols, 0, false, kColEntries[int(op)],
                               std::string("column ") + kOpNames[int(op)]);
            if (testing::Test::HasFatalFailure()) return;
        }
    }
}

template <typename T>
void check_both(uint32_t seed)
{
    check_rows<T>(seed);
    check_columns<T>(seed + 1000);
}

TEST(ReduceValues, Float) { check_both<float>(1); }
TEST(ReduceValues, Half) { check_both<half>(2); }
TEST(ReduceValues, Bfloat16) { check_both<bfloat16_t>(3); }
TEST(ReduceValues, Int8) { check_both<int8_t>(4); }
TEST(ReduceValues, Uint8) { check_both<uint8_t>(5); }
TEST(ReduceValues, Int16) { check_both<int16_t>(6); }
TEST(ReduceValues, Uint16) { check_both<uint16_t>(7); }
TEST(ReduceValues, Int32) { check_both<int32_t>(8); }
TEST(ReduceValues, Uint32) { check_both<uint32_t>(9); }
TEST(ReduceValues, Int64) { check_both<int64_t>(10); }
TEST(ReduceValues, Uint64) { check_both<uint64_t>(11); }

// The decisions, one value each: a half sum is accumulated in float (the halves alone would stop at
// 2048 + 1 = 2048), integer sums wrap, a NaN loses to a number, NaNs only and inf - inf give the
// canonical NaN, +0 beats -0 in a max.
TEST(ReduceValues, DocumentedCornerCases)
{
    const auto row = [](auto& values) {
        TileDesc d;
        d.data = reinterpret_cast<std::byte*>(values.data());
        d.dtype = Elem<std::remove_cvref_t<decltype(values[0])>>::dtype;
        d.rows = d.valid_rows = 1;
        d.cols = d.valid_cols = int32_t(values.size());
        return d;
    };
    std::vector<uint16_t> halves(4096, half(1.0f).bits), half_out(1);
    TileDesc h = row(halves), ho = row(half_out);
    h.dtype = ho.dtype = DType::F16;
    ho.cols = ho.valid_cols = 1;
    engine::trowsum(ho, h, nullptr);
    EXPECT_EQ(half_out[0], half(4096.0f).bits);

    std::vector<int16_t> wraps{32767, 1}, wrap_out(1);
    TileDesc w = row(wraps), wo = row(wrap_out);
    engine::trowsum(wo, w, nullptr);
    EXPECT_EQ(wrap_out[0], -32768);

    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> mixed{nan, -5.0f, nan}, zeros{-0.0f, 0.0f, -0.0f}, nans{-nan, nan}, infs{inf, -inf}, out(1);
    TileDesc o = row(out);
    o.cols = o.valid_cols = 1;
    engine::trowmax(o, row(mixed), nullptr);
    EXPECT_EQ(out[0], -5.0f);
    engine::trowmax(o, row(zeros), nullptr);
    EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0u);
    engine::trowmin(o, row(zeros), nullptr);
    EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0x80000000u);
    engine::trowmin(o, row(nans), nullptr);
    EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0x7fc00000u);
    engine::trowsum(o, row(infs), nullptr);
    EXPECT_EQ(std::bit_cast<uint32_t>(out[0]), 0x7fc00000u);
}

// Row max and min watch for NaNs beside the vector max / min and fold again the rows that may hold one:
// NaNs first, in the middle, last, everywhere, everywhere but one element, among zeros of both signs and
// among infinities, and rows without a NaN whose watching sums overflow or meet infinities of both signs,
// over lengths around the 64 partial results, against the reference.
template <typename T>
void check_rows_with_nans(uint32_t seed)
{
    std::mt19937 rng(seed);
    const auto of = [](float x) { return round_float<T>(x); };
    Storage<T> payload_nan;  // a negative NaN with a payload: the result must still be the canonical NaN
    if constexpr (std::is_same_v<T, float>) payload_nan = std::bit_cast<float>(0xffc00123u);
    else payload_nan = 0xfe01;
    const float inf = std::numeric_limits<float>::infinity(), big = std::is_same_v<T, half> ? 60000.0f : 3e38f;
    constexpr int kPatterns = 10;
    for (int length : {1, 2, 7, 31, 63, 64, 65, 100, 128, 129, 256, 300}) {
        std::vector<Storage<T>> src(size_t(kPatterns) * size_t(length)), out(kPatterns);
        for (int r = 0; r < kPatterns; ++r) {
            Storage<T>* row = src.data() + size_t(r) * size_t(length);
            for (int j = 0; j < length; ++j) row[j] = random_value<T>(rng);
            switch (r) {
                case 0: break;  // numbers only
                case 1: row[0] = payload_nan; break;
                case 2: row[length / 2] = payload_nan; break;
                case 3: row[length - 1] = payload_nan; break;
                case 4: std::fill(row, row + length, payload_nan); break;
                case 5: std::fill(row, row + length, payload_nan), row[length / 3] = of(-2.5f); break;
                case 6:
                    for (int j = 0; j < length; ++j) row[j] = j % 3 == 0 ? payload_nan : of(j % 3 == 1 ? -0.0f : 0.0f);
                    break;
                case 7:
                    for (int j = 0; j < length; ++j) row[j] = j % 2 ? payload_nan : of(j % 4 ? inf : -inf);
                    break;
                case 8:
                    for (int j = 0; j < length; ++j) row[j] = of(j % 2 ? big : -big);
                    row[0] = of(-inf);
                    break;
                default:
                    for (int j = 0; j < length; ++j) row[j] = of(j % 2 ? inf : -inf);
                    break;
            }
        }
        TileDesc s, d;
        s.data = reinterpret_cast<std::byte*>(src.data());
        d.data = reinterpret_cast<std::byte*>(out.data());
        s.dtype = d.dtype = Elem<T>::dtype;
        s.rows = s.valid_rows = d.rows = d.valid_rows = kPatterns;
        s.cols = s.valid_cols = length;
        d.cols = d.valid_cols = 1;
        for (ReduceOp op : {ReduceOp::Max, ReduceOp::Min}) {
            if (op == ReduceOp::Max) engine::trowmax(d, s, nullptr);
            else engine::trowmin(d, s, nullptr);
            for (int r = 0; r < kPatterns; ++r) {
                const std::vector<Storage<T>> row(src.begin() + r * length, src.begin() + (r + 1) * length);
                const Storage<T> want = extreme<T>(op, row);
                ASSERT_TRUE(same_bits<T>(out[size_t(r)], want))
                    << (op == ReduceOp::Max ? "max" : "min") << ", length " << length << ", pattern " << r << ": "
                    << text_of<T>(out[size_t(r)]) << " instead of " << text_of<T>(want);
            }
        }
    }
}

TEST(ReduceValues, RowMaxMinWithNaNsAnywhere)
{
    check_rows_with_nans<float>(21);
    check_rows_with_nans<half>(22);  // the cpu profile reduces no bfloat16 rows
}

}  // namespace

namespace {

// dst may share src's bytes: the results are as if src were read in full first.
TEST(ReduceValues, DestinationsOverlappingTheSource)
{
    std::mt19937 rng(13);
    for (bool dn : {false, true}) {
        HostTile<float> src(8, 64, 8, 64, kRowMajor, rng);
        const std::vector<float> before = src.storage();
        TileDesc dst = src.desc();  // ND: the very same tile, results in column 0
        if (dn) {
            dst.data += (2 * 64 + 5) * sizeof(float);  // DN: a column of 8 inside row 2, read after row 0
            dst.cols = dst.valid_cols = 1;
            dst.blayout = BLayout::ColMajor;
        }
        engine::trowsum(dst, src.desc(), nullptr);
        for (int r = 0; r < 8; ++r) {
            const std::vector<float> row(before.begin() + r * 64, before.begin() + (r + 1) * 64);
            const float got = reinterpret_cast<const float*>(dst.data)[dst.offset(r, 0)];
            EXPECT_TRUE(same_bits<float>(expected<float>(ReduceOp::Sum, row, true), got)) << (dn ? "DN " : "ND ") << r;
        }
    }
}

}  // namespace
