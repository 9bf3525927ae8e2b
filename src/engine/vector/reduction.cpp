// The vector reductions: pto.vcadd / vcmax / vcmin over the whole register, pto.vcgadd / vcgmax /
// vcgmin over each 32-byte group of lanes, pto.vcpadd's inclusive scan. Inactive lanes take no part.
//
// Results: a reduction writes its lane (lane 0, or the first lane of each group) and zeroes every other;
// vcmax / vcmin also write the position of the extremum in lane 1, as an unsigned integer of the lane
// width. A reduction with no active lane gives 0 (and position 0). The scan writes every lane: an
// inactive one holds the running sum, as the page's loop does.
// Floats: sums are computed in float (half widened exactly) as a tree of adjacent pairs (lanes 2i and
// 2i+1, then pairs of those, ...; an inactive lane counts as -0, the identity) and rounded once to the
// lane type; the scan adds lane by lane from lane 0, starting from +0, each lane rounded once. Max and
// min order values as TMAX / TMIN: a NaN loses to any number and +0 beats -0 (for min, -0 wins); the
// first of equal values is the one found. A NaN result (a NaN summed in, inf - inf, only NaNs active)
// is the canonical quiet NaN, as in TROWSUM / TROWMAX. Integer sums wrap.
#include <pto/common/numeric.hpp>
#include <pto/engine/ops/vector.hpp>

#include <cmath>
#include <limits>
#include <type_traits>

#include "engine/elementwise/element_format.hpp"
#include "engine/vector/lanes.hpp"

namespace pto::engine::vector {

namespace {

using elementwise::Format;

template <typename T>
struct Reducer {
    using S = typename Format<T>::Storage;
    using C = typename Format<T>::Compute;
    static constexpr int kLanes = kRegisterBytes / int(sizeof(S));
    static constexpr int kGroupLanes = 32 / int(sizeof(S));

    const Register& a;
    const Register& mask;
    Register& dst;

    bool on(int i) const { return lanes::active(mask, i, int(sizeof(S))); }
    C value(int i) const { return Format<T>::widen(lanes::get<S>(a, i)); }

    static C add(C x, C y)
    {
        if constexpr (std::is_integral_v<C>) return C(std::make_unsigned_t<C>(x) + std::make_unsigned_t<C>(y));  // wraps
        else return x + y;
    }
    static S finish(C result)
    {
        if constexpr (std::is_floating_point_v<C>)
            if (std::isnan(result)) result = std::numeric_limits<C>::quiet_NaN();
        return Format<T>::narrow(result);
    }

    // The sum of lanes [first, first + count), count a power of two, as the tree of adjacent pairs.
    S sum(int first, int count) const
    {
        C level[kLanes];
        bool any = false;
        for (int i = 0; i < count; ++i) {
            any = any || on(first + i);
            level[i] = on(first + i) ? value(first + i) : identity();
        }
        if (!any) return S{};
        for (int n = count; n > 1; n /= 2)
            for (int i = 0; i < n / 2; ++i) level[i] = add(level[2 * i], level[2 * i + 1]);
        return finish(level[0]);
    }
    static C identity()
    {
        if constexpr (std::is_floating_point_v<C>) return C(-0.0);
        else return C{0};
    }

    // Whether `v` replaces `best` in a search for the maximum (or minimum): strictly better only, so
    // the first of equals stays.
    static bool beats(C v, C best, bool max)
    {
        if constexpr (std::is_floating_point_v<C>) {
            if (std::isnan(v)) return false;
            if (std::isnan(best)) return true;
            if (v == best) return std::signbit(best) != std::signbit(v) && (max ? std::signbit(best) : std::signbit(v));
        }
        return max ? v > best : v < best;
    }

    // The extremum of lanes [first, first + count) and its lane, or nothing when none is active.
    bool extremum(int first, int count, bool max, S& found, int& at) const
    {
        bool any = false;
        C best{};
        for (int i = first; i < first + count; ++i) {
            if (!on(i)) continue;
            if (!any || beats(value(i), best, max)) {
                best = value(i);
                at = i;
            }
            any = true;
        }
        if (any) found = finish(best);
        return any;
    }

    void run(ReduceOp op)
    {
        dst = Register{};
        switch (op) {
            case ReduceOp::Sum: lanes::set<S>(dst, 0, sum(0, kLanes)); break;
            case ReduceOp::GroupSum:
                for (int g = 0; g < kLanes; g += kGroupLanes) lanes::set<S>(dst, g, sum(g, kGroupLanes));
                break;
            case ReduceOp::Max: case ReduceOp::Min: {
                S found{};
                int at = 0;
                if (extremum(0, kLanes, op == ReduceOp::Max, found, at)) {
                    lanes::set<S>(dst, 0, found);
                    set_index(at);
                }
                break;
            }
            case ReduceOp::GroupMax: case ReduceOp::GroupMin:
                for (int g = 0; g < kLanes; g += kGroupLanes) {
                    S found{};
                    int at = 0;
                    if (extremum(g, kGroupLanes, op == ReduceOp::GroupMax, found, at)) lanes::set<S>(dst, g, found);
                }
                break;
            case ReduceOp::PrefixSum: {
                C running{};  // +0, as the page's loop starts
                for (int i = 0; i < kLanes; ++i) {
                    if (on(i)) running = add(running, value(i));
                    lanes::set<S>(dst, i, finish(running));
                }
                break;
            }
        }
        lanes::finish_data(dst);
    }

    // Lane 1 holds the position as an unsigned integer of the lane width.
    void set_index(int at)
    {
        using Index = std::conditional_t<sizeof(S) == 1, uint8_t,
                                         std::conditional_t<sizeof(S) == 2, uint16_t, std::conditional_t<sizeof(S) == 4, uint32_t, uint64_t>>>;
        lanes::set<Index>(dst, 1, Index(at));
    }
};

bool is_16_or_32_bit(DType t)
{
    using enum DType;
    return t == I16 || t == U16 || t == I32 || t == U32 || t == F16 || t == F32;
}

}  // namespace

std::string_view reduce_problem(ReduceOp op, DType dtype)
{
    using enum DType;
    switch (op) {
        case ReduceOp::Sum:
            return is_16_or_32_bit(dtype) || dtype == I64 || dtype == U64 ? "" : "16- to 64-bit integer, f16 or f32 lanes";
        case ReduceOp::PrefixSum: return dtype == F16 || dtype == F32 ? "" : "f16 or f32 lanes";
        default: return is_16_or_32_bit(dtype) ? "" : "16- or 32-bit integer, f16 or f32 lanes";
    }
}

void reduce(ReduceOp op, DType dtype, const Register& a, const Register& mask, Register& dst)
{
    elementwise::visit_arithmetic_type(dtype, [&]<typename T>() {
        Reducer<T>{a, mask, dst}.run(op);
        return true;
    });
}

}  // namespace pto::engine::vector
