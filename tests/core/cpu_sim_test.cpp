// The public CPU simulator's host-side names: NPUMemoryModel's per-thread and default architecture,
// Reset, the register block, the sub-block hook, the task cookie, the (empty) instruction trace.
#include <pto/pto-inst.hpp>
#include <pto/common/cpu_stub.hpp>  // what -D__CPU_SIM adds to pto-inst.hpp

#include <gtest/gtest.h>

#include "support/test_support.hpp"

#include <sstream>
#include <thread>

using namespace pto;

namespace {

template <typename F>
std::string code_of(F&& f)
{
    return test::diagnostic_of(f).code;
}

// The capacities a fresh thread without a selection of its own sees.
struct Seen {
    uint64_t ub = 0, l0c = 0;
    profile::Target target = profile::Target::Cpu;
};
Seen seen_by_another_thread()
{
    Seen s;
    std::thread([&] {
        s.ub = runtime::memory_size(TileType::Vec);
        s.l0c = runtime::memory_size(TileType::Acc);
        s.target = runtime::active_profile().target;
    }).join();
    return s;
}

// Makes no thread default to a selected architecture at the end of a test.
struct DefaultArchScope {
    ~DefaultArchScope()
    {
        runtime::select_default_target(std::nullopt);
        NPUMemoryModel::Instance().Reset();
    }
};

uint32_t sub_block_one() { return 1; }

}  // namespace

TEST(CpuSim, InitializeSelectsTheCallingThreadsArchitectureAndResetDropsIt)
{
    DefaultArchScope scope;
    auto& model = NPUMemoryModel::Instance();
    model.Initialize(NPUArch::A2A3);
    EXPECT_TRUE(model.IsInitialized());
    EXPECT_EQ(model.GetArch(), NPUArch::A2A3);
    EXPECT_EQ(runtime::memory_size(TileType::Vec), 192 * 1024u);
    EXPECT_EQ(seen_by_another_thread().ub, 256 * 1024u);  // others keep the compiled cpu profile
    model.Reset();
    EXPECT_FALSE(model.IsInitialized());
    EXPECT_EQ(runtime::memory_size(TileType::Vec), 256 * 1024u);
}

TEST(CpuSim, SetDefaultArchAndNpuMemoryInitSelectForEveryOtherThread)
{
    DefaultArchScope scope;
    NPUMemoryModel::SetDefaultArch(NPUArch::A5);
    Seen s = seen_by_another_thread();
    EXPECT_EQ(s.target, profile::Target::A5);
    EXPECT_EQ(s.ub, 256 * 1024u);
    EXPECT_EQ(NPUMemoryModel::Instance().GetArch(), NPUArch::A5);

    NPU_MEMORY_INIT(NPUArch::A2A3);
    s = seen_by_another_thread();
    EXPECT_EQ(s.target, profile::Target::A2A3);
    EXPECT_EQ(s.l0c, 128 * 1024u);
    EXPECT_EQ(runtime::active_profile().target, profile::Target::A2A3);
}

TEST(CpuSim, KernelsCompiledForARealTargetTakeOnlyThatArchitecture)
{
    DefaultArchScope scope;
    test::ScopedTarget a2a3(profile::Target::A2A3);
    EXPECT_EQ(code_of([] { NPUMemoryModel::SetDefaultArch(NPUArch::A5); }), "RUN_TARGET_MISMATCH");
    EXPECT_EQ(code_of([] { NPUMemoryModel::Instance().Initialize(NPUArch::A5); }), "RUN_TARGET_MISMATCH");
    EXPECT_EQ(code_of([] { NPU_MEMORY_INIT(NPUArch::A2A3); }), "no error");
}

TEST(CpuSim, RegisterBlockIsSixteenZeroedWordsPerThread)
{
    DefaultArchScope scope;
    auto& model = NPUMemoryModel::Instance();
    auto* regs = reinterpret_cast<uint64_t*>(model.GetREGBase());
    for (int i = 0; i < 16; ++i) regs[i] = 0x1234 + i;
    EXPECT_EQ(reinterpret_cast<uint64_t*>(model.GetREGBase())[15], 0x1234u + 15);
    std::thread([] { EXPECT_EQ(reinterpret_cast<uint64_t*>(NPUMemoryModel::Instance().GetREGBase())[3], 0u); }).join();
    model.Clear();
    for (int i = 0; i < 16; ++i) EXPECT_EQ(regs[i], 0u);
}

TEST(CpuSim, SubblockHookAnswersUntilRemoved)
{
    cpu_sim::set_execution_context(2, 0, 2);
    EXPECT_EQ(get_subblockid(), 0);
    cpu_sim::register_hooks(reinterpret_cast<void*>(&sub_block_one), nullptr);
    EXPECT_EQ(get_subblockid(), 1);
    std::thread([] { EXPECT_EQ(get_subblockid(), 1); }).join();
    cpu_sim::register_hooks(nullptr, nullptr);
    EXPECT_EQ(get_subblockid(), 0);
    cpu_sim::reset_execution_context();
}

TEST(CpuSim, TaskCookiePerThreadAndResetWithTheContext)
{
    cpu_sim::set_task_cookie(0x1234'5678'9ABCull);
    EXPECT_EQ(get_task_cookie(), 0x1234'5678'9ABCull);
    std::thread([] { EXPECT_EQ(get_task_cookie(), 0u); }).join();
    cpu_sim::reset_execution_context();
    EXPECT_EQ(get_task_cookie(), 0u);
}

TEST(CpuSim, InstructionTraceIsEmpty)
{
    static_assert(!cpu_sim::kInstructionTraceEnabled);
    using T = Tile<TileType::Vec, float, 2, 32>;
    T a, b, c;
    for (int i = 0; i < 64; ++i) {
        a.data()[i] = float(i);
        b.data()[i] = 1.0f;
    }
    cpu_sim::ResetInstructionTrace();
    TADD(c, a, b);
    EXPECT_EQ(c.data()[5], 6.0f);
    EXPECT_TRUE(cpu_sim::CopyInstructionTraceRecords().empty());
    std::ostringstream json;
    cpu_sim::DumpInstructionTraceJson(json);
    EXPECT_TRUE(json.str().empty());
    const MrgSortExecutedNumList executed{1, 2, 3, 4};
    EXPECT_EQ(executed.mrgSortList3, 4);
}
