// The ptosim command line through run_cli: run / verify / fmt, exit codes, .npy round trips for every
// dtype, and the error cases.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include <pto/common/numeric.hpp>

#include "asm/array_io.hpp"
#include "asm/cli/cli.hpp"
#include "asm/parser.hpp"

namespace pto::as {
namespace {

namespace fs = std::filesystem;

struct Outcome {
    int status;
    std::string out, err;
};

Outcome cli(std::vector<std::string> args)
{
    args.insert(args.begin(), "ptosim");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    std::ostringstream out, err;
    const int status = run_cli(int(argv.size()), argv.data(), out, err);
    return {status, out.str(), err.str()};
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir_ = fs::temp_directory_path() / ("ptosim_cli_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    std::string write(const std::string& name, const std::string& text) const
    {
        std::ofstream(path(name)) << text;
        return path(name);
    }

    static std::string example(const std::string& name) { return std::string(PTOSIM_TEST_DATA_DIR) + "/../examples/pto/" + name; }

    fs::path dir_;
};

HostArray random_f32(std::vector<int64_t> shape, uint32_t seed)
{
    HostArray a = zeros({'f', 4}, std::move(shape));
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> dist(-10, 10);
    auto* p = reinterpret_cast<float*>(a.bytes.data());
    for (std::size_t i = 0; i < a.elements(); ++i) p[i] = dist(gen);
    return a;
}

TEST_F(Cli, RunInTheAdversarialSchedule)
{
    const HostArray a = random_f32({32, 256}, 3), b = random_f32({32, 256}, 4);
    write_npy(path("a.npy"), a);
    write_npy(path("b.npy"), b);
    const std::string program = std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/pipelined_sync.pto";
    const Outcome o = cli({"run", program, "--arg", "a=" + path("a.npy"), "--arg", "b=" + path("b.npy"), "--arg", "c=f32:32x256",
                           "--arg", "n=32", "--out", "c=" + path("c.npy"), "--schedule", "adversarial"});
    ASSERT_EQ(o.status, 0) << o.err;
    const HostArray c = read_npy(path("c.npy"));
    const auto* pa = reinterpret_cast<const float*>(a.bytes.data());
    const auto* pb = reinterpret_cast<const float*>(b.bytes.data());
    const auto* pc = reinterpret_cast<const float*>(c.bytes.data());
    for (std::size_t i = 0; i < c.elements(); ++i) ASSERT_EQ(pc[i], pa[i] + pb[i]) << i;
    const Outcome bad = cli({"run", program, "--schedule", "sideways"});
    EXPECT_NE(bad.status, 0);
    EXPECT_NE(bad.err.find("CLI_USAGE"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("sideways"), std::string::npos) << bad.err;
}

TEST_F(Cli, RunVectorAddWithNpyInputsAndOutput)
{
    const HostArray a = random_f32({32, 256}, 1), b = random_f32({32, 256}, 2);
    write_npy(path("a.npy"), a);
    write_npy(path("b.npy"), b);
    const Outcome o = cli({"run", example("vector_add.pto"), "--arg", "a=" + path("a.npy"), "--arg", "b=" + path("b.npy"), "--arg", "c=f32:32x256",
                           "--arg", "n=32", "--out", "c=" + path("c.npy"), "--check"});
    ASSERT_EQ(o.status, 0) << o.err;
    const HostArray c = read_npy(path("c.npy"));
    EXPECT_EQ(c.shape, (std::vector<int64_t>{32, 256}));
    const auto* pa = reinterpret_cast<const float*>(a.bytes.data());
    const auto* pb = reinterpret_cast<const float*>(b.bytes.data());
    const auto* pc = reinterpret_cast<const float*>(c.bytes.data());
    for (std::size_t i = 0; i < c.elements(); ++i) ASSERT_EQ(pc[i], pa[i] + pb[i]) << i;
}

TEST_F(Cli, RunPrintsScalarResultsAndTakesRawBin)
{
    const HostArray a = random_f32({20, 64}, 3);
    std::ofstream(path("a.bin"), std::ios::binary).write(reinterpret_cast<const char*>(a.bytes.data()), std::streamsize(a.bytes.size()));
    const Outcome o = cli({"run", example("multi_tile_loop.pto"), "--arg", "a=" + path("a.bin") + ":f32:20x64", "--arg", "b=f32:20x64", "--arg",
                           "c=f32:20x64", "--arg", "rows=20", "--out", "c=" + path("c.npy")});
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_EQ(o.out, "2\n");
    const HostArray c = read_npy(path("c.npy"));
    const auto* pa = reinterpret_cast<const float*>(a.bytes.data());
    const auto* pc = reinterpret_cast<const float*>(c.bytes.data());
    for (std::size_t i = 0; i < c.elements(); ++i) ASSERT_EQ(pc[i], pa[i] * pa[i]) << i;
}

TEST_F(Cli, NpyRoundTripForEveryDtype)
{
    // A function that only receives a pointer: --out writes back exactly what --arg read.
    struct Case {
        std::string pto;  // element type of the pointer; empty: i1 (bool)
        ArrayType type;
    };
    const std::vector<Case> cases = {
        {"i1", {'b', 1}},  {"i8", {'i', 1}},  {"i16", {'i', 2}}, {"i32", {'i', 4}}, {"i64", {'i', 8}},     {"ui8", {'u', 1}},
        {"ui16", {'u', 2}}, {"ui32", {'u', 4}}, {"ui64", {'u', 8}}, {"f16", {'f', 2}}, {"f32", {'f', 4}}, {"f64", {'f', 8}},
        {"bf16", {'u', 2}}, {"f8E4M3FN", {'u', 1}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.pto);
        HostArray in = zeros(c.type, {3, 5});
        for (std::size_t i = 0; i < in.bytes.size(); ++i) in.bytes[i] = std::byte(c.type.kind == 'b' ? i % 2 : (i * 37 + 11) & 0xFF);
        write_npy(path("in.npy"), in);
        const std::string program = write("p.pto", "func.func @keep(%p: !pto.ptr<" + c.pto + ">) {\n  return\n}\n");
        const Outcome o = cli({"run", program, "--arg", "p=" + path("in.npy"), "--out", "p=" + path("out.npy")});
        ASSERT_EQ(o.status, 0) << o.err;
        const HostArray out = read_npy(path("out.npy"));
        EXPECT_EQ(out.type, in.type);
        EXPECT_EQ(out.shape, in.shape);
        EXPECT_EQ(out.bytes, in.bytes);
    }
}

TEST_F(Cli, NpyReaderTakesVersion2AndScalarsAndRejectsBigEndian)
{
    // Version 2.0 header (4-byte length), a 0-d array.
    std::string header = "{'descr': '<i4', 'fortran_order': False, 'shape': (), }";
    header.append(64 - (12 + header.size() + 1) % 64, ' ');
    header += '\n';
    std::string file = std::string("\x93NUMPY\x02\x00", 8);
    const uint32_t len = uint32_t(header.size());
    file.append(reinterpret_cast<const char*>(&len), 4);
    file += header;
    const int32_t value = 42;
    file.append(reinterpret_cast<const char*>(&value), 4);
    std::ofstream(path("v2.npy"), std::ios::binary) << file;
    const HostArray a = read_npy(path("v2.npy"));
    EXPECT_TRUE(a.shape.empty());
    EXPECT_EQ(a.elements(), 1u);
    int32_t got = 0;
    std::memcpy(&got, a.bytes.data(), 4);
    EXPECT_EQ(got, 42);

    std::ofstream(path("be.npy"), std::ios::binary) << std::string("\x93NUMPY\x01\x00", 8) << char(60) << char(0)
                                                     << "{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }        \n" << "abcd";
    try {
        read_npy(path("be.npy"));
        FAIL() << "big-endian accepted";
    } catch (const ArrayError& e) {
        EXPECT_EQ(e.code, "CLI_NPY_FORMAT");
    }
}

TEST_F(Cli, VerifyAndExitCodes)
{
    EXPECT_EQ(cli({"verify", example("vector_add.pto")}).status, 0);
    const std::string bad = write("bad.pto", "func.func @f() {\n  %t = pto.alloc_tile : !pto.tile_buf<vec, 256x256xf32>\n  return\n}\n");
    EXPECT_EQ(cli({"verify", "--target", "a5", bad}).status, 0);
    const Outcome o = cli({"verify", "--target", "a2a3", bad});
    EXPECT_EQ(o.status, 1);
    EXPECT_NE(o.err.find("bad.pto:2:8: error[LEGAL_TILE_ADDRESS]"), std::string::npos) << o.err;
    const std::string broken = write("broken.pto", "func.func @f( {\n");
    const Outcome p = cli({"verify", broken});
    EXPECT_EQ(p.status, 1);
    EXPECT_NE(p.err.find("error[PARSE_"), std::string::npos) << p.err;
}

TEST_F(Cli, VerifyAndRunReportMissingPipeSync)
{
    // A flag from the wrong pipe before TADD: the load on MTE2 is not ordered before it.
    const std::string racy = write("racy.pto",
                                   "func.func @f(%a: !pto.ptr<f32>) {\n"
                                   "  %c1 = arith.constant 1 : index\n"
                                   "  %c16 = arith.constant 16 : index\n"
                                   "  %v = pto.make_tensor_view %a, shape = [%c16, %c16], strides = [%c16, %c1] : !pto.tensor_view<?x?xf32>\n"
                                   "  %t = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>\n"
                                   "  pto.tload ins(%v : !pto.tensor_view<?x?xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32>)\n"
                                   "  pto.set_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]\n"
                                   "  pto.wait_flag[<PIPE_MTE3>, <PIPE_V>, <EVENT_ID0>]\n"
                                   "  pto.tadd ins(%t, %t : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%t : !pto.tile_buf<vec, 16x16xf32>)\n"
                                   "  return\n}\n");
    const Outcome o = cli({"verify", racy});
    EXPECT_EQ(o.status, 1);
    EXPECT_NE(o.err.find("racy.pto:9:3: error[ORDER_MISSING_SYNC]: TADD: reads tile %t, which TLOAD at line 6 wrote on pipe MTE2"),
              std::string::npos)
        << o.err;
    const Outcome r = cli({"run", racy, "--arg", "a=f32:16x16"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("error[ORDER_MISSING_SYNC]"), std::string::npos) << r.err;

    // The example has no sync operation: left to the assembler, unless explicit synchronisation is asked for.
    EXPECT_EQ(cli({"verify", example("vector_add.pto")}).status, 0);
    const Outcome e = cli({"verify", "--sync=explicit", example("vector_add.pto")});
    EXPECT_EQ(e.status, 1);
    EXPECT_NE(e.err.find("error[ORDER_MISSING_SYNC]: TADD"), std::string::npos) << e.err;
    const Outcome er = cli({"run", example("vector_add.pto"), "--sync", "explicit", "--arg", "a=f32:16x256", "--arg", "b=f32:16x256",
                            "--arg", "c=f32:16x256", "--arg", "n=16"});
    EXPECT_EQ(er.status, 1);
    EXPECT_NE(er.err.find("error[ORDER_MISSING_SYNC]"), std::string::npos) << er.err;
    EXPECT_EQ(cli({"verify", "--sync", "sometimes", example("vector_add.pto")}).status, 2);
}

TEST_F(Cli, RunCheckFindsWhatOnlyTheRunKnows)
{
    // The event ids are computed: the verifier leaves the function alone, a checked run finds the wait
    // for an id nothing set and exits with 1; an unchecked run does not look.
    const std::string dynamic = write("dynamic.pto",
                                      "func.func @f() {\n"
                                      "  %c1 = arith.constant 1 : index\n"
                                      "  %c2 = arith.constant 2 : index\n"
                                      "  pto.set_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %c1]\n"
                                      "  pto.wait_flag_dyn [#pto.pipe<PIPE_MTE2>, #pto.pipe<PIPE_V>, %c2]\n"
                                      "  return\n}\n");
    EXPECT_EQ(cli({"verify", dynamic}).status, 0);
    const Outcome r = cli({"run", dynamic, "--check"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("dynamic.pto:5:3: error[ORDER_WAIT_WITHOUT_SET]: wait_flag: no set_flag for this wait"), std::string::npos) << r.err;
    EXPECT_EQ(cli({"run", dynamic}).status, 0);
}

TEST_F(Cli, UsageErrorsExitWithTwo)
{
    EXPECT_EQ(cli({}).status, 2);
    EXPECT_EQ(cli({"frobnicate"}).status, 2);
    EXPECT_EQ(cli({"verify", "--target", "tpu", example("vector_add.pto")}).status, 2);
    EXPECT_EQ(cli({"run"}).status, 2);
    EXPECT_EQ(cli({"fmt", "--form", "weird", example("vector_add.pto")}).status, 2);
    EXPECT_EQ(cli({"run", example("vector_add.pto"), "--arg", "novalue"}).status, 2);
    EXPECT_EQ(cli({"--help"}).status, 0);
}

TEST_F(Cli, FmtPrintsAnEquivalentProgram)
{
    const std::string source = std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/vector_add_asm.pto";
    std::ifstream in(source);
    std::stringstream ss;
    ss << in.rdbuf();
    const ParseResult original = parse(ss.str(), source);
    for (const char* form : {"ssa", "dps", "asm", "preserve", "generic"}) {
        const Outcome o = cli({"fmt", "--form", form, source});
        ASSERT_EQ(o.status, 0) << o.err;
        const ParseResult again = parse(o.out, "fmt.pto");
        ASSERT_TRUE(again.ok()) << form;
        EXPECT_TRUE(equivalent(original.module, again.module)) << form;
    }
    EXPECT_NE(cli({"fmt", "--form", "dps", source}).out.find("pto.tadd ins("), std::string::npos);
    EXPECT_NE(cli({"fmt", "--form", "generic", source}).out.find("\"pto.tadd\"(%a_tile, %b_tile, %c_tile) <{operandSegmentSizes"),
              std::string::npos);
}

// A kernel split over a cube function and a vector function (the assembler's front-end pipe spellings)
// runs from either function, with the arguments of both, and gives the lowered kernel's bits.
TEST_F(Cli, RunsAKernelSplitOverTwoFunctions)
{
    HostArray q = zeros({'f', 2}, {128, 128}), k = zeros({'f', 2}, {64, 128});
    std::mt19937 gen(21);
    std::uniform_real_distribution<float> unit(-1, 1);
    for (HostArray* a : {&q, &k})
        for (std::size_t i = 0; i < a->elements(); ++i) reinterpret_cast<half*>(a->bytes.data())[i] = half(unit(gen));
    write_npy(path("q.npy"), q);
    write_npy(path("k.npy"), k);
    std::vector<std::string> outputs;
    for (const std::string& run : {std::string("attention_scores.pto"), std::string("attention_scores_frontend.pto:attention_scores_vector"),
                                   std::string("attention_scores_frontend.pto:attention_scores_cube")}) {
        const std::size_t colon = run.find(':');
        std::vector<std::string> args = {"run", example(run.substr(0, colon)), "--check", "--blocks", "2", "--arg", "q=" + path("q.npy"), "--arg",
                                         "k=" + path("k.npy"), "--arg", "p=f32:128x64", "--arg", "fifo=f32:65536", "--arg", "rows=128",
                                         "--out", "p=" + path("p.npy")};
        if (colon != std::string::npos) args.insert(args.end(), {"--entry", run.substr(colon + 1)});
        const Outcome o = cli(args);
        ASSERT_EQ(o.status, 0) << run << ": " << o.err;
        const HostArray p = read_npy(path("p.npy"));
        outputs.emplace_back(reinterpret_cast<const char*>(p.bytes.data()), p.bytes.size());
    }
    EXPECT_EQ(outputs[1], outputs[0]);
    EXPECT_EQ(outputs[2], outputs[0]);
    // The peer's own arguments are bound and checked as the entry's.
    const std::string pair = write("pair.pto", "func.func @c(%a: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {\n  return\n}\n"
                                               "func.func @v(%b: !pto.ptr<f32>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {\n  return\n}\n");
    EXPECT_EQ(cli({"run", pair, "--arg", "a=f32:8", "--arg", "b=f32:8"}).status, 0);
    const Outcome wrong = cli({"run", pair, "--arg", "a=f32:8", "--arg", "b=f16:8"});
    EXPECT_EQ(wrong.status, 1);
    EXPECT_NE(wrong.err.find("pair.pto:4:14: error[RUN_ARG_DTYPE]: array for %b"), std::string::npos) << wrong.err;
    const Outcome missing = cli({"run", pair, "--entry", "v", "--arg", "b=f32:8"});
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("error[RUN_ARG_MISSING]"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("%a"), std::string::npos) << missing.err;
}

TEST_F(Cli, RunErrorCases)
{
    const std::string va = example("vector_add.pto");
    auto expect_error = [](const Outcome& o, const std::string& code) {
        EXPECT_EQ(o.status, 1) << o.err;
        EXPECT_NE(o.err.find("error[" + code + "]"), std::string::npos) << o.err;
    };
    expect_error(cli({"run", path("missing.pto")}), "CLI_FILE");
    expect_error(cli({"run", va, "--arg", "a=" + path("missing.npy")}), "CLI_FILE");
    expect_error(cli({"run", va, "--entry", "nope"}), "RUN_UNKNOWN_ENTRY");
    expect_error(cli({"run", va, "--arg", "a=f32:16x256", "--arg", "b=f32:16x256", "--arg", "c=f32:16x256", "--arg", "n=16", "--arg", "zz=1"}),
                 "RUN_ARG_UNKNOWN");
    expect_error(cli({"run", va, "--arg", "a=f32:16x256", "--arg", "b=f32:16x256", "--arg", "c=f32:16x256"}), "RUN_ARG_MISSING");
    expect_error(cli({"run", va, "--arg", "a=i32:16x256"}), "RUN_ARG_DTYPE");
    expect_error(cli({"run", va, "--arg", "a=f33:16x256"}), "CLI_ARRAY_SPEC");
    expect_error(cli({"run", va, "--arg", "a=f32:16xx"}), "CLI_ARRAY_SPEC");
    expect_error(cli({"run", va, "--arg", "a=f32:16x256", "--out", "b=" + path("b.npy")}), "CLI_OUT_UNBOUND");
    // The arrays are too small for n = 32 rows: the view check stops the run at the first view
    // (with --check or without).
    for (const char* mode : {"--check", "--blocks=1"}) {
        const Outcome o = cli({"run", va, mode, "--arg", "a=f32:16x256", "--arg", "b=f32:16x256", "--arg", "c=f32:16x256", "--arg", "n=32"});
        EXPECT_EQ(o.status, 1);
        EXPECT_NE(o.err.find("vector_add.pto:8:11: error[RUN_VIEW_BOUNDS]"), std::string::npos) << o.err;
    }
    // A raw file whose size does not match.
    std::ofstream(path("short.bin"), std::ios::binary) << "abc";
    expect_error(cli({"run", va, "--arg", "a=" + path("short.bin") + ":f32:16x256"}), "CLI_RAW_SIZE");
}

}  // namespace
}  // namespace pto::as
