/*
 * The driver's extensions and its GPU mode: what a runtime written for Intel
 * GPUs (oneDNN 3.x's Level Zero runtime) asks of a device before it uses it.
 *
 * ZEIL_CPU_AS_GPU=1 presents the devices as GPUs (type GPU, vendor 0x8086),
 * so that programs which look only for GPUs take them; off by default, the
 * driver says it drives a CPU. The extensions below are answered in both
 * modes.
 */
#ifndef ZEIL_RD_EXTENSIONS_H
#define ZEIL_RD_EXTENSIONS_H

#include "rd_driver.h"

/* Structure types of extensions newer than the installed headers (their
 * values are the specification's). */
#define RD_STYPE_DEVICE_IP_VERSION_EXT ((ze_structure_type_t)0x0001000f)
#define RD_STYPE_INTEL_DEVICE_MODULE_DP_EXP_PROPERTIES ((ze_structure_type_t)0x00030013)

/* The IP version the devices report (ze_device_ip_version_ext_t):
 * architecture 1 in bits 31..22, which no Intel GPU has, so that a runtime
 * decoding it finds an unknown architecture and never chooses kernels
 * written in a GPU's own instruction set. */
#define RD_DEVICE_IP_VERSION (1u << 22)

/* The vendor a GPU-mode device reports (PCI vendor of Intel). */
#define RD_GPU_VENDOR_ID 0x8086u

/* 1 when ZEIL_CPU_AS_GPU=1 (read once, at the first question). */
int rd_as_gpu(void);

/* The extension structures chained to zeDeviceGetProperties'
 * (ze_device_ip_version_ext_t, ze_eu_count_ext_t) filled; any other left
 * as it is. */
void rd_device_properties_chain(const rd_device_t *dev, ze_device_properties_t *p);

/* The same for zeDeviceGetModuleProperties' chain
 * (ze_float_atomic_ext_properties_t, Intel's DPAS properties). */
void rd_module_properties_chain(const rd_device_t *dev, ze_device_module_properties_t *p);

/* zeDriverGetExtensionProperties and zeDriverGetExtensionFunctionAddress
 * once the driver handle is checked. */
ze_result_t rd_driver_extension_properties(uint32_t *pCount,
                                           ze_driver_extension_properties_t *props);
ze_result_t rd_driver_extension_function(const char *name, void **ppFunctionAddress);

#endif
