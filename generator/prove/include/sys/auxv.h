/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef RS_PROVE_AUXV_H
#define RS_PROVE_AUXV_H
#define AT_HWCAP 16
#define AT_HWCAP2 26
#endif
