// Engine entry points of the element-wise instructions. Both front doors call these: each
// validates its operands against the active profile on its own, then runs the kernel for the element
// type once.
//
// Every entry computes dst(i, j) = op(src0(i, j), ...) over dst's valid region; elements outside it are
// left untouched. All tiles share one element type and one valid shape and live in UB (Vec).
// Operands may alias in any way (dst == src0 is the common case): the result is as if every source
// element were read before any destination element is written.
//
// Numerics: integers wrap (two's complement); float is IEEE single precision; half and bfloat16 are
// computed exactly enough that the single rounding to the destination type is the correctly rounded
// result (round to nearest, ties to even).
#pragma once

#include <cstdint>

#include <pto/common/type.hpp>
#include <pto/engine/descriptor.hpp>

namespace pto::engine {

// Which operand a tile-scalar instruction's scalar is: Right, dst = Op(src, scalar); Left (TDIVS' scalar-
// first form), dst = Op(scalar, src).
enum class ScalarSide : uint8_t { Right, Left };

// One entry point per PTO_ELEMENTWISE row of pto/isa/instructions.def, by the row's Kind:
//   Unary      entry(dst, src)
//   Binary*    entry(dst, src0, src1)
//   Scalar*    entry(dst, src, scalar, side)   (scalar: its bits in the element type, see ScalarBits)
//   Math       entry(dst, src)                 Pow entry(dst, base, exp)   PowScalar entry(dst, base, exp, side)
//   Ternary3   entry(dst, src0, src1, src2)    TernaryScalar entry(dst, src0, scalar, src1)
//   DstProduct, DstScaled  entry(dst, src0, src1)   Axpy entry(dst, src0, scalar)   Expand entry(dst, scalar)
// with a trailing precision argument for the Precise rows. Tmp tiles are not passed: no kernel needs one.
// The semantics of each operation are at its functor (src/engine/elementwise/operations.hpp) and in the
// README.
//
// TDIV: float quotients are IEEE (x/0 is an infinity or NaN). Integer quotients are truncated toward
// zero and saturated to the type: the result an exact float division followed by a saturating
// conversion gives, so INT_MIN / -1 is INT_MAX and x / 0 is the type's maximum (x > 0), minimum (x < 0)
// or 0 (x == 0). In checked mode an integer division by zero is RUN_DIV_BY_ZERO instead. Both
// algorithms give the correctly rounded quotient on the CPU, so the precision changes no result.
#define PTO_DETAIL_OPERANDS_Unary const TileDesc &dst, const TileDesc &src
#define PTO_DETAIL_OPERANDS_Binary const TileDesc &dst, const TileDesc &src0, const TileDesc &src1
#define PTO_DETAIL_OPERANDS_BinaryTmp PTO_DETAIL_OPERANDS_Binary
#define PTO_DETAIL_OPERANDS_Scalar \
    const TileDesc &dst, const TileDesc &src, ScalarBits scalar, ScalarSide side = ScalarSide::Right
#define PTO_DETAIL_OPERANDS_ScalarTmp PTO_DETAIL_OPERANDS_Scalar
#define PTO_DETAIL_OPERANDS_ScalarBothSides PTO_DETAIL_OPERANDS_Scalar
#define PTO_DETAIL_OPERANDS_Ternary3 const TileDesc &dst, const TileDesc &src0, const TileDesc &src1, const TileDesc &src2
#define PTO_DETAIL_OPERANDS_TernaryScalar const TileDesc &dst, const TileDesc &src0, ScalarBits scalar, const TileDesc &src1
#define PTO_DETAIL_OPERANDS_DstProduct PTO_DETAIL_OPERANDS_Binary
#define PTO_DETAIL_OPERANDS_DstScaled PTO_DETAIL_OPERANDS_Binary
#define PTO_DETAIL_OPERANDS_Axpy const TileDesc &dst, const TileDesc &src0, ScalarBits scalar
#define PTO_DETAIL_OPERANDS_Expand const TileDesc &dst, ScalarBits scalar
#define PTO_DETAIL_OPERANDS_Math PTO_DETAIL_OPERANDS_Unary
#define PTO_DETAIL_OPERANDS_Pow PTO_DETAIL_OPERANDS_Binary
#define PTO_DETAIL_OPERANDS_PowScalar PTO_DETAIL_OPERANDS_Scalar
#define PTO_DETAIL_ENTRY_Plain(entry, Kind, Precision) void entry(PTO_DETAIL_OPERANDS_##Kind);
#define PTO_DETAIL_ENTRY_Precise(entry, Kind, Precision) \
    void entry(PTO_DETAIL_OPERANDS_##Kind, Precision precision = Precision::DEFAULT);
#define PTO_ELEMENTWISE(NAME, entry, Op, Kind, Mode, Precision, A2A3_DTYPES, A5_DTYPES, CPU_DTYPES) \
    PTO_DETAIL_ENTRY_##Mode(entry, Kind, Precision)
#include <pto/isa/instructions.def>
#undef PTO_ELEMENTWISE
#undef PTO_DETAIL_ENTRY_Plain
#undef PTO_DETAIL_ENTRY_Precise
#undef PTO_DETAIL_OPERANDS_Unary
#undef PTO_DETAIL_OPERANDS_Binary
#undef PTO_DETAIL_OPERANDS_BinaryTmp
#undef PTO_DETAIL_OPERANDS_Scalar
#undef PTO_DETAIL_OPERANDS_ScalarTmp
#undef PTO_DETAIL_OPERANDS_ScalarBothSides
#undef PTO_DETAIL_OPERANDS_Math
#undef PTO_DETAIL_OPERANDS_Ternary3
#undef PTO_DETAIL_OPERANDS_TernaryScalar
#undef PTO_DETAIL_OPERANDS_DstProduct
#undef PTO_DETAIL_OPERANDS_DstScaled
#undef PTO_DETAIL_OPERANDS_Axpy
#undef PTO_DETAIL_OPERANDS_Expand
#undef PTO_DETAIL_OPERANDS_Pow
#undef PTO_DETAIL_OPERANDS_PowScalar

// The instructions whose result type differs from their sources' (src/engine/elementwise/converting.cpp):
// TADDRELUCONV / TSUBRELUCONV: dst = convert(relu(src0 +- src1)) for f32 -> f16, f16 -> i8 and i16 -> i8,
// the sum in the source's arithmetic (f32 rounded in float, f16 exact in float, i16 exact), converted
// once to nearest even, saturating. TADDDEQRELU: dst(f16) = relu(half(scale * float(src0 + src1))) from
// int32 sources, the sum wrapping.
void taddreluconv(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1);
void tsubreluconv(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1);
void tadddeqrelu(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1, float scale);

}  // namespace pto::engine
