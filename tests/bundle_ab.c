/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Two bundles generated with only different prefixes, in one translation unit
 * (tests/e2e_bundle.py): out/x86_64's bundle under a_ and out/portable's under b_. Both
 * roundsmith.h are included here, so no header guard, macro or type of one may meet the
 * other's; both self-tests must pass and both must compute the same digests.
 */
#include <stdio.h>
#include <string.h>

#include "a/roundsmith.h"
#include "b/roundsmith.h"

int main(void)
{
    static uint8_t msg[20000];
    uint8_t da[32], db[32], key[32] = {7};
    uint8_t ka[256], kb[256];
    struct a_chacha8_ctx xa;
    struct b_chacha8_ctx xb;
    int sa = a_selftest(), sb = b_selftest();
    size_t i;
    int bad = 0;

    for (i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 13 + 1);
    a_sha3_256(da, msg, sizeof msg);
    b_sha3_256(db, msg, sizeof msg);
    bad |= memcmp(da, db, 32);
    a_kt128(da, 32, msg, sizeof msg, NULL, 0);
    b_kt128(db, 32, msg, sizeof msg, NULL, 0);
    bad |= memcmp(da, db, 32);
    a_chacha8_keysetup(&xa, key, 256, NULL);
    b_chacha8_keysetup(&xb, key, 256, NULL);
    a_chacha8_get_keystream(&xa, 3, 4, ka);
    b_chacha8_get_keystream(&xb, 3, 4, kb);
    bad |= memcmp(ka, kb, sizeof ka);
    printf("a_selftest=%d (%s, path %s, mb4 %d of %d options) b_selftest=%d (%s, path %s) "
           "digests %s\n",
           sa, a_selftest_name(sa), a_path_name(), a_choice(A_DECISION_MB4), A_OPTIONS_MAX, sb,
           b_selftest_name(sb), b_path_name(), bad ? "DIFFER" : "same");
    return sa != A_SELFTEST_OK || sb != B_SELFTEST_OK || bad != 0;
}
