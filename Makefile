# collworld build. `make` builds the libraries; `make test` runs everything a change must pass.
CC      ?= cc
WARN    := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
OPT     ?= -O3 -g
comma   := ,
# Skylake-family x86 CPUs (this machine's Xeon among them) run a jump that crosses or ends on a
# 32-byte boundary on a slower path since the microcode fix for their JCC erratum, so a hot loop's
# speed moved by 5-7% with where an unrelated change happened to put it. The assembler pads such
# jumps away (GNU as, or Clang's own assembler, on x86-64; where the compiler refuses both spellings
# of the option, nothing is added).
accepts_flag = $(shell printf 'int f(void);\nint f(void) { return 0; }\n' | \
                 $(CC) -Werror -x c -c -o /dev/null $(1) - 2>/dev/null && echo $(1))
ALIGN_JUMPS := $(or $(call accepts_flag,-Wa$(comma)-mbranches-within-32B-boundaries),$(call accepts_flag,-mbranches-within-32B-boundaries))
OPT     += $(ALIGN_JUMPS)
CFLAGS  += $(WARN) $(OPT) -Iinclude -fPIC -pthread
LDLIBS  += -lm -pthread

BUILD   := build
# Library objects export only what include/collworld.h marks CW_API.
LIB_CFLAGS := -fvisibility=hidden
# The version comes from the header, the single place it is written.
VERSION := $(shell sed -n 's/^\#define CW_VERSION_STRING "\(.*\)"/\1/p' include/collworld.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libcollworld.so.$(SOMAJOR)
LIB_SRC := $(wildcard narrow/*.c broad/*.c world/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(wildcard tests/*.c)
BENCH_MAINS := $(wildcard bench/bench_*.c)
BENCH_SHARED := $(filter-out $(BENCH_MAINS),$(wildcard bench/*.c))
BENCH_BINS := $(BENCH_MAINS:bench/%.c=$(BUILD)/%)

ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: FORCE install uninstall check-exports check-install check-cxx check-cmake amalgamate check-amalgamation check-portability
.PHONY: check-m32
.PHONY: fuzz fuzz-build deps-fuzz docs
.PHONY: all test unit soak asan tsan valgrind valgrind-suite lua-valgrind bench demo demo-art demo-headless demo-selftest example clean deps deps-lib deps-demo
.PHONY: deps-bench bench-check lua lua-test lua-oom lua-valgrind install-lua uninstall-lua deps-lua deps-lua-dev
all: libcollworld.a libcollworld.so

libcollworld.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

libcollworld.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c include/collworld.h $(wildcard narrow/*.h broad/*.h world/*.h) | deps-lib
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) -c $< -o $@

# --- dependencies: installed from Debian when we are root, else the exact command is printed ---
# (flock: under make -j several rules may install at once, and dpkg takes one at a time)
have_header = $(shell printf '#include <stdarg.h>\n#include <stddef.h>\n#include <setjmp.h>\n#include <stdint.h>\n#include <$(1)>\n' | $(CC) -E - >/dev/null 2>&1 && echo yes)
MISSING_TEST_PKGS := $(if $(call have_header,cmocka.h),,libcmocka-dev)

define install_packages
	@if [ -n "$(strip $(1))" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "installing $(strip $(1))"; \
	        flock /tmp/collworld-apt.lock sh -c 'apt-get install -y -qq $(1) >/dev/null 2>&1 || \
	            (apt-get update -qq && apt-get install -y -qq $(1))'; \
	    else \
	        echo "missing Debian packages: run 'sudo apt-get install $(strip $(1))'"; exit 1; \
	    fi; \
	fi
endef

MISSING_LIB_PKGS := $(if $(call have_header,uthash.h),,uthash-dev)

deps-lib: # uthash (a header) for the sprite sheets' names; beyond it, the C library and libm
	$(call install_packages,$(MISSING_LIB_PKGS))

deps: deps-lib
	$(call install_packages,$(MISSING_TEST_PKGS))

# --- tests: the plain build, then the same suite under AddressSanitizer + UBSan ---
$(BUILD)/test_collworld: $(TEST_SRC) $(wildcard tests/*.h) libcollworld.a | deps
	$(CC) $(CFLAGS) -o $@ $(TEST_SRC) libcollworld.a -lcmocka $(LDLIBS)

$(BUILD)/asan/test_collworld: $(TEST_SRC) $(wildcard tests/*.h) $(LIB_SRC) $(wildcard narrow/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -g $(ASAN_FLAGS) -DCW_NO_AVX2_CLONE -Iinclude -o $@ $(TEST_SRC) $(LIB_SRC) -lcmocka $(LDLIBS)

$(BUILD)/tsan/test_collworld: $(TEST_SRC) $(wildcard tests/*.h) $(LIB_SRC) $(wildcard narrow/*.h world/*.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 -g -fsanitize=thread -pthread -Iinclude -o $@ $(TEST_SRC) $(LIB_SRC) -lcmocka $(LDLIBS)

unit: $(BUILD)/test_collworld
	./$(BUILD)/test_collworld

# ThreadSanitizer on the threaded tests: the world's own threads, the task systems, concurrent
# queries, a second thread stepping or changing a busy world; and the moves, whose long lists run on
# the workers.
tsan: $(BUILD)/tsan/test_collworld
	CW_TEST_GROUP=threads CW_TEST_SCALE=2 TSAN_OPTIONS=halt_on_error=1 ./$(BUILD)/tsan/test_collworld
	CW_TEST_GROUP=moves CW_TEST_SCALE=2 TSAN_OPTIONS=halt_on_error=1 ./$(BUILD)/tsan/test_collworld

# Under the sanitizers at a third of the random case counts (every test, every kind of case; CI's time),
# built without the AVX2 copies of the hottest loops (CW_NO_AVX2_CLONE), so their baseline copies run too;
# the manifolds' quality test again at full size, as a scaled-down run asserts no percentiles.
asan: $(BUILD)/asan/test_collworld
	CW_TEST_SCALE=3 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ./$(BUILD)/asan/test_collworld
	CW_TEST_GROUP=minimum ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 ./$(BUILD)/asan/test_collworld

# valgrind memcheck on a lighter run of the same suite (CW_TEST_SCALE divides the random case counts)
# and on the Lua tests. `make valgrind-suite SHARD=k/n` runs the suite's k-th of n shares of its
# groups (CW_TEST_SHARD): CI runs its two halves on the two cores.
SHARD ?= 0/1
valgrind: valgrind-suite
	@$(MAKE) --no-print-directory lua-valgrind

valgrind-suite: $(BUILD)/test_collworld
	CW_TEST_SHARD=$(SHARD) CW_TEST_SCALE=40 valgrind -q --error-exitcode=3 --leak-check=full \
	    --errors-for-leak-kinds=definite ./$(BUILD)/test_collworld

# The README's examples, run so that they cannot go stale.
$(BUILD)/readme_%: demo/readme_%.c libcollworld.a
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) -o $@ $< libcollworld.a $(LDLIBS)

example: $(BUILD)/readme_example $(BUILD)/readme_placed $(BUILD)/readme_world $(BUILD)/readme_swept $(BUILD)/readme_touch \
         $(BUILD)/readme_sheet
	./$(BUILD)/readme_example
	./$(BUILD)/readme_placed
	./$(BUILD)/readme_world
	./$(BUILD)/readme_swept
	./$(BUILD)/readme_touch
	./$(BUILD)/readme_sheet

test: unit asan tsan example lua-test lua-oom demo-headless demo-selftest

# --- the Lua module: require "collworld" for Lua 5.4 and LuaJIT (Lua 5.1, what LOVE uses) ---
# One module per Lua: build/lua5.4/collworld.so and build/luajit/collworld.so, each with the
# library linked in (only luaopen_collworld is exported). Recursive (=): read after deps-lua-dev.
LUA_SRC := $(wildcard lua/*.c)
LUA_FLAVOURS := lua5.4 luajit
LUA_MODULES := $(LUA_FLAVOURS:%=$(BUILD)/%/collworld.so)
# Building a module needs only the headers; the tests also need the interpreters.
MISSING_LUA_DEV_PKGS = $(if $(call have_pkg,lua5.4),,liblua5.4-dev) $(if $(call have_pkg,luajit),,libluajit-5.1-dev)
MISSING_LUA_RUN_PKGS = $(if $(shell command -v lua5.4),,lua5.4) $(if $(shell command -v luajit),,luajit)
LUA_TESTS := $(sort $(wildcard tests/lua/test_*.lua))

deps-lua-dev:
	$(call install_packages,$(if $(shell command -v pkg-config),,pkg-config))
	$(call install_packages,$(strip $(MISSING_LUA_DEV_PKGS)))

deps-lua: deps-lua-dev
	$(call install_packages,$(strip $(MISSING_LUA_RUN_PKGS)))

$(BUILD)/%/collworld.so: $(LUA_SRC) lua/lcw.h include/collworld.h libcollworld.a | deps-lua-dev
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) -fPIC -fvisibility=hidden -shared -Wl,--exclude-libs,ALL -Iinclude $$(pkg-config --cflags $*) \
	    -o $@ $(LUA_SRC) libcollworld.a $(LDLIBS)

lua: $(LUA_MODULES) | deps-lua

# Every Lua test script under both interpreters, and the README's Lua example.
lua-test: $(LUA_MODULES) | deps-lua
	@for lua in $(LUA_FLAVOURS); do \
	    for t in $(LUA_TESTS) demo/readme_world.lua; do \
	        echo "$$lua $$t"; \
	        LUA_CPATH="$(BUILD)/$$lua/?.so" LUA_PATH="tests/lua/?.lua;demo/love/?.lua" $$lua $$t || exit 1; \
	    done; \
	done

# The whole suite and the Lua tests on other random cases: each salt mixed into every seed
# (tests/main.c, tests/lua/harness.lua). Not part of make test (a minute a salt); run it after
# changing what the random tests generate or check, or SOAK_SALTS="..." for others. A test that
# fails only here leans on its seed's luck.
SOAK_SALTS ?= 1 2 3 4
soak: $(BUILD)/test_collworld $(LUA_MODULES) | deps-lua
	@for s in $(SOAK_SALTS); do echo "CW_TEST_SALT=$$s"; \
	    CW_TEST_SALT=$$s ./$(BUILD)/test_collworld > $(BUILD)/soak-$$s.log 2>&1 || \
	    { grep -B30 'FAILED  \]' $(BUILD)/soak-$$s.log | tail -60; echo "salt $$s FAILED: $(BUILD)/soak-$$s.log"; exit 1; }; \
	    CW_TEST_SALT=$$s $(MAKE) -s lua-test > $(BUILD)/soak-lua-$$s.log 2>&1 || \
	    { grep -i -A3 'fail\|error' $(BUILD)/soak-lua-$$s.log | head -40; echo "salt $$s FAILED: $(BUILD)/soak-lua-$$s.log"; exit 1; }; \
	done; echo "soak: salts $(SOAK_SALTS) passed"

# The Lua tests under valgrind memcheck (Lua 5.4; LuaJIT's allocator confuses memcheck). A test's
# own output is shown only when it fails (a failing script exits without closing its Lua state, so
# memcheck then also lists Lua's blocks as possibly lost: read the test's message first).
lua-valgrind: $(BUILD)/lua5.4/collworld.so | deps-lua
	@for t in $(LUA_TESTS); do \
	    echo "valgrind lua5.4 $$t"; \
	    CW_TEST_SCALE=10 LUA_CPATH="$(BUILD)/lua5.4/?.so" LUA_PATH="tests/lua/?.lua;demo/love/?.lua" valgrind -q --error-exitcode=3 \
	        --leak-check=full --errors-for-leak-kinds=definite lua5.4 $$t >$(BUILD)/lua-valgrind.log || \
	        { grep -v '^  .* ok$$' $(BUILD)/lua-valgrind.log; exit 1; }; \
	done

# Out of memory inside Lua: every allocation of a script fails in turn, under ASan and LeakSanitizer.
$(BUILD)/lua-oom: tests/lua/oom.c $(LUA_SRC) lua/lcw.h $(LIB_SRC) | deps-lua-dev deps-lib
	@mkdir -p $(BUILD)
	$(CC) $(WARN) -O1 -g $(ASAN_FLAGS) -Iinclude $$(pkg-config --cflags lua5.4) -o $@ tests/lua/oom.c $(LUA_SRC) \
	    $(LIB_SRC) $$(pkg-config --libs lua5.4) $(LDLIBS)

lua-oom: $(BUILD)/lua-oom
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 ./$(BUILD)/lua-oom tests/lua/oom_script.lua

# Where require finds it: pkg-config's INSTALL_CMOD when PREFIX is /usr (Debian's own module
# directory), else PREFIX/lib/lua/<version>, which both Luas search by default for /usr/local.
# Only for the Luas installed here; LUA_CMOD_lua5.4 / LUA_CMOD_luajit override.
lua_cmod = $(if $(filter /usr,$(PREFIX)),$(shell pkg-config --variable=INSTALL_CMOD $(1)),$(PREFIX)/lib/lua/$(2))
LUA_CMOD_lua5.4 ?= $(call lua_cmod,lua5.4,5.4)
LUA_CMOD_luajit ?= $(call lua_cmod,luajit,5.1)

install-lua:
	@for lua in $(LUA_FLAVOURS); do \
	    pkg-config --exists $$lua 2>/dev/null || { echo "install-lua: no $$lua here, skipped"; continue; }; \
	    $(MAKE) --no-print-directory $(BUILD)/$$lua/collworld.so || exit 1; \
	    case $$lua in lua5.4) dir="$(LUA_CMOD_lua5.4)";; *) dir="$(LUA_CMOD_luajit)";; esac; \
	    echo "$(INSTALL) -D -m 755 $(BUILD)/$$lua/collworld.so $(DESTDIR)$$dir/collworld.so"; \
	    $(INSTALL) -D -m 755 $(BUILD)/$$lua/collworld.so $(DESTDIR)$$dir/collworld.so || exit 1; \
	done

uninstall-lua: # (a Lua pkg-config does not know has no directory: nothing to remove there)
	$(if $(strip $(LUA_CMOD_lua5.4)),rm -f $(DESTDIR)$(LUA_CMOD_lua5.4)/collworld.so)
	$(if $(strip $(LUA_CMOD_luajit)),rm -f $(DESTDIR)$(LUA_CMOD_luajit)/collworld.so)

# --- the SDL2 demo: SDL2 is the demo's dependency only, never the library's ---
# SDL2_image (PNG screenshots) and SDL2_ttf (HUD font) are used when pkg-config finds them.
# These are recursive (=) on purpose: they are read after deps-demo may have installed SDL2.
have_pkg = $(shell pkg-config --exists $(1) 2>/dev/null && echo yes)
# A first run installs all of it (as root): PNG screenshots and the real HUD font need them.
DEMO_FONT := /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf
MISSING_DEMO_PKGS := $(if $(shell command -v pkg-config),,pkg-config) $(if $(call have_pkg,sdl2),,libsdl2-dev) \
    $(if $(call have_pkg,SDL2_image),,libsdl2-image-dev) $(if $(call have_pkg,SDL2_ttf),,libsdl2-ttf-dev) \
    $(if $(wildcard $(DEMO_FONT)),,fonts-dejavu-core)
DEMO_OPTIONAL = $(if $(call have_pkg,SDL2_image),SDL2_image) $(if $(call have_pkg,SDL2_ttf),SDL2_ttf)
DEMO_CFLAGS = $(shell pkg-config --cflags sdl2 $(DEMO_OPTIONAL)) \
              $(if $(call have_pkg,SDL2_image),-DHAVE_SDL_IMAGE) $(if $(call have_pkg,SDL2_ttf),-DHAVE_SDL_TTF)
DEMO_LIBS = $(shell pkg-config --libs sdl2 $(DEMO_OPTIONAL))
DEMO_SRC := $(filter-out demo/readme_%.c,$(wildcard demo/*.c))
DEMO_OBJ := $(DEMO_SRC:%.c=$(BUILD)/%.o)
DEMO := $(BUILD)/collworld_demo

deps-demo:
	$(call install_packages,$(MISSING_DEMO_PKGS))

$(BUILD)/demo/%.o: demo/%.c $(wildcard demo/*.h) include/collworld.h | deps-demo
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) -Iinclude $(DEMO_CFLAGS) -c $< -o $@

$(DEMO): $(DEMO_OBJ) libcollworld.a
	$(CC) -o $@ $(DEMO_OBJ) libcollworld.a $(DEMO_LIBS) $(LDLIBS)

# A window when there is a display; else headless: 300 frames offscreen, a screenshot, a stats table.
# The demo's sprite sheet, demo/art/sprites.png, is painted by the demo's own rules (sprites.c).
demo-art: $(DEMO)
	@mkdir -p demo/art
	./$(DEMO) --write-art demo/art/sprites.png

demo: $(DEMO)
	./$(DEMO) --screenshot $(BUILD)/demo.png

# Short headless runs of both scenes, and the check that drawing and cw_overlap agree (for `make test`).
demo-headless: $(DEMO)
	./$(DEMO) --headless --frames 20 --screenshot $(BUILD)/demo-test.png
	./$(DEMO) --headless --frames 20 --scene inspect --screenshot $(BUILD)/inspect-test.png
	./$(DEMO) --headless --frames 60 --scene shooter --screenshot $(BUILD)/shooter-test.png
	./$(DEMO) --headless --frames 20 --count 600 --overlays grid,aabbs,boxes,contacts --screenshot $(BUILD)/overlays-test.png

demo-selftest: $(DEMO)
	./$(DEMO) --selftest

# --- benchmarks: never part of the tests; numbers go into README.md by hand ---
# Each bench/bench_*.c is a program; the other bench/*.c files are shared by all of them.
$(BUILD)/bench_%: bench/bench_%.c $(BENCH_SHARED) $(wildcard bench/*.h) libcollworld.a
	@mkdir -p $(BUILD)
	$(CC) $(CFLAGS) -o $@ $< $(BENCH_SHARED) libcollworld.a $(LDLIBS)

# The peers (bench/bench_peers.cpp): Box2D 2.4 and Chipmunk 7 from Debian, for the benchmark only.
MISSING_PEER_PKGS = $(if $(call have_header,box2d/b2_broad_phase.h),,libbox2d-dev) \
                    $(if $(call have_header,chipmunk/chipmunk.h),,libchipmunk-dev) $(if $(shell command -v $(CXX)),,g++)
deps-bench:
	$(call install_packages,$(strip $(MISSING_PEER_PKGS)))

$(BUILD)/bench_peers: bench/bench_peers.cpp $(BENCH_SHARED) $(wildcard bench/*.h) libcollworld.a | deps-bench
	@mkdir -p $(BUILD)/bench-shared
	@for f in $(BENCH_SHARED); do \
	    $(CC) $(CFLAGS) -c $$f -o $(BUILD)/bench-shared/$$(basename $$f .c).o || exit 1; \
	done
	$(CXX) -std=c++17 -Wall -Wextra -Wpedantic $(OPT) -Iinclude -Ibench -o $@ $< \
	    $(patsubst bench/%.c,$(BUILD)/bench-shared/%.o,$(BENCH_SHARED)) libcollworld.a -lbox2d -lchipmunk $(LDLIBS)

bench: $(BENCH_BINS) $(BUILD)/bench_peers $(LUA_MODULES) | deps-lua
	@for b in $(BENCH_BINS); do ./$$b || exit 1; done
	./$(BUILD)/bench_peers
	@for lua in $(LUA_FLAVOURS); do LUA_CPATH="$(BUILD)/$$lua/?.so" $$lua bench/bench_lua.lua || exit 1; done

# Every benchmark built and run small with its own checks (no timing is judged), so that `make
# bench` keeps building and its sides keep agreeing: bench_narrow against a supersampled reference,
# bench_world's sets against the yardstick's, the peers' pairs against the yardstick's, the moves'
# ways and the placed pairs against each other. Each run's output goes to build/bench-check/; a
# failing run's is shown.
bench-check: $(BENCH_BINS) $(BUILD)/bench_peers $(LUA_MODULES) | deps-lua
	@mkdir -p $(BUILD)/bench-check
	@run() { log=$(BUILD)/bench-check/$$1.log; shift; \
	    "$$@" > $$log 2>&1 || { tail -30 $$log; echo "bench-check: $$* failed (see $$log)"; exit 1; }; \
	    echo "bench-check: $$* ok"; }; \
	run narrow ./$(BUILD)/bench_narrow --quick; \
	run narrow-check ./$(BUILD)/bench_narrow --quick --check; \
	for b in world moves manifold query swept touch; do run $$b ./$(BUILD)/bench_$$b --quick; done; \
	run threads ./$(BUILD)/bench_threads --n 2000 --frames 3 --repeats 1; \
	run peers ./$(BUILD)/bench_peers --boxes 2000 --masks 2000 --frames 3 --warmup 1 --repeats 1 \
	    --check-frames 3 --scaling ''; \
	for lua in $(LUA_FLAVOURS); do \
	    run lua-$$lua env LUA_CPATH="$(BUILD)/$$lua/?.so" $$lua bench/bench_lua.lua --quick; \
	done

# --- packaging: install, pkg-config, exported symbols, consumers, C++ ---
PREFIX     ?= /usr/local
DESTDIR    ?=
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR     ?= $(PREFIX)/lib
PCDIR      ?= $(LIBDIR)/pkgconfig
INSTALL    ?= install

# Made at every install: PREFIX may differ from the last time.
$(BUILD)/collworld.pc: packaging/collworld.pc.in include/collworld.h FORCE
	@mkdir -p $(BUILD)
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@VERSION@|$(VERSION)|g' $< > $@

# The shared library goes in as libcollworld.so.X.Y.Z with the soname link libcollworld.so.X and
# the development link libcollworld.so.
install: libcollworld.a libcollworld.so $(BUILD)/collworld.pc
	$(INSTALL) -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PCDIR)
	$(INSTALL) -m 644 include/collworld.h $(DESTDIR)$(INCLUDEDIR)/collworld.h
	$(INSTALL) -m 644 libcollworld.a $(DESTDIR)$(LIBDIR)/libcollworld.a
	$(INSTALL) -m 755 libcollworld.so $(DESTDIR)$(LIBDIR)/libcollworld.so.$(VERSION)
	ln -sf libcollworld.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libcollworld.so
	$(INSTALL) -m 644 $(BUILD)/collworld.pc $(DESTDIR)$(PCDIR)/collworld.pc
	@$(MAKE) --no-print-directory install-lua

uninstall: uninstall-lua
	rm -f $(DESTDIR)$(INCLUDEDIR)/collworld.h $(DESTDIR)$(LIBDIR)/libcollworld.a \
	    $(DESTDIR)$(LIBDIR)/libcollworld.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libcollworld.so $(DESTDIR)$(PCDIR)/collworld.pc

FORCE:

# Only public cw_ names leave the shared library, and all of the header's CW_API functions do.
check-exports: libcollworld.so
	./packaging/check-exports.sh libcollworld.so include/collworld.h

# Install into a temporary prefix; build and run a consumer with pkg-config, static and shared.
check-install: libcollworld.a libcollworld.so
	MAKE="$(MAKE)" CC="$(CC)" ./packaging/check-install.sh

# CMake: the consumer project through add_subdirectory and through find_package after an install.
check-cmake: | deps-lib
	$(call install_packages,$(if $(shell command -v cmake),,cmake))
	./packaging/check-cmake.sh

# The single-file build: build/dist/collworld.c (every source, internal headers inlined) and
# collworld.h. check-amalgamation compiles it with one line, warnings as errors, with gcc and
# clang when present, and builds and runs the README examples against it.
amalgamate: | deps-lib
	./packaging/amalgamate.sh $(BUILD)/dist

AMALGAMATION_EXAMPLES := readme_example readme_placed readme_world readme_swept readme_touch readme_sheet
# The single file gets the project's own warnings (-Wshadow included: a file-scope name of one
# source must not be a local's name in another, now that they share a file).
check-amalgamation: amalgamate
	@for cc in $(CC) $$(command -v clang); do \
	    echo "$$cc $(WARN) -Werror -O2 -pthread -c $(BUILD)/dist/collworld.c"; \
	    $$cc $(WARN) -Werror -O2 -pthread -c $(BUILD)/dist/collworld.c \
	        -o $(BUILD)/dist/collworld.o || exit 1; \
	done
	@for e in $(AMALGAMATION_EXAMPLES); do \
	    $(CC) -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -pthread -I$(BUILD)/dist -o $(BUILD)/dist/$$e \
	        demo/$$e.c $(BUILD)/dist/collworld.c -lm || exit 1; \
	    ./$(BUILD)/dist/$$e >/dev/null || exit 1; \
	done
	@echo "check-amalgamation: $(AMALGAMATION_EXAMPLES) built from $(BUILD)/dist/collworld.c and ran"

# The arithmetic engines build with. 32-bit x86 with SSE2 arithmetic (as 32-bit ARM and wasm32
# compute), and 64-bit ARM (aarch64, run under qemu-user), where no SSE2 path exists and the plain C
# ones run: the single file builds without a warning, the README examples built against it print
# what check-amalgamation's x86-64 builds print (a sheet's byte count aside: pointers are half as
# wide at 32 bits), and packaging/same_bits.c, a fingerprint of thousands of overlaps, manifolds,
# casts and a stepped world's events, prints the same line on all three. x87 arithmetic (extra
# precision) and -ffast-math are refused at compile time with a sentence that says what to do. And
# no multiply-add is fused (narrow/fp.h) where compilers fuse them by default, GNU C for FMA
# hardware (-march=haswell): every library source with gcc (each must include narrow/fp.h), the
# single file with gcc and clang.
M32_FLAGS := -m32 -msse2 -mfpmath=sse -Wno-psabi
A64_CC    := aarch64-linux-gnu-gcc
FMA_FLAGS := -std=gnu11 -O2 -march=haswell -Iinclude -pthread
count_fused = objdump -d $(1) | grep -c 'vf[n]*m\(add\|sub\)[0-9]'
# The 32-bit C library and libgcc by name: Debian's gcc-multilib conflicts with its aarch64 cross
# compiler, and apt would refuse the pair on a fresh machine (or drop gcc-multilib for it).
GCC_MAJOR = $(or $(shell $(CC) -dumpversion 2>/dev/null | cut -d. -f1),12)
PORTABILITY_PKGS = $(if $(wildcard /usr/lib32/crt1.o),,libc6-dev-i386) \
                   $(if $(wildcard /usr/lib/gcc/x86_64-linux-gnu/*/32/libgcc.a),,lib32gcc-$(GCC_MAJOR)-dev) \
                   $(if $(shell command -v $(A64_CC)),,gcc-aarch64-linux-gnu) \
                   $(if $(shell command -v qemu-aarch64),,qemu-user)
# Whether this machine runs 32-bit x86 programs, as a shell condition: some sandboxes' kernels run
# none ("Exec format error"). There check-portability runs its 32-bit builds under qemu-i386 (as it
# runs the aarch64 ones), and check-m32 builds the suite but does not run it (under emulation one
# shard takes minutes). A probe that does not build stops the recipe: that is a missing package, not
# a machine that cannot run the result.
M32_PROBE = { mkdir -p $(BUILD) && printf 'int main(void) { return 0; }\n' | \
              $(CC) $(M32_FLAGS) -x c - -o $(BUILD)/m32-probe || exit 1; ./$(BUILD)/m32-probe 2>/dev/null; }
check-portability: check-amalgamation
	$(call install_packages,$(strip $(PORTABILITY_PKGS)))
	@mkdir -p $(BUILD)/portability
	$(CC) $(M32_FLAGS) $(WARN) -Werror -O2 -pthread -c $(BUILD)/dist/collworld.c -o $(BUILD)/portability/collworld.o
	$(A64_CC) $(WARN) -Werror -O2 -pthread -c $(BUILD)/dist/collworld.c -o $(BUILD)/portability/collworld-a64.o
	$(CC) -std=c11 -O2 -pthread -I$(BUILD)/dist -o $(BUILD)/dist/same_bits packaging/same_bits.c \
	    $(BUILD)/dist/collworld.c -lm
	@run32=; if ! $(M32_PROBE); then run32=qemu-i386; \
	    echo "check-portability: this machine runs no 32-bit x86 program: the 32-bit builds run under qemu-i386"; fi; \
	for e in $(AMALGAMATION_EXAMPLES) same_bits; do \
	    out=$(BUILD)/portability/$$e; src=demo/$$e.c; [ $$e = same_bits ] && src=packaging/$$e.c; \
	    $(CC) $(M32_FLAGS) -std=c11 -O2 -pthread -I$(BUILD)/dist -o $$out $$src \
	        $(BUILD)/portability/collworld.o -lm || exit 1; \
	    $(A64_CC) -std=c11 -O2 -static -pthread -I$(BUILD)/dist -o $$out-a64 $$src \
	        $(BUILD)/portability/collworld-a64.o -lm || exit 1; \
	    ./$(BUILD)/dist/$$e | sed 's/[0-9]* bytes/N bytes/' >$$out-64.txt || exit 1; \
	    $$run32 ./$$out | sed 's/[0-9]* bytes/N bytes/' >$$out.txt || exit 1; \
	    qemu-aarch64 $$out-a64 | sed 's/[0-9]* bytes/N bytes/' >$$out-a64.txt || exit 1; \
	    cmp -s $$out.txt $$out-64.txt || { echo "$$e prints otherwise at 32 bits:"; diff $$out-64.txt $$out.txt; exit 1; }; \
	    cmp -s $$out-a64.txt $$out-64.txt || { echo "$$e prints otherwise on aarch64:"; diff $$out-64.txt $$out-a64.txt; exit 1; }; \
	done
	@cat $(BUILD)/portability/same_bits-64.txt
	@for flags in "-m32 -mfpmath=387" "-ffast-math"; do \
	    if $(CC) $$flags -std=c11 -c $(BUILD)/dist/collworld.c -o /dev/null 2>$(BUILD)/portability/refused.log; then \
	        echo "a build with $$flags was not refused"; exit 1; \
	    fi; \
	    grep -q "collworld.*\(-mfpmath=sse\|without -ffast-math\)" $(BUILD)/portability/refused.log || \
	        { cat $(BUILD)/portability/refused.log; exit 1; }; \
	done
	@for f in $(LIB_SRC); do \
	    $(CC) $(FMA_FLAGS) -c $$f -o $(BUILD)/portability/fma.o || exit 1; \
	    n=$$($(call count_fused,$(BUILD)/portability/fma.o)); \
	    [ "$$n" = 0 ] || { echo "$(CC) fused $$n multiply-adds in $$f"; exit 1; }; \
	done
	@for cc in $(CC) $$(command -v clang); do \
	    $$cc $(FMA_FLAGS) -c $(BUILD)/dist/collworld.c -o $(BUILD)/portability/fma.o || exit 1; \
	    n=$$($(call count_fused,$(BUILD)/portability/fma.o)); \
	    [ "$$n" = 0 ] || { echo "$$cc fused $$n multiply-adds in the single file"; exit 1; }; \
	done
	@echo "check-portability: the examples and the fingerprint print the same on x86-64, 32-bit x86 and aarch64; x87 and -ffast-math refused; nothing fused"

# The whole cmocka suite at 32 bits (the same SSE2 arithmetic flags), a little smaller than `make
# unit` (CW_TEST_SCALE=$(M32_TEST_SCALE)): every answer the suite checks, not only the fingerprint;
# SHARD=k/n runs a share of its groups (CI runs the halves on its two lanes). Debian's i386 cmocka
# comes by multiarch: as root, the i386 architecture is added first (apt then fetches its package
# lists); otherwise run `sudo dpkg --add-architecture i386` before the apt line it prints.
M32_TEST_SCALE ?= 6
M32_TEST_PKGS = $(if $(wildcard /usr/lib/i386-linux-gnu/libcmocka.so),,libcmocka-dev:i386)
$(BUILD)/m32/test_collworld: $(TEST_SRC) $(wildcard tests/*.h) $(LIB_SRC) $(wildcard include/*.h narrow/*.h broad/*.h world/*.h) | deps
	$(call install_packages,$(strip $(PORTABILITY_PKGS)))
	@if [ -n "$(M32_TEST_PKGS)" ] && [ "$$(id -u)" = 0 ] && ! dpkg --print-foreign-architectures | grep -qx i386; then \
	    echo "dpkg --add-architecture i386"; dpkg --add-architecture i386; \
	fi
	$(call install_packages,$(M32_TEST_PKGS))
	@mkdir -p $(@D)
	$(CC) $(M32_FLAGS) $(WARN) -Werror -O2 -g -Iinclude -pthread -o $@ $(TEST_SRC) $(LIB_SRC) -lcmocka -lm

check-m32: $(BUILD)/m32/test_collworld
	@if $(M32_PROBE); then \
	    echo "CW_TEST_SHARD=$(SHARD) CW_TEST_SCALE=$(M32_TEST_SCALE) ./$(BUILD)/m32/test_collworld"; \
	    CW_TEST_SHARD=$(SHARD) CW_TEST_SCALE=$(M32_TEST_SCALE) ./$(BUILD)/m32/test_collworld; \
	else \
	    echo "check-m32: this machine runs no 32-bit x86 program, so the 32-bit suite was built (-Werror) but not run"; \
	    echo "check-m32: (check-portability ran the 32-bit fingerprint and examples under qemu-i386)"; \
	fi

# The header compiles as C++ without a warning (several standards), and links as extern "C".
CXX_STDS := c++11 c++17 c++20
check-cxx: libcollworld.a
	$(call install_packages,$(if $(shell command -v $(CXX)),,g++))
	@for std in $(CXX_STDS); do \
	    echo "$(CXX) -std=$$std -Wall -Wextra -Wpedantic -Werror -x c++ -fsyntax-only packaging/cxx_check.cpp"; \
	    $(CXX) -std=$$std -Wall -Wextra -Wpedantic -Werror -Iinclude -x c++ -fsyntax-only packaging/cxx_check.cpp || exit 1; \
	done
	@mkdir -p $(BUILD)
	$(CXX) -Wall -Wextra -Werror -Iinclude -o $(BUILD)/cxx_check packaging/cxx_check.cpp libcollworld.a $(LDLIBS)
	./$(BUILD)/cxx_check

# --- fuzzing: libFuzzer targets (clang), each run for FUZZ_SECONDS from its seed corpus ---
# New inputs go to build/fuzz/corpus/<target> (fuzz/corpus/<target> is only read); a crash or a
# violated invariant stops the run with the reproducer in build/fuzz/<target>-crash-*.
# Inputs that once found bugs are kept in the seed corpora (fuzz/corpus/<target>/regression-*).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := mask overlap world
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_FLAGS   := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
have_libfuzzer = $(shell printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' | \
    $(FUZZ_CC) -fsanitize=fuzzer -x c - -o /dev/null >/dev/null 2>&1 && echo yes)

deps-fuzz: deps-lib
	$(call install_packages,$(if $(call have_libfuzzer),,clang))

# fuzz_overlap checks its answers against the tests' exact reference.
FUZZ_EXTRA_overlap := tests/reference.c
$(BUILD)/fuzz/fuzz_overlap: tests/reference.c tests/reference.h
# fuzz_world's queries are checked in a file of their own.
FUZZ_EXTRA_world := fuzz/world_queries.c
$(BUILD)/fuzz/fuzz_world: fuzz/world_queries.c fuzz/fuzz_world.h

$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.h $(LIB_SRC) $(wildcard narrow/*.h broad/*.h world/*.h) | deps-fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZ_FLAGS) -Iinclude -o $@ $< $(FUZZ_EXTRA_$*) $(LIB_SRC) $(LDLIBS)

fuzz-build: $(FUZZ_BINS)

fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p $(BUILD)/fuzz/corpus/$$t; \
	    echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
	    UBSAN_OPTIONS=print_stacktrace=1 ./$(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 \
	        -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/$$t- \
	        $(BUILD)/fuzz/corpus/$$t fuzz/corpus/$$t 2>$(BUILD)/fuzz/$$t.log || \
	        { tail -40 $(BUILD)/fuzz/$$t.log; echo "fuzz_$$t FAILED: reproducer in $(BUILD)/fuzz/$$t-*"; exit 1; }; \
	    grep -E '^stat::number_of_executed_units|^Done' $(BUILD)/fuzz/$$t.log | sed 's/^/  /'; \
	done

# --- the API reference: Doxygen on include/collworld.h, every public name documented ---
docs:
	$(call install_packages,$(if $(shell command -v doxygen),,doxygen))
	@mkdir -p $(BUILD)/docs
	@rm -f $(BUILD)/docs/warnings.log
	doxygen packaging/Doxyfile || { cat $(BUILD)/docs/warnings.log; exit 1; }
	@if [ -s $(BUILD)/docs/warnings.log ]; then cat $(BUILD)/docs/warnings.log; echo "docs: doxygen warnings"; exit 1; fi
	@echo "docs: $(BUILD)/docs/html/index.html"

clean:
	rm -rf $(BUILD) libcollworld.a libcollworld.so
