// The adversarial schedule in the text door: the pipelined vector add of tests/asm/programs gives the
// same bytes in it when every flag is there, and with each flag line left out gives what the run-time
// check's finding predicts: a set left out makes its wait wait for ever (ORDER_WAIT_WITHOUT_SET), a
// wait left out lets the later instruction run first and the sums come out wrong, and a flag left set
// at the end (ORDER_UNWAITED_SET) changes nothing this kernel computes.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "asm/interpreter/interpreter.hpp"
#include "asm/parser.hpp"

namespace pto::as {
namespace {

constexpr int kRows = 64, kCols = 256;

std::string pipelined_program()
{
    std::ifstream in(std::string(PTOSIM_TEST_DATA_DIR) + "/asm/programs/pipelined_sync.pto");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct VectorAdd {
    std::vector<float> a, b, c = std::vector<float>(kRows * kCols, -1.f);

    VectorAdd()
    {
        std::mt19937 gen(5);
        std::uniform_real_distribution<float> dist(-10.f, 10.f);
        for (auto* v : {&a, &b}) {
            v->resize(kRows * kCols);
            for (float& x : *v) x = dist(gen);
        }
    }

    // The first diagnostic's code, or "none".
    std::string run(const std::string& text, runtime::Schedule schedule, bool checked)
    {
        const ParseResult parsed = parse(text, "pipelined.pto");
        EXPECT_TRUE(parsed.ok());
        const auto bind = [](const char* name, std::vector<float>& v) {
            ArgumentBinding binding;
            binding.name = name;
            binding.data = reinterpret_cast<std::byte*>(v.data());
            binding.bytes = v.size() * sizeof(float);
            return binding;
        };
        ArgumentBinding n;
        n.name = "n";
        n.scalar = kRows;
        RunOptions options;
        options.schedule = schedule;
        options.checked = checked;
        const RunResult r = as::run(parsed.module, {bind("a", a), bind("b", b), bind("c", c), n}, options);
        return r.ok() ? "none" : r.diagnostics[0].code;
    }

    bool adds_up() const
    {
        for (std::size_t i = 0; i < c.size(); ++i)
            if (c[i] != a[i] + b[i]) return false;
        return true;
    }
};

TEST(TextAdversarialSchedule, EveryFlagInPlaceGivesTheSameBytes)
{
    VectorAdd v;
    EXPECT_EQ(v.run(pipelined_program(), runtime::Schedule::Adversarial, false), "none");
    EXPECT_TRUE(v.adds_up());
}

TEST(TextAdversarialSchedule, EachFlagLeftOutChangesWhatTheCheckerPredicts)
{
    const std::string text = pipelined_program();
    int lines = 0;
    for (std::size_t at = text.find("pto.set_flag"); at != std::string::npos;) {
        const std::size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at);
        std::string without = text;
        without.erase(begin, end - begin + 1);
        const std::string line = text.substr(begin, end - begin);
        SCOPED_TRACE("without" + line);
        ++lines;

        VectorAdd checked;
        const std::string finding = checked.run(without, runtime::Schedule::Program, true);
        VectorAdd adversarial;
        const std::string code = adversarial.run(without, runtime::Schedule::Adversarial, false);
        if (finding == "ORDER_WAIT_WITHOUT_SET") {
            EXPECT_EQ(code, "ORDER_WAIT_WITHOUT_SET");
        } else {
            EXPECT_EQ(code, "none");
            EXPECT_EQ(adversarial.adds_up(), finding == "ORDER_UNWAITED_SET") << "the checker finds " << finding;
        }
        const std::size_t set_at = text.find("pto.set_flag", end), wait_at = text.find("pto.wait_flag", end);
        at = std::min(set_at, wait_at);
    }
    EXPECT_EQ(lines, 12);
}

}  // namespace
}  // namespace pto::as
