SECRET = "the answer"
