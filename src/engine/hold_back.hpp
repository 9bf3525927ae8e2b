// The first statement of a tile instruction's entry point: in the adversarial schedule
// (pto/runtime/schedule.hpp) the instruction is held back with copies of its operands (descriptors of
// simulated and global memory, scalars, and the objects optional operands point to), and its entry
// point is called again with them when the schedule runs it. Otherwise the entry point goes on.
//
//   void tadd(const TileDesc& dst, const TileDesc& src0, const TileDesc& src1)
//   {
//       PTO_HOLD_BACK("TADD", tadd, dst, src0, src1);
//       runtime::InstructionScope scope("TADD");
//       ...
//
// For entry points that return nothing and report nothing through their operands.
#pragma once

#include <optional>
#include <tuple>
#include <type_traits>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/data_movement.hpp>
#include <pto/engine/ops/matmul.hpp>

#include "runtime/adversarial_schedule.hpp"
#include "runtime/call_site.hpp"

namespace pto::engine::hold_back_detail {

// An operand kept for later: a copy, passed back as the entry point takes it.
template <typename T>
struct Kept {
    T value;
    explicit Kept(const T& v) : value(v) {}
    const T& get() const { return value; }
};

// An optional operand (a tmp tile, a quantization): the object it points to, copied.
template <typename T>
struct Kept<const T*> {
    std::optional<Kept<T>> value;
    mutable std::optional<T> passed;  // what get() points to, for the duration of the call
    explicit Kept(const T* p)
    {
        if (p) value.emplace(*p);
    }
    const T* get() const
    {
        if (!value) return nullptr;
        passed.emplace(value->get());
        return &*passed;
    }
};

template <>
struct Kept<AccQuantization> {
    uint64_t scalar;
    Kept<const TileDesc*> per_column;
    explicit Kept(const AccQuantization& q) : scalar(q.scalar), per_column(q.per_column) {}
    AccQuantization get() const { return {scalar, per_column.get()}; }
};

template <>
struct Kept<MatmulOperands> {
    TileDesc c, a, b;
    Kept<const TileDesc*> c_in, bias, a_scale, b_scale;
    bool gemv;
    explicit Kept(const MatmulOperands& o)
        : c(o.c), a(o.a), b(o.b), c_in(o.c_in), bias(o.bias), a_scale(o.a_scale), b_scale(o.b_scale), gemv(o.gemv)
    {
    }
    MatmulOperands get() const { return {c, a, b, c_in.get(), bias.get(), gemv, a_scale.get(), b_scale.get()}; }
};

// Where the pipe rule looks: the first operand is the destination when it is a tile, and the first
// other tile is the first source.
template <typename... Operands>
void hold(const char* name, auto entry, const Operands&... operands)
{
    std::optional<TileType> src, dst;
    bool first = true;
    const auto note = [&](const auto& operand) {
        if constexpr (std::is_same_v<std::decay_t<decltype(operand)>, TileDesc>) {
            if (first) dst = operand.loc;
            else if (!src) src = operand.loc;
        }
        first = false;
    };
    (note(operands), ...);
    runtime::adversary::hold_back(name, src, dst, [entry, kept = std::tuple<Kept<Operands>...>(Kept<Operands>(operands)...)] {
        std::apply([&](const auto&... k) { entry(k.get()...); }, kept);
    });
}

}  // namespace pto::engine::hold_back_detail

#define PTO_HOLD_BACK(NAME, ENTRY, ...)                                                                              \
    do {                                                                                                             \
        PTO_NOTE_CALL_SITE();                                                                                        \
        if (::pto::runtime::adversary::holds_back()) {                                                               \
            ::pto::engine::hold_back_detail::hold(NAME, [](const auto&... operands) { ENTRY(operands...); }, __VA_ARGS__); \
            return;                                                                                                  \
        }                                                                                                            \
    } while (0)
