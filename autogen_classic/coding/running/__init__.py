"""What running a code block needs on any machine: saving it to a file, a process with a time limit, virtual environments,
and the loop of the executors that run each block as a file.

Used by both command-line executors and the classic execute_code; may import only coding's base, utils and
markdown extractor below it.
"""
