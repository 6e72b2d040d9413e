// Expectations on cw_last_error() (see expect_error.h).
#include <stdio.h>
#include <string.h>

#include "expect_error.h"
#include "gen.h"
#include "suites.h"

void expect_error_at(const char *word, const char *file, int line)
{
    const char *e = cw_last_error();
    if (e == NULL || e[0] == '\0' || strchr(e, '\n') != NULL || (word != NULL && !gen_contains_nocase(e, word))) {
        printf("  %s:%d: expected an error message%s%s, got \"%s\"\n", file, line, word ? " mentioning " : "",
               word ? word : "", e ? e : "(NULL)");
        fail_msg("missing or unexpected error message");
    }
}

void expect_no_error_at(const char *file, int line)
{
    const char *e = cw_last_error();
    if (e == NULL || e[0] != '\0') {
        printf("  %s:%d: expected no error, got \"%s\"\n", file, line, e ? e : "(NULL)");
        fail_msg("unexpected error");
    }
}
