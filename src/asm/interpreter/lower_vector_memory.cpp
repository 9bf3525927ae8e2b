// Lowering of the vector memory forms after pto.vlds / pto.vsts (vector_memory.hpp): paired, strided,
// block, gather and scatter accesses, predicate loads and stores, and the `!pto.align` streams. Every
// UB address is resolved and checked here (RUN_POINTER_ALIGN, RUN_POINTER_RANGE) before the kernel
// moves a byte; lanes or blocks a mask or count leaves out are checked only where their page says so.
#include <pto/engine/ops/vector_memory.hpp>

#include <cstring>
#include <memory>

#include "asm/interpreter/lowering.hpp"
#include "asm/interpreter/vector_slots.hpp"

namespace pto::as::interp {

namespace {

using vec::AlignState;

// Unsigned lane `i` of an integer register of `bytes`-byte lanes.
uint64_t unsigned_lane(const vec::Register& r, int bytes, int i)
{
    uint64_t v = 0;
    std::memcpy(&v, r.bytes.data() + std::size_t(i) * std::size_t(bytes), std::size_t(bytes));
    return v;
}

// A lane or block count operand: RUN_ACTIVE_LANES outside [0, most].
int active_count(const Slot& s, int most, const char* what)
{
    if (s.i < 0 || s.i > most)
        runtime::fail({"RUN_ACTIVE_LANES", "", "active_lanes", std::string("the count of active ") + what + " is outside the register",
                       "0 to " + std::to_string(most), std::to_string(s.i), ""});
    return int(s.i);
}

const AlignState& align_of(const Slot& s)
{
    if (!s.align)
        runtime::fail({"RUN_BAD_OPERAND", "", "align", "the alignment state holds no value", "a state from pto.init_align, pto.vldas or a stream operation", "none", ""});
    return *s.align;
}

void set_align(Slot& s, const AlignState& state) { s.align = std::make_shared<const AlignState>(state); }

// Writes what a stream operation commits to UB.
void commit_bytes(Frame& f, pto::TileType memory, const vec::StreamCommit& c)
{
    if (c.count == 0) return;
    std::byte* at = on_chip_address(f, memory, c.address, c.count, "destination");
    std::memcpy(at, c.bytes.data(), std::size_t(c.count));
    vec::mark_stored(at, c.count);
}

// The pointer of slot `s` moved by `count` elements of `bytes` bytes, into slot `d`.
void advanced(Frame& f, const PointerInfo& p, int s, int d, int64_t count, int64_t bytes)
{
    Slot moved_slot = f.slots[std::size_t(s)];
    advance(p, moved_slot, count, bytes);
    f.slots[std::size_t(d)] = moved_slot;
}

constexpr const char* kElementUnits = "a gather or scatter addresses whole elements of the lane type";
constexpr const char* kBlockUnits = "block accesses address the unified buffer in 32-byte blocks";
using vec::kPredicateUnits;

}  // namespace

void Lowerer::lower_vector_memory(const Operation& op, const VectorForm& form, Body& body)
{
    std::vector<int> in, out;
    for (const Value* v : op.operands) in.push_back(slot(v));
    for (const auto& r : op.results) out.push_back(define(r.get()));
    auto add = [&](auto run) { body.steps.push_back({std::move(run), &op}); };
    const VectorOpDef& def = *form.def;
    const int lanes = form.lane_bytes;
    const int count = lanes ? vec::kRegisterBytes / lanes : 0;
    auto pointer_of = [&](std::size_t i) { return pointer_info(operand_type(op, i)); };
    if (!lanes && def.family != VectorFamily::PredicateLoad && def.family != VectorFamily::PredicateStore && def.family != VectorFamily::PredicateStream &&
        def.family != VectorFamily::AlignInit && def.family != VectorFamily::LoadPrime && def.family != VectorFamily::StreamFlush)
        fail(op, codes::kBadOperand, "a vector operation's register types must be stated", "!pto.vreg<NxT>", "none");

    switch (def.family) {
        case VectorFamily::PairLoad: {
            const VectorPointer p = vector_pointer(pointer_of(0));
            return add([=, dist = form.pair, ptr = in[0], offset = in[1], low = out[0], high = out[1]](Frame& f) {
                const std::byte* src = vector_address(f, p, f.slots[ptr], f.slots[offset].i, vec::kPairBytes, "source");
                vec::Register lo, hi;
                vec::load_pair(dist, lanes, src, lo, hi);
                writable_register(f.slots[low]) = lo;
                writable_register(f.slots[high]) = hi;
            });
        }
        case VectorFamily::PairStore: {
            const VectorPointer p = vector_pointer(pointer_of(2));
            return add([=, a = in[0], b = in[1], ptr = in[2], offset = in[3], mask = in[4]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                std::byte* dst = vector_address(f, p, f.slots[ptr], f.slots[offset].i, vec::kPairBytes, "destination");
                vec::store_pair(lanes, register_of(f.slots[a], "low"), register_of(f.slots[b], "high"), m, dst);
            });
        }
        case VectorFamily::StridedLoad: {
            const VectorPointer p = vector_pointer(pointer_of(0));
            return add([=, mode = form.stride, ptr = in[0], offset = in[1], d = out[0]](Frame& f) {
                const std::byte* src = vector_address(f, p, f.slots[ptr], f.slots[offset].i, vec::stride_footprint(mode), "source");
                vec::strided_load(mode, src, writable_register(f.slots[d]));
            });
        }
        case VectorFamily::StridedStore: {
            const VectorPointer p = vector_pointer(pointer_of(1));
            return add([=, mode = form.stride, value = in[0], ptr = in[1], offset = in[2]](Frame& f) {
                std::byte* dst = vector_address(f, p, f.slots[ptr], f.slots[offset].i, vec::stride_footprint(mode), "destination");
                vec::strided_store(mode, register_of(f.slots[value], "value"), dst);
            });
        }
        case VectorFamily::BlockLoad: case VectorFamily::BlockStore: {
            // A masked-off block of vsldb neither loads nor is checked (its page says so); vsstb's
            // page makes no such exception, so every block's address is checked and only active ones written.
            const bool store = def.family == VectorFamily::BlockStore;
            const std::size_t first = store ? 1 : 0;
            const PointerInfo p = pointer_of(first);
            return add([=, value = store ? in[0] : -1, ptr = in[first], control = in[first + 1], mask = in[first + 2], d = store ? -1 : out[0]](Frame& f) {
                const vec::Register& m = mask_of(f.slots[mask], lanes);
                const int64_t base = f.slots[ptr].i, stride = vec::block_stride_bytes(f.slots[control].i);
                const char* operand = store ? "destination" : "source";
                require_aligned(base, vec::kBlockBytes, operand, kBlockUnits);
                std::array<std::byte*, vec::kBlocks> blocks{};
                for (int j = 0; j < vec::kBlocks; ++j) {
                    const bool active = vec::block_active(m, j);
                    if (!active && !store) continue;
                    std::byte* at = on_chip_address(f, *p.memory, moved(base, j, stride), vec::kBlockBytes, operand);
                    if (active) blocks[std::size_t(j)] = at;
                }
                if (store) return vec::store_blocks(register_of(f.slots[value], "value"), blocks);
                std::array<const std::byte*, vec::kBlocks> from{};
                std::copy(blocks.begin(), blocks.end(), from.begin());
                vec::load_blocks(from, writable_register(f.slots[d]));
            });
        }
        case VectorFamily::Gather: case VectorFamily::Scatter: {
            // vgather2 / vscatter: the first `count` lanes; vgather2_bc: the mask's lanes (the others
            // are not checked, as its page says).
            const bool scatter = def.family == VectorFamily::Scatter, masked = def.masked;
            const std::size_t first = scatter ? 1 : 0;
            const PointerInfo p = pointer_of(first);
            return add([=, value = scatter ? in[0] : -1, ptr = in[first], offsets = in[first + 1], gate = in[first + 2], d = scatter ? -1 : out[0]](Frame& f) {
                const char* operand = scatter ? "destination" : "source";
                const int64_t base = f.slots[ptr].i;
                require_aligned(base, lanes, operand, kElementUnits);
                const vec::Register& index = register_of(f.slots[offsets], "offsets");
                const vec::Register* m = masked ? &mask_of(f.slots[gate], lanes) : nullptr;
                const int n = masked ? count : active_count(f.slots[gate], count, "lanes");
                std::array<std::byte*, vec::kRegisterBytes> at{};
                for (int i = 0; i < n; ++i) {
                    if (m && m->bytes[std::size_t(i * lanes)] == std::byte{0}) continue;
                    const uint64_t k = unsigned_lane(index, lanes, i);
                    const int64_t where = k > uint64_t(INT64_MAX) ? -1 : moved(base, int64_t(k), lanes);
                    at[std::size_t(i)] = on_chip_address(f, *p.memory, where, lanes, operand);
                }
                if (scatter) return vec::scatter_lanes(lanes, register_of(f.slots[value], "value"), at);
                std::array<const std::byte*, vec::kRegisterBytes> from{};
                std::copy(at.begin(), at.end(), from.begin());
                vec::gather_lanes(lanes, from, writable_register(f.slots[d]));
            });
        }
        case VectorFamily::BlockGather: {
            const PointerInfo p = pointer_of(0);
            const int offset_bytes = *vreg_lane_bytes(operand_type(op, 1));
            return add([=, ptr = in[0], offsets = in[1], gate = in[2], d = out[0]](Frame& f) {
                const int64_t base = f.slots[ptr].i;
                require_aligned(base, vec::kBlockBytes, "source", kBlockUnits);
                const vec::Register& index = register_of(f.slots[offsets], "offsets");
                const int n = active_count(f.slots[gate], vec::kBlocks, "blocks");
                std::array<const std::byte*, vec::kBlocks> blocks{};
                for (int j = 0; j < n; ++j) {
                    const uint64_t k = unsigned_lane(index, offset_bytes, j);
                    const int64_t off = k > uint64_t(INT64_MAX) ? -1 : int64_t(k);
                    require_aligned(off, vec::kBlockBytes, "offsets", kBlockUnits);
                    blocks[std::size_t(j)] = on_chip_address(f, *p.memory, moved(base, off, 1), vec::kBlockBytes, "source");
                }
                vec::load_blocks(blocks, writable_register(f.slots[d]));
            });
        }
        case VectorFamily::PredicateLoad: case VectorFamily::PredicateStore: {
            const bool store = def.family == VectorFamily::PredicateStore;
            const std::size_t first = store ? 1 : 0;
            const PointerInfo p = pointer_of(first);
            const int64_t bytes = vec::predicate_footprint(form.predicate_dist);
            // The offset in 8-byte units: a slot, or pto.pldi / pto.psti's integer literal (none: 0).
            const WrittenInput offset = def.unit == StreamUnit::None ? WrittenInput{} : op.written_inputs()[first + 1];
            return add([=, dist = form.predicate_dist, mask = store ? in[0] : -1, ptr = in[first], slot_at = offset.value ? slot(offset.value) : -1,
                        literal = offset.literal, d = store ? -1 : out[0]](Frame& f) {
                const char* operand = store ? "destination" : "source";
                const int64_t at = moved(f.slots[ptr].i, slot_at < 0 ? literal : f.slots[slot_at].i, 8);
                require_aligned(at, 8, operand, kPredicateUnits);
                std::byte* ub = on_chip_address(f, *p.memory, at, bytes, operand);
                if (store) vec::predicate_store(dist, any_mask_of(f.slots[mask], lanes), ub);
                else vec::predicate_load(dist, ub, lanes, writable_register(f.slots[d]));
            });
        }
        case VectorFamily::PredicateStream: {
            const PointerInfo p = pointer_of(2);
            return add([=, align = in[0], mask = in[1], ptr = in[2], align_out = out[0], ptr_out = out[1]](Frame& f) {
                const int64_t at = f.slots[ptr].i;
                on_chip_address(f, *p.memory, at, 32, "destination");
                std::array<std::byte, 32> image{};
                vec::predicate_store(vec::PredicateDist::NORM, any_mask_of(f.slots[mask], lanes), image.data());
                vec::StreamCommit c;
                const AlignState next = vec::stream_append(align_of(f.slots[align]), at, image.data(), 32, c);
                commit_bytes(f, *p.memory, c);
                set_align(f.slots[align_out], next);
                advanced(f, p, ptr, ptr_out, 32, 1);
            });
        }
        case VectorFamily::AlignInit:
            return add([d = out[0]](Frame& f) { set_align(f.slots[d], AlignState{}); });
        case VectorFamily::LoadPrime: {
            const PointerInfo p = pointer_of(0);
            return add([=, ptr = in[0], d = out[0]](Frame& f) {
                const AlignState s = vec::prime_load(f.slots[ptr].i);
                on_chip_address(f, *p.memory, s.position, vec::kBlockBytes, "source");
                set_align(f.slots[d], s);
            });
        }
        case VectorFamily::UnalignedLoad: {
            const PointerInfo p = pointer_of(0);
            return add([=, ptr = in[0], align = in[1], d = out[0], align_out = out[1], ptr_out = out.size() > 2 ? out[2] : -1](Frame& f) {
                const int64_t at = f.slots[ptr].i;
                vec::require_primed(align_of(f.slots[align]), at);
                const std::byte* src = on_chip_address(f, *p.memory, at, vec::kRegisterBytes, "source");
                vec::require_written(src, vec::kRegisterBytes, 0, 1);
                vec::Register& r = writable_register(f.slots[d]);
                std::memcpy(r.bytes.data(), src, vec::kRegisterBytes);
                r.lane_bytes = 0;
                r.all_active = false;
                set_align(f.slots[align_out], vec::prime_load(at + vec::kRegisterBytes));
                if (ptr_out >= 0) advanced(f, p, ptr, ptr_out, vec::kRegisterBytes, 1);
            });
        }
        case VectorFamily::UnalignedStore: {
            // vstu: the register at %ptr + %offset elements, the next offset after it; vstus: its first
            // %count elements (of the pointer's type) at %ptr; vstur: the register at %ptr. Form A
            // (pointer_state): the stream stands at %base, which the store advances; %dest, the buffer
            // it writes, must not lie after it.
            const StreamUnit unit = def.unit;
            const bool pointer_state = form.pointer_state;
            const bool offset_state = unit == StreamUnit::Elements && !pointer_state;  // vstu's index form
            const PointerInfo p = pointer_of(unit == StreamUnit::None ? 2 : 3);
            const int64_t element = p.element_bytes();
            const int value = unit == StreamUnit::None ? in[1] : in[2];
            const int amount = unit == StreamUnit::None || (pointer_state && unit == StreamUnit::Elements) ? -1 : pointer_state ? in[4] : in[1];
            return add([=, post = form.post_update, align = in[0], ptr = pointer_state ? in[1] : in.back(), dest = pointer_state ? in[3] : -1,
                        align_out = out[0], next = out.size() > 1 ? out[1] : -1](Frame& f) {
                int64_t at = f.slots[ptr].i, bytes = vec::kRegisterBytes;
                if (dest >= 0 && at < f.slots[dest].i)
                    runtime::fail({"RUN_POINTER_RANGE", "", "base", "the stream stands before the buffer it writes",
                                   "a position at or after %dest (byte " + std::to_string(f.slots[dest].i) + ")", "byte " + std::to_string(at), ""});
                if (offset_state) at = moved(at, f.slots[amount].i, element);
                if (unit == StreamUnit::Count) {
                    const int64_t n = f.slots[amount].i;
                    if (n < 0 || n * element > vec::kRegisterBytes)
                        runtime::fail({"RUN_STREAM_COUNT", "", "offset", "the count of elements to store is more than the register holds",
                                       "0 to " + std::to_string(vec::kRegisterBytes / element), std::to_string(n), ""});
                    bytes = n * element;
                }
                on_chip_address(f, *p.memory, at, bytes, "destination");
                vec::StreamCommit c;
                const AlignState state = vec::stream_append(align_of(f.slots[align]), at, register_of(f.slots[value], "value").bytes.data(), int(bytes), c);
                commit_bytes(f, *p.memory, c);
                set_align(f.slots[align_out], state);
                if (next < 0) return;
                if (offset_state) f.slots[next].i = f.slots[amount].i + (post ? vec::kRegisterBytes / element : 0);
                else advanced(f, p, ptr, next, post ? bytes : 0, 1);
            });
        }
        case VectorFamily::StreamFlush: {
            const PointerInfo p = pointer_of(1);
            const int64_t element = def.unit == StreamUnit::Elements ? p.element_bytes() : 1;
            return add([=, align = in[0], ptr = in[1], amount = def.unit == StreamUnit::None ? -1 : in[2]](Frame& f) {
                const int64_t at = amount < 0 ? f.slots[ptr].i : moved(f.slots[ptr].i, f.slots[amount].i, element);
                vec::StreamCommit c;
                vec::stream_flush(align_of(f.slots[align]), at, c);
                commit_bytes(f, *p.memory, c);
            });
        }
        default: return;
    }
}

}  // namespace pto::as::interp
