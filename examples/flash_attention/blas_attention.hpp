// The yardstick of the flash-attention example and benchmark: attention computed the straightforward way
// on the CPU with OpenBLAS (one thread), from float copies of the inputs: the whole seq x seq score matrix
// S = scale * Q K^T by sgemm, a row softmax (causal: keys after the query excluded), O = P V by sgemm.
#pragma once

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace flash_attention {

class BlasAttention {
public:
    BlasAttention(int seq, int d) : seq_(seq), d_(d), scores_(size_t(seq) * seq) {}

    // One head: q, k, v and o are seq x d, row-major.
    void run_head(const float* q, const float* k, const float* v, float* o, bool causal)
    {
        const float scale = 1.0f / std::sqrt(float(d_));
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, seq_, seq_, d_, scale, q, d_, k, d_, 0.0f, scores_.data(), seq_);
        for (int i = 0; i < seq_; ++i) {
            float* row = &scores_[size_t(i) * seq_];
            const int keys = causal ? i + 1 : seq_;
            const float top = *std::max_element(row, row + keys);
            float sum = 0.0f;
            for (int j = 0; j < keys; ++j) sum += row[j] = std::exp(row[j] - top);
            const float inverse = 1.0f / sum;
            for (int j = 0; j < keys; ++j) row[j] *= inverse;
            std::fill(row + keys, row + seq_, 0.0f);
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, seq_, d_, seq_, 1.0f, scores_.data(), seq_, v, d_, 0.0f, o, d_);
    }

private:
    int seq_, d_;
    std::vector<float> scores_;
};

}  // namespace flash_attention
