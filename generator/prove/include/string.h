#ifndef RS_PROVE_STRING_H
#define RS_PROVE_STRING_H
#include <stddef.h>
#endif
