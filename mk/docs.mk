# mk/docs.mk - included by the Makefile (after B, CC, PURE_OBJS):
#   make man          $(B)/man/<tool>.1 for the eight tools, ib_doctor and
#                     ib_fabric,
#                     and $(B)/man/rdmabench.7 (docs/man/rdmabench.7)
#   make completion   $(B)/completion/rdmabench (bash) and
#                     $(B)/completion/_rdmabench (zsh)
# Pages and completion come from the programs' option rows (the benches'
# table, fabric/cli.c, doctor/cli.c) through $(B)/docs/man/gen
# (docs/man/gen.c on common/spec/opts_doc*.c), the source --help uses too.
DOC_GEN    := $(B)/docs/man/gen
MAN_TOOLS  := $(filter ib_%,$(BENCHES))
MAN_PAGES  := $(addprefix $(B)/man/,$(addsuffix .1,$(MAN_TOOLS))) \
	      $(B)/man/rdmabench.7
COMPLETION := $(B)/completion/rdmabench $(B)/completion/_rdmabench

$(DOC_GEN): $(B)/docs/man/gen.o $(PURE_OBJS)
	$(CC) $(LDFLAGS) $^ -lm -o $@

$(B)/man/%.1: $(DOC_GEN)
	@mkdir -p $(dir $@)
	$(DOC_GEN) man $* > $@.tmp && mv $@.tmp $@

$(B)/man/rdmabench.7: docs/man/rdmabench.7
	@mkdir -p $(dir $@)
	cp $< $@

$(B)/completion/rdmabench: $(DOC_GEN)
	@mkdir -p $(dir $@)
	$(DOC_GEN) bash > $@.tmp && mv $@.tmp $@

$(B)/completion/_rdmabench: $(DOC_GEN)
	@mkdir -p $(dir $@)
	$(DOC_GEN) zsh > $@.tmp && mv $@.tmp $@

man: $(MAN_PAGES)

completion: $(COMPLETION)

.PHONY: man completion

# the fast suite checks the pages render and the completion completes
check unit: man completion
