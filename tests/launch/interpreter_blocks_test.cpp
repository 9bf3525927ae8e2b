// The PTO-AS door's multi-block runs (Interpreter::run with blocks, `ptosim run --blocks N`) on one
// thread and on many: the same bytes, the same synchronisation log, the same diagnostics.
#include <gtest/gtest.h>

#include "thread_count.hpp"

#include "asm/array_io.hpp"
#include "asm/cli/cli.hpp"
#include "interpreter/support.hpp"

#include <pto/common/kernel.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace pto::as::testing {
namespace {

using pto::launch_testing::ScopedThreads;
using pto::launch_testing::many_threads;

// Block b of n computes c = (a + b) * a - b for the 16-row bands b, b + n, b + 2n, ... below row %work of
// a rows x 64 f32 tensor, between synchronisation operations; %work past %rows makes the bands past the
// end leave the tensor (RUN_VIEW_BOUNDS).
const std::string kBandProgram = [] {
    const std::string T = "!pto.tile_buf<vec, 16x64xf32>", V = "!pto.partition_tensor_view<16x64xf32>";
    return R"(func.func @bands(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %c: !pto.ptr<f32>, %rows: index, %work: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %b64 = pto.get_block_idx
  %n64 = pto.get_block_num
  %first = arith.index_cast %b64 : i64 to index
  %step = arith.index_cast %n64 : i64 to index
  %bands = arith.divsi %work, %c16 : index
  %av = pto.make_tensor_view %a, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %bv = pto.make_tensor_view %b, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  %cv = pto.make_tensor_view %c, shape = [%rows, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
  scf.for %band = %first to %bands step %step {
    %row = arith.muli %band, %c16 : index
    %ap = pto.partition_view %av, offsets = [%row, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> )" + V + R"(
    %bp = pto.partition_view %bv, offsets = [%row, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> )" + V + R"(
    %cp = pto.partition_view %cv, offsets = [%row, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> )" + V + R"(
    %x = pto.tload %ap : )" + V + " -> " + T + R"(
    %y = pto.tload %bp : )" + V + " -> " + T + R"(
    pto.set_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    pto.wait_flag[<PIPE_MTE2>, <PIPE_V>, <EVENT_ID0>]
    %s = pto.tadd %x, %y : ()" + T + ", " + T + ") -> " + T + R"(
    %p = pto.tmul %s, %x : ()" + T + ", " + T + ") -> " + T + R"(
    %d = pto.tsub %p, %y : ()" + T + ", " + T + ") -> " + T + R"(
    pto.set_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.wait_flag[<PIPE_V>, <PIPE_MTE3>, <EVENT_ID0>]
    pto.tstore ins(%d : )" + T + ") outs(%cp : " + V + R"()
    pto.set_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    pto.wait_flag[<PIPE_V>, <PIPE_MTE2>, <EVENT_ID1>]
    pto.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
    pto.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID1>]
  }
  return
})";
}();

struct Outcome {
    std::vector<float> c;
    std::vector<std::string> diagnostics;
    std::vector<runtime::SyncRecord> log;
};

Outcome run_bands(const Module& module, std::size_t rows, std::size_t work, uint32_t blocks, bool checked)
{
    auto a = random_vector<float>(rows * 64, 11), b = random_vector<float>(rows * 64, 12);
    Outcome out;
    out.c.assign(rows * 64, 0.0f);
    RunOptions options;
    options.checked = checked;
    options.blocks = blocks;
    runtime::clear_sync_log();
    const RunResult r = run(module, {array_arg("a", a), array_arg("b", b), array_arg("c", out.c), scalar_arg("rows", double(rows)),
                             scalar_arg("work", double(work))},
                            options);
    for (const Diagnostic& d : r.diagnostics) out.diagnostics.push_back(d.format());
    out.log = runtime::sync_log();
    runtime::clear_sync_log();
    return out;
}

// The same diagnostics and synchronisation log; the same bytes unless the run failed (blocks after the
// failing one may have run, or not).
void expect_same(const Outcome& parallel, const Outcome& serial)
{
    ASSERT_EQ(parallel.diagnostics, serial.diagnostics);
    ASSERT_EQ(parallel.c.size(), serial.c.size());
    if (serial.diagnostics.empty()) {
        ASSERT_EQ(std::memcmp(parallel.c.data(), serial.c.data(), serial.c.size() * sizeof(float)), 0) << "the bytes differ";
    }
    ASSERT_EQ(parallel.log.size(), serial.log.size());
    for (std::size_t i = 0; i < serial.log.size(); ++i) {
        ASSERT_EQ(parallel.log[i].block, serial.log[i].block) << i;
        ASSERT_EQ(parallel.log[i].kind, serial.log[i].kind) << i;
        ASSERT_EQ(parallel.log[i].src_pipe, serial.log[i].src_pipe) << i;
    }
}

TEST(InterpreterBlocks, AMultiBlockRunGivesTheSameBytesOnAnyThreadCount)
{
    const ParseResult parsed = parse_ok(kBandProgram);
    for (const bool checked : {false, true}) {
        for (const uint32_t blocks : {3u, 16u}) {
            SCOPED_TRACE(std::to_string(blocks) + (checked ? " blocks, checked" : " blocks"));
            Outcome serial;
            {
                ScopedThreads one(1);
                serial = run_bands(parsed.module, 16 * 37, 16 * 37, blocks, checked);
            }
            ASSERT_TRUE(serial.diagnostics.empty()) << serial.diagnostics[0];
            ASSERT_FALSE(serial.log.empty());
            ScopedThreads all(many_threads());
            for (int round = 0; round < 3; ++round) expect_same(run_bands(parsed.module, 16 * 37, 16 * 37, blocks, checked), serial);
        }
    }
}

TEST(InterpreterBlocks, AFailingRunReportsAsTheSerialRunDoes)
{
    // 40 bands of a tensor that holds 20: blocks 4 to 7 fail at their third band (20 to 23), blocks 0 to
    // 3 at their fourth (24 to 27). A serial run stops at block 0's band 24, rows 384 to 400, and so
    // must every run, though block 4 may well get there first.
    const ParseResult parsed = parse_ok(kBandProgram);
    Outcome serial;
    {
        ScopedThreads one(1);
        serial = run_bands(parsed.module, 16 * 20, 16 * 40, 8, true);
    }
    ASSERT_EQ(serial.diagnostics.size(), 1u);
    EXPECT_NE(serial.diagnostics[0].find("RUN_VIEW_BOUNDS"), std::string::npos) << serial.diagnostics[0];
    EXPECT_NE(serial.diagnostics[0].find("got 384 + 16"), std::string::npos) << serial.diagnostics[0];
    ScopedThreads all(many_threads());
    for (int round = 0; round < 5; ++round) expect_same(run_bands(parsed.module, 16 * 20, 16 * 40, 8, true), serial);
}

// `ptosim run --blocks N` writes the same .npy bytes on one thread and on many.
TEST(InterpreterBlocks, TheCommandLineWritesTheSameBytesOnAnyThreadCount)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("ptosim_blocks_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
    fs::create_directories(dir);
    const std::string program = (dir / "bands.pto").string();
    std::ofstream(program) << kBandProgram;
    const auto cli = [&](const std::string& out) {
        std::vector<std::string> args = {"ptosim", "run", program, "--check", "--blocks", "12", "--arg", "a=f32:640x64", "--arg",
                                         "b=f32:640x64", "--arg", "c=f32:640x64", "--arg", "rows=640", "--arg", "work=640", "--out", "c=" + out};
        // Inputs with content: a from a .npy of random values.
        const std::string a_path = (dir / "a.npy").string();
        HostArray a = zeros({'f', 4}, {640, 64});
        auto values = random_vector<float>(640 * 64, 21);
        std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
        write_npy(a_path, a);
        args[7] = "a=" + a_path;
        std::vector<char*> argv;
        for (auto& s : args) argv.push_back(s.data());
        std::ostringstream o, e;
        const int status = run_cli(int(argv.size()), argv.data(), o, e);
        EXPECT_EQ(status, 0) << e.str();
        std::ifstream in(out, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    std::string serial;
    {
        ScopedThreads one(1);
        serial = cli((dir / "serial.npy").string());
    }
    ASSERT_GT(serial.size(), 640u * 64u * 4u);
    ScopedThreads all(many_threads());
    EXPECT_EQ(cli((dir / "parallel.npy").string()), serial);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace pto::as::testing
