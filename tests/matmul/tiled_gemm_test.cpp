// The tiled GEMM example (examples/gemm) through both doors on a 256 x 1024 . 1024 x 512 problem, two
// tiles of C each way and two k panels: the C++ kernel and the PTO-AS program give the same bits, and
// both lie within the f32 summation bound of the exact product.
#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "../examples/gemm/gemm_kernel.hpp"
#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"
#include "asm/verifier.hpp"
#include "support/asm_arguments.hpp"

using namespace pto;

namespace {

constexpr int kM = 256, kK = 1024, kN = 512;

std::string gemm_program(const std::string& name = "gemm.pto")
{
    std::ifstream in(std::string(PTOSIM_TEST_DATA_DIR) + "/../examples/pto/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(TiledGemm, BothDoorsGiveTheSameBitsWithinTheSummationBound)
{
    std::mt19937 rng(23);
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    std::vector<half> a(std::size_t(kM) * kK), b(std::size_t(kK) * kN);
    for (half& v : a) v = half(value(rng));
    for (half& v : b) v = half(value(rng));

    // The C++ kernel, held to the a2a3 buffers.
    std::vector<float> cpp(std::size_t(kM) * kN);
    runtime::set_target(profile::Target::A2A3);
    gemm::gemm_kernel(a.data(), b.data(), cpp.data(), kM, kN, kK);
    runtime::set_target(profile::Target::Cpu);

    const as::ParseResult parsed = as::parse(gemm_program(), "gemm.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "cannot read gemm.pto" : parsed.diagnostics[0].format());
    const auto found = as::verify(parsed.module, profile::Target::A2A3);
    ASSERT_TRUE(found.empty()) << found[0].format();
    std::vector<float> text(cpp.size());
    auto dimension = [](const char* name, int v) { return as::ArgumentBinding{name, nullptr, 0, {}, double(v)}; };
    as::RunOptions on_a2a3;
    on_a2a3.target = profile::Target::A2A3;
    const as::RunResult r = as::run(parsed.module,
                                    {test::argument("a", a), test::argument("b", b), test::argument("c", text),
                                     dimension("m", kM), dimension("n", kN), dimension("k", kK)},
                                    on_a2a3);
    runtime::set_target(profile::Target::Cpu);
    ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();

    // A sum of k products in f32 lies within k u / (1 - k u) (|A| |B|)_ij of the exact one (u = 2^-24).
    const double unit = std::ldexp(1.0, -24), gamma = kK * unit / (1.0 - kK * unit);
    for (int i = 0; i < kM; ++i)
        for (int j = 0; j < kN; ++j) {
            double exact = 0.0, magnitude = 0.0;
            for (int k = 0; k < kK; ++k) {
                const double product = double(float(a[std::size_t(i) * kK + k])) * double(float(b[std::size_t(k) * kN + j]));
                exact += product;
                magnitude += std::fabs(product);
            }
            const std::size_t at = std::size_t(i) * kN + j;
            ASSERT_EQ(std::bit_cast<uint32_t>(cpp[at]), std::bit_cast<uint32_t>(text[at])) << i << "," << j;
            ASSERT_LE(std::fabs(double(cpp[at]) - exact), gamma * magnitude) << i << "," << j;
        }
}

TEST(TiledGemm, TheCubeMicroInstructionProgramGivesTheSameBits)
{
    std::mt19937 rng(29);
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    std::vector<half> a(std::size_t(kM) * kK), b(std::size_t(kK) * kN);
    for (half& v : a) v = half(value(rng));
    for (half& v : b) v = half(value(rng));
    std::vector<float> cpp(std::size_t(kM) * kN);
    gemm::gemm_kernel(a.data(), b.data(), cpp.data(), kM, kN, kK);

    const as::ParseResult parsed = as::parse(gemm_program("gemm_micro.pto"), "gemm_micro.pto");
    ASSERT_TRUE(parsed.ok()) << (parsed.diagnostics.empty() ? "cannot read gemm_micro.pto" : parsed.diagnostics[0].format());
    auto dimension = [](const char* name, int v) { return as::ArgumentBinding{name, nullptr, 0, {}, double(v)}; };
    for (profile::Target target : {profile::Target::A2A3, profile::Target::A5, profile::Target::Cpu}) {
        const auto found = as::verify(parsed.module, target);
        ASSERT_TRUE(found.empty()) << found[0].format();
        std::vector<float> micro(cpp.size());
        as::RunOptions options;
        options.target = target;
        options.checked = target == profile::Target::A5;
        const as::RunResult r = as::run(parsed.module,
                                        {test::argument("a", a), test::argument("b", b), test::argument("c", micro),
                                         dimension("m", kM), dimension("n", kN), dimension("k", kK)},
                                        options);
        runtime::set_target(profile::Target::Cpu);
        ASSERT_TRUE(r.ok()) << r.diagnostics[0].format();
        for (std::size_t at = 0; at < cpp.size(); ++at)
            ASSERT_EQ(std::bit_cast<uint32_t>(cpp[at]), std::bit_cast<uint32_t>(micro[at])) << at;
    }
}

}  // namespace
