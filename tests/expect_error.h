// Expectations on cw_last_error(), shared by the tests that check exact errors (test_errors.c, the
// world and query tests): the last call failed with a one-line message mentioning a word, or no error
// is recorded.
#ifndef CW_TEST_EXPECT_ERROR_H
#define CW_TEST_EXPECT_ERROR_H

// Asserts that the last call failed with a non-empty one-line message containing `word`
// (case-insensitive; any message where `word` is NULL).
#define expect_error(word) expect_error_at((word), __FILE__, __LINE__)
void expect_error_at(const char *word, const char *file, int line);

// Asserts that cw_last_error() is the empty string.
#define expect_no_error() expect_no_error_at(__FILE__, __LINE__)
void expect_no_error_at(const char *file, int line);

#endif
