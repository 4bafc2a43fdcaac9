"""Every writer of tables and reports, one module per metric family, from the result objects
(docs/architecture.md, "Writers: ``evalcore/report/``"); :mod:`~evalcore.report.tables` holds what
they share.  Writers return text (or the JSON document); they never print.
"""
