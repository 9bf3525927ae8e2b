// Helpers of the vector micro-instruction tests of one family each (vector_*_test.cpp): a program that
// runs a body in a vector scope over a 2048-byte input and output in UB, and the verifier's codes.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asm/verifier.hpp"
#include "support.hpp"

namespace pto::as::testing::vector_program {

constexpr int kIn = 0, kOut = 4096;   // UB byte offsets of the input and output buffers
constexpr std::size_t kBytes = 2048;  // each an 8 x 256 u8 tile

// A program that loads `in` into UB at kIn and `out` at kOut, runs `body` in a vector scope (with
// %in_T / %out_T: !pto.ptr<T, ub> at those offsets for T in f32, f16, bf16, i8 ... i64, ui8 ... ui64,
// and index constants %c0, %c1, %c8, %c64, %c128, %c256, %c512), then stores UB at kOut back to `out`.
inline std::string program(const std::string& body)
{
    std::string text = R"(func.func @k(%in: !pto.ptr<u8>, %out: !pto.ptr<u8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
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
    return text + "  pto.vecscope {\n" + body + "  }\n" +
           "  pto.tstore ins(%to : !pto.tile_buf<vec, 8x256xu8>) outs(%op : !pto.partition_tensor_view<8x256xu8>)\n  return\n}\n";
}

inline std::vector<uint8_t> random_bytes(std::size_t n, uint32_t seed)
{
    std::mt19937 gen(seed);
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = uint8_t(gen());
    return v;
}

// Runs `program(body)` on `in` (kBytes) with the output pre-filled with 0xAB; returns the output.
inline std::vector<uint8_t> run_body(const std::string& body, const std::vector<uint8_t>& in)
{
    const ParseResult parsed = parse_ok(program(body));
    for (const auto& d : verify(parsed.module, profile::Target::A5)) ADD_FAILURE() << d.format() << "\n" << body;
    std::vector<uint8_t> input = in, out(kBytes, 0xAB);
    input.resize(kBytes);
    const RunResult r = run(parsed.module, {array_arg("in", input), array_arg("out", out)}, checked_run());
    EXPECT_TRUE(r.ok()) << format_all(r) << body;
    return out;
}

// The codes the verifier reports on `program(body)` (the body must parse).
inline std::vector<std::string> verifier_codes(const std::string& body)
{
    const ParseResult parsed = parse_ok(program(body));
    std::vector<std::string> codes;
    for (const auto& d : verify(parsed.module, profile::Target::A5)) codes.push_back(d.code);
    return codes;
}

// `!pto.mask<bN>` for lanes of `lane_bytes` bytes (b32 for 64-bit lanes).
inline std::string mask_name(int lane_bytes) { return "b" + std::to_string(std::min(lane_bytes, 4) * 8); }

}  // namespace pto::as::testing::vector_program
