// The merges of TMRGSORT over 8-byte (value, index) pairs, descending by value in TSORT32's order
// (float_order.hpp), the lower list first among equal values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace pto::engine::merge {

// Up to four lists of pairs, in list order.
struct Lists {
    std::span<const uint64_t> list[4];
    int count = 0;
};

// Merges every pair of the lists into `out` (room for all of them), the way the device's four-way merge
// picks the largest head each time. Sorted lists go through distinct 63-bit words (key, position) merged
// pairwise by branch-free chains that run two ends of each merge at once; lists out of order through the
// plain greedy merge, pairwise too (the greedy merge is associative). `out` may not overlap the lists.
void merge_all(const Lists& lists, bool half_values, uint64_t* out);

// The four-way greedy merge itself, stopping after `limit` pairs or, when `stop_at_exhausted`, right after
// the pair that empties any list (a list empty from the start stops it before any pair). Returns the pairs
// written; taken[i] receives how many came from list i.
std::size_t merge_counted(const Lists& lists, bool half_values, uint64_t* out, std::size_t limit, bool stop_at_exhausted,
                          uint16_t (&taken)[4]);

// The position of the first pair of `list` out of descending order, or -1 when it is in order.
int64_t first_out_of_order(std::span<const uint64_t> list, bool half_values);

}  // namespace pto::engine::merge
