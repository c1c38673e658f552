/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Three copies of the x86-64 bundle in one program (tests/e2e_bundle.py): two folders under
 * the prefixes rsa_ and rsb_, and one amalgamation under rsc_. Each must compute the same
 * digests as the others, through its own dispatch; the link itself is the prefix test.
 */
#include <stdio.h>
#include <string.h>

#include "rsa/chacha8.h"
#include "rsa/keccak_sponge.h"
#include "rsa/rs_dispatch.h"
#include "rsb/chacha8.h"
#include "rsb/keccak_sponge.h"
#include "rsb/rs_dispatch.h"
#include "rsc/roundsmith.h"

int main(void)
{
    static uint8_t msg[100000];
    uint8_t a[32], b[32], c[32], key[32] = {1};
    uint8_t ka[256], kb[256], kc[256];
    struct rsa_chacha8_ctx xa;
    struct rsb_chacha8_ctx xb;
    struct rsc_chacha8_ctx xc;
    size_t i;
    int bad = 0;

    for (i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7);
    rsa_sha3_256(a, msg, sizeof msg);
    rsb_sha3_256(b, msg, sizeof msg);
    rsc_sha3_256(c, msg, sizeof msg);
    bad |= memcmp(a, b, 32) | memcmp(a, c, 32);
    rsa_kt128(a, 32, msg, sizeof msg, NULL, 0);
    rsb_kt128(b, 32, msg, sizeof msg, NULL, 0);
    rsc_kt128(c, 32, msg, sizeof msg, NULL, 0);
    bad |= memcmp(a, b, 32) | memcmp(a, c, 32);
    rsa_chacha8_keysetup(&xa, key, 256, NULL);
    rsb_chacha8_keysetup(&xb, key, 256, NULL);
    rsc_chacha8_keysetup(&xc, key, 256, NULL);
    rsa_chacha8_get_keystream(&xa, 5, 4, ka);
    rsb_chacha8_get_keystream(&xb, 5, 4, kb);
    rsc_chacha8_get_keystream(&xc, 5, 4, kc);
    bad |= memcmp(ka, kb, sizeof ka) | memcmp(ka, kc, sizeof ka);
    printf("rsa %s, rsb %s, rsc %s: %s\n", rsa_path_name(), rsb_path_name(),
           rsc_path_name(), bad ? "DIFFER" : "same");
    return bad != 0;
}
