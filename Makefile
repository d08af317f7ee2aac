# rdmabench - RDMA bandwidth/latency benchmarks.
#   make              build every bench/*.c executable into build/
#   make check        unit tests, then lab tests (real verbs in QEMU)
#   make unit         unit tests only (no hardware, no QEMU)
#   make install PREFIX=/usr/local
# Knobs: WERROR=1 (warnings are errors), SAN=1 (ASan+UBSan), B=build dir.

CC      ?= gcc
B       ?= build
PREFIX  ?= /usr/local
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
CPPFLAGS += -Icommon -Igpu -MMD -MP

BENCHES := $(patsubst bench/%.c,%,$(wildcard bench/*.c))
# Pure modules (common/pure.list, one name a line): no <infiniband/*>,
# <rdma/*> or CUDA headers. Unit tests link only these, so a verbs call
# creeping into one breaks the link, and tests/check-pure.sh greps them.
PURE    := $(shell cat common/pure.list)
CORE    := $(patsubst common/%.c,%,$(wildcard common/*.c))
GPU     := $(patsubst gpu/%.c,%,$(wildcard gpu/*.c))
LDLIBS  := -lrdmacm -libverbs -lnuma -ldl -lm
TESTS   := $(patsubst tests/%.c,%,$(wildcard tests/test_*.c))
TESTS_SH := $(patsubst tests/%.sh,%,$(wildcard tests/test_*.sh))

PURE_OBJS := $(patsubst %,$(B)/common/%.o,$(PURE))
CORE_OBJS := $(patsubst %,$(B)/common/%.o,$(CORE)) \
             $(patsubst %,$(B)/gpu/%.o,$(GPU))

all: $(addprefix $(B)/,$(BENCHES))

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c $< -o $@

$(B)/libbench.a: $(CORE_OBJS)
	$(AR) rcs $@ $^

$(B)/%: $(B)/bench/%.o $(B)/libbench.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(B)/tests/%: $(B)/tests/%.o $(PURE_OBJS)
	$(CC) $(LDFLAGS) $^ -lm -o $@

unit-build: $(addprefix $(B)/tests/,$(TESTS))

unit: unit-build
	@tests/check-pure.sh
	@mkdir -p $(B)/tests
	@tests/run-unit.sh $(B)/tests $(TESTS) $(TESTS_SH)

check: all unit-build tools
	@tests/check-pure.sh
	@tests/run-checks.sh $(B)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(addprefix $(B)/,$(BENCHES)) $(DESTDIR)$(PREFIX)/bin

clean:
	rm -rf $(B)

include tests/tools/Makefile.inc
include tests/fakecuda/Makefile.inc

.PHONY: all unit unit-build check install clean
.SECONDARY:
-include $(shell find $(B) -name '*.d' 2>/dev/null)
