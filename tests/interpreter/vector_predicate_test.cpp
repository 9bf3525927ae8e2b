// Predicate algebra and materialisation from PTO-AS: pto.pand / por / pxor / pnot / psel, pto.ppack /
// punpack, pto.pintlv_b* / pdintlv_b* on random masks of every width (made by pto.vcmps of random data,
// seen through a zero register stored under them), pto.vbr and pto.vdup on every lane type, against
// plain reference loops; and the diagnostics of illegal forms, static and at run time.
#include <functional>

#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

std::vector<uint8_t> random_bytes_for(int w, uint32_t seed)
{
    std::mt19937 gen(seed * 7 + uint32_t(w));
    std::vector<uint8_t> v(kBytes);
    for (auto& b : v) b = uint8_t(gen());
    return v;
}

// Random masks of `w`-byte lanes: %pa, %pb, %ps are "register k > 0" for the signed lanes of registers
// 0, 1, 2 of the data; %pc is PAT_M4.
struct RandomMasks {
    int w;
    std::vector<uint8_t> in;
    std::string type() const { return "!pto.mask<b" + std::to_string(8 * w) + ">"; }
    const LaneType& lanes() const { return all_lane_types()[w == 1 ? 3 : w == 2 ? 5 : 7]; }  // i8, i16, i32
    int count() const { return 256 / w; }
    bool lane(int reg, int i) const { return int_of(lanes(), lane_bits(in.data() + 256 * reg, lanes(), i)) > 0; }
    std::string body() const
    {
        const LaneType& t = lanes();
        std::string text = "    %zero_s = arith.constant 0 : " + t.scalar() + "\n" +
                           "    %pc = pto.pset_b" + std::to_string(8 * w) + " \"PAT_M4\" : " + type() + "\n";
        const char* names[] = {"%pa", "%pb", "%ps"};
        for (int k = 0; k < 3; ++k) {
            const std::string v = "%x" + std::to_string(k), at = "%xat" + std::to_string(k);
            text += "    " + at + " = arith.constant " + std::to_string(k * t.lanes()) + " : index\n" +
                    "    " + v + " = pto.vlds %in_" + t.name + "[" + at + "] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                    "    " + names[k] + " = pto.vcmps " + v + ", %zero_s, %all_b" + std::to_string(8 * w) + ", \"gt\" : " + t.vreg() + ", " +
                    t.scalar() + ", " + type() + " -> " + type() + "\n";
        }
        return text;
    }
};

TEST(VectorPredicate, LogicOnEveryWidthIgnoresTheMaskingPredicate)
{
    uint32_t seed = 2000;
    for (int w : {1, 2, 4}) {
        const RandomMasks m{w, random_bytes_for(w, ++seed)};
        const std::string ty = m.type();
        std::string body = m.body();
        body += "    %and = pto.pand %pa, %pb, %pc : " + ty + ", " + ty + ", " + ty + " -> " + ty + "\n" + observe("%and", w, 0);
        body += "    %or = pto.por %pa, %pb, %pc : " + ty + ", " + ty + ", " + ty + " -> " + ty + "\n" + observe("%or", w, 256);
        body += "    %xor = pto.pxor %pa, %pb, %pc : " + ty + ", " + ty + ", " + ty + " -> " + ty + "\n" + observe("%xor", w, 512);
        body += "    %not = pto.pnot %pa, %pc : " + ty + ", " + ty + " -> " + ty + "\n" + observe("%not", w, 768);
        body += "    %sel = pto.psel %pa, %pb, %ps, %pc : " + ty + ", " + ty + ", " + ty + ", " + ty + " -> " + ty + "\n" + observe("%sel", w, 1024);
        // The width left open (!pto.mask<G>) is the sources' at run time.
        body += std::string("    %open = pto.pand %pa, %pb, %pc : !pto.mask<G>, !pto.mask<G>, !pto.mask<G> -> !pto.mask<G>\n") +
                "    %open_w = pto.por %open, %open, %pc : !pto.mask<G>, !pto.mask<G>, !pto.mask<G> -> " + ty + "\n" + observe("%open_w", w, 1280);
        const std::vector<uint8_t> out = run_body(body, m.in);
        for (int i = 0; i < m.count(); ++i) {
            const bool a = m.lane(0, i), b = m.lane(1, i), s = m.lane(2, i);
            const std::string where = "b" + std::to_string(8 * w) + " lane " + std::to_string(i);
            ASSERT_EQ(observed(out, w, 0, i), a && b) << "pand " << where;
            ASSERT_EQ(observed(out, w, 256, i), a || b) << "por " << where;
            ASSERT_EQ(observed(out, w, 512, i), a != b) << "pxor " << where;
            ASSERT_EQ(observed(out, w, 768, i), !a) << "pnot " << where;
            ASSERT_EQ(observed(out, w, 1024, i), s ? a : b) << "psel " << where;
            ASSERT_EQ(observed(out, w, 1280, i), a && b) << "pand on !pto.mask<G> " << where;
        }
    }
}

TEST(VectorPredicate, PackAndUnpackMoveLanesBetweenWidths)
{
    uint32_t seed = 2100;
    for (int w : {1, 2, 4}) {
        const RandomMasks m{w, random_bytes_for(w, ++seed)};
        std::string body = m.body();
        const int n = m.count();
        if (w > 1) {  // ppack: b32 -> b16, b16 -> b8
            const std::string to = "!pto.mask<b" + std::to_string(4 * w) + ">";
            body += "    %lo = pto.ppack %pa, \"LOWER\" : " + m.type() + " -> " + to + "\n" + observe("%lo", w / 2, 0);
            body += "    %hi = pto.ppack %pa, \"HIGHER\" : " + m.type() + " -> " + to + "\n" + observe("%hi", w / 2, 256);
        }
        if (w < 4) {  // punpack: b8 -> b16, b16 -> b32
            const std::string to = "!pto.mask<b" + std::to_string(16 * w) + ">";
            body += "    %ulo = pto.punpack %pa, \"LOWER\" : " + m.type() + " -> " + to + "\n" + observe("%ulo", 2 * w, 512);
            body += "    %uhi = pto.punpack %pa, \"HIGHER\" : " + m.type() + " -> " + to + "\n" + observe("%uhi", 2 * w, 768);
        }
        const std::vector<uint8_t> out = run_body(body, m.in);
        if (w > 1)
            for (int i = 0; i < 2 * n; ++i) {
                ASSERT_EQ(observed(out, w / 2, 0, i), i < n && m.lane(0, i)) << "ppack LOWER b" << 8 * w << " lane " << i;
                ASSERT_EQ(observed(out, w / 2, 256, i), i >= n && m.lane(0, i - n)) << "ppack HIGHER b" << 8 * w << " lane " << i;
            }
        if (w < 4)
            for (int i = 0; i < n / 2; ++i) {
                ASSERT_EQ(observed(out, 2 * w, 512, i), m.lane(0, i)) << "punpack LOWER b" << 8 * w << " lane " << i;
                ASSERT_EQ(observed(out, 2 * w, 768, i), m.lane(0, n / 2 + i)) << "punpack HIGHER b" << 8 * w << " lane " << i;
            }
    }
}

TEST(VectorPredicate, InterleaveAndDeinterleavePairLanesOfTwoMasks)
{
    uint32_t seed = 2200;
    for (int w : {1, 2, 4}) {
        const RandomMasks m{w, random_bytes_for(w, ++seed)};
        const std::string ty = m.type(), b = "b" + std::to_string(8 * w);
        std::string body = m.body();
        body += "    %il, %ih = pto.pintlv_" + b + " %pa, %pb : " + ty + ", " + ty + " -> " + ty + ", " + ty + "\n" + observe("%il", w, 0) + observe("%ih", w, 256);
        body += "    %dl, %dh = pto.pdintlv_" + b + " %pa, %pb : " + ty + ", " + ty + " -> " + ty + ", " + ty + "\n" + observe("%dl", w, 512) + observe("%dh", w, 768);
        const std::vector<uint8_t> out = run_body(body, m.in);
        const int n = m.count();
        for (int k = 0; k < 2 * n; ++k) {
            // interleaved: a0 b0 a1 b1 ..., the first n lanes low, the rest high
            ASSERT_EQ(observed(out, w, k < n ? 0 : 256, k % n), m.lane(k % 2, k / 2)) << "pintlv_" << b << " lane " << k;
            // deinterleaved: the lanes of a then b, even ones low, odd ones high
            ASSERT_EQ(observed(out, w, k % 2 ? 768 : 512, k / 2), m.lane(k < n ? 0 : 1, k % n)) << "pdintlv_" << b << " lane " << k;
        }
    }
}

TEST(VectorPredicate, VbrAndVdupFillEveryLane)
{
    uint32_t seed = 2300;
    for (const LaneType& t : all_lane_types()) {
        const std::vector<uint8_t> in = lane_data(t, ++seed);
        // A scalar argument passes through a double: a 64-bit one is kept small.
        const uint64_t scalar = t.is_float ? float_bits(t, -0.0) : t.bytes == 8 ? 123456789 : lane_bits(in.data(), t, 3);
        const double value = t.is_float ? -0.0 : double(int_of(t, scalar));
        std::string body = "    %v = pto.vlds %in_" + std::string(t.name) + "[%c0] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                           "    %lo = pto.vdup %v {position = \"LOWEST\"} : " + t.vreg() + " -> " + t.vreg() + "\n" +
                           "    %hi = pto.vdup %v {position = \"HIGHEST\"} : " + t.vreg() + " -> " + t.vreg() + "\n" +
                           "    %ds = pto.vdup %s : " + t.scalar() + " -> " + t.vreg() + "\n";
        auto put = [&](const std::string& r, int k) {
            return "    %o" + std::to_string(k) + " = arith.constant " + std::to_string(k * t.lanes()) + " : index\n" +
                   "    pto.vsts " + r + ", %out_" + t.name + "[%o" + std::to_string(k) + "], %all_" + t.mask_width() + " : " + t.vreg() + ", " + t.ptr() + ", " + t.mask() + "\n";
        };
        body += put("%lo", 0) + put("%hi", 1) + put("%ds", 2);
        if (t.bytes < 8) body += "    %br = pto.vbr %s : " + t.scalar() + " -> " + t.vreg() + "\n" + put("%br", 3);
        const std::vector<uint8_t> out = run_body(body, in, ", %s: " + t.scalar(), {scalar_arg("s", value)});
        for (int i = 0; i < t.lanes(); ++i) {
            ASSERT_EQ(lane_bits(out.data(), t, i), lane_bits(in.data(), t, 0)) << "vdup LOWEST " << t.name << " lane " << i;
            ASSERT_EQ(lane_bits(out.data() + 256, t, i), lane_bits(in.data(), t, t.lanes() - 1)) << "vdup HIGHEST " << t.name << " lane " << i;
            ASSERT_EQ(lane_bits(out.data() + 512, t, i), scalar) << "vdup scalar " << t.name << " lane " << i;
            if (t.bytes < 8) {
                ASSERT_EQ(lane_bits(out.data() + 768, t, i), scalar) << "vbr " << t.name << " lane " << i;
            }
        }
    }
}

TEST(VectorPredicate, IllegalFormsAreRefusedWithTheirCodes)
{
    const std::string masks = "    %a = pto.pset_b32 \"PAT_M3\" : !pto.mask<b32>\n    %b = pto.pset_b16 \"PAT_M3\" : !pto.mask<b16>\n"
                              "    %c = pto.pset_b8 \"PAT_M3\" : !pto.mask<b8>\n";
    EXPECT_TRUE(has_code(static_codes(masks + "    %r = pto.pand %a, %b, %a : !pto.mask<b32>, !pto.mask<b16>, !pto.mask<b32> -> !pto.mask<b32>\n"),
                         "LEGAL_VECTOR_MASK_WIDTH"));
    EXPECT_TRUE(has_code(static_codes(masks + "    %r = pto.ppack %a, \"MIDDLE\" : !pto.mask<b32> -> !pto.mask<b16>\n"), "LEGAL_PREDICATE_PART"));
    EXPECT_TRUE(has_code(static_codes(masks + "    %r = pto.ppack %c, \"LOWER\" : !pto.mask<b8> -> !pto.mask<b8>\n"), "LEGAL_PREDICATE_PACK_WIDTH"));
    EXPECT_TRUE(has_code(static_codes(masks + "    %r = pto.ppack %a, \"LOWER\" : !pto.mask<b32> -> !pto.mask<b32>\n"), "LEGAL_PREDICATE_PACK_WIDTH"));
    EXPECT_TRUE(has_code(static_codes(masks + "    %r = pto.punpack %a, \"LOWER\" : !pto.mask<b32> -> !pto.mask<b32>\n"), "LEGAL_PREDICATE_PACK_WIDTH"));
    EXPECT_TRUE(has_code(static_codes(masks + "    %r, %s = pto.pintlv_b16 %a, %a : !pto.mask<b32>, !pto.mask<b32> -> !pto.mask<b32>, !pto.mask<b32>\n"),
                         "LEGAL_VECTOR_MASK_WIDTH"));
    EXPECT_TRUE(has_code(static_codes("    %r = pto.vbr %s : i64 -> !pto.vreg<32xi64>\n", ", %s: i64"), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes("    %r = pto.vbr %s : f16 -> !pto.vreg<64xf32>\n", ", %s: f16"), "LEGAL_VECTOR_SCALAR_TYPE"));
    EXPECT_TRUE(has_code(static_codes("    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                                      "    %r = pto.vdup %v {position = \"MIDDLE\"} : !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n"),
                         "LEGAL_VDUP_POSITION"));
    EXPECT_TRUE(static_codes(masks + "    %r = pto.ppack %a, \"HIGHER\" : !pto.mask<b32> -> !pto.mask<b16>\n").empty());
    // Widths left open are checked at run time.
    const std::string open = "    %a = pto.pset_b32 \"PAT_M3\" : !pto.mask<G>\n    %b = pto.pset_b16 \"PAT_M3\" : !pto.mask<G>\n"
                             "    %c = pto.pset_b8 \"PAT_M3\" : !pto.mask<G>\n";
    const std::vector<uint8_t> data(kBytes, 1);
    EXPECT_TRUE(has_code(run_codes(open + "    %r = pto.pand %a, %b, %a : !pto.mask<G>, !pto.mask<G>, !pto.mask<G> -> !pto.mask<G>\n", data),
                         "RUN_MASK_WIDTH"));
    EXPECT_TRUE(has_code(run_codes(open + "    %r = pto.ppack %c, \"LOWER\" : !pto.mask<G> -> !pto.mask<G>\n", data), "RUN_MASK_WIDTH"));
    EXPECT_TRUE(has_code(run_codes(open + "    %r = pto.punpack %a, \"LOWER\" : !pto.mask<G> -> !pto.mask<G>\n", data), "RUN_MASK_WIDTH"));
}

}  // namespace
}  // namespace pto::as::testing
