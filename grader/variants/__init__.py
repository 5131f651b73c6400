"""Stand-ins for the function under test: behaviour-equivalent TWINS and known-wrong MUTANTS.

Never imported by the grader at run time: ``grader.codegen`` parses these files, renames,
salts and compiles ONE function per run and sends only its bytecode to the sandbox (the
harness installs it in place of the real function). So no name, registry or docstring of a
stand-in ever exists in a student's process. Tests import the modules to check behaviour.

Rules for a stand-in: a plain ``def`` whose signature is the real function's; it may only
use names that exist in the real module's globals (it runs with them); no nested functions,
lambdas or comprehensions; no default arguments.
"""
