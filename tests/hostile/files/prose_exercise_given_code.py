# trick: a prose exercise (EX-11-02) handed a Python file full of keywords
# expect: input_error
# exercise: EX-11-02
# retry backoff dead letter idempotent exponential max_retries
