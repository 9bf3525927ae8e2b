// Helpers of the vector micro-instruction tests that check ops lane by lane against a reference loop:
// a program that TLOADs input bytes into UB and runs a body in a vector scope, the lane types of a
// register, reading and writing one lane as a number, random data salted with special values, and the
// static diagnostics of a body.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <pto/common/numeric.hpp>
#include <pto/engine/dtype.hpp>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing::vector_lanes {

inline constexpr int kIn = 0, kOut = 4096;   // UB byte offsets of the input and output buffers
inline constexpr std::size_t kBytes = 2048;  // each an 8 x 256 u8 tile

// A program that loads `in` (kBytes) into UB at kIn and `out` at kOut, runs `body` in a vector scope
// with %in_T / %out_T: !pto.ptr<T, ub> at those offsets (T: f32, f16, bf16, i8 ... ui64), %all_b8/16/32
// all-true masks, index constants %c0 %c1 %c8 %c32 %c64 %c128 %c256 %c512 %c768, and the function
// parameters `params` (`, %s: f32`); then stores UB at kOut back to `out`.
inline std::string program(const std::string& body, const std::string& params = "")
{
    std::string text = "func.func @k(%in: !pto.ptr<u8>, %out: !pto.ptr<u8>" + params + R"() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %in_at = arith.constant )" + std::to_string(kIn) + R"( : i64
  %out_at = arith.constant )" + std::to_string(kOut) + R"( : i64
  %iv = pto.make_tensor_view %in, shape = [%c8, %c256], strides = [%c256, %c1] : !pto.tensor_view<?x?xu8>
  %ov = pto.make_tensor_view %out, shape = [%c8, %c256], strides = [%c256, %c1] : !pto.tensor_view<?x?xu8>
  %ip = pto.partition_view %iv, offsets = [%c0, %c0], sizes = [%c8, %c256] : !pto.tensor_view<?x?xu8> -> !pto.partition_tensor_view<8x256xu8>
  %op = pto.partition_view %ov, offsets = [%c0, %c0], sizes = [%c8, %c256] : !pto.tensor_view<?x?xu8> -> !pto.partition_tensor_view<8x256xu8>
  %ti = pto.alloc_tile addr = %in_at : !pto.tile_buf<vec, 8x256xu8>
  %to = pto.alloc_tile addr = %out_at : !pto.tile_buf<vec, 8x256xu8>
  pto.tload ins(%ip : !pto.partition_tensor_view<8x256xu8>) outs(%ti : !pto.tile_buf<vec, 8x256xu8>)
  pto.tload ins(%op : !pto.partition_tensor_view<8x256xu8>) outs(%to : !pto.tile_buf<vec, 8x256xu8>)
)";
    for (const char* t : {"f32", "f16", "bf16", "i8", "i16", "i32", "i64", "ui8", "ui16", "ui32", "ui64"}) {
        text += std::string("  %in_") + t + " = pto.castptr %in_at : i64 -> !pto.ptr<" + t + ", ub>\n";
        text += std::string("  %out_") + t + " = pto.castptr %out_at : i64 -> !pto.ptr<" + t + ", ub>\n";
    }
    for (int v : {32, 64, 128, 512, 768}) text += "  %c" + std::to_string(v) + " = arith.constant " + std::to_string(v) + " : index\n";
    std::string scope = "  pto.vecscope {\n";
    for (const char* w : {"b8", "b16", "b32"})
        scope += std::string("    %all_") + w + " = pto.pset_" + w + " \"PAT_ALL\" : !pto.mask<" + w + ">\n";
    return text + scope + body + "  }\n" +
           "  pto.tstore ins(%to : !pto.tile_buf<vec, 8x256xu8>) outs(%op : !pto.partition_tensor_view<8x256xu8>)\n  return\n}\n";
}

// The lane types of a vector register.
struct LaneType {
    std::string name;  // as in !pto.ptr<name, ub> and !pto.vreg<Nxname>
    engine::DType dtype;
    int bytes;
    bool is_float, is_signed;
    int lanes() const { return 256 / bytes; }
    std::string vreg() const { return "!pto.vreg<" + std::to_string(lanes()) + "x" + name + ">"; }
    std::string ptr() const { return "!pto.ptr<" + name + ", ub>"; }
    // The mask width of these lanes (b32 for 64-bit lanes).
    std::string mask_width() const { return bytes == 1 ? "b8" : bytes == 2 ? "b16" : "b32"; }
    std::string mask() const { return "!pto.mask<" + mask_width() + ">"; }
    // The scalar type of a lane (integers signless, as arith.constant writes them).
    std::string scalar() const { return is_float ? name : "i" + std::to_string(bytes * 8); }
};

inline const std::vector<LaneType>& all_lane_types()
{
    using enum engine::DType;
    static const std::vector<LaneType> types = {
        {"f32", F32, 4, true, true},    {"f16", F16, 2, true, true},     {"bf16", BF16, 2, true, true},
        {"i8", I8, 1, false, true},     {"ui8", U8, 1, false, false},    {"i16", I16, 2, false, true},
        {"ui16", U16, 2, false, false}, {"i32", I32, 4, false, true},    {"ui32", U32, 4, false, false},
        {"i64", I64, 8, false, true},   {"ui64", U64, 8, false, false},
    };
    return types;
}

// The raw bits of lane `i` of the register at `data`.
inline uint64_t lane_bits(const uint8_t* data, const LaneType& t, int i)
{
    uint64_t v = 0;
    std::memcpy(&v, data + std::size_t(i * t.bytes), std::size_t(t.bytes));
    return v;
}

inline void set_lane_bits(uint8_t* data, const LaneType& t, int i, uint64_t v) { std::memcpy(data + std::size_t(i * t.bytes), &v, std::size_t(t.bytes)); }

// A float lane's value.
inline double float_of(const LaneType& t, uint64_t bits)
{
    switch (t.dtype) {
        case engine::DType::F32: return std::bit_cast<float>(uint32_t(bits));
        case engine::DType::F16: return double(float(half::from_bits(uint16_t(bits))));
        default: return double(float(bfloat16_t::from_bits(uint16_t(bits))));
    }
}

// A float rounded once (to nearest even) to the lane type, as bits.
inline uint64_t float_bits(const LaneType& t, double v)
{
    switch (t.dtype) {
        case engine::DType::F32: return std::bit_cast<uint32_t>(float(v));
        case engine::DType::F16: return half(v).bits;
        default: return bfloat16_t(v).bits;
    }
}

// An integer lane's value, sign- or zero-extended.
inline int64_t int_of(const LaneType& t, uint64_t bits)
{
    const int shift = 64 - 8 * t.bytes;
    if (shift == 0) return int64_t(bits);
    return t.is_signed ? int64_t(bits << shift) >> shift : int64_t(bits & (~uint64_t{0} >> shift));
}

inline uint64_t wrap_bits(const LaneType& t, uint64_t v) { return t.bytes == 8 ? v : v & ((uint64_t{1} << (8 * t.bytes)) - 1); }

// kBytes of random bytes, with special values (NaN, +-inf, -0, +0, 1) or integer extremes (min, max,
// -1, 0) in some lanes.
inline std::vector<uint8_t> lane_data(const LaneType& t, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<uint8_t> v(kBytes);
    for (auto& b : v) b = uint8_t(gen());
    const int total = int(kBytes) / t.bytes;
    std::vector<uint64_t> specials;
    if (t.is_float) {
        const double inf = std::numeric_limits<double>::infinity();
        for (double s : {std::nan(""), inf, -inf, -0.0, 0.0, 1.0}) specials.push_back(float_bits(t, s));
    } else {
        const uint64_t top = uint64_t{1} << (8 * t.bytes - 1);
        specials = {wrap_bits(t, top), wrap_bits(t, top - 1), wrap_bits(t, ~uint64_t{0}), 0};
    }
    for (int i = 0; i < total; i += 1 + int(gen() % 9)) set_lane_bits(v.data(), t, i, specials[gen() % specials.size()]);
    // Random float bits are often huge or tiny: bring every other lane to a moderate value, so sums
    // and products exercise rounding rather than overflow.
    if (t.is_float)
        for (int i = 1; i < total; i += 2)
            if (std::isfinite(float_of(t, lane_bits(v.data(), t, i))))
                set_lane_bits(v.data(), t, i, float_bits(t, std::ldexp(double(int(gen() % 2001) - 1000), -int(gen() % 6))));
    return v;
}

// Runs `program(body, params)` on `in` (checked mode), the output pre-filled with 0xAB; returns it.
inline std::vector<uint8_t> run_body(const std::string& body, const std::vector<uint8_t>& in, const std::string& params = "",
                                     std::vector<ArgumentBinding> scalars = {})
{
    const ParseResult parsed = parse_ok(program(body, params));
    const auto problems = verify(parsed.module, profile::Target::A5);
    for (const auto& d : problems) ADD_FAILURE() << d.format() << "\n" << body;
    std::vector<uint8_t> input = in, out(kBytes, 0xAB);
    input.resize(kBytes);
    std::vector<ArgumentBinding> args = {array_arg("in", input), array_arg("out", out)};
    args.insert(args.end(), scalars.begin(), scalars.end());
    const RunResult r = run(parsed.module, args, checked_run());
    EXPECT_TRUE(r.ok()) << format_all(r) << body;
    return out;
}

// The codes the verifier reports for `program(body, params)` on a5.
inline std::vector<std::string> static_codes(const std::string& body, const std::string& params = "")
{
    const ParseResult parsed = parse_ok(program(body, params));
    std::vector<std::string> codes;
    for (const auto& d : verify(parsed.module, profile::Target::A5)) codes.push_back(d.code);
    return codes;
}

// `n` random bytes from `seed`.
inline std::vector<uint8_t> random_bytes(std::size_t n, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = uint8_t(gen());
    return v;
}

// The width of `!pto.mask<bN>` for lanes of `lane_bytes` bytes (b32 for 64-bit lanes).
inline std::string mask_name(int lane_bytes) { return "b" + std::to_string(std::min(lane_bytes, 4) * 8); }

inline bool has_code(const std::vector<std::string>& codes, const std::string& code)
{
    for (const auto& c : codes)
        if (c == code) return true;
    return false;
}

// The codes of the run of `program(body)` on `in` (checked mode; the verifier must accept it).
inline std::vector<std::string> run_codes(const std::string& body, const std::vector<uint8_t>& in)
{
    const ParseResult parsed = parse_ok(program(body));
    for (const auto& d : verify(parsed.module, profile::Target::A5)) ADD_FAILURE() << d.format() << "\n" << body;
    std::vector<uint8_t> input = in, out(kBytes, 0xAB);
    const RunResult r = run(parsed.module, {array_arg("in", input), array_arg("out", out)}, checked_run());
    std::vector<std::string> codes;
    for (const auto& d : r.diagnostics) codes.push_back(d.code);
    return codes;
}

// Body lines that store a zero register under `mask` (of `mask_bytes`-byte lanes: 1, 2 or 4) at output
// byte `at`: the mask's lane i is active when bytes [at + i*mask_bytes, +mask_bytes) come back 0, and
// inactive when they keep the 0xAB fill.
inline std::string observe(const std::string& mask, int mask_bytes, int at)
{
    const std::string u = "ui" + std::to_string(mask_bytes * 8), i = "i" + std::to_string(mask_bytes * 8);
    const std::string reg = "!pto.vreg<" + std::to_string(256 / mask_bytes) + "x" + u + ">";
    const std::string width = "!pto.mask<b" + std::to_string(mask_bytes * 8) + ">";
    const std::string tag = mask.substr(1);
    return "    %z_" + tag + " = arith.constant 0 : " + i + "\n" +
           "    %zero_" + tag + " = pto.vbr %z_" + tag + " : " + i + " -> " + reg + "\n" +
           "    %at_" + tag + " = arith.constant " + std::to_string(at / mask_bytes) + " : index\n" +
           "    pto.vsts %zero_" + tag + ", %out_" + u + "[%at_" + tag + "], " + mask + " : " + reg + ", !pto.ptr<" + u + ", ub>, " + width + "\n";
}

inline bool observed(const std::vector<uint8_t>& out, int mask_bytes, int at, int lane)
{
    for (int b = 0; b < mask_bytes; ++b)
        if (out[std::size_t(at + lane * mask_bytes + b)] != 0) return false;
    return true;
}

// Lane i of a PAT_M3 mask: every third lane, from lane 0.
inline bool m3(int i) { return i % 3 == 0; }

}  // namespace pto::as::testing::vector_lanes
