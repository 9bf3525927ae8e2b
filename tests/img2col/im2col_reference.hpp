// The im2col reference of the TIMG2COL tests, written from the definition (each output row an output
// pixel, each column a (channel block, kernel row, kernel column, channel) tap), and random geometries.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace pto::test::img2col {

struct Geometry {
    int filter_h, filter_w, stride_h, stride_w, dilation_h, dilation_w;
    uint8_t pad[4];  // left, right, top, bottom
};

inline Geometry random_geometry(std::mt19937& rng)
{
    auto pick = [&](int lo, int hi) { return lo + int(rng() % uint32_t(hi - lo + 1)); };
    return {pick(1, 3), pick(1, 3), pick(1, 2), pick(1, 2), pick(1, 2), pick(1, 2),
            {uint8_t(pick(0, 2)), uint8_t(pick(0, 2)), uint8_t(pick(0, 2)), uint8_t(pick(0, 2))}};
}

// The im2col matrix element (m, k) of an N x D x C1 x H x W x C0 map, written out from the definition.
template <typename T>
T im2col_element(const std::vector<T>& map, const int (&dims)[6], const Geometry& g, int64_t m, int64_t k, T pad_value)
{
    const int n_count = dims[0], depth = dims[1], c1_count = dims[2], h = dims[3], w = dims[4], c0_count = dims[5];
    const int out_h = (h + g.pad[2] + g.pad[3] - g.dilation_h * (g.filter_h - 1) - 1) / g.stride_h + 1;
    const int out_w = (w + g.pad[0] + g.pad[1] - g.dilation_w * (g.filter_w - 1) - 1) / g.stride_w + 1;
    int64_t rest = m;
    const int64_t ow = rest % out_w;
    rest /= out_w;
    const int64_t oh = rest % out_h;
    rest /= out_h;
    const int64_t d = rest % depth, n = rest / depth;
    const int64_t c0 = k % c0_count, kw = k / c0_count % g.filter_w, kh = k / c0_count / g.filter_w % g.filter_h;
    const int64_t c1 = k / c0_count / g.filter_w / g.filter_h;
    const int64_t ih = oh * g.stride_h - g.pad[2] + kh * g.dilation_h, iw = ow * g.stride_w - g.pad[0] + kw * g.dilation_w;
    if (n >= n_count || c1 >= c1_count || ih < 0 || ih >= h || iw < 0 || iw >= w) return pad_value;
    return map[size_t(((((n * depth + d) * c1_count + c1) * h + ih) * w + iw) * c0_count + c0)];
}

}  // namespace pto::test::img2col
