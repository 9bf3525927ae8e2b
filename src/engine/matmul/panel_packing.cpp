// panel_packing.hpp's steps, written once with Highway and compiled per SIMD target (foreach_target
// re-includes this file); HWY_DYNAMIC_DISPATCH picks the best target the running CPU supports.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/matmul/panel_packing.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "engine/matmul/panel_packing.hpp"
#include "engine/simd/float16_bits-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace pto::engine::matmul {
namespace HWY_NAMESPACE {

namespace hn = hwy::HWY_NAMESPACE;
using ::pto::engine::HWY_NAMESPACE::BfloatBits;
using ::pto::engine::HWY_NAMESPACE::HalfBits;

// The lanes(d) elements at `in` (element index `at`) as 32-bit words.
template <Element kFrom, class DU>
HWY_INLINE hn::Vec<DU> load_words(DU du, const std::byte* in, int64_t at)
{
    if constexpr (kFrom == Element::Word) {
        return hn::LoadU(du, reinterpret_cast<const uint32_t*>(in) + at);
    } else {
        const hn::Rebind<float, DU> df;
        const auto bits = hn::LoadU(hn::Rebind<uint16_t, DU>(), reinterpret_cast<const uint16_t*>(in) + at);
        using Format = std::conditional_t<kFrom == Element::Half, HalfBits, BfloatBits>;
        return hn::BitCast(du, Format::widen(df, bits));
    }
}

template <Element kFrom>
HWY_INLINE void widen(const std::byte* in, uint32_t* out, int64_t n)
{
    const hn::CappedTag<uint32_t, 16> du;
    const int64_t lanes = int64_t(hn::Lanes(du));
    int64_t e = 0;
    for (; e + lanes <= n; e += lanes) hn::StoreU(load_words<kFrom>(du, in, e), du, out + e);
    const hn::CappedTag<uint32_t, 1> d1;  // the rest one lane at a time, by the same widening
    for (; e < n; ++e) hn::StoreU(load_words<kFrom>(d1, in, e), d1, out + e);
}

void WidenHalves(Element from, const std::byte* in, uint32_t* out, int64_t n)
{
    if (from == Element::Half) return widen<Element::Half>(in, out, n);
    widen<Element::Bfloat>(in, out, n);
}

// Squares of kSide x kSide words are transposed in registers; one word at a time on the scalar target.
constexpr int kSide = HWY_TARGET == HWY_SCALAR ? 1 : 4;
using DSquare = hn::FixedTag<uint32_t, kSide>;
using Square = hn::Vec<DSquare>[kSide];

// v[c] lane r becomes v[r] lane c.
HWY_INLINE void transpose(Square& v)
{
#if HWY_TARGET != HWY_SCALAR
    const DSquare d;
    const hn::Repartition<uint64_t, DSquare> d64;
    const auto rows01_of_01 = hn::BitCast(d64, hn::InterleaveLower(d, v[0], v[1]));  // v0[0] v1[0] v0[1] v1[1]
    const auto rows01_of_23 = hn::BitCast(d64, hn::InterleaveLower(d, v[2], v[3]));
    const auto rows23_of_01 = hn::BitCast(d64, hn::InterleaveUpper(d, v[0], v[1]));
    const auto rows23_of_23 = hn::BitCast(d64, hn::InterleaveUpper(d, v[2], v[3]));
    v[0] = hn::BitCast(d, hn::InterleaveLower(d64, rows01_of_01, rows01_of_23));
    v[1] = hn::BitCast(d, hn::InterleaveUpper(d64, rows01_of_01, rows01_of_23));
    v[2] = hn::BitCast(d, hn::InterleaveLower(d64, rows23_of_01, rows23_of_23));
    v[3] = hn::BitCast(d, hn::InterleaveUpper(d64, rows23_of_01, rows23_of_23));
#else
    (void)v;
#endif
}

template <Element kFrom>
HWY_INLINE void pack_box(const std::byte* in, int rows, uint32_t* out)
{
    const DSquare d;
    for (int c0 = 0; c0 < 16; c0 += kSide)
        for (int r0 = 0; r0 < rows; r0 += kSide) {
            Square v;  // v[c]: rows r0.. of column c0 + c
            for (int c = 0; c < kSide; ++c) v[c] = load_words<kFrom>(d, in, int64_t(c0 + c) * rows + r0);
            transpose(v);
            for (int r = 0; r < kSide; ++r) hn::StoreU(v[r], d, out + (r0 + r) * 16 + c0);
        }
}

void PackZnBox(Element from, const std::byte* in, int rows, uint32_t* out)
{
    switch (from) {
        case Element::Word: return pack_box<Element::Word>(in, rows, out);
        case Element::Half: return pack_box<Element::Half>(in, rows, out);
        case Element::Bfloat: return pack_box<Element::Bfloat>(in, rows, out);
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace pto::engine::matmul
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace pto::engine::matmul {

HWY_EXPORT(WidenHalves);
HWY_EXPORT(PackZnBox);

void widen_halves(Element from, const std::byte* in, uint32_t* out, int64_t n)
{
    HWY_DYNAMIC_DISPATCH(WidenHalves)(from, in, out, n);
}

void pack_zn_box(Element from, const std::byte* in, int rows, uint32_t* out)
{
    HWY_DYNAMIC_DISPATCH(PackZnBox)(from, in, rows, out);
}

}  // namespace pto::engine::matmul
#endif
