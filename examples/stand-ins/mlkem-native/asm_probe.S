/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * STAND-IN for the assembly files of mlkem-native (mlkem_native_asm.S and the backends' .S
 * files), which include common.h and with it the FIPS-202 backend file under __ASSEMBLER__:
 * assembled by `ninja test` to show that the backend file reads as assembly too.
 */
#include "common.h"
#if !defined(MLK_USE_NATIVE_FIPS202_X4)
#error the backend file did not set MLK_USE_NATIVE_FIPS202_X4
#endif
