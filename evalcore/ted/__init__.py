"""Tree edit distance: span arithmetic for trees over the same words (``spans``), a general
ordered TED with the optimal mapping for trees over different yields (``general``)."""
