// The vector reductions from PTO-AS (pto.vcadd, vcmax, vcmin, vcgadd, vcgmax, vcgmin, vcpadd) on every
// lane type they take, under several masks, against a plain reference loop: the documented order of a
// float sum (a tree of adjacent pairs in float, one rounding), a double-precision sum as a sanity bound,
// the extremum's position in lane 1, NaN, infinities and -0; and the diagnostics of illegal forms.
#include <functional>

#include "vector_lane_support.hpp"

namespace pto::as::testing {
namespace {

using namespace vector_lanes;

const char* const kMasks[] = {"PAT_ALL", "PAT_M3", "PAT_ALLF", "PAT_VL5", "PAT_H"};

bool mask_lane(const std::string& pattern, int i, int lanes)
{
    if (pattern == "PAT_ALL") return true;
    if (pattern == "PAT_M3") return i % 3 == 0;
    if (pattern == "PAT_ALLF") return false;
    if (pattern == "PAT_VL5") return i < 5;
    return i >= lanes / 2;  // PAT_H
}

// Lane i of a register of `t` under a mask made for its width (b32 for 64-bit lanes, read at lane 2i).
bool active(const std::string& pattern, const LaneType& t, int i)
{
    return t.bytes == 8 ? mask_lane(pattern, 2 * i, 64) : mask_lane(pattern, i, t.lanes());
}

uint64_t canonical_nan(const LaneType& t) { return t.dtype == engine::DType::F32 ? 0x7fc00000u : 0x7e00u; }

// Registers 0..3 of the data hold finite values of mixed magnitudes only, so that their sums are
// numbers whose rounding depends on the order of the additions.
void make_finite(std::vector<uint8_t>& data, const LaneType& t, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> unit(-1, 1);
    if (!t.is_float) return;
    for (int i = 0; i < 4 * t.lanes(); ++i)
        if (i % 4 != 3 || !std::isfinite(float_of(t, lane_bits(data.data(), t, i))) || std::fabs(float_of(t, lane_bits(data.data(), t, i))) > 1e4)
            set_lane_bits(data.data(), t, i, float_bits(t, std::ldexp(unit(gen), int(gen() % 12))));
}

// The reference of one reduction over lanes [first, first + count) of register `x`.
struct Reference {
    const LaneType& t;
    const uint8_t* x;
    std::string pattern;

    bool on(int i) const { return active(pattern, t, i); }

    uint64_t sum(int first, int count) const
    {
        bool any = false;
        for (int i = first; i < first + count; ++i) any = any || on(i);
        if (!any) return 0;
        if (!t.is_float) {
            uint64_t s = 0;
            for (int i = first; i < first + count; ++i)
                if (on(i)) s += lane_bits(x, t, i);
            return wrap_bits(t, s);
        }
        std::vector<float> level;
        double exact = 0, magnitude = 0;
        for (int i = first; i < first + count; ++i) {
            level.push_back(on(i) ? float(float_of(t, lane_bits(x, t, i))) : -0.0f);
            if (on(i)) exact += float_of(t, lane_bits(x, t, i)), magnitude += std::fabs(float_of(t, lane_bits(x, t, i)));
        }
        for (std::size_t n = level.size(); n > 1; n /= 2)
            for (std::size_t i = 0; i < n / 2; ++i) level[i] = level[2 * i] + level[2 * i + 1];
        if (std::isnan(level[0])) return canonical_nan(t);
        // The documented order is one of many; the double sum bounds its rounding error.
        if (std::isfinite(exact)) {
            EXPECT_NEAR(double(level[0]), exact, 1e-6 * magnitude);
        }
        return float_bits(t, level[0]);
    }

    // Whether v replaces best: a NaN loses to a number, +0 beats -0 for max (-0 wins for min).
    static bool beats(double v, double best, bool max)
    {
        if (std::isnan(v)) return false;
        if (std::isnan(best)) return true;
        if (v == best && std::signbit(v) != std::signbit(best)) return max ? std::signbit(best) : std::signbit(v);
        return max ? v > best : v < best;
    }

    // The extremum's bits and position; false when no lane is active.
    bool extremum(int first, int count, bool max, uint64_t& bits, int& at) const
    {
        bool any = false;
        double best = 0;
        for (int i = first; i < first + count; ++i) {
            if (!on(i)) continue;
            const uint64_t b = lane_bits(x, t, i);
            const double v = t.is_float ? float_of(t, b) : double(int_of(t, b));  // 16- and 32-bit: exact in double
            if (!any || beats(v, best, max)) {
                best = v;
                bits = b;
                at = i;
            }
            any = true;
        }
        if (any && t.is_float && std::isnan(best)) bits = canonical_nan(t);
        return any;
    }
};

std::vector<uint64_t> reference(const std::string& op, const LaneType& t, const uint8_t* x, const std::string& pattern)
{
    const int n = t.lanes(), k = 32 / t.bytes;
    std::vector<uint64_t> want(std::size_t(n), 0);
    const Reference r{t, x, pattern};
    if (op == "vcadd") want[0] = r.sum(0, n);
    if (op == "vcgadd")
        for (int g = 0; g < n; g += k) want[std::size_t(g)] = r.sum(g, k);
    if (op == "vcmax" || op == "vcmin") {
        uint64_t bits = 0;
        int at = 0;
        if (r.extremum(0, n, op == "vcmax", bits, at)) {
            want[0] = bits;
            want[1] = uint64_t(at);
        }
    }
    if (op == "vcgmax" || op == "vcgmin")
        for (int g = 0; g < n; g += k) {
            uint64_t bits = 0;
            int at = 0;
            if (r.extremum(g, k, op == "vcgmax", bits, at)) want[std::size_t(g)] = bits;
        }
    if (op == "vcpadd") {
        float running = 0.0f;
        for (int i = 0; i < n; ++i) {
            if (r.on(i)) running += float(float_of(t, lane_bits(x, t, i)));
            want[std::size_t(i)] = std::isnan(running) ? canonical_nan(t) : float_bits(t, running);
        }
    }
    return want;
}

bool takes(const std::string& op, const LaneType& t)
{
    using enum engine::DType;
    const bool mid = t.dtype == I16 || t.dtype == U16 || t.dtype == I32 || t.dtype == U32 || t.dtype == F16 || t.dtype == F32;
    if (op == "vcadd") return mid || t.dtype == I64 || t.dtype == U64;
    if (op == "vcpadd") return t.dtype == F16 || t.dtype == F32;
    return mid;
}

TEST(VectorReduce, EveryReductionOnEveryLaneTypeMatchesTheReferenceLoop)
{
    uint32_t seed = 900;
    for (const char* op : {"vcadd", "vcmax", "vcmin", "vcgadd", "vcgmax", "vcgmin", "vcpadd"})
        for (const LaneType& t : all_lane_types()) {
            if (!takes(op, t)) continue;
            for (const char* pattern : kMasks) {
                std::vector<uint8_t> in = lane_data(t, ++seed);
                make_finite(in, t, seed);
                // Each of the 8 registers of the data reduced and stored in place.
                std::string body = "    %m = pto.pset_" + t.mask_width() + " \"" + pattern + "\" : " + t.mask() + "\n";
                for (int k = 0; k < 8; ++k) {
                    const std::string at = "%at" + std::to_string(k), v = "%v" + std::to_string(k), r = "%r" + std::to_string(k);
                    body += "    " + at + " = arith.constant " + std::to_string(k * t.lanes()) + " : index\n" +
                            "    " + v + " = pto.vlds %in_" + t.name + "[" + at + "] : " + t.ptr() + " -> " + t.vreg() + "\n" +
                            "    " + r + " = pto." + op + " " + v + ", %m : " + t.vreg() + ", " + t.mask() + " -> " + t.vreg() + "\n" +
                            "    pto.vsts " + r + ", %out_" + t.name + "[" + at + "], %all_" + t.mask_width() + " : " + t.vreg() + ", " + t.ptr() + ", " + t.mask() + "\n";
                }
                const std::vector<uint8_t> out = run_body(body, in);
                for (int k = 0; k < 8; ++k) {
                    const std::vector<uint64_t> want = reference(op, t, in.data() + 256 * k, pattern);
                    for (int i = 0; i < t.lanes(); ++i)
                        ASSERT_EQ(lane_bits(out.data() + 256 * k, t, i), want[std::size_t(i)])
                            << op << " " << t.name << " " << pattern << " register " << k << " lane " << i;
                }
            }
        }
}

TEST(VectorReduce, ExtremaPreferNumbersPositiveZeroAndTheFirstOfEquals)
{
    // f32 lanes: NaN at 0, -0 at 1, +0 at 2, then -1 at 3 and another +0 at 4; every other lane -5.
    const LaneType& t = all_lane_types()[0];
    std::vector<uint8_t> in(kBytes, 0);
    for (int i = 0; i < 64; ++i) set_lane_bits(in.data(), t, i, float_bits(t, -5.0));
    set_lane_bits(in.data(), t, 0, float_bits(t, std::nan("")));
    set_lane_bits(in.data(), t, 1, float_bits(t, -0.0));
    set_lane_bits(in.data(), t, 2, float_bits(t, 0.0));
    set_lane_bits(in.data(), t, 3, float_bits(t, -1.0));
    set_lane_bits(in.data(), t, 4, float_bits(t, 0.0));
    const std::string body = "    %v = pto.vlds %in_f32[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>\n"
                             "    %mx = pto.vcmax %v, %all_b32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
                             "    %mn = pto.vcmin %v, %all_b32 : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n"
                             "    pto.vsts %mx, %out_f32[%c0], %all_b32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n"
                             "    pto.vsts %mn, %out_f32[%c64], %all_b32 : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32>\n";
    const std::vector<uint8_t> out = run_body(body, in);
    EXPECT_EQ(lane_bits(out.data(), t, 0), float_bits(t, 0.0));  // +0 beats -0; the NaN loses
    EXPECT_EQ(lane_bits(out.data(), t, 1), 2u);                   // the first +0
    EXPECT_EQ(lane_bits(out.data() + 256, t, 0), float_bits(t, -5.0));
    EXPECT_EQ(lane_bits(out.data() + 256, t, 1), 5u);  // the first -5
}

TEST(VectorReduce, IllegalFormsAreRefusedWithTheirCodes)
{
    auto body = [](const std::string& op, const std::string& vreg, const std::string& mask) {
        return "    %v = pto.vlds %in_ui8[%c0] : !pto.ptr<ui8, ub> -> " + vreg + "\n" +
               "    %r = pto." + op + " %v, %m : " + vreg + ", " + mask + " -> " + vreg + "\n";
    };
    auto with_mask = [&](const std::string& op, const std::string& vreg, const std::string& width) {
        return "    %m = pto.pset_" + width + " \"PAT_ALL\" : !pto.mask<" + width + ">\n" + body(op, vreg, "!pto.mask<" + width + ">");
    };
    EXPECT_TRUE(has_code(static_codes(with_mask("vcadd", "!pto.vreg<256xi8>", "b8")), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(with_mask("vcadd", "!pto.vreg<128xbf16>", "b16")), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(with_mask("vcmax", "!pto.vreg<32xi64>", "b32")), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(with_mask("vcgmin", "!pto.vreg<256xui8>", "b8")), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(with_mask("vcpadd", "!pto.vreg<64xi32>", "b32")), "LEGAL_VECTOR_DTYPE"));
    EXPECT_TRUE(has_code(static_codes(with_mask("vcadd", "!pto.vreg<64xf32>", "b16")), "LEGAL_VECTOR_MASK_WIDTH"));
    EXPECT_TRUE(static_codes(with_mask("vcadd", "!pto.vreg<32xi64>", "b32")).empty());
}

}  // namespace
}  // namespace pto::as::testing
