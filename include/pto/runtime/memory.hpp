// The simulated memories of a core (UB, L1, L0A, L0B, L0C, bias, fixpipe and scale buffers), sized
// by the active profile, plus automatic tile storage and the global allocations of the host runtime.
// Checked mode keeps, for every byte of every simulated memory, whether it has been written (one bit a byte).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include <pto/common/type.hpp>
#include <pto/profile/profile.hpp>

namespace pto::runtime {

// --- execution mode and target -------------------------------------------------------------------
namespace detail {
// The mode checked() answers: -1 until PTO_CHECK is read from the environment, then 0 or 1.
extern std::atomic<int> checked_mode;
bool checked_from_environment();
}  // namespace detail
// PTO_CHECK=1 in the environment, or set_checked(true). Inline: every vector instruction asks.
inline bool checked()
{
    const int mode = detail::checked_mode.load(std::memory_order_relaxed);
    return mode < 0 ? detail::checked_from_environment() : mode == 1;
}
void set_checked(bool on);
profile::Target active_target();  // from the kernels' PTO_TARGET, or set_target() (the CLI)
void set_target(profile::Target t);
// Called by every kernel translation unit at static initialisation (see pto/profile/target.hpp).
bool register_compiled_target(profile::Target target, const char* translation_unit);
const profile::Profile& active_profile();

// --- cores ---------------------------------------------------------------------------------------
// Each block of a launch (pto/runtime/launch.hpp) runs on its own simulated core with its own on-chip
// memories.
uint32_t block_idx();
uint32_t block_num();
uint32_t subblock_idx();
uint32_t subblock_num();
// Makes the calling thread run as `block`, sub-block `subblock` of `subblocks` (what a harness that
// drives its own threads sets); get_block_idx(), get_subblockid() and get_subblockdim() answer with it.
void set_execution_context(uint32_t block, uint32_t subblock, uint32_t subblocks);

// Runs write(ub, size) on the UB of vector sub-block `sub` of the calling core's block: the cube core's
// fixpipe writeback into a vector core's UB (pto.mte_l0c_ub). On the cube core of a mixed launch that is
// the UB of the block's vector core `sub` (0 or 1), waited for until that core has begun, and held for
// it (not made fresh for another core) until write returns; if that core has already ended, the write
// could reach no reader: ORDER_SUB_BLOCK_ENDED. A unified core has one UB, its own, which is
// sub-block 0's (RUN_FIXPIPE_SUB_BLOCK for 1); a vector core has no fixpipe (RUN_FIXPIPE_CORE_KIND).
void write_sub_block_ub(uint32_t sub, const std::function<void(std::byte* ub, uint64_t size)>& write);

// The sub-block a harness's hook reports (cpu_sim::register_hooks): while set, subblock_idx() asks it.
void set_subblock_hook(uint32_t (*hook)());
// A 64-bit value per thread that the harness sets and kernels read (get_task_cookie); ptosim's
// instructions do not read it.
void set_task_cookie(uint64_t cookie);
uint64_t task_cookie();

// --- run-time architecture selection (pto::NPUMemoryModel) ------------------------------------------
// Selects, for the calling thread, the target whose capacities its core memories have (fresh ones)
// and whose rules the run-time checks apply. Under the cpu profile any target may be selected; under
// a2a3 or a5 only the compiled one: another is RUN_TARGET_MISMATCH.
void select_thread_target(profile::Target t);
// The calling thread's selection (a block of a launch has its launching thread's), if it made one.
std::optional<profile::Target> selected_thread_target();
// Drops the calling thread's selection: it runs on the default target again, with fresh memories.
void reset_thread_target();
// The target of every thread that made no selection of its own (NPUMemoryModel::SetDefaultArch; none:
// the compiled profile), under the same rule; those threads get fresh memories.
void select_default_target(std::optional<profile::Target> t);
// Names the calling thread's current core as it is now: another core, or the same one made fresh again
// (a new block on it), answers with another number. State kept outside the runtime per thread (the
// configuration registers of NPUMemoryModel) starts over when it changes.
uint64_t core_epoch();
// The calling thread's current core memory of `loc` (nullptr if the profile has none) and its size.
std::byte* memory_base(TileType loc);
uint64_t memory_size(TileType loc);
// Makes every memory of the calling thread's current core fresh again (zero; poisoned and never
// written in checked mode).
void clear_memories();

// --- tile addresses ------------------------------------------------------------------------------
// Address of a tile at `offset` in the on-chip memory of `loc`, whose first `bytes` bytes (the span
// of its valid region) must lie in that memory: else RUN_TASSIGN_RANGE, never a wild write. Bytes of
// the capacity past the memory's end are the concern of the instruction that would touch them
// (RUN_TILE_RANGE). Alignment is checked in checked mode. An `offset` that is the host address of a
// byte of that memory (a pointer a tile's data() returned) binds the tile there, as an alias.
std::byte* tile_address(TileType loc, uint64_t offset, uint64_t bytes);
// Bytes from p to the end of the simulated on-chip memory (or automatic tile storage) holding p;
// -1 if p lies in none.
int64_t memory_bytes_after(const void* p);
// RUN_TILE_RANGE, naming the executing instruction, when the first `bytes` bytes of a tile operand
// at `data` (`what` names them: "its capacity", "its valid region") run past the end of its memory.
void require_tile_bytes(const void* data, int64_t bytes, const char* what, const char* operand = "tile");

// Storage for a tile that was never TASSIGNed: owned by the tile (shared between its copies).
std::shared_ptr<std::byte> allocate_auto(TileType loc, uint64_t bytes);

// --- checked-mode shadow state -------------------------------------------------------------------
// Marks [p, p+n) as written. No-op in fast mode and for memory the runtime does not own.
void mark_written(const void* p, std::size_t n);
// Offset of the first never-written byte in [p, p+n), or -1 if every byte was written (or unknown).
int64_t first_unwritten(const void* p, std::size_t n);

// The shadow state of the runtime memory holding [p, p+n), looked up once so that the many queries
// and marks of one instruction inside that span skip the lookup; those outside it look their memory up.
// Answers as the free functions above. Valid while that memory lives (an instruction's duration).
class ShadowView {
public:
    ShadowView(const void* p, std::size_t n);

    void mark_written(const void* p, std::size_t n) const;
    int64_t first_unwritten(const void* p, std::size_t n) const;
    // The same over `lines` ranges of n bytes, `pitch` bytes apart from p on (offsets are from p).
    void mark_written(const void* p, std::size_t n, std::size_t pitch, std::size_t lines) const;
    int64_t first_unwritten(const void* p, std::size_t n, std::size_t pitch, std::size_t lines) const;

private:
    // Offset of p in the view's memory when [p, p+n) lies inside it.
    std::optional<std::size_t> offset_of(const void* p, std::size_t n) const;

    const std::byte* base_ = nullptr;
    std::size_t size_ = 0;
    std::atomic<uint64_t>* written_ = nullptr;  // bit i of word w: byte 64 w + i written; null: untracked
};

// --- global memory -------------------------------------------------------------------------------
// Host-runtime allocations (aclrtMalloc, the CLI's arrays) are registered so that global accesses
// can be checked against their extent.
void register_global(const void* base, std::size_t bytes, const char* name);
void unregister_global(const void* base);
// Bytes available from p to the end of the registered allocation containing p; -1 if p is not in one.
int64_t global_bytes_after(const void* p);

}  // namespace pto::runtime
