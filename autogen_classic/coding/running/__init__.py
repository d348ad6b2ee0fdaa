"""What running a code block needs on any machine: saving it to a file, a process with a time limit, virtual environments.

Used by both command-line executors and the classic execute_code; may import only coding's utils below it.
"""
