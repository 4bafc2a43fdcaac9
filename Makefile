# The two commands of the README.  Both install what they need first.
PYTHON ?= python3
PORT ?= 8501

.PHONY: app test lint

app:
	bash scripts/setup.sh app
	$(PYTHON) -m streamlit run app.py --server.address 127.0.0.1 --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

test:
	bash scripts/setup.sh dev
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m pytest -p no:cacheprovider; rc=$$?; if [ $$rc -eq 5 ]; then echo "no tests collected"; rc=0; fi; exit $$rc

lint:
	$(PYTHON) -m ruff check . && $(PYTHON) -m ruff format --check .
