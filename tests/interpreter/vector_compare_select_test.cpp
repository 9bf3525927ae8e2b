// Compare and select from PTO-AS: pto.vcmp / pto.vcmps in every mode on every lane type (the result a
// mask of the lanes' width, seen through a zero register stored under it), pto.vsel, and pto.vselr /
// pto.vselrv2 (lanes chosen by an index register), against plain reference loops; and the diagnostics
// of illegal forms.
#include "asm/printer.hpp"
#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

const char* const kModes[] = {"eq", "ne", "lt", "le", "gt", "ge"};

// IEEE comparisons (a NaN unequal to all, -0 == +0), or by the integers' signedness.
bool holds(const std::string& mode, const LaneType& t, uint64_t a, uint64_t b)
{
    auto cmp = [&](auto x, auto y) {
        if (mode == "eq") return x == y;
        if (mode == "ne") return !(x == y);
        if (mode == "lt") return x < y;
        if (mode == "le") return x <= y;
        if (mode == "gt") return x > y;
        return x >= y;
    };
    if (t.is_float) return cmp(float_of(t, a), float_of(t, b));
    if (t.is_signed) return cmp(int_of(t, a), int_of(t, b));
    return cmp(a, b);
}

// 64-bit lanes compare into a b32 mask whose lane pairs agree: lane i is seen in both.
bool observed(const std::vector<uint8_t>& out, const LaneType& t, int at, int lane) { return lane_bits(out.data() + at, t, lane) == 0; }
int mask_bytes(const LaneType& t) { return t.bytes == 8 ? 4 : t.bytes; }

// Lane i under a PAT_M3 seed made for t's width.
bool seeded(const LaneType& t, int i) { return m3(t.bytes == 8 ? 2 * i : i); }

TEST(VectorCompareSelect, VcmpInEveryModeOnEveryLaneType)
{
    uint32_t seed = 1300;
    for (const LaneType& t : all_lane_types()) {
        std::vector<uint8_t> in = lane_data(t, ++seed);
        // Register 1 repeats register 0's lane in every fourth lane, so that equal pairs occur.
        for (int i = 0; i < t.lanes(); i += 4) set_lane_bits(in.data() + 256, t, i, lane_bits(in.data(), t, i));
        std::string body = "    %m = pto.pset_" + t.mask_width() + " \"PAT_M3\" : " + t.mask() + "\n" +
                           "    %a = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                           "    %b_at = arith.constant " + std::to_string(t.lanes()) + " : index\n" +
                           "    %b = pto.vlds %in_" + t.name + "[%b_at] : " + t.ptr() + " -> " + t.vreg() + "\n";
        for (int k = 0; k < 6; ++k) {
            const std::string r = "%r" + std::to_string(k);
            body += "    " + r + " = pto.vcmp %a, %b, %m, \"" + kModes[k] + "\" : " + t.vreg() + ", " + t.vreg() + ", " + t.mask() + " -> " + t.mask() + "\n" +
                    observe(r, mask_bytes(t), 256 * k);
        }
        const std::vector<uint8_t> out = run_body(body, in);
        for (int k = 0; k < 6; ++k)
            for (int i = 0; i < t.lanes(); ++i) {
                const bool want = seeded(t, i) && holds(kModes[k], t, lane_bits(in.data(), t, i), lane_bits(in.data() + 256, t, i));
                ASSERT_EQ(observed(out, t, 256 * k, i), want) << t.name << " " << kModes[k] << " lane " << i;
            }
    }
}

TEST(VectorCompareSelect, VcmpsAgainstAScalarInEveryMode)
{
    uint32_t seed = 1400;
    for (const LaneType& t : all_lane_types()) {
        std::vector<uint8_t> in = lane_data(t, ++seed);
        // A scalar argument passes through a double: lane 6 of 64-bit lanes holds one that fits.
        if (!t.is_float && t.bytes == 8) set_lane_bits(in.data(), t, 6, 123456789);
        // An f16 / bf16 scalar argument cannot be NaN or infinite (see vector_scalar_test).
        if (t.is_float && t.dtype != engine::DType::F32 && !std::isfinite(float_of(t, lane_bits(in.data(), t, 6))))
            set_lane_bits(in.data(), t, 6, float_bits(t, 1.0));
        // Scalars: a lane's own value (so equality occurs), and for floats the special values.
        std::vector<uint64_t> scalars = {lane_bits(in.data(), t, 6)};
        if (t.is_float)
            for (double s : {0.0, -0.0, std::nan(""), std::numeric_limits<double>::infinity()})
                if (t.dtype == engine::DType::F32 || std::isfinite(s)) scalars.push_back(float_bits(t, s));  // as in vector_scalar_test
        for (uint64_t s : scalars) {
            const double value = t.is_float ? float_of(t, s) : double(int_of(t, s));
            std::string body = "    %m = pto.pset_" + t.mask_width() + " \"PAT_M3\" : " + t.mask() + "\n" +
                               "    %a = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n";
            for (int k = 0; k < 6; ++k) {
                const std::string r = "%r" + std::to_string(k);
                body += "    " + r + " = pto.vcmps %a, %s, %m, \"" + kModes[k] + "\" : " + t.vreg() + ", " + t.scalar() + ", " + t.mask() + " -> " + t.mask() + "\n" +
                        observe(r, mask_bytes(t), 256 * k);
            }
            const uint64_t bits = s;
            const std::vector<uint8_t> out = run_body(body, in, ", %s: " + t.scalar(), {scalar_arg("s", value)});
            for (int k = 0; k < 6; ++k)
                for (int i = 0; i < t.lanes(); ++i) {
                    const bool want = seeded(t, i) && holds(kModes[k], t, lane_bits(in.data(), t, i), bits);
                    ASSERT_EQ(observed(out, t, 256 * k, i), want) << t.name << " " << kModes[k] << " scalar " << value << " lane " << i;
                }
        }
    }
}

TEST(VectorCompareSelect, VselTakesTheFirstRegisterOnActiveLanesAndTheSecondElsewhere)
{
    uint32_t seed = 1500;
    for (const LaneType& t : all_lane_types()) {
        const std::vector<uint8_t> in = lane_data(t, ++seed);
        const std::string body = "    %m = pto.pset_" + t.mask_width() + " \"PAT_M3\" : " + t.mask() + "\n" +
                                 "    %a = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                                 "    %b_at = arith.constant " + std::to_string(t.lanes()) + " : index\n" +
                                 "    %b = pto.vlds %in_" + t.name + "[%b_at] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                                 "    %r = pto.vsel %a, %b, %m : " + t.vreg() + ", " + t.vreg() + ", " + t.mask() + " -> " + t.vreg() + "\n" +
                                 "    pto.vsts %r, %out_" + t.name + "[%c0], %all_" + t.mask_width() + " : " + t.vreg() + ", " + t.ptr() + ", " + t.mask() + "\n";
        const std::vector<uint8_t> out = run_body(body, in);
        for (int i = 0; i < t.lanes(); ++i)
            ASSERT_EQ(lane_bits(out.data(), t, i), lane_bits(in.data() + (seeded(t, i) ? 0 : 256), t, i)) << t.name << " lane " << i;
    }
}

TEST(VectorCompareSelect, VselrTakesEachLaneAtItsIndexModuloTheLanes)
{
    uint32_t seed = 1600;
    for (const char* op : {"vselr", "vselrv2"})
        for (const LaneType& t : all_lane_types()) {
            const std::vector<uint8_t> in = lane_data(t, ++seed);
            const std::string index_type = "ui" + std::to_string(8 * t.bytes);
            const std::string index_reg = "!pto.vreg<" + std::to_string(t.lanes()) + "x" + index_type + ">";
            const std::string body = "    %a = pto.vlds %in_" + t.name + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                                     "    %i = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + index_reg + "\n" +
                                     "    %r = pto." + op + " %a, %i : " + t.vreg() + ", " + index_reg + " -> " + t.vreg() + "\n" +
                                     "    pto.vsts %r, %out_" + t.name + "[%c0], %all_" + t.mask_width() + " : " + t.vreg() + ", " + t.ptr() + ", " + t.mask() + "\n";
            const std::vector<uint8_t> out = run_body(body, in);
            for (int i = 0; i < t.lanes(); ++i) {
                const uint64_t index = lane_bits(in.data() + 256, t, i) % uint64_t(t.lanes());
                ASSERT_EQ(lane_bits(out.data(), t, i), lane_bits(in.data(), t, int(index))) << op << " " << t.name << " lane " << i;
            }
        }
}

TEST(VectorCompareSelect, TheModeWrittenAfterTheOperandsPrintsBackThere)
{
    const std::string body = "    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                             "    %r = pto.vcmp %a, %a, %all_b32, \"le\" : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.mask<b32>\n"
                             "    %p = pto.ppack %r, \"HIGHER\" : !pto.mask<b32> -> !pto.mask<b16>\n";
    const ParseResult parsed = parse_ok(program(body));
    const std::string text = print(parsed.module);
    EXPECT_NE(text.find("pto.vcmp %a, %a, %all_b32, \"le\" :"), std::string::npos) << text;
    EXPECT_NE(text.find("pto.ppack %r, \"HIGHER\" :"), std::string::npos) << text;
    EXPECT_EQ(print(parse_ok(text).module), text);
    // In the DPS form the tokens lead.
    const std::string dps = print(parsed.module, Form::DPS);
    EXPECT_EQ(print(parse_ok(dps).module, Form::DPS), dps);
}

TEST(VectorCompareSelect, IllegalFormsAreRefusedWithTheirCodes)
{
    const std::string load = "    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n";
    auto vcmp = [&](const std::string& mode, const std::string& result_mask) {
        return load + "    %r = pto.vcmp %a, %a, %all_b32" + mode + " : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> " + result_mask + "\n";
    };
    EXPECT_TRUE(has_code(static_codes(vcmp(", \"lte\"", "!pto.mask<b32>")), "LEGAL_VCMP_MODE"));
    EXPECT_TRUE(has_code(static_codes(vcmp("", "!pto.mask<b32>")), "LEGAL_VCMP_MODE"));
    EXPECT_TRUE(has_code(static_codes(vcmp(", \"lt\"", "!pto.mask<b16>")), "LEGAL_VECTOR_MASK_WIDTH"));
    EXPECT_TRUE(static_codes(vcmp(", \"lt\"", "!pto.mask<b32>")).empty());
    EXPECT_TRUE(has_code(static_codes(load + "    %r = pto.vcmps %a, %s, %all_b32, \"gt\" : !pto.vreg<64xf32>, f16, !pto.mask<b32> -> !pto.mask<b32>\n", ", %s: f16"),
                         "LEGAL_VECTOR_SCALAR_TYPE"));
    EXPECT_TRUE(has_code(static_codes(load + "    %r = pto.vselr %a, %a : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n"),
                         "LEGAL_VECTOR_INDEX_TYPE"));
    EXPECT_TRUE(has_code(static_codes(load + "    %i = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> !pto.vreg<128xui16>\n" +
                                      "    %r = pto.vselr %a, %i : !pto.vreg<64xf32>, !pto.vreg<128xui16> -> !pto.vreg<64xf32>\n"),
                         "LEGAL_VECTOR_INDEX_TYPE"));
    EXPECT_TRUE(has_code(static_codes(load + "    %b = pto.vlds %in_f16[%c0] : !pto.ptr<f16, ub> -> !pto.vreg<128xf16>\n" +
                                      "    %r = pto.vsel %a, %b, %all_b32 : !pto.vreg<64xf32>, !pto.vreg<128xf16>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"),
                         "STRUCT_OPERAND_KIND"));
}

}  // namespace
}  // namespace pto::as::testing
