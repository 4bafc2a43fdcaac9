% The constructions of evalcore's discrepancy atlas (docs/atlas.md, "Constructions: patterns and
% priority"): the one declaration the atlas reads when no --pattern is given, on the trees of every
% scheme whatever its name.  One mixed UD + SUD set: each entry fires on the trees of the scheme
% that has its relation (UD cop, aux, mark, case; SUD comp:pred, comp:aux, conj:coord, a comp
% under an ADP or a SCONJ) and on no other.  Written as requests (docs/patterns.md, "The language").
%
% Entries are in priority order; a name may head several entries (alternatives).  X is the word
% the construction is about; a head named H takes the construction of its dependent X when the
% word itself matches nothing (tier 2).  A head named otherwise (P) makes the entry tier 1 only.
% A word that no entry names is 'other' (none of the above).  A relation is compared without its
% SUD '@' extension (comp:aux matches comp:aux@tense); 1= is its universal part (before the first
% ':').  The text after '%' on a 'construction' line is the construction's description (the Atlas
% page lists them).
%
% ud.pat and sud.pat hold the entries that fire on the trees of one scheme family: copy one of the
% three to define your own constructions (docs/patterns.md, "Pattern files and constructions").

construction punctuation % punctuation (UPOS PUNCT or relation punct)
% What the word is, never what it governs: a clause is not punctuation because it holds a comma.
pattern { X [upos=PUNCT] }

construction punctuation
pattern { P -[1=punct]-> X }

construction multiword % multiword expression: fixed / flat, or a head with ExtPos
% fixed, flat, flat:name (UD), flat@name, flat@foreign (SUD)
pattern { H -[1=fixed|1=flat]-> X }

construction multiword
% The ExtPos feature marks the head of a multiword expression; it is what the word is (tier 1).
pattern { X [ExtPos] }

construction copula % copula: UD cop, SUD comp:pred
% UD: the copula (cop), and the predicate that governs one; SUD: the predicate under the copula
% (comp:pred), and the copula that governs it.
pattern { H -[cop|comp:pred]-> X }

construction auxiliary % auxiliary chain: UD aux, SUD comp:aux
% UD aux, aux:pass, aux:tense, aux:caus; SUD comp:aux@tense, comp:aux@pass, ...
pattern { H -[1=aux|comp:aux]-> X }

construction subordination % subordinate clause with marker: UD mark, SUD a SCONJ heading its clause
% UD: the marker of a subordinate clause (mark).
pattern { H -[mark]-> X }

construction subordination
% A SCONJ is subordination whatever its relation: SUD's conjunction heading its clause, and on UD
% trees a SCONJ a parser attached as obj, advmod, cc, root... (a fixed SCONJ, 'que' in 'bien
% que', is multiword first).
pattern { X [upos=SCONJ] }

construction subordination
% SUD, tier 1 only (the head is P, not H): the clause is what the word is, under its conjunction.
pattern { P [upos=SCONJ]; P -[1=comp]-> X }

construction adposition % adposition + noun: UD case, SUD an ADP heading its complement
% UD: the adposition of a noun phrase (case).
pattern { H -[case]-> X }

construction adposition
% An ADP is adposition whatever its relation: SUD's adposition heading its complement, and on UD
% trees an ADP attached as xcomp, obl:arg, dep, root... (in the gold and in parses).
pattern { X [upos=ADP] }

construction adposition
% SUD, tier 1 only (the head is P, not H): a comp dependent of an ADP is what the word is, never
% what its head governs.
pattern { P [upos=ADP]; P -[1=comp]-> X }

construction coordination % coordination: conj, conj:coord, cc
% A conjunct (conj; SUD conj:coord, not conj:appos) or a coordinating conjunction (cc, any subtype).
pattern { H -[1=cc|conj|conj:coord]-> X }

construction determiner % determiner + noun: det
% det, any subtype
pattern { H -[1=det]-> X }
