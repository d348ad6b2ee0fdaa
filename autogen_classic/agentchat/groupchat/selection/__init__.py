"""Choosing the next speaker of a group chat: candidates, methods (auto, manual, ...), rules, the trace.

May import the agent core and the utilities; never the GroupChat class (it sees a group chat as ``state.GroupState``).

Modules: ``pipeline`` (the entry points and the methods), ``candidates`` (function-call filter, repeat
rule, transition graph, eligibility policies), ``manual`` (the console menu), ``auto`` (the nested
selector chat), ``structured`` (the one-call JSON answer, the addressed-by-name rule), ``role_match``
(the role-match rule), ``adapters`` (0.4-style ``selector_func`` / ``candidate_func``), ``trace`` (the
selection records) and ``state`` (the view of the group chat).
"""
