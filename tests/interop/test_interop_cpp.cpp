// dnnl::ze_interop (dnnl_ze.hpp): the reference page's exact signatures and
// default arguments (checked at compile time), results, and dnnl::error on
// failure, written only against the reference page's API plus oneDNN's.
#include <cstring>
#include <type_traits>
#include <utility>
#include <unordered_map>
#include <vector>

#include <zeil/dnnl_ze.hpp>
#include <zeil/zeil.h>

extern "C" {
#include "zt.h"
}

namespace zi = dnnl::ze_interop;

// Each function's exact type; an overload or parameter type that differed
// from the reference page would not convert.
static_assert(std::is_same<decltype(&zi::get_engine_cache_blob_id),
                           std::vector<uint8_t> (*)(ze_driver_handle_t, ze_device_handle_t)>::value,
              "get_engine_cache_blob_id");
static_assert(std::is_same<decltype(&zi::get_engine_cache_blob),
                           std::vector<uint8_t> (*)(const dnnl::engine &)>::value,
              "get_engine_cache_blob");
static_assert(
    std::is_same<decltype(static_cast<dnnl::engine (*)(
                              ze_driver_handle_t, ze_device_handle_t, ze_context_handle_t,
                              const std::vector<uint8_t> &)>(&zi::make_engine)),
                 dnnl::engine (*)(ze_driver_handle_t, ze_device_handle_t, ze_context_handle_t,
                                  const std::vector<uint8_t> &)>::value,
    "make_engine from a cache blob");
static_assert(
    std::is_same<decltype(static_cast<dnnl::engine (*)(ze_driver_handle_t, ze_device_handle_t,
                                                       ze_context_handle_t)>(&zi::make_engine)),
                 dnnl::engine (*)(ze_driver_handle_t, ze_device_handle_t,
                                  ze_context_handle_t)>::value,
    "make_engine");
static_assert(
    std::is_same<decltype(&zi::get_context), ze_context_handle_t (*)(const dnnl::engine &)>::value,
    "get_context");
static_assert(
    std::is_same<decltype(&zi::get_device), ze_device_handle_t (*)(const dnnl::engine &)>::value,
    "get_device");
static_assert(
    std::is_same<decltype(&zi::get_driver), ze_driver_handle_t (*)(const dnnl::engine &)>::value,
    "get_driver");
static_assert(
    std::is_same<decltype(&zi::make_stream),
                 dnnl::stream (*)(const dnnl::engine &, ze_command_list_handle_t, bool)>::value,
    "make_stream");
static_assert(std::is_same<decltype(&zi::get_list),
                           ze_command_list_handle_t (*)(const dnnl::stream &)>::value,
              "get_list");
static_assert(
    std::is_same<
        decltype(static_cast<dnnl::memory (*)(const dnnl::memory::desc &, const dnnl::engine &,
                                              std::vector<void *>)>(&zi::make_memory)),
        dnnl::memory (*)(const dnnl::memory::desc &, const dnnl::engine &,
                         std::vector<void *>)>::value,
    "make_memory with handles");
static_assert(
    std::is_same<
        decltype(static_cast<dnnl::memory (*)(const dnnl::memory::desc &, const dnnl::engine &,
                                              void *)>(&zi::make_memory)),
        dnnl::memory (*)(const dnnl::memory::desc &, const dnnl::engine &, void *)>::value,
    "make_memory with one handle");
static_assert(std::is_same<decltype(&zi::execute),
                           ze_event_handle_t (*)(const dnnl::primitive &, const dnnl::stream &,
                                                 const std::unordered_map<int, dnnl::memory> &,
                                                 const std::vector<ze_event_handle_t> &)>::value,
              "execute");

// The default arguments: each call compiles with the trailing ones left out.
static_assert(std::is_same<decltype(zi::make_stream(std::declval<const dnnl::engine &>(),
                                                    ze_command_list_handle_t{})),
                           dnnl::stream>::value,
              "make_stream(engine, list) defaults aprofiling");
static_assert(std::is_same<decltype(zi::make_memory(std::declval<const dnnl::memory::desc &>(),
                                                    std::declval<const dnnl::engine &>())),
                           dnnl::memory>::value,
              "make_memory(desc, engine) defaults handles");
static_assert(
    std::is_same<decltype(zi::execute(
                     std::declval<const dnnl::primitive &>(), std::declval<const dnnl::stream &>(),
                     std::declval<const std::unordered_map<int, dnnl::memory> &>())),
                 ze_event_handle_t>::value,
    "execute(primitive, stream, args) defaults deps");

static ze_command_list_handle_t in_order_list(const zt_env_t &env)
{
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    nullptr,
                                    0,
                                    0,
                                    ZE_BIT(1),
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = nullptr;
    if (zeCommandListCreateImmediate(env.context, env.device, &desc, &list) != ZE_RESULT_SUCCESS) {
        desc.flags = 0; // the reference driver refuses the in-order flag so far
        ZT_OK(zeCommandListCreateImmediate(env.context, env.device, &desc, &list));
    }
    return list;
}

START_TEST(cpp_api_runs_relu_with_default_arguments)
{
    zt_env_t env;
    zt_open(&env);
    {
        dnnl::engine eng = zi::make_engine(env.driver, env.device, env.context);
        ck_assert_ptr_eq(zi::get_context(eng), env.context);
        ck_assert_ptr_eq(zi::get_device(eng), env.device);
        ck_assert_ptr_eq(zi::get_driver(eng), env.driver);
        ze_command_list_handle_t list = in_order_list(env);
        {
            dnnl::stream strm = zi::make_stream(eng, list); // aprofiling = false
            ck_assert_ptr_eq(zi::get_list(strm), list);
            dnnl::memory::desc md({2, 8}, dnnl::memory::data_type::f32,
                                  dnnl::memory::format_tag::ab);
            dnnl::memory src = zi::make_memory(md, eng); // handles = {}: allocated
            ze_device_mem_alloc_desc_t adesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, nullptr, 0,
                                                0};
            void *usm = nullptr;
            ZT_OK(zeMemAllocDevice(env.context, &adesc, md.get_size(), 64, env.device, &usm));
            dnnl::memory dst = zi::make_memory(md, eng, usm);
            ck_assert_ptr_eq(dst.get_data_handle(), usm);
            float *x = static_cast<float *>(src.get_data_handle());
            for (int i = 0; i < 16; i++)
                x[i] = static_cast<float>(i) - 7.5f;
            dnnl::eltwise_forward::primitive_desc pd(
                {dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md, 0.f}, eng);
            dnnl::eltwise_forward relu(pd);
            ze_event_handle_t first =
                zi::execute(relu, strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}}); // deps = {}
            ze_event_handle_t second =
                zi::execute(relu, strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}}, {first});
            ZT_OK(zeEventHostSynchronize(second, UINT64_MAX));
            const float *y = static_cast<const float *>(usm);
            for (int i = 0; i < 16; i++)
                ck_assert_float_eq(y[i], x[i] > 0 ? x[i] : 0.0f);
            strm.wait();
            src = dnnl::memory();
            dst = dnnl::memory();
            ZT_OK(zeMemFree(env.context, usm));
        }
        ZT_OK(zeCommandListDestroy(list));
    }
    zt_close(&env);
}
END_TEST

START_TEST(cpp_cache_blob_round_trip)
{
    zt_env_t env;
    zt_open(&env);
    {
        std::vector<uint8_t> id = zi::get_engine_cache_blob_id(env.driver, env.device);
        ck_assert(!id.empty());
        dnnl::engine eng = zi::make_engine(env.driver, env.device, env.context);
        std::vector<uint8_t> blob = zi::get_engine_cache_blob(eng);
        ck_assert_uint_gt(blob.size(), id.size());
        ck_assert(std::memcmp(blob.data() + 24, id.data(), id.size()) == 0);
        dnnl::engine cached = zi::make_engine(env.driver, env.device, env.context, blob);
        ck_assert(zi::get_engine_cache_blob(cached) == blob);
        blob.resize(blob.size() / 2);
        bool thrown = false;
        try {
            zi::make_engine(env.driver, env.device, env.context, blob);
        } catch (const dnnl::error &e) {
            thrown = e.status == dnnl_invalid_arguments;
        }
        ck_assert(thrown);
    }
    zt_close(&env);
}
END_TEST

START_TEST(cpp_failures_throw_dnnl_error)
{
    zt_env_t env;
    zt_open(&env);
    {
        dnnl::engine eng = zi::make_engine(env.driver, env.device, env.context);
        dnnl_status_t status = dnnl_success;
        try {
            zi::make_stream(eng, nullptr, true);
        } catch (const dnnl::error &e) {
            status = e.status;
        }
        ck_assert_int_eq(status, dnnl_invalid_arguments);
        dnnl::memory::desc md({4}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
        status = dnnl_success;
        try {
            zi::make_memory(md, eng,
                            std::vector<void *>{DNNL_MEMORY_ALLOCATE, DNNL_MEMORY_ALLOCATE});
        } catch (const dnnl::error &e) {
            status = e.status;
        }
        ck_assert_int_eq(status, dnnl_unimplemented);
        dnnl::engine plain(dnnl::engine::kind::cpu, 0);
        status = dnnl_success;
        try {
            zi::get_context(plain);
        } catch (const dnnl::error &e) {
            status = e.status;
        }
        ck_assert_int_eq(status, dnnl_invalid_arguments);
        dnnl::memory none = zi::make_memory(md, eng, DNNL_MEMORY_NONE);
        ck_assert_ptr_null(none.get_data_handle());
    }
    zt_close(&env);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("interop_cpp");
    TCase *tc = tcase_create("cpp");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cpp_api_runs_relu_with_default_arguments);
    tcase_add_test(tc, cpp_cache_blob_round_trip);
    tcase_add_test(tc, cpp_failures_throw_dnnl_error);
    suite_add_tcase(s, tc);
    return zt_run_suite(s);
}
