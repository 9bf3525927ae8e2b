// pto::Shape, pto::Stride and pto::GlobalTensor: a 5-D view of global memory. Each dimension is
// static (a template argument) or DYNAMIC (given at run time).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <pto/common/constants.hpp>
#include <pto/common/type.hpp>
#include <pto/cpu/MXTypes.hpp>
#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype_of.hpp>
#include <pto/runtime/schedule.hpp>

namespace pto {

namespace detail {
// Five extents, some fixed at compile time. Run-time values are given either for all five positions
// (static positions ignored) or for the dynamic positions only, in order.
template <int64_t... Static>
struct Extents5 {
    static constexpr int64_t kStatic[5] = {Static...};
    static constexpr int kDynamicCount = ((Static == DYNAMIC ? 1 : 0) + ...);
    int64_t value[5] = {Static == DYNAMIC ? 1 : Static...};

    constexpr Extents5() = default;

    template <typename... N, std::enable_if_t<(sizeof...(N) > 0) && (std::is_integral_v<N> && ...), int> = 0>
    constexpr Extents5(N... n)
    {
        static_assert(sizeof...(N) == 5 || sizeof...(N) == kDynamicCount,
                      "give either all five dimensions or exactly one value per DYNAMIC dimension");
        const int64_t given[] = {static_cast<int64_t>(n)...};
        int next = 0;
        for (int d = 0; d < 5; ++d) {
            if constexpr (sizeof...(N) == 5) {
                if (kStatic[d] == DYNAMIC) value[d] = given[d];
            } else if (kStatic[d] == DYNAMIC) {
                value[d] = given[next++];
            }
        }
    }

    constexpr int64_t get(int d) const { return kStatic[d] == DYNAMIC ? value[d] : kStatic[d]; }
};
}  // namespace detail

template <int64_t N1 = DYNAMIC, int64_t N2 = DYNAMIC, int64_t N3 = DYNAMIC, int64_t N4 = DYNAMIC, int64_t N5 = DYNAMIC>
struct Shape : detail::Extents5<N1, N2, N3, N4, N5> {
    using detail::Extents5<N1, N2, N3, N4, N5>::Extents5;
    static constexpr int64_t staticShape[5] = {N1, N2, N3, N4, N5};
};

template <int64_t S1 = DYNAMIC, int64_t S2 = DYNAMIC, int64_t S3 = DYNAMIC, int64_t S4 = DYNAMIC, int64_t S5 = DYNAMIC>
struct Stride : detail::Extents5<S1, S2, S3, S4, S5> {
    using detail::Extents5<S1, S2, S3, S4, S5>::Extents5;
    static constexpr int64_t staticStride[5] = {S1, S2, S3, S4, S5};
};

// Shape(1, 1, 1, rows, cols) and Stride(...) from run-time values: every dimension DYNAMIC.
template <typename... N>
Shape(N...) -> Shape<>;
template <typename... N>
Stride(N...) -> Stride<>;

template <typename Element_, typename Shape_, typename Stride_, Layout Layout_ = Layout::ND>
struct GlobalTensor {
    using Shape = Shape_;
    using Stride = Stride_;
    using RawDType = std::remove_cv_t<Element_>;
    using DType = RawDType;
    static constexpr Layout layout = Layout_;
    static constexpr const int64_t (&staticShape)[5] = Shape_::staticShape;
    static constexpr const int64_t (&staticStride)[5] = Stride_::staticStride;

    GlobalTensor() = default;
    explicit GlobalTensor(DType* data, const Shape& shape = Shape(), const Stride& stride = Stride())
        : data_(data), shape_(shape), stride_(stride)
    {}

    DType* data() const { return data_; }

    int64_t GetShape(int dim) const { return dim >= 0 && dim < 5 ? shape_.get(dim) : -1; }
    int64_t GetStride(int dim) const { return dim >= 0 && dim < 5 ? stride_.get(dim) : -1; }

    template <int dim>
    static constexpr int64_t GetShape()
    {
        static_assert(dim >= 0 && dim < 5, "dimension must be 0..4");
        static_assert(staticShape[dim] != DYNAMIC, "a DYNAMIC dimension has no compile-time value");
        return staticShape[dim];
    }
    template <int dim>
    static constexpr int64_t GetStride()
    {
        static_assert(dim >= 0 && dim < 5, "dimension must be 0..4");
        static_assert(staticStride[dim] != DYNAMIC, "a DYNAMIC stride has no compile-time value");
        return staticStride[dim];
    }

    template <int... dims, typename... V>
    void SetShape(V... values)
    {
        static_assert(sizeof...(dims) == sizeof...(V), "one value per dimension");
        static_assert(((dims >= 0 && dims < 5 && staticShape[dims] == DYNAMIC) && ...), "only DYNAMIC dimensions can be set");
        ((shape_.value[dims] = static_cast<int64_t>(values)), ...);
    }
    template <int... dims, typename... V>
    void SetStride(V... values)
    {
        static_assert(sizeof...(dims) == sizeof...(V), "one value per dimension");
        static_assert(((dims >= 0 && dims < 5 && staticStride[dims] == DYNAMIC) && ...), "only DYNAMIC strides can be set");
        ((stride_.value[dims] = static_cast<int64_t>(values)), ...);
    }

    // Element access through the strides: by element offset from data(), or by its five indices (a
    // 4-bit float's offset counts values, two to a byte). (The adversarial schedule first runs the
    // instructions it holds back: pto/runtime/schedule.hpp.)
    DType GetElement(std::size_t offset) const
    {
        runtime::settle_held_back_work();
        return GetProperDataPart(data_, offset);
    }
    DType GetElement(int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4) const
    {
        return GetElement(std::size_t(offset_of(i0, i1, i2, i3, i4)));
    }
    void SetElement(std::size_t offset, const DType& value)
    {
        runtime::settle_held_back_work();
        SetProperDataPart(data_, offset, value);
    }
    void SetElement(int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4, const DType& value)
    {
        SetElement(std::size_t(offset_of(i0, i1, i2, i3, i4)), value);
    }

    // TASSIGN(tensor, pointer)
    void assign_pointer(DType* p) { data_ = p; }

    engine::GlobalDesc desc() const
    {
        engine::GlobalDesc d;
        d.data = reinterpret_cast<std::byte*>(data_);
        d.dtype = engine::dtype_of<DType>;
        d.layout = Layout_;
        for (int i = 0; i < 5; ++i) {
            d.shape[i] = shape_.get(i);
            d.stride[i] = stride_.get(i);
        }
        return d;
    }

private:
    int64_t offset_of(int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4) const
    {
        return i0 * stride_.get(0) + i1 * stride_.get(1) + i2 * stride_.get(2) + i3 * stride_.get(3) +
               i4 * stride_.get(4);
    }

    DType* data_ = nullptr;
    Shape shape_{};
    Stride stride_{};
};

template <typename T>
struct is_global : std::false_type {};
template <typename E, typename S, typename St, Layout L>
struct is_global<GlobalTensor<E, S, St, L>> : std::true_type {};
template <typename T>
inline constexpr bool is_global_data_v = is_global<std::remove_cv_t<T>>::value;

}  // namespace pto
