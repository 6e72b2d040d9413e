// Expectations on cw_last_error(), shared by the tests that check exact errors (test_errors.c, the
// world, query, sheet, swept and touching tests): the last call failed with a one-line message mentioning a word, or no error
// is recorded.
#ifndef CW_TEST_EXPECT_ERROR_H
#define CW_TEST_EXPECT_ERROR_H

#include <collworld.h>

// Asserts that the last call failed with a non-empty one-line message containing `word`
// (case-insensitive; any message where `word` is NULL).
#define expect_error(word) expect_error_at((word), __FILE__, __LINE__)
void expect_error_at(const char *word, const char *file, int line);

// As expect_error, then clears the error, so that the next expectation sees only what comes after.
#define expect_and_clear_error(word) (expect_error_at((word), __FILE__, __LINE__), cw_clear_error())

// Asserts that cw_last_error() is the empty string.
#define expect_no_error() expect_no_error_at(__FILE__, __LINE__)
void expect_no_error_at(const char *file, int line);

#endif
