// The C++ forms of the vector micro-instructions, in the PTO style of the ISA pages: VReg<N, T>,
// Mask<N>, RegBuf<predicate_t>, Ptr<ub_space_t, T>, and VLDS, VSTS, VADD, VEXP, PSET_B32, PLD ... Each
// form checks what its types say at compile time (LEGAL_* static assertions), reads its tokens and
// checks its UB addresses at run time through the same compiled functions as the PTO-AS interpreter
// (pto/engine/ops/vector.hpp, vector_memory.hpp), and runs the same whole-register kernel.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <pto/common/event.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/type.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/engine/ops/vector.hpp>
#include <pto/engine/ops/vector_memory.hpp>
#include <pto/profile/rules_vector.hpp>
#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/schedule.hpp>

namespace pto {

// The unified buffer's address space, its untyped element (a byte: Ptr<ub_space_t, ub_t> + n moves n
// bytes), and the element of a predicate register (RegBuf<predicate_t>).
struct ub_space_t {};
using ub_t = uint8_t;
struct predicate_t {};

// A pointer into the running core's UB, held as a byte offset as PTO-AS's `!pto.ptr<T, ub>` is: made
// from an offset (what pto.castptr makes), from a Vec tile placed with TASSIGN, or from a host address
// inside UB (a tile's data()). Moving it counts elements of T; nothing is checked until an access,
// which checks alignment and range as the text door does. A default pointer points nowhere.
template <typename Space, typename T>
class Ptr {
    static_assert(std::is_same_v<Space, ub_space_t>, "LEGAL_VECTOR_SPACE: a vector pointer addresses the unified buffer: Ptr<ub_space_t, T>");

public:
    using DType = T;
    Ptr() = default;
    explicit Ptr(int64_t ub_byte_offset) : at_(ub_byte_offset) {}
    template <typename U>
    explicit Ptr(U* host_address) : at_(engine::vector::ub_offset_of(host_address, "pointer"))
    {
    }
    template <typename TileData, std::enable_if_t<is_tile_data_v<TileData>, int> = 0>
    explicit Ptr(TileData& tile) : at_(engine::vector::ub_offset_of(tile.data(), "tile"))
    {
        static_assert(TileData::Loc == TileType::Vec, "LEGAL_VECTOR_SPACE: a vector pointer addresses the unified buffer: a Vec tile");
    }

    int64_t offset() const { return at_; }  // bytes into UB
    // The same address as a pointer to U.
    template <typename U>
    Ptr<Space, U> as() const { return Ptr<Space, U>(at_); }

    Ptr operator+(int64_t n) const { return Ptr(moved(n)); }
    Ptr operator-(int64_t n) const { return Ptr(moved(-n)); }
    Ptr& operator+=(int64_t n) { at_ = moved(n); return *this; }
    Ptr& operator-=(int64_t n) { at_ = moved(-n); return *this; }

private:
    // -1 (nowhere) past what 64 bits hold, so that an access through it is refused.
    int64_t moved(int64_t n) const
    {
        int64_t delta = 0, at = at_;
        if (at_ < 0 || __builtin_mul_overflow(n, int64_t(sizeof(T)), &delta) || __builtin_add_overflow(at, delta, &at)) return -1;
        return at;
    }
    int64_t at_ = -1;
};

// A vector register: 256 bytes of N lanes of T (f32, f16, bf16, 8- to 64-bit integers).
template <int N, typename T>
struct VReg {
    static_assert(rules::vreg_shape_ok(N, engine::dtype_of<T>),
                  "LEGAL_VREG_SHAPE: VReg<N, T> holds 256 bytes of float, half, bfloat16_t or 8- to 64-bit integer lanes: N * sizeof(T) == 256");
    using DType = T;
    static constexpr int Lanes = N;

    T get(int lane) const
    {
        T v;
        std::memcpy(&v, reg.bytes.data() + std::size_t(lane) * sizeof(T), sizeof(T));
        return v;
    }
    void set(int lane, T v) { std::memcpy(reg.bytes.data() + std::size_t(lane) * sizeof(T), &v, sizeof(T)); }

    engine::vector::Register reg;
};

// A predicate over N lanes (64: b32, 128: b16, 256: b8); every lane clear until set.
template <int N>
struct Mask {
    static_assert(N == 64 || N == 128 || N == 256, "LEGAL_VECTOR_MASK_WIDTH: Mask<N> governs 64 (b32), 128 (b16) or 256 (b8) lanes");
    static constexpr int Lanes = N;
    Mask() { reg.lane_bytes = uint8_t(256 / N); }
    void set_all(bool active)
    {
        engine::vector::pattern_mask({active ? engine::vector::Pattern::ALL : engine::vector::Pattern::ALLF}, 256 / N, reg);
    }
    bool get(int lane) const { return reg.bytes[std::size_t(lane * (256 / N))] != std::byte{0}; }

    engine::vector::Register reg;
};

// A predicate register whose width the operation that writes it sets (PSET_B32: b32), as PTO-AS's
// `!pto.mask<G>`; a predicate load leaves it an image that each user reads at its own lanes.
template <typename T>
struct RegBuf {
    static_assert(std::is_same_v<T, predicate_t>, "RegBuf holds predicates: RegBuf<predicate_t>");
    engine::vector::Register reg;
};

namespace detail::vec {

namespace ev = engine::vector;

template <typename T>
struct reg_traits : std::false_type {};
template <int N, typename T>
struct reg_traits<VReg<N, T>> : std::true_type {
    static constexpr engine::DType dtype = engine::dtype_of<T>;
    static constexpr int lane_bytes = int(sizeof(T));
};
// A mask type and the lanes it states (0: RegBuf, known at run time).
template <typename M>
struct mask_traits : std::false_type {};
template <int N>
struct mask_traits<Mask<N>> : std::true_type {
    static constexpr int lane_bytes = 256 / N;
};
template <>
struct mask_traits<RegBuf<predicate_t>> : std::true_type {
    static constexpr int lane_bytes = 0;
};
template <typename M>
inline constexpr bool is_mask_v = mask_traits<std::remove_cv_t<M>>::value;
template <typename V>
inline constexpr bool is_vreg_v = reg_traits<std::remove_cv_t<V>>::value;
template <typename P>
struct is_ub_ptr : std::false_type {};
template <typename T>
struct is_ub_ptr<Ptr<ub_space_t, T>> : std::true_type {};
template <typename P>
inline constexpr bool is_ub_ptr_v = is_ub_ptr<std::remove_cv_t<P>>::value;

// The mask an operation on LaneBytes-byte lanes reads: its own when made for them (checked statically
// for Mask<N>, at run time for RegBuf: RUN_MASK_WIDTH).
template <int LaneBytes, typename M>
inline const ev::Register& mask_for(const M& m)
{
    static_assert(is_mask_v<M>, "a vector operation's mask is a Mask<N> or a RegBuf<predicate_t>");
    if constexpr (mask_traits<M>::lane_bytes != 0)
        static_assert(rules::mask_width_ok(mask_traits<M>::lane_bytes, LaneBytes),
                      "LEGAL_VECTOR_MASK_WIDTH: the mask governs lanes of the register's width (Mask<256 / sizeof(T)>; Mask<64> for 64-bit lanes)");
    if (m.reg.lane_bytes == LaneBytes) [[likely]]
        return m.reg;
    return ev::mask_for_width(m.reg, LaneBytes);
}

// A scalar operand in its lanes' encoding, as the text door passes it to the kernels.
template <typename T>
inline uint64_t lane_bits(T value)
{
    constexpr engine::DType dtype = engine::dtype_of<T>;
    if constexpr (engine::dtype_is_float(dtype)) return ev::float_lane_bits(dtype, double(value));
    else return uint64_t(value);
}

// The operand types of a lane operation: registers of one type.
template <typename Dst, typename... Srcs>
inline constexpr bool same_registers_v = is_vreg_v<Dst> && (std::is_same_v<std::remove_cv_t<Dst>, std::remove_cv_t<Srcs>> && ...);

// A token, read by the function both doors share; a problem stops the run with its LEGAL_* code.
template <typename Value, typename Reader, typename... Args>
inline Value token(Reader read, const char* operand, const char* name, Args... args)
{
    Value v{};
    if (auto problem = read(name ? name : "", args..., v)) ev::fail_token(*problem, operand);
    return v;
}

template <typename Reg, typename P>
inline void load(Reg& dst, const P& addr, const char* dist_name)
{
    constexpr int lanes = reg_traits<Reg>::lane_bytes;
    const auto dist = token<ev::LoadDist>(ev::read_load_dist, "dist", dist_name, lanes);
    runtime::settle_held_back_work();
    const std::byte* src = ev::ub_address(addr.offset(), ev::footprint_bytes(dist, lanes), ev::kAccessAlignment, "source", ev::kVectorUnits);
    ev::load(dist, lanes, src, dst.reg);
}

template <typename Reg, typename P>
inline void store(const Reg& src, const P& addr, const char* dist_name, const ev::Register& mask)
{
    constexpr int lanes = reg_traits<Reg>::lane_bytes;
    const auto dist = token<ev::StoreDist>(ev::read_store_dist, "dist", dist_name, lanes);
    runtime::settle_held_back_work();
    std::byte* dst = ev::ub_address(addr.offset(), ev::footprint_bytes(dist, lanes), ev::kAccessAlignment, "destination", ev::kVectorUnits);
    ev::store(dist, lanes, src.reg, mask, dst);
}

// The lanes a mask operation states: the first Mask<N> among its operands' types (0: all RegBuf).
template <typename... Ms>
constexpr int stated_lanes()
{
    int lanes = 0;
    ((lanes = lanes ? lanes : mask_traits<std::remove_cv_t<Ms>>::lane_bytes), ...);
    return lanes;
}
template <typename... Ms>
constexpr bool masks_agree()
{
    constexpr int lanes = stated_lanes<Ms...>();
    return ((mask_traits<std::remove_cv_t<Ms>>::lane_bytes == 0 || mask_traits<std::remove_cv_t<Ms>>::lane_bytes == lanes) && ...);
}

// pand / por / pxor / pnot / psel: the first source read at the stated width, the others checked to
// have its width; the masking predicate is read and changes nothing, as the pages say.
template <typename D, typename... Ms>
inline void predicate_logic(ev::PredicateOp op, D& dst, const ev::Register& a, const ev::Register& b, const ev::Register& sel,
                            const ev::Register& mask)
{
    constexpr int want = stated_lanes<D, Ms...>();
    const ev::Register first = ev::stated_mask(a, want);  // a copy: the next reading may reuse the scratch
    for (const ev::Register* other : {&b, &sel, &mask}) ev::stated_mask(*other, first.lane_bytes);
    ev::predicate_logic(op, first, b, sel, dst.reg);
}

// The address of a predicate load or store: `slots` 8-byte units past the pointer, 8-byte aligned.
template <typename P>
inline std::byte* predicate_address(const P& base, int64_t slots, ev::PredicateDist dist, const char* operand)
{
    int64_t at = -1;
    if (base.offset() < 0 || __builtin_mul_overflow(slots, int64_t{8}, &at) || __builtin_add_overflow(at, base.offset(), &at)) at = -1;
    runtime::settle_held_back_work();
    return ev::ub_address(at, ev::predicate_footprint(dist), 8, operand, ev::kPredicateUnits);
}

// LEGAL_PREDICATE_IMMEDIATE at run time: the C++ forms take the immediate as an argument.
inline void check_predicate_immediate(int64_t slots)
{
    if (auto problem = ev::predicate_immediate_problem(slots)) ev::fail_token(*problem, "offset");
}

// PLD, PLDI, PLDS (PST, PSTI, PSTS): `slots` 8-byte units past `base`.
template <typename D, typename P>
inline void predicate_load_form(const char* name, D& dst, const P& base, int64_t slots, const char* dist_name)
{
    static_assert(is_mask_v<D>, "a predicate load fills a Mask<N> or a RegBuf<predicate_t>");
    static_assert(is_ub_ptr_v<P>, "LEGAL_VECTOR_SPACE: predicates move through a Ptr<ub_space_t, T>");
    engine::vector::VectorInstruction scope(name);
    const auto dist = token<ev::PredicateDist>(ev::read_predicate_dist, "dist", dist_name, false);
    const std::byte* ub = predicate_address(base, slots, dist, "source");
    ev::predicate_load(dist, ub, mask_traits<D>::lane_bytes, dst.reg);
}
template <typename S, typename P>
inline void predicate_store_form(const char* name, const S& src, const P& base, int64_t slots, const char* dist_name)
{
    static_assert(is_mask_v<S>, "a predicate store takes a Mask<N> or a RegBuf<predicate_t>");
    static_assert(is_ub_ptr_v<P>, "LEGAL_VECTOR_SPACE: predicates move through a Ptr<ub_space_t, T>");
    engine::vector::VectorInstruction scope(name);
    const auto dist = token<ev::PredicateDist>(ev::read_predicate_dist, "dist", dist_name, true);
    std::byte* ub = predicate_address(base, slots, dist, "destination");
    ev::predicate_store(dist, ev::stated_mask(src.reg, mask_traits<S>::lane_bytes), ub);
}

}  // namespace detail::vec

#define PTO_DETAIL_VEC_EVENTS typename... WaitEvents, std::enable_if_t<all_events_v<WaitEvents...>, int> = 0

// ---- loads and stores ----------------------------------------------------------------------------

// VLDS(dst, addr[, "DIST"]): pto.vlds at addr (NORM when no mode is written).
template <typename VecData, typename PtrType, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VLDS(VecData& dst, const PtrType& addr, const char* dist, WaitEvents&... events)
{
    static_assert(detail::vec::is_vreg_v<VecData>, "VLDS loads a VReg<N, T>");
    static_assert(detail::vec::is_ub_ptr_v<PtrType>, "LEGAL_VECTOR_SPACE: VLDS reads the unified buffer through a Ptr<ub_space_t, T>");
    WaitAllEvents(events...);
    engine::vector::VectorInstruction scope("VLDS");
    detail::vec::load(dst, addr, dist);
    return {};
}
template <typename VecData, typename PtrType, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VLDS(VecData& dst, const PtrType& addr, WaitEvents&... events)
{
    return VLDS(dst, addr, "", events...);
}
// VLDS(dst, addr, pred): the masked load of the family page: a NORM load whose inactive lanes are zero
// (the whole footprint is checked and read, masked-off lanes included, as for every vector load).
template <typename VecData, typename PtrType, typename MaskT, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VLDS(VecData& dst, const PtrType& addr, const MaskT& pred, WaitEvents&... events)
{
    VLDS(dst, addr, "", events...);
    engine::vector::VectorInstruction scope("VLDS");
    constexpr int lanes = detail::vec::reg_traits<VecData>::lane_bytes;
    engine::vector::select(lanes, dst.reg, engine::vector::Register{}, detail::vec::mask_for<lanes>(pred), dst.reg);
    return {};
}

// VSTS(src, addr[, "DIST"][, mask]): pto.vsts of the active lanes (every lane without a mask).
template <typename VecData, typename PtrType, typename MaskT, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VSTS(const VecData& src, const PtrType& addr, const char* dist, const MaskT& mask, WaitEvents&... events)
{
    static_assert(detail::vec::is_vreg_v<VecData>, "VSTS stores a VReg<N, T>");
    static_assert(detail::vec::is_ub_ptr_v<PtrType>, "LEGAL_VECTOR_SPACE: VSTS writes the unified buffer through a Ptr<ub_space_t, T>");
    WaitAllEvents(events...);
    engine::vector::VectorInstruction scope("VSTS");
    constexpr int lanes = detail::vec::reg_traits<VecData>::lane_bytes;
    detail::vec::store(src, addr, dist, detail::vec::mask_for<lanes>(mask));
    return {};
}
template <typename VecData, typename PtrType, typename MaskT, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VSTS(const VecData& src, const PtrType& addr, const MaskT& mask, WaitEvents&... events)
{
    return VSTS(src, addr, "", mask, events...);
}
template <typename VecData, typename PtrType, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VSTS(const VecData& src, const PtrType& addr, const char* dist, WaitEvents&... events)
{
    static_assert(detail::vec::is_vreg_v<VecData>, "VSTS stores a VReg<N, T>");
    static_assert(detail::vec::is_ub_ptr_v<PtrType>, "LEGAL_VECTOR_SPACE: VSTS writes the unified buffer through a Ptr<ub_space_t, T>");
    WaitAllEvents(events...);
    engine::vector::VectorInstruction scope("VSTS");
    constexpr int lanes = detail::vec::reg_traits<VecData>::lane_bytes;
    detail::vec::store(src, addr, dist, engine::vector::full_mask(lanes));
    return {};
}
template <typename VecData, typename PtrType, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VSTS(const VecData& src, const PtrType& addr, WaitEvents&... events)
{
    return VSTS(src, addr, "", events...);
}

// ---- lane operations -----------------------------------------------------------------------------

// The checks every lane operation makes: registers of one type, and the lane types the operation is
// defined on (a static rule, LEGAL_VECTOR_DTYPE, with the operation's own words).
#define PTO_DETAIL_VEC_CHECK(NAME, RULE, TYPES, ...)                                                                  \
    static_assert(detail::vec::same_registers_v<__VA_ARGS__>, "LEGAL_VECTOR_DTYPE: " #NAME "'s operands and result are VRegs of one type"); \
    static_assert(rules::vector_lanes_ok(rules::VectorLanes::RULE, detail::vec::reg_traits<VecDst>::dtype),          \
                  "LEGAL_VECTOR_DTYPE: " #NAME " takes " TYPES);                                                      \
    WaitAllEvents(events...);                                                                                         \
    engine::vector::VectorInstruction scope(#NAME);                                                                           \
    constexpr int lanes = detail::vec::reg_traits<VecDst>::lane_bytes;                                                \
    constexpr engine::DType dtype = detail::vec::reg_traits<VecDst>::dtype

// NAME(dst, lhs, rhs, mask) and NAME(dst, lhs, rhs) (every lane).
#define PTO_DETAIL_VEC_BINARY(NAME, RUN, RULE, TYPES)                                                                 \
    template <typename VecDst, typename VecLhs, typename VecRhs, typename MaskT,                                     \
              std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, PTO_DETAIL_VEC_EVENTS>                        \
    PTO_INST RecordEvent NAME(VecDst& dst, const VecLhs& lhs, const VecRhs& rhs, const MaskT& mask, WaitEvents&... events) \
    {                                                                                                                 \
        PTO_DETAIL_VEC_CHECK(NAME, RULE, TYPES, VecDst, VecLhs, VecRhs);                                              \
        RUN(dtype, lhs.reg, rhs.reg, detail::vec::mask_for<lanes>(mask), dst.reg);                                    \
        return {};                                                                                                    \
    }                                                                                                                 \
    template <typename VecDst, typename VecLhs, typename VecRhs, PTO_DETAIL_VEC_EVENTS>                               \
    PTO_INST RecordEvent NAME(VecDst& dst, const VecLhs& lhs, const VecRhs& rhs, WaitEvents&... events)              \
    {                                                                                                                 \
        static_assert(detail::vec::is_vreg_v<VecDst>, #NAME " writes a VReg<N, T>");                                  \
        constexpr int bytes = detail::vec::reg_traits<VecDst>::lane_bytes;                                            \
        Mask<256 / (bytes == 8 ? 4 : bytes)> all;                                                                     \
        all.set_all(true);                                                                                            \
        return NAME(dst, lhs, rhs, all, events...);                                                                   \
    }
#define PTO_DETAIL_VEC_RUN_BINARY(OP) [](engine::DType t, const auto& a, const auto& b, const auto& m, auto& d) { engine::vector::binary(engine::vector::BinaryOp::OP, t, a, b, m, d); }
#define PTO_DETAIL_VEC_RUN_FUSED(OP) [](engine::DType t, const auto& a, const auto& b, const auto& m, auto& d) { engine::vector::fused(engine::vector::FusedOp::OP, t, a, b, m, d); }
PTO_DETAIL_VEC_BINARY(VADD, PTO_DETAIL_VEC_RUN_BINARY(Add), Any, "every lane type")
PTO_DETAIL_VEC_BINARY(VSUB, PTO_DETAIL_VEC_RUN_BINARY(Sub), Any, "every lane type")
PTO_DETAIL_VEC_BINARY(VMUL, PTO_DETAIL_VEC_RUN_BINARY(Mul), Any, "every lane type")
PTO_DETAIL_VEC_BINARY(VDIV, PTO_DETAIL_VEC_RUN_BINARY(Div), F32F16, "f32 or f16 lanes (no integer division)")
PTO_DETAIL_VEC_BINARY(VMAX, PTO_DETAIL_VEC_RUN_BINARY(Max), Any, "every lane type")
PTO_DETAIL_VEC_BINARY(VMIN, PTO_DETAIL_VEC_RUN_BINARY(Min), Any, "every lane type")
PTO_DETAIL_VEC_BINARY(VAND, PTO_DETAIL_VEC_RUN_BINARY(And), Integer, "integer lanes")
PTO_DETAIL_VEC_BINARY(VOR, PTO_DETAIL_VEC_RUN_BINARY(Or), Integer, "integer lanes")
PTO_DETAIL_VEC_BINARY(VXOR, PTO_DETAIL_VEC_RUN_BINARY(Xor), Integer, "integer lanes")
PTO_DETAIL_VEC_BINARY(VSHL, PTO_DETAIL_VEC_RUN_BINARY(Shl), Integer, "integer lanes")
PTO_DETAIL_VEC_BINARY(VSHR, PTO_DETAIL_VEC_RUN_BINARY(Shr), Integer, "integer lanes")
// VADDRELU / VSUBRELU: max(a ± b, 0) as pto.vaddrelu / pto.vsubrelu.
PTO_DETAIL_VEC_BINARY(VADDRELU, PTO_DETAIL_VEC_RUN_FUSED(AddRelu), F32F16, "f16 or f32 lanes")
PTO_DETAIL_VEC_BINARY(VSUBRELU, PTO_DETAIL_VEC_RUN_FUSED(SubRelu), F32F16, "f16 or f32 lanes")
#undef PTO_DETAIL_VEC_RUN_BINARY
#undef PTO_DETAIL_VEC_RUN_FUSED
#undef PTO_DETAIL_VEC_BINARY

// NAME(dst, src, mask).
#define PTO_DETAIL_VEC_UNARY(NAME, OP, RULE, TYPES)                                                                   \
    template <typename VecDst, typename VecSrc, typename MaskT, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, \
              PTO_DETAIL_VEC_EVENTS>                                                                                  \
    PTO_INST RecordEvent NAME(VecDst& dst, const VecSrc& src, const MaskT& mask, WaitEvents&... events)              \
    {                                                                                                                 \
        PTO_DETAIL_VEC_CHECK(NAME, RULE, TYPES, VecDst, VecSrc);                                                      \
        engine::vector::unary(engine::vector::UnaryOp::OP, dtype, src.reg, detail::vec::mask_for<lanes>(mask), dst.reg); \
        return {};                                                                                                    \
    }
PTO_DETAIL_VEC_UNARY(VABS, Abs, Any, "every lane type")
PTO_DETAIL_VEC_UNARY(VNEG, Neg, Any, "every lane type")
PTO_DETAIL_VEC_UNARY(VNOT, Not, Integer, "integer lanes")
PTO_DETAIL_VEC_UNARY(VRELU, Relu, Any, "every lane type")
PTO_DETAIL_VEC_UNARY(VEXP, Exp, Float, "f32, f16 or bf16 lanes")
PTO_DETAIL_VEC_UNARY(VLN, Ln, Float, "f32, f16 or bf16 lanes")
PTO_DETAIL_VEC_UNARY(VSQRT, Sqrt, Float, "f32, f16 or bf16 lanes")
PTO_DETAIL_VEC_UNARY(VRSQRT, Rsqrt, Float, "f32, f16 or bf16 lanes")
PTO_DETAIL_VEC_UNARY(VREC, Rec, Float, "f32, f16 or bf16 lanes")
PTO_DETAIL_VEC_UNARY(VMOV, Mov, Any, "every lane type")
#undef PTO_DETAIL_VEC_UNARY

// VMULA(dst, acc, lhs, rhs, mask): acc + lhs * rhs rounded once (f16, f32).
template <typename VecDst, typename VecAcc, typename VecLhs, typename VecRhs, typename MaskT,
          std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VMULA(VecDst& dst, const VecAcc& acc, const VecLhs& lhs, const VecRhs& rhs, const MaskT& mask, WaitEvents&... events)
{
    PTO_DETAIL_VEC_CHECK(VMULA, F32F16, "f16 or f32 lanes", VecDst, VecAcc, VecLhs, VecRhs);
    engine::vector::multiply_add(dtype, acc.reg, lhs.reg, rhs.reg, detail::vec::mask_for<lanes>(mask), dst.reg);
    return {};
}

// VAXPY(dst, x, y, alpha, mask): alpha * x + y rounded once (f16, f32); alpha of the lane type.
template <typename VecDst, typename VecX, typename VecY, typename MaskT, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0,
          PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VAXPY(VecDst& dst, const VecX& x, const VecY& y, typename VecDst::DType alpha, const MaskT& mask, WaitEvents&... events)
{
    PTO_DETAIL_VEC_CHECK(VAXPY, F32F16, "f16 or f32 lanes", VecDst, VecX, VecY);
    engine::vector::axpy(dtype, double(alpha), x.reg, y.reg, detail::vec::mask_for<lanes>(mask), dst.reg);
    return {};
}

// VMULL(low, high, lhs, rhs, mask): the full 64-bit product of i32 or u32 lanes, as pto.vmull's two
// results (its page's second argument, named `vsub` there, is the high half written here: the
// multiply-subtract reading of the op page is accepted by neither door).
template <typename VecDst, typename VecHigh, typename VecLhs, typename VecRhs, typename MaskT,
          std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, PTO_DETAIL_VEC_EVENTS>
PTO_INST RecordEvent VMULL(VecDst& low, VecHigh& high, const VecLhs& lhs, const VecRhs& rhs, const MaskT& mask, WaitEvents&... events)
{
    PTO_DETAIL_VEC_CHECK(VMULL, Any, "", VecDst, VecHigh, VecLhs, VecRhs);
    static_assert(rules::widening_multiply_ok(dtype), "LEGAL_VECTOR_DTYPE: VMULL takes i32 or u32 lanes");
    engine::vector::widening_multiply(dtype, lhs.reg, rhs.reg, detail::vec::mask_for<lanes>(mask), low.reg, high.reg);
    return {};
}
// NAME(dst, src, scalar, mask): pto.vadds ... pto.vlrelu, the scalar of the lane type.
#define PTO_DETAIL_VEC_SCALAR(NAME, OP, RULE, TYPES)                                                                  \
    template <typename VecDst, typename VecSrc, typename MaskT, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0, \
              PTO_DETAIL_VEC_EVENTS>                                                                                  \
    PTO_INST RecordEvent NAME(VecDst& dst, const VecSrc& src, typename VecDst::DType scalar, const MaskT& mask, WaitEvents&... events) \
    {                                                                                                                 \
        PTO_DETAIL_VEC_CHECK(NAME, RULE, TYPES, VecDst, VecSrc);                                                      \
        engine::vector::binary_scalar(engine::vector::ScalarOp::OP, dtype, src.reg, detail::vec::lane_bits(scalar),   \
                                      detail::vec::mask_for<lanes>(mask), dst.reg);                                   \
        return {};                                                                                                    \
    }
PTO_DETAIL_VEC_SCALAR(VADDS, Add, Any, "every lane type")
PTO_DETAIL_VEC_SCALAR(VSUBS, Sub, Any, "every lane type")
PTO_DETAIL_VEC_SCALAR(VMULS, Mul, Any, "every lane type")
PTO_DETAIL_VEC_SCALAR(VMAXS, Max, Any, "every lane type")
PTO_DETAIL_VEC_SCALAR(VMINS, Min, Any, "every lane type")
PTO_DETAIL_VEC_SCALAR(VANDS, And, Integer, "integer lanes")
PTO_DETAIL_VEC_SCALAR(VORS, Or, Integer, "integer lanes")
PTO_DETAIL_VEC_SCALAR(VXORS, Xor, Integer, "integer lanes")
PTO_DETAIL_VEC_SCALAR(VSHLS, Shl, Integer, "integer lanes")
PTO_DETAIL_VEC_SCALAR(VSHRS, Shr, Integer, "integer lanes")
PTO_DETAIL_VEC_SCALAR(VLRELU, LeakyRelu, F32F16, "f16 or f32 lanes")
#undef PTO_DETAIL_VEC_SCALAR
#undef PTO_DETAIL_VEC_CHECK

// ---- predicates ----------------------------------------------------------------------------------

// PSET_B8 / B16 / B32(dst, "PAT_..."): the pattern over the lanes of the width.
#define PTO_DETAIL_VEC_PSET(NAME, BYTES)                                                                               \
    template <typename MaskT, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0>                               \
    PTO_INST RecordEvent NAME(MaskT& dst, const char* pattern)                                                        \
    {                                                                                                                 \
        static_assert(detail::vec::mask_traits<MaskT>::lane_bytes == 0 || detail::vec::mask_traits<MaskT>::lane_bytes == BYTES, \
                      "LEGAL_VECTOR_MASK_WIDTH: " #NAME " makes a mask of its width (Mask<256 / " #BYTES "> or RegBuf<predicate_t>)"); \
        engine::vector::VectorInstruction scope(#NAME);                                                                       \
        const auto token = detail::vec::token<engine::vector::PatternToken>(engine::vector::read_pattern, "pattern", pattern, BYTES); \
        engine::vector::pattern_mask(token, BYTES, dst.reg);                                                          \
        return {};                                                                                                    \
    }
PTO_DETAIL_VEC_PSET(PSET_B8, 1)
PTO_DETAIL_VEC_PSET(PSET_B16, 2)
PTO_DETAIL_VEC_PSET(PSET_B32, 4)
// PGE_B8 / B16 / B32(dst, "PAT_..."): pto.pge_b*, the same patterns.
PTO_DETAIL_VEC_PSET(PGE_B8, 1)
PTO_DETAIL_VEC_PSET(PGE_B16, 2)
PTO_DETAIL_VEC_PSET(PGE_B32, 4)
#undef PTO_DETAIL_VEC_PSET

// PLT_B8 / B16 / B32(dst, count): the first `count` lanes of the width active; returns the count left
// for the next register (count minus the lanes, never below zero), pto.plt_b*'s second result.
#define PTO_DETAIL_VEC_PLT(NAME, BYTES)                                                                                \
    template <typename MaskT, typename Count, std::enable_if_t<detail::vec::is_mask_v<MaskT>, int> = 0>               \
    PTO_INST Count NAME(MaskT& dst, Count count)                                                                      \
    {                                                                                                                 \
        static_assert(std::is_integral_v<Count>, #NAME " counts lanes with an integer");                               \
        static_assert(detail::vec::mask_traits<MaskT>::lane_bytes == 0 || detail::vec::mask_traits<MaskT>::lane_bytes == BYTES, \
                      "LEGAL_VECTOR_MASK_WIDTH: " #NAME " makes a mask of its width (Mask<256 / " #BYTES "> or RegBuf<predicate_t>)"); \
        engine::vector::VectorInstruction scope(#NAME);                                                                       \
        engine::vector::prefix_mask(int64_t(count), BYTES, dst.reg);                                                  \
        constexpr Count per_register = Count(engine::vector::kRegisterBytes / BYTES);                                 \
        return count > per_register ? Count(count - per_register) : Count(0);                                         \
    }
PTO_DETAIL_VEC_PLT(PLT_B8, 1)
PTO_DETAIL_VEC_PLT(PLT_B16, 2)
PTO_DETAIL_VEC_PLT(PLT_B32, 4)
#undef PTO_DETAIL_VEC_PLT

// PAND / POR / PXOR(dst, src0, src1, mask), PNOT(dst, src, mask), PSEL(dst, src0, src1, sel, mask).
#define PTO_DETAIL_VEC_PLOGIC(NAME, OP)                                                                               \
    template <typename D, typename A, typename B, typename M, std::enable_if_t<detail::vec::is_mask_v<M>, int> = 0>   \
    PTO_INST RecordEvent NAME(D& dst, const A& src0, const B& src1, const M& mask)                                    \
    {                                                                                                                 \
        static_assert(detail::vec::is_mask_v<D> && detail::vec::is_mask_v<A> && detail::vec::is_mask_v<B>,          \
                      #NAME " combines masks (Mask<N> or RegBuf<predicate_t>)");                                      \
        static_assert(detail::vec::masks_agree<D, A, B, M>(), "LEGAL_VECTOR_MASK_WIDTH: " #NAME "'s masks govern lanes of one width"); \
        engine::vector::VectorInstruction scope(#NAME);                                                                       \
        detail::vec::predicate_logic<D, A, B, M>(engine::vector::PredicateOp::OP, dst, src0.reg, src1.reg, src0.reg, mask.reg); \
        return {};                                                                                                    \
    }
PTO_DETAIL_VEC_PLOGIC(PAND, And)
PTO_DETAIL_VEC_PLOGIC(POR, Or)
PTO_DETAIL_VEC_PLOGIC(PXOR, Xor)
#undef PTO_DETAIL_VEC_PLOGIC

template <typename D, typename A, typename M, std::enable_if_t<detail::vec::is_mask_v<M>, int> = 0>
PTO_INST RecordEvent PNOT(D& dst, const A& src, const M& mask)
{
    static_assert(detail::vec::is_mask_v<D> && detail::vec::is_mask_v<A>, "PNOT inverts a mask (Mask<N> or RegBuf<predicate_t>)");
    static_assert(detail::vec::masks_agree<D, A, M>(), "LEGAL_VECTOR_MASK_WIDTH: PNOT's masks govern lanes of one width");
    engine::vector::VectorInstruction scope("PNOT");
    detail::vec::predicate_logic<D, A, M>(engine::vector::PredicateOp::Not, dst, src.reg, src.reg, src.reg, mask.reg);
    return {};
}

template <typename D, typename A, typename B, typename S, typename M, std::enable_if_t<detail::vec::is_mask_v<M>, int> = 0>
PTO_INST RecordEvent PSEL(D& dst, const A& src0, const B& src1, const S& sel, const M& mask)
{
    static_assert(detail::vec::is_mask_v<D> && detail::vec::is_mask_v<A> && detail::vec::is_mask_v<B> && detail::vec::is_mask_v<S>,
                  "PSEL selects between masks (Mask<N> or RegBuf<predicate_t>)");
    static_assert(detail::vec::masks_agree<D, A, B, S, M>(), "LEGAL_VECTOR_MASK_WIDTH: PSEL's masks govern lanes of one width");
    engine::vector::VectorInstruction scope("PSEL");
    detail::vec::predicate_logic<D, A, B, S, M>(engine::vector::PredicateOp::Select, dst, src0.reg, src1.reg, sel.reg, mask.reg);
    return {};
}

// PPACK(dst, src, "LOWER" | "HIGHER"): src's lanes into half of a mask of half-width lanes; PUNPACK:
// half of src's lanes into a mask of double-width lanes.
#define PTO_DETAIL_VEC_PACK(NAME, UNPACK)                                                                             \
    template <typename D, typename S>                                                                                 \
    PTO_INST RecordEvent NAME(D& dst, const S& src, const char* part)                                                 \
    {                                                                                                                 \
        static_assert(detail::vec::is_mask_v<D> && detail::vec::is_mask_v<S>, #NAME " takes masks (Mask<N> or RegBuf<predicate_t>)"); \
        constexpr int to = detail::vec::mask_traits<D>::lane_bytes, from = detail::vec::mask_traits<S>::lane_bytes;   \
        constexpr int want = from ? from : !to ? 0 : UNPACK ? to / 2 : to * 2;                                        \
        static_assert((!to || (UNPACK ? to >= 2 : to <= 2)) && (!from || (UNPACK ? from <= 2 : from >= 2)) &&          \
                          (!to || !from || to == (UNPACK ? 2 * from : from / 2)),                                     \
                      "LEGAL_PREDICATE_PACK_WIDTH: " #NAME " halves (PPACK) or doubles (PUNPACK) the lane width");    \
        engine::vector::VectorInstruction scope(#NAME);                                                                       \
        const auto which = detail::vec::token<engine::vector::PredicatePart>(engine::vector::read_predicate_part, "part", part); \
        engine::vector::predicate_repack(UNPACK, which, engine::vector::stated_mask(src.reg, want), dst.reg);         \
        return {};                                                                                                    \
    }
PTO_DETAIL_VEC_PACK(PPACK, false)
PTO_DETAIL_VEC_PACK(PUNPACK, true)
#undef PTO_DETAIL_VEC_PACK

// PINTLV_B8 / B16 / B32(low, high, src0, src1): the lanes src0[0] src1[0] src0[1] ... split into halves;
// PDINTLV_B*: the lanes of src0 then src1, the even ones to low, the odd ones to high.
#define PTO_DETAIL_VEC_PINTLV(NAME, BYTES, DEINTERLEAVE)                                                             \
    template <typename L, typename H, typename A, typename B>                                                        \
    PTO_INST RecordEvent NAME(L& low, H& high, const A& src0, const B& src1)                                         \
    {                                                                                                                 \
        static_assert(detail::vec::is_mask_v<L> && detail::vec::is_mask_v<H>, #NAME " writes masks (Mask<N> or RegBuf<predicate_t>)"); \
        static_assert(detail::vec::masks_agree<L, H>() && (detail::vec::stated_lanes<L, H>() == 0 || detail::vec::stated_lanes<L, H>() == BYTES), \
                      "LEGAL_VECTOR_MASK_WIDTH: " #NAME " makes masks of its width (Mask<256 / " #BYTES "> or RegBuf<predicate_t>)"); \
        engine::vector::VectorInstruction scope(#NAME);                                                                       \
        const engine::vector::Register a = detail::vec::mask_for<BYTES>(src0); /* a copy: the next reading may reuse the scratch */ \
        const engine::vector::Register& b = detail::vec::mask_for<BYTES>(src1);                                      \
        engine::vector::Register lo, hi;                                                                              \
        if (DEINTERLEAVE) engine::vector::predicate_deinterleave(BYTES, a, b, lo, hi);                                \
        else engine::vector::predicate_interleave(BYTES, a, b, lo, hi);                                               \
        low.reg = lo;                                                                                                 \
        high.reg = hi;                                                                                                \
        return {};                                                                                                    \
    }
PTO_DETAIL_VEC_PINTLV(PINTLV_B8, 1, false)
PTO_DETAIL_VEC_PINTLV(PINTLV_B16, 2, false)
PTO_DETAIL_VEC_PINTLV(PINTLV_B32, 4, false)
PTO_DETAIL_VEC_PINTLV(PDINTLV_B8, 1, true)
PTO_DETAIL_VEC_PINTLV(PDINTLV_B16, 2, true)
PTO_DETAIL_VEC_PINTLV(PDINTLV_B32, 4, true)
#undef PTO_DETAIL_VEC_PINTLV

// ---- predicate loads and stores -------------------------------------------------------------------

// PLD(dst, base, slot, "DIST") and PLDI(dst, base, imm, "DIST"): at base + 8 * slot bytes; PLDS(dst,
// base[, "DIST"]) at base. A RegBuf<predicate_t> receives the image (each user reads it at its lanes),
// a Mask<N> a mask of its width. PST, PSTI, PSTS store the same way (NORM or PK).
template <typename D, typename P>
PTO_INST RecordEvent PLD(D& dst, const P& base, int64_t slot, const char* dist = "NORM")
{
    detail::vec::predicate_load_form("PLD", dst, base, slot, dist);
    return {};
}
template <typename D, typename P>
PTO_INST RecordEvent PLDI(D& dst, const P& base, int64_t imm, const char* dist = "NORM")
{
    detail::vec::check_predicate_immediate(imm);
    detail::vec::predicate_load_form("PLDI", dst, base, imm, dist);
    return {};
}
template <typename D, typename P>
PTO_INST RecordEvent PLDS(D& dst, const P& base, const char* dist = "NORM")
{
    detail::vec::predicate_load_form("PLDS", dst, base, 0, dist);
    return {};
}
template <typename S, typename P>
PTO_INST RecordEvent PST(const S& src, const P& base, int64_t slot, const char* dist = "NORM")
{
    detail::vec::predicate_store_form("PST", src, base, slot, dist);
    return {};
}
template <typename S, typename P>
PTO_INST RecordEvent PSTI(const S& src, const P& base, int64_t imm, const char* dist = "NORM")
{
    detail::vec::check_predicate_immediate(imm);
    detail::vec::predicate_store_form("PSTI", src, base, imm, dist);
    return {};
}
template <typename S, typename P>
PTO_INST RecordEvent PSTS(const S& src, const P& base, const char* dist = "NORM")
{
    detail::vec::predicate_store_form("PSTS", src, base, 0, dist);
    return {};
}

// ---- unaligned predicate streams -----------------------------------------------------------------

// An alignment state (`!pto.align`): the bytes a store stream holds past its last 32-byte boundary,
// which only a flush (VSTAR) writes. A default state is a fresh stream (pto.init_align).
struct Align {
    engine::vector::AlignState state;
};

namespace detail::vec {
// Writes what a stream operation gives to UB now.
inline void commit(const ev::StreamCommit& c)
{
    if (c.count == 0) return;
    std::byte* at = ev::ub_address(c.address, c.count, 1, "destination", ev::kVectorUnits);
    std::memcpy(at, c.bytes.data(), std::size_t(c.count));
    ev::mark_stored(at, c.count);
}
}  // namespace detail::vec

// PSTU(src, base, align_in, align_out): pto.pstu, src's 32-byte image appended to the stream at base
// (its page's argument order; align_out may be align_in). The caller moves base on by 32 bytes.
template <typename S, typename P>
PTO_INST RecordEvent PSTU(const S& src, const P& base, const Align& align_in, Align& align_out)
{
    static_assert(detail::vec::is_mask_v<S>, "PSTU stores a Mask<N> or a RegBuf<predicate_t>");
    static_assert(detail::vec::is_ub_ptr_v<P>, "LEGAL_VECTOR_SPACE: predicates move through a Ptr<ub_space_t, T>");
    engine::vector::VectorInstruction scope("PSTU");
    runtime::settle_held_back_work();
    constexpr int kImageBytes = 32;
    engine::vector::ub_address(base.offset(), kImageBytes, 1, "destination", engine::vector::kVectorUnits);
    std::array<std::byte, kImageBytes> image{};
    engine::vector::predicate_store(engine::vector::PredicateDist::NORM, engine::vector::stated_mask(src.reg, detail::vec::mask_traits<S>::lane_bytes),
                                    image.data());
    engine::vector::StreamCommit c;
    align_out.state = engine::vector::stream_append(align_in.state, base.offset(), image.data(), kImageBytes, c);
    detail::vec::commit(c);
    return {};
}

// VSTAR(align, base): pto.vstar, the bytes the stream holds written at its position, base.
template <typename P>
PTO_INST RecordEvent VSTAR(const Align& align, const P& base)
{
    static_assert(detail::vec::is_ub_ptr_v<P>, "LEGAL_VECTOR_SPACE: VSTAR writes the unified buffer through a Ptr<ub_space_t, T>");
    engine::vector::VectorInstruction scope("VSTAR");
    runtime::settle_held_back_work();
    engine::vector::StreamCommit c;
    engine::vector::stream_flush(align.state, base.offset(), c);
    detail::vec::commit(c);
    return {};
}

// ---- sorts on UB ----------------------------------------------------------------------------------

// VBITSORT(dst, src, indices, repeat): pto.vbitsort, `repeat` groups of 32 f32 or f16 scores sorted
// with their 32-bit indices into 8-byte records (RUN_VECTOR_CONFIG outside 1 to 255).
template <typename T, typename I>
PTO_INST RecordEvent VBITSORT(const Ptr<ub_space_t, T>& dst, const Ptr<ub_space_t, T>& src, const Ptr<ub_space_t, I>& indices, int64_t repeat)
{
    static_assert(rules::ub_sort_dtype_ok(engine::dtype_of<T>), "LEGAL_VECTOR_DTYPE: VBITSORT sorts f32 or f16 scores");
    static_assert(sizeof(I) == 4 && std::is_integral_v<I>, "LEGAL_VECTOR_DTYPE: VBITSORT's indices are 32-bit integers");
    engine::vector::VectorInstruction scope("VBITSORT");
    if (!rules::vbitsort_repeat_ok(repeat))
        runtime::fail({"RUN_VECTOR_CONFIG", "", "repeat_times", "the repeat count is the number of 32-element groups", "1 to 255", std::to_string(repeat), ""});
    runtime::settle_held_back_work();
    constexpr int64_t kUnit = 32, kRecordBytes = 8;
    constexpr const char* kUnits = "the UB sorts address UB in 32-byte units";
    const std::byte* values = engine::vector::ub_address(src.offset(), repeat * 32 * int64_t(sizeof(T)), kUnit, "src", kUnits);
    const std::byte* index = engine::vector::ub_address(indices.offset(), repeat * 32 * 4, kUnit, "indices", kUnits);
    std::byte* records = engine::vector::ub_address(dst.offset(), repeat * 32 * kRecordBytes, kUnit, "dest", kUnits);
    engine::vector::sort32_groups(engine::dtype_of<T>, values, index, int(repeat), records);
    return {};
}

// ---- buffer slots ---------------------------------------------------------------------------------

// GET_BUF(buf_id, pipe, mode) / RLS_BUF: as pto.get_buf / pto.rls_buf (the mode changes nothing).
PTO_INST void GET_BUF(int64_t buf_id, pipe_t pipe, int64_t mode = 0)
{
    (void)mode;
    engine::vector::VectorInstruction scope("GET_BUF");
    engine::vector::buffer_slot(pipe, buf_id, true);
}
PTO_INST void RLS_BUF(int64_t buf_id, pipe_t pipe, int64_t mode = 0)
{
    (void)mode;
    engine::vector::VectorInstruction scope("RLS_BUF");
    engine::vector::buffer_slot(pipe, buf_id, false);
}

#undef PTO_DETAIL_VEC_EVENTS

}  // namespace pto
