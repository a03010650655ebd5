/*
 * dnnl_ze.hpp: dnnl::ze_interop, oneDNN's Level Zero interoperability C++
 * API, over the C API of dnnl_ze.h (libzeil_interop). Signatures and default
 * arguments are those of oneDNN's reference page; failures throw dnnl::error
 * as oneDNN's own C++ API does. Ownership is described in dnnl_ze.h.
 */
#ifndef ZEIL_DNNL_ZE_HPP
#define ZEIL_DNNL_ZE_HPP

#include <cstdint>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "zeil/dnnl_ze.h"

namespace dnnl
{
namespace ze_interop
{

inline std::vector<uint8_t> get_engine_cache_blob_id(ze_driver_handle_t driver,
                                                     ze_device_handle_t device)
{
    size_t size = 0;
    error::wrap_c_api(dnnl_ze_interop_engine_get_cache_blob_id(driver, device, &size, nullptr),
                      "could not get the size of an engine cache blob ID");
    std::vector<uint8_t> id(size);
    if (size != 0)
        error::wrap_c_api(
            dnnl_ze_interop_engine_get_cache_blob_id(driver, device, &size, id.data()),
            "could not get an engine cache blob ID");
    return id;
}

inline std::vector<uint8_t> get_engine_cache_blob(const engine &aengine)
{
    size_t size = 0;
    error::wrap_c_api(dnnl_ze_interop_engine_get_cache_blob(aengine.get(), &size, nullptr),
                      "could not get the size of an engine cache blob");
    std::vector<uint8_t> blob(size);
    if (size != 0)
        error::wrap_c_api(dnnl_ze_interop_engine_get_cache_blob(aengine.get(), &size, blob.data()),
                          "could not get an engine cache blob");
    return blob;
}

inline engine make_engine(ze_driver_handle_t driver, ze_device_handle_t device,
                          ze_context_handle_t context, const std::vector<uint8_t> &cache_blob)
{
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_create_from_cache_blob(
                          &c_engine, driver, device, context, cache_blob.size(), cache_blob.data()),
                      "could not create an engine from a cache blob");
    return engine(c_engine);
}

inline engine make_engine(ze_driver_handle_t adriver, ze_device_handle_t adevice,
                          ze_context_handle_t acontext)
{
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_create(&c_engine, adriver, adevice, acontext),
                      "could not create an engine");
    return engine(c_engine);
}

inline ze_context_handle_t get_context(const engine &aengine)
{
    ze_context_handle_t context = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_get_context(aengine.get(), &context),
                      "could not get a context handle");
    return context;
}

inline ze_device_handle_t get_device(const engine &aengine)
{
    ze_device_handle_t device = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_get_device(aengine.get(), &device),
                      "could not get a device handle");
    return device;
}

inline ze_driver_handle_t get_driver(const engine &aengine)
{
    ze_driver_handle_t driver = nullptr;
    error::wrap_c_api(dnnl_ze_interop_engine_get_driver(aengine.get(), &driver),
                      "could not get a driver handle");
    return driver;
}

inline stream make_stream(const engine &aengine, ze_command_list_handle_t alist,
                          bool aprofiling = false)
{
    dnnl_stream_t c_stream = nullptr;
    error::wrap_c_api(
        dnnl_ze_interop_stream_create(&c_stream, aengine.get(), alist, aprofiling ? 1 : 0),
        "could not create a stream");
    return stream(c_stream);
}

inline ze_command_list_handle_t get_list(const stream &astream)
{
    ze_command_list_handle_t list = nullptr;
    error::wrap_c_api(dnnl_ze_interop_stream_get_list(astream.get(), &list),
                      "could not get a stream handle");
    return list;
}

inline memory make_memory(const memory::desc &memory_desc, const engine &aengine,
                          std::vector<void *> handles = {})
{
    if (handles.empty())
        handles.push_back(DNNL_MEMORY_ALLOCATE);
    dnnl_memory_t c_memory = nullptr;
    error::wrap_c_api(dnnl_ze_interop_memory_create(&c_memory, &memory_desc.data, aengine.get(),
                                                    static_cast<int>(handles.size()),
                                                    handles.data()),
                      "could not create a memory");
    return memory(c_memory);
}

inline memory make_memory(const memory::desc &memory_desc, const engine &aengine, void *handle)
{
    return make_memory(memory_desc, aengine, std::vector<void *>{handle});
}

inline ze_event_handle_t execute(const dnnl::primitive &aprimitive, const stream &astream,
                                 const std::unordered_map<int, memory> &args,
                                 const std::vector<ze_event_handle_t> &deps = {})
{
    std::vector<dnnl_exec_arg_t> c_args;
    c_args.reserve(args.size());
    for (const auto &a : args)
        c_args.push_back({a.first, a.second.get(true)});
    ze_event_handle_t event = nullptr;
    error::wrap_c_api(dnnl_ze_interop_primitive_execute(
                          aprimitive.get(), astream.get(), static_cast<int>(c_args.size()),
                          c_args.data(), static_cast<int>(deps.size()), deps.data(), &event),
                      "could not execute a primitive");
    return event;
}

} // namespace ze_interop
} // namespace dnnl

#endif
