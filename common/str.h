/* str.h — turn a macro's value into a string literal, for labels built at
 * compile time (a step's CSV variant from its tile macros, e.g.
 * STR(BM) "x" STR(BN) -> "128x256").  Two levels, so that the argument is
 * expanded first: STR_(BM) would give "BM". */
#ifndef COMMON_STR_H
#define COMMON_STR_H

#define STR_(x) #x
#define STR(x) STR_(x)

#endif
