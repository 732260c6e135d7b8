# The course's one entry point.  `make help` lists the targets.
#
# Overrides:  CUDA_HOME=/usr/local/cuda   ARCH_BASE=... (steps 01-04)
#             ARCH_90A=... (steps 05-10)  DEBUG=1 (bounded waits that diagnose hangs)
#             BUILD=build                 NVCC_EXTRA="-Xptxas -v"
#             CC_EXTRA=... (gcc, common/*.c and the test runner; e.g. -DTMA_L2_PROMOTION=256, common/tma.c)
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
# No spill or local-memory warnings in DEBUG builds: the hang report is a
# real function call (a printf with a 40-byte stack frame), and around it
# ptxas spills a few registers (step 09: 20 bytes stored, 28 loaded).  A
# DEBUG build is for diagnosing hangs, never for timing, so that is noise
# there; the normal build, the one timed, keeps both warnings.  ptxas's
# C7510 notes (wgmma serialized across that call) cannot be turned off: two
# per WGMMA step, README.md "Seeing the pipeline" says why.
PTXAS_WARN :=
else
BUILD     ?= build
PTXAS_WARN := -Xptxas -warn-spills,-warn-lmem-usage
endif

NVCCFLAGS = -O3 -std=c++17 -lineinfo -Icommon -DGIT_REV='"$(GIT_REV)"' $(DEBUG_DEF) \
            $(PTXAS_WARN) -Xcompiler -Wall $(NVCC_EXTRA)
CFLAGS    = -std=c11 -O2 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Icommon -I$(CUDA_HOME)/include \
            $(CC_EXTRA)
LDLIBS    = -L$(CUDA_HOME)/lib64 -lcublas -lcudart -ldl

STEP_DIRS := $(patsubst %/kernel.cu,%,$(sort $(wildcard step[0-9][0-9]_*/kernel.cu)))
BINS      := $(addprefix $(BUILD)/,$(STEP_DIRS))
HOST_SRCS := $(wildcard common/*.c)
HOST_OBJS := $(patsubst common/%.c,$(BUILD)/common/%.o,$(HOST_SRCS))
HEADERS   := $(wildcard common/*.h common/*.cuh)
arch_of    = $(if $(filter step01% step02% step03% step04%,$1),$(ARCH_BASE),$(ARCH_90A))
# STEP=2 and STEP=02 name the same step.
# (Not printf %02d: it reads 08 and 09 as bad octal numbers.)
STEP2     := $(if $(STEP),$(shell echo '$(STEP)' | sed -e 's/^0*//' -e 's/^\([0-9]\)$$/0\1/'))
step_dir   = $(filter step$(STEP2)_%,$(STEP_DIRS))
prev_dir   = $(if $(step_dir),$(filter step$(shell printf %02d $$(expr $(STEP2) - 1 2>/dev/null) 2>/dev/null)_%,$(STEP_DIRS)))
STEP_IDS   := $(patsubst step%,%,$(foreach d,$(STEP_DIRS),$(firstword $(subst _, ,$(d)))))
# need_step: the one-line refusal when STEP names no step folder.
need_step  = @test -n "$(step_dir)" || { echo "make $@: STEP=$(STEP) names no step folder (e.g. STEP=05; steps: $(STEP_IDS))"; exit 2; }
# A step binary exits 3 when this machine has no GPU it can run on (it says
# why on its last line): make run and make timeline then end on one line of
# their own, exit 0, like make sanitize and make bench, instead of make's
# "Error 3" (make exits 2 for any failed recipe, so a bad STEP would read
# the same).
no_gpu_line = echo "make $@ STEP=$(STEP2): nothing run: no GPU here that step $(STEP2) can run on (the line above says why; make test, make plots, make diff and make ptx need none)"

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

# The GPU's name, asked only by the recipes that need it (make bench), never
# when the Makefile is read (make help must not run nvidia-smi).
GPU_NAME_SH = nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -n1 | tr -c 'A-Za-z0-9_.\n-' '_'

# CUTLASS's counterparts of the GEMM steps (peers/, make peers): headers from
# PyPI's nvidia-cutlass wheel, unpacked into $(DEPS) like Check.  NDEBUG:
# CUTLASS's device asserts would make ptxas serialize wgmma (warning C7510).
CUTLASS_VERSION ?= 4.2.0.0
CUTLASS_DIR  = $(DEPS)/cutlass-$(CUTLASS_VERSION)/cutlass_library/source
PEER_SRCS   := $(sort $(wildcard peers/step*.cu))
PEER_BINS   := $(patsubst peers/step%.cu,$(BUILD)/peers/cutlass_step%,$(PEER_SRCS))
PEERFLAGS    = -O3 -std=c++17 -DNDEBUG -lineinfo -Icommon -I$(CUTLASS_DIR)/include \
               -I$(CUTLASS_DIR)/tools/util/include -DGIT_REV='"$(GIT_REV)"' --expt-relaxed-constexpr \
               -Xcompiler -Wall $(NVCC_EXTRA)
# make sass reads SASS with cuobjdump and nvdisasm; a toolkit without them
# gets PyPI's (13.2.51 is the oldest there is: no 13.0 wheel exists; the 13.2
# tools read sm_90a cubins fine).
SASS_TOOLS_VERSION ?= 13.2.51
CUOBJDUMP = $(firstword $(wildcard $(CUDA_HOME)/bin/cuobjdump) $(shell command -v cuobjdump 2>/dev/null))
NVDISASM  = $(firstword $(wildcard $(CUDA_HOME)/bin/nvdisasm) $(shell command -v nvdisasm 2>/dev/null))

.PHONY: all help run test test-build test-runner test-targets deps deps-system bench plots peers timeline diff diff-sizes sass ptx sanitize clean distclean FORCE $(foreach d,$(STEP_DIRS),$(firstword $(subst _, ,$(d))))

all: $(BINS)

# Keep the host objects (make would delete them as intermediate files).
.SECONDARY: $(HOST_OBJS)

help:
	@echo "make                  build every step into $(BUILD)/"
	@echo "make stepNN           build one step, e.g. make step03 (or make step3)"
	@echo "make run STEP=NN ARGS='...'   run a step, e.g. make run STEP=03 ARGS='--stages 8' (no GPU: says so, runs nothing)"
	@echo "make test             build everything and run all Check suites (GPU tests SKIP without a GPU), the report"
	@echo "                      pipeline, the READMEs' checkable claims, every target and every exercise's command"
	@echo "                      (as written: flags, targets, scripts); ends on one verdict line;"
	@echo "                      gets Check into $(DEPS) by itself when the system has none"
	@echo "make deps             put Check, CUTLASS's headers and the SASS tools into $(DEPS) for a GPU"
	@echo "                      machine without network: copy the tree with $(DEPS)/ there"
	@echo "make deps-system      (root) apt-get install Check and gnuplot system-wide"
	@echo "make bench            sweep every step on the GPU, append to plots/results/<gpu>.csv, render plots;"
	@echo "                      BENCH=quick: one repeat of the headline shapes, no peers (its last line says how long);"
	@echo "                      STEPS='08 09' SHAPES='4096x4096x4096 ...': only those (see plots/README.md)"
	@echo "make peers            build CUTLASS's counterpart of each GEMM step into $(BUILD)/peers/"
	@echo "                      (gets CUTLASS $(CUTLASS_VERSION)'s headers from PyPI into $(DEPS); ~1 min per kernel)"
	@echo "make plots            render plots and README tables from the recorded CSVs (no GPU needed)"
	@echo "make timeline STEP=NN run a step with --trace and draw its per-warp Gantt chart"
	@echo "make diff STEP=NN     diff -u of step NN-1's kernel.cu against step NN's: the lesson"
	@echo "make diff-sizes       lines of kernel.cu changed between each pair of neighbouring steps"
	@echo "make sass STEP=NN     SASS of a step (cuobjdump; from PyPI into $(DEPS) if the toolkit lacks it)"
	@echo "make ptx STEP=NN      its PTX (nvcc only)"
	@echo "make sanitize         compute-sanitizer memcheck/racecheck/synccheck/initcheck on every step, filtered to"
	@echo "                      the step's own kernels (not cuBLAS's), and one planted bug (plots/results/sanitize.md)"
	@echo "make DEBUG=1 ...      build into build/debug with bounded barrier waits: a hang prints"
	@echo "                      block, warp, barrier, slot and phase, then traps (every step, present and future)"
	@echo "make clean            remove build/ but $(DEPS);  make distclean: all of build/"
	@echo "variables: CUDA_HOME ARCH_BASE ARCH_90A BUILD NVCC_EXTRA (e.g. NVCC_EXTRA='-Xptxas -v')"
	@echo "           CC_EXTRA (gcc, common/*.c; e.g. CC_EXTRA=-DTMA_L2_PROMOTION=256: plots/results/odd_k)"
	@echo "           BENCH DEPS CHECK_SYSTEM=0 (ignore an installed Check) APT_GET=false (download nothing)"

$(foreach d,$(STEP_DIRS),$(eval $(firstword $(subst _, ,$(d))): $(BUILD)/$(d)))

# make step3 builds step 03, as make diff STEP=3 diffs it; a number with no
# step folder (make step11) is refused in one line that lists the steps.
# Only goals typed on the command line: no pattern rule, which would also
# match build/stepNN_* files.
STEP_ALIASES := $(filter-out $(addprefix step,$(STEP_IDS)) $(STEP_DIRS),$(filter step%,$(MAKECMDGOALS)))
.PHONY: $(STEP_ALIASES)
$(STEP_ALIASES):
	@n=$$(echo '$@' | sed -n 's/^step0*\([0-9][0-9]*\)$$/\1/p'); \
	d=$$(ls -d step$$(printf %02d "$${n:-x}" 2>/dev/null)_*/ 2>/dev/null | head -n1); \
	if [ -n "$$n" ] && [ -n "$$d" ] && [ -f "$$d/kernel.cu" ] && [ "step$$(printf %02d $$n)" != '$@' ]; then \
	  $(MAKE) --no-print-directory step$$(printf %02d $$n); \
	else echo "make $@: no such step (steps: $(STEP_IDS); e.g. make step03)"; exit 2; fi

$(BUILD)/common/%.o: common/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/step%: step%/kernel.cu $(HEADERS) $(HOST_OBJS)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(call arch_of,step$*) $< $(HOST_OBJS) $(LDLIBS) -o $@

# Step 10's chooser is a header of its own folder (the CPU tests include it too).
$(BUILD)/step10_autotune: step10_autotune/chooser.h
$(TEST_BIN): step10_autotune/chooser.h

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
	@$(DEPS_SH) wheel nvidia-cutlass $(CUTLASS_VERSION) cutlass-$(CUTLASS_VERSION)
	@$(DEPS_SH) wheel nvidia-cuda-cuobjdump $(SASS_TOOLS_VERSION) cuobjdump-$(SASS_TOOLS_VERSION)
	@$(DEPS_SH) wheel nvidia-cuda-nvdisasm $(SASS_TOOLS_VERSION) nvdisasm-$(SASS_TOOLS_VERSION)

peers:
	@$(DEPS_SH) wheel nvidia-cutlass $(CUTLASS_VERSION) cutlass-$(CUTLASS_VERSION)
	@$(MAKE) --no-print-directory $(PEER_BINS)

$(BUILD)/peers/cutlass_step%: peers/step%.cu peers/peer.cuh $(HEADERS) $(HOST_OBJS)
	@test -f $(DEPS)/cutlass-$(CUTLASS_VERSION)/.ok || { echo "$@: no CUTLASS headers: run make peers"; exit 2; }
	@mkdir -p $(dir $@)
	$(NVCC) $(PEERFLAGS) $(ARCH_90A) $< $(HOST_OBJS) $(LDLIBS) -lcuda -o $@

deps-system:
	@$(DEPS_SH) system

# Then the report pipeline on a hand-written CSV, what the READMEs and tools
# claim, every README target in a scratch copy of the tree (works, or
# refuses in one line), and every command the exercises name, as written
# (tests/test_exercises.sh).  Every part runs even when one fails; the last line
# is the one verdict (tests/test_all.sh).
test: test-build
	@COURSE_BUILD=$(BUILD) sh tests/test_all.sh $(TEST_BIN)

run:
	$(need_step)
	@$(MAKE) --no-print-directory $(BUILD)/$(step_dir)
	@echo "$(BUILD)/$(step_dir) $(ARGS)"; $(BUILD)/$(step_dir) $(ARGS); rc=$$?; \
	if [ $$rc -eq 3 ]; then $(no_gpu_line); exit 0; fi; exit $$rc

bench: all
	@rc=0; gpu=$$($(GPU_NAME_SH)); if [ -z "$$gpu" ]; then \
	  echo "make bench: no CUDA device here; rendering the recorded results instead"; \
	else STEPS='$(STEPS)' SHAPES='$(SHAPES)' sh plots/bench.sh $(BUILD) plots/results/$$gpu.csv $(BENCH) || rc=$$?; fi; \
	sh plots/render.sh || exit 1; \
	$(DEPS_SH) gnuplot-note; \
	[ $$rc -eq 0 ] || [ $$rc -eq 3 ] || exit $$rc

# Installs nothing: without gnuplot it writes the tables and says how to get the PNGs.
plots:
	@sh plots/render.sh
	@$(DEPS_SH) gnuplot-note

# A smaller problem than the bench's default so the window shows steady state.
# Steps 06-08 walk several tiles per CTA: K = 1024 keeps a tile short enough
# that the 30 us window shows tile boundaries (the epilogue under the next loads).
# Step 09 at the shape it streams (render.sh draws it in a 65 us window: the
# fixup comes at the end).  TIMELINE_US=N overrides the window.
TIMELINE_ARGS ?= $(if $(filter 01 02 03,$(STEP2)),--n-elems 16777216,$(if $(filter 06 07 08,$(STEP2)),--m 4096 --n 4096 --k 1024,$(if $(filter 09,$(STEP2)),--m 1024 --n 1024 --k 14336,--m 4096 --n 4096 --k 4096)))
TIMELINE_US ?=
timeline:
	$(need_step)
	@$(MAKE) --no-print-directory $(BUILD)/$(step_dir)
	@echo "$(BUILD)/$(step_dir) --trace plots/results/timeline_step$(STEP2).csv $(TIMELINE_ARGS) $(ARGS)"; \
	$(BUILD)/$(step_dir) --trace plots/results/timeline_step$(STEP2).csv $(TIMELINE_ARGS) $(ARGS); rc=$$?; \
	if [ $$rc -eq 3 ]; then $(no_gpu_line); exit 0; fi; [ $$rc -eq 0 ] || exit $$rc; \
	TIMELINE_US=$(TIMELINE_US) sh plots/render.sh --timeline $(STEP2)

# The first line says how big the lesson is: kernel.cu lines added + removed.
# diff exits 1 when the files differ: that is the lesson, not an error.
diff:
	$(need_step)
	@test -n "$(prev_dir)" || { echo "make diff STEP=$(STEP): step $(STEP2) has no step before it"; exit 2; }
	@a=$$(diff $(prev_dir)/kernel.cu $(step_dir)/kernel.cu | grep -c '^>'); \
	r=$$(diff $(prev_dir)/kernel.cu $(step_dir)/kernel.cu | grep -c '^<'); \
	echo "# $(prev_dir) -> $(step_dir): $$((a + r)) lines of kernel.cu changed (+$$a -$$r)"; \
	diff -u $(prev_dir)/kernel.cu $(step_dir)/kernel.cu; [ $$? -le 1 ] || exit 2; \
	for h in $(wildcard $(step_dir)/*.h); do \
	  [ -f "$(prev_dir)/$${h##*/}" ] && o="$(prev_dir)/$${h##*/}" || o=/dev/null; \
	  echo "# and the step's header $$h: $$(diff $$o $$h | grep -c '^[<>]') lines changed"; \
	  diff -u $$o $$h; [ $$? -le 1 ] || exit 2; \
	done

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

# cuobjdump -sass runs nvdisasm: both must be there, from the toolkit or PyPI.
sass:
	$(need_step)
	@$(MAKE) --no-print-directory $(BUILD)/$(step_dir)
	@if [ -n "$(CUOBJDUMP)" ] && [ -n "$(NVDISASM)" ]; then \
	  PATH="$(dir $(NVDISASM)):$$PATH" $(CUOBJDUMP) -sass $(BUILD)/$(step_dir); \
	else \
	  $(DEPS_SH) wheel nvidia-cuda-cuobjdump $(SASS_TOOLS_VERSION) cuobjdump-$(SASS_TOOLS_VERSION) && \
	  $(DEPS_SH) wheel nvidia-cuda-nvdisasm $(SASS_TOOLS_VERSION) nvdisasm-$(SASS_TOOLS_VERSION) || { \
	    echo "make sass: needs cuobjdump and nvdisasm: install the toolkit's cuda-cuobjdump and cuda-nvdisasm"; exit 2; }; \
	  o=$$(find $(DEPS)/cuobjdump-$(SASS_TOOLS_VERSION) -name cuobjdump -type f | head -n1); \
	  d=$$(find $(DEPS)/nvdisasm-$(SASS_TOOLS_VERSION) -name nvdisasm -type f | head -n1); \
	  chmod +x "$$o" "$$d"; PATH="$$(dirname "$$d"):$$PATH" "$$o" -sass $(BUILD)/$(step_dir); \
	fi

ptx:
	$(need_step)
	@mkdir -p $(BUILD)
	$(NVCC) $(NVCCFLAGS) $(call arch_of,$(step_dir)) -ptx $(step_dir)/kernel.cu -o $(BUILD)/$(step_dir).ptx
	@echo "wrote $(BUILD)/$(step_dir).ptx"

sanitize: all
	GIT_REV=$(GIT_REV) sh tests/sanitize.sh $(BUILD) plots/results/sanitize.md

# Keeps $(DEPS): on a machine without network it cannot be had again.
clean:
	rm -rf $(filter-out $(DEPS),$(wildcard build/* build/.[!.]*))

distclean:
	rm -rf build
