"""Joint segmentation + parsing over morphological lattices (ACL 2012; docs/lattice.md, "What is compared"),
one package:

* :mod:`~evalcore.lattice.model`: lexemes, alignment blocks, trees over lattice paths, and the
  sentence pairs the joint evaluation scores (values only);
* :mod:`~evalcore.lattice.paths`: one-path lattice files, token sub-lattices, whether a path lies
  in an ambiguity lattice, how segments split into tokens;
* :mod:`~evalcore.lattice.textalign`: raw-text alignment of sentences and tokens by characters;
* :mod:`~evalcore.lattice.reading`: reading gold and predicted files into sentence pairs.

The metrics over them are :mod:`evalcore.metrics.segeval`, :mod:`evalcore.metrics.lattice_tedeval`
and :mod:`evalcore.metrics.joint`.
"""
