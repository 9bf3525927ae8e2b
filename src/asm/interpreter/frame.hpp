// The run-time state of one function activation: a flat array of value slots, addressed by the
// indices lowering assigned, plus the storage of the tiles the activation allocated.
#pragma once

#include <cstdint>
#include <array>
#include <memory>
#include <type_traits>
#include <vector>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/vector.hpp>
#include <pto/engine/ops/vector_memory.hpp>

namespace pto::as::interp {

struct Step;

// One SSA value. Scalars use `i` (index and integers, sign-extended from their width; i1 is 0 or 1)
// or `f` (floats, already rounded to their type); tiles use `tile`; pointers and views use `view`;
// vector registers and masks use `reg`, held in the slot itself (`holds_register` once written), so
// that a vector step reaches its register with no pointer to follow and every copy of the slot (block
// arguments, results) is a copy of the value; alignment states use `align`.
struct alignas(64) Slot {
    union {
        engine::vector::Register reg;  // uninitialised (`no_register`) until first written (writable_register)
        std::byte no_register;
    };
    union {
        int64_t i;
        double f;
    };
    bool holds_register = false;
    std::shared_ptr<const engine::vector::AlignState> align;  // `!pto.align` values, never written in place
    std::shared_ptr<const engine::ConvTileDesc> conv;          // a `!pto.conv_tile_buf`
    engine::TileDesc tile;
    engine::GlobalDesc view;
    Slot() : no_register{}, i(0) {}
};
static_assert(std::is_trivially_copyable_v<engine::vector::Register>);

// Where one on-chip memory of the running core lies; looked up once per frame (the core does not change
// while a function runs), so that an access checked on every vector instruction costs no lookup.
struct MemoryWindow {
    std::byte* base = nullptr;
    uint64_t size = 0;
    bool known = false;
};

struct Frame {
    std::vector<Slot> slots;
    std::array<MemoryWindow, 10> memories{};  // by pto::TileType
    // Storage of each allocation site of the function, made on its first execution and reused by
    // later ones (a site's tile type is static, so its size never changes).
    std::vector<std::shared_ptr<std::byte>> storage;
    std::vector<Slot> results;  // filled by func.return
    const Step* current = nullptr;  // the step executing, for the location of run-time diagnostics
    // Fast mode in program order, which neither a program nor its steps change while it runs: no step
    // runs under the synchronisation check and no work is held back, so run_body skips both per step.
    bool plain_order = false;
};

}  // namespace pto::as::interp
