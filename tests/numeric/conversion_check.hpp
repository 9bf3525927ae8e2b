// Runs convert() over a list of source values in every RoundMode and SaturationMode and compares
// each result with the reference model.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include <pto/numeric/convert.hpp>

#include "numeric/reference.hpp"

namespace ref {

// Converts `source` (raw values of type src) to dst in all 14 mode/saturation combinations and
// reports every combination that produced a value different from the model.
inline void expect_conversions_match(DType dst, DType src, const std::vector<uint64_t>& source)
{
    struct Run {
        RoundMode mode;
        SaturationMode sat;
        std::vector<unsigned char> out;
        std::size_t mismatches = 0;
        std::string first;
    };
    std::vector<Run> runs;
    auto in = make_buffer(src, source.size());
    for (std::size_t i = 0; i < source.size(); ++i) write_bits(src, in.data(), i, source[i]);
    const std::size_t count = source.size();
    for (const RoundMode mode : kAllModes) {
        for (const SaturationMode sat : kBothSaturations) {
            Run run{mode, sat, make_buffer(dst, source.size()), 0, {}};
            pto::numeric::convert(dst, run.out.data(), src, in.data(), count, mode, sat);
            runs.push_back(std::move(run));
        }
    }
    const Pair pair = pair_of(dst, static_cast<int>(src));
    for (std::size_t i = 0; i < source.size(); ++i) {
        const Expectation expectation(pair, decode(src, source[i]), source[i]);
        for (Run& run : runs) {
            const uint64_t actual = read_bits(dst, run.out.data(), i);
            const uint64_t wanted = expectation(run.mode, run.sat);
            if (actual == wanted) continue;
            if (run.mismatches++ == 0) {
                std::ostringstream text;
                text << std::hex << "source 0x" << source[i] << ": expected 0x" << wanted << ", got 0x" << actual;
                run.first = text.str();
            }
        }
    }
    for (const Run& run : runs) {
        EXPECT_EQ(run.mismatches, 0u) << name(src) << " -> " << name(dst) << " " << name(run.mode) << " sat "
                                      << (run.sat == SaturationMode::ON ? "ON" : "OFF") << ", first at "
                                      << run.first;
    }
}

}  // namespace ref
