// onednn_ze_sample: a program written for oneDNN's Level Zero interop, with
// oneDNN's header names and nothing of zeil's, built unchanged against zeil
// (its include directory provides oneapi/dnnl/dnnl_ze.hpp). It uses the
// interop calls, a stream over the program's own command list and a stream
// the library creates, memory(md, eng) and make_memory, plain and interop
// executes, map_data, and a dependency from one stream to the other.
// Prints "onednn_ze_sample: ok" and exits 0 when every value is right.
#include "oneapi/dnnl/dnnl.hpp"
#include "oneapi/dnnl/dnnl_ze.hpp"

#include <level_zero/ze_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace ze_interop = dnnl::ze_interop;
using dnnl::memory;

#define ZE_CHECK(call) \
    do { \
        ze_result_t r_ = (call); \
        if (r_ != ZE_RESULT_SUCCESS) { \
            std::fprintf(stderr, "onednn_ze_sample: %s returned 0x%x\n", #call, (unsigned)r_); \
            std::exit(1); \
        } \
    } while (0)

static dnnl::primitive linear(const dnnl::engine &eng, const memory::desc &md, float alpha,
                              float beta)
{
    dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference,
                                  dnnl::algorithm::eltwise_linear, md, alpha, beta);
    return dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(d, eng));
}

static dnnl::primitive relu(const dnnl::engine &eng, const memory::desc &md)
{
    dnnl::eltwise_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu,
                                  md, 0.f, 0.f);
    return dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(d, eng));
}

int main()
{
    ZE_CHECK(zeInit(0));
    uint32_t count = 1;
    ze_driver_handle_t driver = nullptr;
    ZE_CHECK(zeDriverGet(&count, &driver));
    count = 1;
    ze_device_handle_t device = nullptr;
    ZE_CHECK(zeDeviceGet(driver, &count, &device));
    ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t context = nullptr;
    ZE_CHECK(zeContextCreate(driver, &context_desc, &context));

    int failures = 0;
    {
        dnnl::engine eng = ze_interop::make_engine(driver, device, context);
        std::printf("onednn_ze_sample: engine kind %s\n",
                    eng.get_kind() == dnnl::engine::kind::gpu ? "gpu" : "cpu");
        if (eng.get_kind() != dnnl::engine::kind::gpu)
            failures++;

        // A stream over the program's own in-order immediate list ...
        ze_command_queue_desc_t queue_desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                              nullptr,
                                              0,
                                              0,
                                              ZE_BIT(1), // in order
                                              ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                              ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
        ze_command_list_handle_t own_list = nullptr;
        ZE_CHECK(zeCommandListCreateImmediate(context, device, &queue_desc, &own_list));
        dnnl::stream first = ze_interop::make_stream(eng, own_list);
        // ... and one the library creates, with a list of its own.
        dnnl::stream second(eng);
        if (!ze_interop::get_list(second) || ze_interop::get_list(first) != own_list)
            failures++;

        const int n = 1024;
        memory::desc md({n}, memory::data_type::f32, memory::format_tag::a);
        memory src(md, eng); // USM allocated through the engine
        auto *in = static_cast<float *>(src.map_data());
        for (int i = 0; i < n; i++)
            in[i] = static_cast<float>(i - n / 2);
        src.unmap_data(in);

        ze_device_mem_alloc_desc_t alloc_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr,
                                                 0, 0};
        void *usm = nullptr;
        ZE_CHECK(zeMemAllocDevice(context, &alloc_desc, md.get_size(), 64, device, &usm));
        memory scaled = ze_interop::make_memory(md, eng, usm);
        memory shifted = ze_interop::make_memory(md, eng); // DNNL_MEMORY_ALLOCATE
        memory out(md, eng);

        // Primitives and memory outlive their executes (asynchronous runtime).
        dnnl::primitive twice = linear(eng, md, 2.f, 0.f), minus3 = linear(eng, md, 1.f, -3.f),
                        clip = relu(eng, md);
        // first stream: a plain execute, then an interop execute after it
        twice.execute(first, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, scaled}});
        ze_event_handle_t shifted_ready =
            ze_interop::execute(minus3, first, {{DNNL_ARG_SRC, scaled}, {DNNL_ARG_DST, shifted}});
        // second stream: waits for the first stream's event
        ze_event_handle_t done = ze_interop::execute(
            clip, second, {{DNNL_ARG_SRC, shifted}, {DNNL_ARG_DST, out}}, {shifted_ready});
        ZE_CHECK(zeEventHostSynchronize(done, UINT64_MAX));
        second.wait();

        auto *result = static_cast<float *>(out.map_data());
        for (int i = 0; i < n; i++) {
            float want = std::fmax(2.f * static_cast<float>(i - n / 2) - 3.f, 0.f);
            if (result[i] != want && failures++ < 5)
                std::fprintf(stderr, "onednn_ze_sample: out[%d] = %g, want %g\n", i,
                             static_cast<double>(result[i]), static_cast<double>(want));
        }
        out.unmap_data(result);
        first.wait();
        ZE_CHECK(zeMemFree(context, usm));
        // the streams go before the program's list they may use
        first = dnnl::stream();
        second = dnnl::stream();
        ZE_CHECK(zeCommandListDestroy(own_list));
    }
    ZE_CHECK(zeContextDestroy(context));
    if (failures) {
        std::printf("onednn_ze_sample: FAILED (%d)\n", failures);
        return 1;
    }
    std::printf("onednn_ze_sample: ok\n");
    return 0;
}
