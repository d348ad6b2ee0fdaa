"""An agent's tools: registering functions for the model and for execution (``registry``), and reading the
tool responses in a conversation (``responses``)."""
