"""Studies of group chats: run the same group chat many times (at once, or on Ray) and count what happened.

Lives here: the study runner, one chat's record, summaries, run directories and progress. May import
the agent core, ``agentchat.groupchat`` and ``agentchat.group``; nothing below imports this package.

Speaker selection is a policy: to judge one (a transition graph, a selection method, an eligibility
policy, a model), run many chats and count. :func:`run_group_chats` builds a fresh group chat for every
run, starts it and returns one :class:`ChatRecord` per chat (a :class:`StudyResults` list).

Example::

    def make_groupchat():
        return GroupChat(agents=[planner(), coder(), critic()], max_round=6, speaker_selection_method="random")

    records = run_group_chats(make_groupchat, 200, message="Plan the release.", seed=0, concurrency=50,
                              run_dir="runs/random-6")
    print(format_table(records_to_rows(records), columns=["run", "rounds", "speakers", "end_reason"]))
    print(transition_counts(records))
    records.to_dataframe()  # with the dataframe extra

A factory may return a pattern instead (``DefaultPattern``, ``AutoPattern``, ...): its chats run through
``initiate_group_chat``, and each record counts the hand-off that caused every transition
(``handoffs``, ``handoff_kinds``; :func:`handoff_counts`) and keeps the final ``context_variables``.

A factory may also return a :class:`GroupChatFork` (a fork of a recorded chat onto a fresh group chat or
pattern: see ``fork_group_chat``), and may take the chat's index ``run`` to build a different fork for each
chat; :func:`run_forks` is such a study of forks of one recorded chat (``{"at_round": 3, "speaker": "critic"}``,
...), one record per fork.
"""

from .fork_spec import GroupChatFork
from .forks import fork_label, run_forks
from .records import ChatRecord, RejectedChoice, allowed_transitions
from .results import StudyResults, read_jsonl
from .run_dir import StudyMismatchError
from .study import SharedAgentError, a_run_group_chats, run_group_chats
from .ray_runner import WorkerSetupError
from .summaries import (
    condition_counts,
    format_table,
    handoff_counts,
    handoff_kind_counts,
    records_to_rows,
    speaker_counts,
    transition_counts,
)

__all__ = [
    "ChatRecord",
    "GroupChatFork",
    "RejectedChoice",
    "SharedAgentError",
    "StudyMismatchError",
    "StudyResults",
    "WorkerSetupError",
    "a_run_group_chats",
    "allowed_transitions",
    "condition_counts",
    "fork_label",
    "format_table",
    "handoff_counts",
    "handoff_kind_counts",
    "read_jsonl",
    "records_to_rows",
    "run_forks",
    "run_group_chats",
    "speaker_counts",
    "transition_counts",
]
