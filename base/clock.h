/* base/: the one clock of glance. Every deadline and every timing, in C and
 * in render/'s C++, is read off this clock, so deadlines set in one folder
 * compare with times read in another by contract. */
#ifndef GLANCE_BASE_CLOCK_H
#define GLANCE_BASE_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Monotonic milliseconds (CLOCK_MONOTONIC): never steps back, counts from
 * an unspecified origin; only differences mean anything. */
double base_now_ms(void);

#ifdef __cplusplus
}
#endif

#endif
