# The two commands of the README (`make app`, `make test`).  Both set up a
# project-local virtual environment (.venv/, from uv.lock) first; nothing is
# installed into a system interpreter.  See README "Set-up".
VENV ?= .venv
PY := $(VENV)/bin/python
PORT ?= 8501

.PHONY: app test fast lint lock clean-env

app:
	bash scripts/setup.sh app
	@$(PY) -c "import socket, sys; sys.exit(socket.socket().connect_ex(('127.0.0.1', $(PORT))) == 0)" \
		|| { echo "make app: port $(PORT) is in use (another server?); choose another: make app PORT=8502" >&2; exit 1; }
	MALLOC_ARENA_MAX=$${MALLOC_ARENA_MAX:-2} $(PY) -m streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

test:
	bash scripts/setup.sh dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy --strict evalcore/
	$(PY) -m pytest -p no:cacheprovider; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; rc=0; fi; exit $$rc

# The fast suite while working: no slow or browser tests, on two cores.  Byte-code is written once
# under .venv/pycache and loaded afterwards, as an installed package's is, even where the environment
# sets PYTHONDONTWRITEBYTECODE (recompiling pandas, streamlit and the tests in every worker and in
# every command a test starts cost more than the tests themselves; docs/decisions.md, the fast loop).
# The tests not marked slow that took over 1 s of CPU are listed at the end.
fast:
	bash scripts/setup.sh dev
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX=$(abspath $(VENV))/pycache \
		$(PY) -m pytest -p no:cacheprovider -q -n 2 -m "not slow and not e2e"

lint:
	$(PY) -m ruff check . && $(PY) -m ruff format --check . && $(PY) -m mypy --strict evalcore/

# Refresh uv.lock after changing dependencies in pyproject.toml (needs .venv: run `make test` once).
lock:
	$(PY) -m uv lock --python 3.11

clean-env:
	rm -rf $(VENV)
