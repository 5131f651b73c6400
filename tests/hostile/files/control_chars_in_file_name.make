# trick: a submission whose file name carries terminal controls (OSC title, clear screen, newline, bidi override): every message naming the file must stay clean
# expect: input_error
# exercise: EX-11-01
# make: control-name
