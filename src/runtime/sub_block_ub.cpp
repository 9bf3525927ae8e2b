// The cube core's writes into its block's vector UBs (pto.mte_l0c_ub). The device's cube reaches the
// vector cores' UBs through its own data path; here the vector core's simulated UB is written in place,
// under the launch's cross-core lock, so that the core cannot end and have its memories made fresh for
// another meanwhile. The bytes are marked written in that UB's shadow state like any other write.
#include "runtime/sub_block_ub.hpp"

#include <pto/runtime/diagnostic.hpp>
#include <pto/runtime/launch.hpp>
#include <pto/runtime/memory.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "runtime/scheduler.hpp"

namespace pto::runtime {

namespace {

// The launch's vector cores that have begun: the UB of each one running, by core index.
struct VectorUbs {
    std::map<uint32_t, std::pair<std::byte*, uint64_t>> running;
    std::set<uint32_t> ended;
};

}  // namespace

void publish_vector_ub(std::byte* ub, uint64_t size)
{
    const std::optional<uint32_t> core = current_core_index();
    if (!core) return;
    auto lock = cross_core_lock();
    cross_core_objects().get<VectorUbs>().running[*core] = {ub, size};
    cross_core_changed();
}

void withdraw_vector_ub(bool failed)
{
    const std::optional<uint32_t> core = current_core_index();
    if (!core) return;
    auto lock = cross_core_lock();
    VectorUbs& ubs = cross_core_objects().get<VectorUbs>();
    ubs.running.erase(*core);
    if (failed) return;
    ubs.ended.insert(*core);
    cross_core_changed();
}

void write_sub_block_ub(uint32_t sub, const std::function<void(std::byte* ub, uint64_t size)>& write)
{
    switch (core_kind()) {
        case CoreKind::Unified:
            if (sub != 0)
                fail({"RUN_FIXPIPE_SUB_BLOCK", "", "dst_mode",
                      "a unified core has one UB, sub-block 0's; sub-block 1 is a vector core of a mixed launch (pto.section.cube / "
                      "pto.section.vector)",
                      "sub-block 0", "sub-block " + std::to_string(sub), ""});
            return write(memory_base(TileType::Vec), memory_size(TileType::Vec));
        case CoreKind::Vector:
            fail({"RUN_FIXPIPE_CORE_KIND", "", "", "the fixpipe writes a vector core's UB from the cube core", "the cube core",
                  describe_calling_core(), ""});
        case CoreKind::Cube: break;
    }
    const std::vector<uint32_t> vectors = block_cores(block_idx(), CoreKind::Vector);
    if (sub >= vectors.size())
        fail({"RUN_FIXPIPE_SUB_BLOCK", "", "dst_mode", "the block has " + std::to_string(vectors.size()) + " vector sub-blocks",
              "sub-block 0 or 1", "sub-block " + std::to_string(sub), ""});
    const uint32_t target = vectors[sub];
    const std::string waiter = std::string("waits in ") + (current_instruction() ? current_instruction() : "a writeback to its UB") + " for ";
    auto lock = cross_core_lock();
    VectorUbs& ubs = cross_core_objects().get<VectorUbs>();
    cross_core_wait(
        lock, [&] { return ubs.running.contains(target) || ubs.ended.contains(target); },
        [&] { return WaitReason{waiter + describe_core(launch_cores()[target]) + " to begin", {target}}; });
    if (ubs.ended.contains(target))
        fail({"ORDER_SUB_BLOCK_ENDED", "", "dst", describe_core(launch_cores()[target]) + " ended before the cube core wrote its UB",
              "a cross-core flag set after the write that the vector core waits for before it reads", "the vector core had ended", ""});
    const auto [ub, size] = ubs.running.at(target);
    write(ub, size);
}

}  // namespace pto::runtime
