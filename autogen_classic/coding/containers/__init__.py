"""Code execution in Docker containers, on the docker SDK (the ``docker`` extra): the engine, the executor, classic per-block runs.

May import coding's own modules and io; nothing here is imported until Docker is asked for (the SDK is slow to import).
"""
