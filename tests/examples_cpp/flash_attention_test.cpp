// Golden test of the flash-attention example kernel (examples/flash_attention): several heads, causal and
// not, D = 64 and 128, logits of ordinary and of large magnitude, one and several blocks, fast and checked
// mode, against the double-precision reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "../examples/flash_attention/flash_attention_kernel.hpp"

namespace {

template <int D>
void expect_attention(flash_attention::Problem p, float logit_scale, int blocks, bool checked)
{
    const size_t n = size_t(p.heads) * p.seq * D;
    std::vector<half> q(n), k(n), v(n);
    std::vector<float> o(n, 0.0f);
    std::mt19937 rng(uint32_t(p.seq * 7 + D + p.causal));
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    // Scores of q . k / sqrt(D) reach about logit_scale^2 * sqrt(D) / 3 in magnitude.
    for (auto& x : q) x = half(unit(rng) * logit_scale);
    for (auto& x : k) x = half(unit(rng) * logit_scale);
    for (auto& x : v) x = half(unit(rng));
    const bool was_checked = pto::runtime::checked();
    pto::runtime::set_checked(checked);
    pto::runtime::clear_warnings();
    pto::sim::launch(blocks, flash_attention::flash_attention_kernel<D>, q.data(), k.data(), v.data(), o.data(), p);
    pto::runtime::set_checked(was_checked);
    // Nothing only the cpu profile accepts: the kernel is one a5 runs.
    ASSERT_TRUE(pto::runtime::warnings().empty()) << pto::runtime::warnings()[0].format();
    for (int h = 0; h < p.heads; ++h) {
        const size_t at = size_t(h) * p.seq * D;
        const std::vector<double> want =
            flash_attention::reference_head(&q[at], &k[at], &v[at], p.seq, D, p.causal);
        for (size_t i = 0; i < want.size(); ++i)
            // The probabilities are rounded to half for the second product: a relative 2^-11 each.
            ASSERT_NEAR(o[at + i], want[i], 2e-3) << "head " << h << ", row " << i / D << ", column " << i % D;
    }
}

TEST(FlashAttentionExample, NonCausalD64) { expect_attention<64>({.heads = 2, .seq = 256, .causal = false}, 1.0f, 3, false); }
TEST(FlashAttentionExample, CausalD128) { expect_attention<128>({.heads = 2, .seq = 192, .causal = true}, 1.0f, 2, false); }
TEST(FlashAttentionExample, LargeLogitsCausalD64) { expect_attention<64>({.heads = 1, .seq = 256, .causal = true}, 6.0f, 1, false); }
TEST(FlashAttentionExample, LargeLogitsD128) { expect_attention<128>({.heads = 1, .seq = 128, .causal = false}, 5.0f, 1, false); }
TEST(FlashAttentionExample, CheckedMode) { expect_attention<64>({.heads = 1, .seq = 128, .causal = true}, 1.0f, 1, true); }

}  // namespace
