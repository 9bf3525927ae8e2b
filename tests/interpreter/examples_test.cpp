// Golden checks of the example programs: each runs through the interpreter on random inputs and is
// compared with a plain reference loop.
#include "support.hpp"

#include <random>

#include "../examples/attention_scores/attention_scores_kernel.hpp"
#include "../examples/flash_attention/flash_attention_kernel.hpp"

namespace pto::as::testing {
namespace {

// Runs a vector-add program (c = a + b over n x 256 f32) on random data and checks every element.
void expect_vector_add(const std::string& path, std::size_t n, uint32_t seed)
{
    const ParseResult parsed = parse_ok(read_text(path), path);
    auto a = random_vector<float>(n * 256, seed), b = random_vector<float>(n * 256, seed + 1);
    std::vector<float> c(n * 256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", c), scalar_arg("n", double(n))},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST(Examples, VectorAdd) { expect_vector_add(example_path("vector_add.pto"), 64, 1); }

TEST(Examples, GeluMatchesTheDoublePrecisionReference)
{
    // The same formula and constants as the C++ example (examples/gelu/gelu_kernel.hpp).
    const ParseResult parsed = parse_ok(read_text(example_path("gelu.pto")), "gelu.pto");
    const std::size_t n = 48;
    auto x = random_vector<float>(n * 256, 31);
    for (float& v : x) v *= 30.0f;  // well past both saturations of the sigmoid
    x[0] = 0.0f;
    x[1] = -88.0f;
    std::vector<float> y(n * 256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("x", x), array_arg("y", y), scalar_arg("n", double(n))}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t i = 0; i < y.size(); ++i) {
        const double v = x[i];
        const double want = v / (1.0 + std::exp(std::min(-1.5957691216057308 * (v + 0.044715 * v * v * v), 80.0)));
        ASSERT_NEAR(y[i], want, 2e-5 * std::max(std::abs(want), 1e-3)) << "x = " << v << " at " << i;
    }
}

// Runs a row-softmax example over 48 rows of 256 floats (`rows_arg` names the row count; row
// `equal_row` holds one value throughout: 1/256 each) against the double-precision reference.
void expect_row_softmax(const std::string& name, const char* rows_arg, uint32_t seed, std::size_t equal_row)
{
    const ParseResult parsed = parse_ok(read_text(example_path(name)), name);
    const std::size_t n = 48;
    auto x = random_vector<float>(n * 256, seed);
    for (float& v : x) v *= 40.0f;
    for (std::size_t j = 0; j < 256; ++j) x[equal_row * 256 + j] = 2.5f;
    std::vector<float> y(n * 256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("x", x), array_arg("y", y), scalar_arg(rows_arg, double(n))}, checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t i = 0; i < n; ++i) {
        double m = -INFINITY, s = 0;
        for (std::size_t j = 0; j < 256; ++j) m = std::max(m, double(x[i * 256 + j]));
        for (std::size_t j = 0; j < 256; ++j) s += std::exp(double(x[i * 256 + j]) - m);
        for (std::size_t j = 0; j < 256; ++j) {
            const double want = std::exp(double(x[i * 256 + j]) - m) / s;
            ASSERT_NEAR(y[i * 256 + j], want, 1e-5 * want + 1e-37) << name << " row " << i << ", column " << j;
        }
    }
}

TEST(Examples, SoftmaxMatchesTheDoublePrecisionReference) { expect_row_softmax("softmax.pto", "n", 33, 0); }

// The same softmax written with the vector micro-instructions (vlds, vmax, vcmax, vdup, vexp, vcadd,
// vdiv, vsts between the vector core's DMA).
TEST(Examples, VectorLevelSoftmaxMatchesTheDoublePrecisionReference) { expect_row_softmax("softmax_vector.pto", "rows", 34, 1); }

TEST(Examples, LayerNormMatchesTheDoublePrecisionReference)
{
    const ParseResult parsed = parse_ok(read_text(example_path("layernorm.pto")), "layernorm.pto");
    const std::size_t n = 32;
    auto x = random_vector<float>(n * 256, 35), gamma = random_vector<float>(256, 36), beta = random_vector<float>(256, 37);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 3.0f * x[i] + float(i / 256 % 5);  // an offset per row
    std::vector<float> y(n * 256, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("x", x), array_arg("gamma", gamma), array_arg("beta", beta), array_arg("y", y),
                                            scalar_arg("n", double(n))},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t i = 0; i < n; ++i) {
        double mean = 0, var = 0;
        for (std::size_t j = 0; j < 256; ++j) mean += x[i * 256 + j] / 256.0;
        for (std::size_t j = 0; j < 256; ++j) var += (x[i * 256 + j] - mean) * (x[i * 256 + j] - mean) / 256.0;
        for (std::size_t j = 0; j < 256; ++j) {
            const double want = (x[i * 256 + j] - mean) / std::sqrt(var + 1e-5) * gamma[j] + beta[j];
            ASSERT_NEAR(y[i * 256 + j], want, 1e-5 * (1.0 + std::abs(want))) << "row " << i << ", column " << j;
        }
    }
}

TEST(Examples, EmbeddingLookupWithMgather)
{
    const ParseResult parsed = parse_ok(read_text(example_path("embedding.pto")), "embedding.pto");
    const std::size_t vocab = 100;
    auto table = random_vector<float>(vocab * 64, 21);
    std::vector<int32_t> ids(16);
    std::mt19937 gen(22);
    for (auto& id : ids) id = int32_t(gen() % vocab);
    ids[3] = 1000;  // out of range: clamped to the last row
    std::vector<float> out(16 * 64, 0.0f);
    const RunResult r = run(parsed.module, {array_arg("table", table), array_arg("ids", ids), array_arg("out", out), scalar_arg("vocab", double(vocab))},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t row = 0; row < 16; ++row) {
        const std::size_t id = std::min<std::size_t>(std::size_t(ids[row]), vocab - 1);
        for (std::size_t col = 0; col < 64; ++col) ASSERT_EQ(out[row * 64 + col], table[id * 64 + col]) << row << "," << col;
    }
}

TEST(Examples, PerBlockTopKWithTsort32AndTgather)
{
    const ParseResult parsed = parse_ok(read_text(example_path("topk.pto")), "topk.pto");
    const std::size_t k = 5;
    auto scores = random_vector<float>(8 * 32, 23);
    std::vector<uint32_t> ids(32);
    for (uint32_t i = 0; i < 32; ++i) ids[i] = 100 + i;
    std::vector<float> values(8 * k, 0.0f);
    std::vector<uint32_t> indices(8 * k, 0);
    const RunResult r = run(parsed.module, {array_arg("scores", scores), array_arg("ids", ids), array_arg("values", values), array_arg("indices", indices),
                                            scalar_arg("k", double(k))},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    for (std::size_t row = 0; row < 8; ++row) {
        std::vector<uint32_t> order(32);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return scores[row * 32 + x] > scores[row * 32 + y]; });
        for (std::size_t j = 0; j < k; ++j) {
            EXPECT_EQ(values[row * k + j], scores[row * 32 + order[j]]) << row << "," << j;
            EXPECT_EQ(indices[row * k + j], ids[order[j]]) << row << "," << j;
        }
    }
}

TEST(Examples, MultiTileLoopWithRuntimeShape)
{
    const ParseResult parsed = parse_ok(read_text(example_path("multi_tile_loop.pto")), "multi_tile_loop.pto");
    for (std::size_t rows : {std::size_t(1), std::size_t(16), std::size_t(75)}) {
        auto a = random_vector<float>(rows * 64, 24), b = random_vector<float>(rows * 64, 25);
        std::vector<float> c(rows * 64, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", c), scalar_arg("rows", double(rows))},
                                checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        ASSERT_EQ(r.results.size(), 1u);
        EXPECT_EQ(r.results[0], double((rows + 15) / 16));
        for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], (a[i] - b[i]) * a[i]) << rows << ":" << i;
    }
}

TEST(Examples, FrontEndVectorAddInAllThreeForms)
{
    for (const char* name : {"vector_add_asm.pto", "vector_add_dps.pto", "vector_add_ssa.pto"}) {
        SCOPED_TRACE(name);
        const ParseResult parsed = parse_ok(read_text(std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/" + name), name);
        auto a = random_vector<float>(1024, 71), b = random_vector<float>(1024, 72);
        std::vector<float> c(1024, 0.0f);
        const RunResult r = run(parsed.module, {array_arg("a", a), array_arg("b", b), array_arg("c", c)}, checked_run());
        ASSERT_TRUE(r.ok()) << format_all(r);
        for (std::size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
    }
}

TEST(Examples, VectorAddInMlirGenericForm)
{
    expect_vector_add(std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/vector_add_generic.pto", 48, 31);
}


// The PTO-AS flash attention (examples/pto/flash_attention.pto) gives the C++ example kernel's bits, causal
// and not, and both match the double-precision reference.
void expect_flash_attention(bool causal)
{
    const ParseResult parsed = parse_ok(read_text(example_path("flash_attention.pto")), "flash_attention.pto");
    constexpr int kD = 128;
    const flash_attention::Problem p{.heads = 2, .seq = 128, .causal = causal};
    const std::size_t n = std::size_t(p.heads) * p.seq * kD;
    std::vector<half> q(n), k(n), v(n);
    std::mt19937 rng(causal ? 5 : 6);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (auto& x : q) x = half(4.0f * unit(rng));  // logits up to about 16 * sqrt(128) / 3
    for (auto& x : k) x = half(4.0f * unit(rng));
    for (auto& x : v) x = half(unit(rng));
    std::vector<float> text(n, 0.0f), cpp(n, 0.0f);
    const RunResult r = run(parsed.module,
                            {array_arg("q", q), array_arg("k", k), array_arg("v", v), array_arg("o", text),
                             scalar_arg("heads", p.heads), scalar_arg("seq", p.seq), scalar_arg("causal", causal ? 1 : 0)},
                            checked_run());
    ASSERT_TRUE(r.ok()) << format_all(r);
    pto::sim::launch(1, flash_attention::flash_attention_kernel<kD>, q.data(), k.data(), v.data(), cpp.data(), p);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(text[i], cpp[i]) << i;
    for (int h = 0; h < p.heads; ++h) {
        const std::size_t at = std::size_t(h) * p.seq * kD;
        const std::vector<double> want = flash_attention::reference_head(&q[at], &k[at], &v[at], p.seq, kD, causal);
        for (std::size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(text[at + i], want[i], 2e-3) << h << ", " << i;
    }
}

// The PTO-AS attention scores (examples/pto/attention_scores.pto), a mixed kernel, gives the C++ mixed
// kernel's bits over several blocks (each block more bands than its pipe has slots).
TEST(Examples, AttentionScoresMixedKernelMatchesTheCppKernel)
{
    using namespace attention_scores;
    const ParseResult parsed = parse_ok(read_text(example_path("attention_scores.pto")), "attention_scores.pto");
    const int rows = 7 * kRows;
    const uint32_t blocks = 2;
    std::vector<half> q(std::size_t(rows) * kDim), k(std::size_t(kKeys) * kDim);
    std::mt19937 rng(13);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (auto& x : q) x = half(unit(rng));
    for (auto& x : k) x = half(unit(rng));
    std::vector<float> text(std::size_t(rows) * kKeys, -1.0f), cpp(text.size(), -2.0f), fifo(blocks * kFifoFloatsPerBlock);
    RunOptions options = checked_run();
    options.blocks = blocks;
    const RunResult r = run(parsed.module,
                            {array_arg("q", q), array_arg("k", k), array_arg("p", text), array_arg("fifo", fifo), scalar_arg("rows", rows)},
                            options);
    ASSERT_TRUE(r.ok()) << format_all(r);
    pto::sim::launch_mixed(blocks, attention_scores_kernel, attention_scores_kernel, q.data(), k.data(), cpp.data(), fifo.data(), rows);
    for (std::size_t i = 0; i < text.size(); ++i) ASSERT_EQ(text[i], cpp[i]) << i;
}

// The same kernel in the assembler's front-end spellings (examples/pto/attention_scores_frontend.pto: a
// cube function and a vector function, a pipe of 8 slots) gives the lowered spellings' bits.
TEST(Examples, AttentionScoresInTheFrontEndSpellingsGivesTheLoweredKernelsBits)
{
    using namespace attention_scores;
    const int rows = 9 * kRows;  // more bands per block than slots
    const uint32_t blocks = 2;
    std::vector<half> q(std::size_t(rows) * kDim), k(std::size_t(kKeys) * kDim);
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (auto& x : q) x = half(unit(rng));
    for (auto& x : k) x = half(unit(rng));
    std::vector<std::vector<float>> results;
    for (const char* name : {"attention_scores.pto", "attention_scores_frontend.pto"}) {
        SCOPED_TRACE(name);
        const ParseResult parsed = parse_ok(read_text(example_path(name)), name);
        EXPECT_TRUE(verify(parsed.module, profile::Target::Cpu).empty());
        std::vector<float> p(std::size_t(rows) * kKeys, -1.0f), fifo(blocks * 8 * 64 * 64);
        RunOptions options = checked_run();
        options.blocks = blocks;
        const RunResult r =
            run(parsed.module, {array_arg("q", q), array_arg("k", k), array_arg("p", p), array_arg("fifo", fifo), scalar_arg("rows", rows)}, options);
        ASSERT_TRUE(r.ok()) << format_all(r);
        results.push_back(std::move(p));
    }
    for (std::size_t i = 0; i < results[0].size(); ++i) ASSERT_EQ(results[1][i], results[0][i]) << i;
    for (int row = 0; row < rows; ++row) {  // each row a distribution
        double sum = 0;
        for (int c = 0; c < kKeys; ++c) sum += results[1][std::size_t(row) * kKeys + c];
        ASSERT_NEAR(sum, 1.0, 1e-5) << "row " << row;
    }
}

TEST(Examples, FlashAttentionMatchesTheCppKernelAndTheReference) { expect_flash_attention(false); }
TEST(Examples, CausalFlashAttentionMatchesTheCppKernelAndTheReference) { expect_flash_attention(true); }

}  // namespace
}  // namespace pto::as::testing
