/* SPDX-License-Identifier: Apache-2.0 OR MIT */
#ifndef RS_PROVE_STDLIB_H
#define RS_PROVE_STDLIB_H
#include <stddef.h>
#endif
