/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The prover's stand-in: types only (the interpreter gives them their widths). */
#ifndef RS_PROVE_STDINT_H
#define RS_PROVE_STDINT_H
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
typedef unsigned long long uintptr_t;
typedef long long intptr_t;
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615ULL
#define SIZE_MAX 18446744073709551615ULL
#define INT32_MAX 2147483647
#define UINT64_C(x) x##ULL
#define UINT32_C(x) x##U
#endif
