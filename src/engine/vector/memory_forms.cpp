// pto.vldsx2 / pto.vstsx2 (element or block pairs), pto.vsld / pto.vsst (fixed strides), and the byte
// moves of the block and lane forms (vsldb, vsstb, vgatherb, vgather2, vgather2_bc, vscatter), whose
// addresses the interpreter has resolved and checked.
#include <pto/engine/ops/vector_memory.hpp>

#include <cstring>

namespace pto::engine::vector {

namespace {

struct PairMode {
    std::string_view name;
    PairDist dist;
    int lane_bytes;  // 0: any (BDINTLV)
    bool store;
};

constexpr PairMode kPairModes[] = {
    {"DINTLV_B8", PairDist::DINTLV_B8, 1, false}, {"DINTLV_B16", PairDist::DINTLV_B16, 2, false},
    {"DINTLV_B32", PairDist::DINTLV_B32, 4, false}, {"BDINTLV", PairDist::BDINTLV, 0, false},
    {"INTLV_B8", PairDist::INTLV_B8, 1, true},     {"INTLV_B16", PairDist::INTLV_B16, 2, true},
    {"INTLV_B32", PairDist::INTLV_B32, 4, true},
};

struct StrideName {
    std::string_view name;
    StrideMode mode;
};

constexpr StrideName kStrides[] = {
    {"STRIDE_S3_B16", {3, 2}}, {"STRIDE_S4_B64", {4, 8}}, {"STRIDE_S8_B32", {8, 4}}, {"STRIDE_S2_B64", {2, 8}},
};

}  // namespace

std::optional<PairDist> pair_dist_from_name(std::string_view name, bool store)
{
    for (const PairMode& m : kPairModes)
        if (m.name == name && m.store == store) return m.dist;
    return std::nullopt;
}

std::string_view pair_dist_problem(PairDist dist, int lane_bytes)
{
    const int need = kPairModes[static_cast<int>(dist)].lane_bytes;
    if (need == 0 || need == lane_bytes) return {};
    return need == 1 ? "8-bit lanes" : need == 2 ? "16-bit lanes" : "32-bit lanes";
}

void load_pair(PairDist dist, int lane_bytes, const std::byte* src, Register& low, Register& high)
{
    require_written(src, kPairBytes, 0, 1);
    // BDINTLV pairs 32-byte blocks, DINTLV elements: either way units 2u and 2u+1 of the footprint.
    const int unit = dist == PairDist::BDINTLV ? kBlockBytes : lane_bytes;
    for (int u = 0; u < kRegisterBytes / unit; ++u) {
        std::memcpy(low.bytes.data() + u * unit, src + 2 * u * unit, std::size_t(unit));
        std::memcpy(high.bytes.data() + u * unit, src + (2 * u + 1) * unit, std::size_t(unit));
    }
    low.lane_bytes = high.lane_bytes = 0;
    low.all_active = high.all_active = false;
}

void store_pair(int lane_bytes, const Register& low, const Register& high, const Register& mask, std::byte* dst)
{
    for (int i = 0; i < kRegisterBytes / lane_bytes; ++i) {
        if (mask.bytes[std::size_t(i * lane_bytes)] == std::byte{0}) continue;
        std::memcpy(dst + 2 * i * lane_bytes, low.bytes.data() + i * lane_bytes, std::size_t(lane_bytes));
        std::memcpy(dst + (2 * i + 1) * lane_bytes, high.bytes.data() + i * lane_bytes, std::size_t(lane_bytes));
        mark_stored(dst + 2 * i * lane_bytes, 2 * lane_bytes);
    }
}

std::optional<StrideMode> stride_from_name(std::string_view name)
{
    for (const StrideName& s : kStrides)
        if (s.name == name) return s.mode;
    return std::nullopt;
}

void strided_load(StrideMode m, const std::byte* src, Register& dst)
{
    const int lanes = kRegisterBytes / m.lane_bytes, pitch = m.step * m.lane_bytes;
    require_written(src, m.lane_bytes, pitch, lanes);
    for (int i = 0; i < lanes; ++i) std::memcpy(dst.bytes.data() + i * m.lane_bytes, src + i * pitch, std::size_t(m.lane_bytes));
    dst.lane_bytes = 0;
    dst.all_active = false;
}

void strided_store(StrideMode m, const Register& value, std::byte* dst)
{
    const int lanes = kRegisterBytes / m.lane_bytes, pitch = m.step * m.lane_bytes;
    for (int i = 0; i < lanes; ++i) {
        std::memcpy(dst + i * pitch, value.bytes.data() + i * m.lane_bytes, std::size_t(m.lane_bytes));
        mark_stored(dst + i * pitch, m.lane_bytes);
    }
}

void load_blocks(const std::array<const std::byte*, kBlocks>& blocks, Register& dst)
{
    for (int j = 0; j < kBlocks; ++j) {
        std::byte* out = dst.bytes.data() + j * kBlockBytes;
        if (!blocks[std::size_t(j)]) {
            std::memset(out, 0, kBlockBytes);
            continue;
        }
        require_written(blocks[std::size_t(j)], kBlockBytes, 0, 1);
        std::memcpy(out, blocks[std::size_t(j)], kBlockBytes);
    }
    dst.lane_bytes = 0;
    dst.all_active = false;
}

void store_blocks(const Register& value, const std::array<std::byte*, kBlocks>& blocks)
{
    for (int j = 0; j < kBlocks; ++j)
        if (std::byte* at = blocks[std::size_t(j)]) {
            std::memcpy(at, value.bytes.data() + j * kBlockBytes, kBlockBytes);
            mark_stored(at, kBlockBytes);
        }
}

void gather_lanes(int lane_bytes, const std::array<const std::byte*, kRegisterBytes>& lanes, Register& dst)
{
    for (int i = 0; i < kRegisterBytes / lane_bytes; ++i) {
        std::byte* out = dst.bytes.data() + i * lane_bytes;
        if (const std::byte* at = lanes[std::size_t(i)]) {
            require_written(at, lane_bytes, 0, 1);
            std::memcpy(out, at, std::size_t(lane_bytes));
        } else {
            std::memset(out, 0, std::size_t(lane_bytes));
        }
    }
    dst.lane_bytes = 0;
    dst.all_active = false;
}

void scatter_lanes(int lane_bytes, const Register& value, const std::array<std::byte*, kRegisterBytes>& lanes)
{
    // From the last lane down, so that of lanes writing one address the lowest writes last.
    for (int i = kRegisterBytes / lane_bytes - 1; i >= 0; --i)
        if (std::byte* at = lanes[std::size_t(i)]) {
            std::memcpy(at, value.bytes.data() + i * lane_bytes, std::size_t(lane_bytes));
            mark_stored(at, lane_bytes);
        }
}

}  // namespace pto::engine::vector
