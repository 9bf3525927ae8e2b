// The public header path of comm::AsyncSession (pto/comm/comm_types.hpp defines it).
#pragma once

#include <pto/comm/comm_types.hpp>
