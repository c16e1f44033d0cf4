# The two commands of README.md:
#   make run    set up everything and open `wave chat` on the embedded defaults
#   make test   set up everything and run the whole test suite against real services
VENV ?= .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install run test lint bench clean-data

$(VENV)/.installed: pyproject.toml wave_agent/web/static/package-lock.json
	test -x $(PY) || python3 -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade uv
	$(VENV)/bin/uv pip install --python $(PY) --compile-bytecode -e '.[dev]'
	# the memory page's JavaScript (htmx, cytoscape.js, Chart.js), pinned, served by Wave itself
	command -v npm >/dev/null && npm ci --prefix wave_agent/web/static --no-audit --no-fund --loglevel=error \
	  || echo "!! npm not found: the memory page loads without its graph and charts"
	touch $@

install: $(VENV)/.installed

run: install
	$(VENV)/bin/wave services up
	$(VENV)/bin/wave chat

test: install
	bash scripts/test.sh

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
