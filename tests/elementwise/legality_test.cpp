// The rules of the element-wise arithmetic: the per-target element-type tables against the documented
// lists, the compile-time predicates, and every illegal case through the engine with its diagnostic.
#include "support.hpp"

using namespace pto;
using namespace ewtest;
using profile::Target;

namespace {

using enum DType;

// The documented lists, per instruction and target (the union over the page versions and the
// backend's own type check), written out independently of rules_elementwise.hpp.
std::vector<DType> documented(Arith op, Target target)
{
    const bool a5 = target == Target::A5;
    switch (op) {
        case Arith::Add:
            return a5 ? std::vector<DType>{F32, F16, BF16, I32, U32, I16, U16, I8, U8, I64, U64}
                      : std::vector<DType>{F32, F16, I32, I16};
        case Arith::Sub:
        case Arith::Mul:
            return a5 ? std::vector<DType>{F32, F16, BF16, I32, U32, I16, U16, I8, U8}
                      : std::vector<DType>{F32, F16, I32, I16};
        case Arith::Div:
            return a5 ? std::vector<DType>{F32, F16, I32, U32, I16, U16, I64, U64} : std::vector<DType>{F32, F16};
    }
    return {};
}

bool rule(Arith op, const profile::Profile& p, DType t)
{
    switch (op) {
        case Arith::Add: return rules::tadd_dtype_ok(p, t);
        case Arith::Sub: return rules::tsub_dtype_ok(p, t);
        case Arith::Mul: return rules::tmul_dtype_ok(p, t);
        case Arith::Div: return rules::tdiv_dtype_ok(p, t);
    }
    return false;
}

std::string code_of(Arith op) { return std::string("LEGAL_") + op_name(op) + "_DTYPE"; }

// A valid 4x8 Vec tile of type t over `storage` (zero-filled bytes are fine for the rule checks).
TileDesc tile(std::vector<uint64_t>& storage, DType t, int valid_rows = 4, int valid_cols = 8)
{
    storage.assign(4 * 8, 0x0101010101010101ull);  // 8 bytes per element at most; never a zero divisor
    TileDesc d;
    d.data = reinterpret_cast<std::byte*>(storage.data());
    d.dtype = t;
    d.rows = 4;
    d.cols = 8;
    d.valid_rows = valid_rows;
    d.valid_cols = valid_cols;
    return d;
}

}  // namespace

TEST(ElementwiseRules, DTypeTablesMatchTheDocumentedLists)
{
    for (Arith op : kOps) {
        for (Target target : {Target::A2A3, Target::A5, Target::Cpu}) {
            const profile::Profile& p = profile::profile_of(target);
            for (int i = 0; i < engine::kDTypeCount; ++i) {
                const auto t = static_cast<DType>(i);
                bool expected;
                if (target == Target::Cpu) {
                    const auto a2 = documented(op, Target::A2A3), a5 = documented(op, Target::A5);
                    // The union, and what only the cpu profile takes (its CPU_DTYPES): bf16 division.
                    expected = std::count(a2.begin(), a2.end(), t) + std::count(a5.begin(), a5.end(), t) > 0 ||
                               (op == Arith::Div && t == BF16);
                    EXPECT_EQ(expected, cpu_allows(op, t)) << op_name(op) << " " << engine::dtype_name(t);
                } else {
                    const auto list = documented(op, target);
                    expected = std::count(list.begin(), list.end(), t) > 0;
                }
                EXPECT_EQ(rule(op, p, t), expected) << op_name(op) << " " << engine::dtype_name(t) << " on " << p.name;
            }
        }
    }
}

TEST(ElementwiseRules, CompileTimePredicates)
{
    static_assert(rules::tadd_dtype_ok(profile::kA5, BF16) && !rules::tadd_dtype_ok(profile::kA2A3, BF16));
    static_assert(rules::tadd_dtype_ok(profile::kCpu, I8) && !rules::tadd_dtype_ok(profile::kA2A3, I8));
    static_assert(!rules::tadd_dtype_ok(profile::kCpu, F8E4M3));
    static_assert(!rules::tsub_dtype_ok(profile::kA5, I64) && !rules::tmul_dtype_ok(profile::kCpu, U64));
    static_assert(rules::tdiv_dtype_ok(profile::kA5, I32) && !rules::tdiv_dtype_ok(profile::kA2A3, I32));
    static_assert(rules::tdiv_dtype_ok(profile::kCpu, BF16) && !rules::tdiv_dtype_ok(profile::kA5, BF16));
    static_assert(!rules::tdivs_dtype_ok(profile::kCpu, BF16) && !rules::tdiv_dtype_ok(profile::kCpu, I8));
    static_assert(rules::elementwise_same_dtype(F16, F16) && !rules::elementwise_same_dtype(F16, BF16));
    static_assert(rules::elementwise_location_ok(TileType::Vec) && !rules::elementwise_location_ok(TileType::Mat));
    static_assert(rules::elementwise_layout_ok(profile::kCpu, BLayout::ColMajor, SLayout::RowMajor));
    static_assert(rules::elementwise_layout_ok(profile::kA5, BLayout::RowMajor, SLayout::NoneBox));
    static_assert(!rules::elementwise_layout_ok(profile::kA5, BLayout::ColMajor, SLayout::NoneBox));
    static_assert(!rules::elementwise_layout_ok(profile::kA2A3, BLayout::RowMajor, SLayout::ColMajor));
    static_assert(rules::elementwise_valid_extent_ok(DYNAMIC, 3) && rules::elementwise_valid_extent_ok(3, DYNAMIC));
    static_assert(rules::elementwise_valid_extent_ok(3, 3) && !rules::elementwise_valid_extent_ok(3, 4));
    SUCCEED();
}

TEST(ElementwiseRules, DTypeNotAllowedOnTheActiveProfileIsReported)
{
    struct Case {
        Arith op;
        Target target;
        DType t;
    };
    const Case cases[] = {
        {Arith::Add, Target::A2A3, I8}, {Arith::Add, Target::A2A3, BF16}, {Arith::Add, Target::Cpu, F8E4M3},
        {Arith::Sub, Target::A2A3, U16}, {Arith::Sub, Target::Cpu, I64}, {Arith::Mul, Target::A2A3, U32},
        {Arith::Mul, Target::A5, U64},   {Arith::Div, Target::A2A3, I32}, {Arith::Div, Target::A5, BF16},
        {Arith::Div, Target::Cpu, U8},
    };
    for (const Case& k : cases) {
        ScopedTarget target(k.target);
        std::vector<uint64_t> m0, m1, m2;
        const TileDesc dst = tile(m0, k.t), a = tile(m1, k.t), b = tile(m2, k.t);
        const std::vector<uint64_t> before = m0;
        const Diagnostic d = diagnostic_of([&] { run_engine(k.op, dst, a, b); });
        const std::string what = std::string(op_name(k.op)) + " " + std::string(engine::dtype_name(k.t)) + " on " +
                                 std::string(profile::profile_of(k.target).name);
        EXPECT_EQ(d.code, code_of(k.op)) << what;
        EXPECT_EQ(d.instruction, op_name(k.op)) << what;
        EXPECT_EQ(d.actual, engine::dtype_name(k.t)) << what;
        EXPECT_NE(d.message.find(std::string(engine::dtype_name(k.t))), std::string::npos) << d.message;
        EXPECT_NE(d.message.find(std::string(profile::profile_of(k.target).name)), std::string::npos) << d.message;
        EXPECT_NE(d.expected.find("f32"), std::string::npos) << d.expected;
        EXPECT_EQ(m0, before) << what << ": dst written despite the error";
    }
    // The same element types are fine where the tables allow them.
    ScopedTarget a5(Target::A5);
    std::vector<uint64_t> m0, m1, m2;
    EXPECT_EQ(diagnostic_of([&] { engine::tadd(tile(m0, I8), tile(m1, I8), tile(m2, I8)); }).code, "no error");
    EXPECT_EQ(diagnostic_of([&] { engine::tdiv(tile(m0, I32), tile(m1, I32), tile(m2, I32)); }).code, "no error");
}

TEST(ElementwiseRules, SourceOfAnotherElementTypeIsReported)
{
    std::vector<uint64_t> m0, m1, m2;
    const Diagnostic d = diagnostic_of([&] { engine::tsub(tile(m0, F32), tile(m1, F32), tile(m2, F16)); });
    EXPECT_EQ(d.code, "LEGAL_ELEMWISE_DTYPE");
    EXPECT_EQ(d.instruction, "TSUB");
    EXPECT_EQ(d.operand, "src1");
    EXPECT_EQ(d.expected, "f32");
    EXPECT_EQ(d.actual, "f16");
    const Diagnostic d0 = diagnostic_of([&] { engine::tmul(tile(m0, I16), tile(m1, U16), tile(m2, I16)); });
    EXPECT_EQ(d0.code, "LEGAL_ELEMWISE_DTYPE");
    EXPECT_EQ(d0.operand, "src0");
}

TEST(ElementwiseRules, TileOutsideUbIsReported)
{
    for (TileType loc : {TileType::Mat, TileType::Acc, TileType::Left}) {
        std::vector<uint64_t> m0, m1, m2;
        TileDesc dst = tile(m0, F32), a = tile(m1, F32), b = tile(m2, F32);
        a.loc = loc;
        const Diagnostic d = diagnostic_of([&] { engine::tadd(dst, a, b); });
        EXPECT_EQ(d.code, "LEGAL_ELEMWISE_LOCATION");
        EXPECT_EQ(d.operand, "src0");
        EXPECT_EQ(d.expected, "a Vec tile (UB)");
        EXPECT_NE(d.actual.find(profile::memory_name(loc)), std::string::npos) << d.actual;
    }
}

TEST(ElementwiseRules, LayoutOtherThanRowMajorIsReportedOnRealTargetsOnly)
{
    for (Layout2 layout : {kColMajor, kNz, kZn}) {
        std::vector<uint64_t> m0, m1, m2;
        TileDesc dst = tile(m0, F16), a = tile(m1, F16), b = tile(m2, F16);
        dst.blayout = layout.b;
        dst.slayout = layout.s;
        dst.rows = dst.cols = 16;  // whole boxes (the storage is large enough: 16x16 halves = 512 bytes)
        dst.valid_rows = a.valid_rows;
        dst.valid_cols = a.valid_cols;
        EXPECT_EQ(diagnostic_of([&] { engine::tadd(dst, a, b); }).code, "no error") << layout_label(layout);
        for (Target target : {Target::A2A3, Target::A5}) {
            ScopedTarget scoped(target);
            const Diagnostic d = diagnostic_of([&] { engine::tadd(dst, a, b); });
            EXPECT_EQ(d.code, "LEGAL_ELEMWISE_LAYOUT") << layout_label(layout);
            EXPECT_EQ(d.operand, "dst");
            EXPECT_EQ(d.expected, "row-major, unboxed");
            EXPECT_EQ(d.actual, layout_label(layout) == "col-major" ? "col-major"
                                : layout.s == SLayout::RowMajor ? "col-major with row-major boxes"
                                                                : "row-major with col-major boxes");
        }
    }
}

TEST(ElementwiseRules, ValidShapeOtherThanDstsIsReported)
{
    for (Arith op : kOps) {
        std::vector<uint64_t> m0, m1, m2;
        const Diagnostic d =
            diagnostic_of([&] { run_engine(op, tile(m0, F32, 4, 8), tile(m1, F32, 4, 8), tile(m2, F32, 4, 7)); });
        EXPECT_EQ(d.code, "RUN_VALID_SHAPE") << op_name(op);
        EXPECT_EQ(d.operand, "src1");
        EXPECT_EQ(d.expected, "4x8");
        EXPECT_EQ(d.actual, "4x7");
        EXPECT_NE(d.message.find("valid shape"), std::string::npos);
        const Diagnostic d0 =
            diagnostic_of([&] { run_engine(op, tile(m0, F32, 3, 8), tile(m1, F32, 4, 8), tile(m2, F32, 3, 8)); });
        EXPECT_EQ(d0.code, "RUN_VALID_SHAPE");
        EXPECT_EQ(d0.operand, "src0");
    }
}

TEST(ElementwiseRules, ValidRegionBeyondTheCapacityIsReported)
{
    std::vector<uint64_t> m0, m1, m2;
    TileDesc dst = tile(m0, F32), a = tile(m1, F32), b = tile(m2, F32);
    dst.valid_cols = a.valid_cols = b.valid_cols = 9;
    const Diagnostic d = diagnostic_of([&] { engine::tadd(dst, a, b); });
    EXPECT_EQ(d.code, "RUN_VALID_SHAPE");
    EXPECT_EQ(d.operand, "dst");
    EXPECT_EQ(d.expected, "at most 4x8");
    EXPECT_EQ(d.actual, "4x9");
}

TEST(ElementwiseRules, CheckedModeReportsASourceNothingWrote)
{
    ScopedChecked checked(true);
    using TileT = Tile<TileType::Vec, int32_t, 4, 64>;
    TileT a, b, c;
    TASSIGN(a, 0x0);
    TASSIGN(b, 0x400);
    TASSIGN(c, 0x800);
    fill_tile(b, std::vector<int32_t>(TileT::Numel, 3));
    const Diagnostic d = diagnostic_of([&] { TMUL(c, a, b); });
    EXPECT_EQ(d.code, "RUN_UNINIT_READ");
    EXPECT_EQ(d.instruction, "TMUL");
    EXPECT_EQ(d.operand, "src0");
    fill_tile(a, std::vector<int32_t>(TileT::Numel, 5));
    EXPECT_EQ(diagnostic_of([&] { TMUL(c, a, b); }).code, "no error");
    // What TMUL wrote is readable by the next instruction.
    EXPECT_EQ(diagnostic_of([&] { TSUB(a, c, b); }).code, "no error");
    EXPECT_EQ(a.GetValue(100), 12);
}
