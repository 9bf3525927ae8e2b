// pto.vlds and pto.vsts: how each distribution mode maps memory bytes to register lanes.
//
// Every mode follows the C formula of its row in the pto.vlds / pto.vsts tables for every lane of the
// register, so the footprint a mode touches follows from the formula (the pages' "contiguous bytes"
// column contradicts the formulas for DS, SPLT and DINTLV; the README records the decision).
#include <pto/engine/ops/vector.hpp>
#include <pto/engine/ops/vector_memory.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/memory.hpp>

#include <cstring>
#include <string>

#include "engine/vector/register_variants.hpp"

namespace pto::engine::vector {

namespace {

struct LoadMode {
    std::string_view name;
    LoadDist dist;
    int memory_bytes;  // element width in memory; 0: the register's lane width
    int lane_bytes;    // the register lane width the mode fills; 0: any (NORM, BLK), -1: wider than memory (UNPK)
    int stride;        // memory elements per lane (DS 2, SPLT4 4, DINTLV 2); 0 for the other shapes
};

constexpr LoadMode kLoadModes[] = {
    {"NORM", LoadDist::NORM, 0, 0, 1},
    {"BRC_B8", LoadDist::BRC_B8, 1, 1, 0},       {"BRC_B16", LoadDist::BRC_B16, 2, 2, 0},
    {"BRC_B32", LoadDist::BRC_B32, 4, 4, 0},     {"US_B8", LoadDist::US_B8, 1, 1, 0},
    {"US_B16", LoadDist::US_B16, 2, 2, 0},       {"DS_B8", LoadDist::DS_B8, 1, 1, 2},
    {"DS_B16", LoadDist::DS_B16, 2, 2, 2},       {"UNPK_B8", LoadDist::UNPK_B8, 1, -1, 1},
    {"UNPK_B16", LoadDist::UNPK_B16, 2, -1, 1},  {"UNPK_B32", LoadDist::UNPK_B32, 4, -1, 1},
    {"SPLT4CHN_B8", LoadDist::SPLT4CHN_B8, 1, 1, 4}, {"SPLT2CHN_B8", LoadDist::SPLT2CHN_B8, 1, 1, 2},
    {"SPLT2CHN_B16", LoadDist::SPLT2CHN_B16, 2, 2, 2}, {"DINTLV_B32", LoadDist::DINTLV_B32, 4, 4, 2},
    {"BLK", LoadDist::BLK, 0, 0, 0},
};

struct StoreMode {
    std::string_view name;
    StoreDist dist;
    int memory_bytes;  // 0: the register's lane width
    int lane_bytes;    // 0: any
    int channels;      // MRG: planes interleaved
};

constexpr StoreMode kStoreModes[] = {
    {"NORM", StoreDist::NORM, 0, 0, 1},         {"NORM_B8", StoreDist::NORM_B8, 1, 1, 1},
    {"NORM_B16", StoreDist::NORM_B16, 2, 2, 1}, {"NORM_B32", StoreDist::NORM_B32, 4, 4, 1},
    {"PK_B16", StoreDist::PK_B16, 2, 4, 1},     {"PK_B32", StoreDist::PK_B32, 4, 8, 1},
    {"MRG4CHN_B8", StoreDist::MRG4CHN_B8, 1, 1, 4}, {"MRG2CHN_B8", StoreDist::MRG2CHN_B8, 1, 1, 2},
    {"MRG2CHN_B16", StoreDist::MRG2CHN_B16, 2, 2, 2},
};

// What a mode needs of the register, by the lane width it takes.
std::string_view lanes_of(int lane_bytes)
{
    static constexpr std::string_view kNeeds[] = {"", "8-bit lanes", "16-bit lanes", "", "32-bit lanes", "", "", "", "64-bit lanes"};
    return kNeeds[lane_bytes];
}

const LoadMode& mode_of(LoadDist d) { return kLoadModes[static_cast<int>(d)]; }
const StoreMode& mode_of(StoreDist d) { return kStoreModes[static_cast<int>(d)]; }

// Copies the low `to` bytes of a little-endian value of `from` bytes, zero-extending when `to` is wider.
void resize_element(const std::byte* src, int from, std::byte* dst, int to)
{
    std::memcpy(dst, src, std::size_t(std::min(from, to)));
    if (to > from) std::memset(dst + from, 0, std::size_t(to - from));
}

}  // namespace

std::optional<LoadDist> load_dist_from_name(std::string_view name)
{
    for (const LoadMode& m : kLoadModes)
        if (m.name == name) return m.dist;
    return std::nullopt;
}

std::optional<StoreDist> store_dist_from_name(std::string_view name)
{
    for (const StoreMode& m : kStoreModes)
        if (m.name == name) return m.dist;
    return std::nullopt;
}

std::string_view load_dist_name(LoadDist dist) { return mode_of(dist).name; }
std::string_view store_dist_name(StoreDist dist) { return mode_of(dist).name; }

int memory_element_bytes(LoadDist dist, int lane_bytes)
{
    return mode_of(dist).memory_bytes ? mode_of(dist).memory_bytes : lane_bytes;
}

int memory_element_bytes(StoreDist dist, int lane_bytes)
{
    return mode_of(dist).memory_bytes ? mode_of(dist).memory_bytes : lane_bytes;
}

std::string_view load_dist_problem(LoadDist dist, int lane_bytes)
{
    const LoadMode& m = mode_of(dist);
    if (m.lane_bytes > 0 && lane_bytes != m.lane_bytes) return lanes_of(m.lane_bytes);
    if (m.lane_bytes < 0 && lane_bytes <= m.memory_bytes) return "lanes wider than the elements it unpacks";
    return {};
}

std::string_view store_dist_problem(StoreDist dist, int lane_bytes)
{
    const StoreMode& m = mode_of(dist);
    if (m.lane_bytes == 0 || lane_bytes == m.lane_bytes) return {};
    return lanes_of(m.lane_bytes);
}

int64_t footprint_bytes(LoadDist dist, int lane_bytes)
{
    const LoadMode& m = mode_of(dist);
    const int lanes = kRegisterBytes / lane_bytes;
    const int element = memory_element_bytes(dist, lane_bytes);
    switch (dist) {
        case LoadDist::BRC_B8: case LoadDist::BRC_B16: case LoadDist::BRC_B32: return element;
        case LoadDist::US_B8: case LoadDist::US_B16: return int64_t(lanes / 2) * element;
        case LoadDist::BLK: return 32;
        default: return int64_t(lanes) * m.stride * element;
    }
}

int64_t footprint_bytes(StoreDist dist, int lane_bytes)
{
    return int64_t(kRegisterBytes / lane_bytes) * memory_element_bytes(dist, lane_bytes);
}

void load(LoadDist dist, int lane_bytes, const std::byte* src, Register& dst)
{
    const LoadMode& m = mode_of(dist);
    const int lanes = kRegisterBytes / lane_bytes;
    std::byte* out = dst.bytes.data();
    const int element = memory_element_bytes(dist, lane_bytes);
    if (m.stride > 1) require_written(src, element, int64_t(m.stride) * element, lanes);  // every stride-th element
    else require_written(src, footprint_bytes(dist, lane_bytes), 0, 1);
    switch (dist) {
        case LoadDist::NORM:
            std::memcpy(out, src, kRegisterBytes);
            break;
        case LoadDist::BRC_B8: case LoadDist::BRC_B16: case LoadDist::BRC_B32:
            for (int i = 0; i < lanes; ++i) std::memcpy(out + i * lane_bytes, src, std::size_t(lane_bytes));
            break;
        case LoadDist::US_B8: case LoadDist::US_B16:
            for (int i = 0; i < lanes; ++i) std::memcpy(out + i * lane_bytes, src + (i / 2) * element, std::size_t(element));
            break;
        case LoadDist::BLK:
            for (int block = 0; block < kRegisterBytes / 32; ++block) std::memcpy(out + block * 32, src, 32);
            break;
        default:  // DS, SPLT, DINTLV (a stride of elements) and UNPK (zero-extended elements)
            for (int i = 0; i < lanes; ++i) resize_element(src + int64_t(i) * m.stride * element, element, out + i * lane_bytes, lane_bytes);
            break;
    }
}

namespace {

// NORM: the whole register, in each variant (register_variants.hpp) in pieces of its vector width.
// Fast mode, known as one load and no call (false until PTO_CHECK is read); every other case of the
// NORM load is a tail call, so that fast mode's copy saves no register.
bool fast_mode_known() { return runtime::detail::checked_mode.load(std::memory_order_relaxed) == 0; }
[[gnu::noinline]] void load_whole_checked(const std::byte* src, Register& dst)
{
    require_written(src, kRegisterBytes, 0, 1);
    std::memcpy(dst.bytes.data(), src, kRegisterBytes);
}
template <int Piece>
[[gnu::always_inline]] inline void load_whole(const std::byte* src, Register& dst)
{
    if (!fast_mode_known()) [[unlikely]]
        return load_whole_checked(src, dst);
    copy_register_bytes<Piece>(dst.bytes.data(), src);
}
void load_norm(LoadDist, int, const std::byte* src, Register& dst) { load_whole<16>(src, dst); }
PTO_AVX2_VARIANT void load_norm_avx2(LoadDist, int, const std::byte* src, Register& dst) { load_whole<32>(src, dst); }
PTO_AVX512_VARIANT void load_norm_avx512(LoadDist, int, const std::byte* src, Register& dst) { load_whole<64>(src, dst); }

// NORM under a full mask: the whole register; under another, store's blend.
template <int Piece>
[[gnu::always_inline]] inline void store_whole(StoreDist dist, int lane_bytes, const Register& value, const Register& mask, std::byte* dst)
{
    if (!mask.all_active) return store(dist, lane_bytes, value, mask, dst);
    copy_register_bytes<Piece>(dst, value.bytes.data());
    mark_stored(dst, kRegisterBytes);
}
void store_norm(StoreDist dist, int lane_bytes, const Register& value, const Register& mask, std::byte* dst)
{
    store_whole<16>(dist, lane_bytes, value, mask, dst);
}
PTO_AVX2_VARIANT void store_norm_avx2(StoreDist dist, int lane_bytes, const Register& value, const Register& mask, std::byte* dst)
{
    store_whole<32>(dist, lane_bytes, value, mask, dst);
}
PTO_AVX512_VARIANT void store_norm_avx512(StoreDist dist, int lane_bytes, const Register& value, const Register& mask, std::byte* dst)
{
    store_whole<64>(dist, lane_bytes, value, mask, dst);
}

}  // namespace

LoadKernel load_kernel(LoadDist dist)
{
    if (dist != LoadDist::NORM) return &load;
    return pick_variant<LoadKernel>(register_variant(), &load_norm, &load_norm_avx2, &load_norm_avx512);
}

StoreKernel store_kernel(StoreDist dist)
{
    if (dist != StoreDist::NORM) return &store;
    return pick_variant<StoreKernel>(register_variant(), &store_norm, &store_norm_avx2, &store_norm_avx512);
}

void store(StoreDist dist, int lane_bytes, const Register& value, const Register& mask, std::byte* dst)
{
    const StoreMode& m = mode_of(dist);
    const int lanes = kRegisterBytes / lane_bytes;
    const int element = memory_element_bytes(dist, lane_bytes);
    const std::byte* in = value.bytes.data();
    auto active = [&](int lane) { return mask.bytes[std::size_t(lane * lane_bytes)] != std::byte{0}; };
    const bool checked = runtime::checked();
    auto written = [&](std::byte* at, int64_t bytes) {
        if (checked) runtime::mark_written(at, std::size_t(bytes));
    };
    if (m.channels > 1) {
        // Lane c * (lanes / channels) + i of the register (plane c) goes to element i * channels + c.
        const int per_plane = lanes / m.channels;
        for (int lane = 0; lane < lanes; ++lane) {
            if (!active(lane)) continue;
            const int at = (lane % per_plane) * m.channels + lane / per_plane;
            std::memcpy(dst + int64_t(at) * element, in + lane * lane_bytes, std::size_t(element));
            written(dst + int64_t(at) * element, element);
        }
        return;
    }
    if (element == lane_bytes && mask.all_active) {
        std::memcpy(dst, in, kRegisterBytes);
        written(dst, kRegisterBytes);
        return;
    }
    if (element == lane_bytes) {
        // A byte-wise blend: a mask's lanes are all set or all clear, so each byte follows its lane.
        auto* out = reinterpret_cast<uint8_t*>(dst);
        const auto* from = reinterpret_cast<const uint8_t*>(in);
        const auto* keep = reinterpret_cast<const uint8_t*>(mask.bytes.data());
        for (int b = 0; b < kRegisterBytes; ++b) out[b] = uint8_t((from[b] & keep[b]) | (out[b] & ~keep[b]));
        if (checked)
            for (int lane = 0; lane < lanes; ++lane)
                if (active(lane)) written(dst + lane * lane_bytes, lane_bytes);
        return;
    }
    for (int lane = 0; lane < lanes; ++lane)
        if (active(lane)) {
            resize_element(in + lane * lane_bytes, lane_bytes, dst + int64_t(lane) * element, element);
            written(dst + int64_t(lane) * element, element);
        }
}

void require_written_checked(const std::byte* src, int64_t element, int64_t pitch, int64_t lines)
{
    const runtime::ShadowView shadow(src, std::size_t(pitch * (lines - 1) + element));
    if (const int64_t bad = shadow.first_unwritten(src, std::size_t(element), std::size_t(pitch), std::size_t(lines)); bad >= 0)
        runtime::fail({"RUN_UNINIT_READ", "", "source", "reads a byte " + std::to_string(bad) + " bytes past its address that nothing has written",
                       "initialised data", "never-written bytes", ""});
}

}  // namespace pto::engine::vector
