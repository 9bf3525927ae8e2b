// The PTO-AS door: for a row of every Kind, and for TCMP -> TSEL, TCMPS, TSELS and TCVT, a program in each
// spelling (DPS, SSA, PTO assembly) runs through the interpreter on random arrays loaded into tiles with a
// random partial valid region, and gives exactly the bits the C++ intrinsic gives on the same data.
#include "elementwise_instructions/rows.hpp"
#include "elementwise_instructions/text_programs.hpp"
#include "support/test_support.hpp"

#include <cctype>
#include <optional>

namespace ewinstr::text {
namespace {

using pto::CmpMode;
using pto::RoundMode;
using pto::SaturationMode;

struct Region {
    int rows;
    int cols;
};

Region random_region(std::mt19937& rng) { return {1 + int(rng() % kRows), 1 + int(rng() % kCols)}; }

// The u8 predicate mask of a rows x cols comparison: a bit per element, 8 to a byte.
TileShape mask_shape(Region region) { return {DType::U8, region.rows, (region.cols + 7) / 8}; }

// Runs each test in checked mode (as the interpreter runs the programs), whatever mode came before.
class PtoAsDoor : public ::testing::Test {
    pto::test::ScopedChecked checked_{true};
};

const std::string kHighPrecision = "{precision = #pto<precision high_precision>}";

TEST_F(PtoAsDoor, UnaryTabs)
{
    std::mt19937 rng(1);
    const Region region = random_region(rng);
    const Array a = random_array(DType::F16, region.rows, region.cols, rng);
    auto src = tile_of<half>(a);
    RegionTile<half> dst(region.rows, region.cols);
    pto::TABS(dst, src);
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}}, {}, [&](Spelling s) {
        return instruction(s, "tabs", {tile("%a_tile", a.shape())}, tile("%result", a.shape()));
    });
}

TEST_F(PtoAsDoor, BinaryTmax)
{
    std::mt19937 rng(2);
    const Region region = random_region(rng);
    const Array a = random_array(DType::F32, region.rows, region.cols, rng);
    const Array b = random_array(DType::F32, region.rows, region.cols, rng);
    auto src0 = tile_of<float>(a);
    auto src1 = tile_of<float>(b);
    RegionTile<float> dst(region.rows, region.cols);
    pto::TMAX(dst, src0, src1);
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}, {"b", b}}, {}, [&](Spelling s) {
        return instruction(s, "tmax", {tile("%a_tile", a.shape()), tile("%b_tile", b.shape())}, tile("%result", a.shape()));
    });
}

TEST_F(PtoAsDoor, BinaryTmpTremWithPrecision)
{
    std::mt19937 rng(3);
    const Region region = random_region(rng);
    const Array a = random_array(DType::I32, region.rows, region.cols, rng);
    Array b = random_array(DType::I32, region.rows, region.cols, rng);
    for (int i = 0; i < region.rows * region.cols; ++i)  // no zero divisor: checked mode stops at one
        if (load(b.bytes.data(), i, DType::I32) == 0) store(b.bytes.data(), i, DType::I32, 7);
    auto src0 = tile_of<int32_t>(a);
    auto src1 = tile_of<int32_t>(b);
    RegionTile<int32_t> dst(region.rows, region.cols), tmp(region.rows, region.cols);
    pto::TREM<pto::RemAlgorithm::HIGH_PRECISION>(dst, src0, src1, tmp);
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}, {"b", b}}, {}, [&](Spelling s) {
        const Value t = tile("%tmp", a.shape());
        return "  %tmp = pto.alloc_tile : " + t.type + "\n" +
               instruction(s, "trem", {tile("%a_tile", a.shape()), tile("%b_tile", b.shape()), t}, tile("%result", a.shape()),
                           kHighPrecision);
    });
}

TEST_F(PtoAsDoor, ScalarTlreluRoundsTheScalarToTheElementType)
{
    std::mt19937 rng(4);
    const Region region = random_region(rng);
    const Array a = random_array(DType::F16, region.rows, region.cols, rng);
    const double slope = 0.1;  // not a half: both doors round it to nearest even
    auto src = tile_of<half>(a);
    RegionTile<half> dst(region.rows, region.cols);
    pto::TLRELU(dst, src, half(0.1f));
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}}, {{"slope", "f32", slope}}, [&](Spelling s) {
        return instruction(s, "tlrelu", {tile("%a_tile", a.shape()), {"%slope", "f32"}}, tile("%result", a.shape()));
    });
}

TEST_F(PtoAsDoor, ScalarTmpTxors)
{
    std::mt19937 rng(5);
    const Region region = random_region(rng);
    const Array a = random_array(DType::U8, region.rows, region.cols, rng);
    auto src = tile_of<uint8_t>(a);
    RegionTile<uint8_t> dst(region.rows, region.cols), tmp(region.rows, region.cols);
    pto::TXORS(dst, src, uint8_t{0xa5}, tmp);
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}}, {{"s", "i32", 0xa5}}, [&](Spelling s) {
        const Value t = tile("%tmp", a.shape());
        return "  %tmp = pto.alloc_tile : " + t.type + "\n" +
               instruction(s, "txors", {tile("%a_tile", a.shape()), {"%s", "i32"}, t}, tile("%result", a.shape()));
    });
}

TEST_F(PtoAsDoor, ScalarBothSidesTdivsEitherOrder)
{
    std::mt19937 rng(6);
    const Region region = random_region(rng);
    const Array a = random_array(DType::F32, region.rows, region.cols, rng);
    const float scalar = -2.75f;
    auto src = tile_of<float>(a);
    RegionTile<float> quotient(region.rows, region.cols), reciprocal(region.rows, region.cols);
    pto::TDIVS(quotient, src, scalar);
    pto::TDIVS<pto::DivAlgorithm::HIGH_PRECISION>(reciprocal, scalar, src);
    const Value s{"%s", "f32"}, in = tile("%a_tile", a.shape()), out = tile("%result", a.shape());
    expect_every_spelling_gives(array_of(quotient.desc()), {{"a", a}}, {{"s", "f32", scalar}},
                                [&](Spelling sp) { return instruction(sp, "tdivs", {in, s}, out); });
    expect_every_spelling_gives(array_of(reciprocal.desc()), {{"a", a}}, {{"s", "f32", scalar}},
                                [&](Spelling sp) { return instruction(sp, "tdivs", {s, in}, out, kHighPrecision); });
}

TEST_F(PtoAsDoor, MathWithPrecision)
{
    std::mt19937 rng(7);
    const Region region{kRows, kCols};
    const Array a = random_array(DType::F32, region.rows, region.cols, rng);
    const Array h = random_array(DType::F16, region.rows, region.cols, rng);
    auto src = tile_of<float>(a);
    auto half_src = tile_of<half>(h);
    RegionTile<float> exp_default(region.rows, region.cols), exp_high(region.rows, region.cols);
    RegionTile<half> rsqrt(region.rows, region.cols);
    pto::TEXP(exp_default, src);
    pto::TEXP<pto::ExpAlgorithm::HIGH_PRECISION>(exp_high, src);
    pto::TRSQRT<pto::RsqrtAlgorithm::HIGH_PRECISION>(rsqrt, half_src);
    // The two accuracies of exp differ somewhere on a whole tile of random inputs, so the attribute matters.
    EXPECT_FALSE(array_of(exp_default.desc()) == array_of(exp_high.desc()));
    const Value in = tile("%a_tile", a.shape()), out = tile("%result", a.shape());
    expect_every_spelling_gives(array_of(exp_default.desc()), {{"a", a}}, {},
                                [&](Spelling s) { return instruction(s, "texp", {in}, out); });
    expect_every_spelling_gives(array_of(exp_high.desc()), {{"a", a}}, {},
                                [&](Spelling s) { return instruction(s, "texp", {in}, out, kHighPrecision); });
    expect_every_spelling_gives(array_of(rsqrt.desc()), {{"a", h}}, {}, [&](Spelling s) {
        return instruction(s, "trsqrt", {tile("%a_tile", h.shape())}, tile("%result", h.shape()), "{precision = #pto<precision high>}");
    });
}

// A row on an element type only the cpu profile takes (its CPU_DTYPES): `cpp_door(dst, src0, src1, tmp)`
// on random data without zeros (an integer reciprocal of 0 stops checked mode) gives the reference's
// elements, every spelling gives its bits, and checked mode warned WARN_CPU_ONLY at the instruction.
template <typename T, typename CppDoor>
void expect_cpu_only_type(const std::string& mnemonic, int tile_sources, std::optional<int> scalar, CppDoor cpp_door, uint32_t seed)
{
    std::mt19937 rng(seed);
    const DType t = pto::engine::dtype_of<T>;
    const Region region = random_region(rng);
    std::string name = mnemonic;
    for (char& ch : name) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    const Row& row = row_named(name);
    ASSERT_TRUE(row.dtype_ok(pto::profile::kCpu, t) && !row.dtype_ok(pto::profile::kA2A3, t) && !row.dtype_ok(pto::profile::kA5, t))
        << name << " " << dtype_text(t);
    std::vector<Input> inputs;
    std::vector<Value> sources;
    for (int i = 0; i < tile_sources; ++i) {
        Array a = random_array(t, region.rows, region.cols, rng);
        for (int k = 0; k < region.rows * region.cols; ++k)
            if (load(a.bytes.data(), k, t) == 0) store(a.bytes.data(), k, t, is_float(t) ? round_to(t, 3.0) : 3);
        const std::string input = i == 0 ? "a" : "b";
        inputs.push_back({input, a});
        sources.push_back(tile("%" + input + "_tile", a.shape()));
    }
    std::vector<Scalar> scalars;
    if (scalar) {
        scalars.push_back({"s", "i32", double(*scalar)});
        sources.push_back({"%s", "i32"});
    }
    const Array& a = inputs[0].data;
    auto src0 = tile_of<T>(a);
    auto src1 = tile_of<T>(inputs.back().data);
    RegionTile<T> dst(region.rows, region.cols), tmp(region.rows, region.cols);
    pto::runtime::clear_warnings();
    cpp_door(dst, src0, src1, tmp);
    const Array result = array_of(dst.desc());
    for (int r = 0; r < region.rows; ++r) {
        for (int c = 0; c < region.cols; ++c) {
            const uint64_t b = scalar ? wrap(t, *scalar) : inputs.back().data.at(r, c);
            const std::string wrong = mismatch(row.op, t, Precision::Default, a.at(r, c), b, result.at(r, c));
            ASSERT_TRUE(wrong.empty()) << name << " " << dtype_text(t) << " element (" << r << ", " << c << ") " << wrong;
        }
    }
    const bool takes_tmp = row.kind == Kind::BinaryTmp;
    expect_every_spelling_gives(result, inputs, scalars, [&](Spelling sp) {
        std::vector<Value> operands = sources;
        std::string alloc;
        if (takes_tmp) {
            operands.push_back(tile("%tmp", a.shape()));
            alloc = "  %tmp = pto.alloc_tile : " + operands.back().type + "\n";
        }
        return alloc + instruction(sp, mnemonic, operands, tile("%result", a.shape()));
    });
    bool warned = false;
    for (const pto::Diagnostic& w : pto::runtime::warnings())
        warned |= w.code == "WARN_CPU_ONLY" && w.instruction == name && pto::test::mentions(w, "LEGAL_" + name + "_DTYPE");
    EXPECT_TRUE(warned) << name << " " << dtype_text(t);
    pto::runtime::clear_warnings();
}

TEST_F(PtoAsDoor, ElementTypesOnlyTheCpuProfileTakesRunAndWarn)
{
    expect_cpu_only_type<int32_t>("tlog", 1, {}, [](auto& d, auto& s, auto&, auto&) { pto::TLOG(d, s); }, 11);
    expect_cpu_only_type<int16_t>("trecip", 1, {}, [](auto& d, auto& s, auto&, auto&) { pto::TRECIP(d, s); }, 12);
    expect_cpu_only_type<int32_t>("texp", 1, {}, [](auto& d, auto& s, auto&, auto&) { pto::TEXP(d, s); }, 13);
    expect_cpu_only_type<bfloat16_t>("tsqrt", 1, {}, [](auto& d, auto& s, auto&, auto&) { pto::TSQRT(d, s); }, 14);
    expect_cpu_only_type<int16_t>("trelu", 1, {}, [](auto& d, auto& s, auto&, auto&) { pto::TRELU(d, s); }, 15);
    expect_cpu_only_type<int32_t>("tprelu", 2, {}, [](auto& d, auto& s0, auto& s1, auto& tmp) { pto::TPRELU(d, s0, s1, tmp); }, 16);
    expect_cpu_only_type<int16_t>("tlrelu", 1, -3, [](auto& d, auto& s, auto&, auto&) { pto::TLRELU(d, s, int16_t(-3)); }, 17);
    expect_cpu_only_type<uint8_t>("tmuls", 1, 7, [](auto& d, auto& s, auto&, auto&) { pto::TMULS(d, s, uint8_t(7)); }, 18);
}

TEST_F(PtoAsDoor, PowTpowWithTmp)
{
    std::mt19937 rng(8);
    const Region region = random_region(rng);
    const Array base = random_array(DType::F32, region.rows, region.cols, rng);
    const Array exponent = random_array(DType::F32, region.rows, region.cols, rng);
    auto b = tile_of<float>(base);
    auto e = tile_of<float>(exponent);
    RegionTile<float> dst(region.rows, region.cols), tmp(region.rows, region.cols);
    pto::TPOW<pto::PowAlgorithm::HIGH_PRECISION>(dst, b, e, tmp);
    expect_every_spelling_gives(array_of(dst.desc()), {{"base", base}, {"exponent", exponent}}, {}, [&](Spelling s) {
        const Value t = tile("%tmp", base.shape());
        return "  %tmp = pto.alloc_tile : " + t.type + "\n" +
               instruction(s, "tpow", {tile("%base_tile", base.shape()), tile("%exponent_tile", exponent.shape()), t},
                           tile("%result", base.shape()), kHighPrecision);
    });
}

TEST_F(PtoAsDoor, PowScalarTpowsInteger)
{
    std::mt19937 rng(9);
    const Region region = random_region(rng);
    const Array base = random_array(DType::I32, region.rows, region.cols, rng);
    auto b = tile_of<int32_t>(base);
    RegionTile<int32_t> dst(region.rows, region.cols), tmp(region.rows, region.cols);
    pto::TPOWS(dst, b, int32_t{3}, tmp);
    expect_every_spelling_gives(array_of(dst.desc()), {{"base", base}}, {{"e", "i32", 3}}, [&](Spelling s) {
        const Value t = tile("%tmp", base.shape());
        return "  %tmp = pto.alloc_tile : " + t.type + "\n" +
               instruction(s, "tpows", {tile("%base_tile", base.shape()), {"%e", "i32"}, t}, tile("%result", base.shape()));
    });
}

TEST_F(PtoAsDoor, TcmpThenTsel)
{
    std::mt19937 rng(10);
    const Region region = random_region(rng);
    const Array a = random_array(DType::F32, region.rows, region.cols, rng);
    const Array b = random_array(DType::F32, region.rows, region.cols, rng);
    const TileShape m = mask_shape(region);
    auto src0 = tile_of<float>(a);
    auto src1 = tile_of<float>(b);
    RegionTile<uint8_t> mask(m.valid_rows, m.valid_cols);
    RegionTile<float> dst(region.rows, region.cols), tmp(region.rows, region.cols);
    pto::TCMP(mask, src0, src1, CmpMode::LT);
    pto::TSEL(dst, mask, src1, src0, tmp);  // the larger of the two, NaN where b is one
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}, {"b", b}}, {}, [&](Spelling s) {
        const Value x = tile("%a_tile", a.shape()), y = tile("%b_tile", b.shape()), mask_value = tile("%mask", m);
        return instruction(s, "tcmp", {x, y}, mask_value, "{cmpMode = #pto<cmp lt>}") +
               instruction(s, "tsel", {mask_value, y, x}, tile("%result", a.shape()));
    });
}

TEST_F(PtoAsDoor, TcmpsWritesTheMask)
{
    std::mt19937 rng(11);
    const Region region = random_region(rng);
    const Array a = random_array(DType::I16, region.rows, region.cols, rng);
    const TileShape m = mask_shape(region);
    auto src = tile_of<int16_t>(a);
    RegionTile<uint8_t> mask(m.valid_rows, m.valid_cols);
    pto::TCMPS(mask, src, int16_t{2}, CmpMode::GE);
    expect_every_spelling_gives(array_of(mask.desc()), {{"a", a}}, {{"s", "i32", 2}}, [&](Spelling s) {
        return instruction(s, "tcmps", {tile("%a_tile", a.shape()), {"%s", "i32"}}, tile("%result", m),
                           "{cmpMode = #pto.cmp<GE>}");
    });
}

TEST_F(PtoAsDoor, TselsSelectsTheScalarWhereTheMaskIsClear)
{
    std::mt19937 rng(12);
    const Region region = random_region(rng);
    const Array a = random_array(DType::F16, region.rows, region.cols, rng);
    const TileShape m = mask_shape(region);
    const Array mask_bits = random_array(DType::U8, m.valid_rows, m.valid_cols, rng);
    auto src = tile_of<half>(a);
    auto mask = tile_of<uint8_t>(mask_bits);
    RegionTile<half> dst(region.rows, region.cols), tmp(region.rows, region.cols);
    pto::TSELS(dst, mask, src, tmp, half(-1.5f));
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}, {"mask", mask_bits}}, {{"s", "f32", -1.5}}, [&](Spelling s) {
        return instruction(s, "tsels", {tile("%mask_tile", m), tile("%a_tile", a.shape()), {"%s", "f32"}},
                           tile("%result", a.shape()));
    });
}

TEST_F(PtoAsDoor, TcvtWithRoundingAndSaturation)
{
    std::mt19937 rng(13);
    const Region region = random_region(rng);
    const Array a = random_array(DType::F32, region.rows, region.cols, rng);
    auto src = tile_of<float>(a);
    const TileShape narrow{DType::I16, region.rows, region.cols};
    for (SaturationMode sat : {SaturationMode::ON, SaturationMode::OFF}) {
        RegionTile<int16_t> dst(region.rows, region.cols);
        pto::TCVT(dst, src, RoundMode::CAST_FLOOR, sat);
        const std::string attributes = std::string("{rmode = #pto<round_mode floor>, sat = #pto<sat ") +
                                       (sat == SaturationMode::ON ? "on" : "off") + ">}";
        expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}}, {}, [&](Spelling s) {
            return instruction(s, "tcvt", {tile("%a_tile", a.shape())}, tile("%result", narrow), attributes);
        });
    }
    // Without `sat`, the pair's default saturation; ties away from zero.
    RegionTile<half> dst(region.rows, region.cols);
    pto::TCVT(dst, src, RoundMode::CAST_ROUND);
    const TileShape to_half{DType::F16, region.rows, region.cols};
    expect_every_spelling_gives(array_of(dst.desc()), {{"a", a}}, {}, [&](Spelling s) {
        return instruction(s, "tcvt", {tile("%a_tile", a.shape())}, tile("%result", to_half), "{rmode = #pto<round_mode round>}");
    });
}

// tests/asm/programs/elementwise.pto, a corpus program of the parser, printer and fuzzer tests: clean on
// every target, and the chain it computes is the C++ door's.
TEST_F(PtoAsDoor, CorpusProgramElementwiseVerifiesEverywhereAndMatchesTheCppDoor)
{
    const std::string text = pto::as::testing::read_text(std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/elementwise.pto");
    const pto::as::ParseResult parsed = pto::as::testing::parse_ok(text, "elementwise.pto");
    for (pto::profile::Target target : {pto::profile::Target::Cpu, pto::profile::Target::A2A3, pto::profile::Target::A5})
        for (const pto::Diagnostic& d : pto::as::verify(parsed.module, target)) ADD_FAILURE() << d.format();

    std::mt19937 rng(14);
    const int rows = 6, cols = 40;
    Array a = random_array(DType::F32, rows, cols, rng), b = random_array(DType::F32, rows, cols, rng);
    Array mask_bits = random_array(DType::U8, rows, (cols + 7) / 8, rng);
    const float s = 3.5f;
    Array out{DType::F32, rows, cols, std::vector<std::byte>(a.bytes.size())};
    const pto::as::RunResult ran = pto::as::run(
        parsed.module,
        {pto::as::testing::array_arg("a", a.bytes), pto::as::testing::array_arg("b", b.bytes),
         pto::as::testing::array_arg("mask", mask_bits.bytes), pto::as::testing::array_arg("c", out.bytes),
         pto::as::testing::scalar_arg("s", s)},
        pto::as::testing::checked_run());
    ASSERT_TRUE(ran.ok()) << pto::as::testing::format_all(ran);

    using F = pto::Tile<pto::TileType::Vec, float, 8, 64, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;
    using H = pto::Tile<pto::TileType::Vec, half, 8, 64, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;
    using M = pto::Tile<pto::TileType::Vec, uint8_t, 8, 32, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;
    F ta(rows, cols), tb(rows, cols), sum(rows, cols), larger(rows, cols), quotient(rows, cols), exp(rows, cols), rem(rows, cols),
        tmp(rows, cols), picked(rows, cols), wide(rows, cols);
    H narrow(rows, cols);
    M mask(rows, mask_bits.cols);
    const auto load_array = [](const TileDesc& d, const Array& from) {
        for (int r = 0; r < from.rows; ++r)
            for (int c = 0; c < from.cols; ++c) store(d.data, d.offset(r, c), from.dtype, from.at(r, c));
        pto::runtime::mark_written(d.data, std::size_t(d.bytes()));
    };
    load_array(ta.desc(), a);
    load_array(tb.desc(), b);
    load_array(mask.desc(), mask_bits);
    pto::TADD(sum, ta, tb);
    pto::TMAX(larger, sum, tb);
    pto::TDIVS(quotient, s, larger);
    pto::TEXP<pto::ExpAlgorithm::HIGH_PRECISION>(exp, quotient);
    pto::TREM(rem, exp, ta, tmp);
    pto::TSEL(picked, mask, rem, ta, tmp);
    pto::TCVT(narrow, picked, pto::RoundMode::CAST_RINT);
    pto::TCVT(wide, narrow, pto::RoundMode::CAST_NONE);
    const Array expected = array_of(wide.desc());
    EXPECT_TRUE(out == expected) << describe_difference(expected, out);
}

}  // namespace
}  // namespace ewinstr::text
