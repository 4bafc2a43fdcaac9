% The constructions of evalcore's discrepancy atlas for SUD trees (docs/atlas.md, "Constructions:
% patterns and priority"), written as requests (docs/patterns.md, "The language").
%
% Entries are in priority order; a name may head several entries (alternatives).  X is the word
% the construction is about; a head named H takes the construction of its dependent X when the
% word itself matches nothing (tier 2).  A head named otherwise (P) makes the entry tier 1 only.
% A word that no entry names is 'other'.  A relation is compared without its SUD '@' extension
% (comp:aux matches comp:aux@tense); 1= is its universal part (before the first ':').
%
% Copy this file and edit it to define your own constructions (docs/patterns.md, "Pattern files
% and constructions").

construction punctuation % UPOS PUNCT or relation punct
% What the word is, never what it governs: a clause is not punctuation because it holds a comma.
pattern { X [upos=PUNCT] }

construction punctuation
pattern { P -[1=punct]-> X }

construction multiword % flat@name, flat@foreign, fixed; or a word with ExtPos
pattern { H -[1=fixed|1=flat]-> X }

construction multiword
pattern { X [ExtPos] }

construction copula % the predicate under a copula (comp:pred), and the copula that governs it
pattern { H -[comp:pred]-> X }

construction auxiliary % the verb under an auxiliary (comp:aux@tense, comp:aux@pass, ...)
pattern { H -[comp:aux]-> X }

construction subordination % a SCONJ heading its clause, and the head of that clause
pattern { X [upos=SCONJ] }

construction subordination
% Tier 1 only (the head is P, not H): the clause is what the word is, under its conjunction.
pattern { P [upos=SCONJ]; P -[1=comp]-> X }

construction adposition % an ADP heading its complement, and that complement
pattern { X [upos=ADP] }

construction adposition
% Tier 1 only (the head is P, not H): a comp dependent of an ADP is what the word is, never what
% its head governs.
pattern { P [upos=ADP]; P -[1=comp]-> X }

construction coordination % conj, conj:coord (not conj:appos), cc
pattern { H -[1=cc|conj|conj:coord]-> X }

construction determiner % det, any subtype
pattern { H -[1=det]-> X }
