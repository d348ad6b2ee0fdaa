"""Safeguards (classic ``autogen.agentchat.group.safeguards``): a policy of checks on what agents say to each
other and exchange with tools, the model and the human, with block, mask or warning when a check matches.

``apply_safeguard_policy(agents=[...] or groupchat_manager=..., policy=...)`` installs a policy;
``reset_safeguard_policy`` removes it. The policy format is described in :mod:`.validator`.
"""

from .api import apply_safeguard_policy, reset_safeguard_policy
from .enforcer import SafeguardEnforcer
from .events import SafeguardEvent

__all__ = ["SafeguardEnforcer", "SafeguardEvent", "apply_safeguard_policy", "reset_safeguard_policy"]
