/*
 * ze_compat.h: what zeil knows of Level Zero beyond the installed headers.
 *
 * Drivers built from newer headers fill DDI table entries that the installed
 * headers (Debian's are API 1.4) do not declare, and newer loaders ask for
 * tables the installed headers do not have. This one file says, per table and
 * per entry, which API version introduced it, and declares the few function
 * types zeil and the reference driver call, only where the installed headers
 * lack them. scripts/codegen/gen-ddi reads it together with the installed headers and
 * generates tables that know every entry with its version (zeil_ddi.h).
 *
 * Versions are the specification's, checked against the loader's per-entry
 * checks and compute-runtime's DDI table manifests. An entry not listed here
 * that the installed headers have is API 1.0. Entries are listed in table
 * order: a table of version v is the prefix of entries of version <= v.
 *
 * A result code newer than the installed headers goes here as
 * `#define ZE_RESULT_<NAME> ((ze_result_t)<value>)`: scripts/codegen/gen-result-names
 * names it in log lines too.
 *
 * Include zeil_ddi.h, not this file: it defines ZEIL_INSTALLED_API_VERSION
 * (the installed ze_api.h's ZE_API_VERSION_CURRENT, as gen-ddi read it).
 * Used by the layer and the reference driver alike; it knows nothing of zeil.
 */
/* scripts/codegen/gen-ddi reads the tables below line by line: kept as written. */
/* clang-format off */
#ifndef ZEIL_ZE_COMPAT_H
#define ZEIL_ZE_COMPAT_H

#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>
#include <level_zero/zet_api.h>

#ifndef ZEIL_INSTALLED_API_VERSION
#error "include zeil_ddi.h, which defines ZEIL_INSTALLED_API_VERSION"
#endif

/* Tables newer than API 1.0: X(getter, table, prefix, major, minor). */
#define ZEIL_COMPAT_TABLES(X)                                                   \
    X(zeGetCommandListExpProcAddrTable, ze_command_list_exp_dditable_t, ze, 1, 9)   \
    X(zeGetGraphProcAddrTable, ze_graph_dditable_t, ze, 1, 17)                      \
    X(zeGetExecutableGraphProcAddrTable, ze_executable_graph_dditable_t, ze, 1, 17) \
    X(zeGetMemExpProcAddrTable, ze_mem_exp_dditable_t, ze, 1, 6)                    \
    X(zeGetDriverExpProcAddrTable, ze_driver_exp_dditable_t, ze, 1, 7)              \
    X(zeGetRTASParallelOperationExpProcAddrTable, ze_rtas_parallel_operation_exp_dditable_t, ze, 1, 7) \
    X(zeGetRTASBuilderExpProcAddrTable, ze_rtas_builder_exp_dditable_t, ze, 1, 7)   \
    X(zeGetRTASBuilderProcAddrTable, ze_rtas_builder_dditable_t, ze, 1, 13)         \
    X(zeGetRTASParallelOperationProcAddrTable, ze_rtas_parallel_operation_dditable_t, ze, 1, 13) \
    X(zetGetMetricProgrammableExpProcAddrTable, zet_metric_programmable_exp_dditable_t, zet, 1, 9) \
    X(zetGetMetricExpProcAddrTable, zet_metric_exp_dditable_t, zet, 1, 9)           \
    X(zetGetMetricTracerExpProcAddrTable, zet_metric_tracer_exp_dditable_t, zet, 1, 11) \
    X(zetGetMetricDecoderExpProcAddrTable, zet_metric_decoder_exp_dditable_t, zet, 1, 11) \
    X(zetGetDeviceExpProcAddrTable, zet_device_exp_dditable_t, zet, 1, 11)          \
    X(zetGetCommandListExpProcAddrTable, zet_command_list_exp_dditable_t, zet, 1, 13) \
    X(zesGetGlobalProcAddrTable, zes_global_dditable_t, zes, 1, 5)                  \
    X(zesGetOverclockProcAddrTable, zes_overclock_dditable_t, zes, 1, 5)            \
    X(zesGetRasExpProcAddrTable, zes_ras_exp_dditable_t, zes, 1, 7)                 \
    X(zesGetDriverExpProcAddrTable, zes_driver_exp_dditable_t, zes, 1, 9)           \
    X(zesGetDeviceExpProcAddrTable, zes_device_exp_dditable_t, zes, 1, 9)           \
    X(zesGetVFManagementExpProcAddrTable, zes_vf_management_exp_dditable_t, zes, 1, 9) \
    X(zesGetFirmwareExpProcAddrTable, zes_firmware_exp_dditable_t, zes, 1, 9)

/* Entries newer than API 1.0, in table order: X(table, member, major, minor). */
#define ZEIL_COMPAT_ENTRIES(X)                                                  \
    X(ze_global_dditable_t, pfnInitDrivers, 1, 10)                              \
    X(ze_driver_dditable_t, pfnGetExtensionFunctionAddress, 1, 1)               \
    X(ze_driver_dditable_t, pfnGetLastErrorDescription, 1, 6)                   \
    X(ze_driver_dditable_t, pfnRTASFormatCompatibilityCheckExt, 1, 13)          \
    X(ze_driver_dditable_t, pfnGetDefaultContext, 1, 14)                        \
    X(ze_driver_exp_dditable_t, pfnRTASFormatCompatibilityCheckExp, 1, 7)       \
    X(ze_device_dditable_t, pfnGetGlobalTimestamps, 1, 1)                       \
    X(ze_device_dditable_t, pfnReserveCacheExt, 1, 2)                           \
    X(ze_device_dditable_t, pfnSetCacheAdviceExt, 1, 2)                         \
    X(ze_device_dditable_t, pfnPciGetPropertiesExt, 1, 3)                       \
    X(ze_device_dditable_t, pfnGetRootDevice, 1, 7)                             \
    X(ze_device_dditable_t, pfnImportExternalSemaphoreExt, 1, 12)               \
    X(ze_device_dditable_t, pfnReleaseExternalSemaphoreExt, 1, 12)              \
    X(ze_device_dditable_t, pfnGetVectorWidthPropertiesExt, 1, 13)              \
    X(ze_device_dditable_t, pfnSynchronize, 1, 14)                              \
    X(ze_device_dditable_t, pfnGetAggregatedCopyOffloadIncrementValue, 1, 15)   \
    X(ze_device_dditable_t, pfnGetRuntimeRequirements, 1, 16)                   \
    X(ze_device_dditable_t, pfnGetRuntimeRequirementsKey, 1, 16)                \
    X(ze_device_dditable_t, pfnValidateRuntimeRequirements, 1, 16)              \
    X(ze_device_dditable_t, pfnGetCounterBasedEventMaxValue, 1, 17)             \
    X(ze_device_dditable_t, pfnGetCompilerInfo, 1, 18)                          \
    X(ze_device_exp_dditable_t, pfnGetFabricVertexExp, 1, 4)                    \
    X(ze_context_dditable_t, pfnCreateEx, 1, 1)                                 \
    X(ze_command_queue_dditable_t, pfnGetOrdinal, 1, 9)                         \
    X(ze_command_queue_dditable_t, pfnGetIndex, 1, 9)                           \
    X(ze_command_queue_dditable_t, pfnGetFlags, 1, 17)                          \
    X(ze_command_queue_dditable_t, pfnGetMode, 1, 17)                           \
    X(ze_command_queue_dditable_t, pfnGetPriority, 1, 17)                       \
    X(ze_command_list_dditable_t, pfnAppendImageCopyToMemoryExt, 1, 3)          \
    X(ze_command_list_dditable_t, pfnAppendImageCopyFromMemoryExt, 1, 3)        \
    X(ze_command_list_dditable_t, pfnHostSynchronize, 1, 6)                     \
    X(ze_command_list_dditable_t, pfnGetDeviceHandle, 1, 9)                     \
    X(ze_command_list_dditable_t, pfnGetContextHandle, 1, 9)                    \
    X(ze_command_list_dditable_t, pfnGetOrdinal, 1, 9)                          \
    X(ze_command_list_dditable_t, pfnImmediateGetIndex, 1, 9)                   \
    X(ze_command_list_dditable_t, pfnIsImmediate, 1, 9)                         \
    X(ze_command_list_dditable_t, pfnAppendSignalExternalSemaphoreExt, 1, 12)   \
    X(ze_command_list_dditable_t, pfnAppendWaitExternalSemaphoreExt, 1, 12)     \
    X(ze_command_list_dditable_t, pfnAppendLaunchKernelWithParameters, 1, 14)   \
    X(ze_command_list_dditable_t, pfnAppendLaunchKernelWithArguments, 1, 14)    \
    X(ze_command_list_dditable_t, pfnAppendMemoryCopyWithParameters, 1, 16)     \
    X(ze_command_list_dditable_t, pfnAppendMemoryFillWithParameters, 1, 16)     \
    X(ze_command_list_dditable_t, pfnImmediateAppendCommandListsWithParameters, 1, 16) \
    X(ze_command_list_dditable_t, pfnGetFlags, 1, 17)                           \
    X(ze_command_list_dditable_t, pfnImmediateGetFlags, 1, 17)                  \
    X(ze_command_list_dditable_t, pfnImmediateGetMode, 1, 17)                   \
    X(ze_command_list_dditable_t, pfnImmediateGetPriority, 1, 17)               \
    X(ze_command_list_dditable_t, pfnBeginGraphCaptureExt, 1, 17)               \
    X(ze_command_list_dditable_t, pfnBeginCaptureIntoGraphExt, 1, 17)           \
    X(ze_command_list_dditable_t, pfnIsGraphCaptureEnabledExt, 1, 17)           \
    X(ze_command_list_dditable_t, pfnEndGraphCaptureExt, 1, 17)                 \
    X(ze_command_list_dditable_t, pfnGetGraphExt, 1, 17)                        \
    X(ze_command_list_dditable_t, pfnAppendGraphExt, 1, 17)                     \
    X(ze_command_list_dditable_t, pfnAppendHostFunction, 1, 17)                 \
    X(ze_command_list_dditable_t, pfnAppendSignalEventWithParameters, 1, 18)    \
    X(ze_command_list_dditable_t, pfnAppendWaitOnEventsWithParameters, 1, 18)   \
    X(ze_command_list_exp_dditable_t, pfnCreateCloneExp, 1, 9)                  \
    X(ze_command_list_exp_dditable_t, pfnImmediateAppendCommandListsExp, 1, 9)  \
    X(ze_command_list_exp_dditable_t, pfnGetNextCommandIdExp, 1, 9)             \
    X(ze_command_list_exp_dditable_t, pfnUpdateMutableCommandsExp, 1, 9)        \
    X(ze_command_list_exp_dditable_t, pfnUpdateMutableCommandSignalEventExp, 1, 9) \
    X(ze_command_list_exp_dditable_t, pfnUpdateMutableCommandWaitEventsExp, 1, 9) \
    X(ze_command_list_exp_dditable_t, pfnGetNextCommandIdWithKernelsExp, 1, 10) \
    X(ze_command_list_exp_dditable_t, pfnUpdateMutableCommandKernelsExp, 1, 10) \
    X(ze_command_list_exp_dditable_t, pfnIsMutableExp, 1, 17)                   \
    X(ze_graph_dditable_t, pfnCreateExt, 1, 17)                                 \
    X(ze_graph_dditable_t, pfnGetPrimaryCommandListExt, 1, 17)                  \
    X(ze_graph_dditable_t, pfnSetDestructionCallbackExt, 1, 17)                 \
    X(ze_graph_dditable_t, pfnInstantiateExt, 1, 17)                            \
    X(ze_graph_dditable_t, pfnIsEmptyExt, 1, 17)                                \
    X(ze_graph_dditable_t, pfnDumpContentsExt, 1, 17)                           \
    X(ze_graph_dditable_t, pfnDestroyExt, 1, 17)                                \
    X(ze_executable_graph_dditable_t, pfnGetSourceGraphExt, 1, 17)              \
    X(ze_executable_graph_dditable_t, pfnDestroyExt, 1, 17)                     \
    X(ze_event_pool_dditable_t, pfnPutIpcHandle, 1, 6)                          \
    X(ze_event_pool_dditable_t, pfnGetContextHandle, 1, 9)                      \
    X(ze_event_pool_dditable_t, pfnGetFlags, 1, 9)                              \
    X(ze_event_dditable_t, pfnQueryKernelTimestampsExt, 1, 6)                   \
    X(ze_event_dditable_t, pfnGetEventPool, 1, 9)                               \
    X(ze_event_dditable_t, pfnGetSignalScope, 1, 9)                             \
    X(ze_event_dditable_t, pfnGetWaitScope, 1, 9)                               \
    X(ze_event_dditable_t, pfnCounterBasedCreate, 1, 15)                        \
    X(ze_event_dditable_t, pfnCounterBasedGetIpcHandle, 1, 15)                  \
    X(ze_event_dditable_t, pfnCounterBasedOpenIpcHandle, 1, 15)                 \
    X(ze_event_dditable_t, pfnCounterBasedCloseIpcHandle, 1, 15)                \
    X(ze_event_dditable_t, pfnCounterBasedGetDeviceAddress, 1, 15)              \
    X(ze_event_dditable_t, pfnGetCounterBasedFlags, 1, 17)                      \
    X(ze_event_exp_dditable_t, pfnQueryTimestampsExp, 1, 2)                     \
    X(ze_image_dditable_t, pfnGetAllocPropertiesExt, 1, 3)                      \
    X(ze_image_dditable_t, pfnViewCreateExt, 1, 5)                              \
    X(ze_image_exp_dditable_t, pfnGetMemoryPropertiesExp, 1, 2)                 \
    X(ze_image_exp_dditable_t, pfnViewCreateExp, 1, 2)                          \
    X(ze_image_exp_dditable_t, pfnGetDeviceOffsetExp, 1, 9)                     \
    X(ze_module_dditable_t, pfnInspectLinkageExt, 1, 3)                         \
    X(ze_module_dditable_t, pfnGetDeviceHandle, 1, 18)                          \
    X(ze_kernel_dditable_t, pfnGetModuleHandle, 1, 18)                          \
    X(ze_kernel_exp_dditable_t, pfnSetGlobalOffsetExp, 1, 1)                    \
    X(ze_kernel_exp_dditable_t, pfnSchedulingHintExp, 1, 2)                     \
    X(ze_kernel_exp_dditable_t, pfnGetBinaryExp, 1, 11)                         \
    X(ze_kernel_exp_dditable_t, pfnGetAllocationPropertiesExp, 1, 14)           \
    X(ze_physical_mem_dditable_t, pfnGetProperties, 1, 15)                      \
    X(ze_mem_dditable_t, pfnFreeExt, 1, 3)                                      \
    X(ze_mem_dditable_t, pfnPutIpcHandle, 1, 6)                                 \
    X(ze_mem_dditable_t, pfnGetPitchFor2dImage, 1, 9)                           \
    X(ze_mem_dditable_t, pfnGetIpcHandleWithProperties, 1, 15)                  \
    X(ze_mem_exp_dditable_t, pfnGetIpcHandleFromFileDescriptorExp, 1, 6)        \
    X(ze_mem_exp_dditable_t, pfnGetFileDescriptorFromIpcHandleExp, 1, 6)        \
    X(ze_mem_exp_dditable_t, pfnSetAtomicAccessAttributeExp, 1, 7)              \
    X(ze_mem_exp_dditable_t, pfnGetAtomicAccessAttributeExp, 1, 7)              \
    X(ze_fabric_vertex_exp_dditable_t, pfnGetExp, 1, 4)                         \
    X(ze_fabric_vertex_exp_dditable_t, pfnGetSubVerticesExp, 1, 4)              \
    X(ze_fabric_vertex_exp_dditable_t, pfnGetPropertiesExp, 1, 4)               \
    X(ze_fabric_vertex_exp_dditable_t, pfnGetDeviceExp, 1, 4)                   \
    X(ze_fabric_edge_exp_dditable_t, pfnGetExp, 1, 4)                           \
    X(ze_fabric_edge_exp_dditable_t, pfnGetVerticesExp, 1, 4)                   \
    X(ze_fabric_edge_exp_dditable_t, pfnGetPropertiesExp, 1, 4)                 \
    X(ze_rtas_parallel_operation_exp_dditable_t, pfnCreateExp, 1, 7)            \
    X(ze_rtas_parallel_operation_exp_dditable_t, pfnGetPropertiesExp, 1, 7)     \
    X(ze_rtas_parallel_operation_exp_dditable_t, pfnJoinExp, 1, 7)              \
    X(ze_rtas_parallel_operation_exp_dditable_t, pfnDestroyExp, 1, 7)           \
    X(ze_rtas_builder_exp_dditable_t, pfnCreateExp, 1, 7)                       \
    X(ze_rtas_builder_exp_dditable_t, pfnGetBuildPropertiesExp, 1, 7)           \
    X(ze_rtas_builder_exp_dditable_t, pfnBuildExp, 1, 7)                        \
    X(ze_rtas_builder_exp_dditable_t, pfnDestroyExp, 1, 7)                      \
    X(ze_rtas_builder_dditable_t, pfnCreateExt, 1, 13)                          \
    X(ze_rtas_builder_dditable_t, pfnGetBuildPropertiesExt, 1, 13)              \
    X(ze_rtas_builder_dditable_t, pfnBuildExt, 1, 13)                           \
    X(ze_rtas_builder_dditable_t, pfnCommandListAppendCopyExt, 1, 13)           \
    X(ze_rtas_builder_dditable_t, pfnDestroyExt, 1, 13)                         \
    X(ze_rtas_parallel_operation_dditable_t, pfnCreateExt, 1, 13)               \
    X(ze_rtas_parallel_operation_dditable_t, pfnGetPropertiesExt, 1, 13)        \
    X(ze_rtas_parallel_operation_dditable_t, pfnJoinExt, 1, 13)                 \
    X(ze_rtas_parallel_operation_dditable_t, pfnDestroyExt, 1, 13)              \
    X(zet_debug_dditable_t, pfnGetThreadRegisterSetProperties, 1, 5)            \
    X(zet_metric_group_exp_dditable_t, pfnCalculateMultipleMetricValuesExp, 1, 2) \
    X(zet_metric_group_exp_dditable_t, pfnGetGlobalTimestampsExp, 1, 5)         \
    X(zet_metric_group_exp_dditable_t, pfnGetExportDataExp, 1, 6)               \
    X(zet_metric_group_exp_dditable_t, pfnCalculateMetricExportDataExp, 1, 6)   \
    X(zet_metric_group_exp_dditable_t, pfnCreateExp, 1, 9)                      \
    X(zet_metric_group_exp_dditable_t, pfnAddMetricExp, 1, 9)                   \
    X(zet_metric_group_exp_dditable_t, pfnRemoveMetricExp, 1, 9)                \
    X(zet_metric_group_exp_dditable_t, pfnCloseExp, 1, 9)                       \
    X(zet_metric_group_exp_dditable_t, pfnDestroyExp, 1, 9)                     \
    X(zet_metric_programmable_exp_dditable_t, pfnGetExp, 1, 9)                  \
    X(zet_metric_programmable_exp_dditable_t, pfnGetPropertiesExp, 1, 9)        \
    X(zet_metric_programmable_exp_dditable_t, pfnGetParamInfoExp, 1, 9)         \
    X(zet_metric_programmable_exp_dditable_t, pfnGetParamValueInfoExp, 1, 9)    \
    X(zet_metric_exp_dditable_t, pfnCreateFromProgrammableExp, 1, 9)            \
    X(zet_metric_exp_dditable_t, pfnDestroyExp, 1, 9)                           \
    X(zet_metric_exp_dditable_t, pfnCreateFromProgrammableExp2, 1, 12)          \
    X(zet_metric_tracer_exp_dditable_t, pfnCreateExp, 1, 11)                    \
    X(zet_metric_tracer_exp_dditable_t, pfnDestroyExp, 1, 11)                   \
    X(zet_metric_tracer_exp_dditable_t, pfnEnableExp, 1, 11)                    \
    X(zet_metric_tracer_exp_dditable_t, pfnDisableExp, 1, 11)                   \
    X(zet_metric_tracer_exp_dditable_t, pfnReadDataExp, 1, 11)                  \
    X(zet_metric_tracer_exp_dditable_t, pfnDecodeExp, 1, 11)                    \
    X(zet_metric_decoder_exp_dditable_t, pfnCreateExp, 1, 11)                   \
    X(zet_metric_decoder_exp_dditable_t, pfnDestroyExp, 1, 11)                  \
    X(zet_metric_decoder_exp_dditable_t, pfnGetDecodableMetricsExp, 1, 11)      \
    X(zet_device_exp_dditable_t, pfnGetConcurrentMetricGroupsExp, 1, 11)        \
    X(zet_device_exp_dditable_t, pfnCreateMetricGroupsFromMetricsExp, 1, 11)    \
    X(zet_device_exp_dditable_t, pfnEnableMetricsExp, 1, 13)                    \
    X(zet_device_exp_dditable_t, pfnDisableMetricsExp, 1, 13)                   \
    X(zet_command_list_exp_dditable_t, pfnAppendMarkerExp, 1, 13)               \
    X(zes_global_dditable_t, pfnInit, 1, 5)                                     \
    X(zes_device_dditable_t, pfnGetCardPowerDomain, 1, 3)                       \
    X(zes_device_dditable_t, pfnEccAvailable, 1, 4)                             \
    X(zes_device_dditable_t, pfnEccConfigurable, 1, 4)                          \
    X(zes_device_dditable_t, pfnGetEccState, 1, 4)                              \
    X(zes_device_dditable_t, pfnSetEccState, 1, 4)                              \
    X(zes_device_dditable_t, pfnGet, 1, 5)                                      \
    X(zes_device_dditable_t, pfnSetOverclockWaiver, 1, 5)                       \
    X(zes_device_dditable_t, pfnGetOverclockDomains, 1, 5)                      \
    X(zes_device_dditable_t, pfnGetOverclockControls, 1, 5)                     \
    X(zes_device_dditable_t, pfnResetOverclockSettings, 1, 5)                   \
    X(zes_device_dditable_t, pfnReadOverclockState, 1, 5)                       \
    X(zes_device_dditable_t, pfnEnumOverclockDomains, 1, 5)                     \
    X(zes_device_dditable_t, pfnResetExt, 1, 7)                                 \
    X(zes_device_dditable_t, pfnPciLinkSpeedUpdateExt, 1, 15)                   \
    X(zes_device_dditable_t, pfnGetHealthStatusExt, 1, 18)                      \
    X(zes_device_dditable_t, pfnSetHealthStatusExt, 1, 18)                      \
    X(zes_device_exp_dditable_t, pfnGetSubDevicePropertiesExp, 1, 9)            \
    X(zes_device_exp_dditable_t, pfnEnumActiveVFExp, 1, 9)                      \
    X(zes_device_exp_dditable_t, pfnEnumEnabledVFExp, 1, 10)                    \
    X(zes_driver_dditable_t, pfnEventListenEx, 1, 1)                            \
    X(zes_driver_dditable_t, pfnGet, 1, 5)                                      \
    X(zes_driver_dditable_t, pfnGetExtensionProperties, 1, 8)                   \
    X(zes_driver_dditable_t, pfnGetExtensionFunctionAddress, 1, 8)              \
    X(zes_driver_exp_dditable_t, pfnGetDeviceByUuidExp, 1, 9)                   \
    X(zes_engine_dditable_t, pfnGetActivityExt, 1, 7)                           \
    X(zes_fabric_port_dditable_t, pfnGetFabricErrorCounters, 1, 7)              \
    X(zes_fabric_port_dditable_t, pfnGetMultiPortThroughput, 1, 7)              \
    X(zes_firmware_dditable_t, pfnGetFlashProgress, 1, 8)                       \
    X(zes_firmware_dditable_t, pfnGetConsoleLogs, 1, 9)                         \
    X(zes_firmware_exp_dditable_t, pfnGetSecurityVersionExp, 1, 9)              \
    X(zes_firmware_exp_dditable_t, pfnSetSecurityVersionExp, 1, 9)              \
    X(zes_power_dditable_t, pfnGetLimitsExt, 1, 4)                              \
    X(zes_power_dditable_t, pfnSetLimitsExt, 1, 4)                              \
    X(zes_power_dditable_t, pfnGetUsage, 1, 16)                                 \
    X(zes_power_dditable_t, pfnGetLimitsExt2, 1, 16)                            \
    X(zes_power_dditable_t, pfnSetLimitsExt2, 1, 16)                            \
    X(zes_ras_exp_dditable_t, pfnGetStateExp, 1, 7)                             \
    X(zes_ras_exp_dditable_t, pfnClearStateExp, 1, 7)                           \
    X(zes_ras_exp_dditable_t, pfnGetSupportedCategoriesExp, 1, 16)              \
    X(zes_ras_exp_dditable_t, pfnGetStateExp2, 1, 16)                           \
    X(zes_ras_exp_dditable_t, pfnGetConfigExp, 1, 16)                           \
    X(zes_ras_exp_dditable_t, pfnSetConfigExp, 1, 16)                           \
    X(zes_vf_management_exp_dditable_t, pfnGetVFPropertiesExp, 1, 9)            \
    X(zes_vf_management_exp_dditable_t, pfnGetVFMemoryUtilizationExp, 1, 9)     \
    X(zes_vf_management_exp_dditable_t, pfnGetVFEngineUtilizationExp, 1, 9)     \
    X(zes_vf_management_exp_dditable_t, pfnSetVFTelemetryModeExp, 1, 9)         \
    X(zes_vf_management_exp_dditable_t, pfnSetVFTelemetrySamplingIntervalExp, 1, 9) \
    X(zes_vf_management_exp_dditable_t, pfnGetVFCapabilitiesExp, 1, 10)         \
    X(zes_vf_management_exp_dditable_t, pfnGetVFMemoryUtilizationExp2, 1, 10)   \
    X(zes_vf_management_exp_dditable_t, pfnGetVFEngineUtilizationExp2, 1, 10)   \
    X(zes_vf_management_exp_dditable_t, pfnGetVFCapabilitiesExp2, 1, 12)        \
    X(zes_overclock_dditable_t, pfnGetDomainProperties, 1, 5)                   \
    X(zes_overclock_dditable_t, pfnGetDomainVFProperties, 1, 5)                 \
    X(zes_overclock_dditable_t, pfnGetDomainControlProperties, 1, 5)            \
    X(zes_overclock_dditable_t, pfnGetControlCurrentValue, 1, 5)                \
    X(zes_overclock_dditable_t, pfnGetControlPendingValue, 1, 5)                \
    X(zes_overclock_dditable_t, pfnSetControlUserValue, 1, 5)                   \
    X(zes_overclock_dditable_t, pfnGetControlState, 1, 5)                       \
    X(zes_overclock_dditable_t, pfnGetVFPointValues, 1, 5)                      \
    X(zes_overclock_dditable_t, pfnSetVFPointValues, 1, 5)

/*
 * The function types of newer entries that zeil intercepts or the reference
 * driver implements, each where the installed headers lack it (by the version
 * that introduced it), with the specification's parameter names (the calls
 * log and the hooks use them). The others are known by version and place only: they
 * pass through, whatever their signature.
 */
#if ZEIL_INSTALLED_API_VERSION < ZE_MAKE_VERSION(1, 6)
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListHostSynchronize_t)(
    ze_command_list_handle_t hCommandList,
    uint64_t timeout
    );
#endif

#if ZEIL_INSTALLED_API_VERSION < ZE_MAKE_VERSION(1, 9)
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListGetDeviceHandle_t)(
    ze_command_list_handle_t hCommandList,
    ze_device_handle_t* phDevice
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListGetContextHandle_t)(
    ze_command_list_handle_t hCommandList,
    ze_context_handle_t* phContext
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListGetOrdinal_t)(
    ze_command_list_handle_t hCommandList,
    uint32_t* pOrdinal
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListImmediateGetIndex_t)(
    ze_command_list_handle_t hCommandListImmediate,
    uint32_t* pIndex
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListIsImmediate_t)(
    ze_command_list_handle_t hCommandList,
    ze_bool_t* pIsImmediate
    );
typedef ze_result_t (ZE_APICALL *ze_pfnEventGetEventPool_t)(
    ze_event_handle_t hEvent,
    ze_event_pool_handle_t* phEventPool
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListImmediateAppendCommandListsExp_t)(
    ze_command_list_handle_t hCommandListImmediate,
    uint32_t numCommandLists,
    ze_command_list_handle_t* phCommandLists,
    ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents
    );
#endif

#if ZEIL_INSTALLED_API_VERSION < ZE_MAKE_VERSION(1, 10)
typedef uint32_t ze_init_driver_type_flags_t;
#define ZE_INIT_DRIVER_TYPE_FLAG_GPU ZE_BIT(0)
#define ZE_INIT_DRIVER_TYPE_FLAG_NPU ZE_BIT(1)
#define ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC ((ze_structure_type_t)0x00020021)
typedef struct _ze_init_driver_type_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    ze_init_driver_type_flags_t flags;
} ze_init_driver_type_desc_t;
typedef ze_result_t (ZE_APICALL *ze_pfnInitDrivers_t)(
    uint32_t* pCount,
    ze_driver_handle_t* phDrivers,
    ze_init_driver_type_desc_t* desc
    );
#endif

/* OpenCL C source as a module format: pInputModule is the source text,
 * pBuildFlags the OpenCL build options. Not in the public headers; Intel's
 * driver takes it with this value and oneDNN builds its kernels this way. */
#define ZEIL_MODULE_FORMAT_OCLC ((ze_module_format_t)3)

/* The driver DDI handles extension (chained to zeDriverGetProperties): a
 * driver that sets the flag makes newer loaders dispatch through tables
 * inside its handles, past zeil. zeil's own names, whatever the headers. */
#define ZEIL_COMPAT_STYPE_DRIVER_DDI_HANDLES_EXT_PROPERTIES ((ze_structure_type_t)0x00020027)
#define ZEIL_COMPAT_DRIVER_DDI_HANDLE_EXT_FLAG_SUPPORTED ZE_BIT(0)
typedef struct zeil_compat_driver_ddi_handles_ext_properties {
    ze_structure_type_t stype;
    void *pNext;
    uint32_t flags;
} zeil_compat_driver_ddi_handles_ext_properties_t;

#if ZEIL_INSTALLED_API_VERSION < ZE_MAKE_VERSION(1, 14)
typedef struct _ze_group_size_t {
    uint32_t groupSizeX;
    uint32_t groupSizeY;
    uint32_t groupSizeZ;
} ze_group_size_t;
typedef ze_result_t (ZE_APICALL *ze_pfnDeviceSynchronize_t)(
    ze_device_handle_t hDevice
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListAppendLaunchKernelWithParameters_t)(
    ze_command_list_handle_t hCommandList,
    ze_kernel_handle_t hKernel,
    const ze_group_count_t* pGroupCounts,
    const void* pNext,
    ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListAppendLaunchKernelWithArguments_t)(
    ze_command_list_handle_t hCommandList,
    ze_kernel_handle_t hKernel,
    const ze_group_count_t groupCounts,
    const ze_group_size_t groupSizes,
    void** pArguments,
    const void* pNext,
    ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents
    );
#endif

#if ZEIL_INSTALLED_API_VERSION < ZE_MAKE_VERSION(1, 15)
typedef uint32_t ze_event_counter_based_flags_t;
typedef struct _ze_event_counter_based_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    ze_event_counter_based_flags_t flags;
    ze_event_scope_flags_t signal;
    ze_event_scope_flags_t wait;
} ze_event_counter_based_desc_t;
typedef ze_result_t (ZE_APICALL *ze_pfnEventCounterBasedCreate_t)(
    ze_context_handle_t hContext,
    ze_device_handle_t hDevice,
    const ze_event_counter_based_desc_t* desc,
    ze_event_handle_t* phEvent
    );
#endif

#if ZEIL_INSTALLED_API_VERSION < ZE_MAKE_VERSION(1, 16)
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListAppendMemoryCopyWithParameters_t)(
    ze_command_list_handle_t hCommandList,
    void* dstptr,
    const void* srcptr,
    size_t size,
    const void* pNext,
    ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListAppendMemoryFillWithParameters_t)(
    ze_command_list_handle_t hCommandList,
    void* ptr,
    const void* pattern,
    size_t patternSize,
    size_t size,
    const void* pNext,
    ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListImmediateAppendCommandListsWithParameters_t)(
    ze_command_list_handle_t hCommandListImmediate,
    uint32_t numCommandLists,
    ze_command_list_handle_t* phCommandLists,
    const void* pNext,
    ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents
    );
#endif

#if ZEIL_INSTALLED_API_VERSION < ZE_MAKE_VERSION(1, 17)
typedef void (ZE_APICALL *ze_host_function_callback_t)(void *pUserData);
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListGetFlags_t)(
    ze_command_list_handle_t hCommandList,
    ze_command_list_flags_t* pFlags
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListImmediateGetFlags_t)(
    ze_command_list_handle_t hCommandListImmediate,
    ze_command_queue_flags_t* pFlags
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListImmediateGetMode_t)(
    ze_command_list_handle_t hCommandListImmediate,
    ze_command_queue_mode_t* pMode
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListImmediateGetPriority_t)(
    ze_command_list_handle_t hCommandListImmediate,
    ze_command_queue_priority_t* pPriority
    );
typedef ze_result_t (ZE_APICALL *ze_pfnCommandListAppendHostFunction_t)(
    ze_command_list_handle_t hCommandList,
    ze_host_function_callback_t pHostFunction,
    void* pUserData,
    const void* pNext,
    ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents,
    ze_event_handle_t* phWaitEvents
    );
#endif

#endif
/* clang-format on */
