// The PTO_ELEMENTWISE rows of pto/isa/instructions.def as data the tests iterate, and the macros that
// turn a row into something callable: its C++ intrinsic and its engine entry, with the operands of its Kind.
#pragma once

#include <pto/pto-inst.hpp>

#include <algorithm>
#include <string_view>

#include "elementwise_instructions/reference.hpp"

namespace ewinstr {

using pto::engine::ScalarBits;
using pto::engine::TileDesc;

enum class Kind : uint8_t { Unary, Binary, BinaryTmp, Scalar, ScalarTmp, ScalarBothSides, Math, Pow, PowScalar };

struct Row {
    std::string_view name;      // TADD
    std::string_view mnemonic;  // tadd, as PTO-AS spells it after `pto.`
    Op op;
    Kind kind;
    bool precise;  // takes a precision
    bool (*dtype_ok)(const pto::profile::Profile&, DType);
};

namespace detail {
enum RowMode { Plain, Precise };
}

// The kinds this suite drives through its generic machinery: EWINSTR_COVERED_<Kind>(...) keeps its
// argument for them. The three-operand kinds (Ternary3, TernaryScalar, DstProduct, DstScaled, Axpy,
// Expand) have their own tests (ternary_kinds_test.cpp).
#define EWINSTR_COVERED_Unary(...) __VA_ARGS__
#define EWINSTR_COVERED_Binary(...) __VA_ARGS__
#define EWINSTR_COVERED_BinaryTmp(...) __VA_ARGS__
#define EWINSTR_COVERED_Scalar(...) __VA_ARGS__
#define EWINSTR_COVERED_ScalarTmp(...) __VA_ARGS__
#define EWINSTR_COVERED_ScalarBothSides(...) __VA_ARGS__
#define EWINSTR_COVERED_Math(...) __VA_ARGS__
#define EWINSTR_COVERED_Pow(...) __VA_ARGS__
#define EWINSTR_COVERED_PowScalar(...) __VA_ARGS__
#define EWINSTR_COVERED_Ternary3(...)
#define EWINSTR_COVERED_TernaryScalar(...)
#define EWINSTR_COVERED_DstProduct(...)
#define EWINSTR_COVERED_DstScaled(...)
#define EWINSTR_COVERED_Axpy(...)
#define EWINSTR_COVERED_Expand(...)

inline constexpr Row kRows[] = {
#define PTO_ELEMENTWISE(NAME, entry, OpName, KindName, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    EWINSTR_COVERED_##KindName({#NAME, #entry, Op::OpName, Kind::KindName, detail::Mode == detail::Precise, &pto::rules::entry##_dtype_ok},)
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
};

inline const Row& row_named(std::string_view name)
{
    return *std::find_if(std::begin(kRows), std::end(kRows), [&](const Row& r) { return r.name == name; });
}

// The element types a tile can hold that some element-wise row takes.
inline constexpr DType kElementTypes[] = {DType::F32, DType::F16, DType::BF16, DType::I8,  DType::U8, DType::I16,
                                          DType::U16, DType::I32, DType::U32,  DType::I64, DType::U64};

template <typename... T>
struct TypeList {};
using ElementTypes = TypeList<float, half, bfloat16_t, int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;

// Calls fn.template operator()<T>() for every T of the list.
template <typename... T, typename Fn>
void for_each_type(TypeList<T...>, Fn&& fn)
{
    (fn.template operator()<T>(), ...);
}

// The C++ element of type T with these bits.
template <typename T>
T element_of(uint64_t bits)
{
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) return T::from_bits(uint16_t(bits));
    else if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(uint32_t(bits));
    else return static_cast<T>(bits);
}

// Whether a row of Kind k reads a second tile; whether it takes a scalar.
constexpr bool has_tile_src1(Kind k) { return k == Kind::Binary || k == Kind::BinaryTmp || k == Kind::Pow; }
constexpr bool has_scalar(Kind k)
{
    return k == Kind::Scalar || k == Kind::ScalarTmp || k == Kind::ScalarBothSides || k == Kind::PowScalar;
}
constexpr bool has_tmp(Kind k) { return k == Kind::BinaryTmp || k == Kind::ScalarTmp || k == Kind::Pow || k == Kind::PowScalar; }

// Calls `intrinsic` (a row's EWINSTR_INTRINSIC, of Kind K) at precision P... with the operands its Kind
// takes; the scalar first where `scalar_first` (ScalarBothSides only).
template <Kind K, auto... P, typename Intrinsic, typename Tile, typename T>
void call_intrinsic(Intrinsic intrinsic, Tile& dst, Tile& src0, Tile& src1, Tile& tmp, T scalar, bool scalar_first = false)
{
    const auto call = [&](auto&... operands) { intrinsic.template operator()<P...>(operands...); };
    if constexpr (K == Kind::Unary || K == Kind::Math) call(dst, src0);
    else if constexpr (K == Kind::Binary) call(dst, src0, src1);
    else if constexpr (K == Kind::BinaryTmp || K == Kind::Pow) call(dst, src0, src1, tmp);
    else if constexpr (K == Kind::Scalar) call(dst, src0, scalar);
    else if constexpr (K == Kind::ScalarTmp || K == Kind::PowScalar) call(dst, src0, scalar, tmp);
    else if (scalar_first) call(dst, scalar, src0);
    else call(dst, src0, scalar);
}

// The operands of one engine call of a row: dst = Op(src0, src1) or Op(src0, scalar).
struct EngineOperands {
    const TileDesc& dst;
    const TileDesc& src0;
    const TileDesc& src1;
    ScalarBits scalar;
};

// Calls `entry` (a row's engine entry point) with the operands its Kind takes.
template <Kind K, typename Entry>
void call_engine_entry(Entry entry, const EngineOperands& o)
{
    if constexpr (K == Kind::Unary || K == Kind::Math) entry(o.dst, o.src0);
    else if constexpr (has_tile_src1(K)) entry(o.dst, o.src0, o.src1);
    else entry(o.dst, o.src0, o.scalar);
}

}  // namespace ewinstr

// A row's intrinsic as a generic callable, its precision (none for Plain rows) as template arguments.
#define EWINSTR_INTRINSIC(NAME) []<auto... Precision>(auto&&... operands) { pto::NAME<Precision...>(operands...); }
// A row's engine entry point as a generic callable.
#define EWINSTR_ENGINE_ENTRY(entry) [](auto&&... operands) { pto::engine::entry(operands...); }
// The precision values of a row's Mode, each after a comma.
#define EWINSTR_PRECISIONS_Plain(Precision)
#define EWINSTR_PRECISIONS_Precise(Precision) , pto::Precision::DEFAULT, pto::Precision::HIGH_PRECISION
