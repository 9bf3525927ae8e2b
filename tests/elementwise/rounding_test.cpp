// half and bfloat16 arithmetic is bit-exact: every result equals the double-precision result rounded
// once to the destination (to nearest, ties to even), over random bit patterns (subnormals, infinities
// and NaNs included), every encoding, the ties and overflow boundaries, and the bfloat16 results that
// land among float's subnormals (products, sums and the cpu profile's quotients).
#include "support.hpp"

using namespace pto;
using namespace ewtest;

namespace {

// A 1 x n row-major tile over `bits`.
TileDesc row_tile(std::vector<uint16_t>& bits, DType t)
{
    TileDesc d;
    d.data = reinterpret_cast<std::byte*>(bits.data());
    d.dtype = t;
    d.rows = 1;
    d.cols = static_cast<int32_t>(bits.size());
    d.valid_rows = 1;
    d.valid_cols = d.cols;
    return d;
}

template <typename T>
void expect_correctly_rounded(Arith op, std::vector<uint16_t> a, std::vector<uint16_t> b, const char* what)
{
    std::vector<uint16_t> out(a.size());
    run_engine(op, row_tile(out, Elem<T>::dtype), row_tile(a, Elem<T>::dtype), row_tile(b, Elem<T>::dtype));
    int wrong = 0;
    for (std::size_t i = 0; i < a.size() && wrong < 5; ++i) {
        const uint16_t want = reference<T>(op, a[i], b[i]);
        if (!same_result<T>(want, out[i])) {
            ADD_FAILURE() << op_name(op) << " " << what << std::hex << ": 0x" << a[i] << " op 0x" << b[i] << " gave 0x"
                          << out[i] << ", expected 0x" << want;
            ++wrong;
        }
    }
}

template <typename T>
void random_patterns(unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<uint16_t> a(200000), b(200000);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = static_cast<uint16_t>(rng());
        b[i] = static_cast<uint16_t>(rng());
        // Every other pair close in magnitude, so that sums cancel and carry, not only absorb.
        if (i % 2) b[i] = static_cast<uint16_t>((a[i] & 0xff00u) | (b[i] & 0x80ffu));
    }
    for (Arith op : kOps) {
        if (cpu_allows(op, Elem<T>::dtype)) expect_correctly_rounded<T>(op, a, b, "random patterns");
    }
}

}  // namespace

TEST(Rounding, HalfOfRandomBitPatterns) { random_patterns<half>(31); }

TEST(Rounding, BfloatOfRandomBitPatterns) { random_patterns<bfloat16_t>(32); }

TEST(Rounding, EveryHalfAndBfloatSurvivesTheRoundTrip)
{
    // x + (-0) == x and x * 1 == x exactly, for every encoding: widening and narrowing lose nothing.
    std::vector<uint16_t> all(65536), minus_zero(65536, 0x8000), one_half(65536, 0x3c00), one_bf(65536, 0x3f80);
    for (uint32_t i = 0; i < 65536; ++i) all[i] = static_cast<uint16_t>(i);
    expect_correctly_rounded<half>(Arith::Add, all, minus_zero, "x + -0");
    expect_correctly_rounded<half>(Arith::Mul, all, one_half, "x * 1");
    expect_correctly_rounded<bfloat16_t>(Arith::Add, all, minus_zero, "x + -0");
    expect_correctly_rounded<bfloat16_t>(Arith::Mul, all, one_bf, "x * 1");
}

TEST(Rounding, HalfTiesGoToEvenAndOverflowAtTheMidpoint)
{
    // 2048 + 1 = 2049 lies halfway between 2048 (even) and 2050; 2048 + 3 = 2051 between 2050 and 2052 (even).
    // 65504 + 8 = 65512 rounds down to 65504; 65504 + 16 = 65520, the midpoint to 65536, goes to infinity.
    std::vector<uint16_t> a{0x6800, 0x6800, 0x7bff, 0x7bff, 0x0001, 0x0001};
    std::vector<uint16_t> b{0x3c00, 0x4200, 0x4800, 0x4c00, 0x3800, 0x0001};
    std::vector<uint16_t> sum(a.size());
    engine::tadd(row_tile(sum, DType::F16), row_tile(a, DType::F16), row_tile(b, DType::F16));
    EXPECT_EQ(sum[0], 0x6800);  // 2048
    EXPECT_EQ(sum[1], 0x6802);  // 2052
    EXPECT_EQ(sum[2], 0x7bff);  // 65504
    EXPECT_EQ(sum[3], 0x7c00);  // infinity
    EXPECT_EQ(sum[4], 0x3800);  // 2^-24 + 0.5 rounds to 0.5
    EXPECT_EQ(sum[5], 0x0002);  // subnormal + subnormal is exact
    std::vector<uint16_t> x{0x0001, 0x0001}, y{0x3800, 0x3e00};  // 2^-24 * 0.5 ties to 0; 2^-24 * 1.5 ties to 2^-23
    std::vector<uint16_t> product(x.size());
    engine::tmul(row_tile(product, DType::F16), row_tile(x, DType::F16), row_tile(y, DType::F16));
    EXPECT_EQ(product[0], 0x0000);
    EXPECT_EQ(product[1], 0x0002);
}

TEST(Rounding, BfloatResultsAmongFloatSubnormals)
{
    // Products and sums between 2^-149 and 2^-126, where float keeps fewer than 24 bits: still rounded
    // once, correctly, to bfloat16 (its subnormals start at 2^-133).
    std::mt19937 rng(33);
    std::vector<uint16_t> a, b;
    for (int i = 0; i < 100000; ++i) {
        const int ea = std::uniform_int_distribution<int>(-70, -56)(rng);
        const int eb = -141 - ea + std::uniform_int_distribution<int>(0, 16)(rng);  // products 2^-141 .. 2^-124
        a.push_back(static_cast<uint16_t>((rng() % 2 ? 0x8000u : 0u) | unsigned(ea + 127) << 7 | (rng() & 0x7f)));
        b.push_back(static_cast<uint16_t>(unsigned(eb + 127) << 7 | (rng() & 0x7f)));
    }
    expect_correctly_rounded<bfloat16_t>(Arith::Mul, a, b, "tiny products");
    // Quotients 2^-141 .. 2^-124 (bf16 division, the cpu profile's): float rounds them to 2^-149, 16
    // bits finer than bfloat16's 2^-133, and a quotient of 8-bit significands is never that close to a
    // bfloat16 midpoint without being on it, so the second rounding is still the only one that counts.
    std::vector<uint16_t> n, q;
    for (int i = 0; i < 100000; ++i) {
        const int en = std::uniform_int_distribution<int>(-100, -14)(rng);
        const int eq = en + 141 - std::uniform_int_distribution<int>(0, 17)(rng);  // 2^en / 2^eq: 2^-141 .. 2^-124
        n.push_back(static_cast<uint16_t>((rng() % 2 ? 0x8000u : 0u) | unsigned(en + 127) << 7 | (rng() & 0x7f)));
        q.push_back(static_cast<uint16_t>(unsigned(eq + 127) << 7 | (rng() & 0x7f)));
    }
    expect_correctly_rounded<bfloat16_t>(Arith::Div, n, q, "tiny quotients");
    std::vector<uint16_t> tiny_a, tiny_b;
    for (int i = 0; i < 100000; ++i) {
        tiny_a.push_back(static_cast<uint16_t>(rng() & 0x80ffu));  // subnormals and the smallest normals
        tiny_b.push_back(static_cast<uint16_t>(rng() & 0x80ffu));
    }
    expect_correctly_rounded<bfloat16_t>(Arith::Add, tiny_a, tiny_b, "tiny sums");
    expect_correctly_rounded<bfloat16_t>(Arith::Sub, tiny_a, tiny_b, "tiny differences");
}
