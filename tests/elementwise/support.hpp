// Test support for the element-wise arithmetic: the reference semantics of TADD / TSUB / TMUL / TDIV
// written from their definitions (double precision, a table-search rounding for the 16-bit floats,
// 128-bit integers), random operands, host-memory tile descriptors, and scoped mode switches.
#pragma once

#include <pto/pto-inst.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace ewtest {

using pto::engine::DType;
using pto::engine::TileDesc;

enum class Arith { Add, Sub, Mul, Div };

inline const char* op_name(Arith op)
{
    switch (op) {
        case Arith::Add: return "TADD";
        case Arith::Sub: return "TSUB";
        case Arith::Mul: return "TMUL";
        case Arith::Div: return "TDIV";
    }
    return "?";
}

inline constexpr Arith kOps[] = {Arith::Add, Arith::Sub, Arith::Mul, Arith::Div};

// The engine entry of `op`.
inline void run_engine(Arith op, const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
{
    switch (op) {
        case Arith::Add: return pto::engine::tadd(dst, src0, src1);
        case Arith::Sub: return pto::engine::tsub(dst, src0, src1);
        case Arith::Mul: return pto::engine::tmul(dst, src0, src1);
        case Arith::Div: return pto::engine::tdiv(dst, src0, src1);
    }
}

// The element types each instruction takes on the cpu profile, as the pages list them (union of A2/A3
// and A5), and bf16 division, which only the cpu profile takes (its CPU_DTYPES): written out here,
// independently of the rules header, which the legality tests compare.
inline bool cpu_allows(Arith op, DType t)
{
    switch (t) {
        case DType::F32: case DType::F16: case DType::I32: case DType::U32: case DType::I16: case DType::U16:
        case DType::BF16:
            return true;
        case DType::I8: case DType::U8: return op != Arith::Div;
        case DType::I64: case DType::U64: return op == Arith::Add || op == Arith::Div;
        default: return false;
    }
}

// --- 16-bit float formats, decoded from their definition -------------------------------------------

struct Format16 {
    int fraction_bits;
    int bias;
};
inline constexpr Format16 kHalf{10, 15};
inline constexpr Format16 kBfloat16{7, 127};

inline int exponent_bits(Format16 f) { return 15 - f.fraction_bits; }
inline uint16_t infinity_bits(Format16 f)
{
    return static_cast<uint16_t>(((1u << exponent_bits(f)) - 1) << f.fraction_bits);
}

inline bool is_nan16(Format16 f, uint16_t bits)
{
    return (bits & 0x7fffu) > infinity_bits(f);
}

inline double decode16(Format16 f, uint16_t bits)
{
    const bool negative = (bits & 0x8000u) != 0;
    const unsigned exponent = (bits & 0x7fffu) >> f.fraction_bits;
    const unsigned fraction = bits & ((1u << f.fraction_bits) - 1);
    double magnitude;
    if (exponent == (1u << exponent_bits(f)) - 1) {
        magnitude = fraction ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else if (exponent == 0) {
        magnitude = std::ldexp(double(fraction), 1 - f.bias - f.fraction_bits);
    } else {
        magnitude = std::ldexp(1.0 + std::ldexp(double(fraction), -f.fraction_bits), int(exponent) - f.bias);
    }
    return negative ? -magnitude : magnitude;
}

// Round to nearest, ties to even, by searching the ascending table of every finite magnitude: no bit
// tricks, so it shares nothing with the implementation it checks.
class Rounder16 {
public:
    explicit Rounder16(Format16 f) : format_(f)
    {
        for (uint32_t bits = 0; bits < infinity_bits(f); ++bits) magnitudes_.push_back(decode16(f, uint16_t(bits)));
        // Past the largest finite value comes 2^(emax+1), an even encoding: the infinity.
        overflow_ = std::ldexp(1.0, (1 << exponent_bits(f)) - 1 - f.bias);
    }

    // Returns a NaN's encoding as 0xffff; callers compare NaN-ness only.
    uint16_t round(double x) const
    {
        if (std::isnan(x)) return 0xffff;
        const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
        const double m = std::fabs(x);
        if (m >= overflow_) return sign | infinity_bits(format_);
        const auto above = std::upper_bound(magnitudes_.begin(), magnitudes_.end(), m);
        const auto lo_index = static_cast<uint32_t>(above - magnitudes_.begin() - 1);
        const double lo = magnitudes_[lo_index];
        if (lo == m) return sign | uint16_t(lo_index);
        const double hi = lo_index + 1 < magnitudes_.size() ? magnitudes_[lo_index + 1] : overflow_;
        const uint32_t hi_index = lo_index + 1;  // the infinity's encoding when past the table
        const double below = m - lo, beyond = hi - m;
        if (below < beyond || (below == beyond && lo_index % 2 == 0)) return sign | uint16_t(lo_index);
        return sign | uint16_t(hi_index);
    }

private:
    Format16 format_;
    std::vector<double> magnitudes_;
    double overflow_;
};

inline const Rounder16& half_rounder()
{
    static const Rounder16 r(kHalf);
    return r;
}
inline const Rounder16& bfloat16_rounder()
{
    static const Rounder16 r(kBfloat16);
    return r;
}

// --- element types as the tests handle them --------------------------------------------------------

// Storage is what a tile holds (the bit pattern for the 16-bit floats).
template <typename T>
struct Elem {
    using Storage = T;
    static constexpr DType dtype = pto::engine::dtype_of<T>;
};
template <>
struct Elem<half> {
    using Storage = uint16_t;
    static constexpr DType dtype = DType::F16;
};
template <>
struct Elem<bfloat16_t> {
    using Storage = uint16_t;
    static constexpr DType dtype = DType::BF16;
};

inline double ieee_reference(Arith op, double a, double b)
{
    switch (op) {
        case Arith::Add: return a + b;
        case Arith::Sub: return a - b;
        case Arith::Mul: return a * b;
        case Arith::Div: return a / b;
    }
    return 0;
}

// The reference result of one element. Floats: the double result rounded once (double has more than
// twice the bits of every format here plus two, so that is the correctly rounded result). Integers:
// exact 128-bit arithmetic, wrapped, or for division truncated and saturated.
template <typename T>
typename Elem<T>::Storage reference(Arith op, typename Elem<T>::Storage a, typename Elem<T>::Storage b)
{
    if constexpr (std::is_same_v<T, float>) {
        return static_cast<float>(ieee_reference(op, a, b));
    } else if constexpr (std::is_same_v<T, half>) {
        return half_rounder().round(ieee_reference(op, decode16(kHalf, a), decode16(kHalf, b)));
    } else if constexpr (std::is_same_v<T, bfloat16_t>) {
        return bfloat16_rounder().round(ieee_reference(op, decode16(kBfloat16, a), decode16(kBfloat16, b)));
    } else {
        const __int128 x = a, y = b;
        __int128 exact = 0;
        switch (op) {
            case Arith::Add: exact = x + y; break;
            case Arith::Sub: exact = x - y; break;
            case Arith::Mul: exact = x * y; break;
            case Arith::Div:
                if (y == 0) {
                    if (a == 0) return T{0};
                    return a > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
                }
                exact = std::clamp<__int128>(x / y, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
                return static_cast<T>(exact);
        }
        // Wrap: keep the low bits, as two's complement does.
        return static_cast<T>(static_cast<std::make_unsigned_t<T>>(static_cast<unsigned __int128>(exact)));
    }
}

// Equal as results: NaNs of the 16-bit formats and of float compare by NaN-ness, everything else by bits.
template <typename T>
bool same_result(typename Elem<T>::Storage expected, typename Elem<T>::Storage actual)
{
    if constexpr (std::is_same_v<T, float>) {
        if (std::isnan(expected)) return std::isnan(actual);
        return std::bit_cast<uint32_t>(expected) == std::bit_cast<uint32_t>(actual);
    } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
        const Format16 f = std::is_same_v<T, half> ? kHalf : kBfloat16;
        if (expected == 0xffff) return is_nan16(f, actual);
        return expected == actual;
    } else {
        return expected == actual;
    }
}

// --- random operands -------------------------------------------------------------------------------

// A random operand value: floats spread over many binades (never a NaN or infinity), integers over
// their whole range. `nonzero` keeps divisors away from zero.
template <typename T>
typename Elem<T>::Storage random_value(std::mt19937& rng, bool nonzero = false)
{
    using S = typename Elem<T>::Storage;
    for (;;) {
        S v;
        if constexpr (std::is_same_v<T, float>) {
            const float m = std::uniform_real_distribution<float>(1.0f, 2.0f)(rng);
            v = std::ldexp(m, std::uniform_int_distribution<int>(-20, 20)(rng)) * (rng() % 2 ? 1.0f : -1.0f);
        } else if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
            const Format16 f = std::is_same_v<T, half> ? kHalf : kBfloat16;
            // Magnitudes between 2^-8 and 2^9, any fraction: sums, products and quotients stay interesting.
            const int exponent = std::uniform_int_distribution<int>(std::max(0, f.bias - 8), f.bias + 8)(rng);
            const unsigned fraction = rng() & ((1u << f.fraction_bits) - 1);
            v = static_cast<S>((rng() % 2 ? 0x8000u : 0u) | (unsigned(exponent) << f.fraction_bits) | fraction);
        } else {
            v = static_cast<S>(std::uniform_int_distribution<uint64_t>()(rng));
        }
        if (!nonzero || v != S{0}) return v;
    }
}

// --- tiles in host memory, for the engine entries --------------------------------------------------

struct Layout2 {
    pto::BLayout b;
    pto::SLayout s;
};
inline constexpr Layout2 kRowMajor{pto::BLayout::RowMajor, pto::SLayout::NoneBox};
inline constexpr Layout2 kColMajor{pto::BLayout::ColMajor, pto::SLayout::NoneBox};
inline constexpr Layout2 kNz{pto::BLayout::ColMajor, pto::SLayout::RowMajor};
inline constexpr Layout2 kZn{pto::BLayout::RowMajor, pto::SLayout::ColMajor};
inline constexpr Layout2 kLayouts[] = {kRowMajor, kColMajor, kNz, kZn};

inline std::string layout_label(Layout2 l)
{
    std::string s = l.b == pto::BLayout::RowMajor ? "row-major" : "col-major";
    if (l.s != pto::SLayout::NoneBox) s += l.s == pto::SLayout::RowMajor ? "/row-boxes" : "/col-boxes";
    return s;
}

// A tile descriptor over host memory, every byte filled with random bits first (so that writes
// outside the valid region show).
template <typename T>
class HostTile {
public:
    using S = typename Elem<T>::Storage;

    HostTile(int rows, int cols, int valid_rows, int valid_cols, Layout2 layout, std::mt19937& rng)
        : storage_(std::size_t(rows) * cols)
    {
        desc_.dtype = Elem<T>::dtype;
        desc_.loc = pto::TileType::Vec;
        desc_.rows = rows;
        desc_.cols = cols;
        desc_.valid_rows = valid_rows;
        desc_.valid_cols = valid_cols;
        desc_.blayout = layout.b;
        desc_.slayout = layout.s;
        for (S& e : storage_) e = random_value<T>(rng);
        desc_.data = reinterpret_cast<std::byte*>(storage_.data());
    }

    HostTile(const HostTile&) = delete;
    HostTile& operator=(const HostTile&) = delete;

    const TileDesc& desc() const { return desc_; }
    TileDesc& desc() { return desc_; }
    S& at(int r, int c) { return storage_[std::size_t(desc_.offset(r, c))]; }
    std::vector<S>& storage() { return storage_; }

private:
    std::vector<S> storage_;
    TileDesc desc_;
};

// Box shape of a layout for T (1x1 unboxed), so random capacities can be whole boxes.
template <typename T>
void box_shape(Layout2 layout, int& box_rows, int& box_cols)
{
    TileDesc d;
    d.dtype = Elem<T>::dtype;
    d.blayout = layout.b;
    d.slayout = layout.s;
    box_rows = d.box_rows();
    box_cols = d.box_cols();
}

// Runs `op` on the three tiles and checks every element of dst: the reference result inside the valid
// region (from the sources as they were before the call), the old bits outside it.
template <typename T>
void run_and_check(Arith op, HostTile<T>& dst, HostTile<T>& src0, HostTile<T>& src1, const std::string& context)
{
    using S = typename Elem<T>::Storage;
    const int rows = dst.desc().valid_rows, cols = dst.desc().valid_cols;
    std::vector<S> expected(std::size_t(rows) * cols);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            expected[std::size_t(r) * cols + c] = reference<T>(op, src0.at(r, c), src1.at(r, c));
        }
    }
    const std::vector<S> before = dst.storage();
    std::vector<bool> in_valid(before.size(), false);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) in_valid[std::size_t(dst.desc().offset(r, c))] = true;
    }

    run_engine(op, dst.desc(), src0.desc(), src1.desc());

    int wrong = 0;
    for (int r = 0; r < rows && wrong < 3; ++r) {
        for (int c = 0; c < cols && wrong < 3; ++c) {
            const S want = expected[std::size_t(r) * cols + c];
            const S got = dst.at(r, c);
            if (!same_result<T>(want, got)) {
                ADD_FAILURE() << op_name(op) << " " << context << ": element (" << r << ", " << c << ") is "
                              << +got << ", expected " << +want;
                ++wrong;
            }
        }
    }
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (in_valid[i]) continue;
        if (std::memcmp(&before[i], &dst.storage()[i], sizeof(S)) != 0) {
            ADD_FAILURE() << op_name(op) << " " << context << ": wrote storage element " << i
                          << " outside dst's valid region";
            break;
        }
    }
}

// --- through the intrinsics ----------------------------------------------------------------------

// Calls the intrinsic of `op` when the compile-time profile takes T (the others would not compile).
template <Arith op, typename Dst, typename Src0, typename Src1>
bool call_intrinsic(Dst& dst, Src0& src0, Src1& src1)
{
    constexpr DType t = pto::engine::dtype_of<typename Dst::DType>;
    if constexpr (op == Arith::Add && pto::rules::tadd_dtype_ok(pto::profile::kProfile, t)) {
        pto::TADD(dst, src0, src1);
    } else if constexpr (op == Arith::Sub && pto::rules::tsub_dtype_ok(pto::profile::kProfile, t)) {
        pto::TSUB(dst, src0, src1);
    } else if constexpr (op == Arith::Mul && pto::rules::tmul_dtype_ok(pto::profile::kProfile, t)) {
        pto::TMUL(dst, src0, src1);
    } else if constexpr (op == Arith::Div && pto::rules::tdiv_dtype_ok(pto::profile::kProfile, t)) {
        pto::TDIV(dst, src0, src1);
    } else {
        return false;
    }
    return true;
}

template <typename T, typename S = typename Elem<T>::Storage>
std::vector<S> random_contents(std::mt19937& rng, int64_t count, bool nonzero)
{
    std::vector<S> v(static_cast<std::size_t>(count));
    for (S& e : v) e = random_value<T>(rng, nonzero);
    return v;
}

template <typename T, typename S = typename Elem<T>::Storage>
struct Contents {
    std::vector<S> src0, src1, old_dst;
};

// Values into the whole storage of a tile, recorded as written (for checked mode). This helper and the
// next two take descriptors, not tile types, so that each tile type costs little to compile.
template <typename S>
void store(const TileDesc& t, const std::vector<S>& values)
{
    std::memcpy(t.data, values.data(), values.size() * sizeof(S));
    pto::runtime::mark_written(t.data, values.size() * sizeof(S));
}

// Random sources and old destination contents.
template <typename T>
Contents<T> fill_random(std::mt19937& rng, Arith op, const TileDesc& d, const TileDesc& d0, const TileDesc& d1)
{
    Contents<T> c{random_contents<T>(rng, d0.elements(), false),
                  random_contents<T>(rng, d1.elements(), op == Arith::Div),
                  random_contents<T>(rng, d.elements(), false)};
    store(d0, c.src0);
    store(d1, c.src1);
    store(d, c.old_dst);
    return c;
}

// dst after `op`: the reference results inside its valid region, the old bits outside.
template <typename T, typename S = typename Elem<T>::Storage>
void verify(Arith op, const TileDesc& d, const TileDesc& d0, const TileDesc& d1, const Contents<T>& in)
{
    const S* out = reinterpret_cast<const S*>(d.data);
    std::vector<bool> in_valid(in.old_dst.size(), false);
    for (int r = 0; r < d.valid_rows; ++r) {
        for (int c = 0; c < d.valid_cols; ++c) {
            const auto i = std::size_t(d.offset(r, c));
            in_valid[i] = true;
            const S want =
                reference<T>(op, in.src0[std::size_t(d0.offset(r, c))], in.src1[std::size_t(d1.offset(r, c))]);
            ASSERT_TRUE(same_result<T>(want, out[i])) << op_name(op) << " element (" << r << ", " << c << ") is "
                                                      << +out[i] << ", expected " << +want;
        }
    }
    for (std::size_t i = 0; i < in_valid.size(); ++i) {
        if (!in_valid[i]) {
            ASSERT_EQ(std::memcmp(&in.old_dst[i], &out[i], sizeof(S)), 0) << op_name(op) << " wrote outside";
        }
    }
}

// Runs `op` through its intrinsic on tiles filled with random values and checks dst.
template <Arith op, typename Dst, typename Src0, typename Src1>
void check_intrinsic(Dst& dst, Src0& src0, Src1& src1, std::mt19937& rng)
{
    using T = typename Dst::DType;
    const Contents<T> contents = fill_random<T>(rng, op, dst.desc(), src0.desc(), src1.desc());
    if (call_intrinsic<op>(dst, src0, src1)) verify<T>(op, dst.desc(), src0.desc(), src1.desc(), contents);
}

template <typename Dst, typename Src0, typename Src1>
void check_every_op(Dst& dst, Src0& src0, Src1& src1, std::mt19937& rng)
{
    check_intrinsic<Arith::Add>(dst, src0, src1, rng);
    check_intrinsic<Arith::Sub>(dst, src0, src1, rng);
    check_intrinsic<Arith::Mul>(dst, src0, src1, rng);
    check_intrinsic<Arith::Div>(dst, src0, src1, rng);
}

// --- diagnostics and modes -------------------------------------------------------------------------

template <typename F>
pto::Diagnostic diagnostic_of(F&& f)
{
    try {
        f();
    } catch (const pto::SimError& e) {
        return e.diagnostic();
    }
    return {"no error", "", "", "", "", "", ""};
}

class ScopedChecked {
public:
    explicit ScopedChecked(bool on) : previous_(pto::runtime::checked()) { pto::runtime::set_checked(on); }
    ~ScopedChecked() { pto::runtime::set_checked(previous_); }
    ScopedChecked(const ScopedChecked&) = delete;
    ScopedChecked& operator=(const ScopedChecked&) = delete;

private:
    bool previous_;
};

class ScopedTarget {
public:
    explicit ScopedTarget(pto::profile::Target t) { pto::runtime::set_target(t); }
    ~ScopedTarget() { pto::runtime::set_target(pto::profile::Target::Cpu); }
    ScopedTarget(const ScopedTarget&) = delete;
    ScopedTarget& operator=(const ScopedTarget&) = delete;
};

// Copies host values into a Tile's storage and records them as written (for checked mode).
template <typename TileT, typename S>
void fill_tile(TileT& tile, const std::vector<S>& values)
{
    static_assert(sizeof(S) == sizeof(typename TileT::DType));
    std::memcpy(tile.data(), values.data(), values.size() * sizeof(S));
    pto::runtime::mark_written(tile.data(), values.size() * sizeof(S));
}

template <typename TileT, typename S>
std::vector<S> read_tile(const TileT& tile)
{
    static_assert(sizeof(S) == sizeof(typename TileT::DType));
    std::vector<S> out(TileT::Numel);
    std::memcpy(out.data(), tile.data(), out.size() * sizeof(S));
    return out;
}

}  // namespace ewtest
