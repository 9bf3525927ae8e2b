#include "indices.hpp"

#include <pto/runtime/diagnostic.hpp>

#include <string>

namespace pto::engine::memory_gather {

void report_index_out_of_range(const char* code, const char* side, const char* policy, Coalesce mode,
                               const OutOfRange& bad, uint64_t extent)
{
    const bool rows = mode == Coalesce::Row;
    const std::string position = rows ? std::string(side) + " row " + std::to_string(bad.row)
                                      : std::string(side) + " (" + std::to_string(bad.row) + ", " +
                                            std::to_string(bad.col) + ")";
    runtime::fail({code, "", "idx",
                   "index " + std::to_string(bad.index) + " of " + position + " is outside the table's " +
                       std::to_string(extent) + (rows ? " rows" : " elements") + " (" + policy +
                       "; an int32 index is read as uint32)",
                   "an index below " + std::to_string(extent), std::to_string(bad.index), ""});
}

}  // namespace pto::engine::memory_gather
