// The element-wise vector instructions (pto.vadd ... pto.vrec) on every lane type against a plain
// reference in double precision, with special values and a mask that leaves lanes inactive (zeroed).
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <hwy/targets.h>

#include <pto/common/numeric.hpp>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing {
namespace {

struct LaneType {
    const char* name;  // PTO-AS spelling
    int bytes;
    bool is_float, is_signed;
};

constexpr LaneType kTypes[] = {
    {"f32", 4, true, true},   {"f16", 2, true, true},    {"bf16", 2, true, true},   {"i8", 1, false, true},
    {"i16", 2, false, true},  {"i32", 4, false, true},   {"i64", 8, false, true},   {"ui8", 1, false, false},
    {"ui16", 2, false, false}, {"ui32", 4, false, false}, {"ui64", 8, false, false},
};

// Integer lane i of `bytes`, sign- or zero-extended to 64 bits.
int64_t read_integer(const LaneType& t, const uint8_t* bytes, int i)
{
    uint64_t u = 0;
    std::memcpy(&u, bytes + std::size_t(i) * t.bytes, std::size_t(t.bytes));
    if (t.is_signed && t.bytes < 8 && (u >> (8 * t.bytes - 1)) & 1) u |= ~uint64_t{0} << (8 * t.bytes);
    return int64_t(u);
}

// Float lane i of `bytes`, exactly.
double read_float(const LaneType& t, const uint8_t* bytes, int i)
{
    const uint8_t* p = bytes + std::size_t(i) * t.bytes;
    if (t.bytes == 4) return std::bit_cast<float>(*reinterpret_cast<const uint32_t*>(p));
    const uint16_t h = *reinterpret_cast<const uint16_t*>(p);
    return std::string(t.name) == "f16" ? double(float(std::bit_cast<pto::half>(h))) : double(float(std::bit_cast<pto::bfloat16_t>(h)));
}

// The bytes of a float result rounded once to the lane type.
void write_float(const LaneType& t, double v, uint8_t* out)
{
    if (t.bytes == 4) {
        const float f = float(v);
        std::memcpy(out, &f, 4);
        return;
    }
    const uint16_t bits = std::string(t.name) == "f16" ? std::bit_cast<uint16_t>(pto::half(float(v)))
                                                       : std::bit_cast<uint16_t>(pto::bfloat16_t(float(v)));
    std::memcpy(out, &bits, 2);
}

// Random lanes; floats get a NaN, infinities and signed zeros among them.
std::vector<uint8_t> random_lanes(const LaneType& t, uint32_t seed)
{
    std::vector<uint8_t> bytes(256);
    const std::vector<double> values = random_vector<double>(256 / t.bytes, seed, -60, 60);
    for (int i = 0; i < 256 / t.bytes; ++i) {
        uint8_t* at = bytes.data() + i * t.bytes;
        if (t.is_float) {
            double v = values[std::size_t(i)];
            if (i % 17 == 3) v = std::numeric_limits<double>::quiet_NaN();
            if (i % 19 == 5) v = i % 2 ? INFINITY : -INFINITY;
            if (i % 23 == 7) v = i % 2 ? 0.0 : -0.0;
            write_float(t, v, at);
        } else {
            const uint64_t u = uint64_t(int64_t(values[std::size_t(i)] * 1e6)) * 0x9e3779b97f4a7c15ull;
            std::memcpy(at, &u, std::size_t(t.bytes));
        }
    }
    return bytes;
}

std::string mask_of(const LaneType& t) { return t.bytes == 1 ? "b8" : t.bytes == 2 ? "b16" : "b32"; }

// Runs `op` on the registers loaded from a (at UB 0) and b (at UB 256) under PAT_M3 and returns the
// 256 bytes it stored.
std::vector<uint8_t> run_op(const std::string& op, const LaneType& t, const std::vector<uint8_t>& a, const std::vector<uint8_t>* b,
                            bool checked = true)
{
    const int lanes = 256 / t.bytes;
    const std::string vreg = "!pto.vreg<" + std::to_string(lanes) + "x" + t.name + ">";
    const std::string ptr = std::string("!pto.ptr<") + t.name + ", ub>";
    const std::string mask = "!pto.mask<" + mask_of(t) + ">";
    const std::string text = R"(func.func @k(%a: !pto.ptr<u8>, %out: !pto.ptr<u8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0 : i64
  %v = pto.make_tensor_view %a, shape = [%c2, %c512], strides = [%c512, %c1] : !pto.tensor_view<?x?xu8>
  %w = pto.make_tensor_view %out, shape = [%c2, %c512], strides = [%c512, %c1] : !pto.tensor_view<?x?xu8>
  %p = pto.partition_view %v, offsets = [%c0, %c0], sizes = [%c2, %c512] : !pto.tensor_view<?x?xu8> -> !pto.partition_tensor_view<2x512xu8>
  %q = pto.partition_view %w, offsets = [%c0, %c0], sizes = [%c2, %c512] : !pto.tensor_view<?x?xu8> -> !pto.partition_tensor_view<2x512xu8>
  %t = pto.alloc_tile addr = %zero : !pto.tile_buf<vec, 2x512xu8>
  pto.tload ins(%p : !pto.partition_tensor_view<2x512xu8>) outs(%t : !pto.tile_buf<vec, 2x512xu8>)
  %ub = pto.castptr %zero : i64 -> )" + ptr + R"(
  %ob = pto.castptr %zero : i64 -> !pto.ptr<ui8, ub>
  %nb = arith.constant )" + std::to_string(lanes) + R"( : index
  %c512b = arith.constant 512 : index
  pto.vecscope {
    %m = pto.pset_)" + mask_of(t) + R"( "PAT_M3" : )" + mask + R"(
    %x = pto.vlds %ub[%c0] : )" + ptr + " -> " + vreg + R"(
    %y = pto.vlds %ub[%nb] : )" + ptr + " -> " + vreg + "\n    %r = pto." + op + " %x, " + (b ? "%y, " : "") + "%m : " + vreg + ", " +
                             (b ? vreg + ", " : "") + mask + " -> " + vreg + R"(
    %all = pto.pset_)" + mask_of(t) + R"( "PAT_ALL" : )" + mask + R"(
    pto.vsts %r, %ob[%c512b], %all : )" + vreg + R"(, !pto.ptr<ui8, ub>, )" + mask + R"(
  }
  pto.tstore ins(%t : !pto.tile_buf<vec, 2x512xu8>) outs(%q : !pto.partition_tensor_view<2x512xu8>)
  return
}
)";
    const ParseResult parsed = parse_ok(text);
    EXPECT_TRUE(verify(parsed.module, profile::Target::A5).empty()) << op << " " << t.name;
    std::vector<uint8_t> in(1024, 0x5A), out(1024, 0);
    std::memcpy(in.data(), a.data(), 256);
    if (b) std::memcpy(in.data() + 256, b->data(), 256);
    RunOptions options = checked_run();
    options.checked = checked;
    const RunResult r = run(parsed.module, {array_arg("a", in), array_arg("out", out)}, options);
    EXPECT_TRUE(r.ok()) << format_all(r) << op << " " << t.name;
    return {out.begin() + 512, out.begin() + 768};
}

// The reference of one integer lane, computed in 64 bits and wrapped to the lane's width.
uint64_t integer_reference(const std::string& op, const LaneType& t, int64_t a, int64_t b)
{
    const int width = 8 * t.bytes;
    const uint64_t count = width == 64 ? uint64_t(b) : uint64_t(b) & ((uint64_t{1} << width) - 1);
    if (op == "vadd") return uint64_t(a) + uint64_t(b);
    if (op == "vsub") return uint64_t(a) - uint64_t(b);
    if (op == "vmul") return uint64_t(a) * uint64_t(b);
    if (op == "vmax") return t.is_signed ? uint64_t(std::max(a, b)) : std::max(uint64_t(a), uint64_t(b));
    if (op == "vmin") return t.is_signed ? uint64_t(std::min(a, b)) : std::min(uint64_t(a), uint64_t(b));
    if (op == "vand") return uint64_t(a) & uint64_t(b);
    if (op == "vor") return uint64_t(a) | uint64_t(b);
    if (op == "vxor") return uint64_t(a) ^ uint64_t(b);
    if (op == "vshl") return count >= uint64_t(width) ? 0 : uint64_t(a) << count;
    if (op == "vshr") {
        if (t.is_signed) return uint64_t(a >> std::min<uint64_t>(count, 63));
        const uint64_t u = width == 64 ? uint64_t(a) : uint64_t(a) & ((uint64_t{1} << width) - 1);
        return count >= uint64_t(width) ? 0 : u >> count;
    }
    if (op == "vabs") return uint64_t(a < 0 && t.is_signed ? -a : a);
    if (op == "vneg") return uint64_t(0) - uint64_t(a);
    if (op == "vnot") return ~uint64_t(a);
    if (op == "vrelu") return t.is_signed && a < 0 ? 0 : uint64_t(a);
    return uint64_t(a);  // vmov
}

// maximumNumber / minimumNumber: a NaN loses to a number, +0 > -0.
double float_max(double a, double b, bool max)
{
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return (std::signbit(a) == max) ? b : a;
    return (a > b) == max ? a : b;
}

double float_reference(const std::string& op, double a, double b)
{
    if (op == "vadd") return a + b;
    if (op == "vsub") return a - b;
    if (op == "vmul") return a * b;
    if (op == "vdiv") return a / b;
    if (op == "vmax") return float_max(a, b, true);
    if (op == "vmin") return float_max(a, b, false);
    if (op == "vabs") return std::fabs(a);
    if (op == "vneg") return -a;
    if (op == "vrelu") return float_max(a, 0.0, true);
    if (op == "vsqrt") return std::sqrt(a);
    if (op == "vrec") return 1.0 / a;
    if (op == "vexp") return std::exp(a);
    if (op == "vln") return std::log(a);
    if (op == "vrsqrt") return 1.0 / std::sqrt(a);
    return a;  // vmov
}

void expect_lanes(const std::string& op, const LaneType& t, const std::vector<uint8_t>& a, const std::vector<uint8_t>* b,
                  const std::vector<uint8_t>& got)
{
    const bool approximate = op == "vexp" || op == "vln" || op == "vrsqrt";
    for (int i = 0; i < 256 / t.bytes; ++i) {
        std::vector<uint8_t> want(std::size_t(t.bytes), 0);
        const bool active = i % 3 == 0;
        if (active && t.is_float) {
            const double x = read_float(t, a.data(), i), y = b ? read_float(t, b->data(), i) : 0;
            const double r = float_reference(op, x, y);
            write_float(t, r, want.data());
            if (approximate && std::isfinite(r) && r != 0 && std::isfinite(read_float(t, want.data(), 0))) {
                const double g = read_float(t, got.data(), i);
                // An ulp of the result, at least the type's smallest subnormal.
                const bool f16 = std::string(t.name) == "f16";
                const double ulp = std::max(std::ldexp(1.0, std::ilogb(r) - (t.bytes == 4 ? 23 : f16 ? 10 : 7)),
                                            std::ldexp(1.0, t.bytes == 4 ? -149 : f16 ? -24 : -133));
                ASSERT_LE(std::fabs(g - r), 2 * ulp) << op << " " << t.name << " lane " << i << " of " << x;
                continue;
            }
            if (std::isnan(r)) {
                ASSERT_TRUE(std::isnan(read_float(t, got.data(), i))) << op << " " << t.name << " lane " << i;
                continue;
            }
        } else if (active) {
            const uint64_t r = integer_reference(op, t, read_integer(t, a.data(), i), b ? read_integer(t, b->data(), i) : 0);
            std::memcpy(want.data(), &r, std::size_t(t.bytes));
        }
        for (int k = 0; k < t.bytes; ++k)
            ASSERT_EQ(got[std::size_t(i * t.bytes + k)], want[std::size_t(k)]) << op << " " << t.name << " lane " << i;
    }
}

void expect_binary_ops_match_the_reference(bool checked = true)
{
    uint32_t seed = 10;
    for (const LaneType& t : kTypes) {
        const std::vector<uint8_t> a = random_lanes(t, seed++), b = random_lanes(t, seed++);
        for (const std::string op : {"vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vand", "vor", "vxor", "vshl", "vshr"}) {
            const bool bitwise = op == "vand" || op == "vor" || op == "vxor" || op == "vshl" || op == "vshr";
            if ((bitwise && t.is_float) || (op == "vdiv" && std::string(t.name) != "f32" && std::string(t.name) != "f16")) continue;
            expect_lanes(op, t, a, &b, run_op(op, t, a, &b, checked));
        }
    }
}

TEST(VectorArith, BinaryOpsMatchTheReferenceOnEveryLaneType) { expect_binary_ops_match_the_reference(); }

// NORM loads and stores and the plain binary operations have baseline, AVX2 and AVX-512 variants
// (engine/vector/register_variants.hpp), picked when the program is lowered: under every SIMD target
// this CPU runs, each gives the reference's lanes, in checked mode and in fast mode (where the load
// copies through the variant's own vectors instead of checked mode's path).
TEST(VectorArith, BinaryOpsMatchTheReferenceUnderEverySimdTarget)
{
    for (const int64_t target : hwy::SupportedAndGeneratedTargets()) {
        hwy::SetSupportedTargetsForTest(target);
        for (const bool checked : {true, false}) {
            SCOPED_TRACE(std::string(hwy::TargetName(target)) + (checked ? ", checked" : ", fast"));
            expect_binary_ops_match_the_reference(checked);
        }
    }
    hwy::SetSupportedTargetsForTest(0);  // back to what the CPU supports
}

TEST(VectorArith, UnaryOpsMatchTheReferenceOnEveryLaneType)
{
    uint32_t seed = 50;
    for (const LaneType& t : kTypes) {
        const std::vector<uint8_t> a = random_lanes(t, seed++);
        for (const std::string op : {"vabs", "vneg", "vnot", "vrelu", "vmov", "vexp", "vln", "vsqrt", "vrsqrt", "vrec"}) {
            const bool math = op == "vexp" || op == "vln" || op == "vsqrt" || op == "vrsqrt" || op == "vrec";
            if ((op == "vnot" && t.is_float) || (math && !t.is_float)) continue;
            expect_lanes(op, t, a, nullptr, run_op(op, t, a, nullptr));
        }
    }
}

}  // namespace
}  // namespace pto::as::testing
