// Compare and select: pto.vcmp / pto.vcmps make a mask of the lanes where a comparison holds (within the
// seed mask), pto.vsel chooses each lane from one of two registers by a mask, pto.vselr / pto.vselrv2
// choose each lane of a register by an index register.
#include <pto/engine/ops/vector.hpp>

#include <type_traits>

#include "engine/elementwise/element_format.hpp"
#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

namespace {

using elementwise::Format;

// Floats compare as IEEE values in float (half and bfloat16 widen exactly): a NaN is unequal to
// everything, itself included, and -0 == +0. Integers compare by the lanes' signedness.
template <typename C>
bool holds(CompareMode mode, C x, C y)
{
    switch (mode) {
        case CompareMode::EQ: return x == y;
        case CompareMode::NE: return !(x == y);
        case CompareMode::LT: return x < y;
        case CompareMode::LE: return x <= y;
        case CompareMode::GT: return x > y;
        case CompareMode::GE: return x >= y;
    }
    return false;
}

// `rhs(i)` gives lane i's right-hand storage.
template <typename T, typename Rhs>
void compare_lanes(CompareMode mode, const Register& a, Rhs&& rhs, const Register& seed, Register& dst)
{
    using S = typename Format<T>::Storage;
    constexpr int kLanes = kRegisterBytes / int(sizeof(S));
    for (int i = 0; i < kLanes; ++i) {
        const bool on = lanes::active(seed, i, int(sizeof(S))) &&
                        holds(mode, Format<T>::widen(lanes::get<S>(a, i)), Format<T>::widen(rhs(i)));
        lanes::set_active(dst, i, int(sizeof(S)), on);
    }
    lanes::finish_mask(dst, lanes::mask_width(int(sizeof(S))));
}

}  // namespace

std::optional<CompareMode> compare_mode_from_name(std::string_view name)
{
    if (name == "eq") return CompareMode::EQ;
    if (name == "ne") return CompareMode::NE;
    if (name == "lt") return CompareMode::LT;
    if (name == "le") return CompareMode::LE;
    if (name == "gt") return CompareMode::GT;
    if (name == "ge") return CompareMode::GE;
    return std::nullopt;
}

void compare(CompareMode mode, DType dtype, const Register& a, const Register& b, const Register& seed, Register& dst)
{
    elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
        using S = typename Format<T>::Storage;
        compare_lanes<T>(mode, a, [&](int i) { return lanes::get<S>(b, i); }, seed, dst);
        return true;
    });
}

void compare_scalar(CompareMode mode, DType dtype, const Register& a, uint64_t scalar_bits, const Register& seed, Register& dst)
{
    elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
        const auto scalar = elementwise::storage_from_bits<T>(scalar_bits);
        compare_lanes<T>(mode, a, [&](int) { return scalar; }, seed, dst);
        return true;
    });
}

void select(int /*lane_bytes*/, const Register& a, const Register& b, const Register& mask, Register& dst)
{
    // A mask's bytes are 0xff or 0x00 over whole lanes, so selecting bytes selects lanes.
    for (std::size_t i = 0; i < std::size_t(kRegisterBytes); ++i)
        dst.bytes[i] = (a.bytes[i] & mask.bytes[i]) | (b.bytes[i] & ~mask.bytes[i]);
    lanes::finish_data(dst);
}

namespace {

template <typename U>
void gather_lanes(const Register& src, const Register& index, Register& dst)
{
    constexpr int kLanes = kRegisterBytes / int(sizeof(U));
    Register out;  // dst may be src or index
    for (int i = 0; i < kLanes; ++i) lanes::set<U>(out, i, lanes::get<U>(src, int(uint64_t(lanes::get<U>(index, i)) % uint64_t(kLanes))));
    dst.bytes = out.bytes;
    lanes::finish_data(dst);
}

}  // namespace

void select_by_index(int lane_bytes, const Register& src, const Register& index, Register& dst)
{
    switch (lane_bytes) {
        case 1: return gather_lanes<uint8_t>(src, index, dst);
        case 2: return gather_lanes<uint16_t>(src, index, dst);
        case 4: return gather_lanes<uint32_t>(src, index, dst);
        default: return gather_lanes<uint64_t>(src, index, dst);
    }
}

}  // namespace pto::engine::vector
