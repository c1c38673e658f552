/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * STAND-IN for mlkem-native's mlkem/src/common.h, written from its documented configuration
 * (mlkem_native_config.h: MLK_CONFIG_USE_NATIVE_BACKEND_FIPS202, MLK_CONFIG_FIPS202_BACKEND_FILE):
 * only what a FIPS-202 backend meets. mlkem-native includes this header from its C files and
 * from its assembly files alike, so a backend file is read under __ASSEMBLER__ too.
 */
#ifndef RS_STANDIN_MLK_COMMON_H
#define RS_STANDIN_MLK_COMMON_H

#if !defined(__ASSEMBLER__)
#include <stdint.h>
#define MLK_INLINE inline
#endif

#if defined(MLK_CONFIG_USE_NATIVE_BACKEND_FIPS202)
#if !defined(MLK_CONFIG_FIPS202_BACKEND_FILE)
#error Bad configuration: MLK_CONFIG_USE_NATIVE_BACKEND_FIPS202 is set, but MLK_CONFIG_FIPS202_BACKEND_FILE is not.
#endif
#include MLK_CONFIG_FIPS202_BACKEND_FILE
#endif

#endif
