// The run-time synchronisation check (checked mode, every block of a launch, both front doors).
//
// The device runs each pipe of a core in order and the pipes concurrently; only flags, events and
// PIPE_ALL barriers order one pipe after another. ptosim runs everything in program order, so a missing
// flag changes nothing here and corrupts data there. This check follows, per core, which operations of
// every pipe each other pipe knows to have finished (vector clocks; a flag carries the setting pipe's
// knowledge to the waiting pipe), remembers for every byte the last reads and writes of each pipe, and
// reports with the static PTO-AS check's codes (src/asm/sync_order.hpp), at the same places:
//   ORDER_MISSING_SYNC      an access that conflicts with an earlier one of another pipe it does not know finished
//   ORDER_WAIT_WITHOUT_SET  a wait for a flag that is not set
//   ORDER_SET_TWICE         a set of a flag that is still set
//   ORDER_UNWAITED_SET      a flag still set when the block ends
//   ORDER_CROSS_CORE_RACE   two cores touching the same global bytes, one of them writing (no atomic add),
//                           with no cross-core synchronisation ordering the two accesses
// As the static check does, a block that issues no synchronisation at all is taken to be written for
// automatic synchronisation and is not judged: its findings wait for its first synchronisation operation
// and are dropped if none comes.
//
// The engine reports accesses through the shadow state (every read it checks and every write it marks,
// pto/runtime/memory.hpp) and global ones with note_global_access; they belong to the outermost
// instruction scope (runtime::InstructionScope) that names a tile instruction, whose pipe is its
// definition's (engine::instruction_pipe), or to the outermost micro-instruction (MicroInstruction),
// whose pipe is stated. Accesses outside one are not tracked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <pto/common/event.hpp>
#include <pto/common/type.hpp>
#include <pto/runtime/sync.hpp>

namespace pto::runtime::order {

// Where the text door's instructions come from: the interpreter names the executing operation, and
// later describes it as file:line:col. Without one (C++), an instruction is named by its number in the block.
struct SourceSites {
    const void* context = nullptr;
    const void* (*current)(const void* context) = nullptr;
    std::string (*describe)(const void* context, const void* site) = nullptr;
};

// While it lives, the calling thread's instructions are located through `sites`.
class SourceSiteScope {
public:
    explicit SourceSiteScope(const SourceSites* sites);
    ~SourceSiteScope();
    SourceSiteScope(const SourceSiteScope&) = delete;
    SourceSiteScope& operator=(const SourceSiteScope&) = delete;

private:
    const SourceSites* previous_;
};

class BlockChecker;

// What a core knows of the other cores of its launch: for each core, how many of its cross-core
// releases (a flag set, a pipe push or free, a barrier arrival) happened before. Sparse: a core hears
// of the few cores it exchanges with, unless a barrier joins them all.
class CoreClock {
public:
    uint32_t of(uint32_t core) const;
    void set(uint32_t core, uint32_t releases);
    // Takes the larger count of every core; whether anything grew.
    bool join(const CoreClock& other);

private:
    std::vector<std::pair<uint32_t, uint32_t>> entries_;  // (core, releases), by core
};

// The happens-before edges between cores, which the synchronisation objects keep under their
// launch's lock. release(): everything the calling core did so far happens before whatever acquires
// the returned clock (empty when the core is not checked). acquire(): the calling core has waited for
// the releases `clock` counts.
CoreClock release();
void acquire(const CoreClock& clock);

// The global bytes one core touched, for the cross-core check at the end of a launch.
struct GlobalFootprint {
    struct Span {
        uintptr_t begin, end;
        uint8_t kind;          // 0 read, 1 write, 2 atomic add
        uint32_t instruction;  // index into `instructions`
        uint32_t stamp;        // index into `stamps`: the core's clock when it touched them
    };
    std::vector<Span> spans;
    std::vector<std::string> instructions;  // how diagnostics name them
    std::vector<CoreClock> stamps;
    uint32_t core = 0;   // the core's index in its launch
    std::string name;    // "vector core 1 of block 0", "block 2"
};

// Checks the calling thread's block while it lives (checked mode only; otherwise it does nothing).
class BlockCheck {
public:
    BlockCheck();
    ~BlockCheck();
    BlockCheck(const BlockCheck&) = delete;
    BlockCheck& operator=(const BlockCheck&) = delete;

    // At the block's normal end: ORDER_UNWAITED_SET, or the block's global footprint.
    GlobalFootprint finish();

private:
    std::unique_ptr<BlockChecker> checker_;
    BlockChecker* previous_;
};

// ORDER_CROSS_CORE_RACE when two cores' footprints conflict with nothing ordering them (the lowest
// pair of cores is reported).
void check_cross_core(const std::vector<GlobalFootprint>& cores);

// The pipe a tracked instruction runs on, from the locations of its first source and its first
// destination tile (none: a global view, or no such operand); none for an instruction not tracked.
std::optional<std::size_t> tracked_pipe(std::string_view instruction, std::optional<TileType> src, std::optional<TileType> dst);

// Whether the calling thread's block is being checked (for hooks that must first compute what to note).
bool checking();

// Hooks. Each is one thread-local test when no block is being checked.
void instruction_begins(const char* name);
void instruction_ends();

// A micro-instruction (PTO-AS pto.v*, pto.mad*, pto.mte_*, the DMA copies, scalar loads and stores;
// the C++ vector forms) begins: tracked like a tile instruction, on the pipe it states; it ends with
// instruction_ends(). The bytes it reads or writes outside the core's on-chip memories are global
// ones (cross-core check). MicroInstruction: the same for a scope.
void instruction_begins(const char* name, pipe_t pipe);
class MicroInstruction {
public:
    MicroInstruction(const char* name, pipe_t pipe) { instruction_begins(name, pipe); }
    ~MicroInstruction() { instruction_ends(); }
    MicroInstruction(const MicroInstruction&) = delete;
    MicroInstruction& operator=(const MicroInstruction&) = delete;
};
void note_access(const void* p, std::size_t n, std::size_t pitch, std::size_t lines, bool write);
// A global access (never in the shadow state): `atomic` for an atomic add.
void note_global_access(const void* p, std::size_t n, std::size_t pitch, std::size_t lines, bool write, bool atomic = false);
void note_sync(const SyncRecord& record);

}  // namespace pto::runtime::order
