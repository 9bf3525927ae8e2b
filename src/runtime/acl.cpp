#include <acl/acl.h>

#include <pto/runtime/memory.hpp>

#include <cstdlib>
#include <cstring>

aclError aclInit(const char*) { return ACL_SUCCESS; }
aclError aclFinalize() { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t deviceId) { return deviceId >= 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
aclError aclrtResetDevice(int32_t) { return ACL_SUCCESS; }

aclError aclrtCreateStream(aclrtStream* stream)
{
    if (!stream) return ACL_ERROR_INVALID_PARAM;
    static int token;  // every stream is the same in-order stream
    *stream = &token;
    return ACL_SUCCESS;
}
aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }  // kernels run to completion when called

namespace {
aclError allocate(void** ptr, size_t size, const char* name)
{
    if (!ptr || size == 0) return ACL_ERROR_INVALID_PARAM;
    // 32-byte alignment at least, as device allocations have; zero-filled, as the public CPU
    // simulation's allocations are (its test programs read bytes they never wrote as zero).
    const size_t rounded = (size + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) return ACL_ERROR_BAD_ALLOC;
    std::memset(p, 0, rounded);
    pto::runtime::register_global(p, size, name);
    *ptr = p;
    return ACL_SUCCESS;
}
aclError release(void* p)
{
    if (!p) return ACL_ERROR_INVALID_PARAM;
    pto::runtime::unregister_global(p);
    std::free(p);
    return ACL_SUCCESS;
}
}  // namespace

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) { return allocate(devPtr, size, "aclrtMalloc"); }
aclError aclrtMallocHost(void** hostPtr, size_t size) { return allocate(hostPtr, size, "aclrtMallocHost"); }
aclError aclrtFree(void* devPtr) { return release(devPtr); }
aclError aclrtFreeHost(void* hostPtr) { return release(hostPtr); }

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind)
{
    if (!dst || !src || count > destMax) return ACL_ERROR_INVALID_PARAM;
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count)
{
    if (!devPtr || count > maxCount) return ACL_ERROR_INVALID_PARAM;
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}
