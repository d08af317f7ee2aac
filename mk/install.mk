# SPDX-License-Identifier: BSD-2-Clause
# mk/install.mk - included by the Makefile (after B, BENCHES): the version.
#
#   make version   print the version the build passes to the code
#
# The version (scripts/version.sh: git describe, else the VERSION file) is
# compiled into the objects whose source names RDMABENCH_VERSION, as
# -DRDMABENCH_VERSION; they rebuild when it changes ($(B)/version.stamp is
# rewritten only then). RDMABENCH_VERSION=X.Y.Z on the command line wins.

# ------------------------------------------------------------------ version
RDMABENCH_VERSION ?= $(shell scripts/version.sh)
ifneq ($(shell printf '%s' '$(RDMABENCH_VERSION)' | tr -d 'A-Za-z0-9.+~-'),)
$(error RDMABENCH_VERSION='$(RDMABENCH_VERSION)' may hold only letters, digits and . + ~ -: give e.g. RDMABENCH_VERSION=0.2.0)
endif
VERSION_OBJS := $(patsubst %.c,$(B)/%.o,$(shell grep -l RDMABENCH_VERSION \
	$(call src_of,$(CORE_DIRS) doctor doctor/live bench) /dev/null))

$(VERSION_OBJS): CPPFLAGS += -DRDMABENCH_VERSION='"$(RDMABENCH_VERSION)"'
$(VERSION_OBJS): $(B)/version.stamp

# rewritten only when the version changes, so only then do objects rebuild
$(B)/version.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(RDMABENCH_VERSION)' | cmp -s - $@ || \
		echo '$(RDMABENCH_VERSION)' > $@

version:
	@echo '$(RDMABENCH_VERSION)'

.PHONY: version FORCE
