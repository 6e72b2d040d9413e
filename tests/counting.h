// A counting allocator over malloc/free for the allocator hook, which can fail one chosen
// allocation: what the library asked for, freed and still holds.
#ifndef CW_TEST_COUNTING_H
#define CW_TEST_COUNTING_H

typedef struct counter {
    long allocs, frees, failed;
    long live_bytes;
    long peak_bytes;  // the most live_bytes has been since counter_install() or the caller reset it
    long armed_calls; // allocation calls since counter_arm()
    long fail_at;     // the armed call with this 1-based number fails; 0 = none
    long zero_sized;  // requests for 0 bytes (an allocator may answer them with NULL)
} counter;

// Zeroes the counts and installs the counter as the library's allocator.
void counter_install(counter *c);

// Makes allocation number `k` from now on fail (k = 0: none).
void counter_arm(counter *c, long k);

// Every allocation was freed with its size, and none asked for 0 bytes (cmocka assertions).
void counter_expect_no_leak(const counter *c);

// cmocka teardown: back to malloc/free for the rest of the suite, even after a failed test.
int counter_restore_default(void **state);

#endif
