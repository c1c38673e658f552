/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Stand-in for the MSVC C runtime's <setjmp.h> (not installed on Linux): clang's own
 * <intrin.h> includes it for Windows targets; the generated sources use nothing from it. */
#ifndef RS_MSVC_STUB_SETJMP_H
#define RS_MSVC_STUB_SETJMP_H
typedef int jmp_buf[16];
#endif
