# The course's one entry point.  `make help` lists the targets.
#
# Overrides:  CUDA_HOME=/usr/local/cuda   ARCH_BASE=... (steps 01-04)
#             ARCH_90A=... (steps 05-07)  DEBUG=1 (bounded waits that diagnose hangs)
#             BUILD=build                 NVCC_EXTRA="-Xptxas -v"
#             BENCH=all|quick|stream|gemm (make bench's sweep)
#             DEPS=build/deps  CHECK_SYSTEM=auto|0  APT_GET=apt-get (see tests/deps.sh)
CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CC        ?= gcc
# Steps 01-04 use sm_80/sm_90 instructions: SASS for sm_90 plus PTX, so a newer GPU can JIT them.
ARCH_BASE ?= -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90
# wgmma and setmaxnreg exist only on the arch-specific target (runs on compute 9.0 only).
ARCH_90A  ?= -gencode=arch=compute_90a,code=sm_90a

GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

ifeq ($(DEBUG),1)
BUILD     ?= build/debug
DEBUG_DEF := -DCOURSE_DEBUG
# The hang report's printf needs a 40-byte stack frame: expected in DEBUG builds.
PTXAS_WARN := -warn-spills
else
BUILD     ?= build
PTXAS_WARN := -warn-spills,-warn-lmem-usage
endif

NVCCFLAGS = -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV='"$(GIT_REV)"' $(DEBUG_DEF) \
            -Xptxas $(PTXAS_WARN) -Xcompiler -Wall $(NVCC_EXTRA)
CFLAGS    = -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Icommon -I$(CUDA_HOME)/include
LDLIBS    = -L$(CUDA_HOME)/lib64 -lcublas -lcudart -ldl

STEP_DIRS := $(patsubst %/kernel.cu,%,$(sort $(wildcard step0*/kernel.cu)))
BINS      := $(addprefix $(BUILD)/,$(STEP_DIRS))
HOST_SRCS := $(wildcard common/*.c)
HOST_OBJS := $(patsubst common/%.c,$(BUILD)/common/%.o,$(HOST_SRCS))
HEADERS   := $(wildcard common/*.h common/*.cuh)
arch_of    = $(if $(filter step01% step02% step03% step04%,$1),$(ARCH_BASE),$(ARCH_90A))
step_dir   = $(filter step$(STEP)_%,$(STEP_DIRS))
prev_dir   = $(filter step$(shell printf %02d $$(expr $(STEP) - 1))_%,$(STEP_DIRS))

# Check is a static library in Debian's package; subunit is its dependency.
# Both linked statically so the test runner also runs where they are not installed.
CHECK_LIBS ?= -Wl,-Bstatic -lcheck -lsubunit -Wl,-Bdynamic -lm -lrt -pthread
TEST_SRCS := $(wildcard tests/*.c)
TEST_BIN  := $(BUILD)/tests/run_tests
# Where make test finds Check when the system has none: Debian's packages,
# unpacked here once (no root); make deps fills it for a machine without
# network.  make clean keeps it, make distclean removes it.
DEPS         ?= build/deps
CHECK_SYSTEM ?= auto
APT_GET      ?= apt-get
CHECK_FLAGS  := $(BUILD)/tests/check.flags
DEPS_SH       = DEPS='$(DEPS)' CC='$(CC)' CHECK_LIBS='$(CHECK_LIBS)' CHECK_SYSTEM='$(CHECK_SYSTEM)' \
                APT_GET='$(APT_GET)' sh tests/deps.sh
BENCH        ?= all

GPU_NAME  := $(shell nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -n1 | tr -c 'A-Za-z0-9_.\n-' '_')
RESULT_CSV = plots/results/$(GPU_NAME).csv

.PHONY: all help run test test-build test-runner deps deps-system bench plots timeline diff diff-sizes sass ptx sanitize clean distclean FORCE $(foreach d,$(STEP_DIRS),$(firstword $(subst _, ,$(d))))

all: $(BINS)

# Keep the host objects (make would delete them as intermediate files).
.SECONDARY: $(HOST_OBJS)

help:
	@echo "make                  build every step into $(BUILD)/"
	@echo "make stepNN           build one step, e.g. make step03"
	@echo "make run STEP=NN ARGS='...'   run a step, e.g. make run STEP=03 ARGS='--stages 8'"
	@echo "make test             build everything and run all Check suites (GPU tests SKIP without a GPU);"
	@echo "                      gets Check into $(DEPS) by itself when the system has none"
	@echo "make deps             put Check into $(DEPS) for a GPU machine without network: copy the"
	@echo "                      tree with $(DEPS)/ there and run make test"
	@echo "make deps-system      (root) apt-get install Check and gnuplot system-wide"
	@echo "make bench            sweep every step on the GPU, append to plots/results/<gpu>.csv, render plots;"
	@echo "                      make bench BENCH=quick: only the headline shapes"
	@echo "make plots            render plots and README tables from the recorded CSVs (no GPU needed)"
	@echo "make timeline STEP=NN run a step with --trace and draw its per-warp Gantt chart"
	@echo "make diff STEP=NN     diff -u of step NN-1's kernel.cu against step NN's: the lesson"
	@echo "make diff-sizes       lines of kernel.cu changed between each pair of neighbouring steps"
	@echo "make sass STEP=NN     SASS of a step (cuobjdump);  make ptx STEP=NN: its PTX"
	@echo "make sanitize         compute-sanitizer memcheck/racecheck/synccheck/initcheck on every step"
	@echo "make DEBUG=1 ...      build into build/debug with bounded barrier waits: a hang prints"
	@echo "                      block, warp, barrier, slot and phase, then traps (every step, present and future)"
	@echo "make clean            remove build/ but $(DEPS);  make distclean: all of build/"
	@echo "variables: CUDA_HOME ARCH_BASE ARCH_90A BUILD NVCC_EXTRA (e.g. NVCC_EXTRA='-Xptxas -v')"
	@echo "           BENCH DEPS CHECK_SYSTEM=0 (ignore an installed Check) APT_GET=false (download nothing)"

$(foreach d,$(STEP_DIRS),$(eval $(firstword $(subst _, ,$(d))): $(BUILD)/$(d)))

$(BUILD)/common/%.o: common/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/step%: step%/kernel.cu $(HEADERS) $(HOST_OBJS)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(call arch_of,step$*) $< $(HOST_OBJS) $(LDLIBS) -o $@

# Where Check is (system or $(DEPS)): line 1 -I flags, line 2 -L flags.  Looked
# up on every make test (one line says which); the file changes, and the
# runner relinks, only when the answer does.
$(CHECK_FLAGS): $(if $(CHECK_FOUND),,FORCE)
	@$(DEPS_SH) check $@
FORCE:

# The test runner links the same common/*.c the steps do.  (The flags are read
# when the recipe runs, after $(CHECK_FLAGS) is up to date.)
$(TEST_BIN): $(CHECK_FLAGS) $(TEST_SRCS) $(HOST_SRCS) $(wildcard tests/*.h) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(shell sed -n 1p $(CHECK_FLAGS)) -Itests $(TEST_SRCS) $(HOST_SRCS) -o $@ \
	    $(shell sed -n 2p $(CHECK_FLAGS)) $(CHECK_LIBS) $(LDLIBS) -Wl,-rpath,$(CUDA_HOME)/lib64

# Only the runner (no nvcc): what tests/setup_test.sh builds in a clean copy.
test-runner: $(TEST_BIN)

# Check first, also under -j: a machine without it stops here, before any nvcc.
test-build: $(CHECK_FLAGS)
	@$(MAKE) --no-print-directory CHECK_FOUND=1 all $(TEST_BIN)
	$(MAKE) --no-print-directory DEBUG=1 BUILD=$(BUILD)/debug all

deps:
	@$(DEPS_SH) fetch

deps-system:
	@$(DEPS_SH) system

test: test-build
	COURSE_BUILD=$(BUILD) $(TEST_BIN)

run: $(BUILD)/$(step_dir)
	$(BUILD)/$(step_dir) $(ARGS)

bench: all
	@rc=0; if [ -z "$(GPU_NAME)" ]; then \
	  echo "make bench: no CUDA device here; rendering the recorded results instead"; \
	else sh plots/bench.sh $(BUILD) $(RESULT_CSV) $(BENCH) || rc=$$?; fi; \
	$(DEPS_SH) gnuplot; \
	sh plots/render.sh || exit 1; \
	$(DEPS_SH) gnuplot-note; \
	[ $$rc -eq 0 ] || [ $$rc -eq 3 ] || exit $$rc

plots:
	@$(DEPS_SH) gnuplot
	sh plots/render.sh
	@$(DEPS_SH) gnuplot-note

# A smaller problem than the bench's default so the window shows steady state.
# Steps 06-07 walk several tiles per CTA: K = 1024 keeps a tile short enough
# that the 30 us window shows tile boundaries (the epilogue under the next loads).
TIMELINE_ARGS ?= $(if $(filter 01 02 03,$(STEP)),--n-elems 16777216,$(if $(filter 06 07,$(STEP)),--m 4096 --n 4096 --k 1024,--m 4096 --n 4096 --k 4096))
timeline: $(BUILD)/$(step_dir)
	$(BUILD)/$(step_dir) --trace plots/results/timeline_step$(STEP).csv $(TIMELINE_ARGS) $(ARGS)
	@$(DEPS_SH) gnuplot
	sh plots/render.sh

# The first line says how big the lesson is: kernel.cu lines added + removed.
diff:
	@test -n "$(prev_dir)" || { echo "make diff STEP=NN: no step before $(STEP)"; exit 2; }
	@a=$$(diff $(prev_dir)/kernel.cu $(step_dir)/kernel.cu | grep -c '^>'); \
	r=$$(diff $(prev_dir)/kernel.cu $(step_dir)/kernel.cu | grep -c '^<'); \
	echo "# $(prev_dir) -> $(step_dir): $$((a + r)) lines of kernel.cu changed (+$$a -$$r)"
	-diff -u $(prev_dir)/kernel.cu $(step_dir)/kernel.cu

# The same count for every pair of neighbouring steps (a pair is skipped when
# either folder is missing).
diff-sizes:
	@for d in $(STEP_DIRS); do \
	  n=$${d#step}; n=$${n%%_*}; \
	  p=$$(ls -d step$$(printf %02d $$(expr $$n - 1))_* 2>/dev/null | head -n1); \
	  [ -n "$$p" ] && [ -f "$$p/kernel.cu" ] || continue; \
	  a=$$(diff $$p/kernel.cu $$d/kernel.cu | grep -c '^>'); \
	  r=$$(diff $$p/kernel.cu $$d/kernel.cu | grep -c '^<'); \
	  printf '%-28s -> %-28s %5d lines (+%d -%d)\n' $$p $$d $$((a + r)) $$a $$r; \
	done

sass: $(BUILD)/$(step_dir)
	$(CUDA_HOME)/bin/cuobjdump -sass $(BUILD)/$(step_dir)

ptx:
	$(NVCC) $(NVCCFLAGS) $(call arch_of,$(step_dir)) -ptx $(step_dir)/kernel.cu -o $(BUILD)/$(step_dir).ptx
	@echo "wrote $(BUILD)/$(step_dir).ptx"

sanitize: all
	GIT_REV=$(GIT_REV) sh tests/sanitize.sh $(BUILD) plots/results/sanitize.md

# Keeps $(DEPS): on a machine without network it cannot be had again.
clean:
	rm -rf $(filter-out $(DEPS),$(wildcard build/* build/.[!.]*))

distclean:
	rm -rf build
