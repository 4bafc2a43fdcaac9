"""Every writer of tables and reports, one module per metric family, from the result objects.

* :mod:`~evalcore.report.tables`: what they share -- aligned text tables, CSV (formula cells
  neutralized), JSON, LaTeX escaping;
* :mod:`~evalcore.report.attach`, :mod:`~evalcore.report.tedeval` (the papers' table as text and
  LaTeX), :mod:`~evalcore.report.parseval` (evalb's report, line for line),
  :mod:`~evalcore.report.freval`, :mod:`~evalcore.report.lattice` (the scenario table),
  :mod:`~evalcore.report.conll18` (the CoNLL 2018 scorer's ``-v`` and ``-c`` tables, and
  the aligned scores of ``evalcore attach``), :mod:`~evalcore.report.breakdown` (``--by`` and
  ``--confusion``).

The command line (:mod:`evalcore.commands`), the app's pages and workbench and the experiments
import their writers from here; a new output format goes here too.  Writers return text (or the
JSON document); they never print.
"""
