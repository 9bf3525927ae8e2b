// pto.pld* / pto.pst*: a predicate in UB is the 256-bit image of its register, one bit per register
// byte, so that a mask of any width is saved and restored exactly (see vector_memory.hpp).
#include <pto/engine/ops/vector_memory.hpp>

#include "lanes.hpp"

namespace pto::engine::vector {

namespace {

struct PredicateMode {
    std::string_view name;
    PredicateDist dist;
    int64_t bytes;
};

constexpr PredicateMode kModes[] = {{"NORM", PredicateDist::NORM, 32}, {"US", PredicateDist::US, 16}, {"DS", PredicateDist::DS, 64}, {"PK", PredicateDist::PK, 16}};

bool bit(const std::byte* image, int k) { return (std::to_integer<unsigned>(image[k / 8]) >> (k % 8)) & 1u; }

}  // namespace

std::optional<PredicateDist> predicate_dist_from_name(std::string_view name)
{
    for (const PredicateMode& m : kModes)
        if (m.name == name) return m.dist;
    return std::nullopt;
}

int64_t predicate_footprint(PredicateDist dist) { return kModes[static_cast<int>(dist)].bytes; }

void predicate_load(PredicateDist dist, const std::byte* src, int lane_bytes, Register& dst)
{
    require_written(src, predicate_footprint(dist), 0, 1);
    Register image;
    for (int j = 0; j < kRegisterBytes; ++j) {
        const int k = dist == PredicateDist::US ? j / 2 : dist == PredicateDist::DS ? 2 * j : j;
        image.bytes[std::size_t(j)] = bit(src, k) ? std::byte{0xff} : std::byte{0};
    }
    if (lane_bytes) return mask_bitcast(image, lane_bytes, dst);
    lanes::finish_mask(image, 0);
    dst = image;
}

void predicate_store(PredicateDist dist, const Register& mask, std::byte* dst)
{
    const int64_t bytes = predicate_footprint(dist);
    const int step = dist == PredicateDist::PK ? 2 : 1;
    for (int64_t b = 0; b < bytes; ++b) {
        unsigned v = 0;
        for (int k = 0; k < 8; ++k)
            if (mask.bytes[std::size_t((b * 8 + k) * step)] != std::byte{0}) v |= 1u << k;
        dst[b] = std::byte(v);
    }
    mark_stored(dst, bytes);
}

}  // namespace pto::engine::vector
