// The kernel metadata a hand-compiled SYNCALL kernel declares for the device's runtime (which core
// types to schedule, in what ratio). A launch in ptosim says that itself (pto::sim::launch for one
// kind of core, pto::sim::launch_mixed for a cube core and two vector cores per block), so these
// declare nothing here; they exist so that such kernels compile unchanged.
#pragma once

#define PTO_SYNCALL_AIV_KERNEL_META(kernelName) static_assert(true, "")
#define PTO_SYNCALL_AIC_KERNEL_META(kernelName) static_assert(true, "")
#define PTO_SYNCALL_MIX_AIC_KERNEL_META(kernelName, aicRatio, aivRatio) static_assert(true, "")
