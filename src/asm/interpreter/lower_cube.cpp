// Lowering of typed pointers (`pto.castptr`, `pto.addptr`, `pto.load_scalar`, `pto.store_scalar`) and of
// the cube micro-instructions (`pto.mad*`, `pto.mte_*`). A pointer slot holds a byte offset into its
// on-chip memory (`i`), or a host address in global memory (`view.data`); every access is checked
// against the memory it points into before any byte moves.
#include <pto/engine/access.hpp>
#include <pto/engine/ops/cube.hpp>
#include <pto/engine/ops/matmul.hpp>
#include <pto/numeric/convert.hpp>
#include <pto/profile/rules_cube.hpp>
#include <pto/profile/rules_matmul.hpp>
#include <pto/runtime/memory.hpp>
#include <pto/runtime/registers.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "asm/cube_form.hpp"
#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/pointer_access.hpp"
#include "asm/interpreter/scalar.hpp"
#include "engine/tile_element.hpp"

namespace pto::as::interp {

namespace {

using engine::DType;

constexpr const char* kCubeUnits = "the cube's buffers are addressed in 32-byte units";
constexpr const char* kUbUnits = "a DMA transfer addresses the unified buffer in 32-byte units";

int64_t round_up(int64_t v, int64_t to) { return (v + to - 1) / to * to; }

// A cube tile of `rows` x `cols` valid elements at a pointer, in the layout its memory holds on the
// active target (rules::cube_layout), its capacity the valid shape rounded up to whole boxes.
engine::TileDesc cube_tile(pto::TileType loc, DType dtype, int64_t rows, int64_t cols)
{
    engine::TileDesc t;
    t.dtype = dtype;
    t.loc = loc;
    const rules::CubeLayout layout = rules::cube_layout(runtime::active_profile(), loc);
    t.blayout = layout.blayout;
    t.slayout = layout.slayout;
    t.fractal_bytes = loc == pto::TileType::Acc ? TileConfig::fractalCSize : TileConfig::fractalABSize;
    t.rows = int32_t(round_up(std::max<int64_t>(rows, 1), t.box_rows()));
    t.cols = int32_t(round_up(std::max<int64_t>(cols, 1), t.box_cols()));
    t.valid_rows = int32_t(rows);
    t.valid_cols = int32_t(cols);
    return t;
}

// The tile at a pointer: its storage checked to lie in the pointer's memory.
engine::TileDesc place(engine::TileDesc t, const PointerInfo& p, const Slot& s, const char* operand)
{
    require_aligned(p, s, 32, operand, kCubeUnits);
    t.data = address(p, s, t.valid_span_bytes(), operand);
    return t;
}

// The model's bounds on what a micro-instruction's operands may ask for, far above what a kernel uses
// (the devices encode counts in 16-bit fields), so that no operand makes a run overflow or never end.
constexpr int64_t kMaxExtent = int64_t(1) << 20;  // counts, extents, lengths
constexpr int64_t kMaxStride = int64_t(1) << 31;  // strides, in their units
constexpr int64_t kMaxWork = int64_t(1) << 28;    // bursts of one copy, elements of one repack or writeback

// A count, extent or stride read at run time: in [least, most], else `code`.
int64_t count_of(const Frame& f, int slot, int64_t least, const char* what, const char* code = "RUN_CUBE_EXTENT",
                 int64_t most = kMaxExtent)
{
    const int64_t v = f.slots[slot].i;
    if (v < least || v > most)
        runtime::fail({code, "", what, std::string(what) + " out of range",
                       std::to_string(least) + " to " + std::to_string(most), std::to_string(v), ""});
    return v;
}

// RUN_CUBE_EXTENT when one instruction would do more than the model's bound of work.
void require_bounded_work(double work, const char* what)
{
    if (work > double(kMaxWork))
        runtime::fail({"RUN_CUBE_EXTENT", "", what, std::string(what) + " beyond the model's bound",
                       "at most " + std::to_string(kMaxWork), std::to_string(int64_t(work)), ""});
}

// A rule broken at run time, for the executing operation.
[[noreturn]] void fail_with(const CubeProblem& p, const char* operand)
{
    runtime::fail({p.code, "", operand, p.what, p.expected, p.actual, ""});
}

// The value of a scalar operand as a double (floats as held, integers converted).
double scalar_value(const Slot& s, bool is_float) { return is_float ? s.f : double(s.i); }

// A tile in host memory: the Left operand a GEMV row is spread into.
struct ScratchTile {
    std::unique_ptr<std::byte[]> storage;
    engine::TileDesc tile;
    explicit ScratchTile(const engine::TileDesc& like) : storage(new std::byte[std::size_t(like.bytes())]()), tile(like)
    {
        tile.data = storage.get();
    }
};

struct PointerSlot {
    int slot;
    PointerInfo info;
};

// One strided copy from `src` to `dst`: its work bounded, both extents inside their memories, then the
// bursts (widening when `widen` > 1, padding rows when `padding` is given).
void run_bursts(Frame& f, const PointerSlot& src, const PointerSlot& dst, int64_t length, std::span<const engine::cube::BurstLevel> pattern,
                const engine::cube::RowPadding* padding = nullptr, int64_t widen = 1)
{
    double bursts = 1;
    for (const engine::cube::BurstLevel& level : pattern) bursts *= double(level.count);
    require_bounded_work(bursts, "bursts");
    const int64_t src_end = engine::cube::burst_extent(length, pattern, true);
    const int64_t dst_end = engine::cube::burst_extent(padding ? padding->row_bytes(length) : length * widen, pattern, false);
    engine::cube::BurstCopy copy{.dst = address(dst.info, f.slots[dst.slot], dst_end, "dst"),
                                 .src = address(src.info, f.slots[src.slot], src_end, "src"),
                                 .length = length,
                                 .levels = pattern,
                                 .padding = padding};
    if (widen != 1) {
        copy.from = src.info.dtype;
        copy.to = dst.info.dtype;
    }
    engine::cube::copy_bursts(copy);
}

// The UB side of a GM <-> UB transfer starts on a 32-byte boundary.
void require_ub_aligned(Frame& f, const PointerSlot& src, const PointerSlot& dst)
{
    if (src.info.memory) require_aligned(src.info, f.slots[src.slot], 32, "src", kUbUnits);
    if (dst.info.memory) require_aligned(dst.info, f.slots[dst.slot], 32, "dst", kUbUnits);
}

}  // namespace

void Lowerer::lower_pointer(const Operation& op, Body& body)
{
    auto add = [&](StepRun fn) { body.steps.push_back({std::move(fn), &op}); };
    const std::string& n = op.name;
    if (n == "pto.castptr" || n == "pto.addptr") {
        if (op.results.size() != 1) fail(op, codes::kBadOperand, "a pointer operation defines one pointer", "1 result", std::to_string(op.results.size()));
        const PointerInfo p = pointer_info(result_type(op, 0));
        const int d = define(op.results[0].get());
        const int a = slot(op.operands.at(0));
        if (n == "pto.castptr") {
            return add([=](Frame& f) {
                if (p.memory) f.slots[d].i = f.slots[a].i;
                else f.slots[d].view = {.data = reinterpret_cast<std::byte*>(uintptr_t(f.slots[a].i)), .dtype = p.dtype};
            });
        }
        const int offset = slot(op.operands.at(1));
        const int64_t step = p.element_bytes();
        return add([=](Frame& f) {
            Slot& out = f.slots[d];
            out = f.slots[a];
            advance(p, out, f.slots[offset].i, step);
        });
    }
    // pto.load_scalar %p[%i] -> T and pto.store_scalar %v, %p[%i]: one element, counted in elements.
    const bool store = n == "pto.store_scalar";
    const std::size_t first = store ? 1 : 0;
    if (op.operands.size() != first + 2) fail(op, codes::kBadOperand, "pointer and element index", std::to_string(first + 2) + " operands", std::to_string(op.operands.size()));
    const PointerInfo p = pointer_info(operand_type(op, first));
    const int ptr = slot(op.operands[first]), index = slot(op.operands[first + 1]);
    const bool is_float = engine::dtype_is_float(p.dtype);
    const int64_t bytes = p.element_bytes();
    auto element = [=](Frame& f) {
        Slot at = f.slots[ptr];
        advance(p, at, f.slots[index].i, bytes);
        return address(p, at, bytes, "ptr");
    };
    if (store) {
        const int value = slot(op.operands[0]);
        const bool value_float = scalar_kind(operand_type(op, 0)).is_float;
        return add([=](Frame& f) {
            std::byte* at = element(f);
            if (is_float) numeric::from_double(p.dtype, at, 0, scalar_value(f.slots[value], value_float), RoundMode::CAST_RINT, SaturationMode::OFF);
            else std::memcpy(at, &f.slots[value].i, std::size_t(bytes));  // the low bytes: the value wrapped to the width
            runtime::mark_written(at, std::size_t(bytes));
        });
    }
    if (op.results.size() != 1) fail(op, codes::kBadOperand, "a load defines one value", "1 result", std::to_string(op.results.size()));
    const ScalarKind kind = scalar_kind(result_type(op, 0));
    const int d = define(op.results[0].get());
    return add([=](Frame& f) {
        const std::byte* at = element(f);
        if (runtime::checked() && runtime::first_unwritten(at, std::size_t(bytes)) >= 0)
            runtime::fail({"RUN_UNINIT_READ", "", "ptr", "loads an element that nothing has written", "initialised data", "never-written bytes", ""});
        const double v = numeric::to_double(p.dtype, at, 0);
        if (kind.is_float) {
            f.slots[d].f = kind.round(v);
        } else if (engine::dtype_bits(p.dtype) == 64) {
            std::memcpy(&f.slots[d].i, at, sizeof(int64_t));
        } else {
            f.slots[d].i = kind.wrap(int64_t(v));
        }
    });
}

namespace {

// The operands of a cube micro-instruction as slots: its pointers (with what lowering knows of each)
// and its positional scalars.
struct CubeOperands {
    std::vector<PointerSlot> ptr;
    std::vector<int> num;
};

// The MX scales of the L0A / L0B operand at `data`: in ScaleLeft / ScaleRight at the operand's offset
// shifted right by rules::kMxScaleShift, as TGET_SCALE_ADDR places them; E8M0 values, one per 32 k values.
engine::TileDesc mx_scales(pto::TileType operand, int64_t operand_offset, int64_t rows, int64_t cols, const char* name)
{
    const bool left = operand == pto::TileType::Left;
    engine::TileDesc t;
    t.dtype = DType::F8E8M0;
    t.loc = left ? pto::TileType::ScaleLeft : pto::TileType::ScaleRight;
    t.blayout = left ? BLayout::RowMajor : BLayout::ColMajor;
    t.slayout = left ? SLayout::RowMajor : SLayout::ColMajor;
    t.fractal_bytes = TileConfig::fractalMxSize;
    t.rows = int32_t(round_up(rows, t.box_rows()));
    t.cols = int32_t(round_up(cols, t.box_cols()));
    t.valid_rows = int32_t(rows);
    t.valid_cols = int32_t(cols);
    Slot at;
    at.i = operand_offset >> rules::kMxScaleShift;
    return place(t, {t.loc, t.dtype}, at, name);
}

void lower_mad(const Operation& op, const CubeForm& form, const CubeOperands& o, Body& body)
{
    const std::string& n = op.name;
    const std::string name = n;
    const bool mx = n.find("_mx") != std::string::npos;
    const bool accumulate = n.ends_with("_acc"), bias = n.ends_with("_bias");
    const PointerSlot lhs = o.ptr[0], rhs = o.ptr[1], dst = o.ptr[2];
    const std::optional<PointerSlot> bias_ptr = bias ? std::optional<PointerSlot>(o.ptr[3]) : std::nullopt;
    const int m_slot = o.num[0], n_slot = o.num[1], k_slot = o.num[2];
    const bool gemv_row = !form.disable_gemv;
    // No tf32_mode clause: the core's SETTF32MODE register decides.
    const std::optional<engine::Tf32Rounding> tf32 =
        form.tf32_mode.empty() ? std::nullopt
                               : std::optional(form.tf32_mode == "round_away" ? engine::Tf32Rounding::HalfAway : engine::Tf32Rounding::NearestEven);
    const bool saturate = form.saturation == "sat";
    body.steps.push_back({[=](Frame& f) {
        runtime::InstructionScope scope(name.c_str());
        const int64_t m = f.slots[m_slot].i, nn = f.slots[n_slot].i, k = f.slots[k_slot].i;
        if (const auto problem = mad_extent_problem(runtime::active_profile(), mx, m, nn, k)) fail_with(*problem, "");
        engine::TileDesc a = cube_tile(pto::TileType::Left, lhs.info.dtype, m, k);
        const engine::TileDesc b = place(cube_tile(pto::TileType::Right, rhs.info.dtype, k, nn), rhs.info, f.slots[rhs.slot], "rhs");
        const engine::TileDesc c = place(cube_tile(pto::TileType::Acc, dst.info.dtype, m, nn), dst.info, f.slots[dst.slot], "dst");
        std::optional<ScratchTile> a_copy;
        if (m == 1 && gemv_row) {
            // GEMV organisation: the row's values lie contiguous at lhs.
            const int bits = a.element_bits();
            const int64_t row_bytes = (k * bits + 7) / 8;
            require_aligned(lhs.info, f.slots[lhs.slot], 32, "lhs", kCubeUnits);
            const std::byte* row = address(lhs.info, f.slots[lhs.slot], row_bytes, "lhs");
            if (runtime::checked() && runtime::first_unwritten(row, std::size_t(row_bytes)) >= 0)
                runtime::fail({"RUN_UNINIT_READ", "", "lhs", "reads a GEMV row that nothing has written", "initialised data", "never-written bytes", ""});
            a_copy.emplace(a);
            for (int64_t j = 0; j < k; ++j) engine::copy_element(a_copy->tile.data, a.offset(0, j), row, j, bits);
        } else {
            a = place(a, lhs.info, f.slots[lhs.slot], "lhs");
        }
        engine::TileDesc bias_tile;
        if (bias_ptr) {
            bias_tile.loc = pto::TileType::Bias;
            bias_tile.dtype = bias_ptr->info.dtype;
            bias_tile.rows = 1;
            bias_tile.cols = int32_t(round_up(nn, 32 * 8 / engine::dtype_bits(bias_tile.dtype)));
            bias_tile.valid_rows = 1;
            bias_tile.valid_cols = int32_t(nn);
            bias_tile = place(bias_tile, bias_ptr->info, f.slots[bias_ptr->slot], "bias");
        }
        std::optional<engine::TileDesc> a_scale, b_scale;
        if (mx) {
            const int64_t groups = rules::mx_groups(k);
            a_scale = mx_scales(pto::TileType::Left, f.slots[lhs.slot].i, m, groups, "lhs scales");
            b_scale = mx_scales(pto::TileType::Right, f.slots[rhs.slot].i, groups, nn, "rhs scales");
        }
        engine::tmatmul({.c = c,
                         .a = a_copy ? a_copy->tile : a,
                         .b = b,
                         .c_in = accumulate ? &c : nullptr,
                         .bias = bias_ptr ? &bias_tile : nullptr,
                         .gemv = false,
                         .a_scale = a_scale ? &*a_scale : nullptr,
                         .b_scale = b_scale ? &*b_scale : nullptr},
                        {.tf32 = tf32, .saturate = saturate});
    }, &op});
}

// The pre-v0.6 vector-core DMA, lengths and strides in bytes: pto.copy_gm_to_ubuf and copy_ubuf_to_gm
// repeat their rows over the loop registers of their direction (set_loop_*, below), loop1 inside
// loop2; pto.copy_ubuf_to_ubuf has no loops. The DMA stream id, cache control and reserved operands
// change nothing here.
void lower_register_copy(const Operation& op, const CubeOperands& o, Body& body)
{
    enum class Direction { GmToUb, UbToGm, UbToUb };
    const Direction direction = op.name == "pto.copy_gm_to_ubuf" ? Direction::GmToUb
                                : op.name == "pto.copy_ubuf_to_gm" ? Direction::UbToGm
                                                                   : Direction::UbToUb;
    // The scalars after the two pointers: sid, n_burst, len_burst, then each form's own order.
    struct Fields {
        int src_stride, dst_stride, left = -1, right = -1, select = -1;
    };
    const std::vector<int>& num = o.num;
    const Fields at = direction == Direction::GmToUb ? Fields{num[7], num[8], num[3], num[4], num[5]}
                      : direction == Direction::UbToGm ? Fields{num[5], num[4]}
                                                       : Fields{num[3], num[4]};
    body.steps.push_back({[=, name = op.name, src = o.ptr[0], dst = o.ptr[1], n_burst = num[1], len_burst = num[2]](Frame& f) {
                              runtime::InstructionScope scope(name.c_str());
                              const int64_t length = count_of(f, len_burst, 0, "len_burst");
                              std::vector<engine::cube::BurstLevel> pattern{
                                  {count_of(f, n_burst, 0, "n_burst", "RUN_BURST_PATTERN"),
                                   count_of(f, at.src_stride, 0, "src_stride", "RUN_BURST_PATTERN", kMaxStride),
                                   count_of(f, at.dst_stride, 0, "dst_stride", "RUN_BURST_PATTERN", kMaxStride)}};
                              if (direction != Direction::UbToUb) {
                                  const runtime::CoreRegisters& r = runtime::core_registers();
                                  const runtime::DmaLoopRegisters& loops = direction == Direction::GmToUb ? r.gm_to_ub : r.ub_to_gm;
                                  for (const runtime::DmaLoop& loop : {loops.loop1, loops.loop2})
                                      pattern.push_back({loop.count, loop.src_stride, loop.dst_stride});
                              }
                              require_ub_aligned(f, src, dst);
                              // data_select_bit set: zero bytes left and right of each row, then to the
                              // row's 32-byte boundary, as pad(...) of pto.mte_gm_ub writes them.
                              engine::cube::RowPadding padding;
                              const bool padded = at.select >= 0 && f.slots[at.select].i != 0;
                              if (padded) {
                                  padding.left = count_of(f, at.left, 0, "left_padding", "RUN_BURST_PATTERN");
                                  padding.right = count_of(f, at.right, 0, "right_padding", "RUN_BURST_PATTERN");
                              }
                              run_bursts(f, src, dst, length, pattern, padded ? &padding : nullptr);
                          },
                          &op});
}

// pto.set_loop_size_{outtoub,ubtoout} %loop1_count, %loop2_count and
// pto.set_loop{1,2}_stride_{outtoub,ubtoout} %src_stride, %dst_stride: the core's DMA loop registers.
void lower_loop_register(const Operation& op, const CubeOperands& o, Body& body)
{
    const std::string& n = op.name;
    const bool to_ub = n.ends_with("_outtoub");
    const int loop = n.starts_with("pto.set_loop_size") ? 0 : n.starts_with("pto.set_loop1") ? 1 : 2;
    body.steps.push_back({[=, name = n, a = o.num[0], b = o.num[1]](Frame& f) {
                              runtime::InstructionScope scope(name.c_str());
                              runtime::CoreRegisters& r = runtime::core_registers();
                              runtime::DmaLoopRegisters& loops = to_ub ? r.gm_to_ub : r.ub_to_gm;
                              if (loop == 0) {
                                  const int64_t inner = count_of(f, a, 0, "loop1_count", "RUN_BURST_PATTERN");
                                  loops.loop2.count = count_of(f, b, 0, "loop2_count", "RUN_BURST_PATTERN");
                                  loops.loop1.count = inner;
                                  return;
                              }
                              runtime::DmaLoop& l = loop == 1 ? loops.loop1 : loops.loop2;
                              const int64_t src_stride = count_of(f, a, 0, "src_stride", "RUN_BURST_PATTERN", kMaxStride);
                              l.dst_stride = count_of(f, b, 0, "dst_stride", "RUN_BURST_PATTERN", kMaxStride);
                              l.src_stride = src_stride;
                          },
                          &op});
}

void lower_cube_move(Lowerer& l, const Operation& op, const CubeForm& form, const CubeOperands& o, Body& body)
{
    const std::vector<PointerSlot>& ptr = o.ptr;
    const std::vector<int>& num = o.num;
    auto add = [&](StepRun fn) { body.steps.push_back({std::move(fn), &op}); };
    auto slot = [&](const Value* v) { return l.slot(v); };
    auto fail = [&](std::string_view code, std::string what, std::string expected, std::string actual) {
        l.fail(op, code, std::move(what), std::move(expected), std::move(actual));
    };
    const std::string& n = op.name;
    const std::string name = n;
    auto slots_of = [&](const std::vector<const Value*>& values) {
        std::vector<int> out;
        for (const Value* v : values) out.push_back(slot(v));
        return out;
    };
    if (ptr.size() < 2) fail(codes::kBadOperand, "a move takes a source and a destination pointer", "2 pointers", std::to_string(ptr.size()));
    const PointerSlot src = ptr[0], dst = ptr[1];

    if (!form.bursts.empty()) {
        // Byte lengths and strides (mte_gm_l1, mte_l1_ub, mte_gm_ub, mte_ub_gm); or lengths and gaps in
        // 32-byte blocks.
        const bool blocks = n == "pto.mte_ub_l1" || n == "pto.mte_l1_bt" || n == "pto.mte_l1_fb" || n == "pto.mte_ub_ub";
        const bool bias_load = n == "pto.mte_l1_bt";
        const bool vector_dma = n == "pto.mte_gm_ub" || n == "pto.mte_ub_gm";
        std::vector<std::array<int, 3>> levels;
        for (const BurstClause& b : form.bursts) levels.push_back({slot(b.count), slot(b.src_stride), slot(b.dst_stride)});
        const int length_slot = num.back();  // mte_gm_ub's first scalar is its L2 cache control
        const std::vector<int> pad = slots_of(form.pad);
        const ScalarKind pad_kind = pad.empty() ? ScalarKind{} : scalar_kind(l.operand_type(op, std::size_t(std::find(op.operands.begin(), op.operands.end(), form.pad[0]) - op.operands.begin())));
        return add([=](Frame& f) {
            runtime::InstructionScope scope(name.c_str());
            const int64_t unit = blocks ? 32 : 1;
            const int64_t length = count_of(f, length_slot, 0, "len_burst") * unit;
            const int64_t widen = bias_load ? engine::dtype_bits(dst.info.dtype) / engine::dtype_bits(src.info.dtype) : 1;
            std::vector<engine::cube::BurstLevel> pattern;
            for (std::size_t i = 0; i < levels.size(); ++i) {
                const int64_t count = count_of(f, levels[i][0], 0, "burst count", "RUN_BURST_PATTERN");
                int64_t src_stride = count_of(f, levels[i][1], 0, "source stride", "RUN_BURST_PATTERN", kMaxStride) * unit;
                int64_t dst_stride = count_of(f, levels[i][2], 0, "destination stride", "RUN_BURST_PATTERN", kMaxStride) * unit;
                if (blocks && i == 0) {  // gaps between bursts, not strides
                    src_stride += length;
                    dst_stride += length * widen;
                }
                pattern.push_back({count, src_stride, dst_stride});
            }
            if (blocks) {
                require_aligned(src.info, f.slots[src.slot], 32, "src", kCubeUnits);
                require_aligned(dst.info, f.slots[dst.slot], 32, "dst", kCubeUnits);
            } else if (vector_dma) {
                require_ub_aligned(f, src, dst);
            }
            engine::cube::RowPadding padding;
            if (!pad.empty()) {
                const engine::ScalarValue fill{.i = f.slots[pad[0]].i, .f = f.slots[pad[0]].f, .is_float = pad_kind.is_float, .known = true};
                const engine::ScalarBits bits = engine::encode_scalar(dst.info.dtype, fill);
                padding.element_bytes = dst.info.element_bytes();
                std::memcpy(padding.value.data(), &bits, std::min<std::size_t>(sizeof bits, padding.value.size()));
                if (pad.size() == 3) {
                    padding.left = count_of(f, pad[1], 0, "left padding count", "RUN_BURST_PATTERN");
                    padding.right = count_of(f, pad[2], 0, "right padding count", "RUN_BURST_PATTERN");
                }
            }
            run_bursts(f, src, dst, length, pattern, pad.empty() ? nullptr : &padding, widen);
        });
    }

    if (n == "pto.mte_gm_l1_frac") {
        const std::vector<int> shape = slots_of(form.frac_shape), layout = slots_of(form.frac_src_layout),
                               group = slots_of(form.frac_dst_group), ctrl = slots_of(form.frac_ctrl);
        if (shape.size() != 2 || layout.empty() || group.size() != 4 || ctrl.size() != 2)
            fail("STRUCT_CLAUSE", "mte_gm_l1_frac needs shape, src_layout, dst_group and ctrl", "all four", "fewer");
        const bool dn2nz = form.dn2nz;
        return add([=](Frame& f) {
            runtime::InstructionScope scope(name.c_str());
            engine::cube::NdToNz p{.dst = nullptr,
                                   .src = nullptr,
                                   .element_bytes = std::max(1, engine::dtype_bits(dst.info.dtype) / 8),
                                   .rows = count_of(f, shape[0], 0, "n_value"),
                                   .cols = count_of(f, shape[1], 0, "d_value"),
                                   .groups = count_of(f, group[0], 0, "group_count"),
                                   .transposed_source = dn2nz,
                                   .src_row_stride = count_of(f, layout[0], 0, "src_inner_stride", "RUN_CUBE_EXTENT", kMaxStride),
                                   .src_matrix_stride = layout.size() > 1 ? count_of(f, layout[1], 0, "src_outer_stride", "RUN_CUBE_EXTENT", kMaxStride) : 0,
                                   .dst_row_blocks = count_of(f, group[1], 0, "dst_loop2_stride", "RUN_CUBE_EXTENT", kMaxStride),
                                   .dst_column_blocks = count_of(f, group[2], 0, "dst_loop3_stride", "RUN_CUBE_EXTENT", kMaxStride),
                                   .dst_matrix_blocks = count_of(f, group[3], 0, "dst_loop4_stride", "RUN_CUBE_EXTENT", kMaxStride),
                                   .small_c0 = f.slots[ctrl[1]].i != 0};
            if (p.small_c0 && p.cols > engine::cube::kSmallC0Lanes)
                runtime::fail({"RUN_FRAC_SMALL_C0", "", "shape", "small-C0 packing takes at most 4 channels", "d_value <= 4",
                               std::to_string(p.cols), ""});
            require_aligned(dst.info, f.slots[dst.slot], 32, "dst", kCubeUnits);
            require_bounded_work(double(p.groups) * double(p.rows) * double(p.cols), "elements");
            p.src = address(src.info, f.slots[src.slot], engine::cube::nd_to_nz_source_extent(p), "src");
            p.dst = address(dst.info, f.slots[dst.slot], engine::cube::nd_to_nz_destination_extent(p), "dst");
            engine::cube::nd_to_nz(p);
        });
    }

    if (n == "pto.mte_l1_l0a_mx" || n == "pto.mte_l1_l0b_mx") {
        // The scales of the operand at %dst, from an L1 image in the scale buffer's own layout.
        const bool left = n == "pto.mte_l1_l0a_mx";
        const int rows_slot = num.at(0), cols_slot = num.at(1);
        return add([=](Frame& f) {
            runtime::InstructionScope scope(name.c_str());
            const int64_t first = count_of(f, rows_slot, 1, left ? "m" : "k"), second = count_of(f, cols_slot, 1, left ? "k" : "n");
            const int64_t rows = left ? first : rules::mx_groups(first);
            const int64_t cols = left ? rules::mx_groups(second) : second;
            const engine::TileDesc into = mx_scales(left ? pto::TileType::Left : pto::TileType::Right, f.slots[dst.slot].i, rows, cols, "dst scales");
            engine::TileDesc image = into;
            image.loc = pto::TileType::Mat;
            image = place(image, src.info, f.slots[src.slot], "src");
            engine::cube::copy_elements(into, image, int(rows), int(cols), false);
        });
    }

    if (n == "pto.mte_l1_l0a" || n == "pto.mte_l1_l0b") {
        const pto::TileType to = n == "pto.mte_l1_l0a" ? pto::TileType::Left : pto::TileType::Right;
        const Attribute* attr = op.attribute("transpose");
        const bool transpose = attr && attr->is(Attribute::Kind::Bool) && attr->bool_value();
        const int rows_slot = num.at(0), cols_slot = num.at(1);
        return add([=](Frame& f) {
            runtime::InstructionScope scope(name.c_str());
            const int64_t rows = count_of(f, rows_slot, 1, to == pto::TileType::Left ? "m" : "k");
            const int64_t cols = count_of(f, cols_slot, 1, to == pto::TileType::Left ? "k" : "n");
            const engine::TileDesc from = place(cube_tile(pto::TileType::Mat, src.info.dtype, transpose ? cols : rows, transpose ? rows : cols),
                                                src.info, f.slots[src.slot], "src");
            const engine::TileDesc into = place(cube_tile(to, dst.info.dtype, rows, cols), dst.info, f.slots[dst.slot], "dst");
            engine::cube::copy_elements(into, from, int(rows), int(cols), transpose);
        });
    }

    // The fixpipe: mte_l0c_l1, mte_l0c_gm, mte_l0c_ub.
    engine::cube::Fixpipe proto;
    proto.dst_dtype = dst.info.dtype;
    proto.layout = form.layout == "nz2nd" ? engine::cube::FixpipeLayout::ND
                   : form.layout == "nz2dn" ? engine::cube::FixpipeLayout::DN
                                            : engine::cube::FixpipeLayout::Nz;
    proto.saturation = form.saturation == "sat"                  ? engine::cube::FixpipeSaturation::Saturate
                       : form.saturation == "sat(preserve_nan)" ? engine::cube::FixpipeSaturation::PreserveNan
                       : form.saturation == "nosat"             ? engine::cube::FixpipeSaturation::None
                                                                 : engine::cube::FixpipeSaturation::Default;
    if (!form.atomic_op.empty()) {
        proto.atomic = form.atomic_op == "add" ? engine::cube::FixpipeAtomic::Add
                       : form.atomic_op == "max" ? engine::cube::FixpipeAtomic::Max
                                                 : engine::cube::FixpipeAtomic::Min;
    }
    // A payload is a scalar operand, or a pointer to one value per column in the fixpipe buffer.
    struct Payload {
        int slot = -1;
        bool is_float = false;
        std::optional<PointerInfo> table;
    };
    auto payload_of = [&](const Value* v, bool vector) {
        Payload p;
        if (!v) return p;
        p.slot = slot(v);
        if (vector) p.table = pointer_info(v->type);
        else p.is_float = scalar_kind(v->type).is_float;
        return p;
    };
    const Payload quant = payload_of(form.quant_payload, form.quant_mode.ends_with("_vector"));
    const std::string& relu = form.relu_mode;
    const Payload slope = payload_of(form.relu_payload, relu == "vector_relu");
    proto.relu = relu == "normal_relu" ? engine::cube::FixpipeRelu::Normal
                 : relu == "scalar_relu" ? engine::cube::FixpipeRelu::Scalar
                 : relu == "vector_relu" ? engine::cube::FixpipeRelu::Vector
                                         : engine::cube::FixpipeRelu::None;
    const int clip_slot = form.clip ? slot(form.clip) : -1;
    const bool clip_float = form.clip && scalar_kind(form.clip->type).is_float;
    const int loop0 = form.loop0_src_stride ? slot(form.loop0_src_stride) : -1;
    const bool unit_flag = form.unit_flag;
    const int split = form.nz2nz_split ? slot(form.nz2nz_split) : -1;
    const std::vector<int> loop3 = slots_of(form.loop3);
    const int m_slot = num.at(0), n_slot = num.at(1), src_stride_slot = num.at(2), dst_stride_slot = num.at(3);
    // pto.mte_l0c_ub: the UB of one sub-block, or both halves of the tile (split_m, split_n).
    const bool to_ub = n == "pto.mte_l0c_ub";
    const int sub_blockid = form.sub_blockid ? slot(form.sub_blockid) : -1;
    const std::string dst_split = form.dst_split;
    return add([=](Frame& f) {
        runtime::InstructionScope scope(name.c_str());
        engine::cube::Fixpipe w = proto;
        const int64_t tile_m = count_of(f, m_slot, 1, "m"), tile_n = count_of(f, n_slot, 1, "n");
        if (const auto problem = fixpipe_split_problem(dst_split, tile_m, tile_n)) fail_with(*problem, "dst_mode");
        // The part of the tile each destination receives: (sub-block, first row, first column); rows
        // and columns are halved for a split.
        struct Part {
            uint32_t sub_block;
            int64_t row, col;
        };
        std::vector<Part> parts{{0, 0, 0}};
        w.m = dst_split == "split_m" ? tile_m / 2 : tile_m;
        w.n = dst_split == "split_n" ? tile_n / 2 : tile_n;
        if (!dst_split.empty()) parts.push_back({1, tile_m - w.m, tile_n - w.n});
        if (sub_blockid >= 0) {
            if (const auto problem = fixpipe_sub_block_problem(f.slots[sub_blockid].i)) fail_with(*problem, "dst_mode");
            parts[0].sub_block = uint32_t(f.slots[sub_blockid].i);
        }
        if (loop0 >= 0) {
            if (const auto problem = fixpipe_loop0_problem(f.slots[loop0].i, unit_flag)) fail_with(*problem, "nz2dn");
            w.src_row_step = count_of(f, loop0, 1, "nz2dn loop0 source stride", "RUN_FIXPIPE_LOOP0", kMaxStride);
        }
        const int64_t rows_read = rules::fixpipe_rows_read(tile_m, w.src_row_step);
        const int64_t src_rows = count_of(f, src_stride_slot, 0, "src_stride", "RUN_FIXPIPE_STRIDE");
        if (const auto problem = fixpipe_stride_problem(rows_read, src_rows)) fail_with(*problem, "src_stride");
        const int64_t least = w.layout == engine::cube::FixpipeLayout::ND ? w.n : w.m;
        w.dst_stride = count_of(f, dst_stride_slot, least, "dst_stride", "RUN_FIXPIPE_STRIDE", kMaxStride);
        if (split >= 0 && f.slots[split].i != 0) w.box_columns = 8;  // f32 in 32-byte boxes
        if (quant.slot >= 0) {
            w.has_scale = true;
            if (quant.table) {
                w.scale_table = address(*quant.table, f.slots[quant.slot], w.n * quant.table->element_bytes(), "pre_quant");
                w.scale_dtype = quant.table->dtype;
            } else {
                w.scale = float(scalar_value(f.slots[quant.slot], quant.is_float));
            }
        }
        if (slope.slot >= 0) {
            if (slope.table) {
                w.slope_table = address(*slope.table, f.slots[slope.slot], w.n * slope.table->element_bytes(), "pre_relu");
                w.slope_dtype = slope.table->dtype;
            } else {
                w.slope = float(scalar_value(f.slots[slope.slot], slope.is_float));
            }
        }
        if (clip_slot >= 0) {
            w.has_clip = true;
            w.clip = scalar_value(f.slots[clip_slot], clip_float);
        }
        // loop3(count, src_stride, dst_stride) repeats the writeback, the accumulator advancing by 32-byte
        // blocks and the destination by elements.
        const int64_t repeats = loop3.empty() ? 1 : count_of(f, loop3[0], 0, "loop3 count", "RUN_BURST_PATTERN");
        const int64_t src_step = loop3.empty() ? 0 : 32 * count_of(f, loop3[1], 0, "loop3 source stride", "RUN_BURST_PATTERN", kMaxStride);
        const int64_t dst_step = loop3.empty() ? 0 : count_of(f, loop3[2], 0, "loop3 destination stride", "RUN_BURST_PATTERN", kMaxStride) *
                                                         std::max(1, engine::dtype_bits(dst.info.dtype) / 8);
        require_bounded_work(double(repeats) * double(tile_m) * double(tile_n), "elements");
        for (int64_t i = 0; i < repeats; ++i) {
            Slot from = f.slots[src.slot], to = f.slots[dst.slot];
            advance(src.info, from, i, src_step);
            advance(dst.info, to, i, dst_step);
            engine::TileDesc acc = cube_tile(pto::TileType::Acc, src.info.dtype, rows_read, tile_n);
            acc.rows = int32_t(src_rows);
            acc = place(acc, src.info, from, "src");
            w.src = &acc;
            if (dst.info.memory) require_aligned(dst.info, to, 32, "dst", kCubeUnits);
            for (const Part& part : parts) {
                w.src_row = part.row;
                w.src_col = part.col;
                const int64_t extent = engine::cube::fixpipe_extent(w);
                if (!to_ub) {
                    w.dst = address(dst.info, to, extent, "dst");
                    engine::cube::fixpipe(w);
                    continue;
                }
                // Each sub-block's UB has its own origin at %dst.
                runtime::write_sub_block_ub(part.sub_block, [&](std::byte* ub, uint64_t size) {
                    w.dst = inside(pto::TileType::Vec, MemoryWindow{ub, size, true}, to.i, extent, "dst");
                    engine::cube::fixpipe(w);
                });
            }
        }
    });
}

}  // namespace

void Lowerer::lower_cube(const Operation& op, Body& body)
{
    std::vector<CubeProblem> problems;
    const CubeForm form = read_cube_form(op, problems);
    check_cube_rules(op, form, runtime::active_profile(), problems);
    if (!problems.empty()) fail(op, problems[0].code, problems[0].what, problems[0].expected, problems[0].actual);
    CubeOperands operands;
    for (const PointerOperand& p : form.pointers) operands.ptr.push_back({slot(p.value), p});
    for (const Value* v : form.scalars) operands.num.push_back(slot(v));
    if (op.name.rfind("pto.mad", 0) == 0) return lower_mad(op, form, operands, body);
    if (op.name.starts_with("pto.set_loop")) return lower_loop_register(op, operands, body);
    if (operands.ptr.size() < 2)
        fail(op, codes::kBadOperand, "a move takes a source and a destination pointer", "2 pointers", std::to_string(operands.ptr.size()));
    if (op.name.starts_with("pto.copy_")) return lower_register_copy(op, operands, body);
    lower_cube_move(*this, op, form, operands, body);
}

}  // namespace pto::as::interp
