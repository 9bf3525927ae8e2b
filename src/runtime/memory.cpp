// Simulated cores (memories and configuration registers), checked-mode shadow state, automatic tile
// storage and global allocations.
#include <pto/runtime/memory.hpp>

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/registers.hpp>
#include <pto/runtime/vector_status.hpp>

#include "runtime/adversarial_schedule.hpp"
#include "runtime/block_scope.hpp"
#include "runtime/memory_regions.hpp"
#include "runtime/order_checker.hpp"
#include "runtime/sub_block_ub.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <string>

namespace pto::runtime {

namespace {

// Checked mode fills fresh memory with this byte: every float type reads it as NaN.
constexpr std::byte kPoison{0xFF};

struct Region {
    std::byte* base = nullptr;
    std::size_t size = 0;
    // One bit per byte, set once written and never cleared; null in fast mode. Atomic words, so that
    // threads marking neighbouring bytes of one word do not lose each other's marks.
    std::unique_ptr<std::atomic<uint64_t>[]> written;
    std::string name;
    std::optional<TileType> loc;  // the kind of memory it is
};

// Every region the runtime owns, by base address, so that a pointer finds its shadow state.
struct RegionRegistry {
    std::mutex mutex;
    std::map<uintptr_t, Region*> by_base;

    void add(Region* r)
    {
        std::lock_guard lock(mutex);
        by_base[reinterpret_cast<uintptr_t>(r->base)] = r;
    }
    void remove(Region* r)
    {
        std::lock_guard lock(mutex);
        by_base.erase(reinterpret_cast<uintptr_t>(r->base));
    }
    // The region containing [p, p+n), or null.
    Region* find(const void* p, std::size_t n)
    {
        std::lock_guard lock(mutex);
        const auto addr = reinterpret_cast<uintptr_t>(p);
        auto it = by_base.upper_bound(addr);
        if (it == by_base.begin()) return nullptr;
        --it;
        Region* r = it->second;
        return addr + n <= it->first + r->size ? r : nullptr;
    }
};

// Never destroyed: regions owned by static objects (the default core) unregister during exit.
RegionRegistry& regions()
{
    static auto* registry = new RegionRegistry;
    return *registry;
}

// Fresh content: zero in fast mode; poisoned and never written in checked mode.
void make_fresh(Region& r)
{
    if (checked()) {
        std::memset(r.base, static_cast<int>(kPoison), r.size);
        r.written = std::make_unique<std::atomic<uint64_t>[]>((r.size + 63) / 64);
    } else {
        std::memset(r.base, 0, r.size);
        r.written.reset();
    }
}

std::unique_ptr<Region> make_region(std::size_t size, std::string name, TileType loc)
{
    auto r = std::make_unique<Region>();
    r->size = size;
    r->name = std::move(name);
    r->loc = loc;
    // Over-allocate so the base is 4 KiB aligned: tile alignment rules then hold on host addresses too.
    constexpr std::size_t kAlign = 4096;
    r->base = static_cast<std::byte*>(std::aligned_alloc(kAlign, (std::max<std::size_t>(size, 1) + kAlign - 1) / kAlign * kAlign));
    make_fresh(*r);
    regions().add(r.get());
    return r;
}

void destroy_region(Region* r)
{
    regions().remove(r);
    std::free(r->base);
    delete r;
}

struct RegionDeleter {
    void operator()(Region* r) const { destroy_region(r); }
};
using RegionPtr = std::unique_ptr<Region, RegionDeleter>;

}  // namespace

struct Core {
    std::array<RegionPtr, profile::kMemoryCount> memory;
    CoreRegisters registers;
    profile::Target target;  // whose capacities the memories have
    uint64_t vms4_status = 0;  // VMS4_SR (vector_status.hpp)
    uint64_t epoch = next_epoch();  // core_epoch()

    static uint64_t next_epoch()
    {
        static std::atomic<uint64_t> epochs{0};
        return epochs.fetch_add(1, std::memory_order_relaxed) + 1;
    }
};

namespace {

Core make_core()
{
    Core core;
    core.target = active_target();
    const auto& prof = profile::profile_of(core.target);
    for (int i = 0; i < profile::kMemoryCount; ++i) {
        const auto loc = static_cast<TileType>(i);
        const uint64_t cap = profile::capacity_of(prof, loc);
        core.memory[i] = RegionPtr(make_region(cap, std::string(profile::memory_name(loc)), loc).release());
    }
    return core;
}

// --- global state --------------------------------------------------------------------------------
// Constant-initialised, so that registrations during static initialisation find it ready.
constinit int g_compiled_target = -1;          // first target a translation unit registered
constinit const char* g_compiled_tu = nullptr;
constinit const char* g_mismatch_tu = nullptr;  // a later translation unit that disagreed
constinit int g_mismatch_target = -1;
constinit int g_override_target = -1;           // set_target()
constinit int g_default_target = -1;            // select_default_target()
std::atomic<uint32_t (*)()> g_subblock_hook{nullptr};

std::mutex g_core_mutex;
std::unique_ptr<Core> g_default_core;
thread_local Core* t_core = nullptr;             // the core of the block a launch runs
thread_local int t_selected_target = -1;         // select_thread_target()
thread_local std::unique_ptr<Core> t_selected_core;
thread_local uint32_t t_block_idx = 0;
thread_local uint32_t t_block_num = 1;
thread_local uint32_t t_subblock_idx = 0;
thread_local uint32_t t_subblock_num = 1;
thread_local uint64_t t_task_cookie = 0;
thread_local CoreKind t_core_kind = CoreKind::Unified;
// The cores of ended blocks, kept for the next ones whatever thread runs them: making a core fresh
// again costs a clear of its memories, a new one also the allocation and the first touch of every
// page. A few are kept (a launch's threads, and the cores its waiting cores lend their turns to).
constexpr std::size_t kSpareCores = 16;
std::mutex g_spare_mutex;
std::vector<std::unique_ptr<Core>>& spare_cores()
{
    static auto* cores = new std::vector<std::unique_ptr<Core>>();  // never destroyed: threads may outlive main
    return *cores;
}

std::unique_ptr<Core> take_spare_core(profile::Target target)
{
    std::lock_guard lock(g_spare_mutex);
    auto& cores = spare_cores();
    for (auto it = cores.rbegin(); it != cores.rend(); ++it) {
        if ((*it)->target != target) continue;
        std::unique_ptr<Core> core = std::move(*it);
        cores.erase(std::next(it).base());
        return core;
    }
    return nullptr;
}

void keep_spare_core(std::unique_ptr<Core> core)
{
    std::lock_guard lock(g_spare_mutex);
    if (spare_cores().size() < kSpareCores) spare_cores().push_back(std::move(core));
}

Core& current_core()
{
    if (t_core) return *t_core;
    if (t_selected_core) return *t_selected_core;
    std::lock_guard lock(g_core_mutex);
    if (!g_default_core) g_default_core = std::make_unique<Core>(make_core());
    return *g_default_core;
}

void reset_default_core()
{
    std::lock_guard lock(g_core_mutex);
    g_default_core.reset();
}

std::string hex(uint64_t v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

// --- mode and target -----------------------------------------------------------------------------

constinit std::atomic<int> detail::checked_mode{-1};

bool detail::checked_from_environment()
{
    // The blocks of a launch may ask first at once: they read the same environment.
    const char* env = std::getenv("PTO_CHECK");
    const int mode = (env && env[0] && std::string(env) != "0") ? 1 : 0;
    checked_mode.store(mode, std::memory_order_relaxed);
    return mode == 1;
}

void set_checked(bool on)
{
    if (detail::checked_mode.load(std::memory_order_relaxed) == int(on)) return;
    detail::checked_mode.store(on ? 1 : 0, std::memory_order_relaxed);
    reset_default_core();  // fresh memories with (or without) shadow state
}

bool register_compiled_target(profile::Target target, const char* translation_unit)
{
    const int t = static_cast<int>(target);
    if (g_compiled_target < 0) {
        g_compiled_target = t;
        g_compiled_tu = translation_unit;
    } else if (g_compiled_target != t && !g_mismatch_tu) {
        g_mismatch_tu = translation_unit;
        g_mismatch_target = t;
    }
    return true;
}

profile::Target active_target()
{
    if (g_mismatch_tu) {
        const auto first = profile::profile_of(static_cast<profile::Target>(g_compiled_target)).name;
        const auto other = profile::profile_of(static_cast<profile::Target>(g_mismatch_target)).name;
        fail({"RUN_TARGET_MISMATCH", "", "",
              std::string("translation units of one program were compiled for different targets (") + g_compiled_tu +
                  " and " + g_mismatch_tu + "); compile every kernel file with the same -DPTO_TARGET",
              std::string(first), std::string(other), ""});
    }
    if (t_selected_target >= 0) return static_cast<profile::Target>(t_selected_target);
    if (g_default_target >= 0) return static_cast<profile::Target>(g_default_target);
    if (g_override_target >= 0) return static_cast<profile::Target>(g_override_target);
    if (g_compiled_target >= 0) return static_cast<profile::Target>(g_compiled_target);
    return profile::Target::Cpu;
}

namespace {

// RUN_TARGET_MISMATCH unless the kernels' profile (cpu) lets the run select `t`.
void require_selectable(profile::Target t)
{
    const int compiled = g_override_target >= 0 ? g_override_target : g_compiled_target;
    if (compiled >= 0 && compiled != static_cast<int>(profile::Target::Cpu) && compiled != static_cast<int>(t)) {
        const auto kernels = profile::profile_of(static_cast<profile::Target>(compiled)).name;
        fail({"RUN_TARGET_MISMATCH", "", "",
              "the run selected an architecture its kernels were not compiled for; only the cpu profile takes "
              "any",
              std::string(kernels), std::string(profile::profile_of(t).name), ""});
    }
}

}  // namespace

void select_thread_target(profile::Target t)
{
    require_selectable(t);
    t_selected_target = static_cast<int>(t);
    t_selected_core = std::make_unique<Core>(make_core());
}

std::optional<profile::Target> selected_thread_target()
{
    if (t_selected_target < 0) return std::nullopt;
    return static_cast<profile::Target>(t_selected_target);
}

void reset_thread_target()
{
    t_selected_target = -1;
    t_selected_core.reset();
}

void select_default_target(std::optional<profile::Target> t)
{
    if (t) require_selectable(*t);
    g_default_target = t ? static_cast<int>(*t) : -1;
    reset_default_core();
}

void set_target(profile::Target t)
{
    if (g_override_target == static_cast<int>(t)) return;
    g_override_target = static_cast<int>(t);
    reset_default_core();
}

const profile::Profile& active_profile() { return profile::profile_of(active_target()); }

// --- cores ---------------------------------------------------------------------------------------

uint32_t block_idx() { return t_block_idx; }
uint32_t block_num() { return t_block_num; }
uint32_t subblock_idx()
{
    const auto hook = g_subblock_hook.load(std::memory_order_acquire);
    // A vector core of a mixed launch is its own sub-block, whatever a harness's hook says.
    return hook && t_core_kind != CoreKind::Vector ? hook() : t_subblock_idx;
}
uint32_t subblock_num() { return t_subblock_num; }

void set_execution_context(uint32_t block, uint32_t subblock, uint32_t subblocks)
{
    t_block_idx = block;
    t_subblock_idx = subblock;
    t_subblock_num = std::max<uint32_t>(subblocks, 1);
}

void set_subblock_hook(uint32_t (*hook)()) { g_subblock_hook.store(hook, std::memory_order_release); }
void set_task_cookie(uint64_t cookie) { t_task_cookie = cookie; }
uint64_t task_cookie() { return t_task_cookie; }

LaunchOrigin launch_origin() { return {t_selected_target, t_subblock_idx, t_subblock_num, t_task_cookie}; }

bool inside_block() { return t_core != nullptr; }

CoreKind core_kind() { return t_core_kind; }

BlockScope::BlockScope(const LaunchOrigin& origin, const CoreSpec& spec, uint32_t blocks)
    : outer_core_(t_core),
      outer_(launch_origin()),
      outer_block_(t_block_idx),
      outer_blocks_(t_block_num),
      outer_kind_(t_core_kind)
{
    t_selected_target = origin.selected_target;  // before the core is made: it has that target's capacities
    t_subblock_idx = spec.subblock;
    t_subblock_num = spec.subblocks;
    t_task_cookie = origin.task_cookie;
    t_core_kind = spec.kind;
    try {
        if ((core_ = take_spare_core(active_target()))) {
            for (auto& region : core_->memory) make_fresh(*region);
            core_->registers = {};
            core_->vms4_status = 0;
            core_->epoch = Core::next_epoch();
        } else {
            core_ = std::make_unique<Core>(make_core());
        }
    } catch (...) {
        restore();
        throw;
    }
    t_core = core_.get();
    t_block_idx = spec.block;
    t_block_num = blocks;
    // The block's cube core may write this UB from now on (pto.mte_l0c_ub).
    if (spec.kind == CoreKind::Vector) publish_vector_ub(memory_base(TileType::Vec), memory_size(TileType::Vec));
}

BlockScope::~BlockScope()
{
    if (t_core_kind == CoreKind::Vector) withdraw_vector_ub(std::uncaught_exceptions() > 0);
    restore();
    keep_spare_core(std::move(core_));
}

void BlockScope::restore()
{
    t_core = outer_core_;
    t_selected_target = outer_.selected_target;
    t_subblock_idx = outer_.subblock_idx;
    t_subblock_num = outer_.subblock_num;
    t_task_cookie = outer_.task_cookie;
    t_block_idx = outer_block_;
    t_block_num = outer_blocks_;
    t_core_kind = outer_kind_;
}

// --- the current core's registers and memories ---------------------------------------------------

CoreRegisters& core_registers() { return current_core().registers; }

uint64_t& vms4_status() { return current_core().vms4_status; }

std::byte* memory_base(TileType loc)
{
    if (loc == TileType::Ctrl || profile::capacity_of(active_profile(), loc) == 0) return nullptr;
    return current_core().memory[static_cast<int>(loc)]->base;
}

uint64_t memory_size(TileType loc)
{
    return loc == TileType::Ctrl ? 0 : current_core().memory[static_cast<int>(loc)]->size;
}

void clear_memories()
{
    for (auto& region : current_core().memory) make_fresh(*region);
}

uint64_t core_epoch() { return current_core().epoch; }

// --- tile addresses ------------------------------------------------------------------------------

std::byte* tile_address(TileType loc, uint64_t offset, uint64_t bytes)
{
    const auto& prof = active_profile();
    const uint64_t cap = profile::capacity_of(prof, loc);
    const std::string mem(profile::memory_name(loc));
    if (loc == TileType::Ctrl || cap == 0) {
        fail({"RUN_TASSIGN_LOCATION", "TASSIGN", "tile",
              "the " + std::string(prof.name) + " profile has no " + mem + " memory", "a location with capacity",
              mem, ""});
    }
    const auto base = reinterpret_cast<uintptr_t>(current_core().memory[static_cast<int>(loc)]->base);
    if (offset >= base && offset - base < cap) offset -= base;  // a host address inside the memory
    if (offset > cap || bytes > cap - offset) {
        fail({"RUN_TASSIGN_RANGE", "TASSIGN", "tile",
              "tile spanning " + std::to_string(bytes) + " bytes at offset " + hex(offset) + " ends past the end of " + mem +
                  " (" + std::to_string(cap) + " bytes on " + std::string(prof.name) + ")",
              "offset + size <= " + std::to_string(cap), std::to_string(offset + bytes), ""});
    }
    if (checked() && offset % prof.tile_alignment != 0) {
        fail({"RUN_TASSIGN_ALIGN", "TASSIGN", "tile",
              "tile address " + hex(offset) + " in " + mem + " is not aligned",
              "a multiple of " + std::to_string(prof.tile_alignment), hex(offset), ""});
    }
    return current_core().memory[static_cast<int>(loc)]->base + offset;
}

int64_t memory_bytes_after(const void* p)
{
    const Region* r = regions().find(p, 1);
    if (!r) return -1;
    return static_cast<int64_t>(r->size) - (static_cast<const std::byte*>(p) - r->base);
}

void require_tile_bytes(const void* data, int64_t bytes, const char* what, const char* operand)
{
    const Region* r = regions().find(data, 1);
    if (!r) return;
    const auto offset = static_cast<uint64_t>(static_cast<const std::byte*>(data) - r->base);
    if (bytes <= static_cast<int64_t>(r->size - offset)) return;
    fail({"RUN_TILE_RANGE", current_instruction() ? current_instruction() : "", operand,
          std::string(what) + " (" + std::to_string(bytes) + " bytes from offset " + hex(offset) +
              ") runs past the end of " + r->name + " (" + std::to_string(r->size) + " bytes)",
          "offset + bytes <= " + std::to_string(r->size), std::to_string(offset + static_cast<uint64_t>(bytes)), ""});
}

std::shared_ptr<std::byte> allocate_auto(TileType loc, uint64_t bytes)
{
    Region* r = make_region(bytes, "auto " + std::string(profile::memory_name(loc)) + " tile", loc).release();
    // Freed once no held-back instruction of the adversarial schedule can still use it.
    return std::shared_ptr<std::byte>(r->base, [r](std::byte*) { adversary::after_held_back_work([r] { destroy_region(r); }); });
}

// --- shadow state --------------------------------------------------------------------------------

namespace {

constexpr uint64_t kAllBits = ~uint64_t{0};

// Bits [b % 64, 64) of a word: those of the word of bit b from b on.
constexpr uint64_t bits_from(std::size_t b) { return kAllBits << (b % 64); }
// Bits [0, e - 64 * ((e - 1) / 64)) of a word: those of the word of bit e - 1 up to it.
constexpr uint64_t bits_before(std::size_t e) { return kAllBits >> (63 - (e - 1) % 64); }

// Sets the bits of `mask` in `word`. Most marks repeat earlier ones (a kernel rewrites its tiles),
// and the plain load spares them the locked read-modify-write.
void set_bits(std::atomic<uint64_t>& word, uint64_t mask)
{
    if ((word.load(std::memory_order_relaxed) & mask) != mask) word.fetch_or(mask, std::memory_order_relaxed);
}

// Sets bits [begin, end) (begin < end). Whole words are stored: bits are only ever set, so a
// concurrent fetch_or on the same word cannot be lost.
void set_bits(std::atomic<uint64_t>* words, std::size_t begin, std::size_t end)
{
    std::size_t w = begin / 64;
    const std::size_t last = (end - 1) / 64;
    if (w == last) return set_bits(words[w], bits_from(begin) & bits_before(end));
    set_bits(words[w], bits_from(begin));
    for (++w; w < last; ++w) words[w].store(kAllBits, std::memory_order_relaxed);
    set_bits(words[last], bits_before(end));
}

// Index of the first clear bit in [begin, end) (begin < end), or -1.
int64_t first_clear_bit(const std::atomic<uint64_t>* words, std::size_t begin, std::size_t end)
{
    std::size_t w = begin / 64;
    const std::size_t last = (end - 1) / 64;
    uint64_t clear = ~words[w].load(std::memory_order_relaxed) & bits_from(begin);
    for (; w < last; clear = ~words[++w].load(std::memory_order_relaxed)) {
        if (clear) return static_cast<int64_t>(w * 64 + std::countr_zero(clear));
    }
    clear &= bits_before(end);
    return clear ? static_cast<int64_t>(w * 64 + std::countr_zero(clear)) : -1;
}

}  // namespace

ShadowView::ShadowView(const void* p, std::size_t n)
{
    if (!checked()) return;
    if (const Region* r = regions().find(p, n); r && r->written) {
        base_ = r->base;
        size_ = r->size;
        written_ = r->written.get();
    }
}

std::optional<std::size_t> ShadowView::offset_of(const void* p, std::size_t n) const
{
    const auto* b = static_cast<const std::byte*>(p);
    if (!written_ || b < base_ || n > size_ || static_cast<std::size_t>(b - base_) > size_ - n) return std::nullopt;
    return static_cast<std::size_t>(b - base_);
}

void ShadowView::mark_written(const void* p, std::size_t n) const { mark_written(p, n, n, 1); }

int64_t ShadowView::first_unwritten(const void* p, std::size_t n) const { return first_unwritten(p, n, n, 1); }

void ShadowView::mark_written(const void* p, std::size_t n, std::size_t pitch, std::size_t lines) const
{
    if (n == 0 || lines == 0) return;
    order::note_access(p, n, pitch, lines, true);
    const auto* first = static_cast<const std::byte*>(p);
    const std::optional<std::size_t> at = offset_of(first, (lines - 1) * pitch + n);
    for (std::size_t i = 0; i < lines; ++i) {
        const std::byte* line = first + i * pitch;
        if (at) {
            const std::size_t begin = *at + i * pitch;
            set_bits(written_, begin, begin + n);
        } else if (const ShadowView own(line, n); own.offset_of(line, n)) {  // outside the view: its own memory
            own.mark_written(line, n);
        }
    }
}

int64_t ShadowView::first_unwritten(const void* p, std::size_t n, std::size_t pitch, std::size_t lines) const
{
    if (n == 0 || lines == 0) return -1;
    order::note_access(p, n, pitch, lines, false);
    const auto* first = static_cast<const std::byte*>(p);
    const std::optional<std::size_t> at = offset_of(first, (lines - 1) * pitch + n);
    for (std::size_t i = 0; i < lines; ++i) {
        const std::byte* line = first + i * pitch;
        int64_t in_line = -1;
        if (at) {
            const std::size_t begin = *at + i * pitch;
            const int64_t bit = first_clear_bit(written_, begin, begin + n);
            in_line = bit < 0 ? -1 : bit - static_cast<int64_t>(begin);
        } else if (const ShadowView own(line, n); own.offset_of(line, n)) {  // outside the view: its own memory
            in_line = own.first_unwritten(line, n);
        }
        if (in_line >= 0) return static_cast<int64_t>(i * pitch) + in_line;
    }
    return -1;
}

void mark_written(const void* p, std::size_t n) { ShadowView(p, n).mark_written(p, n); }

int64_t first_unwritten(const void* p, std::size_t n) { return ShadowView(p, n).first_unwritten(p, n); }

std::optional<TileType> memory_location(const void* p)
{
    const Region* r = regions().find(p, 1);
    return r ? r->loc : std::nullopt;
}

// --- global memory -------------------------------------------------------------------------------

namespace {
struct GlobalAllocation {
    std::size_t bytes;
    std::string name;
};
std::mutex g_global_mutex;
// Never destroyed, for the same reason as the region registry.
std::map<uintptr_t, GlobalAllocation>& global_allocations()
{
    static auto* m = new std::map<uintptr_t, GlobalAllocation>;
    return *m;
}
}  // namespace

void register_global(const void* base, std::size_t bytes, const char* name)
{
    std::lock_guard lock(g_global_mutex);
    global_allocations()[reinterpret_cast<uintptr_t>(base)] = {bytes, name ? name : "global"};
}

void unregister_global(const void* base)
{
    std::lock_guard lock(g_global_mutex);
    global_allocations().erase(reinterpret_cast<uintptr_t>(base));
}

int64_t global_bytes_after(const void* p)
{
    std::lock_guard lock(g_global_mutex);
    const auto addr = reinterpret_cast<uintptr_t>(p);
    auto& m = global_allocations();
    auto it = m.upper_bound(addr);
    if (it == m.begin()) return -1;
    --it;
    if (addr >= it->first + it->second.bytes) return -1;
    return static_cast<int64_t>(it->first + it->second.bytes - addr);
}

std::string describe_bytes(const void* p, std::size_t n)
{
    const auto addr = reinterpret_cast<uintptr_t>(p);
    const auto range = [&](uintptr_t base) { return hex(addr - base) + ".." + hex(addr - base + std::max<std::size_t>(n, 1) - 1); };
    if (const Region* r = regions().find(p, 1)) return r->name + " bytes " + range(reinterpret_cast<uintptr_t>(r->base));
    std::lock_guard lock(g_global_mutex);
    auto& m = global_allocations();
    if (auto it = m.upper_bound(addr); it != m.begin() && addr < (--it)->first + it->second.bytes)
        return "global memory " + it->second.name + " bytes " + range(it->first);
    return "global bytes " + range(0);
}

}  // namespace pto::runtime
