# SPDX-License-Identifier: BSD-2-Clause
# mk/install.mk - included by the Makefile (after B, BENCHES): the version,
# installing, the Debian package and the runtime image's size.
#
#   make install   [PREFIX=/usr/local] [DESTDIR=]  the eight tools,
#                  ib_doctor and ib_fabric (stripped), man pages, bash and
#                  zsh completion, the docs (README.md, docs/ under it), the
#                  result schemas and the report scripts in
#                  $(PREFIX)/share/rdmabench (docs/install.md lists them);
#                  DEB_BUILD_OPTIONS=nostrip or INSTALL_STRIP= keeps the
#                  symbols
#   make uninstall [PREFIX=] [DESTDIR=]  removes every file install puts
#   make deb       build/deb/rdmabench_<version>_<arch>.deb with Debian's
#                  tools (debian/, dpkg-buildpackage) from a copy of the tree
#   make lint-deb  lintian on what make deb built: any E: or W: fails
#   make image-size  deploy/Dockerfile without docker: its build stage on
#                  the context alone, and what its runtime stage adds
#   make version   print the version the build passes to the code
#
# The version (scripts/version.sh: git describe, else the VERSION file) is
# compiled into the objects whose source names RDMABENCH_VERSION, as
# -DRDMABENCH_VERSION; they rebuild when it changes ($(B)/version.stamp is
# rewritten only then). RDMABENCH_VERSION=X.Y.Z (command line or
# environment, not empty) wins.

PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/rdmabench
DATADIR     ?= $(PREFIX)/share/rdmabench
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/vendor-completions
INSTALL     ?= install
STRIP       ?= strip
ifeq ($(filter nostrip,$(DEB_BUILD_OPTIONS)),)
INSTALL_STRIP ?= -s --strip-program=$(STRIP)
endif
DOCS        := README.md
# the report scripts and what they import (scripts/k8s/collect.py: the
# result versions they read); scripts/fabric_*.py by glob, every module
# of the fabric report
DATA_SCRIPTS := scripts/compare.py scripts/afile.py $(wildcard scripts/fabric_*.py)

# ------------------------------------------------------------------ version
ifeq ($(strip $(RDMABENCH_VERSION)),)
RDMABENCH_VERSION := $(shell scripts/version.sh)
endif
ifneq ($(shell printf '%s' '$(RDMABENCH_VERSION)' | tr -d 'A-Za-z0-9.+~-'),)
$(error RDMABENCH_VERSION='$(RDMABENCH_VERSION)' may hold only letters, digits and . + ~ -: give e.g. RDMABENCH_VERSION=0.2.0)
endif
VERSION_OBJS := $(patsubst %.c,$(B)/%.o,$(shell grep -l RDMABENCH_VERSION \
	$(call src_of,$(CORE_DIRS) doctor doctor/live fabric fabric/live \
	bench) /dev/null))

$(VERSION_OBJS): CPPFLAGS += -DRDMABENCH_VERSION='"$(RDMABENCH_VERSION)"'
$(VERSION_OBJS): $(B)/version.stamp

# rewritten only when the version changes, so only then do objects rebuild
$(B)/version.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(RDMABENCH_VERSION)' | cmp -s - $@ || \
		echo '$(RDMABENCH_VERSION)' > $@

version:
	@echo '$(RDMABENCH_VERSION)'

# ------------------------------------------------------------------ install
# man pages and completion come from mk/docs.mk (make man completion) where
# that file exists; install puts whichever of them were built
INSTALL_DOCS_DEPS := $(if $(wildcard mk/docs.mk),man completion)

# install_glob DIR MODE PATTERN: every file PATTERN matches, into DIR
install_glob = for f in $(3); do [ -f "$$f" ] || continue; \
	$(INSTALL) -d "$(DESTDIR)$(1)" && \
	$(INSTALL) -m $(2) "$$f" "$(DESTDIR)$(1)/" || exit 1; done

# install_script DIR FILES: a script (#! first) executable, a module not;
# a file not there is skipped, as install_glob does (the image's build
# stage has no scripts/: deploy/Dockerfile.dockerignore)
install_script = for f in $(2); do [ -f "$$f" ] || continue; \
	m=644; [ "$$(head -c 2 "$$f")" = '\#!' ] && m=755; \
	$(INSTALL) -d "$(DESTDIR)$(1)" && \
	$(INSTALL) -m $$m "$$f" "$(DESTDIR)$(1)/" || exit 1; done

install: all $(INSTALL_DOCS_DEPS)
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)"
	$(INSTALL) -m 755 $(INSTALL_STRIP) $(addprefix $(B)/,$(BENCHES)) \
		"$(DESTDIR)$(BINDIR)"
	@$(call install_glob,$(MANDIR)/man1,644,$(B)/man/*.1)
	@$(call install_glob,$(MANDIR)/man7,644,$(B)/man/*.7)
	@$(call install_glob,$(ZSHCOMPDIR),644,$(B)/completion/_rdmabench)
	@$(call install_glob,$(BASHCOMPDIR),644,$(B)/completion/rdmabench)
	@if [ -f "$(DESTDIR)$(BASHCOMPDIR)/rdmabench" ]; then \
		for t in $(BENCHES); do \
			ln -sf rdmabench "$(DESTDIR)$(BASHCOMPDIR)/$$t" || exit 1; \
		done; fi
	@$(call install_glob,$(DOCDIR),644,$(DOCS))
	@$(call install_glob,$(DOCDIR)/docs,644,docs/*.md)
	@$(call install_glob,$(DOCDIR)/docs/img,644,docs/img/*.png)
	@$(call install_glob,$(DATADIR)/schema,644,results/schema/*)
	@$(call install_script,$(DATADIR)/scripts,$(DATA_SCRIPTS))
	@$(call install_script,$(DATADIR)/scripts/k8s,scripts/k8s/collect.py)
	@case "$(DESTDIR)|:$$PATH:" in "|"*":$(BINDIR):"*":/usr/bin:"*) \
		[ -e /usr/bin/ib_write_bw ] && echo "note: $(BINDIR)/ib_* now" \
			"shadow /usr/bin/ib_* (perftest?) in PATH; PREFIX=/opt/rdmabench" \
			"keeps both reachable";; esac; true

uninstall:
	rm -f $(addprefix "$(DESTDIR)$(BINDIR)"/,$(BENCHES)) \
		$(addprefix "$(DESTDIR)$(MANDIR)/man1"/,$(BENCHES:=.1)) \
		"$(DESTDIR)$(MANDIR)/man7/rdmabench.7" \
		$(addprefix "$(DESTDIR)$(BASHCOMPDIR)"/,rdmabench $(BENCHES)) \
		"$(DESTDIR)$(ZSHCOMPDIR)/_rdmabench"
	@for f in $(B)/man/*.[17]; do [ -f "$$f" ] || continue; \
		rm -f "$(DESTDIR)$(MANDIR)/man$${f##*.}/$${f##*/}"; done
	rm -rf "$(DESTDIR)$(DOCDIR)" "$(DESTDIR)$(DATADIR)"

# ------------------------------------------------------------------ package
DEB_DIR := $(B)/deb

deb:
	scripts/make-deb.sh "$(DEB_DIR)" "$(RDMABENCH_VERSION)"

lint-deb:
	scripts/make-deb.sh --lint "$(DEB_DIR)"

# the lab installs the package in its guest (tests/lab/cases/package.sh):
# built first wherever debhelper is
lab: $(if $(shell command -v dh 2> /dev/null),deb)

image-size:
	scripts/image-size.sh "$(B)"

# the image from deploy/Dockerfile with podman, plain and SETCAP=1
# (localhost/rdmabench:ci, :ci-setcap), for the lab's k8s-image boot
image:
	scripts/image.sh

.PHONY: install uninstall deb lint-deb image-size image version FORCE
