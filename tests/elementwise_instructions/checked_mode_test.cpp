// Checked mode (runtime::set_checked, as PTO_CHECK=1 sets it): every row stops with RUN_UNINIT_READ at a
// source element of the valid region that nothing wrote, naming the instruction, the operand and the
// element, and reads nothing outside the valid region; the comparisons and selections likewise; integer
// division and remainder by zero stop with RUN_DIV_BY_ZERO.
#include <gtest/gtest.h>

#include "elementwise_instructions/rows.hpp"
#include "elementwise_instructions/text_programs.hpp"
#include "support/test_support.hpp"

namespace ewinstr {
namespace {

using pto::test::diagnostic_of;
using pto::test::mentions;

class CheckedMode : public ::testing::Test {
    pto::test::ScopedChecked checked_{true};
};

constexpr int kTileRows = 4, kTileCols = 64;
constexpr int kValidRows = 3, kValidCols = 40;

template <typename T>
using CheckedTile = pto::Tile<pto::TileType::Vec, T, kTileRows, kTileCols, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;

// Every element of the tile written (the value 1), except element (r, c) when asked.
void write_all_but(const TileDesc& t, int r = -1, int c = -1)
{
    for (int64_t e = 0; e < t.elements(); ++e) store(t.data, e, t.dtype, is_float(t.dtype) ? round_to(t.dtype, 1.0) : 1);
    const std::size_t element = std::size_t(width(t.dtype) / 8);
    if (r < 0) return pto::runtime::mark_written(t.data, std::size_t(t.bytes()));
    const std::size_t hole = std::size_t(t.offset(r, c)) * element;
    pto::runtime::mark_written(t.data, hole);
    pto::runtime::mark_written(t.data + hole + element, std::size_t(t.bytes()) - hole - element);
}

// The names the rows of each Kind give their source tiles.
std::vector<std::string> source_names(Kind k)
{
    switch (k) {
        case Kind::Binary: case Kind::BinaryTmp: return {"src0", "src1"};
        case Kind::Pow: return {"base", "exp"};
        case Kind::PowScalar: return {"base"};
        default: return {"src"};
    }
}

// The row on T tiles with one source element of the valid region never written: RUN_UNINIT_READ at that
// element of that operand. The same hole outside the valid region is never read.
template <Kind K, typename T, typename Intrinsic>
void check_uninitialised_sources(const Row& row, Intrinsic intrinsic)
{
    const std::vector<std::string> names = source_names(K);
    const T scalar = element_of<T>(1);  // nonzero, a divisor too
    for (std::size_t operand = 0; operand < names.size(); ++operand) {
        for (const bool inside : {true, false}) {
            CheckedTile<T> dst(kValidRows, kValidCols), src0(kValidRows, kValidCols), src1(kValidRows, kValidCols),
                tmp(kValidRows, kValidCols);
            const int r = inside ? 2 : 3, c = inside ? 17 : 50;
            write_all_but(src0.desc(), operand == 0 ? r : -1, c);
            write_all_but(src1.desc(), operand == 1 ? r : -1, c);
            const pto::Diagnostic d = diagnostic_of([&] { call_intrinsic<K>(intrinsic, dst, src0, src1, tmp, scalar); });
            const std::string what = std::string(row.name) + " " + names[operand] + (inside ? " inside" : " outside") + " the valid region";
            if (!inside) {
                EXPECT_EQ(d.code, "no error") << what << ": " << d.format();
                continue;
            }
            EXPECT_EQ(d.code, "RUN_UNINIT_READ") << what << ": " << d.format();
            EXPECT_EQ(d.instruction, row.name) << what;
            EXPECT_EQ(d.operand, names[operand]) << what << ": " << d.format();
            EXPECT_TRUE(mentions(d, "(2, 17)")) << what << ": " << d.format();
        }
    }
}

// The row on the first element type the cpu profile takes for it, at its default precision.
template <Kind K, auto DTypeOk, typename Intrinsic>
void check_row(const Row& row, Intrinsic intrinsic)
{
    bool done = false;
    for_each_type(ElementTypes{}, [&]<typename T>() {
        if constexpr (DTypeOk(pto::profile::kProfile, pto::engine::dtype_of<T>)) {
            if (done) return;
            done = true;
            check_uninitialised_sources<K, T>(row, intrinsic);
        }
    });
}

// The row on every element type the cpu profile takes for it, every source written: an element type
// neither real target takes (the row's CPU_DTYPES) runs and warns WARN_CPU_ONLY once, naming the row's
// dtype rule; any other warns nothing. Returns how many types warned.
template <Kind K, auto DTypeOk, typename Intrinsic>
int check_cpu_only_types(const Row& row, Intrinsic intrinsic)
{
    int warned = 0;
    for_each_type(ElementTypes{}, [&]<typename T>() {
        constexpr DType t = pto::engine::dtype_of<T>;
        if constexpr (DTypeOk(pto::profile::kProfile, t)) {
            const bool cpu_only = !DTypeOk(pto::profile::kA2A3, t) && !DTypeOk(pto::profile::kA5, t);
            CheckedTile<T> dst(kValidRows, kValidCols), src0(kValidRows, kValidCols), src1(kValidRows, kValidCols),
                tmp(kValidRows, kValidCols);
            write_all_but(src0.desc());
            write_all_but(src1.desc());
            const std::string what = std::string(row.name) + " " + std::string(pto::engine::dtype_name(t));
            pto::runtime::clear_warnings();
            const pto::Diagnostic d = diagnostic_of([&] { call_intrinsic<K>(intrinsic, dst, src0, src1, tmp, element_of<T>(1)); });
            EXPECT_EQ(d.code, "no error") << what << ": " << d.format();
            const auto& warnings = pto::runtime::warnings();
            if (!cpu_only) {
                EXPECT_TRUE(warnings.empty()) << what << ": " << (warnings.empty() ? "" : warnings[0].format("warning"));
            } else if (warnings.size() != 1) {
                ADD_FAILURE() << what << ": " << warnings.size() << " warnings, expected WARN_CPU_ONLY";
            } else {
                ++warned;
                EXPECT_EQ(warnings[0].code, "WARN_CPU_ONLY") << what;
                EXPECT_EQ(warnings[0].instruction, row.name) << what;
                EXPECT_TRUE(mentions(warnings[0], "LEGAL_" + std::string(row.name) + "_DTYPE")) << warnings[0].format("warning");
            }
            pto::runtime::clear_warnings();
        }
    });
    return warned;
}

}  // namespace

TEST_F(CheckedMode, AnElementTypeOnlyTheCpuProfileTakesWarnsCpuOnly)
{
    int expected = 0;
    for (const Row& row : kRows)
        for (DType t : kElementTypes)
            expected += row.dtype_ok(pto::profile::kCpu, t) && !row.dtype_ok(pto::profile::kA2A3, t) &&
                        !row.dtype_ok(pto::profile::kA5, t);
    int warned = 0;
#define PTO_ELEMENTWISE(NAME, entry, OpName, KindName, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    EWINSTR_COVERED_##KindName(warned += check_cpu_only_types<Kind::KindName, &pto::rules::entry##_dtype_ok>( \
                                   row_named(#NAME), EWINSTR_INTRINSIC(NAME));)
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
    EXPECT_EQ(warned, expected);
    EXPECT_GE(expected, 24);  // the math rows' bf16, i16, i32; TPRELU, TLRELU, TRELU; TMULS' 8-bit types
}

TEST_F(CheckedMode, EveryRowReportsTheSourceElementNothingWrote)
{
#define PTO_ELEMENTWISE(NAME, entry, OpName, KindName, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    EWINSTR_COVERED_##KindName(check_row<Kind::KindName, &pto::rules::entry##_dtype_ok>(row_named(#NAME), EWINSTR_INTRINSIC(NAME));)
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
}

TEST_F(CheckedMode, ComparisonAndSelectionReportTheOperandNothingWrote)
{
    CheckedTile<float> a(kValidRows, kValidCols), b(kValidRows, kValidCols), dst(kValidRows, kValidCols), tmp(kValidRows, kValidCols);
    pto::Tile<pto::TileType::Vec, uint8_t, kTileRows, 32, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC> mask(kValidRows, 5);
    write_all_but(a.desc());
    write_all_but(b.desc(), 1, 39);
    pto::Diagnostic d = diagnostic_of([&] { pto::TCMP(mask, a, b, pto::CmpMode::LE); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.instruction, "TCMP");
    EXPECT_EQ(d.operand, "src1");
    write_all_but(b.desc());
    d = diagnostic_of([&] { pto::TSEL(dst, mask, a, b, tmp); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.operand, "mask") << d.format();
    EXPECT_EQ(diagnostic_of([&] { pto::TCMPS(mask, a, 0.5f, pto::CmpMode::LE); }).code, "no error");
    EXPECT_EQ(diagnostic_of([&] { pto::TSELS(dst, mask, a, tmp, 2.0f); }).code, "no error");
}

TEST_F(CheckedMode, TheTextDoorReportsATileNothingLoadedAtItsOperation)
{
    using namespace text;
    const TileShape shape{DType::F32, 5, 19};
    const std::string body = "  %never = pto.alloc_tile : " + tile_type(shape) + "\n" +
                             instruction(Spelling::Ssa, "tmul", {tile("%a_tile", shape), tile("%never", shape)}, tile("%result", shape));
    std::mt19937 rng(1);
    std::vector<Input> inputs{{"a", random_array(DType::F32, 5, 19, rng)}};
    const std::string program = kernel_text(inputs, {}, shape, body);
    const pto::as::ParseResult parsed = pto::as::testing::parse_ok(program);
    std::vector<std::byte> out(5 * 19 * 4);
    const pto::as::RunResult r = pto::as::run(
        parsed.module, {pto::as::testing::array_arg("a", inputs[0].data.bytes), pto::as::testing::array_arg("out", out)},
        pto::as::testing::checked_run());
    ASSERT_EQ(r.diagnostics.size(), 1u) << pto::as::testing::format_all(r);
    EXPECT_EQ(r.diagnostics[0].code, "RUN_UNINIT_READ");
    EXPECT_EQ(r.diagnostics[0].operand, "src1");
    // Located at the operation's name.
    const std::size_t at = program.find("pto.tmul");
    const auto line = 1 + std::count(program.begin(), program.begin() + std::ptrdiff_t(at), '\n');
    const std::size_t column = at - program.rfind('\n', at);
    EXPECT_EQ(r.diagnostics[0].location, "test.pto:" + std::to_string(line) + ":" + std::to_string(column));
}

TEST_F(CheckedMode, IntegerDivisionByZeroIsReported)
{
    CheckedTile<int32_t> dst(kValidRows, kValidCols), src(kValidRows, kValidCols), divisor(kValidRows, kValidCols),
        tmp(kValidRows, kValidCols);
    write_all_but(src.desc());
    write_all_but(divisor.desc());
    divisor.SetValue(uint32_t(divisor.desc().offset(2, 7)), 0);
    const auto expect_div_by_zero = [](const char* instruction, auto&& call) {
        const pto::Diagnostic d = diagnostic_of(call);
        EXPECT_EQ(d.code, "RUN_DIV_BY_ZERO") << instruction << ": " << d.format();
        EXPECT_EQ(d.instruction, instruction) << d.format();
    };
    expect_div_by_zero("TDIV", [&] { pto::TDIV(dst, src, divisor); });
    expect_div_by_zero("TREM", [&] { pto::TREM(dst, src, divisor, tmp); });
    expect_div_by_zero("TFMOD", [&] { pto::TFMOD(dst, src, divisor); });
    expect_div_by_zero("TDIVS", [&] { pto::TDIVS(dst, src, 0); });
    expect_div_by_zero("TDIVS", [&] { pto::TDIVS(dst, 5, divisor); });
    expect_div_by_zero("TREMS", [&] { pto::TREMS(dst, src, 0, tmp); });
    expect_div_by_zero("TFMODS", [&] { pto::TFMODS(dst, src, 0); });
    expect_div_by_zero("TRECIP", [&] { pto::TRECIP(dst, divisor); });  // the cpu profile's integer 1 / x
    EXPECT_EQ(diagnostic_of([&] { pto::TRECIP(dst, src); }).code, "no error");
    // Nothing to report without a zero divisor, nor for floats (x / 0 is an infinity or a NaN).
    EXPECT_EQ(diagnostic_of([&] { pto::TDIVS(dst, 5, src); }).code, "no error");
    CheckedTile<float> f(kValidRows, kValidCols), zeros(kValidRows, kValidCols);
    write_all_but(f.desc());
    for (int i = 0; i < kTileRows * kTileCols; ++i) zeros.SetValue(uint32_t(i), 0.0f);
    EXPECT_EQ(diagnostic_of([&] { pto::TDIV(f, f, zeros); }).code, "no error");
    EXPECT_TRUE(std::isinf(f.GetValue(0)));
}

// RUN_DIV_BY_ZERO of a tile-scalar division names the divisor as the instruction does: the scalar of
// TDIVS(dst, src, 0), the tile of TDIVS(dst, scalar, src).
TEST_F(CheckedMode, DivisionByZeroNamesTheDivisorOperand)
{
    CheckedTile<int32_t> dst(kValidRows, kValidCols), src(kValidRows, kValidCols);
    write_all_but(src.desc());
    EXPECT_EQ(diagnostic_of([&] { pto::TDIVS(dst, src, 0); }).operand, "scalar");
    src.SetValue(3, 0);
    EXPECT_EQ(diagnostic_of([&] { pto::TDIVS(dst, 5, src); }).operand, "src");
}

}  // namespace ewinstr
