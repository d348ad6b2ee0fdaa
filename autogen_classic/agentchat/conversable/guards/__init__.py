"""What an agent checks before and after it speaks: guardrails (guardrails) and the hooks safeguard policies
attach to (safeguard_hooks)."""
