// collworld's arithmetic: every operation rounded on its own, never fused into one (an FMA). The
// exact tests' tolerances and the same bytes from every path (a list of moves and the same moves
// one at a time, a swept pair and its shape cast) rest on it. GCC fuses by default in its GNU
// dialects on targets with FMA (-march=haswell, AArch64), Clang within expressions: an engine that
// builds the single file with its own flags would get other answers. Not part of the public API.
#ifndef CW_FP_H
#define CW_FP_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#else
#pragma STDC FP_CONTRACT OFF
#endif

#endif
