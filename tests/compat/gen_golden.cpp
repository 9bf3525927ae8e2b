// Writes each case's input files and golden.bin (raw little-endian arrays) into <dir>/<suite>.<case>/:
// the generator step of the compatibility test. AddMul: golden = (in1 + in2) * in2, computed in double
// and rounded once to the element type (exact for these small integers). The fp4 window: the input's
// window over a zeroed tensor, nibble by nibble (value i in byte i / 2, the low nibble when i is even).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include <pto/pto-inst.hpp>

#include "compat_cases.hpp"

namespace {

template <typename T>
void write(const std::filesystem::path& path, const std::vector<T>& values)
{
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(values.data()),
                                                static_cast<std::streamsize>(values.size() * sizeof(T)));
}

template <typename T>
void generate(const std::filesystem::path& root, const compat::Case& c, std::mt19937& rng)
{
    std::uniform_int_distribution<int> value(-9, 9);
    const std::size_t n = std::size_t(c.rows) * c.cols;
    std::vector<T> in1(n), in2(n), golden(n);
    for (std::size_t i = 0; i < n; ++i) {
        const int x = value(rng), y = value(rng) | 1;  // never all zero
        in1[i] = static_cast<T>(x);
        in2[i] = static_cast<T>(y);
        golden[i] = static_cast<T>((double(x) + double(y)) * double(y));
    }
    const auto dir = root / c.name;
    std::filesystem::create_directories(dir);
    write(dir / "input1.bin", in1);
    write(dir / "input2.bin", in2);
    write(dir / "golden.bin", golden);
}

void generate_fp4_window(const std::filesystem::path& root, std::mt19937& rng)
{
    const int whole = compat::kFp4WholeRows * compat::kFp4WholeCols;
    std::vector<uint8_t> input(whole / 2), golden(whole / 2, 0);
    for (uint8_t& byte : input) byte = uint8_t(rng() | 0x11);  // no zero nibble
    const auto nibble = [](const std::vector<uint8_t>& v, int i) { return (v[size_t(i / 2)] >> (i % 2 * 4)) & 0xF; };
    for (int c = 0; c < compat::kFp4Window.cols; ++c)
        for (int r = 0; r < compat::kFp4Window.rows; ++r) {
            const int i = c * compat::kFp4WholeRows + r;  // DN: rows contiguous
            golden[size_t(i / 2)] = uint8_t(golden[size_t(i / 2)] | nibble(input, i) << (i % 2 * 4));
        }
    const auto dir = root / compat::kFp4Window.name;
    std::filesystem::create_directories(dir);
    write(dir / "input.bin", input);
    write(dir / "golden.bin", golden);
}

}  // namespace

int main(int argc, char** argv)
{
    const std::filesystem::path root = argc > 1 ? argv[1] : ".";
    std::mt19937 rng(19);
    generate<float>(root, compat::kFloat, rng);
    generate<aclFloat16>(root, compat::kHalf, rng);
    generate<int32_t>(root, compat::kInt32, rng);
    generate_fp4_window(root, rng);
    std::printf("golden files written under %s\n", root.c_str());
    return 0;
}
