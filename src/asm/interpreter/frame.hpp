// The run-time state of one function activation: a flat array of value slots, addressed by the
// indices lowering assigned, plus the storage of the tiles the activation allocated.
#pragma once

#include <cstdint>
#include <array>
#include <memory>
#include <vector>

#include <pto/engine/descriptor.hpp>
#include <pto/engine/ops/vector.hpp>
#include <pto/engine/ops/vector_memory.hpp>

namespace pto::as::interp {

struct Step;

// One SSA value. Scalars use `i` (index and integers, sign-extended from their width; i1 is 0 or 1)
// or `f` (floats, already rounded to their type); tiles use `tile`; pointers and views use `view`;
// vector registers and masks use `reg`, alignment states `align`, shared between copies of the slot (block arguments, results)
// and written only through `writable_register`, so each copy keeps the value it was given.
// 256 bytes, so that a slot's address is its index shifted (a convolution tile's descriptor, rarely
// made, lives outside); the fields every vector step reads (`i`, `reg`) share its first cache line.
struct alignas(256) Slot {
    union {
        int64_t i;
        double f;
    };
    std::shared_ptr<engine::vector::Register> reg;
    std::shared_ptr<const engine::vector::AlignState> align;  // `!pto.align` values, never written in place
    std::shared_ptr<const engine::ConvTileDesc> conv;          // a `!pto.conv_tile_buf`
    engine::TileDesc tile;
    engine::GlobalDesc view;
    Slot() : i(0) {}
};
static_assert(sizeof(Slot) == 256);

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
};

}  // namespace pto::as::interp
