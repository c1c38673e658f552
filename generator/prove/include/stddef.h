/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef RS_PROVE_STDDEF_H
#define RS_PROVE_STDDEF_H
typedef unsigned long long size_t;
typedef long long ptrdiff_t;
#define NULL ((void *)0)
#endif
