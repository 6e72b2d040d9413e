# collworld build. `make` builds the libraries; `make test` runs everything a change must pass.
CC      ?= cc
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT     ?= -O3 -g
CFLAGS  += $(WARN) $(OPT) -Iinclude -fPIC
LDLIBS  += -lm

BUILD   := build
LIB_SRC := $(wildcard narrow/*.c broad/*.c world/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/*.c)
BENCH_SRC := $(wildcard bench/*.c)

ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all test unit asan valgrind bench demo example clean deps
all: libcollworld.a libcollworld.so

libcollworld.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

libcollworld.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libcollworld.so.0 -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c include/collworld.h $(wildcard narrow/*.h broad/*.h world/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# --- dependencies: installed from Debian when we are root, else the exact command is printed ---
CMOCKA_OK := $(shell printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <cmocka.h>\n' | $(CC) -E - >/dev/null 2>&1 && echo yes)
deps:
ifneq ($(CMOCKA_OK),yes)
	@if [ "$$(id -u)" = 0 ]; then \
	    echo "installing libcmocka-dev"; \
	    (apt-get install -y -qq libcmocka-dev >/dev/null 2>&1 || \
	     (apt-get update -qq && apt-get install -y -qq libcmocka-dev)) ; \
	else \
	    echo "cmocka is missing: run 'sudo apt-get install libcmocka-dev'"; exit 1; \
	fi
endif

# --- tests: the plain build, then the same suite under AddressSanitizer + UBSan ---
$(BUILD)/test_collworld: $(TEST_SRC) $(wildcard tests/*.h) libcollworld.a | deps
	$(CC) $(CFLAGS) -o $@ $(TEST_SRC) libcollworld.a -lcmocka $(LDLIBS)

$(BUILD)/asan/test_collworld: $(TEST_SRC) $(wildcard tests/*.h) $(LIB_SRC) $(wildcard narrow/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -g $(ASAN_FLAGS) -Iinclude -o $@ $(TEST_SRC) $(LIB_SRC) -lcmocka $(LDLIBS)

unit: $(BUILD)/test_collworld
	./$(BUILD)/test_collworld

asan: $(BUILD)/asan/test_collworld
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ./$(BUILD)/asan/test_collworld

# valgrind memcheck on a lighter run of the same suite (CW_TEST_SCALE divides the random case counts)
valgrind: $(BUILD)/test_collworld
	CW_TEST_SCALE=20 valgrind -q --error-exitcode=3 --leak-check=full --errors-for-leak-kinds=definite \
	    ./$(BUILD)/test_collworld

# The README's example, run so that it cannot go stale.
$(BUILD)/readme_example: demo/readme_example.c libcollworld.a
	$(CC) $(CFLAGS) -o $@ $< libcollworld.a $(LDLIBS)

example: $(BUILD)/readme_example
	./$(BUILD)/readme_example

test: unit asan example demo

# --- the demo: a terminal demo for now (no display needed); the SDL2 demo is the next milestone ---
$(BUILD)/ascii_demo: demo/ascii_demo.c libcollworld.a
	$(CC) $(CFLAGS) -o $@ $< libcollworld.a $(LDLIBS)

demo: $(BUILD)/ascii_demo
	./$(BUILD)/ascii_demo

# --- benchmarks: never part of the tests; numbers go into README.md by hand ---
$(BUILD)/bench_narrow: $(BENCH_SRC) $(wildcard bench/*.h) libcollworld.a
	$(CC) $(CFLAGS) -o $@ $(BENCH_SRC) libcollworld.a $(LDLIBS)

bench: $(BUILD)/bench_narrow
	./$(BUILD)/bench_narrow

clean:
	rm -rf $(BUILD) libcollworld.a libcollworld.so
