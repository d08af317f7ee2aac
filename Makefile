# rdmabench - RDMA bandwidth/latency benchmarks.
#   make              build every bench/*.c executable into build/
#   make check        the fast suite: unit tests, layer, cycle and header
#                     checks (no root, no VM, well under two minutes)
#   make lab          the lab suite: real verbs (rxe, siw) in QEMU guests
#                     (root, scripts/lab/setup.sh first; ~20 minutes)
#   make unit         unit tests only
#   ONLY=NAME...      check, unit, lab: only these tests (make check
#                     ONLY=test_netdev, or its path host/test_netdev, or
#                     a folder of tests/: ONLY=host; make lab
#                     ONLY=address.rxe.hostname);
#                     REL=DIR: the lab's release cases on that build
#                     (docs/testing.md)
#   make hdr-check    every header compiles on its own
#   make style        clang-format the C lines changed since HEAD
#                     (git clang-format; STYLE_BASE=REV: since REV);
#                     make style-check prints what it would change, exit 1
#   make install      PREFIX=/usr/local DESTDIR=; make uninstall, make deb,
#                     make lint-deb, make image-size, make version (mk/install.mk)
# Knobs: WERROR=1 (warnings are errors), SAN=1 (ASan+UBSan), B=build dir.
#
# Layers are folders (docs/architecture.md): common/lib <- host <- spec <-
# report <- rdma <- xfer <- run <- bench/, gpu/ on lib+host, doctor/ on
# lib+host+spec, fabric/ on lib+spec+doctor (NCCL's log), its live/ also on
# host+report+rdma.
# The pure folders include no verbs, rdma_cm or CUDA header;
# unit tests link only them, so a verbs call creeping in breaks the link.

CC      ?= gcc
B       ?= build
CFLAGS  ?= -O2 -g
WARN    := -std=gnu11 -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
           -Wstrict-prototypes -Wwrite-strings -Wno-missing-field-initializers
ifeq ($(WERROR),1)
WARN    += -Werror
endif
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=undefined \
           -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif
CPPFLAGS += -Icommon -I. -MMD -MP
# tests/check-headers.sh compiles each header with these same warnings
export WARN

PURE_DIRS := common/lib common/host common/spec common/report fabric doctor
CORE_DIRS := $(filter common/%,$(PURE_DIRS)) common/rdma common/xfer common/run \
             common/run/session common/run/rails gpu

BENCHES := $(patsubst bench/%.c,%,$(wildcard bench/*.c))
src_of   = $(foreach d,$(1),$(wildcard $(d)/*.c))
PURE_OBJS   := $(patsubst %.c,$(B)/%.o,$(call src_of,$(PURE_DIRS)))
CORE_OBJS   := $(patsubst %.c,$(B)/%.o,$(call src_of,$(CORE_DIRS)))
DOCTOR_OBJS := $(patsubst %.c,$(B)/%.o,$(call src_of,doctor doctor/live))
FABRIC_OBJS := $(patsubst %.c,$(B)/%.o,$(call src_of,fabric fabric/live)) \
               $(B)/doctor/nccl_log.o
LDLIBS  := -lrdmacm -libverbs -lnuma -ldl -lm
# the unit tests, each in the folder of the code it tests (tests/lib/test_fs.c
# -> $(B)/tests/lib/test_fs); tests/run-checks.sh also finds tests/*/test_*.sh
TESTS   := $(patsubst tests/%.c,%,$(wildcard tests/*/test_*.c))

all: $(addprefix $(B)/,$(BENCHES))

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c $< -o $@

$(B)/libbench.a: $(CORE_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(B)/ib_doctor: $(B)/bench/ib_doctor.o $(DOCTOR_OBJS) $(B)/libbench.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/ib_fabric: $(B)/bench/ib_fabric.o $(FABRIC_OBJS) $(B)/libbench.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/%: $(B)/bench/%.o $(B)/libbench.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/tests/%: $(B)/tests/%.o $(PURE_OBJS)
	$(CC) $(LDFLAGS) $^ -lm -o $@

unit-build: $(addprefix $(B)/tests/,$(TESTS))

unit: unit-build tools
	@ONLY='$(or $(ONLY),test_*)' tests/run-checks.sh $(B)

layer-check:
	@tests/check-layers.sh

cycle-check: all
	@tests/check-cycles.sh $(B)

hdr-check:
	@tests/check-headers.sh $(B)

print-warn:
	@echo $(WARN)

check: all unit-build tools
	@ONLY='$(ONLY)' tests/run-checks.sh $(B)

lab: all unit-build tools
	@ONLY='$(ONLY)' tests/run-lab.sh $(if $(REL),-r $(REL)) $(B)

# git clang-format (Debian's clang-format package): only the lines changed
# since STYLE_BASE, staged or not (--force: unstaged ones too), never whole
# old files; a new file once git knows it (git add, or git add -N). Its exit
# status does not tell whether there was a change (clang 14's is always 0,
# later ones may give 1; 2 is an error), so style-check reads its output.
STYLE_BASE ?= HEAD
GIT_CF = command -v git-clang-format >/dev/null || { echo "make $@: git \
	clang-format not found (Debian: apt-get install clang-format)" >&2; \
	exit 2; }; git clang-format --extensions c,h

style:
	@$(GIT_CF) --force $(STYLE_BASE); [ $$? -le 1 ]

style-check:
	@out=$$($(GIT_CF) --diff $(STYLE_BASE)); rc=$$?; echo "$$out"; \
	[ $$rc -le 1 ] || exit 2; case $$out in "diff "*) exit 1; esac

clean:
	rm -rf $(B)

include mk/install.mk
include tests/tools/Makefile.inc
include tests/fakecuda/Makefile.inc
include tests/nulldev/Makefile.inc
include mk/docs.mk

.PHONY: all unit unit-build check lab layer-check cycle-check hdr-check \
	style style-check clean print-warn
.SECONDARY:
-include $(shell find $(B) -name '*.d' 2>/dev/null)
