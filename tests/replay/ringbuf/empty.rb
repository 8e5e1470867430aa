# options:
# Nothing written: the reader finds nothing.
dump
pause
resume
dump
