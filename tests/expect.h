/* expect.h — small helpers shared by the CPU suites. */
#ifndef TESTS_EXPECT_H
#define TESTS_EXPECT_H

#include <check.h>

/* Hot loops: a passing ck_assert may cost a round trip to the runner, so the
 * inner loops test with a plain `if` and abort with the failing case. */
#define EXPECT(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

#define NELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
