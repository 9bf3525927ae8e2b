// The lowercase (Bisheng-style) C++ forms of the vector micro-instructions that the ISA pages show:
// `vector_f32`, `vector_bool`, `vadd(dst, a, b, mask)`, `pset_b32(__cce_simd::PAT_VL16)`,
// `plt_b32(n, __cce_simd::POST_UPDATE)`, `pld(dst, base, offset, __cce_simd::NORM)` with `__ubuf__`
// pointers, `vbitsort`, `get_buf(pipe, id, mode)` ... Opt-in: pto/pto-inst.hpp does not include it.
// Each form is a thin call of the uppercase form of pto/intrinsics/vector.hpp (same checks, same
// kernels); the register types are the uppercase ones. The names live in namespace pto::cce, made
// visible at global scope as the pages use them, unless PTO_CCE_NO_GLOBAL_NAMES is defined.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <pto/pto-inst.hpp>
#include <pto/runtime/cross_core_flags.hpp>

// The pages' address-space qualifier of a UB pointer: a host pointer into UB here.
#ifndef __ubuf__
#define __ubuf__
#endif

// The pages' mode and pattern tokens, each carrying the token the uppercase form reads.
namespace __cce_simd {
struct Pattern {
    const char* name;
};
inline constexpr Pattern PAT_ALL{"PAT_ALL"}, PAT_ALLF{"PAT_ALLF"}, PAT_H{"PAT_H"}, PAT_Q{"PAT_Q"}, PAT_M3{"PAT_M3"}, PAT_M4{"PAT_M4"},
    PAT_VL1{"PAT_VL1"}, PAT_VL2{"PAT_VL2"}, PAT_VL3{"PAT_VL3"}, PAT_VL4{"PAT_VL4"}, PAT_VL8{"PAT_VL8"}, PAT_VL16{"PAT_VL16"},
    PAT_VL32{"PAT_VL32"}, PAT_VL64{"PAT_VL64"}, PAT_VL128{"PAT_VL128"};

struct Part {
    const char* name;
};
inline constexpr Part LOWER{"LOWER"}, HIGHER{"HIGHER"};

struct PredicateDist {
    const char* name;
};
inline constexpr PredicateDist NORM{"NORM"}, US{"US"}, DS{"DS"}, PK{"PK"};

// Whether a form moves its base (plt: its count) on after the access.
enum PostMode : bool { NO_POST_UPDATE = false, POST_UPDATE = true };
}  // namespace __cce_simd

namespace pto::cce {

using vector_f32 = VReg<64, float>;
using vector_f16 = VReg<128, half>;
using vector_bf16 = VReg<128, bfloat16_t>;
using vector_s8 = VReg<256, int8_t>;
using vector_u8 = VReg<256, uint8_t>;
using vector_s16 = VReg<128, int16_t>;
using vector_u16 = VReg<128, uint16_t>;
using vector_s32 = VReg<64, int32_t>;
using vector_u32 = VReg<64, uint32_t>;
using vector_s64 = VReg<32, int64_t>;
using vector_u64 = VReg<32, uint64_t>;
// A predicate register, its width set by the operation that writes it.
using vector_bool = RegBuf<predicate_t>;
using vector_align = Align;
// pld / pst's offset register: a count of 8-byte units, as PLD's slot.
struct vector_address {
    int64_t slots = 0;
};

namespace ub_pointer {
template <typename T>
Ptr<ub_space_t, T> ub(T* host_address)
{
    return Ptr<ub_space_t, T>(host_address);
}
// `base` moved on by `bytes` bytes (a post-update).
template <typename T>
void advance(T*& base, int64_t bytes)
{
    base = reinterpret_cast<T*>(reinterpret_cast<std::byte*>(base) + bytes);
}
}  // namespace ub_pointer

// ---- lane operations: the uppercase forms under their page names ----

#define PTO_CCE_FORWARD(lower, UPPER)                                                                                 \
    template <typename... Args>                                                                                       \
    inline auto lower(Args&&... args) -> decltype(UPPER(std::forward<Args>(args)...))                                 \
    {                                                                                                                 \
        return UPPER(std::forward<Args>(args)...);                                                                    \
    }
// (dst, src0, src1, mask)
PTO_CCE_FORWARD(vadd, VADD)
PTO_CCE_FORWARD(vsub, VSUB)
PTO_CCE_FORWARD(vmul, VMUL)
PTO_CCE_FORWARD(vdiv, VDIV)
PTO_CCE_FORWARD(vmax, VMAX)
PTO_CCE_FORWARD(vmin, VMIN)
PTO_CCE_FORWARD(vand, VAND)
PTO_CCE_FORWARD(vor, VOR)
PTO_CCE_FORWARD(vxor, VXOR)
PTO_CCE_FORWARD(vshl, VSHL)
PTO_CCE_FORWARD(vshr, VSHR)
PTO_CCE_FORWARD(vaddrelu, VADDRELU)
PTO_CCE_FORWARD(vsubrelu, VSUBRELU)
// (dst, src, mask)
PTO_CCE_FORWARD(vabs, VABS)
PTO_CCE_FORWARD(vneg, VNEG)
PTO_CCE_FORWARD(vnot, VNOT)
PTO_CCE_FORWARD(vrelu, VRELU)
PTO_CCE_FORWARD(vexp, VEXP)
PTO_CCE_FORWARD(vln, VLN)
PTO_CCE_FORWARD(vsqrt, VSQRT)
PTO_CCE_FORWARD(vrsqrt, VRSQRT)
PTO_CCE_FORWARD(vrec, VREC)
PTO_CCE_FORWARD(vmov, VMOV)
// (dst, src, scalar, mask)
PTO_CCE_FORWARD(vadds, VADDS)
PTO_CCE_FORWARD(vsubs, VSUBS)
PTO_CCE_FORWARD(vmuls, VMULS)
PTO_CCE_FORWARD(vmaxs, VMAXS)
PTO_CCE_FORWARD(vmins, VMINS)
PTO_CCE_FORWARD(vands, VANDS)
PTO_CCE_FORWARD(vors, VORS)
PTO_CCE_FORWARD(vxors, VXORS)
PTO_CCE_FORWARD(vshls, VSHLS)
PTO_CCE_FORWARD(vshrs, VSHRS)
PTO_CCE_FORWARD(vlrelu, VLRELU)
// (dst, src0, src1, mask) on predicates, pnot (dst, src, mask)
PTO_CCE_FORWARD(pand, PAND)
PTO_CCE_FORWARD(por, POR)
PTO_CCE_FORWARD(pxor, PXOR)
PTO_CCE_FORWARD(pnot, PNOT)
// (dst0, dst1, src0, src1)
PTO_CCE_FORWARD(pintlv_b8, PINTLV_B8)
PTO_CCE_FORWARD(pintlv_b16, PINTLV_B16)
PTO_CCE_FORWARD(pintlv_b32, PINTLV_B32)
PTO_CCE_FORWARD(pdintlv_b8, PDINTLV_B8)
PTO_CCE_FORWARD(pdintlv_b16, PDINTLV_B16)
PTO_CCE_FORWARD(pdintlv_b32, PDINTLV_B32)
#undef PTO_CCE_FORWARD

// psel(dst, src0, src1, sel): src0 where sel is active, src1 elsewhere (the page's fourth operand is
// the selector; PSEL's masking predicate changes nothing, so the selector serves as both).
template <typename D, typename A, typename B, typename S>
inline void psel(D& dst, const A& src0, const B& src1, const S& sel)
{
    PSEL(dst, src0, src1, sel, sel);
}

template <typename D, typename S>
inline void ppack(D& dst, const S& src, __cce_simd::Part part)
{
    PPACK(dst, src, part.name);
}
template <typename D, typename S>
inline void punpack(D& dst, const S& src, __cce_simd::Part part)
{
    PUNPACK(dst, src, part.name);
}

// ---- predicate generation: the mask as the result ----

#define PTO_CCE_PATTERN(lower, UPPER)                                                                                 \
    inline vector_bool lower(__cce_simd::Pattern pattern)                                                             \
    {                                                                                                                 \
        vector_bool mask;                                                                                             \
        UPPER(mask, pattern.name);                                                                                    \
        return mask;                                                                                                  \
    }
PTO_CCE_PATTERN(pset_b8, PSET_B8)
PTO_CCE_PATTERN(pset_b16, PSET_B16)
PTO_CCE_PATTERN(pset_b32, PSET_B32)
PTO_CCE_PATTERN(pge_b8, PGE_B8)
PTO_CCE_PATTERN(pge_b16, PGE_B16)
PTO_CCE_PATTERN(pge_b32, PGE_B32)
#undef PTO_CCE_PATTERN

// plt_b*(count, mode): the first `count` lanes; POST_UPDATE leaves in `count` what is left for the next
// register (count minus the lanes, never below zero).
#define PTO_CCE_PLT(lower, UPPER)                                                                                     \
    inline vector_bool lower(uint32_t& count, __cce_simd::PostMode mode)                                              \
    {                                                                                                                 \
        vector_bool mask;                                                                                             \
        const uint32_t left = UPPER(mask, count);                                                                     \
        if (mode == __cce_simd::POST_UPDATE) count = left;                                                            \
        return mask;                                                                                                  \
    }
PTO_CCE_PLT(plt_b8, PLT_B8)
PTO_CCE_PLT(plt_b16, PLT_B16)
PTO_CCE_PLT(plt_b32, PLT_B32)
#undef PTO_CCE_PLT

// ---- predicate loads and stores through __ubuf__ pointers ----
// pld / pst: at base + 8 * offset.slots bytes. pldi / psti, plds / psts: at base + 8 * offset bytes;
// with POST_UPDATE the access is at base and base then moves on by 8 * offset bytes.

template <typename D, typename T>
inline void pld(D& dst, __ubuf__ T* base, vector_address offset, __cce_simd::PredicateDist dist)
{
    PLD(dst, ub_pointer::ub(base), offset.slots, dist.name);
}
template <typename S, typename T>
inline void pst(const S& src, __ubuf__ T* base, vector_address offset, __cce_simd::PredicateDist dist)
{
    PST(src, ub_pointer::ub(base), offset.slots, dist.name);
}

template <typename D, typename T>
inline void pldi(D& dst, __ubuf__ T*& base, int32_t offset, __cce_simd::PredicateDist dist, __cce_simd::PostMode mode = __cce_simd::NO_POST_UPDATE)
{
    if (mode) pto::detail::vec::check_predicate_immediate(offset);  // the update is the instruction's immediate
    PLDI(dst, ub_pointer::ub(base), mode ? 0 : offset, dist.name);
    if (mode) ub_pointer::advance(base, 8 * int64_t(offset));
}
template <typename S, typename T>
inline void psti(const S& src, __ubuf__ T*& base, int32_t offset, __cce_simd::PredicateDist dist, __cce_simd::PostMode mode = __cce_simd::NO_POST_UPDATE)
{
    if (mode) pto::detail::vec::check_predicate_immediate(offset);  // the update is the instruction's immediate
    PSTI(src, ub_pointer::ub(base), mode ? 0 : offset, dist.name);
    if (mode) ub_pointer::advance(base, 8 * int64_t(offset));
}
template <typename D, typename T>
inline void plds(D& dst, __ubuf__ T*& base, int32_t offset, __cce_simd::PredicateDist dist, __cce_simd::PostMode mode = __cce_simd::NO_POST_UPDATE)
{
    PLDS(dst, ub_pointer::ub(base).template as<ub_t>() + (mode ? 0 : 8 * int64_t(offset)), dist.name);
    if (mode) ub_pointer::advance(base, 8 * int64_t(offset));
}
template <typename S, typename T>
inline void psts(const S& src, __ubuf__ T*& base, int32_t offset, __cce_simd::PredicateDist dist, __cce_simd::PostMode mode = __cce_simd::NO_POST_UPDATE)
{
    PSTS(src, ub_pointer::ub(base).template as<ub_t>() + (mode ? 0 : 8 * int64_t(offset)), dist.name);
    if (mode) ub_pointer::advance(base, 8 * int64_t(offset));
}

// pstu(align, src, base): src's 32-byte image appended to the stream at base; base moves on by 32
// bytes and align holds the stream's tail. vstar(align, base) writes the tail at the stream's end.
template <typename S, typename T>
inline void pstu(vector_align& align, const S& src, __ubuf__ T*& base)
{
    PSTU(src, ub_pointer::ub(base), align, align);
    ub_pointer::advance(base, 32);
}
template <typename T>
inline void vstar(const vector_align& align, __ubuf__ T* base)
{
    VSTAR(align, ub_pointer::ub(base));
}

// vbitsort(dst, scores, indices, repeat): VBITSORT on `repeat` groups of 32.
template <typename T, typename I>
inline void vbitsort(__ubuf__ T* dst, __ubuf__ T* scores, __ubuf__ I* indices, int64_t repeat)
{
    VBITSORT(ub_pointer::ub(dst), ub_pointer::ub(scores), ub_pointer::ub(indices), repeat);
}

// get_buf / rls_buf(pipe, id, mode): GET_BUF / RLS_BUF with the pipe first, as the pages write them.
inline void get_buf(pipe_t pipe, int64_t buf_id, int64_t mode) { GET_BUF(buf_id, pipe, mode); }
inline void rls_buf(pipe_t pipe, int64_t buf_id, int64_t mode) { RLS_BUF(buf_id, pipe, mode); }

// The pages' C forms of the flags between a block's cube and vector cores (vector/pipeline-sync.md):
// a2a3's set_cross_core(pipe, id) / wait_flag_dev(id), a5's set_intra_block(pipe, id) /
// wait_intra_core(pipe, id). The pipe names which of the core's pipes signals or stalls; here a
// cross-core release orders everything its core issued before it, whatever the pipe (README,
// "Pipe synchronisation at run time"), so it selects nothing.
inline void set_cross_core(pipe_t, int64_t semaphore_id) { runtime::set_cross_core(semaphore_id); }
inline void wait_flag_dev(int64_t semaphore_id) { runtime::wait_flag_dev(semaphore_id); }
inline void set_intra_block(pipe_t, int64_t semaphore_id) { runtime::set_intra_block(semaphore_id); }
inline void wait_intra_core(pipe_t, int64_t semaphore_id) { runtime::wait_intra_core(semaphore_id); }

// mem_bar(type): a fence between the vector pipe's own UB accesses, which run in program order here (as
// pto.mem_bar in text), so it has nothing to wait for.
enum mem_bar_t { VV_ALL, VST_VLD, VLD_VST };
inline void mem_bar(mem_bar_t) {}

}  // namespace pto::cce

#ifndef PTO_CCE_NO_GLOBAL_NAMES
using namespace pto::cce;
#endif
