/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A project using a bundle the way docs/vendoring.md says: one header, the
 * self-test at start-up, then the API. Built by every build-system test (CMake, Meson,
 * pkg-config) and by the self-test runs of tests/e2e_vendor.py. Prints one line:
 *   path=<path> selftest=<code> (<name>)[ sha3_256=<hex of "abc">][ chacha=<level>]
 * and exits with status 1 when the self-test fails.
 */
#include <stdio.h>

#include "roundsmith.h"

int main(void)
{
    int code = rs_selftest();
    printf("path=%s selftest=%d (%s)", rs_path_name(), code, rs_selftest_name(code));
#ifndef RS_CONSUMER_NO_KECCAK
    {
        uint8_t d[32];
        int i;
        sha3_256(d, (const uint8_t *)"abc", 3);
        printf(" sha3_256=");
        for (i = 0; i < 32; i++)
            printf("%02x", d[i]);
    }
#endif
#ifndef RS_CONSUMER_NO_CHACHA
    printf(" chacha=%s", chacha_level());
#endif
    printf("\n");
    return code != 0;
}
