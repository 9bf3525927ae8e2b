// The DType tag of a C++ element type.
#pragma once

#include <cstdint>
#include <type_traits>

#include <pto/common/numeric.hpp>
#include <pto/engine/dtype.hpp>

namespace pto::engine {

template <typename T>
struct DTypeOf;

#define PTO_DETAIL_DTYPE_OF(Type, Tag) \
    template <>                        \
    struct DTypeOf<Type> {             \
        static constexpr DType value = DType::Tag; \
    };
PTO_DETAIL_DTYPE_OF(float, F32)
PTO_DETAIL_DTYPE_OF(half, F16)
PTO_DETAIL_DTYPE_OF(bfloat16_t, BF16)
PTO_DETAIL_DTYPE_OF(int8_t, I8)
PTO_DETAIL_DTYPE_OF(int16_t, I16)
PTO_DETAIL_DTYPE_OF(int32_t, I32)
PTO_DETAIL_DTYPE_OF(int64_t, I64)
PTO_DETAIL_DTYPE_OF(uint8_t, U8)
PTO_DETAIL_DTYPE_OF(uint16_t, U16)
PTO_DETAIL_DTYPE_OF(uint32_t, U32)
PTO_DETAIL_DTYPE_OF(uint64_t, U64)
PTO_DETAIL_DTYPE_OF(float8_e4m3_t, F8E4M3)
PTO_DETAIL_DTYPE_OF(float8_e5m2_t, F8E5M2)
PTO_DETAIL_DTYPE_OF(float8_e8m0_t, F8E8M0)
PTO_DETAIL_DTYPE_OF(hifloat8_t, HiF8)
PTO_DETAIL_DTYPE_OF(float4_e2m1x2_t, F4E2M1x2)
PTO_DETAIL_DTYPE_OF(float4_e1m2x2_t, F4E1M2x2)
PTO_DETAIL_DTYPE_OF(pto::int4b_t, I4)
#undef PTO_DETAIL_DTYPE_OF

template <typename T>
inline constexpr DType dtype_of = DTypeOf<std::remove_cv_t<T>>::value;

template <typename T>
inline constexpr int element_bits_of = dtype_bits(dtype_of<T>);

}  // namespace pto::engine
