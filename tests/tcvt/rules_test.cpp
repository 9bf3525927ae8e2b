// TCVT's rules: the compile-time predicates the intrinsics static_assert, and every illegal case through
// the engine with its code, on each target, leaving dst untouched.
#include "support.hpp"

#include <pto/profile/rules_convert.hpp>

using namespace cvttest;
using pto::Diagnostic;
using pto::test::diagnostic_of;
using pto::test::ScopedTarget;
namespace profile = pto::profile;
namespace rules = pto::rules;

namespace {

using enum DType;

// A 4x64 tile of type t in `memory`, valid 4x64 values.
TileDesc tile(Memory& memory, DType t, int valid_rows = 4, int valid_values = 64)
{
    const int cols = 64;
    TileDesc d = tile_at(memory.take(std::size_t(4) * cols * 8), t, 4, cols, valid_rows, valid_values);
    std::memset(d.data, 0x11, std::size_t(4) * cols * 8);
    return d;
}

struct Findings final : pto::engine::LegalitySink {
    std::vector<Diagnostic> all;
    void report(Diagnostic d) override { all.push_back(std::move(d)); }
    bool has(const std::string& code, const std::string& operand) const
    {
        for (const Diagnostic& d : all) {
            if (d.code == code && d.operand == operand) return true;
        }
        return false;
    }
};

}  // namespace

TEST(TcvtRules, CompileTimePredicates)
{
    using profile::kA2A3;
    using profile::kA5;
    using profile::kCpu;
    static_assert(rules::tcvt_pair_ok(kA2A3, F16, I32) && !rules::tcvt_pair_ok(kA5, F16, I32));  // the deq path
    static_assert(rules::tcvt_pair_ok(kA2A3, I4, F16) && !rules::tcvt_pair_ok(kA5, I4, F16));
    static_assert(rules::tcvt_pair_ok(kA5, F8E4M3, F32) && !rules::tcvt_pair_ok(kA5, F8E4M3, F16));
    static_assert(rules::tcvt_pair_ok(kA5, F16, BF16) && !rules::tcvt_pair_ok(kA2A3, F16, BF16));
    static_assert(rules::tcvt_pair_ok(kCpu, F16, I32) && rules::tcvt_pair_ok(kCpu, F4E2M1x2, BF16));
    static_assert(rules::tcvt_pair_ok(kCpu, F32, I8) && rules::tcvt_pair_ok(kCpu, U64, F32));  // any pair on cpu
    static_assert(!rules::tcvt_pair_ok(kA5, F32, I8) && !rules::tcvt_pair_ok(kA2A3, U8, F32));
    static_assert(rules::tcvt_pair_ok(kCpu, F32, F32));  // the round-only form
    static_assert(rules::tcvt_location_ok(pto::TileType::Vec) && !rules::tcvt_location_ok(pto::TileType::Mat));
    static_assert(!rules::tcvt_location_ok(pto::TileType::Acc));
    static_assert(rules::tcvt_layout_ok(kCpu, pto::BLayout::ColMajor, pto::SLayout::RowMajor));
    static_assert(rules::tcvt_layout_ok(kA5, pto::BLayout::RowMajor, pto::SLayout::NoneBox));
    static_assert(!rules::tcvt_layout_ok(kA5, pto::BLayout::ColMajor, pto::SLayout::NoneBox));
    static_assert(!rules::tcvt_layout_ok(kA2A3, pto::BLayout::RowMajor, pto::SLayout::ColMajor));
    static_assert(rules::tcvt_valid_shape_ok(4, 8, 4, 8) && !rules::tcvt_valid_shape_ok(4, 8, 4, 7));
    static_assert(!rules::tcvt_valid_shape_ok(3, 8, 4, 8));
    static_assert(rules::tcvt_valid_shape_ok(pto::DYNAMIC, 8, 4, pto::DYNAMIC));
    SUCCEED();
}

TEST(TcvtRules, EveryPairTheTargetLacksIsReported)
{
    for (Target target : kTargets) {
        ScopedTarget scoped(target);
        const profile::Profile& p = profile::profile_of(target);
        for (int d = 0; d < pto::engine::kDTypeCount; ++d) {
            for (int s = 0; s < pto::engine::kDTypeCount; ++s) {
                Memory memory(8192);
                const TileDesc dst = tile(memory, DType(d)), src = tile(memory, DType(s));
                const std::vector<std::byte> before(dst.data, dst.data + 4 * 64);
                const Diagnostic found = diagnostic_of([&] { pto::engine::tcvt(dst, src, RoundMode::CAST_RINT, SaturationMode::ON); });
                const std::string what = describe(DType(d), DType(s), RoundMode::CAST_RINT, SaturationMode::ON) + " on " +
                                         std::string(p.name);
                if (target == Target::Cpu || pto::numeric::conversion_allowed_on(target, DType(d), DType(s))) {
                    EXPECT_EQ(found.code, "no error") << what;
                    continue;
                }
                EXPECT_EQ(found.code, "LEGAL_TCVT_PAIR") << what;
                EXPECT_EQ(found.instruction, "TCVT") << what;
                EXPECT_EQ(found.operand, "dst") << what;
                EXPECT_EQ(found.actual, std::string(pto::engine::dtype_name(DType(s))) + " -> " +
                                            std::string(pto::engine::dtype_name(DType(d))));
                EXPECT_TRUE(pto::test::mentions(found, std::string(p.name))) << found.message;
                EXPECT_EQ(std::vector<std::byte>(dst.data, dst.data + 4 * 64), before) << what << ": dst written";
            }
        }
    }
}

TEST(TcvtRules, TilesOutsideUbAreReported)
{
    for (Target target : kTargets) {
        ScopedTarget scoped(target);
        for (pto::TileType loc : {pto::TileType::Mat, pto::TileType::Acc, pto::TileType::Left}) {
            Memory memory(8192);
            TileDesc dst = tile(memory, F16), src = tile(memory, F32);
            src.loc = loc;
            Diagnostic d = diagnostic_of([&] { pto::engine::tcvt(dst, src, RoundMode::CAST_RINT, SaturationMode::ON); });
            EXPECT_EQ(d.code, "LEGAL_TCVT_LOCATION");
            EXPECT_EQ(d.operand, "src");
            EXPECT_EQ(d.expected, "a Vec tile (UB)");
            EXPECT_TRUE(pto::test::mentions(d, std::string(profile::memory_name(loc)))) << d.actual;
            src.loc = pto::TileType::Vec;
            dst.loc = loc;
            d = diagnostic_of([&] { pto::engine::tcvt(dst, src, RoundMode::CAST_RINT, SaturationMode::ON); });
            EXPECT_EQ(d.code, "LEGAL_TCVT_LOCATION");
            EXPECT_EQ(d.operand, "dst");
        }
    }
}

TEST(TcvtRules, LayoutsOtherThanRowMajorAreReportedOnRealTargetsOnly)
{
    for (Layout2 layout : {kColMajor, kNz, kZn}) {
        Memory memory(16384);
        TileDesc dst = tile_at(memory.take(16 * 64 * 2), F16, 16, 64, 4, 64, layout);
        const TileDesc src = tile_at(memory.take(16 * 64 * 4), F32, 16, 64, 4, 64);
        std::memset(src.data, 0, 16 * 64 * 4);
        EXPECT_EQ(diagnostic_of([&] { pto::engine::tcvt(dst, src, RoundMode::CAST_RINT, SaturationMode::ON); }).code,
                  "no error")
            << layout_label(layout);
        for (Target target : {Target::A2A3, Target::A5}) {
            ScopedTarget scoped(target);
            const Diagnostic d = diagnostic_of([&] { pto::engine::tcvt(dst, src, RoundMode::CAST_RINT, SaturationMode::ON); });
            EXPECT_EQ(d.code, "LEGAL_TCVT_LAYOUT") << layout_label(layout);
            EXPECT_EQ(d.operand, "dst");
            EXPECT_EQ(d.expected, "row-major, unboxed");
        }
    }
}

TEST(TcvtRules, ValidShapesThatDifferAreReported)
{
    Memory memory(65536);
    Diagnostic d = diagnostic_of([&] {
        pto::engine::tcvt(tile(memory, F16, 4, 64), tile(memory, F32, 4, 63), RoundMode::CAST_RINT, SaturationMode::ON);
    });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "src");
    EXPECT_EQ(d.expected, "4x64");
    EXPECT_EQ(d.actual, "4x63");
    d = diagnostic_of([&] {
        pto::engine::tcvt(tile(memory, F32, 3, 64), tile(memory, I32, 4, 64), RoundMode::CAST_RINT, SaturationMode::ON);
    });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    // fp4 counts values like every type: 32 bf16 columns do not fill 64 e2m1 ones.
    TileDesc fp4 = tile(memory, F4E2M1x2), bf16 = tile(memory, BF16);
    bf16.valid_cols = 32;
    d = diagnostic_of([&] { pto::engine::tcvt(fp4, bf16, RoundMode::CAST_RINT, SaturationMode::ON); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.expected, "4x64");
    EXPECT_EQ(d.actual, "4x32");
    // Beyond the capacity.
    TileDesc wide = tile(memory, F32);
    wide.valid_cols = 65;
    d = diagnostic_of([&] { pto::engine::tcvt(tile(memory, F16), wide, RoundMode::CAST_RINT, SaturationMode::ON); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "src");
    EXPECT_EQ(d.expected, "at most 4x64");
}

TEST(TcvtRules, TheVerifiersSinkHearsEveryBrokenRule)
{
    Memory memory(65536);
    TileDesc dst = tile_at(memory.take(16 * 64 * 2), F16, 16, 64, 4, 64, kNz), src = tile(memory, I64, 4, 60);
    src.loc = pto::TileType::Mat;
    Findings findings;
    pto::engine::check_tcvt(profile::kA5, dst, src, findings);
    EXPECT_TRUE(findings.has("LEGAL_TCVT_PAIR", "dst"));
    EXPECT_TRUE(findings.has("LEGAL_TCVT_LOCATION", "src"));
    EXPECT_TRUE(findings.has("LEGAL_TCVT_LAYOUT", "dst"));
    EXPECT_TRUE(findings.has("RUN_VALID_SHAPE", "src"));
    EXPECT_EQ(findings.all.size(), 4u);
    // Unknown (PTO-AS `?`) valid extents skip the shape rule.
    src.valid_cols = pto::engine::kUnknownExtent;
    Findings unknown;
    pto::engine::check_tcvt(profile::kA5, dst, src, unknown);
    EXPECT_FALSE(unknown.has("RUN_VALID_SHAPE", "src"));
}

// The cpu profile converts pairs no target's table has (the public CPU simulation's programs convert
// i8 to f32 and f32 to u8 and u16): by the same bit-exact rule, and checked mode says a real target
// would refuse.
TEST(TcvtRules, TheCpuProfileConvertsAnyPairAndWarnsInCheckedMode)
{
    std::mt19937_64 rng(41);
    const std::pair<DType, DType> off_table[] = {{F32, I8}, {U8, F32}, {U16, F32}, {I8, I64}, {F16, F16}};
    for (const auto& [dst_type, src_type] : off_table) {
        ASSERT_FALSE(pto::numeric::conversion_allowed(dst_type, src_type));
        Memory memory(8192);
        const TileDesc dst = tile(memory, dst_type), src = tile(memory, src_type);
        fill_random(src, rng);
        pto::runtime::clear_warnings();
        pto::test::ScopedChecked checked;
        run_and_check(memory, dst, src, RoundMode::CAST_RINT, SaturationMode::ON,
                      describe(dst_type, src_type, RoundMode::CAST_RINT, SaturationMode::ON));
        ASSERT_EQ(pto::runtime::warnings().size(), 1u);
        EXPECT_EQ(pto::runtime::warnings()[0].code, "WARN_CPU_ONLY");
        EXPECT_TRUE(pto::test::mentions(pto::runtime::warnings()[0], "LEGAL_TCVT_PAIR"));
        pto::runtime::clear_warnings();
    }
}
