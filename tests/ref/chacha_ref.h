/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The plain scalar ChaCha the generated kernels are measured and checked against. */
#ifndef RS_REF_CHACHA_H
#define RS_REF_CHACHA_H

#include <stdint.h>

void rs_ref_chacha_keysetup(uint32_t input[16], const uint8_t *k, uint32_t kbits,
                            const uint8_t *iv);
void rs_ref_chacha_keystream(const uint32_t input[16], unsigned rounds, uint64_t pos,
                             uint32_t n_blocks, uint8_t *c);

#endif
