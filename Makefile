# ipsoeval — set-up, tests, demo, benchmarks, man pages.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
IPSO    = $(VENV)/bin/ipsoeval
PREFIX ?= $(HOME)/.local
MANDIR ?= $(PREFIX)/share/man/man1
TD      = testdata

.PHONY: help demo test test-all lint fuzz bench bench-quick man manpages clean install difftest-regen browser-deps latex-deps

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 10

# Two stamps: `make demo` installs what a user runs (the runtime and the plot
# extra: .installed-demo); `make test` adds the test and pandas extras on top
# (.installed), so demo-then-test and test alone both end with everything.
# Quiet: no pip version notice, no setuptools build-backend warning boxes.
PIP = PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONWARNINGS=ignore $(PY) -m pip
# an editable install whose .pth names the checkout (setuptools' compat mode)
# rather than an import hook: every process of the venv starts 0.015-0.026 s
# sooner (`ipsoeval --help` 0.139 -> 0.113 s CPU, medians of 15; README "Speed")
EDITABLE = --config-settings editable_mode=compat

$(VENV)/.installed-demo: pyproject.toml setup.py ipsoeval/_core.c  # the C core is built by pip
	@echo "installing ipsoeval (runtime and plot extra) into $(VENV) ..."
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) install -q --upgrade pip
	@$(PIP) install -q $(EDITABLE) -e '.[plot]'
	@touch $@

$(VENV)/.installed: $(VENV)/.installed-demo
	@echo "installing the test and pandas extras into $(VENV) ..."
	@$(PIP) install -q $(EDITABLE) -e '.[test,pandas,plot]'   # extras: the API and --plot tests run too
	@touch $@

install: $(VENV)/.installed  ## create .venv and install ipsoeval with test, pandas and plot extras

demo: $(VENV)/.installed-demo  ## install the runtime and the plot extra, then run the main jobs on testdata/
	@echo '$$ ipsoeval eval testdata/adhoc/qrels.txt testdata/adhoc/run-bm25.txt  (trec_eval layout)'
	@$(IPSO) eval --format trec $(TD)/adhoc/qrels.txt $(TD)/adhoc/run-bm25.txt
	@echo
	@echo '$$ ipsoeval eval -q -m P@5 -m nDCG@10 -m AP --format table ... two runs'
	@$(IPSO) eval --format table -m P@5 -m nDCG@10 -m AP -m RR $(TD)/adhoc/qrels.txt $(TD)/adhoc/run-bm25.txt $(TD)/adhoc/run-neural.txt
	@echo
	@echo '$$ ipsoeval breakdown ... testdata/msmarco (Lin et al. 2021, Table 2)'
	@$(IPSO) breakdown --format table $(TD)/msmarco/qrels.txt $(TD)/msmarco/baseline.run.xz $(TD)/msmarco/more-answers.run.xz $(TD)/msmarco/better-ranking.run.xz $(TD)/msmarco/better-both.run.xz $(TD)/msmarco/same-team.run.xz $(TD)/msmarco/fewer-answers.run.xz $(TD)/msmarco/top-heavy.run.xz
	@echo
	@echo '$$ ipsoeval compare -m AP -m nDCG@10 -m P@10 -m RR ... testdata/adhoc (the table of a paper)'
	@$(IPSO) compare --format table -m AP -m nDCG@10 -m P@10 -m RR $(TD)/adhoc/qrels.txt $(TD)/adhoc/run-bm25.txt $(TD)/adhoc/run-neural.txt
	@echo
	@echo '$$ ipsoeval sigtest -m RR@10 -m nDCG@10 ... testdata/msmarco (scale-aware tests, Holm correction)'
	@$(IPSO) sigtest --format table -m RR@10 -m nDCG@10 --correct holm $(TD)/msmarco/qrels.txt $(TD)/msmarco/baseline.run.xz $(TD)/msmarco/more-answers.run.xz $(TD)/msmarco/better-ranking.run.xz
	@echo
	@echo '$$ ipsoeval ipso testdata/ipso-fig5 (Moffat & Mackenzie 2024, Figure 5)'
	@$(IPSO) ipso --format table $(TD)/ipso-fig5/qrels.txt $(TD)/ipso-fig5/sysA.run $(TD)/ipso-fig5/sysB.run
	@echo
	@echo '$$ ipsoeval bootstrap ... testdata/msmarco (Craswell et al. 2021, Tables 1-2 and 4)'
	@$(IPSO) bootstrap --format table -m RR@10 --baseline baseline $(TD)/msmarco/qrels.txt $(TD)/msmarco/*.run.xz
	@$(IPSO) bootstrap --format table -m RR@10 -m nDCG@10 --split-half 100 --aggregate mean,median $(TD)/msmarco/qrels.txt $(TD)/msmarco/*.run.xz
	@echo
	@echo '$$ ipsoeval interval-map ... testdata/adhoc (Ferrante et al. 2021): means before and after the map'
	@$(IPSO) interval-map --format table -m P@10 -m RR@10 -m 'DCG(b=2)@10' -m AP@10 -l 1 $(TD)/adhoc/qrels.txt $(TD)/adhoc/run-bm25.txt $(TD)/adhoc/run-neural.txt
	@echo
	@echo '$$ ipsoeval nuggets ... testdata/nuggets (generated answers: LLM nugget assignments, 4 systems x 20 topics)'
	@$(IPSO) nuggets --format table $(TD)/nuggets/auto.jsonl
	@echo '$$ ipsoeval ppi --nuggets ... (human assignments on 8 topics, LLM on all 20: PPI++)'
	@$(IPSO) ppi --nuggets --format table -m nugget_vital_strict --human $(TD)/nuggets/human.tsv --auto $(TD)/nuggets/auto.jsonl
	@echo
	@echo '$$ ipsoeval repro ... testdata/repro (Breuer et al. 2020: an experiment and its reproduction)'
	@$(IPSO) repro --format table -m AP -m nDCG@10 $(TD)/repro/qrels.txt $(TD)/repro/orig_base.run $(TD)/repro/orig_adv.run $(TD)/repro/rep_base.run $(TD)/repro/rep_adv.run

# the suite on TEST_JOBS processes (pytest-xdist), each test file in one of them
# (a module's fixtures -- the examples' sandbox, the Ray cluster, the built
# wheel -- are made once); TEST_JOBS=0 runs it in this process
TEST_JOBS ?= 2
PYTEST    = $(PY) -m pytest -q -n $(TEST_JOBS) --dist loadfile

test: $(VENV)/.installed  ## install, then run the test suite (tests marked slow only in CI, CI=true)
	$(PYTEST)

test-all: $(VENV)/.installed  ## the whole test suite, slow tests included (as CI runs it)
	$(PYTEST) --run-slow

FUZZ_N    ?= 100000
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
fuzz: $(VENV)/.installed  ## fuzz every subcommand with 10^5 inputs (FUZZ_N, FUZZ_JOBS, FUZZ_ARGS)
	$(PY) tests/fuzz/run.py -n $(FUZZ_N) -j $(FUZZ_JOBS) --save fuzz-failures $(FUZZ_ARGS)

difftest-regen:  ## regenerate tests/data/differential (golden outputs too with TREC_EVAL=/path/to/trec_eval)
	$(if $(TREC_EVAL),TREC_EVAL=$(TREC_EVAL) ,)$(PYTHON) tests/differential/generate.py $(if $(TREC_EVAL),--golden,)

lint: $(VENV)/.installed  ## static checks (ruff)
	$(PY) -m pip install -q ruff
	$(PY) -m ruff check ipsoeval tests bench

bench: $(VENV)/.installed  ## speed and memory next to trec_eval, pytrec_eval, ranx
	$(PY) -m pip install -q pytrec-eval-terrier ranx || echo "peers not installed; ipsoeval only"
	$(PY) bench/run.py $(BENCH_ARGS)

bench-quick: $(VENV)/.installed  ## a small smoke run of the benchmarks
	$(PY) bench/run.py --quick $(BENCH_ARGS)

manpages: $(VENV)/.installed  ## rewrite each man page's SYNOPSIS from the commands' declarations
	$(PY) -m ipsoeval.cli.manpages

man:  ## install the man pages under $(MANDIR)
	install -d $(MANDIR)
	install -m 644 man/*.1 $(MANDIR)/
	@echo "installed: $$(ls man/*.1 | tr '\n' ' ')-> $(MANDIR)"

clean:  ## remove the virtualenv, caches and generated bench data
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis bench/data bench/results.tsv fuzz-failures
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# apt-get as root or through sudo; `apt-get update` only when the install
# fails without it, so .ci/run's browser-deps then latex-deps update the lists once
APT_INSTALL = if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; \
	else echo "make $@: installing $(1) needs root or sudo (apt-get install $(1))" >&2; exit 1; fi; \
	$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(1) \
	    || { $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(1); }

browser-deps:  ## install Debian's chromium for the browser test of `ipsoeval report` (needs root or sudo)
	@if [ -x /usr/bin/chromium ]; then echo "chromium: $$(/usr/bin/chromium --version 2>/dev/null)"; \
	else $(call APT_INSTALL,chromium); fi

LATEX_PKGS = texlive-latex-base texlive-latex-recommended poppler-utils
latex-deps:  ## install Debian's pdflatex, booktabs and pdftoppm for the LaTeX compile test (needs root or sudo)
	@if command -v pdflatex >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 \
	    && kpsewhich booktabs.sty >/dev/null 2>&1; then \
	    echo "latex: $$(pdflatex --version | head -n 1); $$(pdftoppm -v 2>&1 | head -n 1)"; \
	else $(call APT_INSTALL,$(LATEX_PKGS)); fi
