// The vector data rearrangement instructions from PTO-AS (pto.vintlv ... pto.vzunpack) on every lane
// type against plain reference loops over random registers, the decisions the pages leave open (each
// test named after one), and the codes of illegal forms and amounts.
#include <algorithm>
#include <cstring>
#include <string>

#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

struct Lane {
    const char* name;
    int bytes;
};
constexpr Lane kLanes[] = {{"f32", 4}, {"f16", 2}, {"bf16", 2}, {"i8", 1}, {"ui8", 1}, {"i16", 2},
                           {"ui16", 2}, {"i32", 4}, {"ui32", 4}, {"i64", 8}, {"ui64", 8}};

std::string vreg(const Lane& t) { return "!pto.vreg<" + std::to_string(256 / t.bytes) + "x" + t.name + ">"; }
int lanes_of(const Lane& t) { return 256 / t.bytes; }

// Loads register %a from input bytes 0..255 and %b from 256..511 as lanes of t.
std::string load_two(const Lane& t)
{
    return "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
           "    %b = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n";
}

// Stores register `value` (lanes of t) whole at output byte `at` (0 or 256).
std::string store(const std::string& value, const Lane& t, int at = 0)
{
    const std::string m = mask_name(t.bytes);
    return "    %all_" + value + " = pto.pset_" + m + " \"PAT_ALL\" : !pto.mask<" + m + ">\n" +
           "    pto.vsts %" + value + ", %out_ui8[%c" + std::to_string(at) + "], %all_" + value + " : " + vreg(t) +
           ", !pto.ptr<ui8, ub>, !pto.mask<" + m + ">\n";
}

// A reference register: 256 bytes, lane i at i * bytes.
using Bytes = std::vector<uint8_t>;
Bytes lane_bytes(const Bytes& r, int i, int bytes) { return Bytes(r.begin() + i * bytes, r.begin() + (i + 1) * bytes); }
void put(Bytes& r, int i, const Bytes& v) { std::copy(v.begin(), v.end(), r.begin() + i * std::ptrdiff_t(v.size())); }

Bytes first(const Bytes& out, int at = 0) { return Bytes(out.begin() + at, out.begin() + at + 256); }

TEST(VectorRearrange, VintlvAndVdintlvFollowTheirFormulasOnEveryType)
{
    const Bytes in = random_bytes(kBytes, 21);
    const Bytes a(in.begin(), in.begin() + 256), b(in.begin() + 256, in.begin() + 512);
    for (const Lane& t : kLanes) {
        const int n = lanes_of(t), half = n / 2;
        for (const char* op : {"vintlv", "vdintlv"}) {
            const std::string body = load_two(t) + "    %lo, %hi = pto." + op + " %a, %b : " + vreg(t) + ", " + vreg(t) + " -> " + vreg(t) + ", " +
                                     vreg(t) + "\n" + store("lo", t, 0) + store("hi", t, 256);
            const Bytes out = run_body(body, in);
            Bytes lo(256), hi(256);
            for (int i = 0; i < half; ++i) {
                if (std::string(op) == "vintlv") {
                    put(lo, 2 * i, lane_bytes(a, i, t.bytes)), put(lo, 2 * i + 1, lane_bytes(b, i, t.bytes));
                    put(hi, 2 * i, lane_bytes(a, half + i, t.bytes)), put(hi, 2 * i + 1, lane_bytes(b, half + i, t.bytes));
                } else {
                    put(lo, i, lane_bytes(a, 2 * i, t.bytes)), put(lo, half + i, lane_bytes(b, 2 * i, t.bytes));
                    put(hi, i, lane_bytes(a, 2 * i + 1, t.bytes)), put(hi, half + i, lane_bytes(b, 2 * i + 1, t.bytes));
                }
            }
            EXPECT_EQ(first(out, 0), lo) << op << " " << t.name;
            EXPECT_EQ(first(out, 256), hi) << op << " " << t.name;
        }
    }
}

TEST(VectorRearrange, VdintlvUndoesVintlv)
{
    const Bytes in = random_bytes(kBytes, 22);
    for (const Lane& t : kLanes) {
        const std::string pair = vreg(t) + ", " + vreg(t);
        const std::string body = load_two(t) + "    %lo, %hi = pto.vintlv %a, %b : " + pair + " -> " + pair + "\n" +
                                 "    %x, %y = pto.vdintlv %lo, %hi : " + pair + " -> " + pair + "\n" + store("x", t, 0) + store("y", t, 256);
        const Bytes out = run_body(body, in);
        EXPECT_TRUE(std::equal(in.begin(), in.begin() + 512, out.begin())) << t.name;
    }
}

// Decision: the V2 forms' PART is "LOW" or "HIGH", the first or the second result of vintlv / vdintlv.
TEST(VectorRearrange, V2FormsReturnTheLowOrHighResult)
{
    const Bytes in = random_bytes(kBytes, 23);
    for (const Lane& t : {kLanes[0], kLanes[3], kLanes[5], kLanes[9]})
        for (const char* op : {"vintlv", "vdintlv"}) {
            const std::string pair = vreg(t) + ", " + vreg(t);
            // The V2 results stored at 0 and 256, against the pair stored likewise.
            const std::string stores = store("l", t, 0) + store("h", t, 256);
            const Bytes v2 = run_body(load_two(t) + "    %l = pto." + op + "v2 %a, %b, \"LOW\" : " + pair + " -> " + vreg(t) + "\n" +
                                          "    %h = pto." + op + "v2 %a, %b, \"HIGH\" : " + pair + " -> " + vreg(t) + "\n" + stores,
                                      in);
            const Bytes both = run_body(load_two(t) + "    %lo, %hi = pto." + op + " %a, %b : " + pair + " -> " + pair + "\n" + store("lo", t, 0) +
                                            store("hi", t, 256),
                                        in);
            EXPECT_EQ(first(v2, 0), first(both, 0)) << op << "v2 LOW " << t.name;
            EXPECT_EQ(first(v2, 256), first(both, 256)) << op << "v2 HIGH " << t.name;
        }
}

// Decision: the pages give vslide two formulas that disagree; the loop is followed (dst[i] = src0[i - amt]
// for i >= amt, else src1[N - amt + i]), which makes vshift vslide with a zero src1. vshift also takes
// -N <= amt < 0, moving lanes toward lane 0 with zeros behind.
TEST(VectorRearrange, VslideFollowsItsLoopAndVshiftIsVslideWithZero)
{
    const Bytes in = random_bytes(kBytes, 24);
    const Bytes a(in.begin(), in.begin() + 256), b(in.begin() + 256, in.begin() + 512);
    for (const Lane& t : kLanes) {
        const int n = lanes_of(t);
        for (const int amount : {0, 1, 3, n / 2, n - 1, n, -1, -n / 3, -n}) {
            const std::string amt = "    %amt = arith.constant " + std::to_string(amount) + " : i16\n";
            Bytes shifted(256), slid(256);
            for (int i = 0; i < n; ++i) {
                const int from = i - amount;
                if (from >= 0 && from < n) put(shifted, i, lane_bytes(a, from, t.bytes)), put(slid, i, lane_bytes(a, from, t.bytes));
                else if (from < 0) put(slid, i, lane_bytes(b, n + from, t.bytes));
            }
            const Bytes shift_out = run_body(load_two(t) + amt + "    %r = pto.vshift %a, %amt : " + vreg(t) + ", i16 -> " + vreg(t) + "\n" + store("r", t), in);
            EXPECT_EQ(first(shift_out), shifted) << "vshift " << t.name << " by " << amount;
            if (amount < 0) continue;
            const Bytes slide_out = run_body(
                load_two(t) + amt + "    %r = pto.vslide %a, %b, %amt : " + vreg(t) + ", " + vreg(t) + ", i16 -> " + vreg(t) + "\n" + store("r", t), in);
            EXPECT_EQ(first(slide_out), slid) << "vslide " << t.name << " by " << amount;
        }
    }
}

// Decision: vperm reads its index lanes as unsigned integers and takes them modulo the lane count.
TEST(VectorRearrange, VpermReadsIndicesAsUnsignedModuloTheLaneCount)
{
    const Bytes in = random_bytes(kBytes, 25);
    const Bytes a(in.begin(), in.begin() + 256), index(in.begin() + 256, in.begin() + 512);
    for (const Lane& t : kLanes) {
        const int n = lanes_of(t);
        const Lane index_type{t.bytes == 1 ? "i8" : t.bytes == 2 ? "ui16" : t.bytes == 4 ? "i32" : "ui64", t.bytes};
        const std::string body = "    %a = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg(t) + "\n" +
                                 "    %i = pto.vlds %in_ui8[%c256] : !pto.ptr<ui8, ub> -> " + vreg(index_type) + "\n" +
                                 "    %r = pto.vperm %a, %i : " + vreg(t) + ", " + vreg(index_type) + " -> " + vreg(t) + "\n" + store("r", t);
        Bytes want(256);
        for (int i = 0; i < n; ++i) {
            uint64_t k = 0;
            std::memcpy(&k, index.data() + i * t.bytes, std::size_t(t.bytes));
            put(want, i, lane_bytes(a, int(k % uint64_t(n)), t.bytes));
        }
        EXPECT_EQ(first(run_body(body, in)), want) << t.name;
    }
}

TEST(VectorRearrange, VsqzPacksTheActiveLanesToTheFront)
{
    const Bytes in = random_bytes(kBytes, 26);
    const Bytes a(in.begin(), in.begin() + 256);
    for (const Lane& t : kLanes) {
        const int n = lanes_of(t);
        const std::string m = mask_name(t.bytes);
        for (const char* pattern : {"PAT_M3", "PAT_H", "PAT_ALL", "PAT_ALLF", "PAT_VL5"}) {
            const std::string body = "    %m = pto.pset_" + m + " \"" + pattern + "\" : !pto.mask<" + m + ">\n" + load_two(t) +
                                     "    %r = pto.vsqz %a, %m : " + vreg(t) + ", !pto.mask<" + m + "> -> " + vreg(t) + "\n" + store("r", t);
            // The mask's lanes for 8-byte data are those of a b32 mask read in pairs (lane i: b32 lane 2i).
            const int mask_lanes = 256 / std::min(t.bytes, 4);
            auto active = [&](int i) {
                const int k = t.bytes == 8 ? 2 * i : i;
                const std::string p = pattern;
                return p == "PAT_ALL" || (p == "PAT_M3" && k % 3 == 0) || (p == "PAT_H" && k >= mask_lanes / 2) || (p == "PAT_VL5" && k < 5);
            };
            Bytes want(256);
            int kept = 0;
            for (int i = 0; i < n; ++i)
                if (active(i)) put(want, kept++, lane_bytes(a, i, t.bytes));
            EXPECT_EQ(first(run_body(body, in)), want) << t.name << " " << pattern;
        }
    }
}

// Decision: vusqz's implicit front-packed stream is the lane numbers: active lane i receives how many
// lanes before it are active, so vperm by the result spreads a front-packed vector over the active lanes.
TEST(VectorRearrange, VusqzPlacesTheCountOfActiveLanesBefore)
{
    const Bytes in = random_bytes(kBytes, 27);
    for (const Lane& t : {kLanes[3], kLanes[4], kLanes[5], kLanes[6], kLanes[7], kLanes[8]}) {
        const int n = lanes_of(t);
        const std::string m = mask_name(t.bytes);
        const std::string body = "    %m = pto.pset_" + m + " \"PAT_M3\" : !pto.mask<" + m + ">\n" +
                                 "    %r = pto.vusqz %m : !pto.mask<" + m + "> -> " + vreg(t) + "\n" + store("r", t);
        Bytes want(256);
        int before = 0;
        for (int i = 0; i < n; ++i)
            if (i % 3 == 0) {
                const uint64_t v = uint64_t(before++);
                put(want, i, Bytes(reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + t.bytes));
            }
        EXPECT_EQ(first(run_body(body, in)), want) << t.name;
    }
}

struct WidthPair {
    Lane wide, narrow;
    bool wide_signed, narrow_signed;
};
const WidthPair kWidthPairs[] = {
    {{"i16", 2}, {"i8", 1}, true, true},      {{"ui16", 2}, {"ui8", 1}, false, false}, {{"i32", 4}, {"i16", 2}, true, true},
    {{"ui32", 4}, {"ui16", 2}, false, false}, {{"i64", 8}, {"i32", 4}, true, true},    {{"ui64", 8}, {"ui32", 4}, false, false},
    {{"i32", 4}, {"ui16", 2}, true, false},   {{"ui32", 4}, {"i16", 2}, false, true},
};

int64_t signed_value(const Bytes& r, int i, int bytes)
{
    uint64_t v = 0;
    std::memcpy(&v, r.data() + i * bytes, std::size_t(bytes));
    const int shift = 64 - 8 * bytes;
    return int64_t(v << shift) >> shift;
}
uint64_t unsigned_value(const Bytes& r, int i, int bytes)
{
    uint64_t v = 0;
    std::memcpy(&v, r.data() + i * bytes, std::size_t(bytes));
    return v;
}

// Decision: vpack's %part 0 keeps each lane's low bits, 1 saturates it into the narrow type's range
// (read with the wide type's signedness); src0's lanes come first.
TEST(VectorRearrange, VpackPartZeroTruncatesPartOneSaturates)
{
    const Bytes in = random_bytes(kBytes, 28);
    const Bytes a(in.begin(), in.begin() + 256), b(in.begin() + 256, in.begin() + 512);
    for (const WidthPair& p : kWidthPairs)
        for (const int part : {0, 1}) {
            const std::string body = load_two(p.wide) + "    %p = arith.constant " + std::to_string(part) + " : index\n" +
                                     "    %r = pto.vpack %a, %b, %p : " + vreg(p.wide) + ", " + vreg(p.wide) + ", index -> " + vreg(p.narrow) + "\n" +
                                     store("r", p.narrow);
            const int n = lanes_of(p.wide), bits = 8 * p.narrow.bytes;
            const double lo = p.narrow_signed ? -std::ldexp(1, bits - 1) : 0, hi = std::ldexp(1, p.narrow_signed ? bits - 1 : bits) - 1;
            Bytes want(256);
            for (int i = 0; i < 2 * n; ++i) {
                const Bytes& src = i < n ? a : b;
                const int k = i % n;
                uint64_t v = unsigned_value(src, k, p.wide.bytes);
                if (part == 1) {
                    const double x = p.wide_signed ? double(signed_value(src, k, p.wide.bytes)) : double(v);
                    v = uint64_t(int64_t(std::clamp(x, lo, hi)));
                }
                put(want, i, Bytes(reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + p.narrow.bytes));
            }
            EXPECT_EQ(first(run_body(body, in)), want) << p.wide.name << " -> " << p.narrow.name << " part " << part;
        }
}

TEST(VectorRearrange, UnpacksExtendTheChosenHalf)
{
    const Bytes in = random_bytes(kBytes, 29);
    const Bytes a(in.begin(), in.begin() + 256);
    for (const WidthPair& p : kWidthPairs)
        for (const char* op : {"vsunpack", "vzunpack"})
            for (const int half : {0, 1}) {
                const std::string body = load_two(p.narrow) + "    %p = arith.constant " + std::to_string(half) + " : index\n" +
                                         "    %r = pto." + op + " %a, %p : " + vreg(p.narrow) + ", index -> " + vreg(p.wide) + "\n" + store("r", p.wide);
                const int n = lanes_of(p.wide);
                Bytes want(256);
                for (int i = 0; i < n; ++i) {
                    const int k = half * n + i;
                    const uint64_t v = std::string(op) == "vsunpack" ? uint64_t(signed_value(a, k, p.narrow.bytes)) : unsigned_value(a, k, p.narrow.bytes);
                    put(want, i, Bytes(reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + p.wide.bytes));
                }
                EXPECT_EQ(first(run_body(body, in)), want) << op << " " << p.narrow.name << " -> " << p.wide.name << " half " << half;
            }
}

TEST(VectorRearrange, IllegalFormsReportTheirCodes)
{
    const std::string f32 = "    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                            "    %i = pto.vlds %in_i16[%c0] : !pto.ptr<i16, ub> -> !pto.vreg<128xi16>\n"
                            "    %w = pto.vlds %in_i32[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>\n"
                            "    %m = pto.pset_b16 \"PAT_ALL\" : !pto.mask<b16>\n";
    const std::pair<std::string, std::string> cases[] = {
        {"    %r = pto.vperm %a, %a : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n", "LEGAL_VPERM_INDEX"},
        {"    %r = pto.vperm %a, %i : !pto.vreg<64xf32>, !pto.vreg<128xi16> -> !pto.vreg<64xf32>\n", "LEGAL_VPERM_INDEX"},
        {"    %r = pto.vpack %w, %w, %c0 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, index -> !pto.vreg<256xi8>\n", "LEGAL_VPACK_PAIR"},
        {"    %r = pto.vpack %a, %a, %c0 : !pto.vreg<64xf32>, !pto.vreg<64xf32>, index -> !pto.vreg<128xf16>\n", "LEGAL_VPACK_PAIR"},
        {"    %r = pto.vsunpack %i, %c0 : !pto.vreg<128xi16>, index -> !pto.vreg<32xi64>\n", "LEGAL_VUNPACK_PAIR"},
        {"    %r = pto.vintlvv2 %a, %a, \"MIDDLE\" : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n", "LEGAL_VINTLV_PART"},
        {"    %r = pto.vintlvv2 %a, %a : !pto.vreg<64xf32>, !pto.vreg<64xf32> -> !pto.vreg<64xf32>\n", "LEGAL_VINTLV_PART"},
        {"    %x, %y = pto.vintlv %a, %w : !pto.vreg<64xf32>, !pto.vreg<64xi32> -> !pto.vreg<64xf32>, !pto.vreg<64xf32>\n", "STRUCT_OPERAND_KIND"},
        {"    %r = pto.vusqz %m : !pto.mask<b16> -> !pto.vreg<128xf16>\n", "LEGAL_VECTOR_DTYPE"},
        {"    %r = pto.vsqz %a, %m : !pto.vreg<64xf32>, !pto.mask<b16> -> !pto.vreg<64xf32>\n", "LEGAL_VECTOR_MASK_WIDTH"},
    };
    for (const auto& [body, code] : cases) {
        const std::vector<std::string> codes = static_codes(f32 + body);
        EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end()) << "expected " << code << " for\n" << body;
    }
}

// The run-time checks: a slide amount beyond the lanes, a part other than 0 or 1.
TEST(VectorRearrange, BadAmountsAndPartsStopTheRun)
{
    const Bytes in = random_bytes(kBytes, 30);
    const std::pair<std::string, std::string> cases[] = {
        {"    %n = arith.constant 65 : i16\n    %r = pto.vshift %a, %n : !pto.vreg<64xf32>, i16 -> !pto.vreg<64xf32>\n", "RUN_VECTOR_SLIDE_AMOUNT"},
        {"    %n = arith.constant -1 : i16\n    %r = pto.vslide %a, %a, %n : !pto.vreg<64xf32>, !pto.vreg<64xf32>, i16 -> !pto.vreg<64xf32>\n",
         "RUN_VECTOR_SLIDE_AMOUNT"},
        {"    %r = pto.vpack %w, %w, %c8 : !pto.vreg<64xi32>, !pto.vreg<64xi32>, index -> !pto.vreg<128xi16>\n", "RUN_VECTOR_PART"},
        {"    %r = pto.vzunpack %w, %c8 : !pto.vreg<64xi32>, index -> !pto.vreg<32xi64>\n", "RUN_VECTOR_PART"},
    };
    for (const auto& [op, code] : cases) {
        const std::string body = "    %a = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                                 "    %w = pto.vlds %in_i32[%c0] : !pto.ptr<i32, ub> -> !pto.vreg<64xi32>\n" + op;
        const ParseResult parsed = parse_ok(program(body));
        std::vector<uint8_t> input = in, out(kBytes, 0);
        const RunResult r = run(parsed.module, {array_arg("in", input), array_arg("out", out)}, checked_run());
        ASSERT_FALSE(r.ok()) << body;
        EXPECT_EQ(r.diagnostics.front().code, code) << format_all(r);
    }
}

}  // namespace
}  // namespace pto::as::testing
