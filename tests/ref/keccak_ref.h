/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef RS_KECCAK_REF_H
#define RS_KECCAK_REF_H
#include <stdint.h>
/* The last `rounds` rounds of Keccak-f[1600], written plainly; the benchmarks' yardstick. */
void keccak_ref_p1600(uint64_t a[25], unsigned rounds);
#endif
