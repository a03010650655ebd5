/*
 * Contexts: a context holds its devices and a reference count, nothing
 * more (the ICD runs no commands: queues, memory and programs are refused).
 */
#include "icd.h"

#include <stdlib.h>

static cl_context fail(cl_int *errcode_ret, cl_int err)
{
    if (errcode_ret)
        *errcode_ret = err;
    return NULL;
}

cl_context CL_API_CALL icd_clCreateContext(const cl_context_properties *properties,
                                           cl_uint num_devices, const cl_device_id *devices,
                                           void(CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                                         size_t, void *),
                                           void *user_data, cl_int *errcode_ret)
{
    if (!devices || num_devices == 0 || (!pfn_notify && user_data))
        return fail(errcode_ret, CL_INVALID_VALUE);
    if (num_devices > ICD_MAX_DEVICES)
        return fail(errcode_ret, CL_INVALID_DEVICE);
    /* Properties: only CL_CONTEXT_PLATFORM, naming this platform. */
    for (const cl_context_properties *p = properties; p && p[0]; p += 2) {
        if (p[0] != CL_CONTEXT_PLATFORM)
            return fail(errcode_ret, CL_INVALID_PROPERTY);
        if ((cl_platform_id)p[1] != icd_platform())
            return fail(errcode_ret, CL_INVALID_PLATFORM);
    }
    for (cl_uint i = 0; i < num_devices; i++)
        if (!icd_known_device(devices[i]))
            return fail(errcode_ret, CL_INVALID_DEVICE);
    struct _cl_context *c = calloc(1, sizeof *c);
    if (!c)
        return fail(errcode_ret, CL_OUT_OF_HOST_MEMORY);
    c->dispatch = &icd_dispatch;
    c->refs = 1;
    c->num_devices = num_devices;
    for (cl_uint i = 0; i < num_devices; i++)
        c->devices[i] = devices[i];
    if (errcode_ret)
        *errcode_ret = CL_SUCCESS;
    return c;
}

cl_int CL_API_CALL icd_clRetainContext(cl_context context)
{
    if (!context || context->dispatch != &icd_dispatch)
        return CL_INVALID_CONTEXT;
    __atomic_add_fetch(&context->refs, 1, __ATOMIC_RELAXED);
    return CL_SUCCESS;
}

cl_int CL_API_CALL icd_clReleaseContext(cl_context context)
{
    if (!context || context->dispatch != &icd_dispatch)
        return CL_INVALID_CONTEXT;
    if (__atomic_sub_fetch(&context->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        context->dispatch = NULL;
        free(context);
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL icd_clGetContextInfo(cl_context context, cl_context_info param, size_t size,
                                        void *value, size_t *size_ret)
{
    if (!context || context->dispatch != &icd_dispatch)
        return CL_INVALID_CONTEXT;
    switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: {
        cl_uint refs = __atomic_load_n(&context->refs, __ATOMIC_RELAXED);
        return icd_answer(&refs, sizeof refs, size, value, size_ret);
    }
    case CL_CONTEXT_NUM_DEVICES:
        return icd_answer(&context->num_devices, sizeof context->num_devices, size, value,
                          size_ret);
    case CL_CONTEXT_DEVICES:
        return icd_answer(context->devices, context->num_devices * sizeof(cl_device_id), size,
                          value, size_ret);
    case CL_CONTEXT_PROPERTIES:
        return icd_answer(NULL, 0, size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}
