"""Joint segmentation + parsing over morphological lattices (ACL 2012; docs/lattice.md, "What is compared"),
one package: docs/architecture.md, "The lattice package" (:mod:`~evalcore.lattice.model`,
:mod:`~evalcore.lattice.paths`, :mod:`~evalcore.lattice.textalign`, :mod:`~evalcore.lattice.reading`).
The metrics over them are :mod:`evalcore.metrics.segeval`, :mod:`evalcore.metrics.lattice_tedeval`
and :mod:`evalcore.metrics.joint`.
"""
