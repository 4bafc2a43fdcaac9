% The constructions of evalcore's discrepancy atlas for UD trees (docs/atlas.md, "Constructions:
% patterns and priority"), written as requests (docs/patterns.md, "The language").
%
% Entries are in priority order; a name may head several entries (alternatives).  X is the word
% the construction is about; a head named H takes the construction of its dependent X when the
% word itself matches nothing (tier 2).  A head named otherwise (P) makes the entry tier 1 only.
% A word that no entry names is 'other'.  A relation is compared without a SUD '@' extension;
% 1= is its universal part (before the first ':').
%
% Copy this file and edit it to define your own constructions (docs/patterns.md, "Pattern files
% and constructions").

construction punctuation % UPOS PUNCT or relation punct
% What the word is, never what it governs: a clause is not punctuation because it holds a comma.
pattern { X [upos=PUNCT] }

construction punctuation
pattern { P -[1=punct]-> X }

construction multiword % fixed / flat (any subtype), or a word with ExtPos
pattern { H -[1=fixed|1=flat]-> X }

construction multiword
% The ExtPos feature marks the head of a multiword expression; it is what the word is (tier 1).
pattern { X [ExtPos] }

construction copula % the copula itself (cop), and the predicate that governs one
pattern { H -[cop]-> X }

construction auxiliary % aux, aux:pass, aux:tense, aux:caus
pattern { H -[1=aux]-> X }

construction subordination % the marker of a subordinate clause (mark)
pattern { H -[mark]-> X }

construction subordination
% A SCONJ is subordination whatever its relation: a SUD rule of the atlas that also fires on UD
% trees, on a SCONJ a parser attached as obj, advmod, cc, root... (a fixed SCONJ, 'que' in
% 'bien que', is multiword first).
pattern { X [upos=SCONJ] }

construction adposition % the adposition of a noun phrase (case)
pattern { H -[case]-> X }

construction adposition
% An ADP is adposition whatever its relation: a SUD rule of the atlas that also fires on UD trees,
% on an ADP attached as xcomp, obl:arg, dep, root... (in the gold and in parses).
pattern { X [upos=ADP] }

construction coordination % a conjunct (conj) or a coordinating conjunction (cc, any subtype)
pattern { H -[1=cc|conj]-> X }

construction determiner % det, any subtype
pattern { H -[1=det]-> X }
