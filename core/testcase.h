/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * testcase.h - branch-coverage discipline, after SQLite's testcase(),
 * NEVER() and ALWAYS().
 *
 *   testcase(X)  X is a boundary the tests must reach: in a coverage
 *                build it becomes a branch of its own, so lcov reports
 *                the boundary as untaken until some test makes X true.
 *   NEVER(X)     X cannot be true; the code still handles it (defensive).
 *   ALWAYS(X)    X cannot be false; likewise.
 *
 * A coverage build (COVERAGE=1 defines PMUSIM_COVERAGE) folds NEVER() to 0
 * and ALWAYS() to 1, so a branch that no input can take does not count
 * against the figures; every other build evaluates X and keeps the
 * defensive path. Each use needs a comment saying why X cannot happen.
 */
#ifndef PMUSIM_CORE_TESTCASE_H
#define PMUSIM_CORE_TESTCASE_H

#ifdef PMUSIM_COVERAGE
#define testcase(X)	do { if (X) __asm__ volatile(""); } while (0)
#define NEVER(X)	((void)sizeof(X), 0)
#define ALWAYS(X)	((void)sizeof(X), 1)
#else
#define testcase(X)	do { } while (0)
#define NEVER(X)	__builtin_expect(!!(X), 0)
#define ALWAYS(X)	__builtin_expect(!!(X), 1)
#endif

#endif /* PMUSIM_CORE_TESTCASE_H */
