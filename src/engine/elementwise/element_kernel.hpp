// The one kernel under every element-wise instruction: dst(r, c) = Op(x0(r, c), ..., xN-1(r, c)) over
// dst's valid region, for one element type T, where each operand x is a tile, dst's own old value, or a
// scalar. The unary, binary, tile-scalar and three-operand kernels are its N = 1, 2, 3 forms.
//
// Unboxed operands sharing dst's major order run the contiguous lines of line_kernels.hpp (a scalar is
// held once, Lines::broadcast); boxed or mixed layouts go element by element through each layout's
// storage offset. Any aliasing between dst and a source tile is safe (binary_operands.hpp).
// Included by the .cpp that instantiates it: no kernel lives in a public header.
#pragma once

#include <pto/engine/descriptor.hpp>
#include <pto/engine/dtype_of.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "engine/elementwise/element_format.hpp"
#include "engine/elementwise/line_kernels.hpp"
#include "engine/source_staging.hpp"

namespace pto::engine::elementwise {

// One source operand of an element-wise kernel.
class Operand {
public:
    enum class Kind : uint8_t { Tile, Destination, Scalar };

    static Operand tile(const TileDesc& t) { return {Kind::Tile, &t, 0}; }
    // dst's own values from before the operation: the accumulator of a read-modify-write instruction.
    static Operand destination() { return {Kind::Destination, nullptr, 0}; }
    // One value for every element, as its bit pattern in the element's encoding (storage_from_bits).
    static Operand scalar(uint64_t bits) { return {Kind::Scalar, nullptr, bits}; }

    Kind kind() const { return kind_; }
    const TileDesc& tile() const { return *tile_; }
    uint64_t bits() const { return bits_; }

private:
    Operand(Kind kind, const TileDesc* tile, uint64_t bits) : kind_(kind), tile_(tile), bits_(bits) {}

    Kind kind_;
    const TileDesc* tile_;
    uint64_t bits_;
};

template <typename Op>
concept HasLines = requires { Op::kLines; };
template <typename Op, typename T>
concept ChecksSources = requires(const TileDesc& t) { Op::template check_sources<T>(t, t, ""); };

template <typename Op, typename T, std::size_t N>
struct ElementKernel {
    using F = Format<T>;
    using S = typename F::Storage;
    using C = typename F::Compute;

    template <typename... X>
    static S element(X... x)
    {
        return F::narrow(Op::template apply<C>(F::widen(x)...));
    }

    static void run(const TileDesc& dst, const std::array<Operand, N>& operands)
    {
        std::array<S, N> scalars{};
        for (std::size_t k = 0; k < N; ++k) {
            if (operands[k].kind() == Operand::Kind::Scalar) scalars[k] = storage_from_bits<T>(operands[k].bits());
        }
        if constexpr (N == 2 && ChecksSources<Op, T>) {
            // The second operand as the instruction names it: a scalar, the tile of a scalar-first form,
            // or the second of two tiles.
            const char* second = operands[1].kind() == Operand::Kind::Scalar ? "scalar"
                                 : operands[0].kind() == Operand::Kind::Scalar ? "src"
                                                                                : "src1";
            Op::template check_sources<T>(source_for_check(dst, operands[0], scalars[0]),
                                          source_for_check(dst, operands[1], scalars[1]), second);
        }

        // Tile sources as the kernel may read them while it writes dst; scalars keep dst as a placeholder.
        std::array<TileDesc, N> sources;
        int slot = 0;
        for (std::size_t k = 0; k < N; ++k) {
            sources[k] = operands[k].kind() == Operand::Kind::Tile ? readable_source(operands[k].tile(), dst, slot++)
                                                                   : dst;
        }

        if (contiguous(dst, sources)) {
            const bool row_major = dst.blayout == BLayout::RowMajor;
            const LineShape shape = row_major ? LineShape{dst.valid_rows, dst.valid_cols}
                                              : LineShape{dst.valid_cols, dst.valid_rows};
            std::array<Lines<const S>, N> lines;
            for (std::size_t k = 0; k < N; ++k) {
                lines[k] = operands[k].kind() == Operand::Kind::Scalar ? Lines<const S>::broadcast(&scalars[k])
                                                                       : lines_of<const S>(sources[k]);
            }
            run_lines_of(lines_of<S>(dst), lines, shape, std::make_index_sequence<N>());
            return;
        }
        run_elements(dst, operands, sources, scalars, std::make_index_sequence<N>());
    }

private:
    // A scalar operand seen by check_sources: a 1x1 tile holding it.
    static TileDesc source_for_check(const TileDesc& dst, const Operand& operand, const S& scalar)
    {
        if (operand.kind() == Operand::Kind::Tile) return operand.tile();
        if (operand.kind() == Operand::Kind::Destination) return dst;
        TileDesc one;
        one.data = reinterpret_cast<std::byte*>(const_cast<S*>(&scalar));
        one.dtype = dtype_of<T>;
        one.rows = one.cols = one.valid_rows = one.valid_cols = 1;
        return one;
    }

    // Unboxed operands sharing one major order have contiguous lines: rows of row-major tiles, columns of
    // column-major ones.
    static bool contiguous(const TileDesc& dst, const std::array<TileDesc, N>& sources)
    {
        if (dst.boxed()) return false;
        for (const TileDesc& s : sources) {
            if (s.boxed() || s.blayout != dst.blayout) return false;
        }
        return true;
    }

    template <typename P>
    static Lines<P> lines_of(const TileDesc& t)
    {
        return {reinterpret_cast<P*>(t.data), t.blayout == BLayout::RowMajor ? t.cols : t.rows};
    }

    template <std::size_t... K>
    static void run_lines_of(Lines<S> d, const std::array<Lines<const S>, N>& sources, LineShape shape,
                             std::index_sequence<K...>)
    {
        if constexpr (HasLines<Op>) {
            run_lines<T>(Op::kLines, d, std::span<const Lines<const S>>(sources), shape);
        } else {
            for (int64_t i = 0; i < shape.count; ++i) {
                S* out = d.line(i);
                for (int64_t j = 0; j < shape.length; ++j) out[j] = element(sources[K].at(i, j)...);
            }
        }
    }

    template <std::size_t... K>
    static void run_elements(const TileDesc& dst, const std::array<Operand, N>& operands,
                             const std::array<TileDesc, N>& sources, const std::array<S, N>& scalars,
                             std::index_sequence<K...>)
    {
        S* out = reinterpret_cast<S*>(dst.data);
        const S* in[] = {reinterpret_cast<const S*>(sources[K].data)...};
        const bool scalar[] = {operands[K].kind() == Operand::Kind::Scalar...};
        for (int r = 0; r < dst.valid_rows; ++r) {
            for (int c = 0; c < dst.valid_cols; ++c) {
                out[dst.offset(r, c)] = element((scalar[K] ? scalars[K] : in[K][sources[K].offset(r, c)])...);
            }
        }
    }
};

}  // namespace pto::engine::elementwise
